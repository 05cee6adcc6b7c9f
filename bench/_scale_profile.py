"""``bench_commands.py --scale --profile``: where a command's time goes as the vault grows.

A diagnosis pass after the timed ones, on the same vaults and the same commands (the
sizes again in a shuffled order at every iteration). Per command and size it takes
the medians of:

* the wall time of the call;
* the time inside SQLite: every ``execute`` and fetch of the vault's connection
  (``BEGIN``, the statements, ``COMMIT`` with its fsync), timed by a proxy put in
  the place of the store's connection (in the bench only), and their count;
* SQLite's page requests on that connection, ``sqlite3_db_status`` cache hits and
  misses (read through ctypes): a deeper b-tree asks for more pages per look-up,
  a miss is a page read from the OS (its page cache, here) into SQLite's own.

"first view after open" is the view an open is timed with, in its fresh vault:
its connection starts with an empty page cache. The depth of each b-tree (pages
from the root to a leaf) is read from the database file.

The proxy adds a little to each statement, so the wall times here run above the
timed passes'; compare sizes with each other, not with the tables above.
"""

from __future__ import annotations

import ctypes
import gc
import random
import sqlite3
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from _scale_build import MEASURED_USER, NOTES_PER_TOPIC, TOPICS, note_path
from bench_commands import Mode

from memvault import Vault

_CACHE_HIT, _CACHE_MISS = 7, 8  # SQLITE_DBSTATUS_CACHE_HIT, SQLITE_DBSTATUS_CACHE_MISS
FIRST_VIEW = "first view after open"
TREES = ("nodes", "sqlite_autoindex_nodes_1", "nodes_by_user", "contents")


class PageCounter:
    """SQLite's page cache hits and misses on one ``sqlite3.Connection`` since the last
    :meth:`take`, through ``sqlite3_db_status``. CPython's connection object holds the
    ``sqlite3 *`` right after its object header; it is checked against the file name."""

    def __init__(self, connection: sqlite3.Connection, path: Path) -> None:
        lib = ctypes.CDLL("libsqlite3.so.0")
        lib.sqlite3_db_filename.restype = ctypes.c_char_p
        lib.sqlite3_db_filename.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
        lib.sqlite3_db_status.argtypes = [ctypes.c_void_p, ctypes.c_int]
        lib.sqlite3_db_status.argtypes += [ctypes.POINTER(ctypes.c_int)] * 2 + [ctypes.c_int]
        self._lib = lib
        self._handle = ctypes.c_void_p.from_address(id(connection) + object.__basicsize__).value
        name = lib.sqlite3_db_filename(self._handle, b"main")
        if name is None or Path(name.decode()).resolve() != path.resolve():
            raise RuntimeError("could not reach the sqlite3 handle of the vault's connection")
        self.take()

    def _status(self, op: int) -> int:
        current, high = ctypes.c_int(), ctypes.c_int()
        self._lib.sqlite3_db_status(self._handle, op, ctypes.byref(current), ctypes.byref(high), 1)
        return current.value

    def take(self) -> tuple[int, int]:
        """(hits, misses) since the last call."""
        return self._status(_CACHE_HIT), self._status(_CACHE_MISS)


class _TimedCursor:
    def __init__(self, cursor: sqlite3.Cursor, owner: TimedDb) -> None:
        self._cursor = cursor
        self._owner = owner

    def fetchall(self) -> list[Any]:
        start = time.perf_counter_ns()
        try:
            return self._cursor.fetchall()
        finally:
            self._owner.ns += time.perf_counter_ns() - start

    def __getattr__(self, name: str) -> Any:
        return getattr(self._cursor, name)


