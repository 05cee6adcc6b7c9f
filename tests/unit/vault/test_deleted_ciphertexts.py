"""Deleted memories leave no ciphertext behind in the database's files, even in a copy
taken while the vault is still open (the WAL is checkpointed and truncated)."""

from __future__ import annotations

import base64
import os
import sqlite3
from pathlib import Path

import pytest

from memvault import Vault


def test_a_deleted_files_ciphertext_is_gone_from_the_db_and_its_wal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMVAULT_MASTER_KEY", base64.b64encode(os.urandom(32)).decode())
    home = tmp_path / "home"
    with Vault.open(home) as vault:
        runner = vault.runner("alice")
        runner.run({"command": "create", "path": "/memories/keep.md", "file_text": "k" * 3000})
        runner.run({"command": "create", "path": "/memories/gone.md", "file_text": "g" * 3000})
        with sqlite3.connect(home / "vault.db") as peek:
            blobs = [bytes(row[0]) for row in peek.execute("SELECT blob FROM contents")]
        assert len(blobs) == 2
        reply = runner.run({"command": "delete", "path": "/memories/gone.md"})
        assert not reply.is_error
        with sqlite3.connect(home / "vault.db") as peek:
            (kept,) = [bytes(row[0]) for row in peek.execute("SELECT blob FROM contents")]
        (deleted,) = [blob for blob in blobs if blob != kept]
        # A copy of the files now, while the vault is open:
        files = [home / "vault.db", home / "vault.db-wal"]
        raw = b"".join(path.read_bytes() for path in files if path.exists())
        assert kept[-64:] in raw  # the search would find a ciphertext that is there
        assert deleted[-64:] not in raw
