"""What every part of the SQLite store builds on: one connection, and statements whose
``sqlite3`` errors become the vault's (damage on any row, not only the first)."""

from __future__ import annotations

import sqlite3
from typing import Any

from ._errors import blob as _blob
from ._errors import storage_error as _storage_error

_BUSY_SECONDS = 30.0

# Bound on directory nesting the recursive queries follow: a tampered
# parent pointer must not send a query around a loop.
MAX_DEPTH = 256


class Rows:
    """The connection and the three ways of running SQL on it."""

    _db: sqlite3.Connection
    # The open transaction deleted memories or keys: the WAL is purged after it commits.
    _deleted: bool

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

    def get_meta(self, key: str) -> bytes | None:
        row = self._one("SELECT value FROM meta WHERE key = ?", (key,))
        return None if row is None else _blob(row[0], "meta")

    def set_meta(self, key: str, value: bytes) -> None:
        self._exec("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))

    def delete_meta(self, key: str) -> None:
        self._exec("DELETE FROM meta WHERE key = ?", (key,))
        self._deleted = True

    def get_metas(self, keys: tuple[str, ...]) -> dict[str, bytes]:
        """Several ``meta`` values read by one statement: one consistent snapshot, inside a
        transaction or not."""
        marks = ", ".join("?" * len(keys))
        rows = self._q(f"SELECT key, value FROM meta WHERE key IN ({marks})", keys)
        return {str(r[0]): _blob(r[1], "meta") for r in rows}
