"""Per-command latency of memvault on PostgreSQL, against memvault on SQLite and the SDK's
plaintext memory backend, in the same run.

Run by hand; it prints figures and asserts nothing about them::

    .venv/bin/python bench/bench_pg_commands.py [--quick] [--normal] [--json FILE] [--seed N]

It starts a throwaway PostgreSQL cluster on 127.0.0.1 that flushes every commit (the
tests' ``tests/support/postgres.py``) and builds, in a temporary directory: a vault in a
migrated database and a vault in a home, each holding 10 users x 100 notes of 2 KB plus
an ``archive`` user with a 1,000-note directory, and the same notes for the SDK's
``BetaLocalFilesystemMemoryTool``. Then it runs ``bench_commands``' iteration (view a
note, view a topic, then a new note's life: create, str_replace, insert, rename,
delete) on all three, step by step, the three taking each step in a new shuffled order
(seeded, printed), and prints each command's median and p99 and the ratios
PostgreSQL / SQLite and PostgreSQL / SDK. Both vaults run with ``durability="full"``
(``--normal``: ``"normal"``, which on PostgreSQL is ``synchronous_commit = off``).
"""

from __future__ import annotations

import argparse
import base64
import gc
import json
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench_commands import (
    ARCHIVE_USER,
    MEASURED_USER,
    Step,
    Summary,
    Tool,
    archive_notes,
    archive_steps,
    iteration_steps,
    ratio,
    reference_tool,
    summarize,
    user_notes,
)

from memvault import Vault
from memvault.store import PgStore
from tests.support import postgres

BACKENDS = ("postgres", "sqlite", "sdk")
USERS = 10
QUICK = (10, 60, 2, 10)  # warm-up, iterations, archive warm-up, archive iterations
FULL = (50, 600, 5, 60)
Samples = dict[str, dict[str, list[int]]]


def populate(location: str, sdk_root: Path) -> None:
    """The same notes in a vault and for the SDK: ``USERS`` users (the measured one among
    them) and the archive."""
    users = [MEASURED_USER, *(f"user-{n:03d}" for n in range(USERS - 1))]
    with Vault.open(location, durability="normal") as vault:
        for index, user in enumerate(users):
            tool = vault.memory_tool(user=user)
            for command in user_notes(index * 1000):
                tool.call(command)
        tool = vault.memory_tool(user=ARCHIVE_USER)
        for command in archive_notes():
            tool.call(command)
    if not (sdk_root / MEASURED_USER).exists():
        for index, user in enumerate(users[:1]):
            sdk = reference_tool(sdk_root, user)
            for command in user_notes(index * 1000):
                sdk.call(command)
        sdk = reference_tool(sdk_root, ARCHIVE_USER)
        for command in archive_notes():
            sdk.call(command)


def run_shuffled(
    tools: dict[str, Tool],
    steps: Callable[[int], list[Step]],
    rng: random.Random,
    warmup: int,
    iterations: int,
) -> Samples:
    """Each step on every backend, in a new shuffled order at every step; the collector
    runs between iterations only."""
    samples: Samples = {name: {} for name in tools}
    names = list(tools)
    gc.collect()
    gc.disable()
    try:
        for i in range(warmup + iterations):
            for label, command in steps(i):
                rng.shuffle(names)
                for name in names:
                    start = time.perf_counter_ns()
                    tools[name].call(command)
                    elapsed = time.perf_counter_ns() - start
                    if i >= warmup:
                        samples[name].setdefault(label, []).append(elapsed)
            gc.collect(generation=0)
    finally:
        gc.enable()
    return samples


def print_table(samples: Samples) -> dict[str, dict[str, Summary]]:
    summaries = {b: {c: summarize(ns) for c, ns in samples[b].items()} for b in BACKENDS}
    print(
        f"\n{'command':<24}{'PG med':>9}{'p99':>8}{'SQLite med':>12}{'p99':>8}{'SDK med':>9}"
        f"{'p99':>8}{'PG/SQLite':>11}{'PG/SDK':>8}"
    )
    for command in summaries["postgres"]:
        pg, lite, sdk = (summaries[b][command] for b in BACKENDS)
        to_lite, to_sdk = ratio(pg.median_us, lite.median_us), ratio(pg.median_us, sdk.median_us)
        print(
            f"{command:<24}{pg.median_us:>9.0f}{pg.p99_us:>8.0f}{lite.median_us:>12.0f}"
            f"{lite.p99_us:>8.0f}{sdk.median_us:>9.0f}{sdk.p99_us:>8.0f}"
            f"{to_lite:>11.2f}{to_sdk:>8.2f}"
        )
    print("microseconds; ratios of medians")
    return summaries


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short run (a smoke test)")
    parser.add_argument("--normal", action="store_true", help='durability="normal"')
    parser.add_argument("--json", metavar="FILE", type=Path, help="write the figures here")
    parser.add_argument("--seed", type=int, default=random.randrange(1 << 30))
    args = parser.parse_args(argv)
    warmup, iterations, archive_warmup, archive_iterations = QUICK if args.quick else FULL
    durability = "normal" if args.normal else "full"
    scratch = Path(tempfile.mkdtemp(prefix="memvault-pgcmd-"))
    os.environ["XDG_CONFIG_HOME"] = str(scratch / "config")
    os.environ["MEMVAULT_MASTER_KEY"] = base64.b64encode(os.urandom(32)).decode()
    cluster = postgres.start_cluster(durable=True)
    started = time.monotonic()
    try:
        dsn = cluster.dsn
        store = PgStore(dsn)
        store.migrate_schema()
        store.close()
        home = str(scratch / "home")
        for location in (dsn, home):
            populate(location, scratch / "sdk")
        print(
            f"{os.cpu_count()} cpus, load average {os.getloadavg()[0]:.2f}; durability "
            f"{durability}; {iterations} iterations after {warmup} warm-up, order seeded "
            f"{args.seed}"
        )
        rng = random.Random(args.seed)
        with (
            Vault.open(dsn, durability=durability) as pg,
            Vault.open(home, durability=durability) as lite,
        ):
            samples = run_shuffled(
                {
                    "postgres": pg.memory_tool(user=MEASURED_USER),
                    "sqlite": lite.memory_tool(user=MEASURED_USER),
                    "sdk": reference_tool(scratch / "sdk", MEASURED_USER),
                },
                iteration_steps,
                rng,
                warmup,
                iterations,
            )
            archive = run_shuffled(
                {
                    "postgres": pg.memory_tool(user=ARCHIVE_USER),
                    "sqlite": lite.memory_tool(user=ARCHIVE_USER),
                    "sdk": reference_tool(scratch / "sdk", ARCHIVE_USER),
                },
                archive_steps,
                rng,
                archive_warmup,
                archive_iterations,
            )
        for backend in BACKENDS:
            samples[backend].update(archive[backend])
        summaries = print_table(samples)
        print(f"load average after: {os.getloadavg()[0]:.2f}")
    finally:
        postgres.stop_cluster(cluster)
    print(f"\ntotal {time.monotonic() - started:.0f} s")
    if args.json is not None:
        figures: dict[str, Any] = {
            b: {c: s.__dict__ for c, s in per.items()} for b, per in summaries.items()
        }
        args.json.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
