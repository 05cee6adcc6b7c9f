"""Expiry: files unused for longer than the retention period are deleted, each in its own
recorded transaction, and the store stays bound to its log.

A file last used on day D is kept through day D + period and expires from D + period + 1.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from memvault import IntegrityError, UsageError, Vault, lifecycle
from memvault.audit import segments
from memvault.cli import main
from tests.support import stores
from tests.unit.lifecycle.helpers import DAY, Clock, create, db, run, view

LISTING = (
    "Here're the files and directories up to 2 levels deep in /memories, excluding hidden "
    "items and node_modules:\n"
)


def _records(home: Path) -> list[dict[str, Any]]:
    return stores.records(home)


def _listing(vault: Vault, user: str = "alice") -> str:
    (content,) = run(vault, view("/memories"), user=user)
    assert content.startswith(LISTING)
    return content[len(LISTING) :]


def _expired(report: lifecycle.Expiry) -> list[tuple[str, str, int]]:
    return [(e.user, e.path, e.idle_days) for e in report.expired]


@pytest.mark.parametrize(("later", "kept"), [(89, True), (90, True), (91, False)])
def test_a_file_expires_the_day_after_its_period(
    vault: Vault, clock: Clock, later: int, kept: bool
) -> None:
    """Written on day D with a period of 90 days: kept on D+89 and D+90, expired on D+91."""
    run(vault, create("/memories/a.md"))
    clock.day = DAY + later
    report = vault.expire(90)
    assert _expired(report) == ([] if kept else [("alice", "/memories/a.md", 91)])
    assert report.kept == (1 if kept else 0)
    assert _listing(vault) == ("5B\t/memories\n5B\t/memories/a.md" if kept else "0B\t/memories")


def test_a_view_starts_the_period_again(vault: Vault, clock: Clock) -> None:
    """Read on D+50, a file is kept through D+140 and expires on D+141."""
    run(vault, create("/memories/a.md"))
    clock.day = DAY + 50
    run(vault, view("/memories/a.md"))
    clock.day = DAY + 140
    assert _expired(vault.expire(90)) == []
    clock.day = DAY + 141
    assert _expired(vault.expire(90)) == [("alice", "/memories/a.md", 91)]


@pytest.mark.sqlite_only("reads the head of a log of files")
def test_a_dry_run_reports_the_same_and_changes_nothing(
    home: Path, vault: Vault, clock: Clock
) -> None:
    """--dry-run lists what would go (files and the directories they would leave empty) and
    deletes nothing; only its run record is added."""
    run(vault, create("/memories/p/q/old.md"), create("/memories/p/keep.md", "x"))
    clock.day = DAY + 60
    run(vault, view("/memories/p/keep.md"))
    clock.day = DAY + 100
    before = _listing(vault)
    seq = vault.audit.head()[0]
    dry = vault.expire(90, dry_run=True)
    assert _listing(vault) == before
    records = _records(home)[seq:]
    assert [r["command"] for r in records] == ["retention.expire", "view"]
    assert records[0]["details"] == {
        "period_days": 90,
        "source": "option",
        "dry_run": True,
        "users": 1,
        "expired": 1,
        "directories": 1,
        "stamped": 0,
        "kept": 1,
    }
    real = vault.expire(90)
    assert (dry.dry_run, real.dry_run) == (True, False)
    assert dry.to_json() | {"dry_run": False} == real.to_json()
    assert [(d.user, d.path) for d in real.directories] == [("alice", "/memories/p/q")]


def test_a_file_without_a_day_is_stamped_not_deleted(
    home: Path, vault: Vault, clock: Clock
) -> None:
    """A file written before days were kept (touched NULL) is not expired on first sight:
    the run stamps today on it and says so; it expires a period later if still unused."""
    run(vault, create("/memories/legacy.md"), create("/memories/new.md"))
    with db(home) as conn:
        conn.execute(
            "UPDATE nodes SET touched = NULL WHERE id = (SELECT min(node_id) FROM contents)"
        )
    clock.day = DAY + 500
    dry = vault.expire(90, dry_run=True)
    assert [(s.user, s.path) for s in dry.stamped] == [("alice", "/memories/legacy.md")]
    assert clock.last_used(vault)["/memories/legacy.md"] is None  # a dry run stamps nothing
    report = vault.expire(90)
    assert _expired(report) == [("alice", "/memories/new.md", 500)]
    assert [(s.user, s.path) for s in report.stamped] == [("alice", "/memories/legacy.md")]
    assert clock.last_used(vault) == {"/memories/legacy.md": DAY + 500}
    clock.day = DAY + 590
    assert (_expired(vault.expire(90)), vault.expire(90).stamped) == ([], [])
    clock.day = DAY + 591
    assert _expired(vault.expire(90)) == [("alice", "/memories/legacy.md", 91)]
    assert vault.verify_store() == []


@pytest.mark.sqlite_only("reads the home's audit log files")
def test_each_expiry_is_recorded_like_a_delete(home: Path, vault: Vault, clock: Clock) -> None:
    """One `memory.expire` record per file, by the user's pseudonym, with its sealed path and
    the digest of the text removed (what its create stored), then one `retention.expire`
    record; the store verifies against the log, and `audit verify` exits 0."""
    run(vault, create("/memories/a.md", "alpha"), create("/memories/d/b.md", "beta"))
    run(vault, create("/memories/c.md"), user="bob")
    created = {r["after"]: r for r in _records(home) if r["command"] == "create"}
    seq = vault.audit.head()[0]
    clock.day = DAY + 91
    report = vault.expire(90)
    assert _expired(report) == [
        ("alice", "/memories/a.md", 91),
        ("alice", "/memories/d/b.md", 91),
        ("bob", "/memories/c.md", 91),
    ]
    records = _records(home)[seq:]
    assert [r["command"] for r in records] == ["memory.expire"] * 3 + ["retention.expire"]
    for record in records[:3]:
        assert record["txn"] is True and record["outcome"] == "ok"
        assert created[record["before"]]["user"] == record["user"]
        assert record["after"] is None and record["paths"] is not None
    assert [r["details"] for r in records[:3]] == [
        {"idle_days": 91, "directories": 0},
        {"idle_days": 91, "directories": 1},
        {"idle_days": 91, "directories": 0},
    ]
    assert records[3]["user"] is None
    assert records[3]["details"]["expired"] == 3
    assert b"alpha" not in b"".join(p.read_bytes() for _, p in segments(home / "audit"))
    assert vault.verify_store() == []
    vault.close()
    out = io.StringIO()
    argv = ["--home", str(home), "audit", "show", "--json", "--command", "memory.expire"]
    assert main(argv, out=out, err=io.StringIO()) == 0
    shown = [(r["user"], r["paths"]) for r in map(json.loads, out.getvalue().splitlines())]
    assert shown == [
        ("alice", ["/memories/a.md"]),
        ("alice", ["/memories/d/b.md"]),
        ("bob", ["/memories/c.md"]),
    ]
    assert main(["--home", str(home), "audit", "verify"], out=io.StringIO()) == 0


def test_directories_left_empty_go_with_the_file(vault: Vault, clock: Clock) -> None:
    """An expiry removes the directories it leaves empty, up to /memories; a directory with
    something else in it stays, and so does one that was empty before."""
    run(
        vault,
        create("/memories/p/q/old.md"),
        create("/memories/r/s/old.md"),
        create("/memories/e/x.md"),
        {"command": "delete", "path": "/memories/e/x.md"},
    )
    clock.day = DAY + 50
    run(vault, create("/memories/p/keep.md", "kept"))
    clock.day = DAY + 91
    report = vault.expire(90)
    assert [d.path for d in report.directories] == ["/memories/p/q", "/memories/r", "/memories/r/s"]
    assert (
        _listing(vault)
        == "4B\t/memories\n0B\t/memories/e/\n4B\t/memories/p/\n4B\t/memories/p/keep.md"
    )
    assert vault.verify_store() == []


def test_one_user_only(home: Path, vault: Vault, clock: Clock) -> None:
    """`user=` expires that user's files only; the run record names them by pseudonym."""
    run(vault, create("/memories/a.md"))
    run(vault, create("/memories/b.md"), user="bob")
    clock.day = DAY + 91
    report = vault.expire(90, user="bob")
    assert (_expired(report), report.users) == ([("bob", "/memories/b.md", 91)], 1)
    records = _records(home)
    assert records[-1]["command"] == "retention.expire"
    assert records[-1]["user"] == records[-2]["user"] == vault.audit.keys.user("bob")
    assert _listing(vault) == "5B\t/memories\n5B\t/memories/a.md"


