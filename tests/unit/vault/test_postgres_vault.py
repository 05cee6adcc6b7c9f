"""A vault in a PostgreSQL database: opened by URI once migrated, its log in chains.

Each test has a fresh database of the session's throwaway cluster (``pg_dsn``). The
tampering tests change rows with psycopg directly, as someone with the database's
credentials but not the master key could, and check that opening the vault or
``audit verify`` names the damage.
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest

from memvault import IntegrityError, StorageError, UsageError, Vault
from memvault.audit import Scan, chain_of, label
from memvault.store import CHAIN_BITS, PgStore
from tests.support.pg_rows import chain_lines as _chain_lines
from tests.support.pg_rows import migrate as _migrate
from tests.support.pg_rows import rows as _rows


@pytest.fixture
def db(pg_dsn: str) -> str:
    """A migrated database, with 4 chains: users share chains sooner."""
    _migrate(pg_dsn, 4)
    return pg_dsn


@pytest.fixture
def pg_vault(db: str) -> Iterator[Vault]:
    with Vault.open(db) as vault:
        yield vault


def _write_some(vault: Vault) -> None:
    alice = vault.runner("alice")
    assert not alice.run(
        {"command": "create", "path": "/memories/a.md", "file_text": "one\ntwo\n"}
    ).is_error
    assert not alice.run(
        {"command": "str_replace", "path": "/memories/a.md", "old_str": "two", "new_str": "three"}
    ).is_error
    assert not alice.run({"command": "view", "path": "/memories/a.md"}).is_error


def test_an_unmigrated_database_is_refused_with_what_to_run(pg_dsn: str) -> None:
    with pytest.raises(StorageError) as caught:
        Vault.open(pg_dsn)
    assert caught.value.message == "the database holds no memvault schema: it was never migrated"
    assert caught.value.hint == (
        "run `memvault --home DSN db migrate` once, with a role that may create tables"
    )
    assert _rows(pg_dsn, "SELECT tablename FROM pg_tables WHERE schemaname = 'public'") == []


def test_a_database_of_schema_version_1_must_be_migrated_first(pg_dsn: str) -> None:
    """A database the store alone made (step 1, before the version was kept) is refused
    until `db migrate` adds the log's table; the migration keeps its rows."""
    _migrate(pg_dsn)
    _rows(pg_dsn, "DROP TABLE audit_log")
    _rows(pg_dsn, "DELETE FROM meta WHERE key IN ('pg_schema', 'audit_chains')")
    with pytest.raises(StorageError) as caught:
        Vault.open(pg_dsn)
    assert caught.value.message == (
        "the database's memvault schema is at version 1, and this memvault needs version 2"
    )
    store = PgStore(pg_dsn)
    try:
        done = store.migrate_schema(8)
        assert (done.before, done.after, done.chains) == (1, 2, 8)
        again = store.migrate_schema()
        assert (again.before, again.after, again.chains) == (2, 2, 8)
    finally:
        store.close()
    with Vault.open(pg_dsn) as vault:
        assert isinstance(vault.audit.chains, int) and vault.audit.chains == 8  # type: ignore[union-attr]


def test_a_newer_schema_is_refused_by_open_and_by_migrate(db: str) -> None:
    _rows(db, "UPDATE meta SET value = '3' WHERE key = 'pg_schema'")
    expected = (
        "the database's memvault schema is at version 3; this memvault reads versions up to 2"
    )
    with pytest.raises(StorageError) as caught:
        Vault.open(db)
    assert caught.value.message == expected
    store = PgStore(db)
    try:
        with pytest.raises(StorageError) as again:
            store.migrate_schema()
        assert again.value.message == expected
    finally:
        store.close()


def test_the_number_of_chains_is_fixed_when_the_log_is_made(db: str) -> None:
    store = PgStore(db)
    try:
        with pytest.raises(Exception) as caught:
            store.migrate_schema(16)
        assert str(caught.value).startswith("the audit log already has 4 chains")
    finally:
        store.close()


def test_commands_run_and_the_log_verifies_chain_by_chain(pg_vault: Vault, db: str) -> None:
    _write_some(pg_vault)
    bob = pg_vault.runner("bob")
    assert bob.run({"command": "create", "path": "/memories/x/y.md", "file_text": "b"}).content == (
        "File created successfully at: /memories/x/y.md"
    )
    assert bob.run(
        {"command": "rename", "old_path": "/memories/x", "new_path": "/memories/z"}
    ).content == ("Successfully renamed /memories/x to /memories/z")
    report = pg_vault.audit.examine()  # type: ignore[union-attr]
    assert report.intact, report.problems
    assert report.chains == 5
    assert pg_vault.verify_store() == []
    keys = pg_vault.audit.keys
    alice_chain = chain_of(keys.user("alice"), 4)
    lines = _chain_lines(db, alice_chain)
    alice = keys.user("alice")
    commands = [
        json.loads(line)["command"] for _, line in lines if json.loads(line)["user"] == alice
    ]
    assert commands == ["user.create", "create", "str_replace", "view"]
    assert [label(seq) for seq, _ in lines][-1] == f"{alice_chain}.{len(lines)}"
    operator = [json.loads(line)["command"] for _, line in _chain_lines(db, 0)]
    assert operator[:2] == ["vault.create", "policy.change"]


