"""The store bound to its audit log: rollbacks and deletions by someone without the key.

The attacker here can write anything in the home (the database, the log) but holds no
key. They can put back older genuine rows, genuine older lines, delete rows, drop
tables, and cut the log to match. Each scenario runs through the library and the CLI:
the vault refuses to open where a check at open can see the damage, and `memvault audit
verify` (which holds the keys) names it in every case; nothing is appended to the log
(no false `audit.not_applied`).
"""

from __future__ import annotations

import base64
import contextlib
import io
import json
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from memvault import IntegrityError, Vault
from memvault.cli import main
from memvault.memory import INTEGRITY_MESSAGE, Reply


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMVAULT_MASTER_KEY", base64.b64encode(os.urandom(32)).decode())


@contextlib.contextmanager
def db(home: Path) -> Iterator[sqlite3.Connection]:
    with contextlib.closing(sqlite3.connect(home / "vault.db")) as conn:
        yield conn
        conn.commit()


def run(home: Path, *commands: dict[str, object], user: str = "alice") -> None:
    with Vault.open(home) as vault:
        runner = vault.runner(user)
        for command in commands:
            reply = runner.run(command)
            assert not reply.is_error, reply.content


def create(path: str, text: str) -> dict[str, object]:
    return {"command": "create", "path": path, "file_text": text}


def replace(path: str, old: str, new: str) -> dict[str, object]:
    return {"command": "str_replace", "path": path, "old_str": old, "new_str": new}


def log_lines(home: Path) -> list[bytes]:
    return b"".join(p.read_bytes() for p in sorted((home / "audit").glob("audit-*.jsonl"))).split(
        b"\n"
    )[:-1]


def cut_log(home: Path, last: int) -> None:
    """Keep records 1..last (one segment in these tests)."""
    (segment,) = sorted((home / "audit").glob("audit-*.jsonl"))
    kept = [line for line in log_lines(home) if json.loads(line)["seq"] <= last]
    segment.write_bytes(b"".join(line + b"\n" for line in kept))


def verify(home: Path) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["--home", str(home), "audit", "verify"], out=out, err=err)
    return code, out.getvalue()


def anchor_rows(home: Path) -> list[tuple[int, bytes]]:
    with db(home) as conn:
        return conn.execute("SELECT seq, line FROM audit_pending ORDER BY seq").fetchall()


def snapshot_rows(home: Path, table: str) -> list[tuple[object, ...]]:
    with db(home) as conn:
        return conn.execute(f"SELECT * FROM {table}").fetchall()


def put_rows(home: Path, table: str, rows: list[tuple[object, ...]]) -> None:
    with db(home) as conn:
        conn.execute(f"DELETE FROM {table}")
        if rows:
            marks = ",".join("?" * len(rows[0]))
            conn.executemany(f"INSERT INTO {table} VALUES ({marks})", rows)


def test_anchor_rolled_back_with_the_log_cut_is_refused_and_named(tmp_path: Path) -> None:
    """The anchor put back to an older genuine line and the log cut to match: the
    ledger names a newer change, at open and in verify."""
    home = tmp_path / "home"
    run(home, create("/memories/a.md", "one"))
    old_anchor = anchor_rows(home)
    old_seq = old_anchor[-1][0]
    run(home, create("/memories/b.md", "two"), replace("/memories/a.md", "one", "uno"))
    put_rows(home, "audit_pending", old_anchor)
    cut_log(home, old_seq)
    before = log_lines(home)
    with pytest.raises(IntegrityError) as caught:
        Vault.open(home)
    assert "the store's ledger names record" in caught.value.message
    assert f"but its audit anchor is record {old_seq}: the anchor was rolled back" in (
        caught.value.message
    )
    code, out = verify(home)
    assert code == 1 and "the anchor was rolled back" in out
    assert log_lines(home) == before  # nothing appended: no false not_applied


def test_anchor_and_ledger_rolled_back_together_are_caught_by_verify(tmp_path: Path) -> None:
    """The anchor and the ledger both put back (counts unchanged, so opening cannot
    tell): every memory written since names a record past them, and verify says so."""
    home = tmp_path / "home"
    run(home, create("/memories/a.md", "one"))
    old_anchor = anchor_rows(home)
    old_meta = snapshot_rows(home, "meta")
    old_seq = old_anchor[-1][0]
    run(home, replace("/memories/a.md", "one", "uno"))
    put_rows(home, "audit_pending", old_anchor)
    put_rows(home, "meta", old_meta)
    cut_log(home, old_seq)
    code, out = verify(home)
    assert code == 1
    assert (
        f"after the store's ledger (record {old_seq}): the ledger or the anchor was rolled back"
        in out
    )


def test_a_removed_anchor_is_damage_at_open_and_in_verify(tmp_path: Path) -> None:
    """A store with users but no anchor is damaged: open refuses (it never appends a
    not_applied for a committed write), verify names it."""
    home = tmp_path / "home"
    run(home, create("/memories/a.md", "one"))
    with db(home) as conn:
        conn.execute("DELETE FROM audit_pending")
    before = log_lines(home)
    with pytest.raises(IntegrityError) as caught:
        Vault.open(home)
    assert caught.value.message == (
        "the store holds users or memories but no audit anchor: it was removed"
    )
    code, out = verify(home)
    assert code == 1 and "no audit anchor: it was removed" in out
    assert log_lines(home) == before
    assert b"not_applied" not in b"".join(before)


