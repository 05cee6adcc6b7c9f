"""A pass after the first reads only the lines around what the pass before replaced, and
finds what a scan of the whole text would: checked on every corpus note, plain and with
its values, alone and inside longer notes, and on generated text and generated rules.

``Redactor.apply(..., rescan="near")`` reads only those lines in every later pass,
``rescan="whole"`` the whole text (the reference), and ``"auto"``, the default, picks one
of the two in each pass. The outcome compared is everything ``apply`` gives: the text,
the findings in order, or the error it raises.
"""

from __future__ import annotations

import string
from functools import cache

import pytest
import re2
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memvault import BlockedError, ConfigurationError, RedactionError
from memvault.redaction import Action, Configured, Redactor, Rule, load
from tests.corpus import generate
from tests.unit.redaction.test_quality import CORPUS, pseudonym, samples, unblocked

# Corpus-wide comparisons take seconds: outside the fast tier.
pytestmark = pytest.mark.slow

Outcome = tuple[object, ...]


def outcome(redactor: Redactor, text: str, rescan: str) -> Outcome:
    try:
        done = redactor.apply(text, pseudonym, rescan=rescan)  # type: ignore[arg-type]
    except (BlockedError, RedactionError, ConfigurationError) as exc:
        return type(exc).__name__, str(exc)
    return done.text, done.findings


def same(redactor: Redactor, text: str, modes: tuple[str, ...] = ("near", "auto")) -> bool:
    reference = outcome(redactor, text, "whole")
    return all(outcome(redactor, text, mode) == reference for mode in modes)


@cache
def default() -> Redactor:
    return load().redactor


def redactors() -> list[Redactor]:
    """The default policy, and the one the benchmark runs (private keys redacted rather
    than blocked: a block stops at the first pass)."""
    return [default(), unblocked()]


def plain(sample: dict) -> str:
    """A corpus note with its values taken out: the same formats, languages and
    look-alikes, as most notes an agent writes (they hold no secret at all)."""
    text = sample["text"]
    for value in sorted((g["value"] for g in sample["must_go"]), key=len, reverse=True):
        text = text.replace(value, "n/a")
    return text


def pieces(text: str, size: int = 2048) -> list[str]:
    """Consecutive pieces of ``size`` UTF-8 bytes, cut on character boundaries (as the
    benchmark's dense notes are)."""
    raw, out, at = text.encode(), [], 0
    while at < len(raw):
        end = min(len(raw), at + size)
        while end < len(raw) and raw[end] & 0xC0 == 0x80:
            end -= 1
        out.append(raw[at:end].decode())
        at = end
    return out


# --- the corpus ----------------------------------------------------------------------------


def test_the_corpus_file_is_the_one_measured() -> None:
    assert len(samples()) == len(CORPUS.read_text(encoding="utf-8").splitlines()) > 500


@pytest.mark.parametrize("variant", ["notes", "plain"])
def test_every_corpus_note_is_redacted_alike(variant: str) -> None:
    """Each corpus note (``plain``: with its values taken out) comes out of ``apply`` the
    same, reading only near the changes or the whole text, under both policies."""
    texts = [s["text"] if variant == "notes" else plain(s) for s in samples()]
    for redactor in redactors():
        differ = [
            s["id"] for s, text in zip(samples(), texts, strict=True) if not same(redactor, text)
        ]
        assert differ == []


def test_corpus_notes_inside_long_notes_are_redacted_alike() -> None:
    """A corpus note between plain ones, where the windows are a small part of the text
    and ``auto`` reads only them."""
    notes = samples()
    differ = []
    for at, sample in enumerate(notes):
        before, after = plain(notes[at - 1]), plain(notes[(at + 7) % len(notes)])
        text = "\n".join([before, plain(notes[at - 3]), sample["text"], after])
        if not same(unblocked(), text):
            differ.append(sample["id"])
    assert differ == []


def test_the_benchmark_dense_notes_are_redacted_alike() -> None:
    """The corpus cut into 2 KB pieces, lines and values cut at the edges included."""
    whole = "\n".join(s["text"] for s in samples())
    differ = [at for at, piece in enumerate(pieces(whole)) if not same(unblocked(), piece)]
    assert differ == []


# --- generated text ------------------------------------------------------------------------

MARKERS = (
    "[REDACTED:password]", "[REDACTED:email]", "[REDACTED:national_id]", "[REDACTED:secret]",
    "[MASKED:card_number:1111]", "[PSEUDONYM:person_name:0123456789]", "[REDACTED:x]",
    "[MASKED:card_number:4539148803436467]", "[REDACTED:", "]", "[",
)  # fmt: skip
WORDS = (
    "password", "Password: ", "secret", "token=", "api_key", "cookie", "DOB ", "name,", "ssn",
    "Patient: ", "national id", "IBAN", "phone ", "passport ", "user@", "-----BEGIN ",
)  # fmt: skip
JOINS = (" ", "\n", "\n\n", ", ", "; ", "=", ": ", "\t", "|", "\r\n", "")

