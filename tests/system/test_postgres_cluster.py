"""The PostgreSQL test cluster itself: a real server, a database per test, loopback only,
a password for every connection, and no cluster left behind by a killed session.

What the PostgreSQL store's tests will stand on (``tests/support/postgres.py``): if one
of these fails, theirs mean nothing.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, LiteralString

import psycopg
import pytest
from psycopg.conninfo import conninfo_to_dict
from psycopg_pool import ConnectionPool

from tests.support import postgres
from tests.support.postgres import Cluster

THREADS = 16
WAIT = 30.0  # seconds; everything here takes well under one
_databases_seen: list[str] = []
# A session of its own: starts a cluster in the directory it is given, says where, and
# stops it when its stdin closes (unless it is killed first).
CHILD = """\
import sys
from pathlib import Path
from tests.support import postgres
postgres.TMP = Path(sys.argv[1])
cluster = postgres.start_cluster()
print(cluster.root, flush=True)
sys.stdin.read()
postgres.stop_cluster(cluster)
"""


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
    """Only 127.0.0.1 and the socket in the cluster's own directory reach it, and both
    ask for the password (scram-sha-256)."""
    with psycopg.connect(pg_dsn) as conn:
        assert _one(conn, "SHOW listen_addresses") == "127.0.0.1"
        assert _one(conn, "SELECT host(inet_server_addr())") == "127.0.0.1"
        assert _one(conn, "SHOW unix_socket_directories") == str(postgres_cluster.root)
        rules = conn.execute(
            "SELECT type, address, auth_method FROM pg_hba_file_rules ORDER BY line_number"
        ).fetchall()
    assert rules == [("local", None, "scram-sha-256"), ("host", "127.0.0.1", "scram-sha-256")]
    # Bound to 127.0.0.1 itself, not to every address: 127.0.0.2 (loopback too, on
    # Linux) and ::1 find nothing listening on the port.
    for family, address in ((socket.AF_INET, "127.0.0.2"), (socket.AF_INET6, "::1")):
        with socket.socket(family) as sock, pytest.raises(OSError):
            sock.settimeout(2)
            sock.connect((address, postgres_cluster.port))


@pytest.mark.parametrize("where", ["127.0.0.1", "socket"])
@pytest.mark.parametrize(
    ("password", "refusal"),
    [("", "no password supplied"), ("wrong", 'password authentication failed for user "postgres"')],
)
def test_a_connection_without_the_password_is_refused(
    postgres_cluster: Cluster,
    monkeypatch: pytest.MonkeyPatch,
    where: str,
    password: str,
    refusal: str,
) -> None:
    """As the superuser, over 127.0.0.1 or the socket, no password or a wrong one is
    refused; the same connection with the cluster's password is let in."""
    monkeypatch.delenv("PGPASSWORD", raising=False)
    host = str(postgres_cluster.root) if where == "socket" else where
    params = {"host": host, "port": postgres_cluster.port, "user": "postgres"}
    params |= {"dbname": "postgres", "passfile": os.devnull, "connect_timeout": 10}
    with pytest.raises(psycopg.OperationalError, match=refusal):
        psycopg.connect(**params, password=password)
    with psycopg.connect(**params, password=postgres_cluster.password) as conn:
        assert _one(conn, "SELECT current_user") == "postgres"


def test_the_dsn_carries_the_password_and_nothing_else_keeps_it(
    postgres_cluster: Cluster, pg_dsn: str
) -> None:
    """A test's DSN holds the cluster's password (a random one) and connects with it; the
    file initdb read it from is gone, no file of the cluster holds it in clear, and the
    cluster's repr does not show it."""
    password = postgres_cluster.password
    assert len(password) >= 32
    assert conninfo_to_dict(pg_dsn)["password"] == password
    with psycopg.connect(pg_dsn) as conn:
        assert _one(conn, "SELECT current_user") == "postgres"
    files = [p for p in postgres_cluster.root.rglob("*") if p.is_file()]
    assert "pwfile" not in {p.name for p in files}
    assert [p for p in files if password.encode() in p.read_bytes()] == []
    assert password not in repr(postgres_cluster)


