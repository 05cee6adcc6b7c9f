"""Positions in a text: the filter's own markers, and UTF-8 byte offsets as str offsets.

Markers are what the filter writes in place of a finding; text inside one is never
scanned again, so redacting twice gives the same text as redacting once. Matching
runs on the text's UTF-8 bytes, so every span found is turned back into characters.
"""

from __future__ import annotations

import bisect
import re

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
    """The spans of the markers in a text, to tell whether a finding overlaps one."""

    __slots__ = ("_ends", "_starts")

    def __init__(self, text: str) -> None:
        # What MARKER.finditer finds, found by hand: each marker starts with one of
        # the prefixes and ends at the first "]" after it (no part of one holds a "]").
        self._starts: list[int] = []
        self._ends: list[int] = []
        if not any(prefix in text for prefix in _MARKER_PREFIXES):
            return
        at = text.find("[")
        while at >= 0:
            if text.startswith(_MARKER_PREFIXES, at):
                close = text.find("]", at + 1, at + _MARKER_MAX)
                if close > 0 and _MARKER_ONE.fullmatch(text, at, close + 1):
                    self._starts.append(at)
                    self._ends.append(close + 1)
                    at = text.find("[", close + 1)
                    continue
            at = text.find("[", at + 1)

    def spans(self) -> list[tuple[int, int]]:
        """The (start, end) of every marker, in order."""
        return list(zip(self._starts, self._ends, strict=True))

    def overlap(self, start: int, end: int) -> bool:
        # Markers never overlap one another, so the last one starting before ``end``
        # is the only one that can reach past ``start``.
        at = bisect.bisect_left(self._starts, end) - 1
        return at >= 0 and self._ends[at] > start


def marker_spans(text: str) -> list[tuple[int, int]]:
    """The (start, end) of every marker the filter wrote in ``text``: the spans
    ``MARKER.finditer`` finds, found without a pass of RE2."""
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


_BLOCK = 4096
_CONTINUATION = bytes(range(0x80, 0xC0))  # UTF-8 bytes that continue a character


def lower(text: str) -> str:
    """The text lower-cased character for character, so that an offset in it is the same
    offset in the text. ``str.lower`` makes two characters of one, U+0130 (the Turkish
    capital dotted I), which would shift every context window after it."""
    lowered = text.lower()
    if len(lowered) != len(text):
        lowered = text.replace("\u0130", "I").lower()
    return lowered
