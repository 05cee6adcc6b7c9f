"""What the SQLite store's rows run on: one connection, and statements whose ``sqlite3``
errors become the vault's (damage on any row, not only the first).

The shared statements (``_rows_*.py``) are SQLite's own: they run as written, with no
work on their text per call. What SQLite says its own way is here.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from ._errors import blob as _blob
from ._errors import integer as _int
from ._errors import storage_error as _storage_error
from ._rows import Args, Rows

_BUSY_SECONDS = 30.0


class SqliteRows(Rows):
    """The connection and the ways of running SQL on it."""

    _db: sqlite3.Connection
    # The open transaction deleted memories or keys: the WAL is purged after it commits.
    _deleted: bool

    _SET_META = "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)"
    _ADD_PENDING = "INSERT OR REPLACE INTO audit_pending (seq, line) VALUES (?, ?)"
    # NOT INDEXED: the table's own rows, not an index a damaged page could have emptied.
    _USER_CENSUS = "SELECT count(*), coalesce(max(lookup = ?), 0) FROM users NOT INDEXED"
    _INSERT_DATA_KEY = (
        "INSERT INTO data_keys (user_id, version, wrapped, created)"
        " VALUES (?, ?, ?, CAST(strftime('%s', 'now') AS INTEGER))"
    )

    def _exec(self, sql: str, args: Args = ()) -> int:
        """Run a statement that changes rows; sqlite3 errors become ours."""
        try:
            return self._db.execute(sql, args).rowcount
        except sqlite3.Error as exc:
            raise _storage_error(exc, "running a command") from None

    def _exec_with(self, sql: str, args: Args) -> int:
        """Not the cursor's rowcount: the module reports -1 for a statement that starts
        with WITH."""
        self._exec(sql, args)
        return _int(self._one("SELECT changes()")[0], "a count")

    def _insert(self, sql: str, args: Args) -> int:
        try:
            return int(self._db.execute(sql, args).lastrowid or 0)
        except sqlite3.Error as exc:
            raise _storage_error(exc, "running a command") from None

    def _many(self, sql: str, rows: list[Args], action: str) -> None:
        try:
            self._db.executemany(sql, rows)
        except sqlite3.Error as exc:
            raise _storage_error(exc, action) from None

    def _q(self, sql: str, args: Args = ()) -> list[Any]:
        """All rows of a query. Fetching is inside the guard: a damaged page can
        surface on any row, not only the first."""
        try:
            return self._db.execute(sql, args).fetchall()
        except sqlite3.Error as exc:
            raise _storage_error(exc, "reading the vault") from None

    def _deleted_rows(self) -> None:
        self._deleted = True

    def get_metas(self, keys: tuple[str, ...]) -> dict[str, bytes]:
        """Several ``meta`` values read by one statement: one consistent snapshot, inside a
        transaction or not."""
        marks = ", ".join("?" * len(keys))
        rows = self._q(f"SELECT key, value FROM meta WHERE key IN ({marks})", keys)
        return {str(r[0]): _blob(r[1], "meta") for r in rows}
