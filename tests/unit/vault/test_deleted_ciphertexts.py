"""Deleted memories leave no ciphertext behind in the database's files, even in a copy
taken while the vault is still open: the store's checkpoint thread empties the WAL
soon after the delete (at the first idle moment, within a quarter of a second while
commands keep coming), and an open takes the checkpoint a dead process did not."""

from __future__ import annotations

import base64
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from memvault import Vault
from memvault.memory import Runner

# Far above the checkpoint's bound (1 s): only a purge that never comes fails.
PATIENCE = 10.0


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("MEMVAULT_MASTER_KEY", base64.b64encode(os.urandom(32)).decode())
    return tmp_path / "home"


def _blobs(home: Path) -> list[bytes]:
    with sqlite3.connect(home / "vault.db") as peek:
        return [bytes(row[0]) for row in peek.execute("SELECT blob FROM contents")]


def _raw(home: Path) -> bytes:
    """The bytes a copy of the database's files taken now would hold."""
    files = [home / "vault.db", home / "vault.db-wal"]
    return b"".join(path.read_bytes() for path in files if path.exists())


def _two_then_delete(runner: Runner, home: Path) -> tuple[bytes, bytes]:
    """(kept ciphertext, deleted ciphertext)."""
    runner.run({"command": "create", "path": "/memories/keep.md", "file_text": "k" * 3000})
    runner.run({"command": "create", "path": "/memories/gone.md", "file_text": "g" * 3000})
    blobs = _blobs(home)
    assert len(blobs) == 2
    assert not runner.run({"command": "delete", "path": "/memories/gone.md"}).is_error
    (kept,) = _blobs(home)
    (deleted,) = [blob for blob in blobs if blob != kept]
    return kept, deleted


def _purged_within(home: Path, deleted: bytes, patience: float, busy: Runner | None) -> bool:
    """Whether the deleted ciphertext leaves the files (while ``busy`` keeps working)."""
    deadline = time.monotonic() + patience
    while time.monotonic() < deadline:
        if deleted[-64:] not in _raw(home):
            return True
        if busy is not None:
            busy.run({"command": "view", "path": "/memories/keep.md"})
            busy.run(
                {
                    "command": "str_replace",
                    "path": "/memories/keep.md",
                    "old_str": "k",
                    "new_str": "k",
                }
            )
        else:
            time.sleep(0.01)
    return False


def test_a_deleted_files_ciphertext_leaves_the_db_and_its_wal(home: Path) -> None:
    with Vault.open(home) as vault:
        kept, deleted = _two_then_delete(vault.runner("alice"), home)
        assert _purged_within(home, deleted, PATIENCE, busy=None)
        assert kept[-64:] in _raw(home)  # the search finds a ciphertext that is there


def test_the_purge_comes_while_commands_keep_coming(home: Path) -> None:
    """No idle moment: the checkpoint is taken at its deadline all the same."""
    with Vault.open(home) as vault:
        runner = vault.runner("alice")
        _, deleted = _two_then_delete(runner, home)
        assert _purged_within(home, deleted, PATIENCE, busy=runner)


def test_an_open_purges_what_a_killed_process_left_in_the_wal(home: Path) -> None:
    """A process killed right after a delete, before its checkpoint: the next open
    takes it before anything else."""
    Vault.open(home).close()
    script = (
        "import os, signal, sys\n"
        "from memvault import Vault\n"
        "v = Vault.open(sys.argv[1])\n"
        "r = v.runner('alice')\n"
        "r.run({'command': 'create', 'path': '/memories/keep.md', 'file_text': 'k' * 3000})\n"
        "r.run({'command': 'create', 'path': '/memories/gone.md', 'file_text': 'g' * 3000})\n"
        "import sqlite3\n"
        "with sqlite3.connect(sys.argv[1] + '/vault.db') as db:\n"
        "    rows = db.execute('SELECT blob FROM contents').fetchall()\n"
        "print(' '.join(bytes(row[0]).hex() for row in rows), flush=True)\n"
        "r.run({'command': 'delete', 'path': '/memories/gone.md'})\n"
        "os.kill(os.getpid(), signal.SIGKILL)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(home)], capture_output=True, text=True, check=False
    )
    assert done.returncode == -9, done.stderr
    assert len(_blobs(home)) == 1
    with Vault.open(home) as vault:
        assert (
            not vault.runner("alice").run({"command": "view", "path": "/memories/keep.md"}).is_error
        )
        raw = _raw(home)
        written = [bytes.fromhex(blob) for blob in done.stdout.split()]
        assert len(written) == 2
        assert [blob[-64:] in raw for blob in written].count(False) == 1


@pytest.mark.slow
def test_the_wal_stays_bounded_under_writes_back_to_back(home: Path) -> None:
    """No idle moment for the checkpoint thread: SQLite's own checkpoint, the backstop,
    keeps the log near 16 MiB all the same (without it, it grew past 100 MiB)."""
    largest = 0
    with Vault.open(home, durability="normal") as vault:
        runner = vault.runner("alice")
        for n in range(6000):
            reply = runner.run(
                {"command": "create", "path": f"/memories/x/{n}.md", "file_text": "y" * 2048}
            )
            assert not reply.is_error
            if n % 100 == 0:
                largest = max(largest, (home / "vault.db-wal").stat().st_size)
    assert largest < 24 << 20, f"the WAL reached {largest / 1e6:.0f} MB"
