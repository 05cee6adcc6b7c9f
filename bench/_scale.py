"""``bench_commands.py --scale``: one user's command latency as the vault grows, 1k -> 1M.

For each size N it builds one vault of N notes of 2 KB, 1,000 a user (10 topic
directories x 100 notes), with ``_scale_build.py``; the measured user has the same
1,000 notes in every vault, so only the vault around them grows. Then, per
durability mode, it opens every vault and times the same commands of that user on
each, the sizes taking turns in a new shuffled order at every iteration, step by
step, so that no size always runs on the caches another left warm.
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import os
import random
import shutil
import tempfile
import time
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from _scale_build import (
    MEASURED_USER,
    NOTES_PER_TOPIC,
    NOTES_PER_USER,
    TOPICS,
    Built,
    Checked,
    build_vault,
    check_vault,
    note_path,
)
from bench_commands import (
    MODES,
    NOTE_BYTES,
    Mode,
    Tool,
    environment,
    isolated_environment,
    note_text,
    summarize,
)

from memvault import Vault

SIZES = (1_000, 10_000, 100_000, 1_000_000)
QUICK_SIZES = (1_000, 10_000, 100_000)
SEED = 20261128  # the shuffles of the sizes' order; printed, so a run can be repeated

OPEN = "open + first view"
OPEN_ONLY = "  of which Vault.open"
VIEW_FILE = "view file (2 KB)"
VIEW_TOPIC = f"view dir ({NOTES_PER_TOPIC} files)"
VIEW_ROOT = f"view /memories ({TOPICS}x{NOTES_PER_TOPIC})"
CREATE = "create (2 KB)"
STR_REPLACE = "str_replace"
DELETE = "delete"

# The target on each median, as a ratio to the smallest vault's (None: reported only).
# Opening is O(1) in the number of memories: its ratio is held to the same bound.
TARGETS: dict[str, float | None] = {
    OPEN: 1.2,
    OPEN_ONLY: None,
    VIEW_FILE: 1.2,
    VIEW_TOPIC: 1.2,
    VIEW_ROOT: 1.2,
    CREATE: 1.2,
    STR_REPLACE: 1.2,
    DELETE: None,
}


@dataclass(frozen=True)
class ScalePlan:
    """Iterations per mode (warm-ups first, dropped); a fresh open every ``open_every``;
    iterations of the diagnosis pass (``--profile``)."""

    warmup: int
    iterations: int
    open_every: int
    profiled: int


FULL = ScalePlan(warmup=100, iterations=2000, open_every=4, profiled=200)
QUICK = ScalePlan(warmup=5, iterations=60, open_every=2, profiled=15)

Samples = dict[str, dict[int, list[int]]]  # step -> size -> nanoseconds


def steps(i: int) -> list[tuple[str, dict[str, Any]]]:
    """One iteration's commands, the same on every vault; the note it creates is deleted at
    the end, so every iteration sees the same 1,000 notes."""
    topic = i % TOPICS
    new = f"/memories/topic-{topic}/new-{i}.md"
    return [
        (VIEW_FILE, {"command": "view", "path": note_path(topic, (i * 7) % NOTES_PER_TOPIC)}),
        (VIEW_TOPIC, {"command": "view", "path": f"/memories/topic-{topic}"}),
        (VIEW_ROOT, {"command": "view", "path": "/memories"}),
        (CREATE, {"command": "create", "path": new, "file_text": note_text(i)}),
        (
            STR_REPLACE,
            {
                "command": "str_replace",
                "path": new,
                "old_str": "status: draft",
                "new_str": "status: reviewed",
            },
        ),
        (DELETE, {"command": "delete", "path": new}),
    ]


def time_open(home: Path, mode: Mode, i: int) -> tuple[int, int]:
    """(open alone, open + first view) in ns: a fresh vault object, its tool, one view."""
    command = {"command": "view", "path": note_path(i % TOPICS, (i * 3) % NOTES_PER_TOPIC)}
    start = time.perf_counter_ns()
    vault = Vault.open(home, durability=mode)
    opened = time.perf_counter_ns()
    try:
        vault.memory_tool(user=MEASURED_USER).call(command)
        return opened - start, time.perf_counter_ns() - start
    finally:
        vault.close()


def measure_mode(
    mode: Mode, homes: dict[int, Path], plan: ScalePlan, rng: random.Random, first: int
) -> Samples:
    samples: Samples = {label: {size: [] for size in homes} for label in TARGETS}
    with ExitStack() as stack:
        tools: dict[int, Tool] = {}
        for size, home in homes.items():
            vault = stack.enter_context(Vault.open(home, durability=mode))
            tools[size] = vault.memory_tool(user=MEASURED_USER)
        sizes = list(homes)
        gc.collect()
        gc.disable()
        try:
            for i in range(first, first + plan.warmup + plan.iterations):
                kept = i >= first + plan.warmup
                order = sizes[:]
                rng.shuffle(order)
                if (i - first) % plan.open_every == 0:
                    for size in order:
                        alone, with_view = time_open(homes[size], mode, i)
                        if kept:
                            samples[OPEN_ONLY][size].append(alone)
                            samples[OPEN][size].append(with_view)
                for label, command in steps(i):
                    for size in order:
                        call = tools[size].call
                        start = time.perf_counter_ns()
                        call(command)
                        elapsed = time.perf_counter_ns() - start
                        if kept:
                            samples[label][size].append(elapsed)
                gc.collect(generation=0)
        finally:
            gc.enable()
    return samples


# -- reporting -------------------------------------------------------------------------


def ratio(value: float, base: float) -> float:
    return value / base if base else math.inf


def print_table(mode: Mode, samples: Samples, sizes: Sequence[int]) -> list[str]:
    """The table of one mode; returns the rows over target, as 'row at N'."""
    base_size = sizes[0]
    print(f"\ndurability={mode!r}: {MODES[mode]}")
    header = (
        f"{'command':<26}{'memories':>11}{'median':>10}{'p99':>10}{'ratio':>8}"
        f"{'p99 ratio':>11}{'n':>6}  target"
    )
    print(header)
    print("-" * (len(header) + 12))
    over = []
    for label, target in TARGETS.items():
        base = summarize(samples[label][base_size])
        for size in sizes:
            s = summarize(samples[label][size])
            r = ratio(s.median_us, base.median_us)
            verdict = ""
            if target is not None and size != base_size:
                verdict = f"<= {target:.1f}  {'OK' if r <= target else 'OVER'}"
                if r > target:
                    over.append(f"{label.strip()} at {size:,}")
            print(
                f"{label if size == base_size else '':<26}{size:>11,}{s.median_us:>10.1f}"
                f"{s.p99_us:>10.1f}{r:>8.2f}{ratio(s.p99_us, base.p99_us):>11.2f}"
                f"{s.count:>6}  {verdict}"
            )
    print(
        f"times in microseconds (median, p99 nearest rank); ratio = median / the {base_size:,}-"
        f"memory vault's median;\ntarget: <= 1.2 for open, views, create and str_replace"
    )
    print(f"=> {'all within targets' if not over else 'OVER target: ' + '; '.join(over)}")
    return over


def raw_figures(samples: Samples, sizes: Sequence[int]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for label, target in TARGETS.items():
        base = summarize(samples[label][sizes[0]])
        out[label.strip()] = {
            "target_median_ratio": target,
            **{
                str(size): {
                    **asdict(s),
                    "median_ratio": ratio(s.median_us, base.median_us),
                    "p99_ratio": ratio(s.p99_us, base.p99_us),
                    "samples_ns": samples[label][size],
                }
                for size in sizes
                for s in [summarize(samples[label][size])]
            },
        }
    return out


def print_builds(built: dict[int, Built], checked: Checked | None, largest: int) -> None:
    print(
        f"\n{'memories':>11}{'users':>8}{'nodes':>11}{'build s':>9}{'memories/s':>12}"
        f"{'vault.db MB':>13}{'audit MB':>10}"
    )
    for size, b in built.items():
        print(
            f"{size:>11,}{b.users:>8,}{b.nodes:>11,}{b.seconds:>9.1f}{b.rate:>12,.0f}"
            f"{b.db_bytes / 1e6:>13,.1f}{b.audit_bytes / 1e6:>10.1f}"
        )
    if checked is not None:
        r = checked.report
        print(
            f"memvault check of the {largest:,}-memory vault: "
            f"{'intact' if checked.intact else 'DAMAGED'} in {checked.seconds:.1f} s "
            f"(the check itself {r.get('seconds', 0):.1f} s; {r.get('users', 0):,} users, "
            f"{r.get('files', 0):,} files, {r.get('directories', 0):,} directories, "
            f"{r.get('bytes', 0) / 1e6:,.0f} MB of text)"
        )
        for problem in r.get("problems", [])[:10]:
            print(f"  problem: {problem}")


def diagnose(
    homes: dict[int, Path], plan: ScalePlan, rng: random.Random, first: int
) -> dict[str, Any]:
    """The diagnosis pass (``_scale_profile.py``): b-tree depths, then per mode where each
    command's time goes."""
    import _scale_profile as diag

    sizes = list(homes)
    depths = {size: diag.btree_depths(home / "vault.db") for size, home in homes.items()}
    print("\nb-tree depth (pages from the root to a leaf):")
    print(f"{'memories':>11}" + "".join(f"{name:>26}" for name in diag.TREES))
    for size in sizes:
        print(f"{size:>11,}" + "".join(f"{depths[size][name]:>26}" for name in diag.TREES))
    out: dict[str, Any] = {"btree_depth": {str(s): d for s, d in depths.items()}}
    for n, mode in enumerate(MODES):
        profile = diag.profile_mode(mode, homes, steps, plan.profiled, rng, first + n * 10**5)
        diag.print_profile(mode, profile, sizes)
        out[mode] = diag.raw_profile(profile)
    return out


