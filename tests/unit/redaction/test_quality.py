"""How well the redaction filter does its job, measured on a labeled corpus.

``tests/corpus/samples.jsonl`` (built by ``tests/corpus/generate.py``) holds
agent notes with the values that must go and the look-alikes that must stay.
Recall of a kind is the share of its values whose every occurrence is fully
covered by findings (of any kind: the text is gone either way); destruction is
the share of look-alikes that any finding touches. Run with ``-s`` to see the
per-kind table.
"""

from __future__ import annotations

import hashlib
import ipaddress
import json
import re
import string
import tempfile
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from memvault.redaction import Finding, Redactor, load, resolve
from tests.corpus import generate

# Corpus-wide measures take seconds: outside the fast tier.
pytestmark = pytest.mark.slow

CORPUS = Path(__file__).resolve().parents[2] / "corpus" / "samples.jsonl"

SECRET_RECALL = 0.99
STRUCTURED_RECALL = 0.98
FUZZY_RECALL = 0.85
MAX_DESTROYED = 0.01


@cache
def samples() -> list[dict]:
    with CORPUS.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def spans(text: str, value: str) -> Iterator[tuple[int, int]]:
    at = text.find(value)
    while at >= 0:
        yield at, at + len(value)
        at = text.find(value, at + 1)


def covered(findings: list[Finding], start: int, end: int) -> bool:
    """Whether the findings together cover every character of [start, end)."""
    at = start
    for f in sorted(findings, key=lambda f: f.start):
        if f.start > at:
            break
        at = max(at, f.end)
        if at >= end:
            return True
    return at >= end


def touched(findings: list[Finding], start: int, end: int) -> bool:
    return any(f.start < end and start < f.end for f in findings)


SUBTYPES = (
    (r"gh[pousr]_", "GitHub token"),
    (r"github_pat_", "GitHub fine-grained token"),
    (r"AKIA", "AWS key id"),
    (r"xox[bp]-", "Slack token"),
    (r"[sr]k_live_", "Stripe key"),
    (r"sk-ant-", "Anthropic key"),
    (r"sk-proj-", "OpenAI key"),
    (r"AIza", "Google API key"),
    (r"glpat-", "GitLab token"),
    (r"npm_", "npm token"),
    (r"SG\.", "SendGrid key"),
    (r"hf_", "Hugging Face token"),
    (r"shpat_|dop_v1_", "Shopify/DigitalOcean token"),
    (r"\d+:AA", "Telegram bot token"),
    (r"ya29\.", "Google OAuth token"),
    (r"eyJ", "JWT"),
    (r"GOCSPX-", "Google client secret"),
    (r"whsec_", "Stripe webhook secret"),
    (r"\s*-----BEGIN ([A-Z ]+)-----", "PEM {0}"),
    (r"LS0tLS1CRUdJTi", "base64 of a PEM block"),
    (r"s%3A", "signed cookie"),
)


def hint(value: str) -> str:
    """A description of a value that does not reveal it: its format, or its shape."""
    for pattern, name in SUBTYPES:
        m = re.match(pattern, value)
        if m:
            return name.format(*m.groups())
    if len(value) > 24:
        sets = [("hex", "0123456789abcdefABCDEF"), ("alnum", string.ascii_letters + string.digits)]
        charset = next((n for n, cs in sets if all(c in cs for c in value)), "mixed")
        return f"{len(value)} {charset} chars"
    shape = "".join(
        "9"
        if c.isdigit()
        else "A"
        if c.isupper()
        else "a"
        if c.isalpha() and c.isascii()
        else "x"
        if c.isalpha()
        else c
        for c in value
    )
    return f"'{shape}'"


