"""What the PostgreSQL store's rows run on: the connection a statement runs on, statements
whose psycopg errors become the vault's, and SQLite's marks made psycopg's.

Inside a transaction, every statement of the calling thread runs on the connection that
transaction holds (:attr:`PgRows._local`); outside one, a statement borrows a connection
from the pool for itself alone (it autocommits, and is its own snapshot).
psycopg is imported here only inside functions, once a statement runs: ``import
memvault`` does not need it.

The shared statements (``_rows_*.py``) mark their arguments as SQLite does; each
statement text is translated once (:func:`_translate`, cached), and a statement that
numbers its marks (``?1``, used twice) has its arguments put in the order of its marks.
"""

from __future__ import annotations

import functools
import re
import threading
from typing import TYPE_CHECKING, Any

from ..errors import StorageError
from ._errors import blob as _blob
from ._errors import integer as _int
from ._pg_errors import pg_error
from ._rows import Args, Rows

if TYPE_CHECKING:
    import psycopg
    from psycopg_pool import ConnectionPool

    Connection = psycopg.Connection[tuple[Any, ...]]

_MARK = re.compile(r"\?(\d*)")


@functools.lru_cache(maxsize=512)
def _translate(sql: str) -> tuple[str, tuple[int, ...] | None]:
    """``sql`` with psycopg's ``%s`` for SQLite's ``?`` and ``?N``, and, if the marks are
    numbered, the index of the argument each mark takes (else None: in order)."""
    literals = sql.split("'")[1::2]
    if "%" in sql or any("?" in literal for literal in literals):
        raise StorageError(
            "a statement holds '%' or a '?' inside a literal (a bug in memvault)",
            hint="nothing was changed",
        )
    numbers = [m.group(1) for m in _MARK.finditer(sql)]
    order = None
    if any(numbers):
        if not all(numbers):
            raise StorageError(
                "a statement mixes '?' with numbered marks (a bug in memvault)",
                hint="nothing was changed",
            )
        order = tuple(int(n) - 1 for n in numbers)
    return _MARK.sub("%s", sql), order


class PgRows(Rows):
    """The pool, the calling thread's transaction, and the ways of running SQL."""

    _pool: ConnectionPool[Connection]
    _local: threading.local

    _SET_META = (
        "INSERT INTO meta (key, value) VALUES (?, ?)"
        " ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value"
    )
    _ADD_PENDING = (
        "INSERT INTO audit_pending (seq, line) VALUES (?, ?)"
        " ON CONFLICT (seq) DO UPDATE SET line = EXCLUDED.line"
    )
    # ``count(name)`` (a column no index holds) with no condition leaves the planner no
    # index to answer from: it reads the heap, not an index a damaged page could have
    # emptied.
    _USER_CENSUS = "SELECT count(name), coalesce(bool_or(lookup = ?), false) FROM users"
    _INSERT_DATA_KEY = (
        "INSERT INTO data_keys (user_id, version, wrapped, created)"
        " VALUES (?, ?, ?, floor(extract(epoch FROM now()))::bigint)"
    )

    def _current(self) -> Connection | None:
        """The connection of the calling thread's open transaction, if any."""
        conn: Connection | None = getattr(self._local, "conn", None)
        return conn

    def _run(self, sql: str, args: Args, action: str, fetch: bool) -> tuple[int, list[Any]]:
        """(rows changed, rows fetched) of one statement; psycopg errors become ours."""
        import psycopg

        text, order = _translate(sql)
        if order is not None:
            args = tuple(args[i] for i in order)
        conn = self._current()
        try:
            if conn is not None:
                return _execute(conn, text, args, fetch)
            with self._pool.connection() as borrowed:
                return _execute(borrowed, text, args, fetch)
        except psycopg.Error as exc:
            raise pg_error(exc, action) from None

    def _exec(self, sql: str, args: Args = ()) -> int:
        """Run a statement that changes rows; returns how many it changed."""
        return self._run(sql, args, "running a command", fetch=False)[0]

    def _exec_with(self, sql: str, args: Args) -> int:
        return self._exec(sql, args)

    def _insert(self, sql: str, args: Args) -> int:
        """The new row's id, from its RETURNING clause (an INSERT's errors name the
        command, not a read)."""
        rows = self._run(sql + " RETURNING id", args, "running a command", fetch=True)[1]
        return _int(rows[0][0], "a new row's id")

    def _q(self, sql: str, args: Args = ()) -> list[Any]:
        """All rows of a query."""
        return self._run(sql, args, "reading the vault", fetch=True)[1]

    def _many(self, sql: str, rows: list[Args], action: str) -> None:
        import psycopg

        text = _translate(sql)[0]
        conn = self._current()
        try:
            if conn is not None:
                conn.cursor().executemany(text, rows)
                return
            with self._pool.connection() as borrowed, borrowed.transaction():
                borrowed.cursor().executemany(text, rows)
        except psycopg.Error as exc:
            raise pg_error(exc, action) from None

    def _deleted_rows(self) -> None:
        """Nothing: the dead tuples a delete leaves are vacuumed by :meth:`purge_wal`, which
        an erasure calls."""

    def get_metas(self, keys: tuple[str, ...]) -> dict[str, bytes]:
        """Several ``meta`` values read by one statement: one consistent snapshot, inside a
        transaction or not."""
        rows = self._q("SELECT key, value FROM meta WHERE key = ANY(?)", (list(keys),))
        return {str(r[0]): _blob(r[1], "meta") for r in rows}


def _execute(conn: Connection, sql: str, args: Args, fetch: bool) -> tuple[int, list[Any]]:
    cur = conn.execute(sql, args)
    return cur.rowcount, cur.fetchall() if fetch else []
