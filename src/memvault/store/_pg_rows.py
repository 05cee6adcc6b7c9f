"""What every part of the PostgreSQL store builds on: the connection a statement runs on,
and statements whose psycopg errors become the vault's.

Inside a transaction, every statement of the calling thread runs on the connection that
transaction holds (:attr:`PgRows._local`); outside one, a statement borrows a connection
from the pool for itself alone (it autocommits, and is its own snapshot).
psycopg is imported here only inside functions, once a statement runs: ``import
memvault`` does not need it.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ._errors import blob as _blob
from ._pg_errors import pg_error

if TYPE_CHECKING:
    import psycopg
    from psycopg_pool import ConnectionPool

    Connection = psycopg.Connection[tuple[Any, ...]]

_Args = Sequence[object] | Mapping[str, object]

# Bound on directory nesting the recursive queries follow (the SQLite store's bound): a
# tampered parent pointer must not send a query around a loop.
MAX_DEPTH = 256


class PgRows:
    """The pool, the calling thread's transaction, and the ways of running SQL."""

    _pool: ConnectionPool[Connection]
    _local: threading.local

    def _current(self) -> Connection | None:
        """The connection of the calling thread's open transaction, if any."""
        conn: Connection | None = getattr(self._local, "conn", None)
        return conn

    def _run(self, sql: str, args: _Args, action: str, fetch: bool) -> tuple[int, list[Any]]:
        """(rows changed, rows fetched) of one statement; psycopg errors become ours."""
        import psycopg

        conn = self._current()
        try:
            if conn is not None:
                return _execute(conn, sql, args, fetch)
            with self._pool.connection() as borrowed:
                return _execute(borrowed, sql, args, fetch)
        except psycopg.Error as exc:
            raise pg_error(exc, action) from None

    def _exec(self, sql: str, args: _Args = ()) -> int:
        """Run a statement that changes rows; returns how many it changed."""
        return self._run(sql, args, "running a command", fetch=False)[0]

    def _returning(self, sql: str, args: _Args) -> Any:
        """The row a statement that changes rows returns (its RETURNING clause)."""
        return self._run(sql, args, "running a command", fetch=True)[1][0]

    def _q(self, sql: str, args: _Args = ()) -> list[Any]:
        """All rows of a query."""
        return self._run(sql, args, "reading the vault", fetch=True)[1]

    def _one(self, sql: str, args: _Args = ()) -> Any:
        rows = self._q(sql, args)
        return rows[0] if rows else None

    def _many(self, sql: str, rows: list[tuple[object, ...]], action: str) -> None:
        """One statement run once for each of ``rows``."""
        import psycopg

        conn = self._current()
        try:
            if conn is not None:
                conn.cursor().executemany(sql, rows)
                return
            with self._pool.connection() as borrowed, borrowed.transaction():
                borrowed.cursor().executemany(sql, rows)
        except psycopg.Error as exc:
            raise pg_error(exc, action) from None

    def get_meta(self, key: str) -> bytes | None:
        row = self._one("SELECT value FROM meta WHERE key = %s", (key,))
        return None if row is None else _blob(row[0], "meta")

    def set_meta(self, key: str, value: bytes) -> None:
        self._exec(
            "INSERT INTO meta (key, value) VALUES (%s, %s)"
            " ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
            (key, value),
        )

    def delete_meta(self, key: str) -> None:
        self._exec("DELETE FROM meta WHERE key = %s", (key,))

    def get_metas(self, keys: tuple[str, ...]) -> dict[str, bytes]:
        """Several ``meta`` values read by one statement: one consistent snapshot, inside a
        transaction or not."""
        rows = self._q("SELECT key, value FROM meta WHERE key = ANY(%s)", (list(keys),))
        return {str(r[0]): _blob(r[1], "meta") for r in rows}


def _execute(conn: Connection, sql: str, args: _Args, fetch: bool) -> tuple[int, list[Any]]:
    cur = conn.execute(sql, args)
    return cur.rowcount, cur.fetchall() if fetch else []
