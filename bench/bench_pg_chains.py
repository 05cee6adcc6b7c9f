"""How a chained audit log in PostgreSQL scales with writers: one chain against several.

Run by hand; it prints figures and asserts nothing about them::

    .venv/bin/python bench/bench_pg_chains.py [--quick] [--dsn DSN] [--json FILE] [--seed N]

Without ``--dsn`` it starts a throwaway cluster of its own on 127.0.0.1 (the tests'
``tests/support/postgres.py``) that flushes every commit, as a real server does, and
stops it at the end.

Each transaction is shaped like an audited memory command on a shared database: it
writes a 2 KB row (the change) and appends one record to its chain: the chain's head row
is locked (``SELECT ... FOR UPDATE``), the record's line is made in the client (the
previous line's SHA-256 and an HMAC over the line, as memvault's records carry), inserted,
and the head moved on; then the commit, flushed. A user's records go to the chain a keyed
hash of the user picks, so one user's records stay in one gap-free chain.

What varies, each combination measured for a few seconds, all of them in a new shuffled
order every round (seeded, printed):

* ``P``, worker processes, each with its own connection: 1, 4, 16;
* ``K``, chains: 1 (every command in the fleet waits for one head row) or 16;
* where the head is locked: ``first``, before the change is written, as the vault's
  stamps need (every node names the record that wrote it, so the number is taken
  first), or ``last``, after it, holding the head only for the append and the commit;
  ``piped`` is ``first`` in psycopg's pipeline mode: the head's row is read in one round
  trip, and the change, the record, the head's update and the commit go in one more.

It prints commits per second (the median of the rounds), the ratio to one worker in the
same column, and the transaction's median and p99 in ms.
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import multiprocessing
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.support import postgres  # the tests' throwaway cluster

WORKERS = (1, 4, 16)
CHAINS = (1, 16)
ORDERS = ("first", "last", "piped")
USERS = 1_000
NOTE = os.urandom(2048)
KEY = os.urandom(32)  # the stand-in for the audit MAC key: it never leaves the client
SCHEMA = """
DROP TABLE IF EXISTS heads, records, notes;
CREATE TABLE heads (chain integer PRIMARY KEY, seq bigint NOT NULL, hash bytea NOT NULL);
CREATE TABLE records (
    chain integer NOT NULL, seq bigint NOT NULL, line bytea NOT NULL,
    PRIMARY KEY (chain, seq)
);
CREATE TABLE notes (id bigserial PRIMARY KEY, owner integer NOT NULL, blob bytea NOT NULL);
"""


@dataclass(frozen=True)
class Plan:
    seconds: float  # one combination's run
    rounds: int


FULL = Plan(seconds=3.0, rounds=3)
QUICK = Plan(seconds=1.0, rounds=1)


def chain_of(user: int, chains: int) -> int:
    digest = hmac.new(KEY, user.to_bytes(4, "big"), hashlib.sha256).digest()
    return int.from_bytes(digest[:4], "big") % chains


def record_line(chain: int, seq: int, prev: bytes, user: int) -> bytes:
    """A record about as long as memvault's, linked to the line before and MACed."""
    body = json.dumps(
        {
            "v": 1,
            "seq": seq,
            "chain": chain,
            "time": time.time(),
            "user": hashlib.sha256(user.to_bytes(4, "big")).hexdigest()[:32],
            "command": "str_replace",
            "paths": ["x" * 88],
            "outcome": "ok",
            "before": "b" * 64,
            "after": "a" * 64,
            "prev": prev.hex(),
        },
        separators=(",", ":"),
    ).encode()
    return body + hmac.new(KEY, body, hashlib.sha256).hexdigest().encode()


def command(conn: psycopg.Connection[Any], user: int, chains: int, order: str) -> None:
    """One audited command: the change and its record, in one transaction."""
    if order == "piped":
        with conn.pipeline():
            _statements(conn, user, chain_of(user, chains), "first")
        return
    _statements(conn, user, chain_of(user, chains), order)


def _statements(conn: psycopg.Connection[Any], user: int, chain: int, order: str) -> None:
    with conn.transaction():
        if order == "last":
            conn.execute("INSERT INTO notes (owner, blob) VALUES (%s, %s)", (user, NOTE))
        seq, prev = conn.execute(
            "SELECT seq, hash FROM heads WHERE chain = %s FOR UPDATE", (chain,)
        ).fetchone()  # type: ignore[misc]
        if order == "first":
            conn.execute("INSERT INTO notes (owner, blob) VALUES (%s, %s)", (user, NOTE))
        line = record_line(chain, seq + 1, prev, user)
        conn.execute("INSERT INTO records VALUES (%s, %s, %s)", (chain, seq + 1, line))
        conn.execute(
            "UPDATE heads SET seq = %s, hash = %s WHERE chain = %s",
            (seq + 1, hashlib.sha256(line).digest(), chain),
        )


def worker(dsn: str, pipe: Connection, seed: int) -> None:
    """A worker process: runs commands from a start time to an end time when told."""
    rng = random.Random(seed)
    with psycopg.connect(dsn, autocommit=True) as conn:
        pipe.send("ready")
        while True:
            job = pipe.recv()
            if job is None:
                return
            chains, order, start, end = job
            latencies: list[int] = []
            while time.time() < start:
                time.sleep(0.0005)
            while time.time() < end:
                began = time.perf_counter_ns()
                command(conn, rng.randrange(USERS), chains, order)
                latencies.append(time.perf_counter_ns() - began)
            pipe.send(latencies)


