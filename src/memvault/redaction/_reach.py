"""Whether a rule's matches stay within a line: what lets a later pass of the filter
read again only the lines around what the pass before it replaced (``_near``).

A pattern is *line-bound* when no match of it can hold a line break but as its first
or its last character: ``(?:(?m:^)|[^\\p{L}])`` before a value, ``(?:[\\s"']|$)`` after
it. Such a match reads one line, the line breaks around it, and the characters just
beyond those (for ``\\b`` and the like); a pattern that can read on over a line break
(``\\s+``, ``[^,]*``, ``[\\s\\S]*?``, ``.`` under ``(?s)``) is not line-bound, and a
later pass searches the whole text for it.

The answer comes from the pattern's RE2 syntax, read conservatively: each character
class or escape is asked of RE2 itself whether it takes a line break, and what is not
understood counts as reaching across lines. A wrong "not line-bound" costs time only.
"""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

from . import _re2


class _Unknown(Exception):
    """Syntax this reading does not follow: the pattern counts as reaching across lines."""


class _Shape(NamedTuple):
    """What the strings a piece of pattern matches can look like, as far as line breaks go."""

    inner: bool = False  # a line break neither first nor last
    first: bool = False  # a line break first
    last: bool = False  # a line break last
    first_long: bool = False  # a line break first, and more after it
    last_long: bool = False  # a line break last, and more before it
    only: bool = False  # exactly one line break
    empty: bool = False  # the empty string
    nonempty: bool = False  # anything else
    breaks: bool = False  # a line break anywhere


_EMPTY = _Shape(empty=True)


def _char(newline: bool) -> _Shape:
    """One character, which may be a line break."""
    return _Shape(first=newline, last=newline, only=newline, nonempty=True, breaks=newline)


def _then(a: _Shape, b: _Shape) -> _Shape:
    """``a`` followed by ``b``."""
    return _Shape(
        inner=a.inner or b.inner or (a.last_long and b.nonempty) or (b.first_long and a.nonempty),
        first=a.first or (a.empty and b.first),
        last=b.last or (b.empty and a.last),
        first_long=a.first_long or (a.first and b.nonempty) or (a.empty and b.first_long),
        last_long=b.last_long or (b.last and a.nonempty) or (b.empty and a.last_long),
        only=(a.only and b.empty) or (a.empty and b.only),
        empty=a.empty and b.empty,
        nonempty=a.nonempty or b.nonempty,
        breaks=a.breaks or b.breaks,
    )


def _either(shapes: list[_Shape]) -> _Shape:
    return _Shape(*(any(field) for field in zip(*shapes, strict=True)))


def _repeat(shape: _Shape, low: int, high: int | None) -> _Shape:
    """``shape`` from ``low`` to ``high`` times (``None``: no limit). Three copies and more
    look alike here: a line break in a middle copy is inner."""
    top = 3 if high is None or high > 3 else high
    shapes, power = [], _EMPTY
    for count in range(top + 1):
        if count >= low or count == top:
            shapes.append(power)
        power = _then(power, shape)
    return _either(shapes)


_GROUP = re.compile(r"\(\?(?:P?<\w+>|[a-zA-Z-]*:|([a-zA-Z-]+)\))")
_COUNT = re.compile(r"\{(\d+)(,(\d*))?\}")
_ESCAPE = re.compile(r"\\(?:[pP](?:\{[^}]*\}|.)|x(?:\{[0-9a-fA-F]*\}|[0-9a-fA-F]{2})|[0-7]{1,3}|.)")
_QUANTIFIERS = {"*": (0, None), "+": (1, None), "?": (0, 1)}
# Plain characters, none a line break: a run of them reads as one character here.
_PLAIN = re.compile(r"[^\\\[\](){}|*+?.^$\n]+")


@functools.lru_cache(maxsize=1024)
def _takes_newline(atom: str) -> bool:
    """Whether a class or an escape that matches one character matches a line break."""
    try:
        return _re2.compile_pattern(atom).fullmatch("\n") is not None
    except _re2.error:
        return True


