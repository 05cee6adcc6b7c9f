"""``memvault`` against a PostgreSQL vault: the schema commands, and the audit commands
on a log in chains (verify, checkpoint, show, stats, export)."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from memvault.cli import main
from memvault.store import describe_dsn


def _cli(*argv: str, stdin: bytes = b"") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdin=io.BytesIO(stdin), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def dsn(pg_dsn: str) -> Iterator[str]:
    code, out, err = _cli("--home", pg_dsn, "db", "migrate", "--chains", "4")
    where = describe_dsn(pg_dsn)
    assert (code, err) == (0, "")
    assert out == (
        f"{where}: schema created to version 2\n"
        "audit log: 4 chains of users' records, and the operator's\n"
    )
    yield pg_dsn


def test_db_status_and_a_second_migrate(pg_dsn: str) -> None:
    where = describe_dsn(pg_dsn)
    code, out, err = _cli("--home", pg_dsn, "db", "status")
    assert (code, out.splitlines()[0]) == (1, f"{where}: schema version 0 (this memvault's: 2)")
    assert err == "memvault: the schema needs attention: run `memvault db migrate`\n"
    assert _cli("--home", pg_dsn, "db", "migrate")[0] == 0
    code, out, _ = _cli("--home", pg_dsn, "db", "migrate")
    assert (code, out.splitlines()[0]) == (
        0,
        f"{where}: the schema is at version 2 already; nothing to do",
    )
    code, out, err = _cli("--home", pg_dsn, "db", "status")
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        f"{where}: schema version 2 (this memvault's: 2)",
        "audit log: 16 chains of users' records, and the operator's",
        "vault: not made yet (the first open makes it)",
    ]


def test_db_commands_need_a_database(tmp_path: Path) -> None:
    code, _, err = _cli("--home", str(tmp_path / "home"), "db", "migrate")
    assert code == 2
    assert err.startswith(
        f"memvault: error: `memvault db` works on a PostgreSQL database, and the home is a "
        f"directory ({tmp_path / 'home'})\n"
    )


def test_the_audit_commands_on_a_log_in_chains(dsn: str, tmp_path: Path) -> None:
    lines = (
        b'{"command": "create", "path": "/memories/a.md",'
        b' "file_text": "write to jane.doe@acme-corp.io"}\n'
        b'{"command": "view", "path": "/memories/a.md"}\n'
    )
    assert _cli("--home", dsn, "exec", "--user", "alice", stdin=lines)[0] == 0
    code, out, err = _cli("--home", dsn, "audit", "verify")
    assert (code, err) == (0, "")
    assert out.startswith(
        "audit log intact: 5 records in 5 chains (the operator's and 4 of users')\n"
    )
    checkpoint = tmp_path / "cp.json"
    assert _cli("--home", dsn, "audit", "checkpoint", "--out", str(checkpoint))[0] == 0
    assert json.loads(checkpoint.read_text())["format"] == "memvault-audit-checkpoint/2"
    code, out, _ = _cli("--home", dsn, "audit", "verify", "--checkpoint", str(checkpoint))
    assert code == 0 and "checkpoint: the log extends the checkpoint of " in out
    code, out, _ = _cli("--home", dsn, "audit", "show", "--json", "--user", "alice")
    shown = [json.loads(line) for line in out.splitlines()]
    assert [(r["command"], r["user"], r["paths"]) for r in shown] == [
        ("user.create", "alice", None),
        ("create", "alice", ["/memories/a.md"]),
        ("view", "alice", ["/memories/a.md"]),
    ]
    assert [r["place"] for r in shown] == [1, 2, 3] and len({r["chain"] for r in shown}) == 1
    assert shown[1]["findings"] == {"email": 1}
    code, out, _ = _cli("--home", dsn, "audit", "stats", "--json")
    assert code == 0 and json.loads(out)["records"] >= 5
    for fmt in ("jsonl", "ecs", "ocsf"):
        target = tmp_path / f"out.{fmt}"
        code, out, _ = _cli("--home", dsn, "audit", "export", "--format", fmt, "--out", str(target))
        assert code == 0 and out.endswith(f"records written to {target} ({fmt})\n")
        assert len(target.read_text().splitlines()) >= 5
    code, _, err = _cli("--home", dsn, "audit", "forward-secure", "--out", str(tmp_path / "k"))
    assert code == 2
    assert "forward security is for a log of files" in err