def test_a_user_the_vault_does_not_have_is_a_usage_error(vault: Vault, clock: Clock) -> None:
    """Expiring for an unknown user refuses (and creates no user)."""
    with pytest.raises(UsageError) as err:
        vault.expire(90, user="carol")
    assert err.value.message == "the vault has no user 'carol'"
    assert vault.users() == []


def test_without_a_period_expire_refuses(vault: Vault) -> None:
    """No period given and none in the policy: a usage error that says how to set one."""
    with pytest.raises(UsageError) as err:
        vault.expire()
    assert err.value.message == (
        "no retention period: none was given and the redaction policy sets none"
    )
    assert err.value.hint == (
        "give one (`memvault expire --older-than 90d`), or set max_idle_days in a [retention] "
        "table of the redaction policy"
    )


def test_the_policy_gives_the_period(home: Path, tmp_path: Path, clock: Clock) -> None:
    """Without a period, the policy's `[retention] max_idle_days` is used, and recorded as
    such; a period given wins."""
    policy = tmp_path / "keep30.toml"
    policy.write_text("version = 1\n[retention]\nmax_idle_days = 30\n", encoding="utf-8")
    with Vault.open(home, policy=policy) as vault:
        assert vault.retention_days == 30
        run(vault, create("/memories/a.md"), create("/memories/b.md"))
        clock.day = DAY + 31
        run(vault, view("/memories/b.md"))
        assert vault.expire(60).expired == []
        report = vault.expire()
        assert (report.period_days, _expired(report)) == (30, [("alice", "/memories/a.md", 31)])
    details = [r["details"] for r in _records(home) if r["command"] == "retention.expire"]
    assert [(d["period_days"], d["source"]) for d in details] == [(60, "option"), (30, "policy")]