class _Reader:
    """A recursive reading of one pattern, from left to right."""

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        self.at = 0
        # ``(?s)`` anywhere: every ``.`` may take a line break (a scoped flag included).
        self.dot_newline = re.search(r"\(\?[a-zA-Z]*s", pattern) is not None

    def alternation(self) -> _Shape:
        branches = [self.sequence()]
        while self.at < len(self.pattern) and self.pattern[self.at] == "|":
            self.at += 1
            branches.append(self.sequence())
        return _either(branches)

    def sequence(self) -> _Shape:
        shape = _EMPTY
        while self.at < len(self.pattern) and self.pattern[self.at] not in "|)":
            shape = _then(shape, self.quantified(self.atom()))
        return shape

    def quantified(self, shape: _Shape) -> _Shape:
        pattern = self.pattern
        while self.at < len(pattern):
            char = pattern[self.at]
            if char in _QUANTIFIERS:
                low, high = _QUANTIFIERS[char]
                self.at += 1
            elif char == "{" and (count := _COUNT.match(pattern, self.at)):
                low = int(count[1])
                high = low if not count[2] else int(count[3]) if count[3] else None
                self.at = count.end()
            else:
                return shape
            if self.at < len(pattern) and pattern[self.at] == "?":
                self.at += 1  # lazy: the same strings
            shape = _repeat(shape, low, high)
        return shape

    def atom(self) -> _Shape:
        pattern, at = self.pattern, self.at
        char = pattern[at]
        if char == "(":
            return self.group()
        if char == "[":
            end = _class_end(pattern, at)
            self.at = end
            return _char(_takes_newline(pattern[at:end]))
        if char == "\\":
            return self.escape()
        plain = _PLAIN.match(pattern, at)
        if plain is not None:
            end = plain.end()
            # A quantifier after the run is the last character's alone.
            quantified = end < len(pattern) and pattern[end] in "*+?{" and end - at > 1
            self.at = end - 1 if quantified else end
            return _char(False)
        self.at += 1
        if char in "^$":
            return _EMPTY
        if char == ".":
            return _char(self.dot_newline)
        return _char(char == "\n")

    def group(self) -> _Shape:
        if self.pattern.startswith("(?", self.at):
            group = _GROUP.match(self.pattern, self.at)
            if group is None:
                raise _Unknown
            self.at = group.end()
            if group[1] is not None:
                return _EMPTY  # flags for the rest of the group: no characters
        else:
            self.at += 1
        shape = self.alternation()
        if self.at >= len(self.pattern) or self.pattern[self.at] != ")":
            raise _Unknown
        self.at += 1
        return shape

    def escape(self) -> _Shape:
        pattern, at = self.pattern, self.at
        if pattern.startswith("\\Q", at):
            end = pattern.find("\\E", at)
            end = len(pattern) if end < 0 else end
            self.at = min(len(pattern), end + 2)
            shape = _EMPTY
            for char in pattern[at + 2 : end]:
                shape = _then(shape, _char(char == "\n"))
            return shape
        escape = _ESCAPE.match(pattern, at)
        if escape is None:
            raise _Unknown
        self.at = escape.end()
        if escape[0] in ("\\b", "\\B", "\\A", "\\z"):
            return _EMPTY
        return _char(_takes_newline(escape[0]))


def _class_end(pattern: str, at: int) -> int:
    """Where the character class that opens at ``at`` ends (just after its ``]``)."""
    at += 1
    if pattern.startswith("^", at):
        at += 1
    if pattern.startswith("]", at):
        at += 1  # a ']' first is itself
    while at < len(pattern):
        if pattern.startswith("[:", at) and (close := pattern.find(":]", at + 2)) > 0:
            at = close + 2
        elif pattern[at] == "\\":
            escape = _ESCAPE.match(pattern, at)
            at = escape.end() if escape else at + 2
        elif pattern[at] == "]":
            return at + 1
        else:
            at += 1
    raise _Unknown


@functools.lru_cache(maxsize=4096)
def line_bound(pattern: str) -> bool:
    """Whether no match of ``pattern`` holds a line break but as its first or last
    character (see the module's description); False where the syntax is not followed."""
    reader = _Reader(pattern)
    try:
        shape = reader.alternation()
    except (_Unknown, IndexError):
        return False
    return reader.at == len(pattern) and not shape.inner
