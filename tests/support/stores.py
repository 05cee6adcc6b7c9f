"""The suites that run against both stores: a home directory (SQLite) and a PostgreSQL
database.

A test under :data:`DIRECTORIES` that uses the ``home`` fixture (itself, or through
``vault`` or ``tool``) runs twice, ``[sqlite]`` and ``[pg]``; for ``[pg]``, ``home`` is
the URI of a fresh database whose schema ``memvault db migrate`` made (copied from a
template migrated once per session). A module with a ``home`` fixture of its own (one
that fills the vault, say) keeps both runs by asking for the ``home`` it overrides::

    @pytest.fixture
    def home(home: Path) -> Path: ...

A test that reads or changes the home's files (the log's segments, ``vault.db``,
permissions), or asserts what only a log of files does, is marked
``@pytest.mark.sqlite_only("reason")`` and runs once. What a test needs of the store
itself has a helper here that works on either: :func:`connect` and :func:`execute` (SQL
with ``?`` placeholders), :func:`snapshot` (for "changes nothing"), :func:`records` and
:func:`log_lines` (the audit log).
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg

from memvault.audit import segments
from memvault.store import PgStore
from tests.support.postgres import Cluster
from tests.support.postgres import _admin as admin

KINDS = ("sqlite", "pg")
DIRECTORIES = (
    "tests/protocol/",
    "tests/unit/agent/",
    "tests/unit/audit/",
    "tests/unit/cli/",
    "tests/unit/keys/",
    "tests/unit/lifecycle/",
    "tests/unit/memory/",
    "tests/unit/redaction/",
    "tests/unit/tool/",
    "tests/unit/vault/",
)
TEMPLATE = "memvault_template"
_made: set[int] = set()  # clusters (by port) whose template exists
_lock = threading.Lock()


def held_to_both(nodeid: str) -> bool:
    return nodeid.startswith(DIRECTORIES)


@contextlib.contextmanager
def migrated_database(cluster: Cluster) -> Iterator[str]:
    """A new database with memvault's schema and no vault; dropped afterwards."""
    with _lock:
        if cluster.port not in _made:
            admin(cluster, "DROP DATABASE IF EXISTS {}", TEMPLATE)
            admin(cluster, "CREATE DATABASE {} TEMPLATE template0", TEMPLATE)
            store = PgStore(cluster.dsn_for(TEMPLATE))
            try:
                store.migrate_schema(4)  # few chains: users share them, as in a fleet
            finally:
                store.close()
            _made.add(cluster.port)
    name = f"memvault_p_{uuid.uuid4().hex[:12]}"
    admin(cluster, f"CREATE DATABASE {{}} TEMPLATE {TEMPLATE}", name)
    try:
        yield cluster.dsn_for(name)
    finally:
        admin(cluster, "DROP DATABASE {} WITH (FORCE)", name)


def records(home: object) -> list[dict[str, object]]:
    """Every audit record of a vault, as JSON: a home's log files in order, or a
    database's log merged by time (within a chain, by number)."""
    found = [json.loads(line) for line in log_lines(home)]
    if isinstance(home, str):
        return sorted(found, key=lambda r: (str(r["time"]), int(r["seq"])))
    return found


def log_lines(home: object) -> list[bytes]:
    """Every line of a vault's audit log as stored: a home's segment files in order, or
    the rows of a database's log by number (chain by chain)."""
    if isinstance(home, str):
        with psycopg.connect(home) as conn:
            return [bytes(r[0]) for r in conn.execute("SELECT line FROM audit_log ORDER BY seq")]
    assert isinstance(home, Path)
    return [line for _, path in segments(home / "audit") for line in path.read_bytes().splitlines()]


@contextlib.contextmanager
def connect(home: object) -> Iterator[Any]:
    """The vault's store, opened as someone without the key would: a home's ``vault.db``
    with SQLite, or the database with psycopg. ``execute(statement, args)`` takes ``?``
    for each argument on both and returns a cursor; what it changed is committed when
    the block ends (on PostgreSQL, at once)."""
    if isinstance(home, str):
        with psycopg.connect(home, autocommit=True) as conn:
            yield _Placeholders(conn)
        return
    assert isinstance(home, Path)
    with contextlib.closing(sqlite3.connect(home / "vault.db")) as db:
        yield db
        db.commit()


class _Placeholders:
    """A psycopg connection that takes SQLite's ``?`` placeholders."""

    def __init__(self, conn: psycopg.Connection[Any]) -> None:
        self._conn = conn

    def execute(self, statement: str, args: tuple[object, ...] = ()) -> Any:
        return self._conn.execute(statement.replace("?", "%s"), args)  # type: ignore[arg-type]

    def commit(self) -> None:
        """Each statement is committed as it runs."""


def execute(home: object, statement: str, args: tuple[object, ...] = ()) -> list[tuple[Any, ...]]:
    """One SQL statement on a vault's store (:func:`connect`), committed; its rows, if it
    returns any."""
    with connect(home) as db:
        cur = db.execute(statement, args)
        return list(cur.fetchall()) if cur.description else []


def snapshot(home: object) -> dict[str, Any]:
    """What a vault holds, to compare before and after something that must change nothing:
    every file under a home, by relative path, with its bytes; or every row of every
    table of the database, sorted."""
    if isinstance(home, str):
        with psycopg.connect(home, autocommit=True) as conn:
            tables = [
                str(name)
                for (name,) in conn.execute(
                    "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1"
                )
            ]
            return {
                table: sorted(conn.execute(f'SELECT * FROM "{table}"').fetchall(), key=repr)
                for table in tables
            }
    assert isinstance(home, Path)
    return {
        str(path.relative_to(home)): path.read_bytes()
        for path in sorted(home.rglob("*"))
        if path.is_file()
    }
