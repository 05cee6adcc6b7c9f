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
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import re2

from ._errors import CommandError, ConfigurationError
from ._rules import Action, Finding, Rule, a_label, label
from ._validators import shannon_entropy

# Markers the filter writes; text inside them is never scanned again, so
# redacting twice gives the same text as redacting once.
MARKER = re2.compile(
    r"\[(?:REDACTED:[a-z0-9_]+|MASKED:[a-z0-9_]+:[^\]\s]{0,16}|PSEUDONYM:[a-z0-9_]+:[0-9a-f]{10})\]"
)


class RedactionError(CommandError):
    """The filter could not do its part, so the write is refused."""


class BlockedError(CommandError):
    """The policy blocks a kind of data the write contains."""


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
        self._compiled = []
        # The combined pass holds every pattern in one DFA; with less room than this its
        # state cache thrashes on varied (multilingual) text and a 2 KB note costs
        # milliseconds instead of ~150 us. The cache grows only as far as text needs.
        self._set = re2.Set.SearchSet(_options(max_mem=256 << 20))
        for index, configured in enumerate(self._rules):
            # Matching runs on the UTF-8 bytes of the text, encoded once per scan:
            # the binding would otherwise encode the whole text on every call.
            pattern = configured.rule.pattern.encode()
            try:
                compiled = re2.compile(pattern, _options())
                added = self._set.Add(pattern)
            except re2.error as exc:
                raise ConfigurationError(
                    f"detector {configured.rule.name}: its pattern is not valid RE2 "
                    f"({re2_message(exc)})"
                ) from None
            if added != index:
                raise ConfigurationError(f"detector {configured.rule.name}: could not be added")
            groups = compiled.groupindex
            self._compiled.append((compiled, groups.get("value", groups.get(b"value", 0))))
        # A canary every non-empty text matches: if the combined pass ever fails (RE2
        # out of DFA memory returns "no match"), its absence sends every rule to run.
        self._canary = self._set.Add(rb"(?s).")
        try:
            self._set.Compile()
        except re2.error as exc:
            raise ConfigurationError(
                f"the detectors' patterns could not be compiled together ({re2_message(exc)})"
            ) from None
        self._allow_exact = allow_exact
        self._allow = (
            re2.compile("|".join(f"(?:{p})" for p in allow_patterns), _options())
            if allow_patterns
            else None
        )

    @property
    def rules(self) -> list[Configured]:
        return list(self._rules)

    def scan(self, text: str) -> list[Finding]:
        """Every finding in ``text``, overlaps resolved, in order of position."""
        if not self._rules or not text:
            return []
        data = text.encode()
        hits = self._set.Match(data) or []
        if self._canary not in hits:
            hits = list(range(len(self._rules)))  # the fast pass failed: run every rule
        elif len(hits) == 1:
            return []
        offsets = _Offsets(text, data)
        lowered = text.lower()
        markers = [m.span() for m in MARKER.finditer(text)] if "[" in text else []
        found: list[tuple[int, int, int, Finding]] = []
        for index in hits:
            if index == self._canary:
                continue
            configured = self._rules[index]
            rule = configured.rule
            if rule.keywords and not any(k in lowered for k in rule.keywords):
                continue
            compiled, group = self._compiled[index]
            pos = 0
            while pos <= len(data):
                match = compiled.search(data, pos)
                if match is None:
                    break
                m_start, m_end = match.span()
                pos = max(m_end, m_start + 1)
                b_start, b_end = match.span(group)
                if b_start < 0 or b_start == b_end:
                    continue
                start, end = offsets.char(b_start), offsets.char(b_end)
                if self._keep(rule, text, lowered, start, end, markers):
                    finding = Finding(
                        rule.name, rule.kind, rule.category, start, end, configured.action
                    )
                    found.append((rule.priority, end - start, -start, finding))
        return _resolve(found)

    def _keep(
        self,
        rule: Rule,
        text: str,
        lowered: str,
        start: int,
        end: int,
        markers: list[tuple[int, int]],
    ) -> bool:
        value = text[start:end]
        if any(s < end and start < e for s, e in markers):
            return False
        if value in self._allow_exact or (self._allow and self._allow.fullmatch(value)):
            return False
        if rule.min_entropy and shannon_entropy(value) < rule.min_entropy:
            return False
        if rule.context:
            window = lowered[max(0, start - rule.window) : end]
            if not any(word in window for word in rule.context):
                return False
        return rule.validator is None or rule.validator(value)

    def apply(self, text: str, pseudonym: Pseudonymizer) -> Redacted:
        """The text with every finding handled by its action; raises BlockedError.

        Runs to a fixed point: replacing one finding can expose another (a digit
        run that failed as a phone number because a card number followed it), so
        the result is scanned again until nothing changes. That makes redaction
        idempotent: what is stored passes the filter unchanged.
        """
        findings: list[Finding] = []
        for _ in range(_MAX_PASSES):
            found = self.scan(text)
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
        keep = {c.rule.name: c.keep for c in self._rules}
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


def _normalize(value: str) -> str:
    """The form pseudonyms are keyed on: case and spacing do not make a new person."""
    return " ".join(value.casefold().split())


class _Offsets:
    """Byte offsets in the UTF-8 text, as character offsets in the str."""

    __slots__ = ("_ascii", "_data")

    def __init__(self, text: str, data: bytes) -> None:
        self._ascii = len(text) == len(data)
        self._data = data

    def char(self, offset: int) -> int:
        if self._ascii:
            return offset
        return len(self._data[:offset].decode("utf-8", "replace"))


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
