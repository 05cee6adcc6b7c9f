"""A throwaway PostgreSQL cluster for a test session, and a fresh database for each test.

:func:`start_cluster` runs the server's own tools on a new directory under ``/tmp``:
``initdb``, then ``pg_ctl start -w`` on a free port of 127.0.0.1, with its unix socket
inside that directory; it creates the database ``memvault_test``. Every connection, over
127.0.0.1 or the socket, must give the superuser's password (``scram-sha-256``): a random
one per cluster, handed to initdb in a file only the cluster's owner may read, removed
right after, and carried by the DSNs the cluster gives out (never by a command line).
``initdb`` refuses to run as root, so as root (as CI runs) every tool runs as the
``postgres`` system user that Debian's ``postgresql`` package creates, on a directory it
owns; otherwise as the current user. It starts in about a second. :func:`stop_cluster`
stops the server (``-m immediate``: nothing in it is worth a checkpoint) and removes the
directory. :func:`fresh_database` gives one test a database of its own, made from
``template0`` and dropped afterwards.

A session killed before it could stop its cluster (SIGKILL) leaves the server running
and its directory behind. So the process that starts a cluster (and any it forks) holds
an exclusive ``flock`` on the ``owner.lock`` file in the directory for as long as it
lives (the kernel lets go of it when the process dies, however it dies), and
:func:`start_cluster` first stops and removes every cluster whose lock nobody holds any
more (:func:`reap_orphans`). A directory without that file (one being made this instant,
or one of a harness from before the lock) is left alone, and so is a cluster whose owner
lives.

The server binaries are found the way Debian lays them out, the newest of
``/usr/lib/postgresql/*/bin``, else in ``pg_config --bindir`` (other layouts). Every
failure raises :class:`ClusterError` naming the step that failed, with what the tool
printed and the end of the server's log, the password masked wherever it appears.
"""

from __future__ import annotations

import contextlib
import dataclasses
import fcntl
import itertools
import os
import pwd
import re
import secrets
import select
import shutil
import signal
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import psycopg
from psycopg import sql

from tests.support.kms import free_port

DATABASE = "memvault_test"
SUPERUSER = "postgres"
OWNER = "postgres"  # the system user that runs the cluster when the tests run as root
TMP = Path("/tmp")
PREFIX = "memvault-pg-"  # each cluster's directory is TMP / (PREFIX + a random name)
LOCK = "owner.lock"  # held (flock) by the process that started the cluster, while it lives
STEP_TIMEOUT = 60.0  # seconds for one tool; each takes well under one
PORT_TRIES = 3  # another process may take the free port before the server binds it
LOG_TAIL = 3000  # characters of the server's log quoted in an error
MASK = "********"  # what an error message shows in the password's place
# A password for every connection, and only where the server can be reached: its socket
# lives in a directory only its owner may enter, and it listens on 127.0.0.1 alone.
HBA = """\
local all all scram-sha-256
host  all all 127.0.0.1/32 scram-sha-256
"""
# fsync, synchronous_commit and full_page_writes off: the cluster is thrown away after
# the session, so crash safety buys nothing; with them on, each test's CREATE DATABASE
# waits for its flushes (about twice as long here, more on a busy shared disk).
SETTINGS = """
listen_addresses = '127.0.0.1'
unix_socket_directories = '{socket_dir}'
shared_buffers = 32MB
"""
THROWAWAY = """
fsync = off
synchronous_commit = off
full_page_writes = off
"""
# A bench's cluster keeps PostgreSQL's defaults for durability (each commit flushed),
# and room for its worker processes.
DURABLE = """
max_connections = 120
shared_buffers = 128MB
"""
_held: dict[Path, int] = {}  # the root of each cluster this process owns: its locked LOCK


class ClusterError(RuntimeError):
    """The test cluster could not be started or stopped; the message says which step."""


@dataclass(frozen=True)
class Cluster:
    """A running throwaway cluster: its directory, port, server binaries and password."""

    root: Path
    port: int
    bindir: Path
    started_in: float  # seconds from nothing to a server answering with its database
    password: str = dataclasses.field(repr=False)  # the superuser's

    @property
    def data(self) -> Path:
        return self.root / "data"

    @property
    def log(self) -> Path:
        return self.root / "server.log"

    @property
    def dsn(self) -> str:
        return self.dsn_for(DATABASE)

    def dsn_for(self, database: str) -> str:
        password = quote(self.password, safe="")
        return f"postgresql://{SUPERUSER}:{password}@127.0.0.1:{self.port}/{database}"

    def masked(self, text: str) -> str:
        """``text`` with the password, as given or as a DSN quotes it, masked."""
        for form in {self.password, quote(self.password, safe="")} - {""}:
            text = text.replace(form, MASK)
        return text


