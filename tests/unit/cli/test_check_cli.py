"""`memvault check`: the full pass over the store that opening a vault no longer makes,
and what opening reads instead."""

from __future__ import annotations

import contextlib
import io
import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from memvault import Vault
from memvault.audit import segments
from memvault.cli import main

TEXTS = {"/memories/a.md": "alpha\n", "/memories/notes/b.md": "beta beta\n"}


def _cli(home: Path, *argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["--home", str(home), *argv], out=out, err=err)
    return code, out.getvalue(), err.getvalue()


@contextlib.contextmanager
def _db(home: Path) -> Iterator[sqlite3.Connection]:
    with contextlib.closing(sqlite3.connect(home / "vault.db")) as db:
        yield db
        db.commit()


def _records(home: Path) -> list[dict[str, object]]:
    return [
        json.loads(line)
        for _, path in segments(home / "audit")
        for line in path.read_bytes().splitlines()
    ]


def _seed(home: Path) -> None:
    with Vault.open(home) as vault:
        for user in ("alice", "bob"):
            runner = vault.runner(user)
            for path, text in TEXTS.items():
                runner.run({"command": "create", "path": path, "file_text": text})


@pytest.mark.sqlite_only("works on the home directory's files")
def test_an_intact_vault_checks_clean_and_the_run_is_recorded(home: Path) -> None:
    _seed(home)
    code, out, err = _cli(home, "check")
    assert (code, err) == (0, "")
    assert out.startswith(
        "vault check: intact: 2 users, 6 memories (2 directories, 4 files, 0.0 MB); every "
        "page and index; in "
    )
    code, out, _ = _cli(home, "check", "--json")
    doc = json.loads(out)
    assert code == 0 and doc.pop("seconds") >= 0
    assert doc == {
        "intact": True,
        "users": 2,
        "directories": 2,
        "files": 4,
        "bytes": 2 * sum(len(t) for t in TEXTS.values()),
        "problems": [],
    }
    checks = [r for r in _records(home) if r["command"] == "vault.check"]
    assert len(checks) == 2
    assert checks[-1]["details"] == {
        "intact": True,
        "users": 2,
        "directories": 2,
        "files": 4,
        "bytes": 32,
        "problems": 0,
    }


@pytest.mark.sqlite_only("reads or changes the store's rows with SQLite")
def test_a_row_deleted_outside_memvault_is_named(home: Path) -> None:
    """The open does not count rows; the check does, and compares every tally."""
    _seed(home)
    with _db(home) as db:
        db.execute("PRAGMA foreign_keys = ON")
        db.execute("DELETE FROM nodes WHERE id = (SELECT max(id) FROM nodes)")
    code, out, err = _cli(home, "check")
    assert code == 1
    lines = out.splitlines()
    assert lines[0] == (
        "vault check: DAMAGED: 4 problem(s) in 2 users, 5 memories (2 directories, 3 files, 0.0 MB)"
    )
    assert lines[1] == (
        "  ledger: the store holds 5 memories (files and directories), but its ledger counts "
        "6: memories were deleted or re-inserted outside memvault"
    )
    damaged = "  user 'bob': stored data failed its integrity check (modified, moved or corrupted)"
    assert lines[2] == f"{damaged}: node 0, the bytes below it are not what its tally records"
    assert lines[3].startswith(damaged) and lines[3].endswith(
        "it holds 0 entries but its tally records 1 (rows were removed, hidden or added "
        "outside memvault)"
    )
    assert lines[4] == (
        f"{damaged}: node 0, it holds 1 files and 1 directories but its tally records 2 and 1 "
        "(rows were removed, hidden or added outside memvault)"
    )
    assert err == (
        "memvault: hint: restore the home from a backup; `memvault audit verify` names the "
        "records that changed what is damaged\n"
    )
    assert "beta" not in out and "notes" not in out


@pytest.mark.sqlite_only("reads or changes the store's rows with SQLite")
def test_a_damaged_index_is_found_by_sqlite_s_own_check(home: Path) -> None:
    """An index that no longer matches its table: the pages' check names it."""
    _seed(home)
    with _db(home) as db:
        # The index's entries stay ordered by user; its definition now says by parent.
        db.execute("PRAGMA writable_schema = ON")
        db.execute(
            "UPDATE sqlite_master SET sql = 'CREATE INDEX nodes_by_user ON nodes(parent_id)'"
            " WHERE name = 'nodes_by_user'"
        )
    code, out, _ = _cli(home, "check", "--json")
    doc = json.loads(out)
    assert code == 1 and not doc["intact"]
    assert any(problem.startswith("pages: ") for problem in doc["problems"]), doc


@pytest.mark.sqlite_only("reads or changes the store's rows with SQLite")
def test_opening_a_vault_reads_no_memory_rows(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What an open runs does not grow with the vault: no page check, no count, no read of
    the memories' rows (checked on the statements the store sends to SQLite)."""
    _seed(home)
    statements: list[str] = []
    connect = sqlite3.connect

    def traced(*args: object, **kwargs: object) -> sqlite3.Connection:
        db = connect(*args, **kwargs)  # type: ignore[arg-type]
        db.set_trace_callback(statements.append)
        return db

    monkeypatch.setattr(sqlite3, "connect", traced)
    with Vault.open(home):
        pass
    assert statements
    sql = "\n".join(statements).lower()
    assert "quick_check" not in sql and "integrity_check" not in sql
    assert "count(" not in sql
    assert "from nodes" not in sql and "from contents" not in sql
