"""The embedded store on SQLite (WAL): its connection, transactions, schema and upkeep.

It implements :class:`~memvault.store._protocol.Store` and keeps its promises; its
rows are the shared ones (``_rows_*.py``) run on :class:`~._sqlite_rows.SqliteRows`,
where ``sqlite3`` errors become the vault's.

One command is one transaction: ``BEGIN IMMEDIATE`` for commands that write (so
concurrent writers queue on the lock instead of failing on upgrade), a deferred
``BEGIN`` for reads (a consistent snapshot while other processes write).
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext, suppress
from pathlib import Path

from ..errors import IntegrityError, StorageError
from ._checkpoint import BACKSTOP_PAGES, WAL_LIMIT_BYTES, Checkpointer
from ._errors import DAMAGED_HINT as _DAMAGED_HINT
from ._errors import storage_error as _storage_error
from ._protocol import Durability
from ._rows_audit import AuditRows
from ._rows_copy import CopyRows
from ._rows_keys import KeyRows
from ._rows_log import LogRows
from ._rows_retention import RetentionRows
from ._rows_tree import TreeRows
from ._schema import (
    MIGRATIONS,
    READABLE_VERSIONS,
    SCHEMA,
    SCHEMA_VERSION,
    TABLES,
    TABLES_OF_FORMAT_1,
)
from ._sqlite_rows import _BUSY_SECONDS, SqliteRows
from ._wal import enter_wal, purge_wal

# How often a write waiting for the lock tries again, and how long a batch job pauses
# between batches: several tries fit in one pause.
_POLL_SECONDS = 0.0005
_WRITER_GAP_SECONDS = 0.001
_WORK_BETWEEN_PAUSES = 0.0015


class SqliteStore(TreeRows, AuditRows, KeyRows, RetentionRows, LogRows, CopyRows, SqliteRows):
    """A connection to one vault's SQLite database."""

    def __init__(self, path: Path, *, durability: Durability = "full") -> None:
        self.path = path
        self._deleted = False  # the open transaction deleted rows (its commit says so)
        self._paused = 0.0  # when a batch job last paused for other writers
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
            synchronous = "FULL" if durability == "full" else "NORMAL"
            self._db.execute(f"PRAGMA synchronous = {synchronous}")
            # Checkpoints are taken by the store's own thread, not on a command's commit;
            # SQLite's own (passive, after a commit) remains only as a backstop, when
            # writes come so fast that the thread finds no moment and the WAL passes
            # 16 MiB. A file grown past 4 MiB is cut back when the log starts over.
            self._db.execute(f"PRAGMA wal_autocheckpoint = {BACKSTOP_PAGES}")
            self._db.execute(f"PRAGMA journal_size_limit = {WAL_LIMIT_BYTES}")
            self._checkpointer = Checkpointer(path, synchronous)
            purge_wal(self._db, _BUSY_SECONDS)  # a delete's, if a process died before it
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
        self._checkpointer.close()
        self._db.close()  # the last connection to close checkpoints and removes the WAL

    def purge_wal(self, wait_seconds: float = 0.0) -> bool:
        """Checkpoint the WAL now and empty it, outside any transaction, waiting up to
        ``wait_seconds`` for other connections: after an erasure, so that no copy of
        what it deleted stays in the log's older frames. True if the log was emptied."""
        return purge_wal(self._db, _BUSY_SECONDS, wait_seconds)

    # -- transactions -------------------------------------------------------

    @contextmanager
    def transaction(self, *, write: bool, action: str = "running a command") -> Iterator[None]:
        """One command, applied whole or not at all."""
        try:
            if write:
                self._begin_write()
            else:
                self._db.execute("BEGIN")
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
        deleted, self._deleted = self._deleted, False
        self._checkpointer.committed(deleted=deleted)

    def partition(self, key: int | None, *, flush: bool = True) -> AbstractContextManager[None]:
        """One writer at a time, whatever the partition: nothing to do."""
        return nullcontext()

    def _begin_write(self) -> None:
        """``BEGIN IMMEDIATE``, trying again every :data:`_POLL_SECONDS` while another
        connection writes, for up to the busy timeout.

        SQLite's own busy handler sleeps up to 100 ms between tries: a process that
        commits and begins again at once (a key rotation's batches) would starve a
        command waiting that way. Polled finely, a waiting command takes the lock in
        the pause a batch makes (:meth:`pause_for_writers`)."""
        db = self._db
        db.execute("PRAGMA busy_timeout = 0")
        try:
            deadline = None
            while True:
                try:
                    db.execute("BEGIN IMMEDIATE")
                    return
                except sqlite3.OperationalError as exc:
                    if exc.sqlite_errorcode != sqlite3.SQLITE_BUSY:
                        raise
                    now = time.monotonic()
                    if deadline is None:
                        deadline = now + _BUSY_SECONDS
                    elif now > deadline:
                        raise
                time.sleep(_POLL_SECONDS)
        finally:
            db.execute(f"PRAGMA busy_timeout = {int(_BUSY_SECONDS * 1000)}")

    def pause_for_writers(self) -> None:
        """Between the batches of a long job: once the job has worked for a while since
        its last pause, pause long enough for a command waiting to write (in another
        process or thread) to take the lock before the next batch does."""
        now = time.monotonic()
        if now - self._paused >= _WORK_BETWEEN_PAUSES:
            time.sleep(_WRITER_GAP_SECONDS)
            self._paused = time.monotonic()

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

    # -- schema and metadata ------------------------------------------------

    def initialize(self) -> int:
        """Create the schema if absent (inside the caller's write transaction); return the
        stored format version (format 1 is upgraded by the vault, formats 2 and 3 here, a
        newer one is refused)."""
        tables = {r[0] for r in self._q("SELECT name FROM sqlite_master WHERE type = 'table'")}
        version = self.get_meta("schema") if "meta" in tables else None
        if version is not None:
            self._check_tables(tables, version)
        for statement in SCHEMA.split(";"):
            if statement.strip():
                self._exec(statement)
        if version is None:
            if "users" in tables and not self.is_empty():
                raise IntegrityError(
                    "the vault database holds users but no schema version (modified outside "
                    "memvault)",
                    hint=_DAMAGED_HINT,
                )
            self.set_meta("schema", str(SCHEMA_VERSION).encode())
            return SCHEMA_VERSION
        if version not in READABLE_VERSIONS:
            raise StorageError(
                f"the vault database has schema version {version.decode(errors='replace')}, "
                f"this memvault reads versions up to {SCHEMA_VERSION}",
                hint="upgrade memvault to open this vault",
            )
        if int(version) < SCHEMA_VERSION:
            for table, column, statement in MIGRATIONS:
                if not self._has_column(table, column):
                    self._exec(statement)
            if version != b"1":
                self.set_meta("schema", str(SCHEMA_VERSION).encode())
                return SCHEMA_VERSION
        return int(version)

    def _check_tables(self, tables: set[str], version: bytes) -> None:
        if not version.isdigit() or len(version) > 9:
            raise IntegrityError(
                "the vault database's schema version is damaged (modified outside memvault)",
                hint=_DAMAGED_HINT,
            )
        expected = TABLES_OF_FORMAT_1 if version == b"1" else TABLES
        missing = [table for table in expected if table not in tables]
        if missing:
            raise IntegrityError(
                f"the vault database lacks its {', '.join(missing)} table (dropped outside "
                "memvault)",
                hint=_DAMAGED_HINT,
            )

    def _has_column(self, table: str, column: str) -> bool:
        return any(r[1] == column for r in self._q(f"PRAGMA table_info({table})"))

    def check_structure(self) -> list[str]:
        """SQLite's full integrity check: every page, every index against its table. Its
        findings name pages, tables and indexes, never a value; the first 20 are kept."""
        rows = self._q("PRAGMA integrity_check(20)")
        found = [str(row[0]) for row in rows]
        return [] if found == ["ok"] else found
