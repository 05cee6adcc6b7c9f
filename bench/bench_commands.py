"""Per-command latency of memvault against the SDK's plaintext memory backend.

Run by hand; it prints figures and asserts nothing about them::

    .venv/bin/python bench/bench_commands.py [--quick] [--json FILE] [--dir DIR]
    .venv/bin/python bench/bench_commands.py --scale [--scale-sizes N,...] [--keep] ...

In a fresh temporary directory (deleted at the end, with the key directory and
the master key it sets for itself) it builds:

* memvault: one vault holding 100 users x 100 notes of 2 KB (10 topic
  directories of 10 notes each), plus an ``archive`` user whose
  ``/memories/archive`` holds 1,000 notes;
* the reference, ``BetaLocalFilesystemMemoryTool``: the same notes in 101
  separate base directories, one per user.

Then, once per memvault durability mode, it times each command of one user on
both backends. The two backends take turns going first at every iteration, so
that noise on the machine (other processes, disk flushes, frequency changes)
falls on both alike; warm-up iterations are dropped.

``--scale`` times one user's commands in vaults of 1,000 to 1,000,000 memories
instead (``_scale.py``, ``_scale_build.py``, ``_scale_profile.py``).
"""

from __future__ import annotations

import argparse
import base64
import gc
import inspect
import json
import math
import os
import platform
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from importlib import metadata
from pathlib import Path
from typing import Any, Literal, Protocol

from anthropic.tools.memory import BetaLocalFilesystemMemoryTool

from memvault import Vault

USERS = 100
TOPICS = 10
NOTES_PER_TOPIC = 10
NOTE_BYTES = 2048
ARCHIVE_NOTES = 1000
MEASURED_USER = "user-042"
ARCHIVE_USER = "archive"

VIEW_FILE = "view file"
VIEW_DIR = "view dir (10 files)"
CREATE = "create"
STR_REPLACE = "str_replace"
INSERT = "insert"
DELETE = "delete"
RENAME = "rename"
VIEW_ARCHIVE = "view dir (1,000 files)"

# Targets on the median ratio memvault / reference, the order the table prints in.
TARGETS: dict[str, float] = {
    VIEW_FILE: 0.7,
    VIEW_DIR: 0.7,
    CREATE: 1.0,
    STR_REPLACE: 1.0,
    INSERT: 1.0,
    DELETE: 1.0,
    RENAME: 1.0,
    VIEW_ARCHIVE: 0.5,
}
# Target on memvault's own tail: p99 at most this many times its median, every command.
TAIL_TARGET = 3.0

Mode = Literal["full", "normal"]
MODES: dict[Mode, str] = {
    "full": "every commit fsyncs; the reference fsyncs create, str_replace and insert",
    "normal": "no fsync per commit (crash-safe, not power-loss durable)",
}

REFERENCE = "reference"
MEMVAULT = "memvault"

Command = dict[str, Any]
Step = tuple[str, Command]


class Tool(Protocol):
    """What both backends offer: the SDK tool's ``call``."""

    def call(self, input: object, /) -> object: ...


@dataclass(frozen=True)
class Plan:
    """How many iterations to time; warm-up iterations run first and are dropped."""

    warmup: int
    iterations: int
    archive_warmup: int
    archive_iterations: int
    sync_probes: int


FULL = Plan(warmup=100, iterations=2000, archive_warmup=10, archive_iterations=200, sync_probes=300)
QUICK = Plan(warmup=10, iterations=60, archive_warmup=2, archive_iterations=15, sync_probes=50)


# -- the workload ----------------------------------------------------------------------


def user_name(index: int) -> str:
    return f"user-{index:03d}"


def note_path(topic: int, note: int) -> str:
    return f"/memories/topic-{topic}/note-{note:02d}.md"


def note_text(seed: int) -> str:
    """A note of exactly NOTE_BYTES bytes whose third line, ``status: draft``, is unique."""
    lines = [f"# note {seed}", "", "status: draft", ""]
    n = 0
    while sum(len(line) + 1 for line in lines) < NOTE_BYTES:
        n += 1
        lines.append(f"- fact {seed}.{n}: the user prefers short answers with examples")
    text = "\n".join(lines)[: NOTE_BYTES - 1] + "\n"
    assert len(text.encode()) == NOTE_BYTES
    return text


def user_notes(seed: int) -> Iterator[Command]:
    for topic in range(TOPICS):
        for note in range(NOTES_PER_TOPIC):
            yield create(note_path(topic, note), note_text(seed + topic * NOTES_PER_TOPIC + note))


def archive_notes() -> Iterator[Command]:
    for note in range(ARCHIVE_NOTES):
        yield create(f"/memories/archive/note-{note:04d}.md", note_text(note))


