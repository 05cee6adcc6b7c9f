"""Key rotation: how fast it re-seals, and what it costs an agent working meanwhile.

Run by hand; it prints figures and asserts nothing about them::

    .venv/bin/python bench/bench_lifecycle.py [--quick] [--memories N] [--json FILE]
        [--dir DIR] [--rotation-only] [--think MS] [--iterations N]
        [--batch N,...] [--pause MS,...] [--retry US,...] [--index]

In a fresh temporary directory (deleted at the end, with the key directory and
the master key it sets for itself) it builds a vault with one user holding
10,000 notes of 2 KB (``--memories``; ``--quick``: 1,000) and a second user
holding 100, then measures:

1. the throughput of ``Vault.rotate_user_key`` on the first user, in durability
   ``full`` and ``normal``, several rounds in a shuffled order; and, on a vault
   of its own with 100 users, ``Vault.rotate_master_key``;
2. the latency of an agent's commands (``view``, ``create``, ``str_replace``,
   ``delete``, for both users), timed in a second process on the same vault, in
   phases without a rotation ("idle") and with one running in this process
   ("busy"), the two kinds of phase in a shuffled order; and, for diagnosis,
   how much of each write command was spent waiting for the store's write lock.

The trade-off options change the bench's rotations and its agent, never
memvault: ``--batch`` patches ``BATCH_NODES`` (the most nodes a rotation
re-seals per store transaction), ``--pause`` sleeps between two batches,
``--retry`` has the agent poll the write lock instead of SQLite's busy handler,
``--index`` adds an index on ``nodes(user_id)`` to a copy of the vault. Each
combination asked for is measured after the shipped setting, and a last table
sets rotation throughput against the agent's worst busy/idle ratios.
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import json
import math
import multiprocessing
import os
import random
import shutil
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from functools import partial
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, Literal, TypeVar

from anthropic.lib.tools import ToolError  # what MemoryTool.call raises for an error reply
from bench_commands import (
    CREATE,
    DELETE,
    NOTE_BYTES,
    STR_REPLACE,
    VIEW_FILE,
    environment,
    isolated_environment,
    note_text,
    summarize,
    sync_latency,
)

import memvault._vault
import memvault.lifecycle._rotate
from memvault import Vault

ROTATED = "rotated-user"  # the user whose data key is rotated
OTHER = "other-user"  # another user of the same vault, never rotated
USERS = (ROTATED, OTHER)
TOPICS = 100  # the rotated user's notes are spread over this many directories
OTHER_NOTES = 100
COMMANDS = (VIEW_FILE, CREATE, STR_REPLACE, DELETE)
TARGET_RATE = 5_000  # notes of 2 KB re-sealed per second
TARGET_RATIO = 2.0  # agent latency busy / idle, median and p99

Mode = Literal["full", "normal"]
MODES: tuple[Mode, ...] = ("full", "normal")
IDLE, BUSY = "idle", "busy"


@dataclass(frozen=True)
class Plan:
    memories: int  # notes of the rotated user
    rounds: int  # timed rotations per durability mode
    master_users: int
    master_notes: int  # per user of the master-key vault
    master_rounds: int
    pairs: int  # idle/busy phase pairs per durability mode
    iterations: int  # agent iterations per phase
    warmup: int  # agent iterations before the first phase, dropped
    sync_probes: int


FULL = Plan(
    memories=10_000,
    rounds=3,
    master_users=100,
    master_notes=10,
    master_rounds=3,
    pairs=4,
    iterations=40,
    warmup=10,
    sync_probes=300,
)
QUICK = Plan(
    memories=1_000,
    rounds=1,
    master_users=20,
    master_notes=5,
    master_rounds=1,
    pairs=2,
    iterations=8,
    warmup=3,
    sync_probes=50,
)


# -- the vaults --------------------------------------------------------------------------


def note_path(n: int) -> str:
    return f"/memories/topic-{n % TOPICS:03d}/note-{n:05d}.md"


def create(path: str, text: str) -> dict[str, Any]:
    return {"command": "create", "path": path, "file_text": text}


def fill(vault: Vault, user: str, notes: int, seed: int) -> None:
    runner = vault.runner(user)
    for n in range(notes):
        reply = runner.run(create(note_path(n), note_text(seed + n)))
        if reply.is_error:
            raise SystemExit(f"building the vault: {user}'s note {n} refused: {reply.content}")


def build_rotation_vault(home: Path, memories: int) -> None:
    # "normal" only to build faster; each measurement reopens the vault in its own mode.
    with Vault.open(home, durability="normal") as vault:
        fill(vault, ROTATED, memories, 0)
        fill(vault, OTHER, OTHER_NOTES, 1_000_000)


def open_master_vault(home: Path, key_file: Path, mode: Mode) -> Vault:
    # A key file of its own: a master-key rotation writes the next key there.
    return Vault.open(home, key_provider="file", master_key_file=key_file, durability=mode)


def build_master_vault(home: Path, key_file: Path, plan: Plan) -> None:
    with open_master_vault(home, key_file, "normal") as vault:
        for u in range(plan.master_users):
            fill(vault, f"user-{u:03d}", plan.master_notes, u * 1000)


# -- 1. throughput -----------------------------------------------------------------------


class BatchClock:
    """A rotation's progress callback: it keeps each batch's span and, with ``pause_ms``,
    sleeps that long between two batches (outside any transaction).

    It is called as each batch's transaction ends, so from one call (after its
    pause) to the next is one batch: about how long that batch held the store's
    write lock. The first span of a rotation also covers its start transaction,
    and between two rotations the finish of the first and the start of the next."""

    def __init__(self, pause_ms: float = 0.0) -> None:
        self.spans_ms: list[float] = []
        self.pause = pause_ms / 1000
        self.last = time.perf_counter()

    def __call__(self, memories: int, size: int) -> None:
        self.spans_ms.append((time.perf_counter() - self.last) * 1000)
        if self.pause:
            time.sleep(self.pause)
        self.last = time.perf_counter()


@dataclass(frozen=True)
class Tuning:
    """What differs from memvault as shipped, in the bench only: the rotation's
    ``BATCH_NODES`` (None: as shipped); a pause between its batches; how the agent
    waits for the write lock (0: through SQLite's busy handler, as shipped; else a
    retry every ``retry_us`` microseconds); whether the vault's database has an
    index on ``nodes(user_id)`` (on a copy of the vault made for it)."""

    batch_nodes: int | None = None
    pause_ms: float = 0.0
    retry_us: float = 0.0
    index: bool = False

    def label(self) -> str:
        nodes = self.batch_nodes or memvault.lifecycle._rotate.BATCH_NODES
        parts = [f"batch {nodes}{' (shipped)' if self.batch_nodes is None else ''}"]
        if self.pause_ms:
            parts.append(f"pause {self.pause_ms:g} ms")
        if self.retry_us:
            parts.append(f"retry {self.retry_us:g} µs")
        if self.index:
            parts.append("index")
        return ", ".join(parts)


@dataclass
class RotationRun:
    mode: Mode
    seconds: float
    nodes: int  # memories re-sealed: notes and their directories
    bytes: int  # text re-sealed
    batches_ms: list[float]


def time_rotation(home: Path, mode: Mode, tuning: Tuning) -> RotationRun:
    with Vault.open(home, durability=mode) as vault:
        clock = BatchClock(tuning.pause_ms)
        start = clock.last = time.perf_counter()
        rotation = vault.rotate_user_key(ROTATED, clock)
        seconds = time.perf_counter() - start
    return RotationRun(mode, seconds, rotation.memories, rotation.bytes, clock.spans_ms)


def measure_throughput(
    home: Path, rounds: int, tuning: Tuning, rng: random.Random
) -> list[RotationRun]:
    runs: list[RotationRun] = []
    for _ in range(rounds):
        order = list(MODES)
        rng.shuffle(order)
        runs.extend(time_rotation(home, mode, tuning) for mode in order)
    return runs


@dataclass
class MasterRun:
    mode: Mode
    seconds: float
    users: int


def measure_master(home: Path, key_file: Path, rounds: int, rng: random.Random) -> list[MasterRun]:
    runs = []
    for _ in range(rounds):
        order = list(MODES)
        rng.shuffle(order)
        for mode in order:
            with open_master_vault(home, key_file, mode) as vault:
                start = time.perf_counter()
                result = vault.rotate_master_key()
                runs.append(MasterRun(mode, time.perf_counter() - start, result.users))
    return runs


# -- 2. the agent ------------------------------------------------------------------------

Samples = dict[str, dict[str, list[int]]]  # user -> command -> nanoseconds


def no_samples() -> Samples:
    return {user: {command: [] for command in COMMANDS} for user in USERS}


@dataclass
class AgentReply:
    samples: Samples  # each call
    waits: Samples  # the part of each call spent waiting for the store's write lock
    purges: Samples  # the part spent in the WAL checkpoint that follows a delete
    errors: dict[str, int]  # "user command: error" -> count
    seconds: float


@dataclass
class Phase:
    kind: str
    reply: AgentReply
    rotations: int = 0  # finished while the agent ran
    batches_ms: list[float] = field(default_factory=list)


def agent_steps(i: int, memories: int, tag: str) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """One iteration for each user: view an existing 2 KB note, then a new note's life."""
    users = USERS if i % 2 == 0 else USERS[::-1]
    for user in users:
        existing = note_path(i * 37 % (memories if user == ROTATED else OTHER_NOTES))
        new = f"/memories/agent/{tag}-{i}.md"
        yield user, VIEW_FILE, {"command": "view", "path": existing}
        yield user, CREATE, create(new, note_text(i))
        yield (
            user,
            STR_REPLACE,
            {"command": "str_replace", "path": new, "old_str": "status: draft", "new_str": "ok"},
        )
        yield user, DELETE, {"command": "delete", "path": new}