def test_nothing_readable_is_in_the_database(pg_vault: Vault, db: str) -> None:
    """User ids, paths and text reach the database only sealed or keyed."""
    runner = pg_vault.runner("carol-MARKERUSER")
    runner.run(
        {
            "command": "create",
            "path": "/memories/MARKERDIR/MARKERFILE.md",
            "file_text": "MARKERTEXT",
        }
    )
    runner.run({"command": "view", "path": "/memories/MARKERDIR/MARKERFILE.md"})
    dump = b""
    for table in (
        "meta",
        "users",
        "data_keys",
        "nodes",
        "contents",
        "audit_keys",
        "audit_log",
        "audit_pending",
    ):
        for row in _rows(db, f"SELECT * FROM {table}"):
            dump += repr(row).encode()
    for marker in (b"MARKERUSER", b"MARKERDIR", b"MARKERFILE", b"MARKERTEXT", b"carol"):
        assert marker not in dump
        assert marker.lower() not in dump.lower()


def test_a_record_removed_from_the_middle_of_a_chain_is_named(pg_vault: Vault, db: str) -> None:
    _write_some(pg_vault)
    chain = chain_of(pg_vault.audit.keys.user("alice"), 4)
    seq = _chain_lines(db, chain)[1][0]
    _rows(db, "DELETE FROM audit_log WHERE seq = %s", (seq,))
    report = pg_vault.audit.examine()  # type: ignore[union-attr]
    assert [str(p) for p in report.problems] == [
        f"chain {chain}, record {label(seq + 1)}: record {label(seq)} is missing (removed)"
    ]


def test_the_newest_record_removed_is_caught_at_open_and_by_verify(db: str) -> None:
    with Vault.open(db) as vault:
        _write_some(vault)
        chain = chain_of(vault.audit.keys.user("alice"), 4)
    newest = _chain_lines(db, chain)[-1][0]
    _rows(db, "DELETE FROM audit_log WHERE seq = %s", (newest,))
    with pytest.raises(IntegrityError) as caught:
        Vault.open(db)
    assert caught.value.message == (
        f"the audit log and the store disagree: audit chain {chain} ends at record "
        f"{label(newest - 1)}, but its ledger names record {label(newest)}: records were "
        "removed from its end"
    )
    with Vault._open(db, audit_problems=[]) as vault:
        report = vault.audit.examine()  # type: ignore[union-attr]
    assert [str(p) for p in report.problems] == [
        f"chain {chain}: it ends at record {label(newest - 1)}, but its ledger names record "
        f"{label(newest)}: the newest records were removed"
    ]


def test_a_changed_byte_fails_its_mac(pg_vault: Vault, db: str) -> None:
    _write_some(pg_vault)
    chain = chain_of(pg_vault.audit.keys.user("alice"), 4)
    seq, line = _chain_lines(db, chain)[1]
    forged = line.replace(b'"outcome":"ok"', b'"outcome":"no"')
    assert forged != line
    _rows(db, "UPDATE audit_log SET line = %s WHERE seq = %s", (forged, seq))
    report = pg_vault.audit.examine()  # type: ignore[union-attr]
    assert report.problems[0].reason == (
        "its MAC does not match: the record was modified or forged"
    )


def test_a_ledger_moved_to_another_chain_does_not_open(pg_vault: Vault, db: str) -> None:
    _write_some(pg_vault)
    chain = chain_of(pg_vault.audit.keys.user("alice"), 4)
    other = 0
    _rows(
        db,
        "UPDATE meta SET value = (SELECT value FROM meta WHERE key = %s) WHERE key = %s",
        (f"ledger.{chain}", f"ledger.{other}"),
    )
    report = pg_vault.audit.examine()  # type: ignore[union-attr]
    assert "chain 0: its ledger fails its integrity check" in [str(p) for p in report.problems]
    with pytest.raises(
        IntegrityError, match="the ledger of audit chain 0 fails its integrity check"
    ):
        pg_vault.record_operation("audit.test")


