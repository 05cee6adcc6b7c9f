"""Async throughput of memvault against the SDK's async plaintext backend, 1 to 100 sessions.

Run by hand; it prints figures and asserts nothing about them::

    .venv/bin/python bench/bench_async.py [--quick] [--json FILE] [--dir DIR]

In a fresh temporary directory (deleted at the end, with the key directory and
the master key it sets for itself), for each number of concurrent sessions C in
1, 10 and 100, C users on each backend: memvault's ``Vault.async_memory_tool``
(one vault, C users) and ``BetaAsyncLocalFilesystemMemoryTool`` (one base
directory per user), each user holding 10 notes of 2 KB. A round runs C
sessions at once on one backend (``asyncio.gather``), each sending its commands
one after the other, a third each ``view`` of a note, ``create`` of a new note
and ``str_replace`` in it; every round sends the same number of commands. The
rounds of all (C, backend) pairs run in a new shuffled order each time (seeded,
printed), after one warm-up round of each, dropped.

Per durability mode of memvault (the reference is the same in both), for each C:
commands per second (the median of the rounds), each command's latency as its
session saw it (queueing included; median and p99), and the longest the event
loop went without running a heartbeat task that ticks every 5 ms. One more pair
runs in the same shuffle: memvault's sync tool, one session (its calls block the
loop), to show what the async tool's hop to the vault's store thread costs.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import itertools
import random
import statistics
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Literal

from anthropic.tools.memory import BetaAsyncLocalFilesystemMemoryTool
from bench_commands import (
    note_text,
    run_scratch,
    summarize,
    sync_latency,
)

from memvault import MemoryTool, Vault

LEVELS = (1, 10, 100)  # concurrent sessions
NOTES = 10  # 2 KB notes each user starts with
TICK = 0.005  # seconds between two heartbeats
SEED = 20261128

Mode = Literal["full", "normal"]
MODES: dict[Mode, str] = {
    "full": "every commit fsyncs; the reference fsyncs create and str_replace",
    "normal": "no fsync per commit (crash-safe, not power-loss durable)",
}
REFERENCE = "reference"
MEMVAULT = "memvault"
SYNC = "memvault-sync"  # the sync tool, one session: what the hop to the store thread costs
SHORT = {REFERENCE: "ref", MEMVAULT: "mv", SYNC: "mv-sync"}

Call = Callable[[dict[str, Any]], Awaitable[object]]


@dataclass(frozen=True)
class Plan:
    """Commands per round (split evenly over the sessions) and rounds per (C, backend)."""

    commands: int
    rounds: int
    sync_probes: int


FULL = Plan(commands=1200, rounds=8, sync_probes=300)
QUICK = Plan(commands=300, rounds=2, sync_probes=50)


def note_path(n: int) -> str:
    return f"/memories/notes/note-{n:02d}.md"


def step(round_no: int, session: int, j: int) -> dict[str, Any]:
    """The j-th command of a session in a round: view, create, str_replace, in turn."""
    new = f"/memories/new/r{round_no}-{j // 3}.md"
    if j % 3 == 0:
        return {"command": "view", "path": note_path((session + j) % NOTES)}
    if j % 3 == 1:
        return {"command": "create", "path": new, "file_text": note_text(session * 1000 + j)}
    return {
        "command": "str_replace",
        "path": new,
        "old_str": "status: draft",
        "new_str": "status: reviewed",
    }


@dataclass
class Round:
    """One round on one backend: its throughput, every latency, the loop's longest stall."""

    per_second: float
    latencies_ns: list[int]
    stall_ms: float


async def heartbeat(beats: list[float]) -> None:
    while True:
        beats.append(time.perf_counter())
        await asyncio.sleep(TICK)


async def run_round(calls: list[Call], commands: int, round_no: int) -> Round:
    """``commands`` commands, split over the sessions, all sessions at once."""
    per_session = commands // len(calls)
    latencies: list[int] = []

    async def session(call: Call, k: int) -> None:
        for j in range(per_session):
            command = step(round_no, k, j)
            start = time.perf_counter_ns()
            await call(command)
            latencies.append(time.perf_counter_ns() - start)

    beats: list[float] = []
    ticker = asyncio.create_task(heartbeat(beats))
    await asyncio.sleep(0)
    start = time.perf_counter()
    await asyncio.gather(*(session(call, k) for k, call in enumerate(calls)))
    wall = time.perf_counter() - start
    ticker.cancel()
    beats.append(time.perf_counter())
    gaps = [b - a for a, b in itertools.pairwise(beats)]
    stall = max(gaps, default=0.0) - TICK
    return Round(len(latencies) / wall, latencies, max(stall, 0.0) * 1000)


async def populate(calls: list[Call]) -> None:
    async def one(call: Call, k: int) -> None:
        for n in range(NOTES):
            await call({"command": "create", "path": note_path(n), "file_text": note_text(k + n)})

    await asyncio.gather(*(one(call, k) for k, call in enumerate(calls)))


