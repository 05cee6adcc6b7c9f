"""What the audit log costs: its append rate, the latency it adds, and how fast it verifies.

Run by hand; it prints figures and asserts nothing about them::

    .venv/bin/python bench/bench_audit.py [--quick] [--json FILE] [--dir DIR] [--profile]

In a fresh temporary directory (deleted at the end, with the key directory and
the master key it sets for itself) it measures three things:

1. the append rate, in records per second, of write commands (durability
   ``full``: one fsync each), of reads (no fsync) and of ``record_operation``
   alone, for one process and for four processes sharing the vault;
2. the latency the log adds to each memory command: two vaults built alike,
   one of them opened with the log switched off, timed in turns command by
   command (as ``bench_commands.py`` does);
3. the speed of ``verify`` over a log of 1,000,000 records (100,000 with
   ``--quick``), built with the appender's own code.

``--profile`` adds cProfile listings of verify and of the append path.
"""

from __future__ import annotations

import argparse
import cProfile
import functools
import gc
import io
import json
import multiprocessing
import os
import pstats
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from unittest import mock

from bench_commands import (
    CREATE,
    DELETE,
    INSERT,
    RENAME,
    STR_REPLACE,
    VIEW_DIR,
    VIEW_FILE,
    Summary,
    environment,
    isolated_environment,
    iteration_steps,
    note_text,
    run_interleaved,
    summarize,
    sync_latency,
    user_name,
    user_notes,
)

import memvault._vault
from memvault import Vault
from memvault.audit import MAC_SUFFIX_LEN, AuditLog, Event, Report, examine

USERS = 10  # per latency vault, 100 notes of 2 KB each
MEASURED = user_name(5)
COMMANDS = (VIEW_FILE, VIEW_DIR, CREATE, STR_REPLACE, INSERT, RENAME, DELETE)
TARGET_ADDED_US = 100.0  # added latency, at the median, per command
TARGET_VERIFY_RATE = 100_000  # records verified per second
VERIFY_SEGMENT_BYTES = 16 << 20  # several segments even for the --quick log
VERIFY_BATCH = 10_000  # records appended per store transaction while building that log
RATE_PROCESSES = (1, 4)
SMALL_NOTE = "status: draft\n" + "- a short fact the user asked to keep\n" * 5  # 199 bytes

WITH_LOG = "log"
WITHOUT_LOG = "no log"


@dataclass(frozen=True)
class Plan:
    """Sizes of a run; warm-up iterations run first and are dropped."""

    warmup: int
    iterations: int
    rate_records: int  # records per rate measurement, split among the processes
    rate_repeats: int
    verify_records: int
    verify_repeats: int
    sync_probes: int


FULL = Plan(
    warmup=100,
    iterations=2000,
    rate_records=2000,
    rate_repeats=3,
    verify_records=1_000_000,
    verify_repeats=3,
    sync_probes=300,
)
QUICK = Plan(
    warmup=10,
    iterations=60,
    rate_records=200,
    rate_repeats=1,
    verify_records=100_000,
    verify_repeats=2,
    sync_probes=50,
)


# -- the log switched off --------------------------------------------------------------


class NoAuditLog(AuditLog):
    """The appender with nothing to do: no record, no lock around writes, no anchoring.

    Everything else stays as in a vault with its log: the tool adapter still
    builds each command's event, and the store and handlers are untouched.
    """

    def record(
        self, event: Event, *, txn: bool = False, change: tuple[int, int] | None = None
    ) -> int:
        return 0

    @contextmanager
    def holding(self) -> Iterator[None]:
        yield

    def next_seq(self) -> int:
        return 1  # the stamp of the nodes a write makes; no record will carry it

    def maybe_anchor(self) -> None:
        return None


def open_without_log(home: Path, durability: str) -> Vault:
    with mock.patch.object(memvault._vault, "AuditLog", NoAuditLog):
        return Vault.open(home, durability=durability)


