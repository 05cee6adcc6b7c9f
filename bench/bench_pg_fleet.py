"""Audited commands per second of a fleet of workers on one PostgreSQL vault.

Run by hand; it prints figures and asserts nothing about them::

    .venv/bin/python bench/bench_pg_fleet.py [--quick] [--json FILE] [--seed N]

It starts a throwaway cluster of its own on 127.0.0.1 (the tests'
``tests/support/postgres.py``) that flushes every commit, as a real server does. Each
worker is a process with its own ``Vault.open(dsn)`` (``durability="full"``), all under
one master key, running a mixed workload over 64 users: 60% view of a file, 15%
str_replace, 10% insert, 10% create, 5% delete. What varies, each combination measured
for a few seconds, all of them in a new shuffled order every round (seeded, printed):

* ``P``, worker processes: 1, 4, 16;
* the vault: on PostgreSQL with the log's default 16 chains, on PostgreSQL with 1 chain
  (every command of the fleet waits for one head), and in a SQLite home (one writer at a
  time, for reference).

It prints commands per second (the median of the rounds), the ratio to one worker of
the same vault, latency p50 and p99, and the CPU time per command of the workers and of
the server's processes (from /proc), which is what bounds the rate on a small machine.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
from memvault import Vault
from memvault.store import PgStore
from tests.support import postgres

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_pg_chains import workers

WORKERS = (1, 4, 16)
VAULTS = ("pg16", "pg1", "sqlite")
USERS = 64
MIX = (("view", 60), ("str_replace", 15), ("insert", 10), ("create", 10), ("delete", 5))
TICKS = os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Plan:
    seconds: float
    rounds: int


FULL = Plan(seconds=4.0, rounds=3)
QUICK = Plan(seconds=1.5, rounds=1)


class Workload:
    """One worker's commands: each user has a note it views and edits, a log it appends
    to, and files it creates and deletes."""

    def __init__(self, vault: Vault, rng: random.Random, name: str) -> None:
        self.vault, self.rng, self.name = vault, rng, name
        self.runners: dict[int, Any] = {}
        self.made: list[tuple[int, str]] = []
        self.count = 0
        self.kinds = [kind for kind, weight in MIX for _ in range(weight)]

    def runner(self, user: int) -> Any:
        if user not in self.runners:
            self.runners[user] = self.vault.runner(f"user-{user:03d}")
        return self.runners[user]

    def step(self) -> None:
        kind = self.rng.choice(self.kinds)
        user = self.rng.randrange(USERS)
        run = self.runner(user).run
        self.count += 1
        if kind == "view":
            reply = run({"command": "view", "path": "/memories/note.md"})
        elif kind == "str_replace":
            old, new = ("status: open", "status: done")[:: self.rng.choice((1, -1))]
            reply = run(
                {
                    "command": "str_replace",
                    "path": "/memories/note.md",
                    "old_str": old,
                    "new_str": new,
                }
            )
            if reply.is_error and "No replacement" in reply.content:
                return  # the other state: as real as a success
        elif kind == "insert":
            reply = run(
                {
                    "command": "insert",
                    "path": "/memories/log.md",
                    "insert_line": 0,
                    "insert_text": f"seen by {self.name} #{self.count}\n",
                }
            )
        elif kind == "create" or not self.made:
            path = f"/memories/w/{self.name}-{self.count}.md"
            reply = run({"command": "create", "path": path, "file_text": "a fact\n" * 8})
            self.made.append((user, path))
        else:
            owner, path = self.made.pop(self.rng.randrange(len(self.made)))
            reply = self.runner(owner).run({"command": "delete", "path": path})
        if reply.is_error:
            raise RuntimeError(f"{kind} failed: {reply.content}")


def prepare(location: str) -> None:
    """Every user with a note and a log, so the workers' first commands find them."""
    with Vault.open(location) as vault:
        for user in range(USERS):
            runner = vault.runner(f"user-{user:03d}")
            runner.run(
                {
                    "command": "create",
                    "path": "/memories/note.md",
                    "file_text": "customer prefers e-mail\nstatus: open\n",
                }
            )
            runner.run({"command": "create", "path": "/memories/log.md", "file_text": "log\n"})


def worker(locations: dict[str, str], pipe: Connection, seed: int) -> None:
    rng = random.Random(seed)
    vaults = {name: Vault.open(location) for name, location in locations.items()}
    loads = {name: Workload(vault, rng, f"w{seed}") for name, vault in vaults.items()}
    pipe.send("ready")
    while (job := pipe.recv()) is not None:
        name, start, end = job
        load, latencies = loads[name], []
        while time.time() < start:
            time.sleep(0.0005)
        cpu = time.process_time()
        while time.time() < end:
            began = time.perf_counter_ns()
            load.step()
            latencies.append(time.perf_counter_ns() - began)
        pipe.send((latencies, time.process_time() - cpu))
    for vault in vaults.values():
        vault.close()


