"""The SQLite store's write-ahead log: entering WAL mode, and purging it after deletes."""

from __future__ import annotations

import random
import sqlite3
import time
from contextlib import suppress


def enter_wal(db: sqlite3.Connection, busy_seconds: float) -> str:
    """Switch a new database to WAL mode, waiting out other processes doing the same.

    The switch needs an exclusive lock, and SQLite answers "locked" at once,
    without its busy handler, when two connections would otherwise deadlock
    upgrading their locks: the first open of a fresh home by several
    processes meets exactly that, so retry for up to the busy timeout.
    """
    deadline = time.monotonic() + busy_seconds
    while True:
        try:
            return str(db.execute("PRAGMA journal_mode = WAL").fetchone()[0])
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.005 + random.random() * 0.02)  # noqa: S311 - jitter, not a secret


def purge_wal(db: sqlite3.Connection, busy_seconds: float, wait_seconds: float = 0.0) -> bool:
    """After a commit that deleted memories: copy the WAL into the database (where
    ``secure_delete`` zeroed the freed pages) and truncate it, so that no copy of
    the files taken later, even while the vault is open, holds the deleted
    ciphertexts in older WAL frames. Returns whether the log was emptied.

    Other connections can keep it from completing: a writer, a reader of an older
    snapshot, another checkpoint under way (the store's own thread's). It is tried
    again every :data:`_PURGE_RETRY_SECONDS` for up to ``wait_seconds``: polled
    finely, it finds the gaps between another process's short transactions, which
    SQLite's busy handler (sleeping up to 100 ms between tries) would mostly miss."""
    deadline = time.monotonic() + wait_seconds
    try:
        db.execute("PRAGMA busy_timeout = 0")
        while True:
            if _truncate(db):
                return True
            if time.monotonic() >= deadline:
                return False
            time.sleep(_PURGE_RETRY_SECONDS)
    except sqlite3.Error:
        return False
    finally:
        with suppress(sqlite3.Error):
            db.execute(f"PRAGMA busy_timeout = {int(busy_seconds * 1000)}")


_PURGE_RETRY_SECONDS = 0.0005


def _truncate(db: sqlite3.Connection) -> bool:
    try:
        row = db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    except sqlite3.Error:
        return False
    return row is not None and row[0] == 0