def populate(home: Path) -> None:
    with Vault.open(home, durability="normal") as opened:
        for index in range(USERS):
            tool = opened.memory_tool(user=user_name(index))
            for command in user_notes(index * 1000):
                tool.call(command)


def log_head(home: Path) -> int:
    with Vault.open(home, durability="normal") as opened:
        return opened.audit.head()[0]


# -- 1. append rate --------------------------------------------------------------------


def rate_worker(
    home: str, user: str, kind: str, count: int, tag: str, barrier: Any, results: Any
) -> None:
    """One process: open the vault, get ready, wait for the others, then append ``count``."""
    with Vault.open(home, durability="full") as opened:
        tool = opened.memory_tool(user=user)
        base = f"/memories/rate/{tag}"
        step: Callable[[int], object]
        if kind == "write":

            def step(i: int) -> object:
                path = f"{base}/note-{i // 2}.md"
                if i % 2 == 0:
                    return tool.call({"command": "create", "path": path, "file_text": SMALL_NOTE})
                return tool.call(
                    {
                        "command": "str_replace",
                        "path": path,
                        "old_str": "status: draft",
                        "new_str": "status: kept",
                    }
                )

        elif kind == "read":
            tool.call({"command": "create", "path": f"{base}.md", "file_text": SMALL_NOTE})

            def step(i: int) -> object:
                return tool.call({"command": "view", "path": f"{base}.md"})

        else:

            def step(i: int) -> object:
                return opened.record_operation("bench.append", details={"i": i})

        barrier.wait()
        start = time.monotonic()
        for i in range(count):
            step(i)
        results.put((start, time.monotonic()))


@dataclass(frozen=True)
class Rate:
    records: int
    seconds: float

    @property
    def per_second(self) -> float:
        return self.records / self.seconds