@pytest.mark.parametrize(("text", "days"), [("90d", 90), ("12w", 84), ("1d", 1), ("36500d", 36500)])
def test_periods_in_days_and_weeks(text: str, days: int) -> None:
    """`--older-than` takes days (d) and weeks (w)."""
    assert lifecycle.parse_period(text) == days


@pytest.mark.parametrize("text", ["6m", "1y", "90", "d", "90 d", "-1d", "1.5w", "９0d"])
def test_other_periods_are_refused(text: str) -> None:
    """Months, years, bare numbers and anything else are refused, with a hint."""
    with pytest.raises(UsageError) as err:
        lifecycle.parse_period(text)
    assert err.value.message == (
        f"--older-than takes a number of days or weeks, such as 90d or 12w, not {text!r}"
    )
    assert err.value.hint == (
        "months and years differ in length: give them in days (six months: 183d)"
    )


@pytest.mark.parametrize("text", ["0d", "0w", "36501d", "5215w"])
def test_a_period_out_of_range_is_refused(text: str) -> None:
    """A period of no days, or of more than a hundred years, is refused."""
    with pytest.raises(UsageError) as err:
        lifecycle.parse_period(text)
    assert err.value.message == "a retention period is a whole number of days from 1 to 36500"


def test_a_damaged_day_stops_the_run_and_the_run_is_recorded(
    home: Path, vault: Vault, clock: Clock
) -> None:
    """A day that fails to open stops the run with an integrity error; the run's record says
    it failed, with what it had done."""
    run(vault, create("/memories/a.md"), create("/memories/b.md"))
    with db(home) as conn:  # every day's first byte made 0
        rows = conn.execute("SELECT id, touched FROM nodes WHERE touched IS NOT NULL").fetchall()
        for node_id, touched in rows:
            damaged = b"\x00" + bytes(touched)[1:]
            conn.execute("UPDATE nodes SET touched = ? WHERE id = ?", (damaged, node_id))
    clock.day = DAY + 91
    with pytest.raises(IntegrityError):
        vault.expire(90)
    record = _records(home)[-1]
    assert (record["command"], record["outcome"], record["error"]) == (
        "retention.expire",
        "failed",
        "integrity",
    )
    assert record["details"]["expired"] == 0