async def measure_mode(
    mode: Mode, home: Path, reference_root: Path, plan: Plan, first_round: int
) -> dict[tuple[int, str], list[Round]]:
    """Every (C, backend) pair, ``plan.rounds`` times after a warm-up, shuffled."""
    rounds: dict[tuple[int, str], list[Round]] = {}
    with Vault.open(home, durability=mode) as vault:
        tools: dict[tuple[int, str], list[Call]] = {}
        for level in LEVELS:
            users = [f"c{level}-{k:03d}" for k in range(level)]
            tools[level, MEMVAULT] = [vault.async_memory_tool(u).call for u in users]
            tools[level, REFERENCE] = [
                BetaAsyncLocalFilesystemMemoryTool(base_path=str(reference_root / u)).call
                for u in users
            ]
            if first_round == 0:
                await populate(tools[level, MEMVAULT])
                await populate(tools[level, REFERENCE])
        tools[1, SYNC] = [_blocking(vault.memory_tool("c1-sync"))]
        if first_round == 0:
            await populate(tools[1, SYNC])
        order = random.Random(SEED + first_round)
        for r in range(plan.rounds + 1):
            pairs = list(tools)
            order.shuffle(pairs)
            print(
                f"  round {r}{' (warm-up)' if r == 0 else ''}: "
                + ", ".join(f"{level}x{SHORT[name]}" for level, name in pairs),
                flush=True,
            )
            for pair in pairs:
                gc.collect()
                gc.disable()
                try:
                    done = await run_round(tools[pair], plan.commands, first_round + r)
                finally:
                    gc.enable()
                if r > 0:
                    rounds.setdefault(pair, []).append(done)
    return rounds


def _blocking(tool: MemoryTool) -> Call:
    """The sync tool's call as a coroutine that runs it on the loop (one session only)."""

    async def call(command: dict[str, Any]) -> object:
        return tool.call(command)

    return call


# -- reporting -------------------------------------------------------------------------


def figures(rounds: list[Round]) -> dict[str, float]:
    latencies = [ns for r in rounds for ns in r.latencies_ns]
    summary = summarize(latencies)
    return {
        "per_second": statistics.median(r.per_second for r in rounds),
        "median_ms": summary.median_us / 1000,
        "p99_ms": summary.p99_us / 1000,
        "stall_ms": max(r.stall_ms for r in rounds),
        "count": summary.count,
    }


def print_table(mode: Mode, rounds: dict[tuple[int, str], list[Round]]) -> dict[str, Any]:
    print(f"\ndurability={mode!r}: {MODES[mode]}")
    header = (
        f"{'sessions':>8}{'ref cmd/s':>11}{'mv cmd/s':>10}{'ratio':>7}"
        f"{'ref med':>9}{'mv med':>9}{'ref p99':>9}{'mv p99':>9}{'p99 ratio':>10}"
        f"{'ref stall':>11}{'mv stall':>10}{'n':>7}"
    )
    print(header)
    print("-" * len(header))
    out: dict[str, Any] = {}
    for level in LEVELS:
        ref, mv = figures(rounds[level, REFERENCE]), figures(rounds[level, MEMVAULT])
        print(
            f"{level:>8}{ref['per_second']:>11.0f}{mv['per_second']:>10.0f}"
            f"{mv['per_second'] / ref['per_second']:>7.2f}"
            f"{ref['median_ms']:>9.2f}{mv['median_ms']:>9.2f}"
            f"{ref['p99_ms']:>9.2f}{mv['p99_ms']:>9.2f}{mv['p99_ms'] / ref['p99_ms']:>10.2f}"
            f"{ref['stall_ms']:>11.1f}{mv['stall_ms']:>10.1f}{mv['count']:>7}"
        )
        out[str(level)] = {REFERENCE: ref, MEMVAULT: mv}
    sync, mv = figures(rounds[1, SYNC]), out["1"][MEMVAULT]
    out["1"][SYNC] = sync
    print(
        f"memvault's sync tool, 1 session: {sync['per_second']:.0f} cmd/s, median "
        f"{sync['median_ms']:.2f} ms, p99 {sync['p99_ms']:.2f} ms; the async tool's hop to the "
        f"store thread adds {mv['median_ms'] - sync['median_ms']:.2f} ms to the median"
    )
    print(
        "ref = BetaAsyncLocalFilesystemMemoryTool, mv = memvault's async tool; cmd/s = the\n"
        "median round's commands per second (ratio = mv/ref, higher is better for mv); med\n"
        "and p99 = one command's latency in ms as its session saw it; stall = the longest\n"
        "the event loop went without running its heartbeat, beyond the 5 ms tick, in ms"
    )
    return out


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds (a smoke run)")
    parser.add_argument("--json", metavar="FILE", type=Path, help="write the figures here")
    parser.add_argument(
        "--dir",
        metavar="DIR",
        type=Path,
        help="where to make the temporary directory (default: the system's); "
        "pick a real disk, not a tmpfs",
    )
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    plan = QUICK if args.quick else FULL
    return run_scratch("memvault-bench-async-", args, lambda root, clock: _run(plan, root))


def _run(plan: Plan, root: Path) -> dict[str, Any]:
    print(
        f"{plan.commands} commands a round, {plan.rounds} rounds (+1 warm-up) per sessions x "
        f"backend, order seeded {SEED}"
    )
    home, reference_root = root / "vault", root / "reference"
    results: dict[str, Any] = {}
    for n, mode in enumerate(MODES):
        sync = sync_latency(root, plan.sync_probes)
        print(
            f"\n{mode}: disk floor, 4 KB write + fdatasync: median "
            f"{sync.median_us:.0f}, p99 {sync.p99_us:.0f} microseconds",
            flush=True,
        )
        first = n * (plan.rounds + 1)
        rounds = asyncio.run(measure_mode(mode, home, reference_root, plan, first))
        results[mode] = {"sync_probe_us": asdict(sync), **print_table(mode, rounds)}
    return {"plan": asdict(plan), "modes": results}


if __name__ == "__main__":
    sys.exit(main())
