"""Measure the redaction filter on one labeled corpus and print recall and destruction.

    .venv/bin/python tests/corpus/measure.py --variant blind4   # or blind3, blind2, blind, fresh, …
    .venv/bin/python tests/corpus/measure.py --variant blind --misses 40

The numbers are the ones tests/test_quality.py asserts on, computed the same way with its
helpers: a value counts as caught when findings cover every character of each of its
occurrences; a look-alike is destroyed when any finding touches it. The filter is the
default policy with private keys redacted rather than blocked (``unblocked()``), so a
private key is measured like any other value instead of refusing the whole note.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.corpus import generate
from tests.unit.redaction.test_quality import covered, samples, sort_of, spans, touched, unblocked

VARIANTS: dict[str, Callable[[], list[dict]]] = {
    "corpus": samples,
    "holdout": generate.build_holdout,
    "fresh": generate.build_fresh,
    "blind": generate.build_blind,
    "blind2": generate.build_blind2,
    "blind3": generate.build_blind3,
    "blind4": generate.build_blind4,
    "blind5": generate.build_blind5,
}
GROUPS = (
    ("secrets", generate.SECRET_KINDS),
    ("structured", generate.STRUCTURED_KINDS),
    ("names/addresses", generate.FUZZY_KINDS),
)
CONTEXT = 30  # characters shown on each side of a missed or destroyed value


@dataclass
class Result:
    go: Counter[str] = field(default_factory=Counter)
    caught: Counter[str] = field(default_factory=Counter)
    stay: Counter[str] = field(default_factory=Counter)
    destroyed: Counter[str] = field(default_factory=Counter)
    misses: list[tuple[str, str, str]] = field(default_factory=list)  # kind, id, context
    damage: list[tuple[str, str, str, str]] = field(default_factory=list)  # sort, rule, id, context

    def recall(self, kinds: tuple[str, ...]) -> tuple[int, int]:
        return sum(self.caught[k] for k in kinds), sum(self.go[k] for k in kinds)


def context(text: str, start: int, end: int) -> str:
    """The value with CONTEXT characters around it, on one line, the value in [[ ]]."""
    left = text[max(0, start - CONTEXT) : start]
    right = text[end : end + CONTEXT]
    value = text[start:end]
    if len(value) > 60:
        value = value[:28] + "…" + value[-28:]
    return f"{left}[[{value}]]{right}".replace("\n", "⏎").replace("\t", " ")


def measure(corpus: list[dict]) -> Result:
    redactor = unblocked()
    result = Result()
    for sample in corpus:
        text = sample["text"]
        findings = redactor.scan(text)
        for g in sample["must_go"]:
            kind, value = g["kind"], g["value"]
            result.go[kind] += 1
            places = list(spans(text, value))
            if places and all(covered(findings, s, e) for s, e in places):
                result.caught[kind] += 1
            else:
                s, e = next(((s, e) for s, e in places if not covered(findings, s, e)), (0, 0))
                result.misses.append((kind, sample["id"], context(text, s, e)))
        sorts = sample.get("stay_sorts") or [sort_of(v) for v in sample["must_stay"]]
        for value, sort in zip(sample["must_stay"], sorts, strict=True):
            result.stay[sort] += 1
            hits = [
                (f, s, e) for s, e in spans(text, value) for f in findings if touched([f], s, e)
            ]
            if hits:
                result.destroyed[sort] += 1
                f, s, e = hits[0]
                result.damage.append((sort, f.rule, sample["id"], context(text, s, e)))
    return result


def spread(rows: list[tuple[str, str, str]], limit: int) -> list[tuple[str, str, str]]:
    """Up to ``limit`` rows taken in turn from each kind, so one noisy kind does not fill
    the list; the result is in catalogue order."""
    by_kind: dict[str, list[tuple[str, str, str]]] = {}
    for row in rows:
        by_kind.setdefault(row[0], []).append(row)
    picked: list[tuple[str, str, str]] = []
    depth = 0
    while len(picked) < min(limit, len(rows)):
        for kind in generate.KINDS:
            if depth < len(by_kind.get(kind, [])) and len(picked) < limit:
                picked.append(by_kind[kind][depth])
        depth += 1
    order = {k: i for i, k in enumerate(generate.KINDS)}
    return sorted(picked, key=lambda r: order[r[0]])


def pct(n: int, total: int) -> str:
    return f"{n / total:.1%}" if total else "-"


def table(result: Result, misses: int) -> str:
    rows = [f"{'kind':<18}{'values':>7}{'caught':>8}{'recall':>9}"]
    for group, kinds in GROUPS:
        for k in kinds:
            n, hit = result.go[k], result.caught[k]
            rows.append(f"{k:<18}{n:>7}{hit:>8}{pct(hit, n):>9}")
        caught, total = result.recall(kinds)
        rows.append(f"{'= ' + group:<18}{total:>7}{caught:>8}{pct(caught, total):>9}")
        rows.append("")
    rows.append(f"{'look-alike':<18}{'values':>7}{'hit':>8}{'destroyed':>11}")
    for sort in sorted(result.stay):
        n, hit = result.stay[sort], result.destroyed[sort]
        rows.append(f"{sort:<18}{n:>7}{hit:>8}{pct(hit, n):>11}")
    total, hit = sum(result.stay.values()), sum(result.destroyed.values())
    rows.append(f"{'= all':<18}{total:>7}{hit:>8}{pct(hit, total):>11}")
    if misses and result.misses:
        rows.append(f"\nmissed values ({len(result.misses)}, up to {misses} spread over kinds):")
        rows += [f"  {k:<15} {i:<22} {c}" for k, i, c in spread(result.misses, misses)]
    if misses and result.damage:
        rows.append(f"\ndestroyed look-alikes ({len(result.damage)}, first {misses}):")
        rows += [f"  {s:<15} {r:<18} {i:<22} {c}" for s, r, i, c in result.damage[:misses]]
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--variant", choices=sorted(VARIANTS), default="blind")
    parser.add_argument(
        "--misses", type=int, default=0, help="also list up to N misses and destroyed look-alikes"
    )
    args = parser.parse_args(argv)
    corpus = VARIANTS[args.variant]()
    print(f"{args.variant}: {len(corpus)} samples")
    print(table(measure(corpus), args.misses))
    return 0


if __name__ == "__main__":
    sys.exit(main())