class TimedDb:
    """Stands in for the store's ``sqlite3.Connection``: the time spent in SQLite."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        self.ns = 0
        self.statements = 0

    def execute(self, sql: str, args: Any = ()) -> _TimedCursor:
        start = time.perf_counter_ns()
        try:
            return _TimedCursor(self.db.execute(sql, args), self)
        finally:
            self.ns += time.perf_counter_ns() - start
            self.statements += 1

    def executemany(self, sql: str, args: Any) -> sqlite3.Cursor:
        start = time.perf_counter_ns()
        try:
            return self.db.executemany(sql, args)
        finally:
            self.ns += time.perf_counter_ns() - start
            self.statements += 1

    def __getattr__(self, name: str) -> Any:
        return getattr(self.db, name)


@dataclass
class Probe:
    """One instrumented vault: its connection timed, its page cache counted."""

    db: TimedDb
    pages: PageCounter

    @classmethod
    def attach(cls, vault: Vault) -> Probe:
        store: Any = vault._store
        timed = TimedDb(store._db)
        store._db = timed
        return cls(timed, PageCounter(timed.db, store.path))

    def reset(self) -> None:
        self.db.ns = self.db.statements = 0
        self.pages.take()

    def sample(self, wall: int) -> tuple[int, int, int, int, int]:
        hits, misses = self.pages.take()
        return wall, self.db.ns, self.db.statements, hits + misses, misses


@dataclass
class Profile:
    # label -> size -> samples of (wall ns, sql ns, statements, page requests, misses)
    rows: dict[str, dict[int, list[tuple[int, int, int, int, int]]]] = field(default_factory=dict)

    def add(self, label: str, size: int, sample: tuple[int, int, int, int, int]) -> None:
        self.rows.setdefault(label, {}).setdefault(size, []).append(sample)


Steps = Callable[[int], list[tuple[str, dict[str, Any]]]]


def profile_mode(
    mode: Mode,
    homes: dict[int, Path],
    steps: Steps,
    iterations: int,
    rng: random.Random,
    first: int,
) -> Profile:
    out = Profile()
    vaults = {size: Vault.open(home, durability=mode) for size, home in homes.items()}
    try:
        tools = {size: vault.memory_tool(user=MEASURED_USER) for size, vault in vaults.items()}
        probes = {size: Probe.attach(vault) for size, vault in vaults.items()}
        sizes = list(homes)
        gc.collect()
        gc.disable()
        try:
            for i in range(first, first + iterations):
                order = sizes[:]
                rng.shuffle(order)
                for size in order:
                    _first_view(out, homes[size], size, mode, i)
                for label, command in steps(i):
                    for size in order:
                        probe = probes[size]
                        probe.reset()
                        start = time.perf_counter_ns()
                        tools[size].call(command)
                        out.add(label, size, probe.sample(time.perf_counter_ns() - start))
                gc.collect(generation=0)
        finally:
            gc.enable()
    finally:
        for vault in vaults.values():
            vault.close()
    return out


def _first_view(out: Profile, home: Path, size: int, mode: Mode, i: int) -> None:
    command = {"command": "view", "path": note_path(i % TOPICS, (i * 3) % NOTES_PER_TOPIC)}
    vault = Vault.open(home, durability=mode)
    try:
        tool = vault.memory_tool(user=MEASURED_USER)
        probe = Probe.attach(vault)
        probe.reset()
        start = time.perf_counter_ns()
        tool.call(command)
        out.add(FIRST_VIEW, size, probe.sample(time.perf_counter_ns() - start))
    finally:
        vault.close()


def btree_depths(db_path: Path) -> dict[str, int]:
    """Pages from the root to a leaf of each b-tree in TREES (the rightmost path), read
    from the file after a checkpoint; the vault must not be open elsewhere."""
    with sqlite3.connect(db_path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page_size = db.execute("PRAGMA page_size").fetchone()[0]
        roots = dict(db.execute("SELECT name, rootpage FROM sqlite_schema WHERE rootpage > 0"))
    depths = {}
    with open(db_path, "rb") as handle:
        for name in TREES:
            page, depth = roots[name], 1
            while True:
                handle.seek((page - 1) * page_size)
                data = handle.read(page_size)
                head = 100 if page == 1 else 0
                if data[head] in (0x0A, 0x0D):  # a leaf of an index, of a table
                    break
                page = int.from_bytes(data[head + 8 : head + 12], "big")  # rightmost child
                depth += 1
            depths[name] = depth
    return depths


def print_profile(mode: Mode, profile: Profile, sizes: list[int]) -> None:
    print(f"\ndiagnosis, durability={mode!r} (medians per command; wall times include the probe)")
    header = (
        f"{'command':<26}{'memories':>11}{'wall µs':>10}{'SQLite µs':>11}{'share':>7}"
        f"{'statements':>12}{'pages':>7}{'misses':>8}"
    )
    print(header)
    print("-" * len(header))
    for label, by_size in profile.rows.items():
        for size in sizes:
            samples = by_size[size]
            wall, sql, statements, pages, misses = (
                statistics.median(column) for column in zip(*samples, strict=True)
            )
            print(
                f"{label if size == sizes[0] else '':<26}{size:>11,}{wall / 1000:>10.1f}"
                f"{sql / 1000:>11.1f}{sql / wall if wall else 0:>7.0%}{statements:>12.0f}"
                f"{pages:>7.0f}{misses:>8.0f}"
            )
    print(
        "pages: SQLite's page requests on the connection (cache hits + misses); misses: "
        "pages read from the OS"
    )


def raw_profile(profile: Profile) -> dict[str, Any]:
    keys = ("wall_ns", "sqlite_ns", "statements", "pages", "misses")
    return {
        label: {
            str(size): [dict(zip(keys, sample, strict=True)) for sample in samples]
            for size, samples in by_size.items()
        }
        for label, by_size in profile.rows.items()
    }