def test_a_checkpoint_catches_a_chain_cut_back_with_its_ledger(db: str, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Someone with the database's credentials cuts a chain back and puts back the ledger
    of that time: the log holds together; only the checkpoint shows it."""
    with Vault.open(db) as vault:
        vault.runner("alice").run({"command": "view", "path": "/memories"})
        chain = chain_of(vault.audit.keys.user("alice"), 4)
        old_ledger = _rows(db, "SELECT value FROM meta WHERE key = %s", (f"ledger.{chain}",))[0][0]
        vault.runner("alice").run({"command": "view", "path": "/memories"})
        checkpoint = vault.audit.checkpoint()
    newest = _chain_lines(db, chain)[-1][0]
    _rows(db, "DELETE FROM audit_log WHERE seq = %s", (newest,))
    _rows(db, "UPDATE meta SET value = %s WHERE key = %s", (old_ledger, f"ledger.{chain}"))
    with Vault._open(db, audit_problems=[]) as vault:
        assert vault.audit.examine().intact  # type: ignore[union-attr]
        report = vault.audit.examine(checkpoint)  # type: ignore[union-attr]
    assert [str(p) for p in report.problems] == [
        f"chain {chain}: it ends at record {label(newest - 1)}, but the checkpoint signed record "
        f"{label(newest)}: the chain was cut back after the checkpoint"
    ]


def test_record_numbers_name_their_chain(pg_vault: Vault) -> None:
    _write_some(pg_vault)
    entries = list(Scan(pg_vault))
    for entry in entries:
        assert entry.label == label(entry.seq)
        assert entry.seq >> CHAIN_BITS >= 1
        as_json = entry.to_json()
        assert (as_json["chain"], as_json["place"]) == tuple(int(p) for p in entry.label.split("."))
    assert [e.command for e in entries][:2] == ["vault.create", "policy.change"]


def test_workers_need_only_to_read_and_write_rows(db: str) -> None:
    """The README's worker role (SELECT, INSERT, UPDATE, DELETE, no DDL) runs the vault:
    commands, verification, the check, and an erasure (whose VACUUM it may not run on
    tables it does not own: the erasure still completes)."""
    role = f"memvault_w_{secrets.token_hex(6)}"
    password = secrets.token_hex(12)
    _rows(db, f"CREATE ROLE {role} LOGIN NOSUPERUSER PASSWORD '{password}'")
    _rows(db, f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {role}")
    worker_dsn = re.sub(r"//[^@/]*@", f"//{role}:{password}@", db, count=1)
    try:
        with Vault.open(worker_dsn) as vault:
            _write_some(vault)
            vault.runner("bob").run(
                {"command": "create", "path": "/memories/b.md", "file_text": "b"}
            )
            assert vault.audit.examine().intact  # type: ignore[union-attr]
            assert vault.verify_store() == []
            assert vault.check().problems == []
            vault.erase_user("bob")
            assert [u.user for u in vault.users()] == ["alice"]
        with pytest.raises(Exception, match="permission denied"):
            _rows(worker_dsn, "CREATE TABLE intruder (x int)")
    finally:
        _rows(db, f"DROP OWNED BY {role}")
        _rows(db, f"DROP ROLE {role}")


def test_a_connection_the_server_dropped_is_replaced_at_the_next_command(
    pg_vault: Vault, db: str
) -> None:
    """The pool does not ping connections; one the server terminated fails its BEGIN,
    and the command runs on a fresh connection."""
    runner = pg_vault.runner("alice")
    runner.run({"command": "create", "path": "/memories/a.md", "file_text": "a"})
    database = db.rsplit("/", 1)[1].split("?")[0]
    killed = _rows(
        db,
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
        " WHERE datname = %s AND pid <> pg_backend_pid()",
        (database,),
    )
    assert killed and all(row == (True,) for row in killed)
    reply = runner.run({"command": "view", "path": "/memories/a.md"})
    assert (reply.is_error, reply.content) == (
        False,
        "Here's the content of /memories/a.md with line numbers:\n     1\ta",
    )
    assert pg_vault.audit.examine().intact  # type: ignore[union-attr]


def test_chains_verified_by_several_processes_report_what_one_does(
    pg_vault: Vault, db: str
) -> None:
    """--jobs: forked walkers in one exported snapshot find the same records and the same
    damage as one process."""
    for user in ("alice", "bob", "carol", "dave", "erin"):
        pg_vault.runner(user).run({"command": "create", "path": "/memories/a.md", "file_text": "x"})
    one = pg_vault.audit.examine()  # type: ignore[union-attr]
    three = pg_vault.audit.examine(jobs=3)  # type: ignore[union-attr]
    assert (three.records, three.problems) == (one.records, []) and one.records > 10
    chain = chain_of(pg_vault.audit.keys.user("carol"), 4)
    seq = _chain_lines(db, chain)[0][0]
    _rows(db, "DELETE FROM audit_log WHERE seq = %s", (seq,))
    damaged = [str(p) for p in pg_vault.audit.examine(jobs=3).problems]  # type: ignore[union-attr]
    assert damaged == [str(p) for p in pg_vault.audit.examine().problems]  # type: ignore[union-attr]
    assert damaged[0] == (
        f"chain {chain}, record {label(seq + 1)}: record {label(seq)} is missing (removed)"
    )


def test_a_keyword_connection_string_is_refused_not_made_a_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(UsageError) as caught:
        Vault.open("host=127.0.0.1 dbname=memvault")
    assert caught.value.message.startswith(
        "the vault's location looks like a libpq connection string (key=value ...)"
    )
    assert list(tmp_path.iterdir()) == []
