"""A later pass of the filter reads only the lines around what the pass before replaced.

``Redactor.apply`` runs to a fixed point: each pass replaces what it finds with
markers and the next reads the result, until a pass finds nothing. A later pass finds
the same as a scan of its whole text would when it searches, for each rule whose
matches stay within a line (``_reach``), only the lines around the new markers:

* A line-bound match reads one line, the line breaks around it and a character beyond
  each (for ``\\b`` and the like). A line the last pass left alone, with the lines
  around it, holds the same matches as before, and every one of them was judged then:
  had it been kept, it would have been replaced, or have overlapped what was, and its
  line would not be the same. So what a later pass can find is in the lines of a
  marker, the line before and the line after (the *window*), and, for a rule with
  context words, as far after a marker as its words are looked for.
* A rule's search is a chain: each search starts where the last match ended. A
  line-bound match holds the line break before a window's first line only as its
  first character or its last, so the whole-text chain reaches that line break as a
  search from it or from just after it. Both are run: where they find the same values
  and meet, the chain in the window is the whole-text chain; where they do not, the
  rule is searched in the whole text. At a window's end the chain goes on until the
  two ways of entering the next line agree, so that everything after reads as before.
* The first pass's sets run on the windows, each with the line after it, to tell which
  rules to search there: a rule with no match in them finds nothing new, and its
  chain after them is the one the pass before ran. A rule with context words that
  may have matched anywhere before is searched too.
* Keywords are looked for in the whole text, as in a first pass; a rule whose keywords
  were absent before, or that is not line-bound, searches the whole text.

The engine holds this equal to whole scans on the corpus and on generated text and
rules (``tests/unit/redaction/test_near.py``). Offsets here are of the UTF-8 bytes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from . import _re2
from ._reach import line_bound
from ._rule import Rule

Span = tuple[int, int]


class Plan:
    """Which rules a later pass runs, and how: in the whole text, or near the changes.

    Sets of rules are bit masks here, bit ``i`` for the rule at index ``i``."""

    __slots__ = ("_bound", "_context", "_free_unbound", "_implied", "_worded", "keyword_gated")

    def __init__(self, rules: Sequence[Rule], keyword_gated: int, needs_words: int) -> None:
        every = (1 << len(rules)) - 1
        self._bound = mask(
            i for i, rule in enumerate(rules) if not rule.overlapping and line_bound(rule.pattern)
        )
        self.keyword_gated = keyword_gated
        self._worded = keyword_gated | needs_words
        self._free_unbound = every & ~self._worded & ~self._bound  # no keywords, not bound
        self._context = mask(i for i, rule in enumerate(rules) if rule.context)
        # Rules each of whose context words holds one of their keywords: where a context
        # word is, a keyword is.
        self._implied = mask(
            i
            for i, rule in enumerate(rules)
            if rule.keywords
            and rule.context
            and all(any(k in word for k in rule.keywords) for word in rule.context)
        )

    def later(
        self, present: int, before: int, hits: int, matched: int, nearby: int
    ) -> tuple[int, int]:
        """The rules to search in the whole text, and those to search near the changes.

        ``present``: the rules whose keywords the text holds; ``before``: those whose
        keywords the text of the pass before held; ``hits``: the rules that may have
        matched anywhere in it, their keywords there; ``matched``: those whose patterns
        may have matched there, keywords or not; ``nearby``: those the first pass's sets
        let run on the windows."""
        bound, worded = self._bound, self._worded
        still = present & before & worded
        eligible = (~worded | still) & bound
        near = eligible & (nearby | self._context & hits) | still & self.keyword_gated & bound
        whole = self._free_unbound | still & ~bound
        # Keywords that were not there before: whatever the rule matches anywhere is new,
        # unless it matched nowhere before (then what it matches now is near a change),
        # or its context words hold its keywords (then, far from a change, a value has no
        # context word, or the keywords would have been there before).
        newly = present & ~before & worded
        nearly = bound & (self._implied | ~matched)
        return whole | newly & ~nearly, near | newly & nearly & (nearby | matched)


class Pass:
    """What one pass of ``Redactor.apply`` leaves to the next: the rules whose
    keywords its text held, the rules that may have matched anywhere in it (those that
    ran), and those whose patterns may have matched, keywords or not."""

    __slots__ = ("first", "hits", "matched", "present")

    def __init__(self) -> None:
        self.present = 0  # bit masks of rule indices (see :func:`mask`)
        self.hits = 0
        self.matched = 0
        # What a first pass found, as lists: made masks only if a later pass needs them.
        self.first: tuple[Iterable[int], Iterable[int], Iterable[int]] | None = None

    def settle(self, plan: Plan) -> None:
        if self.first is not None:
            present, hits, matched = self.first
            self.present, self.hits = mask(present), mask(hits)
            self.matched = plan.keyword_gated | mask(matched)  # those may match anywhere
            self.first = None


def mask(indices: Iterable[int]) -> int:
    """A set of rule indices as a bit mask."""
    bits = 0
    for index in indices:
        bits |= 1 << index
    return bits


def indices(bits: int) -> list[int]:
    """The rule indices in a bit mask, in order."""
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


# Windows closer than this (in characters) are searched as one: a search costs more to
# start than to read a few lines more.
_GAP = 256


def windows(text: str, changes: list[Span], reach: int) -> list[Span]:
    """The windows around ``changes`` (spans in ``text``, in order), each as ``(lo, hi)``:
    ``lo`` where a line starts, ``hi`` the line break that ends a line (or the end of the
    text). ``reach``: how far after a change a rule's context words are looked for."""
    out: list[Span] = []
    size = len(text)
    for start, end in changes:
        lo = text.rfind("\n", 0, start) + 1
        if lo:
            lo = text.rfind("\n", 0, lo - 1) + 1  # the line before
        hi = _text_line_end(text, min(size, end + reach))
        if hi < size:
            hi = _text_line_end(text, hi + 1)  # the line after
        if out and lo <= out[-1][1] + _GAP:
            out[-1] = (out[-1][0], max(out[-1][1], hi))
        else:
            out.append((lo, hi))
    return out


