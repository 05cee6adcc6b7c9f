"""The PostgreSQL test cluster itself: a real server, a database per test, loopback only.

What the PostgreSQL store's tests will stand on (``tests/support/postgres.py``): if one
of these fails, theirs mean nothing.
"""

from __future__ import annotations

import socket
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any, LiteralString

import psycopg
import pytest
from psycopg_pool import ConnectionPool

from tests.support.postgres import Cluster

THREADS = 16
WAIT = 30.0  # seconds; everything here takes well under one
_databases_seen: list[str] = []


def test_the_server_is_postgresql(pg_dsn: str) -> None:
    """A test's DSN reaches a PostgreSQL server, as its superuser."""
    with psycopg.connect(pg_dsn) as conn:
        assert "PostgreSQL" in _one(conn, "SELECT version()")
        assert _one(conn, "SHOW is_superuser") == "on"


@pytest.mark.parametrize("run", ["first", "second"])
def test_each_test_has_its_own_empty_database(pg_dsn: str, run: str) -> None:
    """Two tests get distinct, empty databases; the earlier one's, and what it wrote, is gone."""
    with psycopg.connect(pg_dsn) as conn:
        database = _one(conn, "SELECT current_database()")
        relations = _one(
            conn,
            "SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
            " WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')"
            " AND n.nspname NOT LIKE 'pg\\_toast%'",
        )
        existing = {row[0] for row in conn.execute("SELECT datname FROM pg_database")}
        conn.execute("CREATE TABLE left_behind (run text)")
        conn.execute("INSERT INTO left_behind VALUES (%s)", (run,))
    assert relations == 0
    assert database != "memvault_test"
    assert database not in _databases_seen
    assert not existing & set(_databases_seen), "an earlier test's database was not dropped"
    _databases_seen.append(database)


def test_the_server_listens_on_127_0_0_1_only(postgres_cluster: Cluster, pg_dsn: str) -> None:
    """Only 127.0.0.1 and the socket in the cluster's own directory reach it; trust is
    granted for nothing else."""
    with psycopg.connect(pg_dsn) as conn:
        assert _one(conn, "SHOW listen_addresses") == "127.0.0.1"
        assert _one(conn, "SELECT host(inet_server_addr())") == "127.0.0.1"
        assert _one(conn, "SHOW unix_socket_directories") == str(postgres_cluster.root)
        rules = conn.execute(
            "SELECT type, address, auth_method FROM pg_hba_file_rules ORDER BY line_number"
        ).fetchall()
    assert rules == [("local", None, "trust"), ("host", "127.0.0.1", "trust")]
    # Bound to 127.0.0.1 itself, not to every address: 127.0.0.2 (loopback too, on
    # Linux) and ::1 find nothing listening on the port.
    for family, address in ((socket.AF_INET, "127.0.0.2"), (socket.AF_INET6, "::1")):
        with socket.socket(family) as sock, pytest.raises(OSError):
            sock.settimeout(2)
            sock.connect((address, postgres_cluster.port))


def test_a_pool_serves_16_threads_at_once(pg_dsn: str) -> None:
    """A ConnectionPool gives 16 threads a connection each, all 16 inside a transaction at
    the same moment, and every transaction's write is kept."""
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        conn.execute("CREATE TABLE served (thread int PRIMARY KEY, backend int NOT NULL)")
    together = threading.Barrier(THREADS, timeout=WAIT)

    def one(thread: int) -> int:
        with pool.connection() as conn, conn.transaction():
            with conn.pipeline():
                conn.execute("INSERT INTO served VALUES (%s, pg_backend_pid())", (thread,))
                backend = conn.execute("SELECT pg_backend_pid()")
            together.wait()  # all 16 transactions are open now, or this times out
            row = backend.fetchone()
            assert row is not None
            return int(row[0])

    with (
        ConnectionPool(
            pg_dsn,
            min_size=THREADS,
            max_size=THREADS,
            open=True,
            check=ConnectionPool.check_connection,
            timeout=WAIT,
        ) as pool,
        ThreadPoolExecutor(THREADS) as threads,
    ):
        backends = list(threads.map(one, range(THREADS)))
    assert len(set(backends)) == THREADS
    with psycopg.connect(pg_dsn) as conn:
        kept = conn.execute("SELECT thread, backend FROM served ORDER BY thread").fetchall()
    assert kept == list(enumerate(backends))


def _one(conn: psycopg.Connection[Any], query: LiteralString) -> Any:
    """The single value ``query`` answers."""
    row = conn.execute(query).fetchone()
    assert row is not None
    return row[0]
