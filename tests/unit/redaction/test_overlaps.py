"""Overlapping findings: which stands, and that deciding it costs n log n, not n squared."""

from __future__ import annotations

import itertools
import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memvault.redaction import Configured, Finding, Redactor, Rule

# Rules of different priorities whose matches overlap in a text of a's, b's and c's.
RULES = (
    Rule(name="r0", kind="secret", category="secret", pattern=r"ab+", priority=1),
    Rule(name="r1", kind="secret", category="secret", pattern=r"b+c", priority=1),
    Rule(name="r2", kind="secret", category="secret", pattern=r"a[bc]{2}", priority=2),
    Rule(name="r3", kind="secret", category="secret", pattern=r"c+a+", priority=0),
    Rule(name="r4", kind="secret", category="secret", pattern=r"ca?b", priority=2),
)


def redactor(rules: tuple[Rule, ...] = RULES) -> Redactor:
    return Redactor([Configured(rule, "redact", 4) for rule in rules])


def greedy(text: str, rules: tuple[Rule, ...] = RULES) -> list[tuple[str, int, int]]:
    """The rule, written the plain quadratic way on what each rule finds alone: best first,
    each kept unless it meets one kept already; best is the higher priority, then the
    longer, then the earlier, then the rule the policy lists first."""
    found: list[tuple[int, int, Finding]] = []
    for order, rule in enumerate(rules):
        found += [(rule.priority, order, f) for f in redactor((rule,)).scan(text)]
    found.sort(key=lambda r: (-r[0], r[2].start - r[2].end, r[2].start, r[1]))
    kept: list[Finding] = []
    for _, _, f in found:
        if all(k.end <= f.start or f.end <= k.start for k in kept):
            kept.append(f)
    return [(f.rule, f.start, f.end) for f in sorted(kept, key=lambda f: f.start)]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="abc ", max_size=300))
def test_resolution_is_the_greedy_rule(text: str) -> None:
    """Whatever the overlaps, small clusters and large, the findings that stand are those
    the plain greedy rule keeps."""
    found = [(f.rule, f.start, f.end) for f in redactor().scan(text)]
    assert found == greedy(text)


def test_a_large_cluster_resolves_as_the_greedy_rule() -> None:
    """One cluster of thousands of chained findings, past the small-cluster path."""
    rng = random.Random(7)
    text = "".join(rng.choice("abc") for _ in range(6000))
    found = [(f.rule, f.start, f.end) for f in redactor().scan(text)]
    assert len(found) > 1000
    assert found == greedy(text)


@pytest.mark.slow
def test_a_megabyte_of_small_findings_resolves_in_n_log_n() -> None:
    """A 1 MiB note of 350,000 small values of two kinds, side by side. The old resolution
    kept what stood in a list in position order and put each value of the second kind
    into the middle of it: about 10^11 bytes moved, half a minute; this is linear."""
    words = (
        Rule(name="first", kind="secret", category="secret", pattern=r"\bab\b", priority=2),
        Rule(name="second", kind="secret", category="secret", pattern=r"\bcd\b", priority=1),
    )
    text = "ab cd " * ((1 << 20) // 6)
    filter_ = redactor(words)
    began = time.perf_counter()
    found = filter_.scan(text)
    assert time.perf_counter() - began < 10.0
    assert len(found) == 2 * (len(text) // 6)
    assert all(a.end <= b.start for a, b in itertools.pairwise(found))
