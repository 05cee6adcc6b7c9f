"""The store on PostgreSQL: a pool of connections to one database that holds one vault.

It implements :class:`~memvault.store._protocol.Store` and keeps its promises as
follows. psycopg (3) and psycopg_pool are imported only when a :class:`PgStore` is
made, so ``import memvault`` does not need them (``pip install 'memvault[postgres]'``).

**Isolation and locking.** Every write transaction begins, at READ COMMITTED, by taking
transaction-scoped advisory locks (advisory locks are scoped to the database, and a
database holds one vault; the server releases them at commit or rollback, also when a
client dies). A transaction begun inside :meth:`PgStore.partition` takes the vault's
lock *shared*, then its partition's lock exclusive: writers of different partitions run
at once, writers of one partition one at a time. Any other write transaction takes the
vault's lock exclusive and runs alone, as SQLite's single writer does. The vault's lock
is always taken first, so the two kinds cannot wait for each other in a cycle.

The layers above partition by user: a memory command locks its user's audit chain
(``audit/_db_log.py``), and every row it reads or writes (the user's tree and keys, the
chain's records and ledger) belongs to that user or chain. Operations that span users
(creating or erasing one, a master-key rotation, recording an operator action) take the
exclusive lock.

READ COMMITTED is the right level for a writer that holds those locks: each statement
sees every transaction committed before it, and every transaction that wrote the rows it
reads committed before the lock was granted, so a read-modify-write inside the
transaction cannot lose another writer's update, nor see half of another writer's move
of a subtree. (REPEATABLE READ would be wrong here: its snapshot would be taken by the
lock statement itself, before the wait, and an update of a row changed during the wait
would fail with a serialization error.) So no command meets a serialization failure or
a deadlock to retry. A read transaction is REPEATABLE READ READ ONLY: one snapshot for
all its statements, with whole commits in it or none, and no lock (readers do not wait
for writers).

**Durability** ``"full"`` is ``synchronous_commit = on`` for the pool's sessions (a
commit returns once the server has flushed it); ``"normal"`` is ``off`` (a server crash
may lose the last commits, never part of one).

**Errors.** psycopg's errors become the vault's in ``_pg_errors.py``, quoting the
server's primary message only. A lock waited on for more than 30 seconds
(``lock_timeout``) is a StorageError, like SQLite's busy timeout.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import TYPE_CHECKING, Any

from ..errors import StorageError
from ._dsn import without_secrets
from ._pg_check import PgUpkeep
from ._pg_errors import pg_error
from ._pg_migrate import Migration, PgSchema
from ._protocol import Durability
from ._rows_audit import AuditRows
from ._rows_keys import KeyRows
from ._rows_retention import RetentionRows
from ._rows_tree import TreeRows

if TYPE_CHECKING:
    from ._pg_rows import Connection

# The vault's advisory lock, which every write transaction takes: "memvault" as a 64-bit
# number; and the first half of a partition's (two 32-bit keys: "mvpt", the partition).
_LOCK_KEY = int.from_bytes(b"memvault", "big")
_PARTITION_KEY = int.from_bytes(b"mvpt", "big") - (1 << 31)  # a signed 32-bit number
_LOCK_SECONDS = 30.0  # as long as the SQLite store waits for its lock
_CONNECT_SECONDS = 10.0
_BEGIN_READ = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
_SNAPSHOT = re.compile(r"[0-9A-F]+(-[0-9A-F]+)+")


class PgStore(TreeRows, AuditRows, KeyRows, RetentionRows, PgSchema, PgUpkeep):
    """A pool of connections to one vault's PostgreSQL database.

    ``dsn`` is a libpq connection string or URI; it is never quoted in an error (it
    may hold a password). ``max_connections`` bounds the pool: one per thread inside a
    transaction, and one for a statement run outside any.
    """

    def __init__(
        self, dsn: str, *, durability: Durability = "full", max_connections: int = 8
    ) -> None:
        self._local = threading.local()
        self._lock_ms = int(_LOCK_SECONDS * 1000)
        self._synchronous = "on" if durability == "full" else "off"
        self._dsn = dsn  # for clone(); never shown (it may hold a password)
        try:
            import psycopg
            from psycopg_pool import ConnectionPool
        except ImportError:
            raise StorageError(
                "the PostgreSQL store needs psycopg and psycopg_pool, which are not installed",
                hint="pip install 'memvault[postgres]'",
            ) from None
        self._pool = ConnectionPool(
            dsn,
            min_size=1,
            max_size=max_connections,
            kwargs={"autocommit": True, "connect_timeout": int(_CONNECT_SECONDS)},
            configure=self._configure,
            timeout=_LOCK_SECONDS,
            open=False,
        )
        try:
            # One connection first, outside the pool: when the server cannot be reached,
            # its reason (refused, unknown host, authentication) is what the error says,
            # not the pool's "initialization incomplete" after its retries.
            psycopg.connect(dsn, connect_timeout=int(_CONNECT_SECONDS)).close()
            self._pool.open(wait=True, timeout=_CONNECT_SECONDS)
        except psycopg.Error as exc:
            self._pool.close()
            error = pg_error(exc, "opening the database")
            raise type(error)(without_secrets(error.message, dsn), hint=error.hint) from None

    def _configure(self, conn: Connection) -> None:
        """Each new session of the pool: its durability and how long it waits for a lock."""
        conn.execute(f"SET synchronous_commit = {self._synchronous}")
        conn.execute(f"SET lock_timeout = {self._lock_ms}")

    def close(self) -> None:
        self._pool.close()

    # -- transactions -------------------------------------------------------

    def __repr__(self) -> str:
        return "<PgStore>"

    def clone(self) -> PgStore:
        """A store of its own on the same database (for another process after a fork:
        it must not use its parent's connections)."""
        return PgStore(self._dsn, max_connections=1)

    def export_snapshot(self) -> str:
        """Inside a read transaction: an id other sessions can read the same snapshot
        with (:meth:`transaction`'s ``snapshot``) while this transaction lasts."""
        return str(self._one("SELECT pg_export_snapshot()")[0])

    @contextmanager
    def transaction(
        self, *, write: bool, action: str = "running a command", snapshot: str | None = None
    ) -> Iterator[None]:
        """One command, applied whole or not at all, on one connection held throughout
        (see the module's docstring for the isolation and the writers' locks).
        ``snapshot``: a read transaction sees the snapshot another exported."""
        import psycopg

        if self._current() is not None:
            raise StorageError(
                f"a transaction was begun inside another while {action} (a bug in memvault)",
                hint="nothing was changed",
            )
        try:
            with self._begun(write, snapshot) as conn:
                self._local.conn = conn
                try:
                    yield
                    _check_not_aborted(conn, action)
                except BaseException:
                    self._local.conn = None
                    with suppress(psycopg.Error):
                        conn.execute("ROLLBACK")
                    raise
                self._local.conn = None
                conn.execute("COMMIT")
        except psycopg.Error as exc:
            raise pg_error(exc, action) from None

    @contextmanager
    def _begun(self, write: bool, snapshot: str | None = None) -> Iterator[Connection]:
        """A connection of the pool with a transaction begun on it: BEGIN and, for a
        writer, its locks, in one round trip. The pool does not ping a connection it
        hands out (a round trip per command); a connection the server dropped meanwhile
        fails this first statement, before anything was done, and another is taken."""
        import psycopg

        begin = self._lock_statement() if write else _BEGIN_READ
        if snapshot is not None:
            if not _SNAPSHOT.fullmatch(snapshot):
                raise StorageError("a snapshot id must be hexadecimal parts (a bug in memvault)")
            begin += f"; SET TRANSACTION SNAPSHOT '{snapshot}'"
        attempts = self._pool.max_size + 1  # every pooled connection may have been dropped
        for attempt in range(1, attempts + 1):
            with self._pool.connection() as conn:
                try:
                    conn.execute(begin)
                except psycopg.OperationalError:
                    if attempt == attempts or not conn.closed:
                        raise
                    continue  # the pool drops the closed connection as it takes it back
                yield conn
                return

    @contextmanager
    def partition(self, key: int | None, *, flush: bool = True) -> Iterator[None]:
        """Write transactions this thread begins inside lock partition ``key`` only (see
        the module's docstring); ``key=None``: the whole vault. ``flush=False``: their
        commits return without waiting for the server's flush (``synchronous_commit =
        off`` for that transaction: a server crash may lose them, never part of one)."""
        previous = getattr(self._local, "partition", None)
        self._local.partition = (key, flush)
        try:
            yield
        finally:
            self._local.partition = previous

    def _lock_statement(self) -> str:
        """What a write transaction runs first: its locks, in order, in one round trip."""
        key, flush = getattr(self._local, "partition", None) or (None, True)
        steps = []
        if key is None:
            steps.append(f"PERFORM pg_advisory_xact_lock({_LOCK_KEY});")
        else:
            steps.append(f"PERFORM pg_advisory_xact_lock_shared({_LOCK_KEY});")
            steps.append(f"PERFORM pg_advisory_xact_lock({_PARTITION_KEY}, {int(key)});")
        if not flush:
            steps.append("PERFORM set_config('synchronous_commit', 'off', true);")
        return "BEGIN ISOLATION LEVEL READ COMMITTED; DO $$ BEGIN " + " ".join(steps) + " END $$"

    def pause_for_writers(self) -> None:
        """Nothing to do: between two batches the job commits, which releases the
        writers' advisory lock, and PostgreSQL's lock manager grants a released lock to
        the sessions already queued for it, in order, before a new request (the job's
        next batch) is considered; a waiting command goes first without a pause."""

    @contextmanager
    def savepoint(self) -> Iterator[None]:
        """A nested step inside the current transaction, undone alone if it raises (a
        psycopg nested transaction: SAVEPOINT, then RELEASE or ROLLBACK TO)."""
        import psycopg

        conn = self._current()
        if conn is None:
            raise StorageError(
                "a savepoint was asked for outside a transaction (a bug in memvault)",
                hint="nothing was changed",
            )
        try:
            with conn.transaction():
                yield
        except psycopg.Error as exc:
            raise pg_error(exc, "running a command") from None

    def migrate_schema(self, chains: int | None = None) -> Migration:
        """``memvault db migrate``: :meth:`migrate` in a transaction of its own, alone."""
        with self.transaction(write=True, action="migrating the database schema"):
            return self.migrate(chains)


def _check_not_aborted(conn: Any, action: str) -> None:
    """Refuse to commit a transaction a failed statement aborted. The caller caught the
    error and went on without a savepoint: PostgreSQL would answer COMMIT with a silent
    ROLLBACK, and the command would believe its writes kept. (SQLite goes on after a
    failed statement; PostgreSQL cannot.)"""
    from psycopg.pq import TransactionStatus

    if conn.info.transaction_status == TransactionStatus.INERROR:
        raise StorageError(
            f"a statement failed inside the transaction while {action}, and the transaction "
            "cannot go on after it (a bug in memvault: the step needs a savepoint)",
            hint="nothing was changed",
        )
