"""Names found by a known given name alone: what they find in prose and what they keep."""

from __future__ import annotations

import pytest
import re2

from memvault.redaction import Configured, Redactor, load, rules
from memvault.redaction.checks import COMMON_WORDS, GIVEN_NAMES

RULES = rules.concept("names_given")

REDACTOR: Redactor = load().redactor
GIVEN_ONLY = Redactor([Configured(rule, "redact", 4) for rule in RULES])


def names(text: str) -> list[str]:
    """The text of every person-name finding, in order."""
    return [text[f.start : f.end] for f in REDACTOR.scan(text) if f.kind == "person_name"]


def given_rules(text: str) -> list[tuple[str, str]]:
    """(rule, value) of the findings these rules make, scanned on their own."""
    return [(f.rule, text[f.start : f.end]) for f in GIVEN_ONLY.scan(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Naledi Botha called again about the refund.", ["Naledi Botha"]),
        ("Yesterday Naledi Botha called twice.", ["Naledi Botha"]),
        ("## Naledi Botha\nCalled twice.", ["Naledi Botha"]),
        ("I spoke with Ahmad Faizal bin Yusof this morning.", ["Ahmad Faizal bin Yusof"]),
        ("Priya Sharma and Minh Nguyen joined late.", ["Priya Sharma", "Minh Nguyen"]),
        ("Anke Vogelsang hat das Protokoll geschickt.", ["Anke Vogelsang"]),
        ("Ce matin, Aurélie Fontanel a relancé le dossier.", ["Aurélie Fontanel"]),
        ("Hablé con Maria da Silva Santos sobre el envío.", ["Maria da Silva Santos"]),
        ("Ontvangen van Maarten van der Heijden gisteren.", ["Maarten van der Heijden"]),
        ("Ο Γιώργος Παπαδόπουλος έστειλε το αρχείο.", ["Γιώργος Παπαδόπουλος"]),
        ("Вчера Ольга Смирнова прислала отчёт.", ["Ольга Смирнова"]),
        ("Mehmet Yılmaz ile görüştüm.", ["Mehmet Yılmaz"]),
        ("Forwarded to Hassan al-Rashid and Sean O'Brien.", ["Hassan al-Rashid", "Sean O'Brien"]),
        ("Met Chiamaka Okonkwo-Eze at the desk.", ["Chiamaka Okonkwo-Eze"]),
        ("Ask Katarzyna Wiśniewska. She knows.", ["Katarzyna Wiśniewska"]),
        ("John F. Kennedy spoke first.", ["John F. Kennedy"]),
        ("Thanks to Siobhan McAllister's notes", ["Siobhan McAllister"]),
        ("Botha, Naledi\nMokoena, Thabo", ["Botha, Naledi", "Mokoena, Thabo"]),
        ("- Kowalczyk, Agnieszka (ward 4)", ["Kowalczyk, Agnieszka"]),
        ("Участники: Петров, Иван", ["Петров, Иван"]),
        ("**Anke Vogelsang** approved it", ["Anke Vogelsang"]),
    ],
)
def test_names_in_prose(text: str, expected: list[str]) -> None:
    """A known given name and a family-name word are a name, in any script or order."""
    assert names(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "We landed on Victoria Island after the storm.",
        "## The Grace Hopper Award Committee",
        "Grace Hopper Award",
        "The Jordan River runs south.",
        "Turn left on Mark Twain Street.",
        "Max Payne 3 ships next week.",
        "Nova Release notes for the cluster",
        "THE JOHN SMITH REPORT",
        "class JohnSmith extends AdamOptimizer {}",
        "Use Adam Optimizer with a warm-up.",
        "Write to john.smith@example.com today.",
        "Open docs/Anna Schmidt.txt in the editor.",
        "See https://example.com/people/Anna Schmidt",
        "Claude Code and Claude Sonnet were both tried.",
        "Anna Monday standup moved",
        "Quarterly Review Of Anna Schmidt Project",
        "## Meeting Notes With Anna Schmidt",
        "Hi, Anna",
        "Thomas Cook Group filed a report.",
        "Peter Pan 2 premieres soon.",
        "Will Power Tools stock rose.",
        "Jan 5 release",
        "Flights to Alice Springs and Ann Arbor were cancelled.",
        "font-family: Bitstream Vera Sans, sans-serif",
        "Địa chỉ: Quận Hoàn Kiếm, Hà Nội",
        "# Pascal Style Pragmas",
        "Hello, World",
        "Maria and Pedro went home.",
    ],
)
def test_look_alikes_stay(text: str) -> None:
    """Places, titles, products, identifiers, addresses and paths are not names."""
    assert given_rules(text) == []


def test_priority_below_context_rules() -> None:
    """Where a context rule finds the same name, its finding is kept."""
    text = "Patient: Naledi Botha"
    assert [f.rule for f in REDACTOR.scan(text) if f.kind == "person_name"] != ["person_name_given"]
    assert names(text) == ["Naledi Botha"]


def test_gazetteer_leaves_out_common_words() -> None:
    """Names that are everyday words or places are never cues."""
    assert not GIVEN_NAMES & COMMON_WORDS
    assert {"May", "Will", "Victoria", "Chase", "Mercedes"} <= COMMON_WORDS
    assert {"Naledi", "Γιώργος", "Ольга", "Priya", "Chiamaka"} <= GIVEN_NAMES


def test_patterns_compile_in_re2() -> None:
    """The given-name alternation compiles as one RE2 pattern within default memory."""
    for rule in RULES:
        assert re2.compile(rule.pattern).groups >= 1
        assert re2.compile(rule.cue)