class TimedBegin:
    """The agent's store connection, for diagnosis: the time of any WAL checkpoint run
    on it (the store's checkpoint thread has a connection of its own, so a command
    should run none). Its waits for the write lock are timed around the store's
    ``_begin_write``, which polls the lock (agent_main). Everything else is passed on.

    With ``retry_us``, the handler is replaced for that statement by a retry every
    ``retry_us`` microseconds (up to the store's busy timeout): what the agent's
    waits would be if the store polled the lock that often instead of SQLite's
    schedule (sleeps of 1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50 ms, then 100 ms)."""

    def __init__(self, db: sqlite3.Connection, retry_us: float) -> None:
        self._db = db
        self.waited_ns = 0
        self.purged_ns = 0
        self.retry = retry_us / 1e6

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
        if sql.startswith("PRAGMA wal_checkpoint"):
            start = time.perf_counter_ns()
            try:
                return self._db.execute(sql, *args)
            finally:
                self.purged_ns += time.perf_counter_ns() - start
        if sql != "BEGIN IMMEDIATE" or not self.retry:
            return self._db.execute(sql, *args)  # the store's own wait is timed around it
        return self._retrying(sql)

    def _retrying(self, sql: str) -> sqlite3.Cursor:
        timeout_ms = self._db.execute("PRAGMA busy_timeout").fetchone()[0]
        deadline = time.monotonic() + timeout_ms / 1000
        self._db.execute("PRAGMA busy_timeout = 0")
        try:
            while True:
                try:
                    return self._db.execute(sql)
                except sqlite3.OperationalError as exc:
                    if "locked" not in str(exc) or time.monotonic() > deadline:
                        raise
                time.sleep(self.retry)
        finally:
            self._db.execute(f"PRAGMA busy_timeout = {timeout_ms}")

    def __getattr__(self, name: str) -> Any:
        return getattr(self._db, name)


