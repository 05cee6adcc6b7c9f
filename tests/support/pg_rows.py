"""Rows of a vault's PostgreSQL database, as someone with its credentials (and no key)
reads and changes them: for the tests that tamper with a database."""

from __future__ import annotations

import psycopg

from memvault.store import PgStore, chain_range


def migrate(dsn: str, chains: int | None = None) -> None:
    """``memvault db migrate`` on ``dsn``."""
    store = PgStore(dsn)
    try:
        store.migrate_schema(chains)
    finally:
        store.close()


def rows(dsn: str, sql: str, args: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    """One statement, committed; its rows if it returns any."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        cur = conn.execute(sql, args)  # type: ignore[arg-type]
        return cur.fetchall() if cur.description else []


def chain_lines(dsn: str, chain: int) -> list[tuple[int, bytes]]:
    """(number, line) of every record of ``chain``, in order."""
    low, high = chain_range(chain)
    found = rows(
        dsn, "SELECT seq, line FROM audit_log WHERE seq > %s AND seq < %s ORDER BY seq", (low, high)
    )
    return [(int(seq), bytes(line)) for seq, line in found]  # type: ignore[call-overload]