def server_bindir() -> Path:
    """The directory of ``initdb`` and ``pg_ctl``: Debian's newest, else pg_config's."""
    debian = [p for p in Path("/usr/lib/postgresql").glob("*/bin") if _has_server(p)]
    if debian:
        return max(debian, key=lambda p: _version_key(p.parent.name))
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        found = subprocess.run(
            ["pg_config", "--bindir"], capture_output=True, text=True, check=True, timeout=10
        )
        bindir = Path(found.stdout.strip())
        if _has_server(bindir):
            return bindir
    raise ClusterError(
        "no PostgreSQL server binaries (initdb, pg_ctl) in /usr/lib/postgresql/*/bin or in "
        "`pg_config --bindir`; install the server (Debian: apt-get install postgresql)"
    )


def _has_server(bindir: Path) -> bool:
    return (bindir / "initdb").is_file() and (bindir / "pg_ctl").is_file()


def _version_key(name: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", name))


def start_cluster(*, durable: bool = False) -> Cluster:
    """Start a cluster on a new directory and create its database; see the module.
    ``durable``: flush each commit, as a real server does (the benches)."""
    began = time.monotonic()
    bindir = server_bindir()
    reap_orphans()
    root = Path(tempfile.mkdtemp(prefix=PREFIX, dir=TMP))
    try:
        _claim(root)
        if os.geteuid() == 0:
            owner = _owner()
            os.chown(root, owner.pw_uid, owner.pw_gid)
        cluster = Cluster(root, 0, bindir, 0.0, secrets.token_urlsafe(24))
        _initdb(cluster, DURABLE if durable else THROWAWAY)
        cluster = _start_server(cluster)
        _create_database(cluster)
    except BaseException:
        _kill_server(root / "data")  # pg_ctl start may have started it
        shutil.rmtree(root, ignore_errors=True)
        _release(root)
        raise
    return dataclasses.replace(cluster, started_in=time.monotonic() - began)


def _owner() -> pwd.struct_passwd:
    try:
        return pwd.getpwnam(OWNER)
    except KeyError:
        raise ClusterError(
            f"the tests run as root, which initdb refuses, and there is no {OWNER!r} user to "
            "run the cluster as; Debian's postgresql package creates it, or run the tests "
            "as another user"
        ) from None


def _claim(root: Path) -> None:
    """Lock ``root``'s LOCK for as long as this process lives (or until it stops the
    cluster). The file is locked before it takes its name, so a LOCK nobody holds is
    always a dead owner's, never one a live owner has yet to lock."""
    staged = root / f"{LOCK}.new"
    fd = os.open(staged, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        os.write(fd, f"{os.getpid()}\n".encode())  # for a human looking
        staged.rename(root / LOCK)
    except BaseException:
        os.close(fd)
        raise
    _held[root] = fd


def _release(root: Path) -> None:
    fd = _held.pop(root, None)
    if fd is not None:
        os.close(fd)


def _initdb(cluster: Cluster, settings: str) -> None:
    pwfile = cluster.root / "pwfile"  # in a directory only the cluster's owner may enter
    fd = os.open(pwfile, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    try:
        if os.geteuid() == 0:
            owner = _owner()
            os.fchown(fd, owner.pw_uid, owner.pw_gid)  # initdb, run as the owner, reads it
        os.write(fd, f"{cluster.password}\n".encode())
    finally:
        os.close(fd)
    try:
        _run(
            "initdb",
            [
                str(cluster.bindir / "initdb"),
                *("-D", str(cluster.data), "-U", SUPERUSER, f"--pwfile={pwfile}"),
                *("--auth-host=scram-sha-256", "--auth-local=scram-sha-256"),
                *("--encoding=UTF8", "--locale=C", "--no-sync"),  # the same on every machine
            ],
            cluster,
        )
    finally:
        pwfile.unlink(missing_ok=True)
    # Both files exist, so writing them keeps their owner and mode.
    (cluster.data / "pg_hba.conf").write_text(HBA, encoding="utf-8")  # initdb's lets in ::1
    with (cluster.data / "postgresql.conf").open("a", encoding="utf-8") as conf:
        # Later lines win over initdb's.
        conf.write(SETTINGS.format(socket_dir=cluster.root) + settings)


def _start_server(cluster: Cluster) -> Cluster:
    """``pg_ctl start -w`` on a free port, trying another if that one was taken meanwhile."""
    for attempt in range(1, PORT_TRIES + 1):
        cluster = dataclasses.replace(cluster, port=free_port())
        pg_ctl = [str(cluster.bindir / "pg_ctl"), "-D", str(cluster.data), "-l", str(cluster.log)]
        try:
            _run(
                "pg_ctl start",
                [*pg_ctl, "-o", f"-p {cluster.port}", "-w", "-t", "30", "start"],
                cluster,
            )
            break
        except ClusterError:
            if attempt == PORT_TRIES or "already in use" not in _log_tail(cluster):
                raise
    return cluster


def _create_database(cluster: Cluster) -> None:
    try:
        _admin(cluster, "CREATE DATABASE {}", DATABASE)
    except psycopg.Error as exc:
        raise ClusterError(
            cluster.masked(
                f"the test cluster started but creating database {DATABASE} failed: {exc}"
                f"{_log_section(cluster)}"
            )
        ) from None


def stop_cluster(cluster: Cluster) -> None:
    """Stop the server at once and remove its directory."""
    try:
        pg_ctl = [str(cluster.bindir / "pg_ctl"), "-D", str(cluster.data)]
        _run("pg_ctl stop", [*pg_ctl, "-m", "immediate", "-w", "stop"], cluster)
    finally:
        shutil.rmtree(cluster.root, ignore_errors=True)
        _release(cluster.root)


def reap_orphans() -> list[Path]:
    """Stop and remove the clusters whose owner died without stopping them (their LOCK
    held by no one); return their directories. Only directories this process could have
    made are looked at: owned by the cluster's user or by this process's, their LOCK by
    this process's user."""
    users = {os.geteuid(), _owner().pw_uid if os.geteuid() == 0 else os.geteuid()}
    reaped = []
    for root in sorted(TMP.glob(f"{PREFIX}*")):
        fd = _orphan_lock(root, users)
        if fd is None:
            continue
        try:
            _kill_server(root / "data")
            shutil.rmtree(root, ignore_errors=True)
            reaped.append(root)
        finally:
            os.close(fd)
    return reaped


def _orphan_lock(root: Path, users: set[int]) -> int | None:
    """An open descriptor holding ``root``'s LOCK if its owner is dead, else None (the
    owner lives; or ``root`` is no cluster of ours, or not yet one)."""
    try:
        if root.lstat().st_uid not in users:
            return None
        fd = os.open(root / LOCK, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:  # gone, not ours to enter, or no LOCK
        return None
    try:
        if os.fstat(fd).st_uid == os.geteuid():
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # fails while the owner lives
            return fd
    except OSError:
        pass
    os.close(fd)
    return None


def _kill_server(data: Path) -> None:
    """Stop at once the server running on ``data``, if one is, and wait until it exits.

    Its postmaster.pid names it; a pid in a stale file may be another process's by now,
    so only a process whose command line says ``-D data`` is signalled, through a pidfd
    that cannot come to mean another process. SIGQUIT is ``pg_ctl stop -m immediate``.
    """
    try:
        pid = int((data / "postmaster.pid").read_text(encoding="utf-8").split()[0])
        pidfd = os.pidfd_open(pid)
    except (OSError, ValueError, IndexError):
        return
    try:
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        if (b"-D", os.fsencode(data)) in set(itertools.pairwise(argv)):
            signal.pidfd_send_signal(pidfd, signal.SIGQUIT)
            exited = select.poll()
            exited.register(pidfd, select.POLLIN)  # readable once the process has exited
            exited.poll(int(STEP_TIMEOUT * 1000))
    except OSError:
        pass
    finally:
        os.close(pidfd)


@contextlib.contextmanager
def fresh_database(cluster: Cluster) -> Iterator[str]:
    """A new, empty database for one test; yields its DSN and drops it afterwards.

    The drop forces out connections the test left open, so one test's leak cannot
    break the next test's setup.
    """
    name = f"memvault_t_{uuid.uuid4().hex[:12]}"
    _admin(cluster, "CREATE DATABASE {} TEMPLATE template0", name)
    try:
        yield cluster.dsn_for(name)
    finally:
        _admin(cluster, "DROP DATABASE {} WITH (FORCE)", name)


def _admin(cluster: Cluster, statement: str, database: str) -> None:
    """One statement about ``database``, run from the maintenance database ``postgres``."""
    with psycopg.connect(cluster.dsn_for("postgres"), autocommit=True, connect_timeout=10) as conn:
        conn.execute(sql.SQL(statement).format(sql.Identifier(database)))


def _run(step: str, argv: list[str], cluster: Cluster) -> None:
    """Run one server tool as the cluster's owner; a failure says what it printed (the
    password masked, should it appear)."""
    if os.geteuid() == 0:
        argv = [_runuser(), "-u", OWNER, "--", *argv]
    # The tools read PGDATA, PGPORT and the like: none of the caller's may steer them.
    env = {k: v for k, v in os.environ.items() if not k.startswith("PG")}
    try:
        done = subprocess.run(
            argv,
            cwd=cluster.root,  # a directory the owner may enter
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=STEP_TIMEOUT,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise ClusterError(cluster.masked(f"{step} failed: {exc}{_log_section(cluster)}")) from None
    if done.returncode != 0:
        printed = (done.stderr.strip() or done.stdout.strip() or "(it printed nothing)")[-2000:]
        raise ClusterError(
            cluster.masked(
                f"{step} failed (exit status {done.returncode}): {' '.join(argv)}\n"
                f"{printed}{_log_section(cluster)}"
            )
        )


def _runuser() -> str:
    # util-linux's, in /usr/sbin: root's PATH has it, a trimmed one may not.
    found = shutil.which("runuser", path=os.pathsep.join([os.environ.get("PATH", ""), "/usr/sbin"]))
    if found is None:
        raise ClusterError(f"runuser (util-linux) not found: it runs the cluster as {OWNER!r}")
    return found


def _log_tail(cluster: Cluster) -> str:
    try:
        return cluster.log.read_text(encoding="utf-8", errors="replace")[-LOG_TAIL:]
    except OSError:
        return ""


def _log_section(cluster: Cluster) -> str:
    tail = _log_tail(cluster).strip()
    return f"\n--- the end of the server's log ---\n{tail}" if tail else ""