def test_anchor_put_back_alone_never_yields_a_false_not_applied(tmp_path: Path) -> None:
    """Only the anchor put back, the log left whole: the newest write record follows the
    anchor, but the ledger shows it committed, so it is refused, not called not_applied."""
    home = tmp_path / "home"
    run(home, create("/memories/a.md", "one"))
    old_anchor = anchor_rows(home)
    run(home, create("/memories/b.md", "two"))
    put_rows(home, "audit_pending", old_anchor)
    with pytest.raises(IntegrityError):
        Vault.open(home)
    assert b"not_applied" not in b"".join(log_lines(home))


def test_one_memory_restored_from_an_older_copy_is_named_by_verify(tmp_path: Path) -> None:
    """A file's rows (metadata and text) put back from an older copy: genuine, older, and
    the counts hold, so only the log can tell: verify names the record that changed it."""
    home = tmp_path / "home"
    run(home, create("/memories/a.md", "one"), create("/memories/b.md", "two"))
    nodes, contents = snapshot_rows(home, "nodes"), snapshot_rows(home, "contents")
    run(home, replace("/memories/a.md", "one", "uno"))
    assert verify(home)[0] == 0
    put_rows(home, "nodes", nodes)
    put_rows(home, "contents", contents)
    code, out = verify(home)
    assert code == 1
    assert "its rows were restored from an older copy, or put back after deletion" in out


def test_a_deleted_memory_put_back_is_refused_and_named(tmp_path: Path) -> None:
    """A deleted file's rows re-inserted: a listing of its directory is refused (it holds
    more entries than its tally), and verify names the ledger's count, the tally and the
    delete record that removed it."""
    home = tmp_path / "home"
    run(home, create("/memories/a.md", "one"), create("/memories/b.md", "two"))
    nodes, contents = snapshot_rows(home, "nodes"), snapshot_rows(home, "contents")
    run(home, {"command": "delete", "path": "/memories/b.md"})
    put_rows(home, "nodes", nodes)
    put_rows(home, "contents", contents)
    with Vault.open(home) as vault:
        reply = vault.runner("alice").run({"command": "view", "path": "/memories"})
        assert reply == Reply(INTEGRITY_MESSAGE, is_error=True)
    code, out = verify(home)
    assert code == 1 and "put back after deletion" in out
    assert (
        "the store holds 2 memories (files and directories), but its ledger counts 1: "
        "memories were deleted or re-inserted outside memvault"
    ) in out
    assert "node 0, it holds 2 entries but its tally records 1" in out


@pytest.mark.parametrize("table", ["nodes", "contents", "users", "data_keys", "audit_keys"])
def test_a_dropped_table_is_refused_at_open(tmp_path: Path, table: str) -> None:
    """A table dropped (the vault would recreate it empty): never a silently empty
    namespace; the open, or the first read of a memory, fails the integrity check."""
    home = tmp_path / "home"
    run(home, create("/memories/a.md", "one"))
    with db(home) as conn:
        conn.execute(f"DROP TABLE {table}")
    try:
        vault = Vault.open(home)
    except IntegrityError:
        return
    with vault:  # the rows the open cannot count fail when a memory is read
        reply = vault.runner("alice").run({"command": "view", "path": "/memories/a.md"})
        assert reply == Reply(INTEGRITY_MESSAGE, is_error=True)


def test_a_ledger_removed_from_a_vault_with_users_is_refused(tmp_path: Path) -> None:
    home = tmp_path / "home"
    run(home, create("/memories/a.md", "one"))
    with db(home) as conn:
        conn.execute("DELETE FROM meta WHERE key = 'ledger'")
    with pytest.raises(IntegrityError) as caught:
        Vault.open(home)
    assert "no ledger: it was removed" in caught.value.message
    assert verify(home)[0] == 1


def test_an_intact_vault_verifies_after_every_kind_of_write(tmp_path: Path) -> None:
    """The binding holds through every command that writes: verify stays intact."""
    home = tmp_path / "home"
    run(
        home,
        create("/memories/d/a.md", "one"),
        replace("/memories/d/a.md", "one", "uno"),
        {"command": "insert", "path": "/memories/d/a.md", "insert_line": 0, "insert_text": "x"},
        {"command": "rename", "old_path": "/memories/d", "new_path": "/memories/e"},
        {"command": "rename", "old_path": "/memories/e/a.md", "new_path": "/memories/f.md"},
        create("/memories/g/h/i.md", "deep"),
        {"command": "delete", "path": "/memories/g"},
    )
    run(home, create("/memories/b.md", "bob's"), user="bob")
    code, out = verify(home)
    assert (code, out.startswith("audit log intact")) == (0, True), out


def test_the_store_is_verified_in_one_snapshot_while_another_process_writes(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process (here a second vault on the same home) commits a write and makes
    a user just after verification has read the log's changes and the ledger: the store
    is read in the same snapshot, so it sees neither (read apart, the node would look
    newer than the ledger, "rolled back", and the new user deleted)."""
    with Vault.open(home) as checking, Vault.open(home) as other:
        run(home, create("/memories/a.md", "one"))
        audit = checking.audit
        read_bound = audit.bound

        def bound_then_others_write() -> object:
            found = read_bound()
            for user, command in (
                ("alice", replace("/memories/a.md", "one", "uno")),
                ("bob", create("/memories/b.md", "b")),
            ):
                assert not other.runner(user).run(command).is_error
            return found

        monkeypatch.setattr(audit, "bound", bound_then_others_write)
        assert checking.verify_store() == []
        monkeypatch.setattr(audit, "bound", read_bound)
        assert checking.verify_store() == []  # and now it sees them
    with Vault.open(home) as vault:
        assert vault.verify_store() == []
        assert sorted(vault.audit_users()[p][0] for p in vault.audit_users()) == ["alice", "bob"]
