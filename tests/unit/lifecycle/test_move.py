"""``memvault migrate``: a vault moved between a home and a PostgreSQL database.

Each test runs on a fresh database of the session's cluster (``pg_dsn``), migrated
first. A move copies rows as stored: the memories read the same after it, the log
verifies (the home's files as the database's archive), the source refuses to open, and
a move killed part way resumes where it stopped.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import psycopg
import pytest

from memvault import ConfigurationError, IntegrityError, UsageError, Vault
from memvault.audit import Scan
from memvault.cli import main
from memvault.store import PgStore

# The source is a home and the target a database (and back): the home is a directory.
pytestmark = pytest.mark.sqlite_only("moves a vault between a home directory and a database")

NOTES = {
    "/memories/a.md": "alpha\nbeta\n",
    "/memories/deep/er/b.md": "bravo",
    "/memories/c.md": "charlie " * 50,
}


@pytest.fixture
def db(pg_dsn: str) -> str:
    store = PgStore(pg_dsn)
    try:
        store.migrate_schema(4)
    finally:
        store.close()
    return pg_dsn


def _fill(location: str | Path) -> None:
    with Vault.open(location) as vault:
        for user in ("alice", "bob"):
            runner = vault.runner(user)
            for path, text in NOTES.items():
                assert not runner.run(
                    {"command": "create", "path": path, "file_text": text}
                ).is_error
            runner.run({"command": "view", "path": "/memories"})
        vault.runner("alice").run(
            {
                "command": "str_replace",
                "path": "/memories/a.md",
                "old_str": "beta",
                "new_str": "gamma",
            }
        )


def _views(location: str | Path) -> dict[tuple[str, str], str]:
    """What each user's view of each note and of /memories answers."""
    out = {}
    with Vault.open(location) as vault:
        for user in ("alice", "bob"):
            runner = vault.runner(user)
            for path in (*NOTES, "/memories"):
                out[(user, path)] = runner.run({"command": "view", "path": path}).content
    return out


def _intact(location: str | Path) -> None:
    with Vault.open(location) as vault:
        report = vault.audit.examine()  # type: ignore[union-attr]
        assert report.problems == []
        assert vault.verify_store() == []
        assert vault.check().problems == []


def test_a_home_moves_into_a_database_and_back(home: Path, db: str, tmp_path: Path) -> None:
    _fill(home)
    before = _views(home)
    with Vault._open(home, moving=True) as vault:
        done = vault.move_to(db)
        vault_id = vault.vault_id
    assert (done.users, done.memories, done.data_keys, done.resumed) == (2, 10, 2, False)
    with pytest.raises(ConfigurationError) as caught:
        Vault.open(home)
    assert caught.value.message == f"this vault was moved to {done.target}; open it there"
    assert _views(db) == before
    _intact(db)
    with Vault.open(db) as vault:
        assert vault.vault_id == vault_id
        moved = [e for e in Scan(vault) if e.command == "vault.move"]
        assert [e.details["from"] for e in moved if "from" in (e.details or {})] == [str(home)]
    back = tmp_path / "back"
    with Vault._open(db, moving=True) as vault:
        assert vault.move_to(back).memories == 10
    assert _views(back) == before
    _intact(back)
    with Vault.open(back) as vault:
        vault.runner("carol").run({"command": "create", "path": "/memories/n.md", "file_text": "n"})
    _intact(back)


def test_the_archive_keeps_the_home_logs_records_byte_for_byte(home: Path, db: str) -> None:
    _fill(home)
    with Vault._open(home, moving=True) as vault:
        vault.move_to(db)
    lines = b"".join(p.read_bytes() for p in sorted((home / "audit").glob("audit-*.jsonl")))
    with psycopg.connect(db) as conn:
        rows = conn.execute("SELECT line FROM audit_log WHERE seq < %s ORDER BY seq", (1 << 40,))
        archived = b"".join(bytes(r[0]) + b"\n" for r in rows)
    # The home's log got one more record after the copy: that the move is done.
    assert lines.startswith(archived)
    assert lines[len(archived) :].count(b"\n") == 1
    assert b'"command":"vault.move"' in lines[len(archived) :]