def test_a_failure_message_masks_the_password(tmp_path: Path) -> None:
    """A ClusterError names the step and the command, quotes what the tool printed and
    the server's log, and shows the password in none of them."""
    password = "s3cret-Pass_word"
    tmp_path.chmod(0o755)  # as root, the tool runs as the cluster's owner, here
    cluster = Cluster(tmp_path, 0, Path("/nonexistent"), 0.0, password)
    cluster.log.write_text(f"FATAL: something about {password}\n", encoding="utf-8")
    with pytest.raises(postgres.ClusterError) as failed:
        postgres._run("probe", ["sh", "-c", 'echo "said $0" >&2; exit 3', password], cluster)
    message = str(failed.value)
    assert message.startswith("probe failed (exit status 3): ")
    assert message.count(postgres.MASK) == 3  # the command, the tool's words, the log
    assert f"said {postgres.MASK}" in message
    assert f"something about {postgres.MASK}" in message
    assert password not in message


@pytest.fixture
def own_tmp(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A directory of this test's own in place of /tmp for the clusters it starts, so
    that what it reaps and leaves alone is its own, not another session's. The
    clusters' owner must be able to reach their directories in it."""
    tmp = Path(tempfile.mkdtemp(prefix="memvault-pgtest-", dir="/tmp"))
    tmp.chmod(0o755)
    monkeypatch.setattr(postgres, "TMP", tmp)
    try:
        yield tmp
    finally:
        postgres.reap_orphans()  # what a failed test's killed child left running
        shutil.rmtree(tmp, ignore_errors=True)


def test_a_killed_sessions_cluster_is_stopped_and_removed_by_the_next_start(
    own_tmp: Path,
) -> None:
    """A session killed with SIGKILL leaves its server running and its directory; the
    next start_cluster stops that server (the process exits) and removes the directory."""
    with _cluster_in_a_child(own_tmp) as (child, root):
        postmaster = _postmaster(root)
        child.kill()
        assert child.wait() == -signal.SIGKILL
    assert _running(*postmaster)
    assert root.is_dir()
    cluster = postgres.start_cluster()
    assert not _running(*postmaster)
    assert sorted(own_tmp.iterdir()) == [cluster.root]
    postgres.stop_cluster(cluster)
    assert list(own_tmp.iterdir()) == []


def test_a_live_sessions_cluster_is_left_alone(own_tmp: Path) -> None:
    """start_cluster leaves alone the cluster of a session still alive (another process,
    or this one), and a directory whose lock file does not exist yet; the live session
    stops its own cluster at its end."""
    unlocked = Path(tempfile.mkdtemp(prefix=postgres.PREFIX, dir=own_tmp))
    with _cluster_in_a_child(own_tmp) as (child, root):
        postmaster = _postmaster(root)
        mine = postgres.start_cluster()
        try:
            again = postgres.start_cluster()
            postgres.stop_cluster(again)
            assert sorted(own_tmp.iterdir()) == sorted([unlocked, root, mine.root])
            assert _running(*postmaster)
            with psycopg.connect(mine.dsn) as conn:
                assert _one(conn, "SELECT current_database()") == "memvault_test"
        finally:
            postgres.stop_cluster(mine)
    assert child.returncode == 0  # its stdin closed, it stopped its cluster
    assert not _running(*postmaster)
    assert list(own_tmp.iterdir()) == [unlocked]


@contextlib.contextmanager
def _cluster_in_a_child(tmp: Path) -> Iterator[tuple[subprocess.Popen[str], Path]]:
    """A child process that has started a cluster in ``tmp``, and that cluster's root."""
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(tmp)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    try:
        assert child.stdout is not None
        started = child.stdout.readline()
        assert started, f"the child's cluster did not start: {child.communicate()[1]}"
        yield child, Path(started.strip())
    finally:
        try:
            child.communicate(timeout=WAIT)  # a live child stops its cluster when stdin closes
        except subprocess.TimeoutExpired:
            child.kill()
            child.communicate()
            raise


def _postmaster(root: Path) -> tuple[int, str]:
    """The pid of the server running on a cluster's directory, and its start time."""
    pid = int((root / "data" / "postmaster.pid").read_text(encoding="utf-8").split()[0])
    started = _stat(pid)
    assert started is not None
    return pid, started[1]


def _running(pid: int, started: str) -> bool:
    """Whether that process still runs: not exited (gone, or a zombie), nor replaced by
    another with its pid."""
    now = _stat(pid)
    return now is not None and now[0] != "Z" and now[1] == started


def _stat(pid: int) -> tuple[str, str] | None:
    """A process's state and start time (in clock ticks since boot), None if it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8").rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return None
    return fields[0], fields[19]


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
