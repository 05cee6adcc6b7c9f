"""What serving the memory tool over MCP adds: a round trip per command against an in-process call.

Run by hand; it prints figures and asserts nothing about them::

    .venv/bin/python bench/bench_mcp.py [--quick] [--json FILE] [--dir DIR] [--seed N]

In a fresh temporary directory (deleted at the end, with the key directory and the
master key it sets for itself) it builds three vaults alike: one user with 10 topic
directories of 10 notes of 2 KB each. Then, in the same run, it times the commands of
``bench_commands.py`` three ways, one vault each:

* local: ``Vault.memory_tool(user).call(...)``, as an application embedding memvault
  calls it;
* raw: ``memvault --home H mcp --user U`` started as a client starts it (a subprocess
  on stdio, a minimal environment plus the key), sent one JSON-RPC line per command by
  a bare client that waits for the answer's line: the server's share of a round trip;
* mcp: the same server, driven by the ``mcp`` client library's ``call_tool``: a
  real client's round trip.

At every iteration the three take turns in a new shuffled order (seeded, printed),
command by command, so that noise on the machine falls on all alike; warm-up
iterations are dropped and the collector runs between iterations only. A ``ping`` row
times an MCP round trip with no vault work, and a last line times a server's start:
spawn to the answer of its first ``view``.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import subprocess
import sys
import time
import warnings
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import IO, Any

import anyio
from bench_commands import (
    CREATE,
    DELETE,
    INSERT,
    NOTES_PER_TOPIC,
    RENAME,
    STR_REPLACE,
    TOPICS,
    VIEW_DIR,
    VIEW_FILE,
    Summary,
    iteration_steps,
    run_scratch,
    summarize,
    user_notes,
)
from mcp import Client, MCPDeprecationWarning, StdioServerParameters, stdio_client

from memvault import MemoryTool, Vault

USER = "user-042"
INFO = {"name": "bench_mcp", "version": "1"}
ROWS = (VIEW_FILE, VIEW_DIR, CREATE, STR_REPLACE, INSERT, RENAME, DELETE)
PING = "ping (no command)"
IN_PROCESS = "in-process"
MCP = "mcp"
RAW = "raw"
SIDES = (IN_PROCESS, RAW, MCP)


@dataclass(frozen=True)
class Plan:
    warmup: int
    iterations: int
    starts: int


FULL = Plan(warmup=50, iterations=1000, starts=20)
QUICK = Plan(warmup=5, iterations=60, starts=5)

Samples = dict[str, dict[str, list[int]]]  # side -> row -> nanoseconds


def server_params(home: Path) -> StdioServerParameters:
    """The server as a client's config would start it: the key and key directory in its
    env (and PYTHONPATH, so that it runs the memvault this bench imports)."""
    names = ("MEMVAULT_MASTER_KEY", "XDG_CONFIG_HOME", "PYTHONPATH")
    env = {name: os.environ[name] for name in names if name in os.environ}
    args = ["-m", "memvault", "--home", str(home), "mcp", "--user", USER]
    return StdioServerParameters(command=sys.executable, args=args, env=env)


def build(home: Path) -> None:
    with Vault.open(home, durability="normal") as vault:
        tool = vault.memory_tool(user=USER)
        for command in user_notes(42_000):
            tool.call(command)


Timer = Callable[[dict[str, Any] | None], Awaitable[int]]  # a command, or None: a ping


class RawClient:
    """A bare JSON-RPC client on the server's pipes: a line out, a line back, no library.

    What it times is the server's own share of a round trip; the client library's share
    is the difference to the ``mcp`` column."""

    def __init__(self, params: StdioServerParameters, errlog: IO[str]) -> None:
        base = {name: os.environ[name] for name in ("HOME", "PATH") if name in os.environ}
        self._process = subprocess.Popen(
            [params.command, *params.args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=errlog,
            env={**base, **(params.env or {})},
        )
        self._id = 0
        init = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": INFO}
        self.request("initialize", init)
        self._write({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def _write(self, message: dict[str, Any]) -> None:
        assert self._process.stdin is not None
        self._process.stdin.write(json.dumps(message).encode() + b"\n")
        self._process.stdin.flush()

    def request(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        self._id += 1
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": self._id, "method": method}
        if params is not None:
            message["params"] = params
        self._write(message)
        assert self._process.stdout is not None
        answer: dict[str, Any] = json.loads(self._process.stdout.readline())
        assert answer.get("id") == self._id and "result" in answer, answer
        return answer["result"]

    def close(self) -> None:
        assert self._process.stdin is not None
        self._process.stdin.close()
        self._process.wait(timeout=60)


def timers(tool: MemoryTool, raw: RawClient, client: Client) -> dict[str, Timer]:
    async def local(command: dict[str, Any] | None) -> int:
        start = time.perf_counter_ns()
        tool.call(command)
        return time.perf_counter_ns() - start

    async def bare(command: dict[str, Any] | None) -> int:
        start = time.perf_counter_ns()
        if command is None:
            raw.request("ping")
        else:
            result = raw.request("tools/call", {"name": "memory", "arguments": command})
            assert not result["isError"], result
        return time.perf_counter_ns() - start

    async def library(command: dict[str, Any] | None) -> int:
        start = time.perf_counter_ns()
        if command is None:
            await client.send_ping()
        else:
            result = await client.call_tool("memory", command)
            assert not result.is_error, result.content
        return time.perf_counter_ns() - start

    return {IN_PROCESS: local, RAW: bare, MCP: library}


async def measure(sides: dict[str, Timer], plan: Plan, rng: random.Random) -> Samples:
    """Every iteration's steps on every side, in a new shuffled order at each iteration,
    then a ping on the two MCP sides."""
    samples: Samples = {side: {} for side in sides}
    gc.collect()
    gc.disable()
    try:
        for i in range(plan.warmup + plan.iterations):
            keep = i >= plan.warmup
            order = list(sides)
            rng.shuffle(order)
            steps: list[tuple[str, dict[str, Any] | None]] = [*iteration_steps(i), (PING, None)]
            for label, command in steps:
                for side in order:
                    if command is None and side == IN_PROCESS:
                        continue
                    elapsed = await sides[side](command)
                    if keep:
                        samples[side].setdefault(label, []).append(elapsed)
            gc.collect(generation=0)
    finally:
        gc.enable()
    return samples


async def run_pass(homes: Sequence[Path], plan: Plan, seed: int, errlog: Path) -> Samples:
    with (
        Vault.open(homes[0]) as vault,
        errlog.open("a", encoding="utf-8") as err,
    ):
        raw = RawClient(server_params(homes[1]), err)
        try:
            transport = stdio_client(server_params(homes[2]), errlog=err)
            async with Client(transport, mode="legacy") as client:
                sides = timers(vault.memory_tool(user=USER), raw, client)
                samples = await measure(sides, plan, random.Random(seed))
        finally:
            raw.close()
    print(f"order: a new shuffle of the three at every iteration, seed {seed}")
    return samples


async def time_starts(home: Path, count: int, errlog: Path) -> list[int]:
    """Spawn to the answer of the first view (initialize handshake included), ``count`` times."""
    view = {"command": "view", "path": "/memories/topic-0/note-00.md"}
    out = []
    with errlog.open("a", encoding="utf-8") as err:
        for _ in range(count):
            start = time.perf_counter_ns()
            async with Client(
                stdio_client(server_params(home), errlog=err), mode="legacy"
            ) as client:
                await client.call_tool("memory", view)
                out.append(time.perf_counter_ns() - start)
    return out


def print_table(samples: Samples) -> dict[str, Any]:
    header = (
        f"{'command':<22}{'local':>9}{'raw':>9}{'mcp':>9}{'raw-loc':>9}{'mcp-loc':>9}"
        f"{'raw/loc':>9}{'mcp/loc':>9}   {'p99 local':>9}{'raw':>8}{'mcp':>8}"
        f"{'mcp/loc':>9}{'mcp p99/med':>12}{'n':>6}"
    )
    print(header)
    print("-" * len(header))
    figures: dict[str, Any] = {}
    for label in (*ROWS, PING):
        got = {side: summarize(samples[side][label]) for side in SIDES if label in samples[side]}
        figures[label] = {side: asdict(summary) for side, summary in got.items()}
        raw, mcp = got[RAW], got[MCP]
        local = got.get(IN_PROCESS)
        med = [s.median_us for s in (local, raw, mcp) if s is not None]
        p99 = [s.p99_us for s in (local, raw, mcp) if s is not None]
        if local is None:
            print(
                f"{label:<22}{'-':>9}{raw.median_us:>9.0f}{mcp.median_us:>9.0f}{'':>36}   "
                f"{'-':>9}{raw.p99_us:>8.0f}{mcp.p99_us:>8.0f}{'':>9}"
                f"{mcp.p99_us / mcp.median_us:>12.2f}{mcp.count:>6}"
            )
            continue
        print(
            f"{label:<22}{med[0]:>9.0f}{med[1]:>9.0f}{med[2]:>9.0f}{med[1] - med[0]:>9.0f}"
            f"{med[2] - med[0]:>9.0f}{med[1] / med[0]:>9.2f}{med[2] / med[0]:>9.2f}   "
            f"{p99[0]:>9.0f}{p99[1]:>8.0f}{p99[2]:>8.0f}{p99[2] / p99[0]:>9.2f}"
            f"{mcp.p99_us / mcp.median_us:>12.2f}{mcp.count:>6}"
        )
    print(
        "medians, then p99s (nearest rank), in microseconds. local = MemoryTool.call in this "
        "process;\nraw = a bare JSON-RPC line to `memvault mcp` and its answer (the server's "
        "share);\nmcp = the mcp client library's call_tool to `memvault mcp` (a real client's "
        "round trip)"
    )
    return figures


def print_starts(starts: Sequence[int]) -> Summary:
    summary = summarize(starts)
    print(
        f"\nserver start (spawn, initialize, first view answered): median "
        f"{summary.median_us / 1000:.0f} ms, p99 {summary.p99_us / 1000:.0f} ms, "
        f"min {min(starts) / 1e6:.0f} ms ({summary.count} starts)"
    )
    return summary


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="far fewer samples (a smoke run)")
    parser.add_argument("--json", metavar="FILE", type=Path, help="write the raw figures here")
    parser.add_argument("--seed", type=int, default=None, help="the order's seed (default: random)")
    parser.add_argument(
        "--dir", metavar="DIR", type=Path, help="where to make the temporary directory"
    )
    return parser.parse_args(argv)


def _run(args: argparse.Namespace, root: Path, clock: Callable[[], float]) -> dict[str, Any]:
    plan = QUICK if args.quick else FULL
    seed = args.seed if args.seed is not None else random.randrange(1 << 32)
    homes = (root / "in-process", root / "raw", root / "mcp")
    print(f"building three vaults of {TOPICS * NOTES_PER_TOPIC} notes of 2 KB ...", flush=True)
    for home in homes:
        build(home)
    print(f"  built in {clock():.0f} s; {plan.warmup} warm-up + {plan.iterations} iterations")
    errlog = root / "server-stderr.txt"
    samples = anyio.run(run_pass, homes, plan, seed, errlog)
    figures = print_table(samples)
    starts = anyio.run(time_starts, homes[2], plan.starts, errlog)
    return {
        "seed": seed,
        "plan": asdict(plan),
        "rows": figures,
        "starts": asdict(print_starts(starts)),
        "samples_ns": samples,
        "starts_ns": starts,
    }


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    # ping is deprecated for 2026-07-28 connections; these are initialize-handshake ones,
    # as Claude's clients make, where it is the protocol's no-op request.
    warnings.filterwarnings("ignore", category=MCPDeprecationWarning)
    return run_scratch(
        "memvault-bench-mcp-",
        args,
        lambda root, clock: _run(args, root, clock),
        library=("mcp", "mcp"),
    )


if __name__ == "__main__":
    sys.exit(main())
