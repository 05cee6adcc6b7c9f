"""The suites that run against both stores: a home directory (SQLite) and a PostgreSQL
database.

A test under :data:`DIRECTORIES` that uses the ``home`` fixture (itself, or through
``vault`` or ``tool``) runs twice, ``[sqlite]`` and ``[pg]``; for ``[pg]``, ``home`` is
the URI of a fresh database whose schema ``memvault db migrate`` made (copied from a
template migrated once per session). A test that reads or changes the home's files
(the log's segments, ``vault.db``, permissions) is marked
``@pytest.mark.sqlite_only("reason")`` and runs once.
"""

from __future__ import annotations

import contextlib
import threading
import uuid
from collections.abc import Iterator

import psycopg

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
    import json
    from pathlib import Path

    from memvault.audit import segments

    if isinstance(home, str):
        with psycopg.connect(home) as conn:
            lines = [bytes(r[0]) for r in conn.execute("SELECT line FROM audit_log ORDER BY seq")]
        found = [json.loads(line) for line in lines]
        return sorted(found, key=lambda r: (str(r["time"]), int(r["seq"])))  # type: ignore[call-overload]
    assert isinstance(home, Path)
    return [
        json.loads(line)
        for _, path in segments(home / "audit")
        for line in path.read_bytes().splitlines()
    ]
