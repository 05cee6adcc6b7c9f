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
    ciphertexts in older WAL frames. Waits up to ``wait_seconds`` for other
    connections (another process reading an older snapshot, the store's own
    checkpoint thread at work); returns whether the log was emptied."""
    try:
        db.execute(f"PRAGMA busy_timeout = {int(wait_seconds * 1000)}")
        row = db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        return row is not None and row[0] == 0
    except sqlite3.Error:
        return False
    finally:
        with suppress(sqlite3.Error):
            db.execute(f"PRAGMA busy_timeout = {int(busy_seconds * 1000)}")
