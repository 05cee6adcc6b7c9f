"""`memvault expire` transcripts: stdout, stderr and exit code, for a run, a dry run, JSON,
and every way of getting the options wrong."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from memvault import Vault, memory
from memvault.cli import main
from tests.unit.lifecycle.helpers import DAY, Clock, create, db, run

USAGE_HINT = "memvault: hint: run 'memvault --help' for usage\n"


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    clock = Clock(DAY)
    monkeypatch.setattr(memory.touch, "today", clock)
    return clock


def _cli(home: Path, *argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["--home", str(home), *argv], out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def _session(home: Path, clock: Clock) -> None:
    """alice: an old file in a directory of its own, a fresh one, a file without a day;
    bob: an old file."""
    with Vault.open(home) as vault:
        run(vault, create("/memories/legacy.md"))
        run(vault, create("/memories/projects/old/plan.md"), create("/memories/fresh.md"))
        run(vault, create("/memories/b.md"), user="bob")
    with db(home) as conn:
        conn.execute("UPDATE nodes SET touched = NULL WHERE id = (SELECT min(id) FROM nodes)")
    clock.day = DAY + 30
    with Vault.open(home) as vault:
        run(vault, {"command": "view", "path": "/memories/fresh.md"})
    clock.day = DAY + 120


@pytest.mark.sqlite_only("reads or changes the home's audit log files")
def test_expire_prints_a_line_per_memory_under_its_user(home: Path, clock: Clock) -> None:
    """Each expired file with its idle days, each directory removed, each file stamped, then
    the totals."""
    _session(home, clock)
    assert _cli(home, "expire", "--older-than", "90d") == (
        0,
        "alice:\n"
        "  expired /memories/projects/old/plan.md  (idle 120 days)\n"
        "  removed /memories/projects/  (left empty)\n"
        "  removed /memories/projects/old/  (left empty)\n"
        "  stamped /memories/legacy.md  (no last-used day on record: counted from today)\n"
        "bob:\n"
        "  expired /memories/b.md  (idle 120 days)\n"
        "2 memories expired, 2 directories removed, 1 stamped, 1 kept "
        "(retention 90 days, 2 users)\n",
        "",
    )
    assert _cli(home, "expire", "--older-than", "13w") == (
        0,
        "0 memories expired, 0 directories removed, 0 stamped, 2 kept "
        "(retention 91 days, 2 users)\n",
        "",
    )
    assert _cli(home, "audit", "verify")[0] == 0


@pytest.mark.sqlite_only("works on the home directory's files")
def test_a_dry_run_says_what_would_happen(home: Path, clock: Clock) -> None:
    """--dry-run: the same lines in the conditional, and that nothing was changed."""
    _session(home, clock)
    expected = (
        "alice:\n"
        "  would expire /memories/projects/old/plan.md  (idle 120 days)\n"
        "  would remove /memories/projects/  (left empty)\n"
        "  would remove /memories/projects/old/  (left empty)\n"
        "  would stamp /memories/legacy.md  (no last-used day on record: a run without "
        "--dry-run sets today)\n"
        "1 memory would expire, 2 directories would be removed, 1 would be stamped, 1 kept "
        "(retention 90 days, 1 user); dry run: nothing was changed\n"
    )
    assert _cli(home, "expire", "--older-than", "90d", "--user", "alice", "--dry-run") == (
        0,
        expected,
        "",
    )
    assert _cli(home, "expire", "--older-than", "90d", "--user", "alice", "--dry-run")[1] == (
        expected
    )


@pytest.mark.sqlite_only("works on the home directory's files")
def test_expire_json(home: Path, clock: Clock) -> None:
    """--json: one object with the period, the day, and a list per kind of outcome."""
    _session(home, clock)
    code, out, err = _cli(home, "expire", "--older-than", "90d", "--json")
    assert (code, err) == (0, "")
    assert json.loads(out) == {
        "dry_run": False,
        "period_days": 90,
        "today": "2025-02-01",
        "users": 2,
        "expired": [
            {
                "user": "alice",
                "path": "/memories/projects/old/plan.md",
                "last_used": "2024-10-04",
                "idle_days": 120,
            },
            {"user": "bob", "path": "/memories/b.md", "last_used": "2024-10-04", "idle_days": 120},
        ],
        "directories": [
            {"user": "alice", "path": "/memories/projects"},
            {"user": "alice", "path": "/memories/projects/old"},
        ],
        "stamped": [{"user": "alice", "path": "/memories/legacy.md"}],
        "kept": 1,
    }


@pytest.mark.sqlite_only("works on the home directory's files")
def test_the_policy_period_applies_without_older_than(
    home: Path, tmp_path: Path, clock: Clock
) -> None:
    """`memvault --policy P expire` takes the period from P's [retention] table."""
    policy = tmp_path / "p.toml"
    policy.write_text("version = 1\n[retention]\nmax_idle_days = 100\n", encoding="utf-8")
    _session(home, clock)
    code, out, err = _cli(home, "--policy", str(policy), "expire", "--dry-run")
    assert (code, err) == (0, "")
    assert out.endswith("(retention 100 days, 2 users); dry run: nothing was changed\n")


@pytest.mark.sqlite_only("works on the home directory's files")
@pytest.mark.parametrize(
    ("argv", "message", "hint"),
    [
        (
            ["expire"],
            "no retention period: none was given and the redaction policy sets none",
            "give one (`memvault expire --older-than 90d`), or set max_idle_days in a "
            "[retention] table of the redaction policy",
        ),
        (
            ["expire", "--older-than", "6m"],
            "--older-than takes a number of days or weeks, such as 90d or 12w, not '6m'",
            "months and years differ in length: give them in days (six months: 183d)",
        ),
        (
            ["expire", "--older-than", "0d"],
            "a retention period is a whole number of days from 1 to 36500",
            None,
        ),
        (
            ["expire", "--older-than", "90d", "--user", "carol"],
            "the vault has no user 'carol'",
            "`memvault users list` shows the vault's users",
        ),
        (
            ["expire", "--older-than", "90d", "--user", "a\x1b[2Jb"],
            "a user id must not contain control or invisible characters",
            None,
        ),
    ],
)
def test_bad_options_exit_2_and_change_nothing(
    home: Path, clock: Clock, argv: list[str], message: str, hint: str | None
) -> None:
    """A usage error: one error line, its hint, exit 2, and no record of a run."""
    _session(home, clock)
    code, out, err = _cli(home, *argv)
    assert (code, out) == (2, "")
    assert err == f"memvault: error: {message}\n" + (f"memvault: hint: {hint}\n" if hint else "")
    with Vault.open(home) as vault:
        assert vault.expire(90, dry_run=True).kept == 1  # nothing was expired


@pytest.mark.sqlite_only("works on the home directory's files")
def test_unknown_options_are_usage_errors(home: Path) -> None:
    """An option expire does not have is a usage error, before the vault is opened."""
    code, out, err = _cli(home, "expire", "--older-than", "90d", "--force")
    assert (code, out) == (2, "")
    assert err == "memvault: error: unrecognized arguments: --force\n" + USAGE_HINT
    assert not home.exists()