def server_cpu(cluster: postgres.Cluster) -> float:
    """CPU seconds used so far by the server's processes (the postmaster's children)."""
    postmaster = int((cluster.data / "postmaster.pid").read_text().split()[0])
    total = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == postmaster or int(entry) == postmaster:
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / TICKS


def measure(
    locations: dict[str, str], cluster: postgres.Cluster, plan: Plan, seed: int
) -> dict[tuple[str, int], dict[str, Any]]:
    combos = [(v, p) for v in VAULTS for p in WORKERS]
    raw: dict[tuple[str, int], list[tuple[float, list[int], float, float]]] = {
        c: [] for c in combos
    }
    rng = random.Random(seed)
    with workers(locations, max(WORKERS), seed, worker) as pipes:
        for round_ in range(plan.rounds):
            order = combos[:]
            rng.shuffle(order)
            print(f"  round {round_ + 1}/{plan.rounds}", flush=True)
            for name, p in order:
                start = time.time() + 0.2
                server_before = server_cpu(cluster)
                for pipe in pipes[:p]:
                    pipe.send((name, start, start + plan.seconds))
                replies = [pipe.recv() for pipe in pipes[:p]]
                server = server_cpu(cluster) - server_before
                latencies = [ns for lats, _ in replies for ns in lats]
                client = sum(cpu for _, cpu in replies)
                raw[(name, p)].append((len(latencies) / plan.seconds, latencies, client, server))
    out = {}
    for combo, runs in raw.items():
        lats = [ns for _, ls, _, _ in runs for ns in ls]
        commands = len(lats)
        out[combo] = {
            "per_s": statistics.median(r[0] for r in runs),
            "rounds": [r[0] for r in runs],
            "p50_ms": statistics.median(lats) / 1e6,
            "p99_ms": statistics.quantiles(lats, n=100)[98] / 1e6,
            "client_cpu_ms": 1000 * sum(r[2] for r in runs) / commands,
            "server_cpu_ms": 1000 * sum(r[3] for r in runs) / commands,
        }
    return out


def print_table(figures: dict[tuple[str, int], dict[str, Any]]) -> None:
    heads = ("vault", "P", "cmds/s", "x P=1", "p50 ms", "p99 ms", "cpu ms: worker", "server")
    print(
        "\n" + f"{heads[0]:<7}{heads[1]:>3}{heads[2]:>9}{heads[3]:>7}{heads[4]:>8}{heads[5]:>8}"
        f"{heads[6]:>16}{heads[7]:>8}"
    )
    for (name, p), row in figures.items():
        base = figures[(name, 1)]["per_s"]
        server = f"{row['server_cpu_ms']:>8.2f}" if name != "sqlite" else f"{'-':>8}"
        print(
            f"{name:<7}{p:>3}{row['per_s']:>9,.0f}{row['per_s'] / base:>7.2f}"
            f"{row['p50_ms']:>8.2f}{row['p99_ms']:>8.2f}{row['client_cpu_ms']:>16.2f}{server}"
        )
    print(
        "pg16 / pg1: PostgreSQL with 16 chains / 1 chain; sqlite: one home; P = worker "
        "processes; x P=1 = over one worker of the same vault; cpu ms = CPU time per command"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one short round (a smoke run)")
    parser.add_argument("--json", metavar="FILE", type=Path, help="write the figures here")
    parser.add_argument("--seed", type=int, default=random.randrange(1 << 30))
    args = parser.parse_args(argv)
    plan = QUICK if args.quick else FULL
    os.environ["MEMVAULT_MASTER_KEY"] = base64.b64encode(os.urandom(32)).decode()
    cluster = postgres.start_cluster(durable=True)
    scratch = tempfile.mkdtemp(prefix="memvault-fleet-")
    started = time.monotonic()
    try:
        locations = {"sqlite": f"{scratch}/home", **_databases(cluster)}
        for location in locations.values():
            prepare(location)
        print(
            f"{os.cpu_count()} cpus, load average {os.getloadavg()[0]:.2f}; {plan.rounds} "
            f"rounds of {plan.seconds:.1f} s per combination, order seeded {args.seed}"
        )
        figures = measure(locations, cluster, plan, args.seed)
        print_table(figures)
        print(f"load average after: {os.getloadavg()[0]:.2f}")
    finally:
        postgres.stop_cluster(cluster)
    print(f"\ntotal {time.monotonic() - started:.0f} s")
    if args.json is not None:
        rows = [{"vault": v, "workers": p, **f} for (v, p), f in figures.items()]
        args.json.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    return 0


def _databases(cluster: postgres.Cluster) -> dict[str, str]:
    """Two migrated databases: the log's default 16 chains, and 1."""
    import psycopg

    out = {}
    for name, chains in (("pg16", 16), ("pg1", 1)):
        database = f"fleet_{name}"
        with psycopg.connect(cluster.dsn_for("postgres"), autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {database}")
            conn.execute(f"CREATE DATABASE {database}")
        dsn = cluster.dsn_for(database)
        store = PgStore(dsn)
        try:
            store.migrate_schema(chains)
        finally:
            store.close()
        out[name] = dsn
    return out


if __name__ == "__main__":
    sys.exit(main())
