"""Positions in a text: the filter's own markers, and UTF-8 byte offsets as str offsets.

Markers are what the filter writes in place of a finding. Marker-shaped text gets
no trust for its shape: it is scanned like any other text, and a finding that
reaches into it or around it is a finding (a ``[REDACTED:x]`` line inside a
private key does not make the key any less one). What a marker may shield is its
own inside, and only when the whole marker is exactly a form the filter writes
under the policy at hand: ``[REDACTED:kind]``, ``[MASKED:kind:tail]`` with a tail
of at most the kind's mask length in letters and digits, ``[PSEUDONYM:kind:`` ten
hex digits ``]``, for a kind the policy has. Such a marker holds nothing a rule
is looking for; shielding it keeps a second scan from reading its words as a
label or its tail as a number, so that stored text passes the filter unchanged.
``[MASKED:x:4539148803436467]`` is not such a marker (no kind ``x``; a mask keeps
the last few characters only) and the card number inside it is found.

A finding that begins or ends inside such a marker is judged on the text beside
it, by the rule's own checks, as if the marker were the value it stands for: after
``password:``, ``hunter2[REDACTED:password]`` is judged as ``hunter2``. Two things
beside a marker are no value there: what a separator starts after it (``&``, ``;``,
``,``, ``@`` or a space: ``[REDACTED:credential]&useSSL=false``,
``[REDACTED:api_key]@github.com``), and a name assigned to it (``OAUTH_TOKEN=`` in
``OAUTH_TOKEN=[REDACTED:jwt]``). They are what a broad rule reaches past a value
that a narrower rule has already taken; read as a value, they would cost plain
settings and host names a write later.

Matching runs on the text's UTF-8 bytes, so every span found is turned back into
characters.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Mapping

from . import _re2

MARKER_PATTERN = (
    r"\[(?:REDACTED:[a-z0-9_]+|MASKED:[a-z0-9_]+:[^\]\s]{0,16}|PSEUDONYM:[a-z0-9_]+:[0-9a-f]{10})\]"
)
MARKER = _re2.compile_pattern(MARKER_PATTERN)
# The same, for checking one short candidate at a time (a slice of at most
# _MARKER_MAX characters, so no backtracking engine can be made to work hard on it).
_MARKER_ONE = re.compile(MARKER_PATTERN)
_MARKER_MAX = 64
_MARKER_PREFIXES = ("[REDACTED:", "[MASKED:", "[PSEUDONYM:")


class Markers:
    """The spans of the markers in a text.

    Without ``kinds``, every span that :data:`MARKER` matches, as ``MARKER.finditer``
    finds them. With ``kinds`` (each kind of the policy and the longest tail a mask of
    it keeps), only the markers the filter writes, exactly: see the module's
    description. Those never hold a ``[``, so none hides another.
    """

    __slots__ = ("_ends", "_starts")

    def __init__(self, text: str, kinds: Mapping[str, int] | None = None) -> None:
        # Found by hand: each marker starts with one of the prefixes and ends at the
        # first "]" after it (no part of one holds a "]").
        self._starts: list[int] = []
        self._ends: list[int] = []
        if not any(prefix in text for prefix in _MARKER_PREFIXES):
            return
        at = text.find("[")
        while at >= 0:
            if text.startswith(_MARKER_PREFIXES, at):
                close = text.find("]", at + 1, at + _MARKER_MAX)
                if (
                    close > 0
                    and _MARKER_ONE.fullmatch(text, at, close + 1)
                    and (kinds is None or _written(text[at + 1 : close], kinds))
                ):
                    self._starts.append(at)
                    self._ends.append(close + 1)
                    at = text.find("[", close + 1)
                    continue
            at = text.find("[", at + 1)

    def __bool__(self) -> bool:
        return bool(self._starts)

    def spans(self) -> list[tuple[int, int]]:
        """The (start, end) of every marker, in order."""
        return list(zip(self._starts, self._ends, strict=True))

    def trim(self, start: int, end: int) -> tuple[int, int, bool, bool]:
        """``[start, end)`` without the markers it begins or ends in: ``(start, end,
        cut at the start, cut at the end)``; nothing is left (``start >= end``) of a span
        inside a marker. Markers inside the span, text on both sides, stay in it."""
        starts, ends = self._starts, self._ends
        first = last = False
        # Markers never overlap one another: the last one starting at or before ``start``
        # is the only one that can hold it; the next may start right where it ends.
        at = bisect.bisect_right(starts, start) - 1
        while 0 <= at < len(starts) and starts[at] <= start < ends[at] and start < end:
            start, first, at = ends[at], True, at + 1
        at = bisect.bisect_left(starts, end) - 1
        while at >= 0 and start < end and starts[at] < end <= ends[at]:
            end, last, at = starts[at], True, at - 1
        return start, end, first, last


def beside(text: str, start: int, end: int, *, after: bool, before: bool) -> bool:
    """Whether ``text[start:end]``, right ``after`` a marker or right ``before`` one, is
    no value there (see the module's description)."""
    return (after and (text[start] in _SEPARATORS or text[start].isspace())) or (
        before and text[end - 1] in "=:"
    )


_SEPARATORS = frozenset("&;,@")


def _written(body: str, kinds: Mapping[str, int]) -> bool:
    """Whether a marker's inside (``MARKER`` matched it whole) is what the filter writes
    for one of ``kinds``: a mask keeps at most the kind's mask length, in letters and
    digits only; a pseudonym's ten hex digits the pattern has checked."""
    action, _, rest = body.partition(":")
    if action == "REDACTED":
        return rest in kinds
    kind, _, tail = rest.partition(":")
    if kind not in kinds:
        return False
    return action != "MASKED" or (len(tail) <= kinds[kind] and (tail.isalnum() or not tail))


def marker_spans(text: str) -> list[tuple[int, int]]:
    """The (start, end) of every marker-shaped span in ``text``: the spans
    ``MARKER.finditer`` finds, found without a pass of RE2. The shape alone earns no
    trust from the filter (see the module's description)."""
    return Markers(text).spans()


class Offsets:
    """Byte offsets in the UTF-8 text, as character offsets in the str.

    A character offset is the number of characters that start before the byte, so
    it is counted from the nearest checkpoint, never from the start of the text:
    a long text with many findings costs linear time, not quadratic.
    """

    __slots__ = ("_ascii", "_data", "_marks")

    def __init__(self, text: str, data: bytes) -> None:
        self._ascii = len(text) == len(data)
        self._data = data
        self._marks: list[int] = []

    def char(self, offset: int) -> int:
        if self._ascii:
            return offset
        if not self._marks:
            self._marks = [0]
            for at in range(0, len(self._data), _BLOCK):
                chunk = self._data[at : at + _BLOCK]
                self._marks.append(self._marks[-1] + len(chunk.translate(None, _CONTINUATION)))
        block = offset // _BLOCK
        start = block * _BLOCK
        return self._marks[block] + len(self._data[start:offset].translate(None, _CONTINUATION))


_BLOCK = 256  # small enough that counting within a block costs little per offset
_CONTINUATION = bytes(range(0x80, 0xC0))  # UTF-8 bytes that continue a character


def lower(text: str) -> str:
    """The text lower-cased character for character, so that an offset in it is the same
    offset in the text. ``str.lower`` makes two characters of one, U+0130 (the Turkish
    capital dotted I), which would shift every context window after it."""
    lowered = text.lower()
    if len(lowered) != len(text):
        lowered = text.replace("\u0130", "I").lower()
    return lowered