# -- the run ---------------------------------------------------------------------------


def parse_sizes(text: str) -> tuple[int, ...]:
    try:
        sizes = tuple(sorted({int(part.replace("_", "")) for part in text.split(",") if part}))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of sizes: {text!r}") from None
    if not sizes:
        raise argparse.ArgumentTypeError("no size given")
    if any(size < NOTES_PER_USER or size % NOTES_PER_USER for size in sizes):
        raise argparse.ArgumentTypeError(f"each size must be a multiple of {NOTES_PER_USER:,}")
    return sizes


def main(args: argparse.Namespace, timed: Callable[[], float]) -> int:
    sizes: tuple[int, ...] = args.scale_sizes or (QUICK_SIZES if args.quick else SIZES)
    plan = QUICK if args.quick else FULL
    root = Path(tempfile.mkdtemp(prefix="memvault-scale-", dir=args.dir))
    rng = random.Random(SEED)
    env = environment(root)
    print(f"memvault from {env['memvault']}; data in {root}: {env['filesystem']}")
    print(
        f"python {env['python']}, sqlite {env['sqlite']}, cryptography {env['cryptography']}, "
        f"{env['cpus']} cpus; sizes {', '.join(f'{s:,}' for s in sizes)}; "
        f"{plan.iterations} iterations (+{plan.warmup} warm-up), a fresh open every "
        f"{plan.open_every}; shuffle seed {SEED}"
    )
    results: dict[str, Any] = {}
    built: dict[int, Built] = {}
    checked: Checked | None = None
    over: list[str] = []
    try:
        with isolated_environment(root):
            if args.keep:
                key = root / "master-key.b64"
                key.write_text(os.environ["MEMVAULT_MASTER_KEY"] + "\n", encoding="ascii")
                key.chmod(0o600)
            homes = {size: root / f"vault-{size}" for size in sizes}
            for size, home in homes.items():
                print(f"building {size:,} memories of {NOTE_BYTES} B ...", flush=True)
                built[size] = build_vault(home, size)
            largest = sizes[-1]
            print(f"memvault check of the {largest:,}-memory vault ...", flush=True)
            checked = check_vault(homes[largest])
            print_builds(built, checked, largest)
            for n, mode in enumerate(MODES):
                first = n * (plan.warmup + plan.iterations)
                print(f"\nmeasuring, durability {mode!r} ... ({timed():.0f} s so far)", flush=True)
                load = os.getloadavg()
                samples = measure_mode(mode, homes, plan, rng, first)
                load_after = os.getloadavg()
                print(
                    f"load average (1 min) before and after this pass: {load[0]:.2f}, "
                    f"{load_after[0]:.2f}"
                )
                over += [f"{mode}: {row}" for row in print_table(mode, samples, sizes)]
                results[mode] = {
                    "load_average_before": load,
                    "load_average_after": load_after,
                    **raw_figures(samples, sizes),
                }
            if args.profile:
                results["profile"] = diagnose(homes, plan, rng, first=len(MODES) * 10**6)
    finally:
        if args.keep:
            print(
                f"\nkept: {root} (MEMVAULT_MASTER_KEY in {root / 'master-key.b64'}, "
                f"XDG_CONFIG_HOME={root / 'config'})"
            )
        else:
            shutil.rmtree(root, ignore_errors=True)
    print(f"\ntotal {timed():.0f} s")
    if args.json is not None:
        report = {
            "environment": env,
            "plan": asdict(plan),
            "sizes": list(sizes),
            "seed": SEED,
            "builds": {str(size): b.to_json() for size, b in built.items()},
            "check": None
            if checked is None
            else {"largest": sizes[-1], "wall_seconds": checked.seconds, **checked.report},
            "modes": results,
            "over": over,
        }
        args.json.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
        print(f"raw figures written to {args.json}")
    return 0