def agent_main(
    conn: Connection, home: str, mode: Mode, memories: int, think_ms: float, retry_us: float
) -> None:
    """The second process: one agent on the vault, running iterations when asked.

    Each call is timed, and apart the part of it spent waiting for the store's
    write lock. With ``think_ms``, the agent sleeps between two calls (outside the
    timing) for a random time of that mean, as a model thinks between tool calls.
    The collector stays off while timing and runs between iterations."""
    think = random.Random()
    with Vault.open(home, durability=mode) as vault:
        store: Any = vault._store  # the bench times the agent's own connection
        timed = store._db = TimedBegin(store._db, retry_us)
        real_begin = store._begin_write

        def begin_write() -> None:  # the whole wait for the lock, the store's polling too
            start = time.perf_counter_ns()
            try:
                real_begin()
            finally:
                timed.waited_ns += time.perf_counter_ns() - start

        store._begin_write = begin_write
        tools = {user: vault.memory_tool(user) for user in USERS}
        while (message := conn.recv()) is not None:
            first, count, tag = message
            reply = AgentReply(no_samples(), no_samples(), no_samples(), {}, 0.0)
            started = time.perf_counter()
            gc.collect()
            gc.disable()
            try:
                for i in range(first, first + count):
                    for user, name, command in agent_steps(i, memories, tag):
                        timed.waited_ns = timed.purged_ns = 0
                        start = time.perf_counter_ns()
                        try:
                            tools[user].call(command)
                        except ToolError as exc:
                            key = f"{user} {name}: {str(exc)[:80]}"
                            reply.errors[key] = reply.errors.get(key, 0) + 1
                            continue
                        reply.samples[user][name].append(time.perf_counter_ns() - start)
                        reply.waits[user][name].append(timed.waited_ns)
                        reply.purges[user][name].append(timed.purged_ns)
                        if think_ms:
                            time.sleep(think.uniform(0, 2 * think_ms) / 1000)
                    gc.collect(generation=0)
            finally:
                gc.enable()
            reply.seconds = time.perf_counter() - started
            conn.send(reply)