PIECES = st.one_of(
    st.tuples(st.sampled_from(generate.KINDS), st.integers(0, 2**32 - 1)).map(
        lambda t: generate.needle(*t)[0]
    ),
    st.tuples(st.sampled_from(generate.KEEP_KINDS), st.integers(0, 2**32 - 1)).map(
        lambda t: generate.keep(*t)
    ),
    st.sampled_from(MARKERS),
    st.sampled_from(WORDS),
    st.sampled_from(JOINS),
    st.text(max_size=12),
    st.text(alphabet=string.printable + "äéßçñ€日本語１２：，\u200b\u0301", max_size=24),
)

PROPERTY = settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@PROPERTY
@given(st.lists(PIECES, max_size=24))
def test_generated_text_is_redacted_alike(parts: list[str]) -> None:
    """Secrets and personal data, markers whole and broken, look-alikes, keywords, line
    breaks and random text, joined: every way of reading later passes agrees."""
    text = "".join(parts)
    for redactor in redactors():
        assert same(redactor, text)


# --- generated rules -----------------------------------------------------------------------

# Pieces of patterns that stay within a line and pieces that reach across lines; values
# that match often in the small alphabet below, markers included; and what comes before
# and after a value, which may hold the line break before or after it.
ATOMS = (
    "a", "b", "x", r"\n", r"\s", "[^a]", "[ab]", ".", "(?s:.)", r"\b", "(?m:^)", "(?m:$)",
    r"[^\n]", r"\d", r"\W", r"[^\]]", r"\[", r"\]", r"[A-Z]", ":", " ",
)  # fmt: skip
VALUES = (r"[ab]+", r"a\s*b", "x", r"\]\s*x", r"[^\s]+", r"\w+", r"a(?:\s+a)*", r"b[^x]*x", r"[ab]")
LEADS = ("", "(?:(?m:^)|[^a])", "(?:\n|x)", r"\s", "(?m:^)", r"\b", ":", r"(?:^|[^\w])")
TRAILS = ("", r"(?:\s|$)", r"\n?", "(?:[^a]|$)", r"\b", r"\n\n", r"(?:\s+b)?")


def patterns() -> st.SearchStrategy[str]:
    atom = st.sampled_from(ATOMS)
    return st.recursive(
        atom,
        lambda inner: st.one_of(
            st.lists(inner, min_size=2, max_size=4).map("".join),
            st.lists(inner, min_size=2, max_size=3).map(lambda xs: "(?:" + "|".join(xs) + ")"),
            st.tuples(inner, st.sampled_from(["*", "+", "?", "{1,3}", "*?"])).map(
                lambda t: f"(?:{t[0]}){t[1]}"
            ),
        ),
        max_leaves=8,
    )


@st.composite
def rules(draw: st.DrawFn, index: int) -> Configured:
    value = draw(st.one_of(st.sampled_from(VALUES), patterns()))
    before = draw(st.one_of(st.sampled_from(LEADS), patterns()))
    after = draw(st.one_of(st.sampled_from(TRAILS), patterns()))
    keywords = draw(st.sampled_from([(), (), ("a",), ("ab",), ("red",), ("x b",)]))
    rule = Rule(
        name=f"r{index}",
        kind=draw(st.sampled_from(["ab", "ba", "x", "a_b"])),
        category="secret",
        pattern=f"{before}(?P<value>{value}){after}",
        keywords=keywords,
        context=draw(st.sampled_from([(), (), ("b",), ("ax",), ("red",)])),
        window=draw(st.integers(0, 24)),
        priority=draw(st.integers(0, 2)),
        gate="keywords" if keywords and draw(st.booleans()) else "",
        overlapping=draw(st.integers(0, 4)) == 0,
    )
    action: Action = draw(st.sampled_from(["redact", "redact", "mask", "pseudonymize", "block"]))
    return Configured(rule, action, draw(st.integers(0, 4)))


def valid(configured: Configured) -> bool:
    try:
        re2.compile(configured.rule.pattern)
    except re2.error:
        return False
    return True


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(1, 4).flatmap(lambda n: st.tuples(*(rules(i).filter(valid) for i in range(n)))),
    st.lists(st.text(alphabet="abx :[]AB1_", max_size=12), min_size=1, max_size=40).map("\n".join),
)
def test_generated_rules_find_alike(configured: tuple[Configured, ...], text: str) -> None:
    """Rules made of pieces that stay within a line and pieces that reach across lines,
    with keywords, context words and overlapping rows, on text whose markers they can
    read again: every way of reading later passes agrees, errors included."""
    assert same(Redactor(list(configured)), text)


@pytest.mark.parametrize("rescan", ["near", "auto", "whole"])
def test_a_later_pass_finds_what_replacing_exposed(rescan: str) -> None:
    """Digits read as part of a card number are a phone number once the card is masked:
    the second pass finds them, however it reads the text."""
    line = "phone 030 1234567 4111 1111 1111 1111"
    text = "plain words\n" * 40 + line + "\n" + "plain words\n" * 40
    done = default().apply(text, pseudonym, rescan=rescan)  # type: ignore[arg-type]
    assert "\nphone [REDACTED:phone] [MASKED:card_number:1111]\n" in done.text
    assert [f.rule for f in done.findings] == ["card_number", "phone"]
