"""The PostgreSQL store's upkeep outside transactions: its structure check, and VACUUM.

Both run on a connection of their own, borrowed from the pool in autocommit mode:
``VACUUM`` cannot run inside a transaction block, and creating the ``amcheck``
extension cannot run in a read-only one.
"""

from __future__ import annotations

from contextlib import suppress
from typing import Any

from ._pg_errors import pg_error, reason
from ._pg_rows import PgRows
from ._pg_schema import PG_SCHEMA_VERSION, PG_TABLES_BY_VERSION, SEALED_TABLES

TABLES = PG_TABLES_BY_VERSION[PG_SCHEMA_VERSION]
_FINDINGS = 20  # as many as the SQLite store's integrity_check(20) keeps

_INDEXES = (
    "SELECT c.relname FROM pg_index AS i"
    " JOIN pg_class AS c ON c.oid = i.indexrelid"
    " JOIN pg_class AS t ON t.oid = i.indrelid"
    " JOIN pg_am AS a ON a.oid = c.relam"
    " WHERE t.relname = ANY(%s) AND t.relnamespace = current_schema()::regnamespace"
    " AND a.amname = 'btree' ORDER BY c.relname"
)


class PgUpkeep(PgRows):
    """``check_structure`` and ``purge_wal``."""

    _lock_ms: int  # the session's lock_timeout, restored after a purge changed it

    def check_structure(self) -> list[str]:
        """The server's own check where it can make one: with the ``amcheck`` extension
        (created here if absent, which needs the privilege to create it), every heap page
        of the vault's tables and their TOAST data is verified (``verify_heapam``) and
        every B-tree index checked against its table (``bt_index_check`` with
        ``heapallindexed``). Without ``amcheck``, every row of every table is read whole,
        so damage the server notices on reading is reported by table; indexes are then
        not checked. Findings name tables, indexes, pages and items, never a value; the
        first 20 are kept."""
        import psycopg

        try:
            with self._pool.connection() as conn:
                found = _amcheck(conn) if _has_amcheck(conn) else _read_everything(conn)
        except psycopg.Error as exc:
            raise pg_error(exc, "checking the vault database") from None
        return found[:_FINDINGS]

    def purge_wal(self, wait_seconds: float = 0.0) -> bool:
        """``VACUUM`` the tables that hold ciphertexts and wrapped keys, so that the rows
        deleted or overwritten by committed commands stop being kept as dead tuples;
        waits up to ``wait_seconds`` for a lock another vacuum or schema change holds.
        True if the vacuum ran to the end.

        This is weaker than the SQLite store's purge. VACUUM marks the space of dead
        tuples free for reuse and removes their index entries; the bytes stay in the
        data file until overwritten, and a dead tuple an older snapshot can still see
        (a long read in another session) is kept. PostgreSQL's own WAL segments, its
        archive and its backups still hold the old pages: erasing from those is the
        database operator's (their retention), not the client's."""
        import psycopg

        if self._current() is not None:
            return False  # VACUUM cannot run inside a transaction
        wait_ms = max(1, int(wait_seconds * 1000))  # 0 would mean waiting for ever
        try:
            with self._pool.connection() as conn:
                conn.execute(f"SET lock_timeout = {wait_ms}")
                try:
                    conn.execute("VACUUM " + ", ".join(SEALED_TABLES))
                finally:
                    conn.execute(f"SET lock_timeout = {self._lock_ms}")
        except psycopg.Error:
            return False
        return True


def _has_amcheck(conn: Any) -> bool:
    import psycopg

    with suppress(psycopg.Error):  # no privilege, or the server has no contrib modules
        conn.execute("CREATE EXTENSION IF NOT EXISTS amcheck")
    row = conn.execute(
        "SELECT 1 FROM pg_proc WHERE proname = 'verify_heapam' AND pg_function_is_visible(oid)"
    ).fetchone()
    return row is not None


def _amcheck(conn: Any) -> list[str]:
    """What ``verify_heapam`` and ``bt_index_check`` find wrong in the vault's tables."""
    import psycopg

    found = []
    for table in TABLES:
        rows = conn.execute(
            "SELECT blkno, offnum, msg FROM verify_heapam(%s::regclass, check_toast => true)",
            (table,),
        ).fetchall()
        found += [f"table {table}, page {r[0]}, item {r[1]}: {r[2]}" for r in rows]
    for (index,) in conn.execute(_INDEXES, (list(TABLES),)).fetchall():
        try:
            conn.execute("SELECT bt_index_check(%s::regclass, true)", (index,))
        except psycopg.errors.InternalError_ as exc:  # XX: index_corrupted, and the like
            found.append(f"index {index}: {reason(exc)}")
    return found


def _read_everything(conn: Any) -> list[str]:
    """Every row of every table read whole (as text: TOASTed values are fetched too)."""
    import psycopg

    found = []
    for table in TABLES:
        try:
            conn.execute(f"SELECT count(md5(r::text)) FROM {table} AS r").fetchone()
        except (psycopg.errors.InternalError_, psycopg.errors.DataException) as exc:
            found.append(f"table {table}: {reason(exc)}")
    return found