T = TypeVar("T")


def while_rotating(
    vault: Vault, tuning: Tuning, work: Callable[[], T]
) -> tuple[T, int, list[float]]:
    """``work()`` while a thread rotates the user's data key again and again: it starts
    once the first batch is done and the rotations stop once it returns. Returns its
    result, the rotations finished, and every batch's span (ms)."""
    stop, going = threading.Event(), threading.Event()
    rotations = [0]
    failed: list[BaseException] = []
    clock = BatchClock(tuning.pause_ms)

    def on_batch(memories: int, size: int) -> None:
        clock(memories, size)
        going.set()

    def rotate() -> None:
        try:
            while not stop.is_set():
                vault.rotate_user_key(ROTATED, on_batch)
                rotations[0] += 1
        except BaseException as exc:
            failed.append(exc)
            going.set()

    thread = threading.Thread(target=rotate, name="rotation")
    thread.start()
    going.wait()
    try:
        result = work()
    finally:
        stop.set()
        thread.join()
    if failed:
        raise failed[0]
    return result, rotations[0], clock.spans_ms


def measure_agent(
    home: Path,
    mode: Mode,
    plan: Plan,
    memories: int,
    tuning: Tuning,
    rng: random.Random,
    think_ms: float,
) -> list[Phase]:
    """The agent's phases, idle and busy in a shuffled order within each pair."""
    context = multiprocessing.get_context("spawn")
    ours, theirs = context.Pipe()
    agent = context.Process(
        target=agent_main,
        args=(theirs, str(home), mode, memories, think_ms, tuning.retry_us),
    )
    agent.start()
    tag = "-".join(map(str, (mode, *asdict(tuning).values())))  # new notes named apart
    phases: list[Phase] = []

    def ask(first: int) -> AgentReply:
        ours.send((first, plan.iterations, tag))
        reply: AgentReply = ours.recv()
        return reply

    try:
        with Vault.open(home, durability=mode) as vault:
            ours.send((-plan.warmup, plan.warmup, tag))
            ours.recv()
            kinds = []
            for _ in range(plan.pairs):
                pair = [IDLE, BUSY]
                rng.shuffle(pair)
                kinds.extend(pair)
            for n, kind in enumerate(kinds):
                first = n * plan.iterations
                if kind == IDLE:
                    phases.append(Phase(kind, ask(first)))
                else:
                    reply, rotations, spans = while_rotating(vault, tuning, partial(ask, first))
                    phases.append(Phase(kind, reply, rotations, spans))
        ours.send(None)
    finally:
        agent.join(timeout=60)
        if agent.is_alive():
            agent.terminate()
    if agent.exitcode != 0:
        raise RuntimeError(f"the agent process failed (exit code {agent.exitcode})")
    return phases