def create(path: str, text: str) -> Command:
    return {"command": "create", "path": path, "file_text": text}


def iteration_steps(i: int) -> list[Step]:
    """One iteration: two reads of existing notes, then a new note's whole life.

    The note created here is deleted at the end of the iteration, so every
    iteration sees the same vault: 100 notes for the user, 10 in each topic.
    """
    topic = i % TOPICS
    new = f"/memories/topic-{topic}/new-{i}.md"
    moved = f"/memories/topic-{(topic + 1) % TOPICS}/moved-{i}.md"
    return [
        (VIEW_FILE, {"command": "view", "path": note_path(topic, i % NOTES_PER_TOPIC)}),
        (VIEW_DIR, {"command": "view", "path": f"/memories/topic-{topic}"}),
        (CREATE, create(new, note_text(i))),
        (
            STR_REPLACE,
            {
                "command": "str_replace",
                "path": new,
                "old_str": "status: draft",
                "new_str": "status: reviewed",
            },
        ),
        (
            INSERT,
            {"command": "insert", "path": new, "insert_line": 1, "insert_text": "tags: bench"},
        ),
        (RENAME, {"command": "rename", "old_path": new, "new_path": moved}),
        (DELETE, {"command": "delete", "path": moved}),
    ]


def archive_steps(_: int) -> list[Step]:
    return [(VIEW_ARCHIVE, {"command": "view", "path": "/memories/archive"})]


# -- building the two stores -----------------------------------------------------------


def populate_memvault(home: Path) -> None:
    # "normal" only to build faster; each measured pass reopens the vault in its own mode.
    with Vault.open(home, durability="normal") as vault:
        for index in range(USERS):
            tool = vault.memory_tool(user=user_name(index))
            for command in user_notes(index * 1000):
                tool.call(command)
        tool = vault.memory_tool(user=ARCHIVE_USER)
        for command in archive_notes():
            tool.call(command)


def reference_tool(root: Path, user: str) -> BetaLocalFilesystemMemoryTool:
    return BetaLocalFilesystemMemoryTool(base_path=str(root / user))


def populate_reference(root: Path) -> None:
    for index in range(USERS):
        tool = reference_tool(root, user_name(index))
        for command in user_notes(index * 1000):
            tool.call(command)
    tool = reference_tool(root, ARCHIVE_USER)
    for command in archive_notes():
        tool.call(command)


# -- timing ----------------------------------------------------------------------------

Samples = dict[str, dict[str, list[int]]]  # backend -> command -> nanoseconds


def run_interleaved(
    tools: dict[str, Tool],
    steps: Callable[[int], list[Step]],
    *,
    warmup: int,
    iterations: int,
    first: int = 0,
) -> Samples:
    """Run ``steps(i)`` on every backend, swapping who goes first at each iteration.

    The collector stays off while timing, so that a collection started by one
    backend's garbage is not billed to the other; it runs between iterations.
    """
    samples: Samples = {name: {} for name in tools}
    order = list(tools.items())
    gc.collect()
    gc.disable()
    try:
        for i in range(first, first + warmup + iterations):
            turn = order if i % 2 == 0 else order[::-1]
            for label, command in steps(i):
                for name, tool in turn:
                    start = time.perf_counter_ns()
                    tool.call(command)
                    elapsed = time.perf_counter_ns() - start
                    if i >= first + warmup:
                        samples[name].setdefault(label, []).append(elapsed)
            gc.collect(generation=0)
    finally:
        gc.enable()
    return samples


@dataclass(frozen=True)
class Summary:
    count: int
    median_us: float
    p99_us: float


def summarize(ns: Sequence[int]) -> Summary:
    """Median and nearest-rank 99th percentile, in microseconds."""
    ordered = sorted(ns)
    p99 = ordered[max(0, math.ceil(0.99 * len(ordered)) - 1)]
    return Summary(len(ordered), statistics.median(ordered) / 1000, p99 / 1000)


def sync_latency(directory: Path, count: int) -> Summary:
    """The disk's floor for a durable write: a 4 KB write and fdatasync, ``count`` times.

    In ``full`` mode memvault pays about one of these per write command, the
    reference one per create, str_replace and insert but none per delete or
    rename; this figure is what reads those two ratios.
    """
    path = directory / "sync-probe"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        samples = []
        for _ in range(count):
            start = time.perf_counter_ns()
            os.pwrite(fd, b"\0" * 4096, 0)
            os.fdatasync(fd)
            samples.append(time.perf_counter_ns() - start)
    finally:
        os.close(fd)
        path.unlink()
    return summarize(samples)


