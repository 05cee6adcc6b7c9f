"""The text as the filter reads it, and the way back to the text as written.

A value must not hide behind how it is spelled. Before any rule runs, the filter
makes a *view* of the text in which

* compatibility forms are folded (NFKC): full-width ``＠`` and ``４``, ligatures,
  mathematical and circled letters and digits, the no-break and other spaces; all
  but the full-width colon and comma (``：``, ``，``), which Chinese and Japanese
  write with no space after them and the rules read as such (``姓名：王伟``, where
  an ASCII colon with no space after it reads as part of a value: ``host:8080``),
  and symbols that stand for a word (``№``, ``™``, ``℡``, ``㈱``), which folded
  would read as one (``Паспорт №:`` is no name ``Паспорт No``);
* default-ignorable and format characters are dropped: zero-width space and
  joiners (U+200B to U+200D), the word joiner (U+2060), the soft hyphen (U+00AD),
  the byte order mark (U+FEFF), bidirectional controls, variation selectors, tags;
* every decimal digit is an ASCII digit, in whatever script it was written
  (Persian ``۰۹۱۲``, Arabic-Indic, Devanagari, Bengali, Thai, full-width,
  mathematical).

Rules match the view; each finding is then mapped back to the span of the
original text it came from, so the marker replaces every character of the value
as written, the invisible ones inside it included: none of them is left around
the marker. Characters next to the value, invisible or not, stay where they are.

Folding works on one character at a time, a letter taking the combining marks
that follow it with it (so ``e`` and U+0301 read as ``é``). A text of ASCII
characters only, the common case, is its own view and costs one check; elsewhere
only runs of non-ASCII characters that would change are looked at one by one.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import operator
import re
import unicodedata

from ._rule import Finding

# Default-ignorable code points (Unicode's Default_Ignorable_Code_Point) and the format
# characters (category Cf) outside that set: none of them is seen in rendered text.
_IGNORABLE = re.compile(
    "["
    "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
    "\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufffb"
    "\u0600-\u0605\u06dd\u070f\u0890\u0891\u08e2"
    "\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
    "\U000e0000-\U000e0fff"
    "]"
)
# A decimal digit of any script but ASCII's (Python's \d is Unicode category Nd).
_OTHER_DIGIT = re.compile(r"(?![0-9])\d")
# Either, found by a search that skips ASCII characters at the speed of a character class.
_SPECIAL = re.compile(rf"[^\x00-\x7f](?:(?<=\d)|(?<={_IGNORABLE.pattern}))")
_NON_ASCII = re.compile(r"[^\x00-\x7f]+")
_nfkc = functools.partial(unicodedata.normalize, "NFKC")
# Read as written, not folded: see the module's description.
_AS_WRITTEN = frozenset("：，")


def _as_written(char: str) -> bool:
    """Whether NFKC would change ``char`` but the view keeps it as written."""
    return char in _AS_WRITTEN or (unicodedata.category(char)[0] == "S" and len(_nfkc(char)) > 1)


class View:
    """A text as the rules read it (:attr:`text`), and :meth:`span` to map back.

    Where the view differs from the text, it holds one record per changed piece:
    the piece's span in the view and in the text. Between records the two run in
    step, shifted by what the records before changed.
    """

    __slots__ = ("_after", "_at", "_from", "_to", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self._at: list[int] = []  # where each changed piece starts in the view
        self._after: list[int] = []  # and where it ends there (equal: a dropped piece)
        self._from: list[int] = []  # where the piece starts in the text as written
        self._to: list[int] = []  # and where it ends there

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The span of the text as written that the view's ``[start, end)`` came from
        (``end > start``): every character behind the first and the last one read."""
        if not self._at:
            return start, end
        return self._origin(start, last=False), self._origin(end - 1, last=True)

    def place(self, found: list[Finding]) -> list[tuple[Finding, str]]:
        """Findings in the view (in order, none overlapping) at their spans in the text
        as written, each with its value as the view reads it.

        Two findings that end and start inside the one character they came from (one
        character folds to several: ``⑽`` to ``(10)``) become one, so that no character
        is replaced twice; it is the blocked one if either is blocked.
        """
        text = self.text
        if not self._at:
            return [(f, text[f.start : f.end]) for f in found]
        placed: list[tuple[Finding, str]] = []
        for f in found:
            value = text[f.start : f.end]
            start, end = self.span(f.start, f.end)
            if placed and placed[-1][0].end > start:
                before, seen = placed.pop()
                f = f if f.action == "block" else before
                start, end, value = before.start, max(end, before.end), seen + value
            placed.append((Finding(f.rule, f.kind, f.category, start, end, f.action), value))
        return placed

    def seen(self, start: int, end: int) -> tuple[int, int]:
        """The span of the view that reads the text's ``[start, end)``: every piece of the
        view that came from a character in it (the way :meth:`span` goes, reversed)."""
        if not self._at:
            return start, end
        return self._seen(start, last=False), self._seen(end, last=True)

    def _seen(self, at: int, *, last: bool) -> int:
        # Records that end at or before ``at`` in the text lie wholly before it; the next
        # may hold it, and then the whole piece it came into the view as is taken.
        k = bisect.bisect_right(self._to, at)
        if k < len(self._at) and self._from[k] < at:
            return self._after[k] if last else self._at[k]
        return at + (self._after[k - 1] - self._to[k - 1] if k else 0)

    def _origin(self, at: int, *, last: bool) -> int:
        # Records that end at or before ``at`` lie wholly before it (a dropped piece right
        # there included: it came before the character at ``at``); the next may hold it.
        k = bisect.bisect_right(self._after, at)
        if k < len(self._at) and self._at[k] <= at:
            return self._to[k] if last else self._from[k]
        shift = self._to[k - 1] - self._after[k - 1] if k else 0
        return at + shift + (1 if last else 0)