@dataclass
class Tally:
    go: Counter[str] = field(default_factory=Counter)
    caught: Counter[str] = field(default_factory=Counter)
    same_kind: Counter[str] = field(default_factory=Counter)
    stay: Counter[str] = field(default_factory=Counter)
    destroyed: Counter[str] = field(default_factory=Counter)
    misses: Counter[tuple[str, str]] = field(default_factory=Counter)
    false_positives: Counter[tuple[str, str]] = field(default_factory=Counter)

    def recall(self, kinds: tuple[str, ...]) -> float:
        total = sum(self.go[k] for k in kinds)
        return sum(self.caught[k] for k in kinds) / total if total else 1.0

    def destruction(self) -> float:
        total = sum(self.stay.values())
        return sum(self.destroyed.values()) / total if total else 0.0

    def table(self) -> str:
        rows = [f"{'kind':<16}{'values':>7}{'recall':>9}{'same kind':>11}"]
        for group, kinds in (
            ("secrets", generate.SECRET_KINDS),
            ("structured", generate.STRUCTURED_KINDS),
            ("names/addresses", generate.FUZZY_KINDS),
        ):
            for k in kinds:
                n = self.go[k]
                r = self.caught[k] / n if n else 1.0
                same = self.same_kind[k] / n if n else 1.0
                rows.append(f"{k:<16}{n:>7}{r:>9.1%}{same:>11.1%}")
            total = sum(self.go[k] for k in kinds)
            rows.append(f"{'= ' + group:<16}{total:>7}{self.recall(kinds):>9.1%}")
        rows.append("")
        rows.append(f"{'look-alike':<16}{'values':>7}{'destroyed':>11}")
        for sort in sorted(self.stay):
            n = self.stay[sort]
            rows.append(f"{sort:<16}{n:>7}{self.destroyed[sort] / n:>11.1%}")
        rows.append(f"{'= all':<16}{sum(self.stay.values()):>7}{self.destruction():>11.1%}")
        if self.misses:
            rows.append("\nmost common misses:")
            rows += [f"  {n:>4} x {k}: {d}" for (k, d), n in self.misses.most_common(10)]
        if self.false_positives:
            rows.append("most common false positives:")
            rows += [f"  {n:>4} x {r} on {d}" for (r, d), n in self.false_positives.most_common(10)]
        return "\n".join(rows)


def sort_of(value: str) -> str:
    """Which family of look-alike a must-stay value belongs to, for the table."""
    try:
        ipaddress.ip_address(value)
    except ValueError:
        pass
    else:
        return "reserved_ip"
    checks = [
        ("public_key", r"ssh-(?:ed25519|rsa) "),
        ("integrity", r"sha512-"),
        ("example_key", r"AKIAIOSFODNN7EXAMPLE|wJalrXUtnFEMI"),
        ("example_email", r".*@"),
        ("url", r"https?://|postgres://"),
        ("uuid", r"[0-9a-f]{8}-[0-9a-f]{4}-"),
        ("sha256", r"(?:sha256:)?[0-9a-f]{64}$"),
        ("git_sha", r"[0-9a-f]{40}$"),
        ("short_sha", r"[0-9a-f]{7}[a-f]$"),
        ("timestamp", r"\d{4}-\d\d-\d\d[T ]\d\d:|\d{10}$"),
        ("order", r"ORD-|INC\d|PROJ-|#\d|SO-"),
        ("isbn", r"978-"),
        ("iban_fail", r"[A-Z]{2}\d\d ?[A-Z0-9]{4}"),
        ("luhn_fail", r"[\d -]{13,23}$"),
        ("price", r"[$€¥₹]\d|R\$|\d+ \d+ ₽"),
        ("version", r"v\d|\d+\.\d+\.\d{1,2}$|10\.0\.\d{5}\."),
        ("pod", r"(?:web|api|worker)-[0-9a-f]"),
        ("plain_date", r".*(?:\d{4}年|\d{4}$|^\d{4}[-/])"),
    ]
    for name, pattern in checks:
        if re.match(pattern, value):
            return name
    return "placeholder"