def measure_mode(
    mode: Mode, home: Path, reference_root: Path, plan: Plan, *, first: int
) -> Samples:
    with Vault.open(home, durability=mode) as vault:
        commands = run_interleaved(
            {
                REFERENCE: reference_tool(reference_root, MEASURED_USER),
                MEMVAULT: vault.memory_tool(user=MEASURED_USER),
            },
            iteration_steps,
            warmup=plan.warmup,
            iterations=plan.iterations,
            first=first,
        )
        archive = run_interleaved(
            {
                REFERENCE: reference_tool(reference_root, ARCHIVE_USER),
                MEMVAULT: vault.memory_tool(user=ARCHIVE_USER),
            },
            archive_steps,
            warmup=plan.archive_warmup,
            iterations=plan.archive_iterations,
        )
    return {name: {**commands[name], **archive[name]} for name in (REFERENCE, MEMVAULT)}


# -- reporting -------------------------------------------------------------------------


def ratio(memvault: float, reference: float) -> float:
    return memvault / reference if reference else math.inf


def print_table(mode: Mode, samples: Samples, sync: Summary) -> None:
    print(f"\ndurability={mode!r}: {MODES[mode]}")
    print(
        f"disk floor before this pass, 4 KB write + fdatasync: median {sync.median_us:.0f}, "
        f"p99 {sync.p99_us:.0f} microseconds"
    )
    header = (
        f"{'command':<24}{'ref med':>10}{'mv med':>10}{'ratio':>8}"
        f"{'ref p99':>10}{'mv p99':>10}{'p99 ratio':>11}{'mv p99/med':>12}{'n':>6}  target"
    )
    print(header)
    print("-" * (len(header) + 10))
    over = []
    for label, target in TARGETS.items():
        ref = summarize(samples[REFERENCE][label])
        mv = summarize(samples[MEMVAULT][label])
        median_ratio = ratio(mv.median_us, ref.median_us)
        tail = ratio(mv.p99_us, mv.median_us)
        verdict = "OK" if median_ratio <= target and tail <= TAIL_TARGET else "OVER"
        if verdict == "OVER":
            over.append(label)
        print(
            f"{label:<24}{ref.median_us:>10.1f}{mv.median_us:>10.1f}{median_ratio:>8.2f}"
            f"{ref.p99_us:>10.1f}{mv.p99_us:>10.1f}{ratio(mv.p99_us, ref.p99_us):>11.2f}"
            f"{tail:>12.2f}{mv.count:>6}  <= {target:.1f}, tail <= {TAIL_TARGET:.0f}x  {verdict}"
        )
    print(
        "ref = reference (BetaLocalFilesystemMemoryTool), mv = memvault; times in microseconds;\n"
        "ratio = mv/ref; targets: the median ratio <= 1.0 for every write, <= 0.7 for views,\n"
        "<= 0.5 for the 1,000-file view; memvault's p99 <= 3x its own median"
    )
    print(f"=> {'all within targets' if not over else 'OVER target: ' + ', '.join(over)}")


def raw_figures(samples: Samples) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for label, target in TARGETS.items():
        ref = summarize(samples[REFERENCE][label])
        mv = summarize(samples[MEMVAULT][label])
        out[label] = {
            "target_median_ratio": target,
            "median_ratio": ratio(mv.median_us, ref.median_us),
            "p99_ratio": ratio(mv.p99_us, ref.p99_us),
            **{
                name: {
                    "median_us": summary.median_us,
                    "p99_us": summary.p99_us,
                    "samples_ns": samples[name][label],
                }
                for name, summary in ((REFERENCE, ref), (MEMVAULT, mv))
            },
        }
    return out


def filesystem_of(path: Path) -> str:
    """The type and device of the mount holding ``path``, read from /proc/self/mounts.

    Worth printing: on a tmpfs fsync costs nothing, which flatters every write figure.
    """
    best = ("", "unknown", "unknown")  # mount point, type, device
    try:
        with open("/proc/self/mounts", encoding="utf-8") as mounts:
            for line in mounts:
                device, mount_point, fs_type, *_ = line.split()
                inside = str(path).startswith(mount_point.rstrip("/") + "/")
                if inside and len(mount_point) >= len(best[0]):
                    best = (mount_point, fs_type, device)
    except OSError:
        pass
    mount_point, fs_type, device = best
    return f"{fs_type} on {device} (mounted at {mount_point or '?'})"


def environment(root: Path) -> dict[str, Any]:
    return {
        "memvault": str(Path(inspect.getfile(Vault)).parent),
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "sqlite": sqlite3.sqlite_version,
        "cryptography": metadata.version("cryptography"),
        "anthropic": metadata.version("anthropic"),
        "filesystem": filesystem_of(root),
    }


# -- the run ---------------------------------------------------------------------------


