"""What both stores' rows build on: the ways of running SQL a dialect provides, and the
rows of ``meta``.

Every statement of the shared row modules (``_rows_*.py``) is written once, with
SQLite's marks: ``?`` for the next argument, ``?N`` for the N-th (several uses of one
argument). SQLite runs them as they are; the PostgreSQL store translates each statement
text once (``_pg_rows.py``). So no statement holds ``%``, nor ``?`` inside a literal.

Where the dialects differ in what a statement must say, a dialect gives it as a class
constant (``_SET_META``, ...), or overrides a small method (``_insert``, ``_exec_with``):
the shared modules hold no branch on the dialect. The dialect modules import this one,
never the reverse.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

from ._errors import blob as _blob
from ._errors import integer as _int
from ._schema import SCHEMA_VERSION

# Bound on directory nesting the recursive queries follow: a tampered
# parent pointer must not send a query around a loop.
MAX_DEPTH = 256

Args = tuple[object, ...]


class Rows(ABC):
    """The statements a dialect runs, and the rows every store has the same way."""

    # Statements that differ by dialect, each given by the dialect's base class.
    _SET_META: str  # (key, value): insert or overwrite a meta row
    _ADD_PENDING: str  # (seq, line): insert or overwrite a copy of an audit line
    _USER_CENSUS: str  # (lookup): how many users, whether one has the token (no index)
    _INSERT_DATA_KEY: str  # (user, version, wrapped), made now (the server's clock)

    @abstractmethod
    def _exec(self, sql: str, args: Args = ()) -> int:
        """Run a statement that changes rows; returns how many it changed."""

    @abstractmethod
    def _exec_with(self, sql: str, args: Args) -> int:
        """:meth:`_exec` of a statement that begins with ``WITH``."""

    @abstractmethod
    def _insert(self, sql: str, args: Args) -> int:
        """Run an ``INSERT`` of one row; returns the new row's ``id``."""

    @abstractmethod
    def _many(self, sql: str, rows: list[Args], action: str) -> None:
        """One statement run once for each of ``rows``, in the current transaction."""

    @abstractmethod
    def _q(self, sql: str, args: Args = ()) -> list[Any]:
        """All rows of a query."""

    @abstractmethod
    def _deleted_rows(self) -> None:
        """The open transaction deleted memories or keys (a dialect may purge after it)."""

    def _one(self, sql: str, args: Args = ()) -> Any:
        rows = self._q(sql, args)
        return rows[0] if rows else None

    # -- meta, and what the ledger counts ------------------------------------------

    def get_meta(self, key: str) -> bytes | None:
        row = self._one("SELECT value FROM meta WHERE key = ?", (key,))
        return None if row is None else _blob(row[0], "meta")

    def set_meta(self, key: str, value: bytes) -> None:
        self._exec(self._SET_META, (key, value))

    def delete_meta(self, key: str) -> None:
        self._exec("DELETE FROM meta WHERE key = ?", (key,))
        self._deleted_rows()

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

    def is_empty(self) -> bool:
        """True if no user (and so no key and no memory) was ever stored."""
        row = self._one("SELECT EXISTS (SELECT 1 FROM users) OR EXISTS (SELECT 1 FROM nodes)")
        return not row[0]