def measure(corpus: list[dict], redactor: Redactor) -> Tally:
    """Recall per kind and destruction per look-alike family of ``redactor`` on ``corpus``."""
    tally = Tally()
    for sample in corpus:
        text = sample["text"]
        where = sample["id"].split("-", 1)[1]
        findings = redactor.scan(text)
        for g in sample["must_go"]:
            kind, value = g["kind"], g["value"]
            tally.go[kind] += 1
            places = list(spans(text, value))
            if places and all(covered(findings, s, e) for s, e in places):
                tally.caught[kind] += 1
                s, e = places[0]
                if any(f.kind == kind and f.start < e and s < f.end for f in findings):
                    tally.same_kind[kind] += 1
            else:
                tally.misses[(kind, f"{hint(value)} in {where}")] += 1
        for value in sample["must_stay"]:
            sort = sort_of(value)
            tally.stay[sort] += 1
            hits = [f for s, e in spans(text, value) for f in findings if touched([f], s, e)]
            if hits:
                tally.destroyed[sort] += 1
                tally.false_positives[(hits[0].rule, f"{sort} {hint(value)} in {where}")] += 1
    return tally


@cache
def evaluate() -> Tally:
    """The default policy on the corpus; the table is printed once per run."""
    tally = measure(samples(), load().redactor)
    print("\n" + tally.table())
    return tally


def test_corpus_is_what_the_generator_writes() -> None:
    """samples.jsonl is exactly the generator's output, so the corpus is reproducible."""
    assert CORPUS.read_text(encoding="utf-8") == generate.dump(generate.build())


def test_corpus_labels_are_consistent() -> None:
    """Every labeled value occurs in its text and no look-alike overlaps a value to remove."""
    for sample in samples():
        assert generate.consistent(sample), sample["id"]


def test_secret_recall() -> None:
    """At least 99% of secrets in the corpus are fully covered by findings."""
    tally = evaluate()
    assert tally.recall(generate.SECRET_KINDS) >= SECRET_RECALL, tally.table()


def test_structured_personal_recall() -> None:
    """At least 98% of structured personal data in the corpus is fully covered."""
    tally = evaluate()
    assert tally.recall(generate.STRUCTURED_KINDS) >= STRUCTURED_RECALL, tally.table()


def test_name_and_address_recall() -> None:
    """At least 85% of names and street addresses in context are fully covered."""
    tally = evaluate()
    assert tally.recall(generate.FUZZY_KINDS) >= FUZZY_RECALL, tally.table()


def test_lookalikes_survive() -> None:
    """At most 1% of look-alikes (hashes, ids, placeholders, examples) are touched."""
    tally = evaluate()
    assert tally.destruction() <= MAX_DESTROYED, tally.table()


@pytest.mark.parametrize("variant", ["holdout", "fresh", "blind"])
def test_held_out_variants_meet_the_same_bars(variant: str) -> None:
    """The held-out variants (other seeds, words and templates; the blind one written apart
    from the detectors) meet every bar the corpus does, so a rule that only fits the
    corpus's phrasing shows here."""
    corpus = {
        "holdout": generate.build_holdout,
        "fresh": generate.build_fresh,
        "blind": generate.build_blind,
    }[variant]()
    tally = measure(corpus, load().redactor)
    assert tally.recall(generate.SECRET_KINDS) >= SECRET_RECALL, tally.table()
    assert tally.recall(generate.STRUCTURED_KINDS) >= STRUCTURED_RECALL, tally.table()
    assert tally.recall(generate.FUZZY_KINDS) >= FUZZY_RECALL, tally.table()
    assert tally.destruction() <= MAX_DESTROYED, tally.table()


# --- properties ----------------------------------------------------------------------------

FILLER_WORDS = (
    "the", "deploy", "went", "fine", "after", "lunch", "and", "we", "moved", "meeting", "to",
    "next", "week", "notes", "summary", "follow", "up", "ok", "done", "later", "review", "draft",
    "plan", "budget", "team", "room",
)  # fmt: skip
SEPARATORS = (" ", "\n", ", ", ". ", "; ", " - ", "\t", " (", ") ", ": ", "\n\n")
PSEUDONYM_KEY = b"quality-test"