@contextmanager
def isolated_environment(root: Path) -> Iterator[None]:
    """A throwaway master key and key directory, so the run touches no real configuration."""
    names = ("MEMVAULT_MASTER_KEY", "MEMVAULT_MASTER_KEY_FILE", "XDG_CONFIG_HOME")
    saved = {name: os.environ.get(name) for name in names}
    os.environ["MEMVAULT_MASTER_KEY"] = base64.b64encode(os.urandom(32)).decode()
    os.environ["XDG_CONFIG_HOME"] = str(root / "config")
    os.environ.pop("MEMVAULT_MASTER_KEY_FILE", None)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def run_scratch(
    prefix: str,
    args: argparse.Namespace,
    run: Callable[[Path, Callable[[], float]], dict[str, Any]],
    library: tuple[str, str] = ("anthropic", "anthropic"),
) -> int:
    """A bench's run in a scratch directory made for it (deleted after) with a throwaway
    master key: prints the environment (naming ``library``'s version: (label, package)),
    calls ``run(root, clock)``, and writes its report to ``args.json`` if given."""
    root = Path(tempfile.mkdtemp(prefix=prefix, dir=args.dir))
    started = time.monotonic()
    label, package = library
    try:
        env = {**environment(root), label: metadata.version(package)}
        print(f"memvault from {env['memvault']}; data in {root}: {env['filesystem']}")
        print(
            f"python {env['python']}, sqlite {env['sqlite']}, {label} {env[label]}, "
            f"{env['cpus']} cpus; load average {os.getloadavg()[0]:.2f}"
        )
        with isolated_environment(root):
            report = run(root, lambda: time.monotonic() - started)
        print(f"load average after: {os.getloadavg()[0]:.2f}")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(f"\ntotal {time.monotonic() - started:.0f} s")
    if args.json is not None:
        report["environment"] = env
        args.json.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
        print(f"raw figures written to {args.json}")
    return 0


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="far fewer samples (a smoke run)")
    parser.add_argument("--json", metavar="FILE", type=Path, help="write the raw figures here")
    parser.add_argument(
        "--dir",
        metavar="DIR",
        type=Path,
        help="where to make the temporary directory (default: the system's); "
        "pick a real disk, not a tmpfs",
    )
    scale = parser.add_argument_group(
        "--scale", "one user's latency as the vault grows (bench/_scale.py; see bench/README.md)"
    )
    scale.add_argument(
        "--scale",
        action="store_true",
        help="time one user's commands in vaults of 1k to 1M memories instead",
    )
    scale.add_argument(
        "--scale-sizes",
        metavar="N,N,...",
        type=_scale_sizes,
        help="the vaults' sizes in memories, multiples of 1000 (default 1000,10000,100000,"
        "1000000; with --quick 1000,10000,100000); ratios are to the smallest",
    )
    scale.add_argument(
        "--keep", action="store_true", help="keep the vaults built by --scale (and their key)"
    )
    scale.add_argument(
        "--profile",
        action="store_true",
        help="with --scale: add a diagnosis pass (time in SQLite, page requests and misses "
        "per command, b-tree depths)",
    )
    args = parser.parse_args(argv)
    if (args.scale_sizes or args.keep or args.profile) and not args.scale:
        parser.error("--scale-sizes, --keep and --profile go with --scale")
    return args


def _scale_sizes(text: str) -> tuple[int, ...]:
    from _scale import parse_sizes

    return parse_sizes(text)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if args.scale:
        from _scale import main as scale_main

        started = time.monotonic()
        return scale_main(args, lambda: time.monotonic() - started)
    plan = QUICK if args.quick else FULL
    return run_scratch("memvault-bench-", args, lambda root, clock: _run(plan, root, clock))


def _run(plan: Plan, root: Path, clock: Callable[[], float]) -> dict[str, Any]:
    home, reference_root = root / "vault", root / "reference"
    print(
        f"building {USERS} users x {TOPICS * NOTES_PER_TOPIC} notes of {NOTE_BYTES} B, "
        f"plus {ARCHIVE_NOTES} in one directory, on both backends ...",
        flush=True,
    )
    populate_memvault(home)
    populate_reference(reference_root)
    print(f"  built in {clock():.0f} s", flush=True)
    results: dict[str, Any] = {}
    for n, mode in enumerate(MODES):
        # Each pass names its notes apart from the last one's.
        first = n * (plan.warmup + plan.iterations)
        sync = sync_latency(root, plan.sync_probes)
        samples = measure_mode(mode, home, reference_root, plan, first=first)
        print_table(mode, samples, sync)
        results[mode] = {"sync_probe_us": asdict(sync), **raw_figures(samples)}
    return {"plan": asdict(plan), "modes": results}


if __name__ == "__main__":
    sys.exit(main())