def normalized(text: str) -> str:
    """The text as the filter's rules read it: see the module's description."""
    return view(text).text


def view(text: str) -> View:
    """The text as the rules read it, and the way back; see the module's description."""
    if text.isascii():
        return View(text)
    # Most other texts read as written too: one check of the whole text tells, with the
    # characters read as written (the full-width colon and comma) put out of its way.
    quiet = text.replace("：", "、").replace("，", "、")  # 、 is stable under NFKC
    if not _SPECIAL.search(text) and unicodedata.is_normalized("NFKC", quiet):
        return View(text)
    out: list[str] = []
    result = View("")
    done = 0  # text[:done] is in ``out``
    size = 0  # the length of the view so far
    for run in _NON_ASCII.finditer(text):
        start, end = run.span()
        head = start - 1 if start and unicodedata.combining(text[start]) else start
        if unicodedata.is_normalized("NFKC", text[head:end]) and not _SPECIAL.search(
            text, head, end
        ):
            continue
        for a, b in _pieces(text, start, end):
            was = text[a:b]
            now = fold(was)
            if now == was:
                continue
            out.append(text[done:a])
            size += a - done
            result._at.append(size)
            result._from.append(a)
            out.append(now)
            size += len(now)
            result._after.append(size)
            result._to.append(b)
            done = b
    out.append(text[done:])
    result.text = "".join(out)
    return result


def fold(piece: str) -> str:
    """One piece of text as the view reads it: no invisible characters, NFKC, ASCII digits."""
    if piece and _as_written(piece[0]):
        return piece[0] + fold(piece[1:])
    piece = _nfkc(_IGNORABLE.sub("", piece))
    if piece.isascii():
        return piece
    piece = _IGNORABLE.sub("", piece)
    return _OTHER_DIGIT.sub(lambda m: str(unicodedata.decimal(m[0])), piece)


def _pieces(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The spans in ``text[start:end]`` (a run of non-ASCII characters) that may read
    differently in the view: a character NFKC changes, an invisible one, a digit of
    another script, or a letter with the combining marks after it (the letter may be
    the ASCII one just before the run). Everything else reads as written."""
    run = text[start:end]
    nfkc = itertools.compress(itertools.count(start), map(operator.ne, run, map(_nfkc, run)))
    changed = (at for at in nfkc if not _as_written(text[at]))
    marks = set(itertools.compress(itertools.count(start), map(unicodedata.combining, run)))
    special = (start + m.start() for m in _SPECIAL.finditer(run))
    spans: list[tuple[int, int]] = []
    for at in sorted({*changed, *marks, *special}):
        if at not in marks:
            spans.append((at, at + 1))
        elif spans and spans[-1][1] == at:
            spans[-1] = (spans[-1][0], at + 1)  # one more mark on the same letter
        else:
            spans.append((max(at - 1, 0), at + 1))  # the mark and the letter it sits on
    return spans