def pseudonym(kind: str, value: str) -> str:
    return hashlib.sha256(PSEUDONYM_KEY + kind.encode() + b"\0" + value.encode()).hexdigest()[:10]


@cache
def unblocked() -> Redactor:
    """The default policy with private keys redacted instead of blocked."""
    text = resolve(None).read_text(encoding="utf-8")
    changed, n = re.subn(r"(?m)^private_key\s*=.*$", 'private_key = "redact"', text)
    if not n:
        changed = 'version = 1\n\n[detectors]\nprivate_key = "redact"\n'
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "unblocked.toml"
        path.write_text(changed, encoding="utf-8")
        return load(path).redactor


def surroundings() -> st.SearchStrategy[str]:
    words = st.lists(st.sampled_from(FILLER_WORDS), max_size=12).map(" ".join)
    return st.tuples(words, st.sampled_from(SEPARATORS)).map(lambda t: t[0] + t[1] if t[0] else "")


def trailing() -> st.SearchStrategy[str]:
    words = st.lists(st.sampled_from(FILLER_WORDS), max_size=12).map(" ".join)
    return st.tuples(st.sampled_from(SEPARATORS), words).map(lambda t: t[0] + t[1])


PROPERTY = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(
    kind=st.sampled_from(generate.KINDS),
    seed=st.integers(0, 2**32 - 1),
    before=surroundings(),
    after=trailing(),
)
def test_needle_is_caught_anywhere(kind: str, seed: int, before: str, after: str) -> None:
    """A generated value of any kind, in its context, is covered wherever it is put."""
    # A name followed straight by a colon reads as a label ("Jane Doe Email:"), which the
    # name detector leaves alone by design.
    assume(not (kind == "person_name" and after.startswith(":")))
    snippet, value = generate.needle(kind, seed)
    text = before + snippet + after
    findings = unblocked().scan(text)
    start = text.index(snippet) + snippet.index(value)
    assert covered(findings, start, start + len(value)), (kind, hint(value))


@PROPERTY
@given(
    sort=st.sampled_from(generate.KEEP_KINDS),
    seed=st.integers(0, 2**32 - 1),
    before=surroundings(),
    after=trailing(),
)
def test_lookalike_survives_anywhere(sort: str, seed: int, before: str, after: str) -> None:
    """A generated look-alike is not touched wherever it is put in neutral text."""
    value = generate.keep(sort, seed)
    text = before + value + after
    findings = unblocked().scan(text)
    start = len(before)
    assert not touched(findings, start, start + len(value)), (sort, hint(value))


def test_redaction_is_idempotent_on_corpus() -> None:
    """Redacting any corpus note twice gives the same text as redacting it once."""
    redactor = unblocked()
    changed = []
    for sample in samples():
        once = redactor.apply(sample["text"], pseudonym).text
        if redactor.apply(once, pseudonym).text != once:
            changed.append(sample["id"])
    assert not changed, f"{len(changed)} notes change on a second pass: {changed[:10]}"


@PROPERTY
@given(
    parts=st.lists(
        st.one_of(
            st.text(alphabet=string.printable + "äéßçñ€日本語", max_size=40),
            st.tuples(st.sampled_from(generate.KINDS), st.integers(0, 2**32 - 1)).map(
                lambda t: generate.needle(*t)[0]
            ),
        ),
        max_size=8,
    )
)
def test_redaction_is_idempotent_on_random_text(parts: list[str]) -> None:
    """Redacting random text with secrets and personal data in it is idempotent."""
    text = " ".join(parts)
    once = unblocked().apply(text, pseudonym).text
    assert unblocked().apply(once, pseudonym).text == once


def test_kinds_cover_the_catalogue() -> None:
    """The corpus labels every kind the filter knows, with at least 80 values each."""
    counts: defaultdict[str, int] = defaultdict(int)
    for sample in samples():
        for g in sample["must_go"]:
            counts[g["kind"]] += 1
    assert set(counts) == set(generate.KINDS)
    assert min(counts.values()) >= 80, dict(counts)
