"""Policies with a value of the wrong type or a bad pattern: each is a PolicyError naming the
file, the line and the problem, `memvault policy check` says so and exits 1, and nothing
else reaches stderr (RE2 reports a bad pattern by raising, never by its own log line)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from memvault.errors import PolicyError
from memvault.redaction import VALIDATORS, load

HINT = "memvault: hint: see policies/README.md for the policy format\n"
ACTIONS = "'redact', 'mask', 'pseudonymize', 'block', 'off'"
NAMES = ", ".join(sorted(VALIDATORS))

# (body after "version = 1", line, problem)
CASES = [
    ('allowlist = "x"\n', 2, "[allowlist] must be a table"),
    ("allowlist = []\n", 2, "[allowlist] must be a table"),
    ("custom = 5\n", 2, "'custom' must be an array of tables ([[custom]] entries)"),
    ('[custom]\nname = "x"\n', 2, "'custom' must be an array of tables ([[custom]] entries)"),
    ("custom = [5]\n", 2, "each [[custom]] entry must be a table"),
    ("actions = 3\n", 2, "[actions] must be a table"),
    ("detectors = []\n", 2, "[detectors] must be a table"),
    ("name = 5\n", 2, "'name' must be a non-empty string"),
    (
        '[actions]\nsecret = ["redact"]\n',
        3,
        f"the action for 'secret' must be a string (use {ACTIONS})",
    ),
    ("[detectors]\nemail = 5\n", 3, "detector 'email': give an action string or a table"),
    (
        '[detectors]\nemail = { action = ["mask"] }\n',
        3,
        f"detector 'email': the action must be a string (use {ACTIONS})",
    ),
    (
        "[detectors]\nemail = { keep = 2.5 }\n",
        3,
        "detector 'email': 'keep' must be a whole number from 0 to 8",
    ),
    ('[allowlist]\nexact = "x"\n', 3, "'exact' must be a list of strings"),
    ("[allowlist]\npatterns = [1]\n", 3, "'patterns' must be a list of strings"),
    (
        '[allowlist]\npattern = ["x"]\n',
        3,
        "unknown setting 'pattern' in [allowlist] (use 'exact' or 'patterns')",
    ),
    (
        "[allowlist]\npatterns = ['(unclosed']\n",
        3,
        "pattern '(unclosed' is not valid RE2 syntax (missing ): (unclosed)",
    ),
    (
        '[[custom]]\nname = "emp"\npattern = "EMP-(\\\\d+"\n',
        2,
        "pattern 'EMP-(\\\\d+' is not valid RE2 syntax (missing ): EMP-(\\d+)",
    ),
    (
        'custom = [{ name = "emp", pattern = "(x" }]\n',
        2,
        "pattern '(x' is not valid RE2 syntax (missing ): (x)",
    ),
    (
        '[[custom]]\nname = "emp"\npattern = "x"\nvalidator = ["luhn"]\n',
        2,
        f"custom detector 'emp': 'validator' must be a string (use one of {NAMES})",
    ),
    (
        '[[custom]]\nname = "emp"\npattern = "x"\naction = 5\n',
        2,
        "custom detector 'emp': 'action' must be a string "
        "(use 'redact', 'mask', 'pseudonymize', 'block')",
    ),
    (
        '[[custom]]\nname = "emp"\npattern = "x"\naction = "off"\n',
        2,
        "custom detector 'emp': unknown action 'off' "
        "(use 'redact', 'mask', 'pseudonymize', 'block')",
    ),
    (
        '[[custom]]\nname = "emp"\npattern = "x"\ncategory = ["secret"]\n',
        2,
        "custom detector 'emp': 'category' must be 'secret' or 'personal'",
    ),
    (
        '[[custom]]\nname = "emp"\npattern = "x"\nkeywords = "emp"\n',
        2,
        "custom detector 'emp': 'keywords' must be a list of strings",
    ),
    (
        '[[custom]]\nname = "one"\npattern = "x"\n\n[[custom]]\nname = "two"\npattern = "(y"\n',
        6,
        "pattern '(y' is not valid RE2 syntax (missing ): (y)",
    ),
]


def _policy(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "policy.toml"
    path.write_text("version = 1\n" + body, encoding="utf-8")
    return path


@pytest.mark.parametrize(("body", "line", "problem"), CASES)
def test_wrong_types_are_policy_errors_with_line(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], body: str, line: int, problem: str
) -> None:
    """A value of the wrong type or a bad pattern is a PolicyError with file:line: problem,
    and nothing is written to stdout or stderr."""
    path = _policy(tmp_path, body)
    with pytest.raises(PolicyError) as err:
        load(path)
    assert str(err.value) == f"{path}:{line}: {problem}"
    assert capfd.readouterr() == ("", "")


@pytest.mark.parametrize(("body", "line", "problem"), CASES)
def test_policy_check_reports_wrong_types_and_exits_1(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], body: str, line: int, problem: str
) -> None:
    """`memvault policy check` prints the one error line and its hint, and exits 1."""
    from memvault.cli import main

    path = _policy(tmp_path, body)
    out, err = io.StringIO(), io.StringIO()
    assert main(["policy", "check", str(path)], out=out, err=err) == 1
    assert out.getvalue() == ""
    assert err.getvalue() == f"memvault: error: {path}:{line}: {problem}\n" + HINT
    assert capfd.readouterr() == ("", "")


def test_version_must_be_the_integer_one(tmp_path: Path) -> None:
    """`version = true` (which equals 1 in Python) and `version = 1.0` are refused."""
    for value in ("true", "1.0", '"1"'):
        path = tmp_path / "policy.toml"
        path.write_text(f"version = {value}\n", encoding="utf-8")
        with pytest.raises(PolicyError) as err:
            load(path)
        assert str(err.value) == (
            f"{path}:1: 'version' must be 1 (the policy format this memvault reads)"
        )