@contextmanager
def workers(
    dsn: Any, count: int, seed: int, target: Callable[..., None] | None = None
) -> Iterator[list[Connection]]:
    """``count`` worker processes running ``target(dsn, pipe, seed + n)`` (``worker`` when
    None), each started, imported and ready before the first job."""
    context = multiprocessing.get_context("spawn")
    pipes, processes = [], []
    for n in range(count):
        ours, theirs = context.Pipe()
        process = context.Process(
            target=target or worker, args=(dsn, theirs, seed + n), daemon=True
        )
        process.start()
        pipes.append(ours)
        processes.append(process)
    for pipe in pipes:  # started, imported and connected: a first job is not cut short
        assert pipe.recv() == "ready"
    try:
        yield pipes
    finally:
        for pipe in pipes:
            pipe.send(None)
        for process in processes:
            process.join(timeout=10)


def reset(dsn: str, chains: int) -> None:
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("TRUNCATE heads, records, notes")
        for chain in range(chains):
            conn.execute("INSERT INTO heads VALUES (%s, 0, %s)", (chain, b"\0" * 32))
        conn.execute("VACUUM ANALYZE heads, records, notes")


def run_one(
    dsn: str, pipes: list[Connection], p: int, k: int, order: str, seconds: float
) -> tuple[float, list[int]]:
    reset(dsn, k)
    start = time.time() + 0.2
    for pipe in pipes[:p]:
        pipe.send((k, order, start, start + seconds))
    latencies = [ns for pipe in pipes[:p] for ns in pipe.recv()]
    with psycopg.connect(dsn, autocommit=True) as conn:
        gaps = conn.execute(
            "SELECT count(*) FROM (SELECT chain, max(seq) - count(*) AS gap FROM records "
            "GROUP BY chain) AS c WHERE gap <> 0"
        ).fetchone()
    assert gaps == (0,), "a chain has a gap"
    return len(latencies) / seconds, latencies


def measure(dsn: str, plan: Plan, seed: int) -> dict[tuple[int, int, str], dict[str, Any]]:
    combos = [(p, k, o) for p in WORKERS for k in CHAINS for o in ORDERS]
    rates: dict[tuple[int, int, str], list[float]] = {c: [] for c in combos}
    lats: dict[tuple[int, int, str], list[int]] = {c: [] for c in combos}
    rng = random.Random(seed)
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(SCHEMA)
    with workers(dsn, max(WORKERS), seed) as pipes:
        for round_ in range(plan.rounds):
            order = combos[:]
            rng.shuffle(order)
            print(f"  round {round_ + 1}/{plan.rounds}", flush=True)
            for combo in order:
                rate, latencies = run_one(dsn, pipes, *combo, plan.seconds)
                rates[combo].append(rate)
                lats[combo] += latencies
    return {
        c: {
            "commits_per_s": statistics.median(rates[c]),
            "rounds": rates[c],
            "median_ms": statistics.median(lats[c]) / 1e6,
            "p99_ms": statistics.quantiles(lats[c], n=100)[98] / 1e6,
        }
        for c in combos
    }


def print_table(figures: dict[tuple[int, int, str], dict[str, Any]]) -> None:
    heads = ("P", "K", "head", "commits/s", "x P=1", "med ms", "p99 ms")
    widths = (3, 3, 6, 10, 7, 8, 8)
    print("\n" + " ".join(f"{h:>{w}}" for h, w in zip(heads, widths, strict=True)))
    for (p, k, order), row in figures.items():
        base = figures[(1, k, order)]["commits_per_s"]
        print(
            f"{p:>3} {k:>3} {order:>6} {row['commits_per_s']:>10,.0f} "
            f"{row['commits_per_s'] / base:>7.2f} {row['median_ms']:>8.2f} {row['p99_ms']:>8.2f}"
        )
    print(
        "P = worker processes, K = chains, head = when the chain's head row is locked "
        "(first: before the change, as stamps need; last: after it; piped: first, in two round "
        "trips); x P=1 = commits/s over "
        "one worker's with the same K and head"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one short round (a smoke run)")
    parser.add_argument("--dsn", help="a database to use (its tables heads, records, notes)")
    parser.add_argument("--json", metavar="FILE", type=Path, help="write the figures here")
    parser.add_argument("--seed", type=int, default=random.randrange(1 << 30))
    parser.add_argument(
        "--no-flush",
        action="store_true",
        help="commit without waiting for the flush (synchronous_commit off): the ceiling "
        "the CPUs leave, to tell it from the disk's",
    )
    args = parser.parse_args(argv)
    plan = QUICK if args.quick else FULL
    cluster = None if args.dsn else postgres.start_cluster(durable=True)
    dsn = args.dsn or cluster.dsn  # type: ignore[union-attr]
    if args.no_flush:
        dsn += ("&" if "?" in dsn else "?") + "options=-csynchronous_commit%3Doff"
    started = time.monotonic()
    try:
        with psycopg.connect(dsn) as conn:
            version = conn.execute("SHOW server_version").fetchone()
            sync = conn.execute("SHOW synchronous_commit").fetchone()
        print(
            f"PostgreSQL {version[0] if version else '?'}, synchronous_commit "
            f"{sync[0] if sync else '?'}, {os.cpu_count()} cpus, load average "
            f"{os.getloadavg()[0]:.2f}; {plan.rounds} rounds of {plan.seconds:.0f} s per "
            f"combination, order seeded {args.seed}"
        )
        figures = measure(dsn, plan, args.seed)
        print_table(figures)
        print(f"load average after: {os.getloadavg()[0]:.2f}")
    finally:
        if cluster is not None:
            postgres.stop_cluster(cluster)
    print(f"\ntotal {time.monotonic() - started:.0f} s")
    if args.json is not None:
        rows = [{"workers": p, "chains": k, "head": o, **v} for (p, k, o), v in figures.items()]
        args.json.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
