"""The redaction filter: finds secrets and personal data, and applies a policy to them.

Every write passes through :meth:`Redactor.apply` before anything reaches the
store. The filter fails closed: an error inside it refuses the write
(:class:`RedactionError`); it never lets text through unfiltered.

Speed comes from RE2: all patterns are compiled into one ``re2.Set``, which
tells in a single linear pass which rules can match at all; only those run
their own ``finditer``. No pattern can backtrack.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import re2

from ..errors import BlockedError, ConfigurationError
from ._rule import Action, Finding, Rule, a_label, label
from .checks._validators import shannon_entropy

# Markers the filter writes; text inside them is never scanned again, so
# redacting twice gives the same text as redacting once.
MARKER_PATTERN = (
    r"\[(?:REDACTED:[a-z0-9_]+|MASKED:[a-z0-9_]+:[^\]\s]{0,16}|PSEUDONYM:[a-z0-9_]+:[0-9a-f]{10})\]"
)
MARKER = re2.compile(MARKER_PATTERN)
# The same, for checking one short candidate at a time (a slice of at most
# _MARKER_MAX characters, so no backtracking engine can be made to work hard on it).
_MARKER_ONE = re.compile(MARKER_PATTERN)
_MARKER_MAX = 64


@dataclass(frozen=True, slots=True)
class Configured:
    """A rule as a policy runs it: with its action and mask length."""

    rule: Rule
    action: Action
    keep: int


@dataclass(frozen=True, slots=True)
class Redacted:
    """The text to store, and what was done to it (kinds and counts, never values)."""

    text: str
    findings: tuple[Finding, ...]

    def counts(self) -> dict[Action, Counter[str]]:
        out: dict[Action, Counter[str]] = {}
        for finding in self.findings:
            out.setdefault(finding.action, Counter())[finding.kind] += 1
        return out

    def note(self) -> str:
        """``Note: 1 email and 1 api key were redacted before storage.`` or ``""``."""
        verbs = {"redact": "redacted", "mask": "masked", "pseudonymize": "pseudonymized"}
        clauses = []
        for action, counter in self.counts().items():
            items = [f"{n} {label(kind, n)}" for kind, n in sorted(counter.items())]
            total = sum(counter.values())
            clauses.append(f"{join_and(items)} {'was' if total == 1 else 'were'} {verbs[action]}")
        return f"Note: {join_and(clauses, ', and ')} before storage." if clauses else ""


def join_and(items: Sequence[str], last: str = " and ") -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + last + items[-1]


Pseudonymizer = Callable[[str, str], str]  # (kind, value) -> 10 hex characters


class Redactor:
    """A compiled policy: the rules to run, their actions, and the allowlists."""

    def __init__(
        self,
        rules: Sequence[Configured],
        *,
        allow_exact: frozenset[str] = frozenset(),
        allow_patterns: Sequence[str] = (),
    ) -> None:
        self._rules = list(rules)
        self._compiled: list[tuple[Matcher, int]] = []
        by_keywords: list[int] = []
        needs_words: list[int] = []
        by_pattern: dict[str, list[int]] = {}
        for index, configured in enumerate(self._rules):
            rule = configured.rule
            # Matching runs on the UTF-8 bytes of the text, encoded once per scan:
            # the binding would otherwise encode the whole text on every call.
            try:
                compiled = re2.compile(rule.pattern.encode(), _options())
            except re2.error as exc:
                raise ConfigurationError(
                    f"detector {rule.name}: its pattern is not valid RE2 ({re2_message(exc)})"
                ) from None
            groups = compiled.groupindex
            self._compiled.append(
                (_matcher(compiled), groups.get("value", groups.get(b"value", 0)))
            )
            if rule.gate == "keywords" and rule.keywords:
                by_keywords.append(index)
            else:
                by_pattern.setdefault(rule.gate or rule.category, []).append(index)
                if rule.keywords:
                    needs_words.append(index)
        # One literal search in the lower-cased text tells both which keyword-gated rules
        # may match and which pattern-gated rules have their keywords present at all.
        self._keyword_gated = frozenset(by_keywords)
        self._needs_words = frozenset(needs_words)
        words = by_keywords + needs_words
        budget = _SET_MEMORY // (len(by_pattern) + (1 if words else 0) or 1)
        self._words = _Gate(self._rules, words, budget, keywords=True) if words else None
        self._gates = [_Gate(self._rules, group, budget) for group in by_pattern.values()]
        self._keep_chars = {c.rule.name: c.keep for c in self._rules}
        self._allow_exact = allow_exact
        self._allow: Matcher | None = None
        if allow_patterns:
            allow = "|".join(f"(?:{p})" for p in allow_patterns)
            self._allow = _matcher(re2.compile(allow.encode(), _options()))

    @property
    def rules(self) -> list[Configured]:
        return list(self._rules)

    def scan(self, text: str, verdicts: dict[tuple[int, str], bool] | None = None) -> list[Finding]:
        """Every finding in ``text``, overlaps resolved, in order of position.

        ``verdicts`` carries what the checks on a value alone decided, from one pass of
        :meth:`apply` to the next; it lives no longer than that call.
        """
        if verdicts is None:
            verdicts = {}
        if not self._rules or not text:
            return []
        data = text.encode()
        lowered = _lower(text)
        hits: list[int] = []
        present: frozenset[int] = frozenset()
        if self._words is not None:
            present = frozenset(self._words.run(lowered.encode()))
            hits += present & self._keyword_gated
        needs_words = self._needs_words
        for gate in self._gates:
            hits += [i for i in gate.run(data) if i not in needs_words or i in present]
        if not hits:
            return []
        hits.sort()  # rule order, so that ties between findings resolve as the policy lists them
        offsets = _Offsets(text, data)
        markers = _Markers(text)
        found: list[tuple[int, int, int, Finding]] = []
        for index in hits:
            configured = self._rules[index]
            rule = configured.rule
            match, group = self._compiled[index]
            blanked = bytearray(data) if rule.overlapping else None
            haystack = data if blanked is None else blanked
            pos, size = 0, len(data)
            while pos <= size:
                spans = match(_UNANCHORED, haystack, pos, size)
                m_start, m_end = spans[0]
                if m_start < 0:
                    break
                pos = m_end if m_end > m_start else m_start + 1
                b_start, b_end = spans[group]
                if b_start < 0 or b_start == b_end:
                    continue
                if blanked is not None and blanked[b_start:b_end].strip(b"\0"):
                    # Blank the value and look again from where the match began: the next
                    # row under the same header. Each turn blanks at least one byte, so
                    # the loop ends even on a value that NUL bytes could match.
                    blanked[b_start:b_end] = bytes(b_end - b_start)
                    pos = m_start
                start, end = offsets.char(b_start), offsets.char(b_end)
                if self._keep(index, text, lowered, start, end, markers, verdicts):
                    finding = Finding(
                        rule.name, rule.kind, rule.category, start, end, configured.action
                    )
                    found.append((rule.priority, end - start, -start, finding))
        return _resolve(found)

    def _keep(
        self,
        index: int,
        text: str,
        lowered: str,
        start: int,
        end: int,
        markers: _Markers,
        verdicts: dict[tuple[int, str], bool],
    ) -> bool:
        # Every check is a pure test on the value and its surroundings, so their order
        # changes nothing but the cost: the cheap and the most selective come first.
        if markers.overlap(start, end):
            return False
        rule = self._rules[index].rule
        if rule.context:
            window = lowered[max(0, start - rule.window) : end]
            if not any(word in window for word in rule.context):
                return False
        # The rest looks at the value alone; a second pass meets the same values again.
        value = text[start:end]
        verdict = verdicts.get((index, value))
        if verdict is None:
            verdict = verdicts[index, value] = self._accepts(rule, value)
        return verdict

    def _accepts(self, rule: Rule, value: str) -> bool:
        if value in self._allow_exact:
            return False
        if rule.min_entropy and shannon_entropy(value) < rule.min_entropy:
            return False
        if rule.validator is not None and not rule.validator(value):
            return False
        if self._allow is None:
            return True
        raw = value.encode()
        return self._allow(_ANCHOR_BOTH, raw, 0, len(raw))[0][0] < 0

    def apply(self, text: str, pseudonym: Pseudonymizer) -> Redacted:
        """The text with every finding handled by its action; raises BlockedError.

        Runs to a fixed point: replacing one finding can expose another (a digit
        run that failed as a phone number because a card number followed it), so
        the result is scanned again until nothing changes. That makes redaction
        idempotent: what is stored passes the filter unchanged.
        """
        findings: list[Finding] = []
        verdicts: dict[tuple[int, str], bool] = {}
        for _ in range(_MAX_PASSES):
            found = self.scan(text, verdicts)
            if not found:
                break
            text = self._replace(text, found, pseudonym)
            findings.extend(found)
        return Redacted(text, tuple(findings))

    def _replace(self, text: str, findings: list[Finding], pseudonym: Pseudonymizer) -> str:
        blocked = sorted({f.kind for f in findings if f.action == "block"})
        if blocked:
            kinds = join_and([a_label(k) for k in blocked])
            raise BlockedError(
                f"Error: The write was refused: it contains {kinds}, "
                "which this vault's policy does not allow to be stored. Remove it and try again."
            )
        keep = self._keep_chars
        out, last = [], 0
        for f in findings:
            out.append(text[last : f.start])
            out.append(_replacement(f, text[f.start : f.end], keep[f.rule], pseudonym))
            last = f.end
        out.append(text[last:])
        return "".join(out)


# Each pass replaces at least one finding with a marker that is never scanned again, so
# real text settles in two passes; the bound only stops a pathological case.
_MAX_PASSES = 4


def _replacement(finding: Finding, value: str, keep: int, pseudonym: Pseudonymizer) -> str:
    if finding.action == "mask":
        tail = "".join(ch for ch in value if ch.isalnum())[-keep:] if keep else ""
        return f"[MASKED:{finding.kind}:{tail}]"
    if finding.action == "pseudonymize":
        return f"[PSEUDONYM:{finding.kind}:{pseudonym(finding.kind, _normalize(value))}]"
    return f"[REDACTED:{finding.kind}]"


def _lower(text: str) -> str:
    """The text lower-cased character for character, so that an offset in it is the same
    offset in the text. ``str.lower`` makes two characters of one, U+0130 (the Turkish
    capital dotted I), which would shift every context window after it."""
    lowered = text.lower()
    if len(lowered) != len(text):
        lowered = text.replace("\u0130", "I").lower()
    return lowered


def _normalize(value: str) -> str:
    """The form pseudonyms are keyed on: case and spacing do not make a new person."""
    return " ".join(value.casefold().split())


class _Offsets:
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


class _Markers:
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

    def overlap(self, start: int, end: int) -> bool:
        # Markers never overlap one another, so the last one starting before ``end``
        # is the only one that can reach past ``start``.
        at = bisect.bisect_left(self._starts, end) - 1
        return at >= 0 and self._ends[at] > start


_MARKER_PREFIXES = ("[REDACTED:", "[MASKED:", "[PSEUDONYM:")
_CONTINUATION = bytes(range(0x80, 0xC0))  # UTF-8 bytes that continue a character


class _Gate:
    """One combined first pass: an RE2 set that tells which of its rules can match.

    A set of patterns runs them all in one DFA; a set of keywords (matched in the
    lower-cased text, as the rules' own keyword check does) runs a literal search.
    """

    __slots__ = ("_canary", "_rules", "_set")

    def __init__(
        self, rules: list[Configured], members: list[int], memory: int, *, keywords: bool = False
    ) -> None:
        self._set = re2.Set.SearchSet(_options(max_mem=memory))
        self._rules = members
        for at, index in enumerate(members):
            rule = rules[index].rule
            if keywords:
                pattern = "|".join(re2.escape(word) for word in rule.keywords).encode()
            else:
                pattern = (rule.cue or rule.pattern).encode()
            try:
                added = self._set.Add(pattern)
            except re2.error as exc:
                raise ConfigurationError(
                    f"detector {rule.name}: its pattern is not valid RE2 ({re2_message(exc)})"
                ) from None
            if added != at:
                raise ConfigurationError(f"detector {rule.name}: could not be added")
        # A canary every non-empty text matches: if the pass ever fails (RE2 out of
        # DFA memory returns "no match"), its absence sends every rule of the set to run.
        self._canary = self._set.Add(rb"(?s).")
        try:
            self._set.Compile()
        except re2.error as exc:
            raise ConfigurationError(
                f"the detectors' patterns could not be compiled together ({re2_message(exc)})"
            ) from None

    def run(self, data: bytes) -> list[int]:
        """The indices (in the policy) of the rules that may match: ``data`` is the text's
        UTF-8 bytes, lower-cased first for a set of keywords."""
        hits = self._set.Match(data) or []
        if self._canary not in hits:
            return list(self._rules)
        return [self._rules[at] for at in hits if at != self._canary]


# What the first pass may hold in RE2 caches, shared by its sets. Patterns in one set
# multiply each other's DFA states: a single set of every pattern needed all of this and
# still rebuilt its cache on varied text, costing milliseconds per note; split into
# groups, each set stays far below its share. Caches grow only as far as text needs.
_SET_MEMORY = 256 << 20

# A match gives the (start, end) byte span of every group; (-1, -1) when there is none.
Spans = Sequence[tuple[int, int]]
Matcher = Callable[[Any, bytes | bytearray, int, int], Spans]

_ANCHOR: Any = getattr(getattr(getattr(re2, "_re2", None), "RE2", None), "Anchor", None)
# Without the binding's own call, these stand for a search and a full match.
_UNANCHORED: Any = getattr(_ANCHOR, "UNANCHORED", "search")
_ANCHOR_BOTH: Any = getattr(_ANCHOR, "ANCHOR_BOTH", "fullmatch")
_NO_MATCH: Spans = ((-1, -1),)


def _matcher(compiled: Any) -> Matcher:
    """The binding's own match call, which hands back spans without building a match
    object per candidate; the public ``search`` where the binding has no such call."""
    raw: Any = getattr(getattr(compiled, "_regexp", None), "Match", None)
    if _ANCHOR is not None and callable(raw):
        return raw  # type: ignore[no-any-return]

    def search(anchor: Any, data: bytes | bytearray, pos: int, end: int) -> Spans:
        find = compiled.search if anchor is _UNANCHORED else compiled.fullmatch
        match = find(data, pos, end)
        if match is None:
            return _NO_MATCH
        return [match.span(group) for group in range(compiled.groups + 1)]

    return search


def _resolve(found: list[tuple[int, int, int, Finding]]) -> list[Finding]:
    """Keep the best of overlapping findings: higher priority, then longer, then earlier."""
    starts: list[int] = []  # kept findings, sorted by start; they never overlap
    kept: list[Finding] = []
    for _, _, _, finding in sorted(found, key=lambda t: (t[0], t[1], t[2]), reverse=True):
        at = bisect.bisect_right(starts, finding.start)
        if at and kept[at - 1].end > finding.start:
            continue  # overlaps the kept finding that starts before it
        if at < len(kept) and kept[at].start < finding.end:
            continue  # overlaps the kept finding that starts after it
        starts.insert(at, finding.start)
        kept.insert(at, finding)
    return kept


def re2_message(exc: Exception) -> str:
    """RE2's error text (the binding hands it over as bytes)."""
    message = exc.args[0] if exc.args else exc
    return message.decode("utf-8", "replace") if isinstance(message, bytes) else str(message)


def _options(max_mem: int = 64 << 20) -> re2.Options:
    options = re2.Options()
    options.max_mem = max_mem
    options.log_errors = False  # errors are raised to us; RE2's own log would go to stderr
    return options