def _text_line_end(text: str, at: int) -> int:
    end = text.find("\n", at)
    return len(text) if end < 0 else end


def in_bytes(text: str, spans: list[Span]) -> list[Span]:
    """Character offsets in ``text`` as offsets in its UTF-8 bytes."""
    if text.isascii():
        return spans
    out, done, count = [], 0, 0
    for start, end in spans:
        count += len(text[done:start].encode())
        low = count
        count += len(text[start:end].encode())
        done = end
        out.append((low, count))
    return out


def around(data: bytes, spans: list[Span]) -> bytes:
    """The bytes of the windows ``spans`` for the first pass's sets, each from the byte
    before the line break that opens it to the byte after the line that follows it: a
    rule none of whose matches lies there finds nothing new (see the module's
    description), for the chain after the window is the one the pass before ran."""
    pieces = []
    for lo, hi in spans:
        end = _line_end(data, hi + 1) if hi < len(data) else hi
        pieces.append(data[max(0, lo - 2) : end + 2])
    return b"\n".join(pieces)


class Chain:
    """One rule's search, run in windows as the whole-text search runs it (see the
    module's description). A chain's place is where its next search starts, and
    whether nothing more starts by the end of the window at hand (*settled*)."""

    __slots__ = ("_data", "_group", "_match", "_size")

    def __init__(self, match: _re2.Matcher, group: int, data: bytes) -> None:
        self._match = match
        self._group = group
        self._data = data
        self._size = len(data)

    def values(self, spans: list[Span]) -> list[Span] | None:
        """The values the whole-text search finds in the windows ``spans`` (byte offsets),
        in order; None where the chain in a window cannot be told from the whole text's."""
        found: list[Span] = []
        size, at = self._size, 0
        while at < len(spans):
            lo, hi = spans[at]
            at += 1
            place = (0, False) if lo == 0 else self._enter(lo, hi, found)
            if place is None:
                return None
            pos, settled = place
            while True:
                while at < len(spans) and spans[at][0] <= hi + 1:
                    hi = max(hi, spans[at][1])  # the next window joins this one
                    at += 1
                if not settled:
                    pos, settled = self._run(pos, hi, found)
                if settled or hi >= size:
                    break
                # The last match took the line break at ``hi``, or started on it: go on
                # until both ways into the next line find the same.
                after = _line_end(self._data, hi + 1)
                if self._meet(hi, hi + 1, after, []) is not None:
                    break
                hi = after
        return found

    def _enter(self, lo: int, hi: int, found: list[Span]) -> tuple[int, bool] | None:
        """The chain's place once into the window ``(lo, hi)``, entered both ways."""
        first = self._first(lo - 1, hi)
        if first is None:
            return lo, True
        if first[0][0] >= lo:  # none starts on the line break: both ways find this first
            self._take(first, found)
            return _next(first), False
        return self._meet(lo - 1, lo, hi, found)

    def _run(self, pos: int, hi: int, found: list[Span]) -> tuple[int, bool]:
        """The chain from ``pos`` while matches start by ``hi``."""
        while pos <= hi:
            first = self._first(pos, hi)
            if first is None:
                return pos, True
            self._take(first, found)
            pos = _next(first)
        return pos, False

    def _meet(self, a: int, b: int, last: int, found: list[Span]) -> tuple[int, bool] | None:
        """Run the chains from ``a`` and from ``b`` until they stand at one place, or find
        nothing more by ``last``; None if they part or find different values on the way."""
        got_a: list[Span] = []
        got_b: list[Span] = []
        done = self._size + 2  # nothing more found by ``last``
        while a != b:
            pos = min(a, b)
            if pos > last:
                return None
            first = self._first(pos, last)
            if first is not None:
                self._take(first, got_a if a < b else got_b)
            step = done if first is None else _next(first)
            if a < b:
                a = step
            else:
                b = step
        if got_a != got_b:
            return None
        found.extend(got_a)
        return a, a == done

    def _first(self, pos: int, last: int) -> _re2.Spans | None:
        """The match a whole-text search from ``pos`` finds, if it starts by ``last``.

        The search stops at the end of the line after ``last``: a line-bound match that
        starts by ``last`` ends there at the latest, so what starts by then is found as
        in the whole text (RE2 reads the text beyond as context)."""
        size = self._size
        if pos > size:
            return None
        stop = self._data.find(b"\n", last + 1)
        stop = size if stop < 0 else stop + 1
        spans = self._match(_re2.UNANCHORED, self._data, pos, max(pos, stop))
        start = spans[0][0]
        return spans if 0 <= start <= last else None

    def _take(self, spans: _re2.Spans, found: list[Span]) -> None:
        start, end = spans[self._group]
        if start >= 0 and start != end:
            found.append((start, end))


def _next(spans: _re2.Spans) -> int:
    start, end = spans[0]
    return end if end > start else start + 1


def _line_end(data: bytes, at: int) -> int:
    end = data.find(b"\n", at)
    return len(data) if end < 0 else end
