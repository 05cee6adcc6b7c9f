"""WAL checkpoints off the command path: a thread of the store's own that takes them.

A checkpoint copies the write-ahead log into the database and, in ``TRUNCATE`` mode,
empties the log: this is how a deleted ciphertext leaves the files (``secure_delete``
has zeroed its pages, but older WAL frames still hold it) and how the log stops
growing. Taken inside a command it cost that command 5-10 ms (with ``full``
durability, two fsyncs) and made the p99 of delete many times its median; so a
:class:`Checkpointer` does it on a connection of its own:

* after a commit that deleted something: at the first moment no command of this
  store has run for :data:`IDLE_SECONDS`, and at the latest :data:`PURGE_SECONDS`
  after the delete (commands then wait the few milliseconds it takes, once);
* when the log has grown past :data:`WAL_LIMIT_BYTES`: the same, within
  :data:`GROWTH_SECONDS`.

A checkpoint never waits for another connection: while one reads an older snapshot,
or writes, it is tried again shortly. When writes come back to back, with no moment
free of them, the thread may not get one in: then SQLite's own checkpoint, kept as a
backstop, runs on the commit that takes the WAL past :data:`BACKSTOP_PAGES` pages
(about once every 16 MiB written), and the log starts over.

When the process dies between a delete and its checkpoint, the next open of the
vault takes it. Closing the store stops the thread and leaves the last checkpoint
to SQLite's close, as before.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from contextlib import suppress
from pathlib import Path

# No command for this long: the store is idle. An agent's commands come seconds apart
# (the model thinks in between); commands closer than this are a burst, which a
# checkpoint (it holds writers off, and with `full` durability syncs twice) would
# stall. Measured in bench_commands' cycle of writes: 3 ms put a checkpoint on nearly
# every cycle and write p99s at 3.5-4.3x their medians; 20 ms, at 1.9-3.2x.
IDLE_SECONDS = 0.02
PURGE_SECONDS = 1.0  # a deleted ciphertext stays in the WAL at most about this long
GROWTH_SECONDS = 1.0
WAL_LIMIT_BYTES = 4 << 20  # SQLite's own default: 1,000 pages of 4 KiB
BACKSTOP_PAGES = 4096  # 16 MiB: past this, the committing connection checkpoints itself
RETRY_SECONDS = 0.01  # after a checkpoint another connection kept from completing
_GROWTH_CHECK_COMMITS = 64  # commits between two looks at the WAL's size


class Checkpointer:
    """The thread that checkpoints one store's WAL (see the module's docstring)."""

    def __init__(self, path: Path, synchronous: str) -> None:
        self._path = path
        self._wal = path.with_name(path.name + "-wal")
        self._synchronous = synchronous
        self._cond = threading.Condition()
        self._last = 0.0  # when a command last ended
        self._purge_since: float | None = None  # the first delete not yet checkpointed
        self._grown_since: float | None = None
        self._deletes = 0  # how many deleting commits so far
        self._commits = 0
        self._stopped = False
        self._thread: threading.Thread | None = None

    def committed(self, *, deleted: bool) -> None:
        """A command of the store ended (``deleted``: a write that deleted something)."""
        with self._cond:
            now = time.monotonic()
            self._last = now
            self._commits += 1
            wake = False
            if deleted:
                self._deletes += 1
                if self._purge_since is None:
                    self._purge_since = now
                    wake = True
            if self._commits % _GROWTH_CHECK_COMMITS == 0 and self._grown_since is None:
                wake = True  # the thread looks at the WAL's size
            if wake:
                self._start()
                self._cond.notify()

    def close(self) -> None:
        """Stop the thread (a checkpoint under way finishes first)."""
        with self._cond:
            self._stopped = True
            self._cond.notify()
            thread = self._thread
        if thread is not None:
            thread.join()

    def _start(self) -> None:
        if self._thread is None and not self._stopped:
            self._thread = threading.Thread(
                target=self._run, name="memvault-checkpoint", daemon=True
            )
            self._thread.start()

    # -- the thread ---------------------------------------------------------------------

    def _run(self) -> None:
        db: sqlite3.Connection | None = None
        try:
            while True:
                deletes = self._wait_until_due()
                if deletes is None:
                    return
                if db is None:
                    db = self._connect()
                if _checkpoint(db):
                    with self._cond:
                        if self._deletes == deletes:
                            self._purge_since = None
                        self._grown_since = None
                else:
                    with self._cond:
                        self._cond.wait(RETRY_SECONDS)
        finally:
            if db is not None:
                with suppress(sqlite3.Error):
                    db.close()

    def _wait_until_due(self) -> int | None:
        """Block until a checkpoint is due and the store idle (or its deadline passed);
        returns the delete count it covers, or None once stopped."""
        with self._cond:
            while not self._stopped:
                now = time.monotonic()
                if self._grown_since is None and self._wal_too_big():
                    self._grown_since = now
                deadlines = []
                if self._purge_since is not None:
                    deadlines.append(self._purge_since + PURGE_SECONDS)
                if self._grown_since is not None:
                    deadlines.append(self._grown_since + GROWTH_SECONDS)
                if not deadlines:
                    self._cond.wait()
                    continue
                idle_at = self._last + IDLE_SECONDS
                if now >= idle_at or now >= min(deadlines):
                    return self._deletes
                self._cond.wait(min(idle_at, min(deadlines)) - now)
            return None

    def _wal_too_big(self) -> bool:
        try:
            return os.stat(self._wal).st_size > WAL_LIMIT_BYTES
        except OSError:
            return False

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self._path, isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA busy_timeout = 0")
        db.execute(f"PRAGMA synchronous = {self._synchronous}")
        return db


def _checkpoint(db: sqlite3.Connection) -> bool:
    """One checkpoint, not waiting for anyone; True if it emptied the log. A ``PASSIVE``
    pass first copies what it can while commands go on writing; the ``TRUNCATE`` that
    follows, which holds writers off while it runs, then has little left to copy."""
    try:
        db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        row = db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    except sqlite3.Error:
        return False
    return row is not None and row[0] == 0