def measure_rate(home: Path, kind: str, processes: int, count: int, tag: str) -> Rate:
    """Records appended by ``processes`` processes at once, over the wall time from the
    first one's start to the last one's end (opening the vault is not counted)."""
    before = log_head(home)
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(processes)
    results = context.Queue()
    workers = [
        context.Process(
            target=rate_worker,
            args=(str(home), f"rate-{n}", kind, count // processes, f"{tag}-{n}", barrier, results),
        )
        for n in range(processes)
    ]
    for worker in workers:
        worker.start()
    times = []
    for _ in workers:
        times.append(results.get(timeout=900))
    for worker in workers:
        worker.join()
        if worker.exitcode != 0:
            raise RuntimeError(f"a rate worker failed (exit code {worker.exitcode})")
    seconds = max(end for _, end in times) - min(start for start, _ in times)
    return Rate(log_head(home) - before, seconds)


RATE_KINDS = {
    "write": "write commands (create/str_replace), one fsync each",
    "read": "read commands (view), no fsync",
    "operation": "record_operation alone (one transaction + its record)",
}


def measure_rates(home: Path, plan: Plan) -> dict[str, dict[int, list[Rate]]]:
    rates: dict[str, dict[int, list[Rate]]] = {
        k: {p: [] for p in RATE_PROCESSES} for k in RATE_KINDS
    }
    for repeat in range(plan.rate_repeats):
        order = RATE_PROCESSES if repeat % 2 == 0 else RATE_PROCESSES[::-1]
        for kind in RATE_KINDS:
            for processes in order:
                tag = f"{kind}-{repeat}-{processes}"
                rates[kind][processes].append(
                    measure_rate(home, kind, processes, plan.rate_records, tag)
                )
    return rates


def print_rates(rates: dict[str, dict[int, list[Rate]]], sync: Summary, repeats: int) -> None:
    print(
        "\n1. append rate, durability 'full' (records appended / wall time; median of "
        f"{repeats} run{'s' if repeats != 1 else ''})"
    )
    print(
        f"disk floor, 4 KB write + fdatasync: median {sync.median_us:.0f}, p99 "
        f"{sync.p99_us:.0f} microseconds (at most {1e6 / sync.median_us:,.0f} syncs/s, serial)"
    )
    header = f"{'records':<56}" + "".join(f"{f'{p} proc rec/s':>16}" for p in RATE_PROCESSES)
    print(header)
    print("-" * len(header))
    for kind, label in RATE_KINDS.items():
        cells = "".join(
            f"{statistics.median(r.per_second for r in rates[kind][p]):>16,.0f}"
            for p in RATE_PROCESSES
        )
        print(f"{label:<56}{cells}")
    counts = {p: rates["write"][p][0].records for p in RATE_PROCESSES}
    print(f"records per run: {', '.join(f'{n} with {p} proc' for p, n in counts.items())}")


# -- 2. added latency ------------------------------------------------------------------


def measure_latency(
    mode: str, with_log: Path, without_log: Path, plan: Plan, *, first: int
) -> dict[str, dict[str, list[int]]]:
    with Vault.open(with_log, durability=mode) as logged:
        silent = open_without_log(without_log, mode)
        try:
            return run_interleaved(
                {
                    WITH_LOG: logged.memory_tool(user=MEASURED),
                    WITHOUT_LOG: silent.memory_tool(user=MEASURED),
                },
                iteration_steps,
                warmup=plan.warmup,
                iterations=plan.iterations,
                first=first,
            )
        finally:
            silent.close()


def print_latency(mode: str, samples: dict[str, dict[str, list[int]]]) -> None:
    print(f"\n2. added latency per command, durability {mode!r} (microseconds)")
    header = (
        f"{'command':<22}{'log med':>9}{'none med':>10}{'added':>8}{'ratio':>7}"
        f"{'log p99':>9}{'none p99':>10}{'added':>8}{'n':>6}  target"
    )
    print(header)
    print("-" * (len(header) + 16))
    over = []
    for label in COMMANDS:
        on = summarize(samples[WITH_LOG][label])
        off = summarize(samples[WITHOUT_LOG][label])
        added = on.median_us - off.median_us
        verdict = "OK" if added <= TARGET_ADDED_US else "OVER"
        if verdict == "OVER":
            over.append(label)
        print(
            f"{label:<22}{on.median_us:>9.1f}{off.median_us:>10.1f}{added:>8.1f}"
            f"{on.median_us / off.median_us:>7.2f}{on.p99_us:>9.1f}{off.p99_us:>10.1f}"
            f"{on.p99_us - off.p99_us:>8.1f}{on.count:>6}  <= {TARGET_ADDED_US:.0f}  {verdict}"
        )
    print("log = the vault as shipped; none = the same vault, AuditLog.record/holding/")
    print("maybe_anchor stubbed out; added = log - none; ratio = log/none, medians")
    print(f"=> {'all within target' if not over else 'OVER target: ' + ', '.join(over)}")


def adapter_costs(home: Path) -> dict[str, Summary]:
    """Audit work the stub does not remove: the tool adapter builds each command's event
    (the paths rendered through the redaction filter, keyed digests of the text) before
    the log sees it. Timed alone, in a loop."""
    with Vault.open(home, durability="normal") as opened:
        runner = opened.runner(user=MEASURED)
        key = runner._audit_key
        command = {"command": "view", "path": "/memories/topic-3/note-04.md"}
        text = note_text(7).encode()
        fid = os.urandom(16)
        out = {}
        for name, work in (
            ("render one path", lambda: runner._paths(command)),
            ("digest of a 2 KB note", lambda: key.digest(fid, text)),
        ):
            samples = []
            for _ in range(3000):
                start = time.perf_counter_ns()
                work()
                samples.append(time.perf_counter_ns() - start)
            out[name] = summarize(samples[500:])
        return out


# -- 3. verify ---------------------------------------------------------------------------


def record_templates(opened: Vault) -> list[dict[str, Any]]:
    """The fields of the records one iteration of real commands leaves (2 reads, 5 writes)."""
    tool = opened.memory_tool(user=MEASURED)
    for command in user_notes(0):
        tool.call(command)
    start, _ = opened.audit.head()
    for _, command in iteration_steps(0):
        tool.call(command)
    lines: list[bytes] = []
    for path in sorted(opened.audit.directory.glob("audit-*.jsonl")):
        lines += path.read_bytes().splitlines()
    return [json.loads(line[:-MAC_SUFFIX_LEN] + b"}") for line in lines[start:]]


def build_log(home: Path, records: int) -> tuple[int, float]:
    """A log of about ``records`` valid records, through the appender's own ``msg``.

    Real commands leave seven records; their fields are then appended again and
    again, each time with a new time stamp, sequence number, chain link and MAC,
    in store transactions of VERIFY_BATCH records (durability ``normal``). Write
    records go through the same path as a command's (``holding``, the store's
    anchor), so the log and its anchor verify as intact. Returns (bytes, seconds).
    """
    started = time.monotonic()
    with Vault.open(home, durability="normal") as opened:
        templates = record_templates(opened)
        log = opened.audit
        log.segment_bytes = VERIFY_SEGMENT_BYTES
        done = log.head()[0]
        while done < records:
            batch = min(VERIFY_BATCH, records - done)
            with log.holding(), opened._store.transaction(write=True):
                for i in range(done, done + batch):
                    fields = dict(templates[i % len(templates)])
                    fields["time"] = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
                    log.msg(fields)
            done += batch
    size = sum(p.stat().st_size for p in (home / "audit").glob("audit-*.jsonl"))
    return size, time.monotonic() - started


def run_verify(home: Path) -> tuple[Report, float]:
    """``memvault audit verify`` without the CLI: the store's anchor and pending lines,
    then the whole log. Only the ``verify`` call is timed."""
    with Vault._open(home, durability="normal", audit_problems=[]) as opened:
        anchor, pending = opened.audit.store_head(), opened.audit.pending()
        gc.collect()
        start = time.perf_counter()
        report = examine(opened.audit.directory, opened.audit.keys, anchor=anchor, pending=pending)
        return report, time.perf_counter() - start


def print_verify(records: int, size: int, built: float, runs: list[tuple[Report, float]]) -> None:
    report = runs[0][0]
    rates = [r.records / seconds for r, seconds in runs]
    rate = statistics.median(rates)
    verdict = "OK" if rate >= TARGET_VERIFY_RATE and report.intact else "OVER"
    print(f"\n3. verify, a log of {records:,} records")
    print(
        f"log: {report.records:,} records, {size / 1e6:,.0f} MB in {report.segments} segments "
        f"of up to {VERIFY_SEGMENT_BYTES >> 20} MiB, built in {built:.0f} s; "
        f"{'intact' if report.intact else 'NOT INTACT: ' + str(report.problems[0])}"
    )
    print(
        "verify runs (s): " + ", ".join(f"{seconds:.2f}" for _, seconds in runs) + "; median "
        f"{rate:,.0f} records/s ({rate * size / report.records / 1e6:,.0f} MB/s)  "
        f">= {TARGET_VERIFY_RATE:,}  {verdict}"
    )


# -- profiles ----------------------------------------------------------------------------


def profile(title: str, work: Callable[[], object], lines: int = 14) -> str:
    """cProfile of ``work``: the functions with the most own time, then the audit
    log's functions by cumulative time."""
    profiler = cProfile.Profile()
    profiler.enable()
    work()
    profiler.disable()
    parts = [f"\n-- profile: {title}"]
    for order, restrictions in (("tottime", (lines,)), ("cumulative", (r"memvault/audit/", lines))):
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats(order).print_stats(*restrictions)
        body = out.getvalue()
        parts.append(f"by {order}" + (" (memvault/audit/*.py)" if order == "cumulative" else ""))
        parts.append(body[body.find("   ncalls") :].rstrip())
    return "\n".join(parts)


def call_all(tool: Any, commands: list[dict[str, Any]]) -> None:
    for command in commands:
        tool.call(command)


def profiles(root: Path, verify_home: Path) -> list[str]:
    out = [profile("verify", lambda: run_verify(verify_home))]
    home = root / "profile"
    populate(home)
    # Each iteration deletes the note it made: both passes can reuse the names.
    writes = [command for i in range(300) for _, command in iteration_steps(i)[2:]]
    reads = [iteration_steps(i)[0][1] for i in range(3000)]
    for mode in ("full", "normal"):
        with Vault.open(home, durability=mode) as opened:
            tool = opened.memory_tool(user=MEASURED)
            title = f"5 x 300 write commands, durability {mode!r}"
            out.append(profile(title, functools.partial(call_all, tool, writes)))
            if mode == "full":
                out.append(profile("3,000 view commands", functools.partial(call_all, tool, reads)))
    return out


# -- the run -----------------------------------------------------------------------------


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
    parser.add_argument(
        "--profile", action="store_true", help="also print cProfile listings of the hot paths"
    )
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    plan = QUICK if args.quick else FULL
    root = Path(tempfile.mkdtemp(prefix="memvault-bench-audit-", dir=args.dir))
    started = time.monotonic()
    results: dict[str, Any] = {}
    try:
        env = environment(root)
        print(f"memvault from {env['memvault']}; data in {root}: {env['filesystem']}")
        print(f"python {env['python']}, sqlite {env['sqlite']}, {env['cpus']} cpus", flush=True)
        with isolated_environment(root):
            # 1. The rate vault holds only what the workers write.
            rate_home = root / "rate"
            log_head(rate_home)
            sync = sync_latency(root, plan.sync_probes)
            rates = measure_rates(rate_home, plan)
            print_rates(rates, sync, plan.rate_repeats)
            results["rates"] = {
                "sync_probe_us": asdict(sync),
                **{
                    kind: {str(p): [asdict(r) for r in runs] for p, runs in by_p.items()}
                    for kind, by_p in rates.items()
                },
            }

            # 2. Two vaults built alike; each pass names its notes apart from the last one's.
            homes = root / "with-log", root / "without-log"
            print(f"\nbuilding 2 vaults of {USERS} users x 100 notes of 2 KB ...", flush=True)
            for home in homes:
                populate(home)
            results["latency"] = {}
            for n, mode in enumerate(("full", "normal")):
                first = n * (plan.warmup + plan.iterations)
                samples = measure_latency(mode, *homes, plan, first=first)
                print_latency(mode, samples)
                results["latency"][mode] = samples
            costs = adapter_costs(homes[0])
            print(
                "not in 'added' (the adapter builds the event in both vaults): "
                + "; ".join(
                    f"{name} median {s.median_us:.1f}, p99 {s.p99_us:.1f}"
                    for name, s in costs.items()
                )
                + " (a command has 1-2 paths and 0-2 digests)"
            )
            results["adapter_us"] = {name: asdict(s) for name, s in costs.items()}

            # 3. Verify.
            verify_home = root / "verify"
            print(f"\nbuilding a log of {plan.verify_records:,} records ...", flush=True)
            size, built = build_log(verify_home, plan.verify_records)
            runs = [run_verify(verify_home) for _ in range(plan.verify_repeats)]
            print_verify(plan.verify_records, size, built, runs)
            results["verify"] = {
                "records": runs[0][0].records,
                "segments": runs[0][0].segments,
                "bytes": size,
                "intact": runs[0][0].intact,
                "seconds": [seconds for _, seconds in runs],
            }
            if args.profile:
                for listing in profiles(root, verify_home):
                    print(listing)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(f"\ntotal {time.monotonic() - started:.0f} s")
    if args.json is not None:
        report = {"environment": env, "plan": asdict(plan), **results}
        args.json.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
        print(f"raw figures written to {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
