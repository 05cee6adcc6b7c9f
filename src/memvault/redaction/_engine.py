"""The redaction filter: finds secrets and personal data, and applies a policy to them.

Every write passes through :meth:`Redactor.apply` before anything reaches the
store. The filter fails closed: an error inside it refuses the write
(:class:`RedactionError`); it never lets text through unfiltered.

Rules read the text in a normalized view (``_normal``): compatibility forms folded,
invisible characters dropped, every digit in ASCII; each finding replaces the span
of the text as written that it came from. Marker-shaped text in the input is read
like any other text (``_spans``): only the inside of a marker exactly as the filter
writes it is left alone, and a finding that reaches into or around any marker is a
finding, so no value, and no blocked one, gets through for carrying a marker.

Speed comes from RE2: a first pass (``_gates``) tells in one linear sweep which
rules can match at all; only those run their own search. No pattern can backtrack.
Overlapping findings are resolved in ``n log n`` (``_overlaps``). A pass after the
first searches, for rules whose matches stay within a line, only the lines around
what the pass before replaced (``_near``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal

from ..errors import BlockedError, ConfigurationError, RedactionError
from . import _re2
from ._gates import SET_MEMORY, Gate
from ._near import Chain, Pass, Plan, Span, around, in_bytes, indices, mask, windows
from ._normal import view
from ._overlaps import Ranked, resolve
from ._redacted import Redacted, join_and
from ._rule import Configured, Finding, Rule, a_label
from ._spans import Markers, Offsets, beside, lower
from .checks import shannon_entropy

Pseudonymizer = Callable[[str, str], str]  # (kind, value) -> 10 hex characters
Rescan = Literal["auto", "near", "whole"]  # how passes after the first read the text

# Each pass replaces every finding with a marker; real text settles in two or three.
# Text that has not settled by then is refused, never stored with a finding left in it.
_MAX_PASSES = 8


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
        # Each rule's own pattern is compiled when the first pass first lets it run:
        # most texts wake a handful of the rules, and compiling all of them would cost
        # a new process most of a second. Every pattern is valid RE2 already: built-in
        # ones are tested, custom ones checked when the policy is read.
        self._compiled: list[tuple[_re2.Matcher, int] | None] = [None] * len(self._rules)
        by_keywords: list[int] = []
        needs_words: list[int] = []
        by_pattern: dict[str, list[int]] = {}
        for index, configured in enumerate(self._rules):
            rule = configured.rule
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
        budget = SET_MEMORY // (len(by_pattern) + (1 if words else 0) or 1)
        self._words = Gate(self._rules, words, budget, keywords=True) if words else None
        self._gates = [Gate(self._rules, group, budget) for group in by_pattern.values()]
        self._keep_chars = {c.rule.name: c.keep for c in self._rules}
        # The kinds whose markers the filter writes, with the longest tail a mask keeps.
        self._kinds: dict[str, int] = {}
        for configured in self._rules:
            kind = configured.rule.kind
            self._kinds[kind] = max(self._kinds.get(kind, 0), configured.keep)
        self._plan: Plan | None = None  # made on the first later pass
        self._allow_exact = allow_exact
        self._allow: _re2.Matcher | None = None
        if allow_patterns:
            allow = "|".join(f"(?:{p})" for p in allow_patterns)
            self._allow = _re2.matcher(_re2.compile_pattern(allow.encode()))

    @property
    def rules(self) -> list[Configured]:
        return list(self._rules)

    def scan(self, text: str, verdicts: dict[tuple[int, str], bool] | None = None) -> list[Finding]:
        """Every finding in ``text``, overlaps resolved, in order of position.

        ``verdicts`` carries what the checks on a value alone decided, from one pass of
        :meth:`apply` to the next; it lives no longer than that call.
        """
        verdicts = {} if verdicts is None else verdicts
        return [finding for finding, _ in self._placed(text, verdicts, Pass())]

    def _placed(
        self, text: str, verdicts: dict[tuple[int, str], bool], done: Pass
    ) -> list[tuple[Finding, str]]:
        """The findings at their spans in ``text``, each with its value as the rules read it."""
        if not self._rules or not text:
            return []
        seen = view(text)
        return seen.place(self._find(seen.text, verdicts, done))

    def _find(self, text: str, verdicts: dict[tuple[int, str], bool], done: Pass) -> list[Finding]:
        """The findings in the normalized ``text``, overlaps resolved, in order of position."""
        data = text.encode()
        lowered = lower(text)
        found: list[Ranked] = []
        context: _Context | None = None  # made when a first value is found
        for index in self._candidates(data, lowered, done):
            values = self._values(index, data)
            if values:
                if context is None:
                    offsets = Offsets(text, data)
                    context = _Context(text, lowered, offsets, Markers(text, self._kinds), verdicts)
                found.extend(self._ranked(index, values, context))
        return resolve(found) if found else []

    def _candidates(self, data: bytes, lowered: str, done: Pass) -> list[int]:
        """The rules the first pass lets run, in policy order, so that ties between
        findings resolve as the policy lists the rules."""
        hits: list[int] = []
        present: frozenset[int] = frozenset()
        if self._words is not None:
            present = frozenset(self._words.run(lowered.encode()))
            hits += present & self._keyword_gated
        needs_words = self._needs_words
        matched: list[int] = []
        for gate in self._gates:
            found = gate.run(data)
            matched += found
            hits += [i for i in found if i not in needs_words or i in present]
        hits.sort()
        done.first = (present, hits, matched)
        return hits

    def _matcher(self, index: int) -> tuple[_re2.Matcher, int]:
        compiled = self._compiled[index]
        if compiled is None:  # two threads may both compile it: the results are alike
            compiled = self._compiled[index] = _compile(self._rules[index].rule)
        return compiled

    def _values(self, index: int, data: bytes) -> list[tuple[int, int]]:
        """The byte spans of the values one rule's search finds in the whole text."""
        match, group = self._matcher(index)
        blanked = bytearray(data) if self._rules[index].rule.overlapping else None
        haystack = data if blanked is None else blanked
        found: list[tuple[int, int]] = []
        pos, size = 0, len(data)
        while pos <= size:
            spans = match(_re2.UNANCHORED, haystack, pos, size)
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
            found.append((b_start, b_end))
        return found

    def _ranked(self, index: int, values: list[tuple[int, int]], context: _Context) -> list[Ranked]:
        """The values one rule found that its checks keep, each with its rank for
        :func:`resolve`."""
        configured = self._rules[index]
        rule = configured.rule
        found: list[Ranked] = []
        char = context.offsets.char
        for b_start, b_end in values:
            kept = self._keep(index, char(b_start), char(b_end), context)
            if kept is not None:
                start, end = kept
                action = configured.action
                finding = Finding(rule.name, rule.kind, rule.category, start, end, action)
                found.append((rule.priority, index, finding))
        return found

    def _keep(self, index: int, start: int, end: int, context: _Context) -> tuple[int, int] | None:
        """The span of the value the rule found at ``[start, end)``, if its checks keep it."""
        # Every check is a pure test on the value and its surroundings, so their order
        # changes nothing but the cost: the cheap and the most selective come first.
        text = context.text
        if context.markers:
            start, end, first, last = context.markers.trim(start, end)
            if start >= end:
                return None  # the inside of a marker the filter writes holds no value
            if (first or last) and beside(text, start, end, after=first, before=last):
                return None  # beside a marker, no value (see _spans)
        rule = self._rules[index].rule
        if rule.context:
            window = context.lowered[max(0, start - rule.window) : end]
            if not any(word in window for word in rule.context):
                return None
        # The rest looks at the value alone; a second pass meets the same values again.
        value = text[start:end]
        verdict = context.verdicts.get((index, value))
        if verdict is None:
            verdict = context.verdicts[index, value] = self._accepts(rule, value)
        return (start, end) if verdict else None

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
        return self._allow(_re2.ANCHOR_BOTH, raw, 0, len(raw))[0][0] < 0

    def apply(self, text: str, pseudonym: Pseudonymizer, *, rescan: Rescan = "auto") -> Redacted:
        """The text with every finding handled by its action; raises BlockedError.

        Runs to a fixed point: replacing one finding can expose another (a digit
        run that failed as a phone number because a card number followed it), so
        the result is scanned again until nothing is found. What is stored therefore
        passes the filter unchanged, and a later write that scans it whole again
        finds nothing new in it. Text that does not settle raises RedactionError.

        A pass after the first finds what a scan of the whole text would, reading only
        the lines around what the pass before replaced (``_near``). ``rescan`` says how
        later passes read: ``"auto"`` those lines when they are under a third of the
        text, else the whole (which then costs less); ``"near"`` those lines always;
        ``"whole"`` the whole text (the reference the tests hold the others to).
        """
        findings: list[Finding] = []
        verdicts: dict[tuple[int, str], bool] = {}
        done = Pass()
        changes: list[Span] | None = None
        for _ in range(_MAX_PASSES):
            if changes is None or rescan == "whole":
                placed = self._placed(text, verdicts, done)
            else:
                placed = self._placed_near(text, changes, verdicts, done, rescan == "near")
            if not placed:
                return Redacted(text, tuple(findings))
            text, changes = self._replace(text, placed, pseudonym)
            findings.extend(finding for finding, _ in placed)
        raise RedactionError("the text did not settle under the filter")

    def _placed_near(
        self,
        text: str,
        changes: list[Span],
        verdicts: dict[tuple[int, str], bool],
        done: Pass,
        always: bool,
    ) -> list[tuple[Finding, str]]:
        """:meth:`_placed` in a later pass, whose ``changes`` are the markers the pass
        before wrote: each rule searched near them where that finds the same (``_near``)."""
        seen = view(text)
        text = seen.text
        spans = [seen.seen(start, end) for start, end in changes]
        near = windows(text, spans, 0)
        if not always and 3 * sum(hi - lo for lo, hi in near) > len(text):
            return seen.place(self._find(text, verdicts, done))  # searching it all costs less
        data = text.encode()
        lowered = lower(text)
        present = 0
        if self._words is not None:
            present = mask(self._words.run(lowered.encode()))
        nearby = 0
        near_text = around(data, in_bytes(text, near))
        for gate in self._gates:
            nearby |= mask(gate.run(near_text))
        if self._plan is None:
            rules = [configured.rule for configured in self._rules]
            self._plan = Plan(rules, mask(self._keyword_gated), mask(self._needs_words))
        done.settle(self._plan)
        whole, close = self._plan.later(present, done.present, done.hits, done.matched, nearby)
        done.present = present
        done.hits |= whole | close
        done.matched |= whole | close | nearby
        context = _Context(text, lowered, Offsets(text, data), Markers(text, self._kinds), verdicts)
        return seen.place(resolve(self._near_found(whole, close, spans, data, context)))

    def _near_found(
        self, whole: int, close: int, spans: list[Span], data: bytes, context: _Context
    ) -> list[Ranked]:
        """What the rules of a later pass find: those in ``close`` near the changes
        ``spans``, the rest of ``whole | close`` in the whole text."""
        text = context.text
        reaches: dict[int, list[Span]] = {}
        found: list[Ranked] = []
        for index in indices(whole | close):
            values = None
            if close >> index & 1:
                rule = self._rules[index].rule
                reach = rule.window if rule.context else 0
                if reach not in reaches:
                    reaches[reach] = in_bytes(text, windows(text, spans, reach))
                values = Chain(*self._matcher(index), data).values(reaches[reach])
            if values is None:
                values = self._values(index, data)
            found.extend(self._ranked(index, values, context))
        return found

    def _replace(
        self, text: str, placed: list[tuple[Finding, str]], pseudonym: Pseudonymizer
    ) -> tuple[str, list[Span]]:
        """The text with the findings replaced, and where the markers stand in it."""
        blocked = sorted({f.kind for f, _ in placed if f.action == "block"})
        if blocked:
            kinds = join_and([a_label(k) for k in blocked])
            raise BlockedError(
                f"Error: The write was refused: it contains {kinds}, "
                "which this vault's policy does not allow to be stored. Remove it and try again."
            )
        keep = self._keep_chars
        out: list[str] = []
        markers: list[Span] = []
        last = size = 0
        for f, value in placed:
            before = text[last : f.start]
            marker = _replacement(f, value, keep[f.rule], pseudonym)
            size += len(before)
            markers.append((size, size + len(marker)))
            size += len(marker)
            out += (before, marker)
            last = f.end
        out.append(text[last:])
        return "".join(out), markers


class _Context:
    """What every rule's checks read during one scan: the text, lower-cased, where its
    markers are, how bytes map to characters, and the verdicts met so far."""

    __slots__ = ("lowered", "markers", "offsets", "text", "verdicts")

    def __init__(
        self,
        text: str,
        lowered: str,
        offsets: Offsets,
        markers: Markers,
        verdicts: dict[tuple[int, str], bool],
    ) -> None:
        self.text = text
        self.lowered = lowered
        self.offsets = offsets
        self.markers = markers
        self.verdicts = verdicts


def _compile(rule: Rule) -> tuple[_re2.Matcher, int]:
    """The rule's pattern, compiled for matching, and the index of its ``value`` group."""
    # Matching runs on the UTF-8 bytes of the text, encoded once per scan: the binding
    # would otherwise encode the whole text on every call.
    try:
        compiled = _re2.compile_pattern(rule.pattern.encode())
    except _re2.error as exc:
        raise ConfigurationError(
            f"detector {rule.name}: its pattern is not valid RE2 ({_re2.message(exc)})"
        ) from None
    groups = compiled.groupindex
    return _re2.matcher(compiled), groups.get("value", groups.get(b"value", 0))


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
