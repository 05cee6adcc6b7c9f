"""The embedded store on SQLite (WAL): every SQL statement of it lives here.

It implements :class:`~memvault.store._protocol.Store` and keeps its promises;
this module is also the one place where ``sqlite3`` errors become the vault's.

One command is one transaction: ``BEGIN IMMEDIATE`` for commands that write (so
concurrent writers queue on the lock instead of failing on upgrade), a deferred
``BEGIN`` for reads (a consistent snapshot while other processes write).
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from ..errors import IntegrityError, StorageError
from ._errors import DAMAGED_HINT as _DAMAGED_HINT
from ._errors import blob as _blob
from ._errors import integer as _int
from ._errors import storage_error as _storage_error
from ._errors import synced_mark as _synced
from ._protocol import Durability, NodeRow, SubtreeRow
from ._schema import READABLE_VERSIONS, SCHEMA, SCHEMA_VERSION
from ._wal import enter_wal, purge_wal

_BUSY_SECONDS = 30.0

# Bound on directory nesting the recursive queries follow: a tampered
# parent pointer must not send a query around a loop.
_MAX_DEPTH = 256


class SqliteStore:
    """A connection to one vault's SQLite database."""

    def __init__(self, path: Path, *, durability: Durability = "full") -> None:
        self.path = path
        self._deleted = False  # the open transaction deleted memories (see _purge_wal)
        try:
            # SQLite creates the -wal and -shm files with the database's mode.
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
            os.close(fd)
            self._db = sqlite3.connect(
                path, isolation_level=None, check_same_thread=False, timeout=_BUSY_SECONDS
            )
            self._db.execute(f"PRAGMA busy_timeout = {int(_BUSY_SECONDS * 1000)}")
            mode = enter_wal(self._db, _BUSY_SECONDS)
            if mode != "wal":
                raise StorageError(f"the vault database could not switch to WAL mode ({mode})")
            self._db.execute(f"PRAGMA synchronous = {'FULL' if durability == 'full' else 'NORMAL'}")
            self._db.execute("PRAGMA foreign_keys = ON")
            # Deleted ciphertexts and wrapped keys are overwritten, not just unlinked.
            self._db.execute("PRAGMA secure_delete = ON")
            # Sorts and temporary indices stay in memory: no temp files under the home.
            self._db.execute("PRAGMA temp_store = MEMORY")
        except OSError as exc:
            self._close_quietly()
            raise StorageError(f"cannot open the vault database {path}: {exc.strerror}") from None
        except sqlite3.Error as exc:
            self._close_quietly()
            raise _storage_error(exc, "opening the database") from None
        except StorageError:
            self._close_quietly()
            raise

    def _close_quietly(self) -> None:
        """An open that failed half way leaves no connection (nor its files) held."""
        db = getattr(self, "_db", None)
        if db is not None:
            with suppress(sqlite3.Error):
                db.close()

    def close(self) -> None:
        self._db.close()

    # -- transactions -------------------------------------------------------

    @contextmanager
    def transaction(self, *, write: bool, action: str = "running a command") -> Iterator[None]:
        """One command, applied whole or not at all."""
        try:
            self._db.execute("BEGIN IMMEDIATE" if write else "BEGIN")
        except sqlite3.Error as exc:
            raise _storage_error(exc, action) from None
        try:
            yield
        except BaseException:
            self._deleted = False
            with suppress(sqlite3.Error):
                self._db.execute("ROLLBACK")
            raise
        try:
            self._db.execute("COMMIT")
        except sqlite3.Error as exc:
            self._deleted = False
            with suppress(sqlite3.Error):
                self._db.execute("ROLLBACK")
            raise _storage_error(exc, action) from None
        if self._deleted:
            self._deleted = False
            purge_wal(self._db, _BUSY_SECONDS)

    @contextmanager
    def savepoint(self) -> Iterator[None]:
        """A nested step inside the current transaction, undone alone if it raises."""
        self._exec("SAVEPOINT step")
        try:
            yield
        except BaseException:
            with suppress(sqlite3.Error):
                self._db.execute("ROLLBACK TO step")
                self._db.execute("RELEASE step")
            raise
        self._exec("RELEASE step")

    def _exec(self, sql: str, args: tuple[object, ...] = ()) -> sqlite3.Cursor:
        """Run a statement that changes rows; sqlite3 errors become ours."""
        try:
            return self._db.execute(sql, args)
        except sqlite3.Error as exc:
            raise _storage_error(exc, "running a command") from None

    def _q(self, sql: str, args: tuple[object, ...] = ()) -> list[Any]:
        """All rows of a query. Fetching is inside the guard: a damaged page can
        surface on any row, not only the first."""
        try:
            return self._db.execute(sql, args).fetchall()
        except sqlite3.Error as exc:
            raise _storage_error(exc, "reading the vault") from None

    def _one(self, sql: str, args: tuple[object, ...] = ()) -> Any:
        rows = self._q(sql, args)
        return rows[0] if rows else None

    # -- schema and metadata ------------------------------------------------

    def initialize(self) -> int:
        """Create the schema if absent (inside the caller's write transaction); return the
        stored format version (an older one is upgraded by the vault, a newer one refused)."""
        for statement in SCHEMA.split(";"):
            if statement.strip():
                self._exec(statement)
        version = self.get_meta("schema")
        if version is None:
            self.set_meta("schema", str(SCHEMA_VERSION).encode())
            return SCHEMA_VERSION
        if not version.isdigit() or len(version) > 9:
            raise IntegrityError(
                "the vault database's schema version is damaged (modified outside memvault)",
                hint=_DAMAGED_HINT,
            )
        if version not in READABLE_VERSIONS:
            raise StorageError(
                f"the vault database has schema version {version.decode(errors='replace')}, "
                f"this memvault reads versions up to {SCHEMA_VERSION}",
                hint="upgrade memvault to open this vault",
            )
        return int(version)

    def mark_upgraded(self) -> None:
        """Record that the store is now of the current format."""
        self.set_meta("schema", str(SCHEMA_VERSION).encode())

    def counts(self) -> tuple[int, int, int]:
        """(users, nodes, audit keys): what the ledger's counts are checked against."""
        row = self._one(
            "SELECT (SELECT count(*) FROM users), (SELECT count(*) FROM nodes),"
            " (SELECT count(*) FROM audit_keys)"
        )
        return _int(row[0], "a count"), _int(row[1], "a count"), _int(row[2], "a count")

    def check_structure(self) -> None:
        """SQLite's own check of pages and indexes: damage is refused at open, not met later."""
        rows = self._q("PRAGMA quick_check")
        if [tuple(r) for r in rows] != [("ok",)]:
            raise IntegrityError(
                "the vault database is corrupted (its pages or indexes fail SQLite's check)",
                hint="restore the home from a backup; nothing was changed",
            )

    def is_empty(self) -> bool:
        """True if no user (and so no key and no memory) was ever stored."""
        return not self._q("SELECT 1 FROM users LIMIT 1") and not self._q(
            "SELECT 1 FROM nodes LIMIT 1"
        )

    def get_meta(self, key: str) -> bytes | None:
        row = self._one("SELECT value FROM meta WHERE key = ?", (key,))
        return None if row is None else _blob(row[0], "meta")

    def set_meta(self, key: str, value: bytes) -> None:
        self._exec("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))

    # -- users and their keys -----------------------------------------------

    def user_by_lookup(self, lookup: bytes) -> tuple[int, int] | None:
        row = self._one("SELECT id, primary_version FROM users WHERE lookup = ?", (lookup,))
        return None if row is None else (_int(row[0], "users"), _int(row[1], "users"))

    def user_primary_version(self, user_id: int) -> int | None:
        row = self._one("SELECT primary_version FROM users WHERE id = ?", (user_id,))
        return None if row is None else _int(row[0], "users.primary_version")

    def insert_user(self, lookup: bytes, name: bytes, primary_version: int) -> int:
        cur = self._exec(
            "INSERT INTO users (lookup, name, primary_version) VALUES (?, ?, ?)",
            (lookup, name, primary_version),
        )
        return int(cur.lastrowid or 0)

    def data_keys(self, user_id: int) -> list[tuple[int, bytes]]:
        rows = self._q(
            "SELECT version, wrapped FROM data_keys WHERE user_id = ? ORDER BY version", (user_id,)
        )
        return [(_int(r[0], "data_keys"), _blob(r[1], "data_keys")) for r in rows]

    def insert_data_key(self, user_id: int, version: int, wrapped: bytes) -> None:
        self._exec(
            "INSERT INTO data_keys (user_id, version, wrapped) VALUES (?, ?, ?)",
            (user_id, version, wrapped),
        )

    # -- the tree of one user's memories ------------------------------------

    def child(self, user_id: int, parent_id: int, lookup: bytes) -> NodeRow | None:
        row = self._one(
            "SELECT id, parent_id, fid, meta FROM nodes"
            " WHERE user_id = ? AND parent_id = ? AND lookup = ?",
            (user_id, parent_id, lookup),
        )
        return (
            None
            if row is None
            else NodeRow(
                _int(row[0], "nodes"),
                _int(row[1], "nodes"),
                _blob(row[2], "nodes"),
                _blob(row[3], "nodes"),
            )
        )

    def subtree(self, user_id: int, node_id: int, max_depth: int = _MAX_DEPTH) -> list[SubtreeRow]:
        """Every node below ``node_id``, parents before children, with its depth (1 = child)."""
        rows = self._q(
            "WITH RECURSIVE sub(id, parent_id, fid, meta, depth) AS ("
            "  SELECT id, parent_id, fid, meta, 1 FROM nodes WHERE user_id = ?1 AND parent_id = ?2"
            "  UNION ALL"
            "  SELECT n.id, n.parent_id, n.fid, n.meta, sub.depth + 1"
            "  FROM nodes AS n JOIN sub ON n.parent_id = sub.id"
            "  WHERE n.user_id = ?1 AND sub.depth < ?3"
            ") SELECT id, parent_id, fid, meta, depth FROM sub ORDER BY depth",
            (user_id, node_id, max_depth),
        )
        return [
            SubtreeRow(
                _int(r[0], "nodes"),
                _int(r[1], "nodes"),
                _blob(r[2], "nodes"),
                _blob(r[3], "nodes"),
                _int(r[4], "nodes"),
            )
            for r in rows
        ]

    def insert_node(
        self, user_id: int, parent_id: int, lookup: bytes, fid: bytes, meta: bytes, version: int
    ) -> int:
        cur = self._exec(
            "INSERT INTO nodes (user_id, parent_id, lookup, fid, meta, key_version)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (user_id, parent_id, lookup, fid, meta, version),
        )
        return int(cur.lastrowid or 0)

    def update_node(
        self, node_id: int, parent_id: int, lookup: bytes, meta: bytes, version: int
    ) -> None:
        self._exec(
            "UPDATE nodes SET parent_id = ?, lookup = ?, meta = ?, key_version = ? WHERE id = ?",
            (parent_id, lookup, meta, version, node_id),
        )

    def update_meta(self, node_id: int, meta: bytes, version: int) -> None:
        """New sealed metadata for a node that stays where it is (no index changes)."""
        self._exec(
            "UPDATE nodes SET meta = ?, key_version = ? WHERE id = ?", (meta, version, node_id)
        )

    def content(self, node_id: int) -> bytes | None:
        row = self._one("SELECT blob FROM contents WHERE node_id = ?", (node_id,))
        return None if row is None else _blob(row[0], "contents.blob")

    def insert_content(self, node_id: int, blob: bytes) -> None:
        self._exec("INSERT INTO contents (node_id, blob) VALUES (?, ?)", (node_id, blob))

    def replace_content(self, node_id: int, blob: bytes) -> None:
        """Overwrite a file's sealed text in place (secure_delete clears the old bytes)."""
        if (
            self._exec("UPDATE contents SET blob = ? WHERE node_id = ?", (blob, node_id)).rowcount
            != 1
        ):
            raise IntegrityError(
                f"the vault database has no text for file node {node_id} (its contents row "
                "was deleted outside memvault)",
                hint=_DAMAGED_HINT,
            )

    def delete_subtree(self, user_id: int, node_id: int) -> int:
        """Delete a node and everything below it (contents go with their nodes)."""
        self._exec(
            "WITH RECURSIVE sub(id, depth) AS ("
            "  SELECT id, 0 FROM nodes WHERE user_id = ?1 AND id = ?2"
            "  UNION ALL"
            "  SELECT n.id, sub.depth + 1 FROM nodes AS n JOIN sub ON n.parent_id = sub.id"
            "  WHERE n.user_id = ?1 AND sub.depth < ?3"
            ") DELETE FROM nodes WHERE id IN (SELECT id FROM sub)",
            (user_id, node_id, _MAX_DEPTH),
        )
        self._deleted = True
        # Not the cursor's rowcount: the module reports -1 for a statement that starts
        # with WITH.
        return _int(self._one("SELECT changes()")[0])

    # -- audit anchors ------------------------------------------------------

    def audit_key(self, user_id: int) -> bytes | None:
        row = self._one("SELECT wrapped FROM audit_keys WHERE user_id = ?", (user_id,))
        return None if row is None else _blob(row[0], "audit_keys.wrapped")

    def insert_audit_key(self, user_id: int, wrapped: bytes) -> None:
        self._exec("INSERT INTO audit_keys (user_id, wrapped) VALUES (?, ?)", (user_id, wrapped))

    def audit_keys(self) -> list[tuple[bytes, bytes, bytes]]:
        """(user look-up token, sealed user name, wrapped audit key) of every user."""
        rows = self._q(
            "SELECT u.lookup, u.name, a.wrapped FROM users AS u JOIN audit_keys AS a"
            " ON a.user_id = u.id"
        )
        return [
            (
                _blob(r[0], "users or audit_keys"),
                _blob(r[1], "users or audit_keys"),
                _blob(r[2], "users or audit_keys"),
            )
            for r in rows
        ]

    def users_without_audit_key(self) -> list[tuple[int, bytes]]:
        """(user id, look-up token) of users made before audit keys were (format 1)."""
        rows = self._q(
            "SELECT u.id, u.lookup FROM users AS u WHERE NOT EXISTS"
            " (SELECT 1 FROM audit_keys AS a WHERE a.user_id = u.id)"
        )
        return [(_int(r[0], "users"), _blob(r[1], "users")) for r in rows]

    def pending_records(self) -> list[tuple[int, bytes]]:
        rows = self._q("SELECT seq, line FROM audit_pending ORDER BY seq")
        return [(_int(r[0], "audit_pending"), _blob(r[1], "audit_pending")) for r in rows]

    def newest_record(self) -> tuple[int, bytes] | None:
        """The newest audit line the store holds: its anchor."""
        row = self._one("SELECT seq, line FROM audit_pending ORDER BY seq DESC LIMIT 1")
        return (
            None if row is None else (_int(row[0], "audit_pending"), _blob(row[1], "audit_pending"))
        )

    def audit_coverage(self) -> tuple[int, int]:
        """(seq the log file was last synced through, newest line the store holds a copy of)."""
        row = self._one(
            "SELECT (SELECT value FROM meta WHERE key = 'audit_synced'),"
            " (SELECT max(seq) FROM audit_pending)"
        )
        synced = _synced(row[0]) if row is not None and row[0] is not None else 0
        return synced, (
            _int(row[1], "audit_pending") if row is not None and row[1] is not None else 0
        )

    def set_audit_synced(self, seq: int) -> None:
        self.set_meta("audit_synced", str(seq).encode())

    def add_pending(self, records: list[tuple[int, bytes]]) -> None:
        try:
            self._db.executemany(
                "INSERT OR REPLACE INTO audit_pending (seq, line) VALUES (?, ?)", records
            )
        except sqlite3.Error as exc:
            raise _storage_error(exc, "recording the audit log's anchor") from None

    def clear_pending(self, through: int) -> None:
        """Forget the copies up to ``through`` (the caller then stores a newer anchor)."""
        self._exec("DELETE FROM audit_pending WHERE seq <= ?", (through,))
