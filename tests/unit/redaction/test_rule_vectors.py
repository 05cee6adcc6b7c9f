"""Known-answer vectors for every built-in detector, kept as data in ``tests/vectors/rules/``.

Each file holds the vectors of one kind of data (``api_key.json``, ``phone.json``, ...),
sorted by rule. A positive vector ``{"rule", "text", "value"}`` shows what the rule is
for: the rule alone finds exactly ``value`` in ``text``, and the default policy redacts
every character of it. A negative vector ``{"rule", "text", "why"}`` is a near miss the
rule leaves alone (a wrong check digit, a missing label, a documented example key), and
``why`` says what makes it one.

To add a vector, put it in the file named for its rule's kind, then rewrite the file
sorted by rule with ``json.dumps(vectors, ensure_ascii=False, indent=2)`` and a final
newline (the order of a rule's own vectors is kept). Make random-looking secrets fresh,
never a credential anyone was issued, and give ``value`` once only in its ``text``. A new
detector needs one positive and one negative vector before this module passes.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import pytest

from memvault.redaction import BUILTIN, Configured, Redactor, load

VECTORS = Path(__file__).resolve().parents[2] / "vectors" / "rules"
FILES = sorted(VECTORS.glob("*.json"))


def _read(path: Path) -> list[dict[str, Any]]:
    vectors: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))
    return vectors


# (file, index in the file, vector), for every vector of every file.
ALL = [(path, i, v) for path in FILES for i, v in enumerate(_read(path))]
POSITIVE = [entry for entry in ALL if "value" in entry[2]]
NEGATIVE = [entry for entry in ALL if "why" in entry[2]]


def _ids(entries: list[tuple[Path, int, dict[str, Any]]]) -> list[str]:
    return [f"{v.get('rule')}-{path.stem}-{i}" for path, i, v in entries]


@functools.cache
def alone(name: str) -> Redactor:
    """The filter with one rule, redacting: what that rule finds by itself."""
    rule = BUILTIN[name]
    return Redactor([Configured(rule, "redact", rule.keep)])


@functools.cache
def default_policy() -> Redactor:
    return load(None).redactor


def test_every_rule_has_vectors() -> None:
    """Every built-in rule has a positive and a negative vector; every vector names a rule."""
    assert FILES, f"no vector files in {VECTORS}"
    unknown = sorted({v["rule"] for _, _, v in ALL} - set(BUILTIN))
    assert not unknown, f"vectors name rules that do not exist: {', '.join(unknown)}"
    positive = {v["rule"] for _, _, v in POSITIVE}
    negative = {v["rule"] for _, _, v in NEGATIVE}
    missing = []
    for name in BUILTIN:
        lacks = [
            sort
            for sort, has in (("positive", positive), ("negative", negative))
            if name not in has
        ]
        if lacks:
            missing.append(f"{name} (no {' or '.join(lacks)})")
    assert not missing, "rules without vectors: " + "; ".join(missing)


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_vector_file_is_well_formed(path: Path) -> None:
    """A file holds its kind's vectors, sorted by rule and written one way, so diffs stay small."""
    vectors = _read(path)
    for i, v in enumerate(vectors):
        assert set(v) in ({"rule", "text", "value"}, {"rule", "text", "why"}), f"{path.name}[{i}]"
        rule = BUILTIN.get(v["rule"])
        assert rule is None or rule.kind == path.stem, (
            f"{path.name}[{i}]: {v['rule']} is a rule of kind {rule.kind}, "
            f"so its vectors belong in {rule.kind}.json"
        )
    canonical = sorted(vectors, key=lambda v: v["rule"])
    expected = json.dumps(canonical, ensure_ascii=False, indent=2) + "\n"
    assert path.read_text(encoding="utf-8") == expected, (
        f"{path.name} is not sorted by rule or not written with "
        "json.dumps(vectors, ensure_ascii=False, indent=2)"
    )


@pytest.mark.parametrize(("path", "index", "vector"), POSITIVE, ids=_ids(POSITIVE))
def test_rule_finds_its_value(path: Path, index: int, vector: dict[str, Any]) -> None:
    """The rule alone finds exactly the value, and the default policy redacts all of it."""
    name, text, value = vector["rule"], vector["text"], vector["value"]
    where = f"{path.name}[{index}] ({name})"
    assert text.count(value) == 1, f"{where}: the value must occur once in the text"
    start = text.index(value)
    end = start + len(value)

    spans = [(f.start, f.end) for f in alone(name).scan(text)]
    assert (start, end) in spans, (
        f"{where}: found {[text[s:e] for s, e in spans]!r}, expected {value!r}"
    )

    findings = default_policy().scan(text)
    left = [i for i in range(start, end) if not any(f.start <= i < f.end for f in findings)]
    assert not left, (
        f"{where}: the default policy leaves {text[left[0] : left[-1] + 1]!r} of {value!r}; "
        f"it found {[(f.rule, text[f.start : f.end]) for f in findings]!r}"
    )


@pytest.mark.parametrize(("path", "index", "vector"), NEGATIVE, ids=_ids(NEGATIVE))
def test_rule_keeps_its_look_alike(path: Path, index: int, vector: dict[str, Any]) -> None:
    """The rule alone finds nothing in a near miss."""
    name, text = vector["rule"], vector["text"]
    found = [text[f.start : f.end] for f in alone(name).scan(text)]
    assert not found, f"{path.name}[{index}] ({name}, {vector['why']}): found {found!r}"