def pooled(
    phases: list[Phase], kind: str, user: str, command: str, part: str = "samples"
) -> list[int]:
    """The ``part`` (samples, waits or purges) of every phase of ``kind``, pooled."""
    return [ns for p in phases if p.kind == kind for ns in getattr(p.reply, part)[user][command]]


# -- reporting ---------------------------------------------------------------------------


def span_summary(spans: Sequence[float]) -> str:
    if not spans:
        return "no batch timed"
    ordered = sorted(spans)
    p99 = ordered[max(0, -(-99 * len(ordered) // 100) - 1)]
    return (
        f"{len(ordered)} batches: median {statistics.median(ordered):.1f} ms, "
        f"p99 {p99:.1f} ms, max {ordered[-1]:.1f} ms"
    )


def print_throughput(runs: list[RotationRun], notes: int) -> dict[str, Any]:
    print(f"\n1. rotate_user_key, {notes:,} notes of {NOTE_BYTES:,} B (median of rounds)")
    header = f"{'durability':<12}{'seconds':>9}{'notes/s':>10}{'nodes/s':>10}{'MB/s':>8}  target"
    print(header)
    print("-" * (len(header) + 18))
    figures: dict[str, Any] = {}
    for mode in MODES:
        mine = [r for r in runs if r.mode == mode]
        seconds = statistics.median(r.seconds for r in mine)
        rate = notes / seconds
        verdict = "OK" if rate >= TARGET_RATE else "UNDER"
        print(
            f"{mode:<12}{seconds:>9.2f}{rate:>10,.0f}{mine[0].nodes / seconds:>10,.0f}"
            f"{mine[0].bytes / 1e6 / seconds:>8.1f}  >= {TARGET_RATE:,} notes/s  {verdict}"
        )
        spans = [s for r in mine for s in r.batches_ms]
        rounds = ", ".join(f"{r.seconds:.2f}" for r in mine)
        print(f"{'':<12}rounds {rounds} s; {span_summary(spans)}")
        figures[mode] = {
            "median_seconds": seconds,
            "notes_per_s": rate,
            "runs": [asdict(r) for r in mine],
        }
    print(
        "notes/s = the user's notes / seconds; nodes also counts their directories (each is "
        "re-sealed too); MB = 10^6 bytes of text"
    )
    return figures


def print_master(runs: list[MasterRun], users: int) -> dict[str, Any]:
    print(f"\n   rotate_master_key, {users} users (median of rounds)")
    figures: dict[str, Any] = {}
    for mode in MODES:
        seconds = [r.seconds for r in runs if r.mode == mode]
        median = statistics.median(seconds)
        rounds = ", ".join(f"{s:.3f}" for s in seconds)
        print(f"{mode:<12}{median:>9.3f} s  ({users / median:,.0f} users/s; rounds {rounds} s)")
        figures[mode] = {"median_seconds": median, "seconds": seconds}
    return figures


def ratio(busy: float, idle: float) -> float:
    return busy / idle if idle else math.inf


@dataclass
class Verdict:
    """The worst busy/idle ratios of one agent measurement, for the trade-off table."""

    median_ratio: float = 0.0
    p99_ratio: float = 0.0
    p99_ms: float = 0.0  # the largest busy p99 of any command
    wait_max_ms: float = 0.0  # the longest wait for the write lock while busy


def print_agent(mode: Mode, phases: list[Phase]) -> tuple[dict[str, Any], Verdict]:
    busy = [p for p in phases if p.kind == BUSY]
    spans = [s for p in busy for s in p.batches_ms]
    order = " ".join(p.kind for p in phases)
    print(f"\n2. agent latency, durability={mode!r}; phases in order: {order}")
    print(
        f"   busy phases: {sum(p.rotations for p in busy)} rotations finished in "
        f"{sum(p.reply.seconds for p in busy):.1f} s; rotation {span_summary(spans)}"
    )
    header = (
        f"{'user':<14}{'command':<13}{'idle med':>9}{'busy med':>9}{'ratio':>7}"
        f"{'idle p99':>10}{'busy p99':>10}{'ratio':>7}{'n idle/busy':>13}  <= {TARGET_RATIO:.0f}x"
    )
    print(header)
    print("-" * len(header))
    figures: dict[str, Any] = {}
    verdict = Verdict()
    for user in USERS:
        for command in COMMANDS:
            idle_ns, busy_ns = (
                pooled(phases, IDLE, user, command),
                pooled(phases, BUSY, user, command),
            )
            if not idle_ns or not busy_ns:
                print(f"{user:<14}{command:<13}  (no samples)")
                continue
            i, b = summarize(idle_ns), summarize(busy_ns)
            med, p99 = ratio(b.median_us, i.median_us), ratio(b.p99_us, i.p99_us)
            verdict.median_ratio = max(verdict.median_ratio, med)
            verdict.p99_ratio = max(verdict.p99_ratio, p99)
            verdict.p99_ms = max(verdict.p99_ms, b.p99_us / 1000)
            print(
                f"{user:<14}{command:<13}{i.median_us / 1000:>9.2f}{b.median_us / 1000:>9.2f}"
                f"{med:>7.2f}{i.p99_us / 1000:>10.2f}{b.p99_us / 1000:>10.2f}{p99:>7.2f}"
                f"{f'{i.count}/{b.count}':>13}  {'OK' if max(med, p99) <= TARGET_RATIO else 'OVER'}"
            )
            figures[f"{user} {command}"] = {
                IDLE: {**asdict(i), "samples_ns": idle_ns},
                BUSY: {**asdict(b), "samples_ns": busy_ns},
                "busy_lock_waits_ns": pooled(phases, BUSY, user, command, "waits"),
                "busy_wal_checkpoint_ns": pooled(phases, BUSY, user, command, "purges"),
                "median_ratio": med,
                "p99_ratio": p99,
            }
    print("times in milliseconds; ratio = busy / idle; the target applies to both ratios")
    verdict.wait_max_ms = print_waits(phases, spans)
    errors: dict[str, int] = {}
    for p in phases:
        for key, count in p.reply.errors.items():
            errors[f"{p.kind} {key}"] = errors.get(f"{p.kind} {key}", 0) + count
    for key, count in sorted(errors.items()):
        print(f"   error x{count}: {key}")
    figures = {"order": order, "batches_ms": spans, "commands": figures, "errors": errors}
    return figures, verdict


def print_waits(phases: list[Phase], spans: list[float]) -> float:
    """Where the busy time goes: each write command's wait for the store's write lock
    (in ``BEGIN IMMEDIATE``), against the rotation's batches. Returns the longest wait."""
    batch = statistics.median(spans) if spans else math.nan
    print(f"   waits for the write lock while busy (ms; a median batch spans {batch:.1f} ms):")
    longest = 0.0
    for user in USERS:
        for command in (CREATE, STR_REPLACE, DELETE):
            waits = [ns / 1e6 for ns in pooled(phases, BUSY, user, command, "waits")]
            if not waits:
                continue
            calls = [ns / 1e6 for ns in pooled(phases, BUSY, user, command)]
            share = sum(waits) / sum(calls)
            ordered = sorted(waits)
            p99 = ordered[max(0, -(-99 * len(ordered) // 100) - 1)]
            waited = sum(w > 0.5 for w in waits)
            longest = max(longest, ordered[-1])
            print(
                f"   {user:<14}{command:<13}median {statistics.median(waits):>7.2f}  p99 "
                f"{p99:>8.2f}  max {ordered[-1]:>8.2f} ({ordered[-1] / batch:>5.1f} batches)  "
                f"{waited}/{len(waits)} waited > 0.5 ms; {share:.0%} of the busy time"
            )
    for user in USERS:
        idle, busy = (
            summarize(pooled(phases, kind, user, DELETE, "purges")) for kind in (IDLE, BUSY)
        )
        print(
            f"   {user:<14}{DELETE:<13}then the WAL checkpoint: idle median "
            f"{idle.median_us / 1000:.2f} p99 {idle.p99_us / 1000:.2f}, busy median "
            f"{busy.median_us / 1000:.2f} p99 {busy.p99_us / 1000:.2f}"
        )
    return longest


def print_tradeoff(rows: list[tuple[Tuning, dict[str, Any], dict[Mode, Verdict]]]) -> None:
    print("\ntrade-off: rotation throughput against the agent's worst busy/idle ratios")
    header = (
        f"{'tuning':<46}{'mode':<8}{'notes/s':>9}{'med ratio':>10}{'p99 ratio':>10}"
        f"{'worst p99':>10}{'max wait':>10}"
    )
    print(header)
    print("-" * len(header))
    for tuning, rotation, verdicts in rows:
        for mode in MODES:
            v = verdicts[mode]
            print(
                f"{tuning.label():<46}{mode:<8}{rotation[mode]['notes_per_s']:>9,.0f}"
                f"{v.median_ratio:>10.2f}{v.p99_ratio:>10.2f}{v.p99_ms:>10.1f}"
                f"{v.wait_max_ms:>10.1f}"
            )
    print("ratios: the worst over the eight commands; worst p99 and max wait in ms, while busy")


# -- the run -----------------------------------------------------------------------------


@contextmanager
def tuned(tuning: Tuning) -> Iterator[None]:
    """``BATCH_NODES`` patched as ``tuning`` says, for the rotations of this process."""
    shipped = memvault.lifecycle._rotate.BATCH_NODES
    if tuning.batch_nodes is not None:
        memvault.lifecycle._rotate.BATCH_NODES = tuning.batch_nodes
    try:
        yield
    finally:
        memvault.lifecycle._rotate.BATCH_NODES = shipped


def numbers(kind: Callable[[str], T]) -> Callable[[str], list[T]]:
    return lambda text: [kind(n) for n in text.split(",")]


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run, under a minute")
    parser.add_argument("--memories", type=int, metavar="N", help="notes of the rotated user")
    parser.add_argument("--iterations", type=int, metavar="N", help="agent iterations per phase")
    parser.add_argument(
        "--batch",
        metavar="N,N,...",
        type=numbers(int),
        help="also measure with BATCH_NODES patched to each size (the trade-off curve)",
    )
    parser.add_argument(
        "--pause",
        metavar="MS,MS,...",
        type=numbers(float),
        help="also measure with the rotation sleeping this long between batches "
        "(in its progress callback); combined with each --batch size",
    )
    parser.add_argument(
        "--retry",
        metavar="US,US,...",
        type=numbers(float),
        help="also measure with the agent retrying the write lock every US microseconds "
        "instead of through SQLite's busy handler; combined with each size and pause",
    )
    parser.add_argument(
        "--index",
        action="store_true",
        help="run the patched measurements on a copy of the vault with an index on nodes(user_id)",
    )
    parser.add_argument(
        "--rotation-only", action="store_true", help="measure the rotations alone, no agent"
    )
    parser.add_argument(
        "--think",
        metavar="MS",
        type=float,
        default=0.0,
        help="the agent's mean pause between two calls (default 0: back to back)",
    )
    parser.add_argument("--json", metavar="FILE", type=Path, help="write every sample here")
    parser.add_argument(
        "--dir",
        metavar="DIR",
        type=Path,
        help="where to make the temporary directory (default: the system's); "
        "pick a real disk, not a tmpfs",
    )
    return parser.parse_args(argv)


def load() -> str:
    """The machine's load averages: on a shared machine, other work skews every figure."""
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f}"


def tunings(args: argparse.Namespace) -> list[Tuning]:
    """As shipped first, then every combination of the sizes, pauses and retries asked
    for, each with the index if ``--index``."""
    wanted = [Tuning()]
    for size in args.batch or [None]:
        for pause in args.pause or [0.0]:
            for retry in args.retry or [0.0]:
                tuning = Tuning(size, pause, retry, args.index)
                if tuning not in wanted:
                    wanted.append(tuning)
    return wanted


def indexed_copy(home: Path, copy: Path) -> None:
    """A copy of the closed vault whose database has an index on ``nodes(user_id)``.

    Its entries are (user_id, rowid), so the rotation's query for a user's next
    stale nodes (``n.user_id = ? AND n.id > ? ... ORDER BY n.id LIMIT ?``) can walk
    them in id order from its cursor and stop at the limit; the store's own
    indices lead with (user_id, parent_id), so without it each batch visits every
    node of the user left to re-seal and sorts them."""
    shutil.copytree(home, copy)
    db = sqlite3.connect(copy / memvault._vault.DB_NAME)
    try:
        db.execute("CREATE INDEX bench_nodes_user ON nodes(user_id)")
        db.commit()
    finally:
        db.close()


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    plan = QUICK if args.quick else FULL
    memories = args.memories or plan.memories
    if args.iterations:
        plan = dataclasses.replace(plan, iterations=args.iterations)
    rng = random.Random()
    root = Path(tempfile.mkdtemp(prefix="memvault-bench-", dir=args.dir))
    started = time.monotonic()
    report: dict[str, Any] = {
        "plan": asdict(plan),
        "memories": memories,
        "think_ms": args.think,
        "runs": [],
    }
    rows = []
    try:
        env = report["environment"] = environment(root)
        print(f"memvault from {env['memvault']}; data in {root}: {env['filesystem']}")
        print(f"python {env['python']}, sqlite {env['sqlite']}, {env['cpus']} cpus; {load()}")
        with isolated_environment(root):
            home, master_home = root / "vault", root / "master-vault"
            key_file = root / "keys" / "vault.key"
            print(
                f"building {memories:,} notes of {NOTE_BYTES:,} B for {ROTATED} (+ {OTHER_NOTES} "
                f"for {OTHER}), and {plan.master_users} users x {plan.master_notes} notes ...",
                flush=True,
            )
            build_rotation_vault(home, memories)
            build_master_vault(master_home, key_file, plan)
            print(f"  built in {time.monotonic() - started:.0f} s", flush=True)
            sync = sync_latency(root, plan.sync_probes)
            print(
                f"disk floor (4 KB pwrite + fdatasync): median {sync.median_us:.0f} µs, "
                f"p99 {sync.p99_us:.0f} µs"
            )
            report["sync_probe_us"] = asdict(sync)
            pace = f"{args.think:g} ms mean pause" if args.think else "no pause"
            print(f"the agent's calls: {pace} between two calls", flush=True)
            masters = measure_master(master_home, key_file, plan.master_rounds, rng)
            report["master"] = print_master(masters, plan.master_users)
            wanted = tunings(args)
            if any(t.index for t in wanted):
                indexed_copy(home, root / "vault-indexed")
            for tuning in wanted:
                where = root / "vault-indexed" if tuning.index else home
                with tuned(tuning):
                    print(f"\n=== {tuning.label()} ===", flush=True)
                    runs = measure_throughput(where, plan.rounds, tuning, rng)
                    rotation = print_throughput(runs, memories)
                    agent: dict[Mode, Any] = {}
                    verdicts: dict[Mode, Verdict] = {}
                    for mode in MODES if not args.rotation_only else ():
                        phases = measure_agent(where, mode, plan, memories, tuning, rng, args.think)
                        agent[mode], verdicts[mode] = print_agent(mode, phases)
                    rows.append((tuning, rotation, verdicts))
                    report["runs"].append({**asdict(tuning), "rotation": rotation, "agent": agent})
            if len(rows) > 1 and not args.rotation_only:
                print_tradeoff(rows)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(f"\ntotal {time.monotonic() - started:.0f} s; {load()}")
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
        print(f"samples written to {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
