"""The filter's first pass: which rules can match a text at all, decided in one sweep.

All the rules of a group are compiled into one RE2 set, which runs them together in
one DFA and names those that match; only they run their own search afterwards.
Rules whose keywords are distinctive literals share a set of keywords instead,
matched in the lower-cased text. The first pass only saves work: it never decides
what is found, and when it cannot answer, every rule of its set runs.
"""

from __future__ import annotations

from collections.abc import Callable

import re2

from ..errors import ConfigurationError
from . import _re2
from ._rule import Configured

# What the first pass may hold in RE2 caches, shared by its sets. Patterns in one set
# multiply each other's DFA states: a single set of every pattern needed all of this and
# still rebuilt its cache on varied text, costing milliseconds per note; split into
# groups, each set stays far below its share. Caches grow only as far as text needs.
SET_MEMORY = 256 << 20


class Gate:
    """One combined first pass: an RE2 set that tells which of its rules can match.

    A set of patterns runs them all in one DFA; a set of keywords (matched in the
    lower-cased text, as the rules' own keyword check does) runs a literal search.
    """

    __slots__ = ("_canary", "_match", "_rules", "_set")

    def __init__(
        self, rules: list[Configured], members: list[int], memory: int, *, keywords: bool = False
    ) -> None:
        self._set = re2.Set.SearchSet(_re2.options(max_mem=memory))
        self._rules = members
        for at, index in enumerate(members):
            rule = rules[index].rule
            if keywords:
                pattern = "|".join(re2.escape(word) for word in rule.keywords).encode()
            else:
                pattern = (rule.cue or rule.pattern).encode()
            try:
                added = self._set.Add(pattern)
            except _re2.error as exc:
                raise ConfigurationError(
                    f"detector {rule.name}: its pattern is not valid RE2 ({_re2.message(exc)})"
                ) from None
            if added != at:
                raise ConfigurationError(f"detector {rule.name}: could not be added")
        # A canary every non-empty text matches: if the pass ever fails (RE2 out of
        # DFA memory returns "no match"), its absence sends every rule of the set to run.
        self._canary = self._set.Add(rb"(?s).")
        try:
            self._set.Compile()
        except _re2.error as exc:
            raise ConfigurationError(
                f"the detectors' patterns could not be compiled together ({_re2.message(exc)})"
            ) from None
        # The binding's own call, without the wrapper's check of the argument's type.
        match = getattr(getattr(self._set, "_set", None), "Match", None)
        self._match: Callable[[bytes], list[int] | None] = (
            match if callable(match) else self._set.Match
        )

    def run(self, data: bytes) -> list[int]:
        """The indices (in the policy) of the rules that may match: ``data`` is the text's
        UTF-8 bytes, lower-cased first for a set of keywords."""
        hits = self._match(data) or []
        if self._canary not in hits:
            return list(self._rules)
        return [self._rules[at] for at in hits if at != self._canary]
