"""A review of the vault on PostgreSQL: each test shows one defect found (and fixed).

Each test has a fresh database of the session's throwaway cluster (``pg_dsn``). The
tampering tests change rows with psycopg directly, as someone with the database's
credentials but not the master key could; the concurrency tests interleave a second
vault (another worker) at the point where the first one's reads could tear.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from memvault import IntegrityError, StorageError, Vault
from memvault.audit import DbAuditLog, chain_of, label, read_checkpoint
from memvault.memory import _binding
from memvault.store import PgStore, chain_range

pytestmark = pytest.mark.sqlite_only("a vault on PostgreSQL, on a database of its own")


def _migrate(dsn: str, chains: int | None = None) -> None:
    store = PgStore(dsn)
    try:
        store.migrate_schema(chains)
    finally:
        store.close()


@pytest.fixture
def db(pg_dsn: str) -> str:
    """A migrated database, with 4 chains."""
    _migrate(pg_dsn, 4)
    return pg_dsn


@pytest.fixture
def pg_vault(db: str) -> Iterator[Vault]:
    with Vault.open(db) as vault:
        yield vault


def _rows(dsn: str, sql: str, args: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    with psycopg.connect(dsn, autocommit=True) as conn:
        cur = conn.execute(sql, args)
        return cur.fetchall() if cur.description else []


def _chain_lines(dsn: str, chain: int) -> list[tuple[int, bytes]]:
    low, high = chain_range(chain)
    rows = _rows(
        dsn, "SELECT seq, line FROM audit_log WHERE seq > %s AND seq < %s ORDER BY seq", (low, high)
    )
    return [(int(seq), bytes(line)) for seq, line in rows]  # type: ignore[call-overload]


def _user_in(vault: Vault, chains: int, wanted: set[int], prefix: str = "u") -> str:
    """A user id whose records go to one of the ``wanted`` chains."""
    for n in range(10_000):
        name = f"{prefix}{n}"
        if chain_of(vault.audit.keys.user(name), chains) in wanted:
            return name
    raise AssertionError("no such user")


def _create(vault: Vault, user: str, path: str = "/memories/a.md", text: str = "x") -> None:
    reply = vault.runner(user).run({"command": "create", "path": path, "file_text": text})
    assert not reply.is_error, reply.content


# -- torn reads: audit verify while the fleet writes ------------------------------------


def test_a_write_while_the_store_is_verified_is_not_reported_as_damage(
    pg_vault: Vault, db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The binding check reads the log's changes and ledgers in one snapshot, then each
    user's memories in later transactions of their own: a file another worker writes in
    between is newer than the ledger read, and is reported as a rolled-back ledger."""
    _create(pg_vault, "alice")
    real = _binding.held_nodes

    def interleaved(*args, **kwargs):  # type: ignore[no-untyped-def]
        with Vault.open(db) as worker:  # another worker, writing as the fleet does
            _create(worker, "alice", "/memories/b.md", "y")
        return real(*args, **kwargs)

    monkeypatch.setattr(_binding, "held_nodes", interleaved)
    assert [str(p) for p in pg_vault.verify_store()] == []


def test_a_user_created_while_the_store_is_verified_is_not_reported_missing(
    pg_vault: Vault, db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The users (and their audit keys) are read in a transaction before the binding
    check's: a user another worker creates in between is in the log and the store, but
    not among the users checked, and is reported as deleted outside memvault."""
    _create(pg_vault, "alice")
    real = DbAuditLog.bound

    def interleaved(self: DbAuditLog):  # type: ignore[no-untyped-def]
        with Vault.open(db) as worker:  # after the users were read, before the snapshot
            _create(worker, "bob")
        return real(self)

    monkeypatch.setattr(DbAuditLog, "bound", interleaved)
    assert [str(p) for p in pg_vault.verify_store()] == []
