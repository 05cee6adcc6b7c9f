"""A fleet on one PostgreSQL vault: 16 writer processes, overlapping users, and a kill.

Every worker is a process of its own with its own ``Vault.open(dsn)``, under one master
key (``$MEMVAULT_MASTER_KEY``), as a fleet's workers are. Afterwards every acknowledged
write is there exactly once, the log verifies chain by chain, the store against it, and
``memvault check`` finds nothing.
"""

from __future__ import annotations

import base64
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

from memvault import Vault
from memvault.audit import Scan
from memvault.store import PgStore

USERS = [f"user-{n}" for n in range(6)]
WORKERS = 16
ROUNDS = 12


@pytest.fixture
def fleet(pg_dsn: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A migrated database (4 chains, so users share chains) and the fleet's key."""
    monkeypatch.setenv("MEMVAULT_MASTER_KEY", base64.b64encode(os.urandom(32)).decode())
    store = PgStore(pg_dsn)
    try:
        store.migrate_schema(4)
    finally:
        store.close()
    with Vault.open(pg_dsn) as vault:
        for user in USERS:
            vault.runner(user).run(
                {"command": "create", "path": "/memories/shared.md", "file_text": "top\n"}
            )
    yield pg_dsn


_WRITER = """
import json, random, sys
from memvault import Vault
dsn, me, rounds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
users = json.loads(sys.argv[4])
rng = random.Random(me)
done = []
with Vault.open(dsn) as vault:
    for i in range(rounds):
        user = rng.choice(users)
        line = f"p{me}-i{i}"
        reply = vault.runner(user).run(
            {"command": "insert", "path": "/memories/shared.md", "insert_line": 1,
             "insert_text": line + "\\n"})
        assert not reply.is_error, reply.content
        other = rng.choice(users)
        reply = vault.runner(other).run(
            {"command": "create", "path": f"/memories/p{me}/i{i}.md", "file_text": line})
        assert not reply.is_error, reply.content
        reply = vault.runner(rng.choice(users)).run({"command": "view", "path": "/memories"})
        assert not reply.is_error, reply.content
        done.append([user, other, line])
        if me == 0 and i % 4 == 0:  # operations that lock the whole vault, in between
            vault.runner(f"new-{i}")
            vault.record_operation("audit.show", details={"filters": []})
print(json.dumps(done))
"""


def _spawn(dsn: str, me: int, rounds: int) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", _WRITER, dsn, str(me), str(rounds), json.dumps(USERS)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )


def _all_intact(dsn: str) -> None:
    with Vault.open(dsn) as vault:
        report = vault.audit.examine()  # type: ignore[union-attr]
        assert report.problems == []
        assert vault.verify_store() == []
        assert vault.check().problems == []


def test_sixteen_writers_on_overlapping_users_lose_nothing(fleet: str) -> None:
    workers = [_spawn(fleet, me, ROUNDS) for me in range(WORKERS)]
    results = []
    for process in workers:
        out, err = process.communicate(timeout=300)
        assert process.returncode == 0, err
        results += json.loads(out)
    assert len(results) == WORKERS * ROUNDS
    with Vault.open(fleet) as vault:
        for user in USERS:
            text = vault.runner(user).run({"command": "view", "path": "/memories/shared.md"})
            lines = [row.split("\t", 1)[1] for row in text.content.splitlines()[1:]]
            expected = sorted(line for u, _, line in results if u == user)
            assert sorted(line for line in lines if line.startswith("p")) == expected
            assert lines[0] == "top"
        for _, other, line in results:
            me, i = line[1:].split("-i")
            reply = vault.runner(other).run({"command": "view", "path": f"/memories/p{me}/i{i}.md"})
            assert reply.content.endswith(f"1\t{line}")
        counts: dict[str, int] = {}
        for entry in Scan(vault):
            counts[entry.command] = counts.get(entry.command, 0) + (entry.outcome == "ok")
    assert counts["insert"] == counts["create"] - len(USERS) == WORKERS * ROUNDS
    assert counts["user.create"] == len(USERS) + len(range(0, ROUNDS, 4))
    _all_intact(fleet)


def test_a_writer_killed_inside_its_transaction_blocks_no_one(fleet: str) -> None:
    """SIGKILL while the worker holds its chain's lock: the server ends its session and
    its transaction with it; the others go on, and the log holds together."""
    victim = _spawn(fleet, 99, 10_000)
    with Vault.open(fleet) as vault:
        deadline = time.monotonic() + 60
        while not any(e.command == "insert" for e in Scan(vault)):
            assert time.monotonic() < deadline, "the victim never wrote"
            time.sleep(0.05)
    victim.send_signal(signal.SIGKILL)
    victim.communicate(timeout=30)
    assert victim.returncode == -signal.SIGKILL
    survivors = [_spawn(fleet, me, 4) for me in range(4)]
    for process in survivors:
        _, err = process.communicate(timeout=120)
        assert process.returncode == 0, err
    _all_intact(fleet)


_RENAMER = """
import sys
from memvault import Vault
with Vault.open(sys.argv[1]) as vault:
    runner = vault.runner("big")
    names = ("/memories/big", "/memories/moved")
    for n in range(int(sys.argv[2])):
        reply = runner.run({"command": "rename", "old_path": names[n % 2],
                            "new_path": names[(n + 1) % 2]})
        assert not reply.is_error, reply.content
"""

_READER = """
import sys
from memvault import Vault
files = int(sys.argv[2])
with Vault.open(sys.argv[1]) as vault:
    runner = vault.runner("big")
    for _ in range(int(sys.argv[3])):
        content = runner.run({"command": "view", "path": "/memories"}).content
        rows = [row.split("\\t", 1)[1] for row in content.splitlines()[1:]]
        dirs = [row for row in rows if row.endswith("/")]
        found = [row for row in rows if not row.endswith("/") and row != "/memories"]
        assert len(dirs) == 1 and dirs[0] in ("/memories/big/", "/memories/moved/"), dirs
        assert len(found) == files and all(f.startswith(dirs[0]) for f in found), len(found)
"""


def test_a_directory_of_two_thousand_files_moves_whole(fleet: str) -> None:
    files = 2_000
    with Vault.open(fleet) as vault:
        runner = vault.runner("big")
        for n in range(files):
            runner.run(
                {"command": "create", "path": f"/memories/big/f{n:04d}.md", "file_text": "x"}
            )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    renamer = subprocess.Popen(
        [sys.executable, "-c", _RENAMER, fleet, "8"], env=env, text=True, stderr=subprocess.PIPE
    )
    readers = [
        subprocess.Popen(
            [sys.executable, "-c", _READER, fleet, str(files), "10"],
            env=env,
            text=True,
            stderr=subprocess.PIPE,
        )
        for _ in range(3)
    ]
    for process in (renamer, *readers):
        _, err = process.communicate(timeout=300)
        assert process.returncode == 0, err
    _all_intact(fleet)