def test_a_move_killed_part_way_resumes(home: Path, db: str, tmp_path: Path) -> None:
    _fill(home)
    before = _views(home)
    script = textwrap.dedent(
        f"""
        import importlib, os, signal
        from memvault import Vault
        importlib.import_module("memvault.lifecycle._move").BATCH = 2
        seen = []
        def progress(step, rows):
            seen.append(step)
            if len(seen) == 3:
                os.kill(os.getpid(), signal.SIGKILL)
        with Vault._open({str(home)!r}, moving=True) as vault:
            vault.move_to({db!r}, progress=progress)
        """
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    killed = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True)
    assert killed.returncode == -signal.SIGKILL, killed.stderr.decode()
    with pytest.raises(ConfigurationError, match="is being moved to"):
        Vault.open(home)
    with pytest.raises(IntegrityError, match="lacks its vault id"):
        Vault.open(db)  # a worker pointed at the half-copied target makes no new vault there
    with Vault._open(home, moving=True) as vault:
        done = vault.move_to(db)
    assert done.resumed is True
    assert (done.users, done.memories) == (2, 10)
    assert _views(db) == before
    _intact(db)


def test_a_target_that_holds_another_vault_is_refused(home: Path, db: str, tmp_path: Path) -> None:
    _fill(home)
    with Vault.open(db):
        pass
    with Vault._open(home, moving=True) as vault, pytest.raises(UsageError) as caught:
        vault.move_to(db)
    assert caught.value.message.startswith("the target holds another vault (")
    with Vault.open(home) as vault:  # nothing was marked: the vault stays where it is
        assert vault.runner("alice").run({"command": "view", "path": "/memories/a.md"}).content


def test_a_vault_that_does_not_verify_does_not_move(home: Path, db: str) -> None:
    _fill(home)
    segment = sorted((home / "audit").glob("audit-*.jsonl"))[0]
    segment.write_bytes(segment.read_bytes().replace(b'"outcome":"ok"', b'"outcome":"no"', 1))
    with (
        Vault._open(home, moving=True, audit_problems=[]) as vault,
        pytest.raises(IntegrityError) as caught,
    ):
        vault.move_to(db)
    assert caught.value.message.startswith("the vault fails verification, so it does not move: ")
    with psycopg.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM users").fetchone() == (0,)


def test_a_write_to_the_source_during_the_move_is_caught(home: Path, db: str) -> None:
    """A process that had the vault open before the move began writes during it: the
    copy no longer matches, the target is emptied, and a rerun (once it stopped) moves
    the vault whole."""
    _fill(home)
    straggler = Vault.open(home)
    try:

        def progress(step: str, rows: int) -> None:
            if step == "nodes":
                straggler.runner("alice").run(
                    {"command": "create", "path": "/memories/late.md", "file_text": "late"}
                )

        with Vault._open(home, moving=True) as vault, pytest.raises(UsageError) as caught:
            vault.move_to(db, progress=progress)
        assert caught.value.message == (
            "the vault changed while it was being moved: a process that had it open before "
            "the move began wrote to it; the target was emptied"
        )
    finally:
        straggler.close()
    with Vault._open(home, moving=True) as vault:
        assert vault.move_to(db).memories == 11
    _intact(db)


def test_the_cli_moves_a_vault_and_says_where_it_went(
    home: Path, db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    _fill(home)
    assert main(["migrate", "--from", str(home), "--to", db, "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert {k: printed[k] for k in ("users", "memories", "data_keys", "resumed")} == {
        "users": 2,
        "memories": 10,
        "data_keys": 2,
        "resumed": False,
    }
    assert main(["--home", str(home), "audit", "verify"]) == 1
    err = capsys.readouterr().err
    assert "this vault was moved to postgresql://" in err
