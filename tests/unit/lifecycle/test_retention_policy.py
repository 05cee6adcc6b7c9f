"""The `[retention]` table of a redaction policy: `max_idle_days`, checked as strictly as
the rest of the policy (file, line and problem), shown by `memvault policy check`, and
the period `memvault expire` uses when it is given none."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from memvault.cli import main
from memvault.errors import PolicyError
from memvault.redaction import load

HINT = "memvault: hint: see policies/README.md for the policy format\n"

# (body after "version = 1", line, problem)
CASES = [
    ('retention = "90d"\n', 2, "[retention] must be a table"),
    ("[retention]\n", 2, "[retention] must set 'max_idle_days' (such as 90)"),
    (
        "[retention]\nmax_idle_days = 90\nmax_age = 3\n",
        4,
        "unknown setting 'max_age' in [retention] (use 'max_idle_days')",
    ),
    (
        '[retention]\nmax_idle_days = "90"\n',
        3,
        "'max_idle_days' must be a whole number of days from 1 to 36500",
    ),
    (
        "[retention]\nmax_idle_days = 90.0\n",
        3,
        "'max_idle_days' must be a whole number of days from 1 to 36500",
    ),
    (
        "[retention]\nmax_idle_days = true\n",
        3,
        "'max_idle_days' must be a whole number of days from 1 to 36500",
    ),
    (
        "[retention]\nmax_idle_days = 0\n",
        3,
        "'max_idle_days' must be a whole number of days from 1 to 36500",
    ),
    (
        "[retention]\nmax_idle_days = -7\n",
        3,
        "'max_idle_days' must be a whole number of days from 1 to 36500",
    ),
    (
        "[retention]\nmax_idle_days = 36501\n",
        3,
        "'max_idle_days' must be a whole number of days from 1 to 36500",
    ),
    (
        '[actions]\nsecret = "redact"\n\n[retention]\n# a comment\nmax_idle_days = 0\n',
        7,
        "'max_idle_days' must be a whole number of days from 1 to 36500",
    ),
]


def _policy(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "policy.toml"
    path.write_text("version = 1\n" + body, encoding="utf-8")
    return path


@pytest.mark.parametrize(("body", "line", "problem"), CASES)
def test_a_bad_retention_table_is_a_policy_error_with_its_line(
    tmp_path: Path, body: str, line: int, problem: str
) -> None:
    """Unknown keys, wrong types, a missing or non-positive period: file:line: problem."""
    path = _policy(tmp_path, body)
    with pytest.raises(PolicyError) as err:
        load(path)
    assert str(err.value) == f"{path}:{line}: {problem}"


@pytest.mark.parametrize(("body", "line", "problem"), CASES[:3])
def test_policy_check_reports_a_bad_retention_table_and_exits_1(
    tmp_path: Path, body: str, line: int, problem: str
) -> None:
    """`memvault policy check` prints the error and its hint, and exits 1."""
    path = _policy(tmp_path, body)
    out, err = io.StringIO(), io.StringIO()
    assert main(["policy", "check", str(path)], out=out, err=err) == 1
    assert (out.getvalue(), err.getvalue()) == (
        "",
        f"memvault: error: {path}:{line}: {problem}\n" + HINT,
    )


def test_the_period_is_read_and_shown_by_policy_check(tmp_path: Path) -> None:
    """`max_idle_days` is the policy's period, and `policy check` says what it does."""
    path = _policy(tmp_path, "[retention]\nmax_idle_days = 90\n")
    assert load(path).max_idle_days == 90
    out = io.StringIO()
    assert main(["policy", "check", str(path)], out=out, err=io.StringIO()) == 0
    assert "\nretention: memories unused for more than 90 days expire\n" in out.getvalue()


def test_a_policy_without_the_table_sets_no_period(tmp_path: Path) -> None:
    """The built-in default sets none, and `policy check` says how to set one."""
    assert load("default").max_idle_days is None
    out = io.StringIO()
    assert main(["policy", "check", "default"], out=out, err=io.StringIO()) == 0
    assert (
        "\nretention: none set ([retention] max_idle_days; `memvault expire` needs "
        "--older-than)\n" in out.getvalue()
    )
