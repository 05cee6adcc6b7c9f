"""RE2 as the filter uses it: quiet options, error text, and matching that returns spans.

Every pattern in the package is compiled here or with :func:`options`, whose
``log_errors`` is off: RE2 reports a bad pattern by raising, and would otherwise
also print its own line to stderr, outside the CLI's one voice (and a custom
pattern from a policy could carry data into that line).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import re2

# A match gives the (start, end) byte span of every group; (-1, -1) when there is none.
Spans = Sequence[tuple[int, int]]
Matcher = Callable[[Any, bytes | bytearray, int, int], Spans]

_ANCHOR: Any = getattr(getattr(getattr(re2, "_re2", None), "RE2", None), "Anchor", None)
# Without the binding's own call, these stand for a search and a full match.
UNANCHORED: Any = getattr(_ANCHOR, "UNANCHORED", "search")
ANCHOR_BOTH: Any = getattr(_ANCHOR, "ANCHOR_BOTH", "fullmatch")
_NO_MATCH: Spans = ((-1, -1),)

error = re2.error


def options(max_mem: int = 64 << 20) -> re2.Options:
    """Options for a pattern or a set: ``max_mem`` bytes of automaton, and no log."""
    result = re2.Options()
    result.max_mem = max_mem
    result.log_errors = False  # errors are raised to us; RE2's own log would go to stderr
    return result


def compile_pattern(pattern: str | bytes) -> Any:
    """``pattern`` compiled with :func:`options`; raises :data:`error` if it is not RE2."""
    return re2.compile(pattern, options())


def message(exc: Exception) -> str:
    """RE2's error text (the binding hands it over as bytes)."""
    text = exc.args[0] if exc.args else exc
    return text.decode("utf-8", "replace") if isinstance(text, bytes) else str(text)


def matcher(compiled: Any) -> Matcher:
    """The binding's own match call, which hands back spans without building a match
    object per candidate; the public ``search`` where the binding has no such call."""
    raw: Any = getattr(getattr(compiled, "_regexp", None), "Match", None)
    if _ANCHOR is not None and callable(raw):
        return raw  # type: ignore[no-any-return]

    def search(anchor: Any, data: bytes | bytearray, pos: int, end: int) -> Spans:
        find = compiled.search if anchor is UNANCHORED else compiled.fullmatch
        match = find(data, pos, end)
        if match is None:
            return _NO_MATCH
        return [match.span(group) for group in range(compiled.groups + 1)]

    return search
