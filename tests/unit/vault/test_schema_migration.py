"""A store of an older format is brought to the current one (format 4) when it is opened."""

from __future__ import annotations

import base64
import contextlib
import os
import sqlite3
from pathlib import Path

import pytest

from memvault import Vault


def _columns(db: sqlite3.Connection, table: str) -> set[str]:
    return {row[1] for row in db.execute(f"PRAGMA table_info({table})")}


def test_a_format_2_store_gains_the_lifecycle_columns_and_reads_as_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMVAULT_MASTER_KEY", base64.b64encode(os.urandom(32)).decode())
    home = tmp_path / "home"
    with Vault.open(home) as vault:
        vault.runner("alice").run(
            {"command": "create", "path": "/memories/a.md", "file_text": "kept"}
        )
    with contextlib.closing(sqlite3.connect(home / "vault.db")) as db:
        db.execute("ALTER TABLE nodes DROP COLUMN touched")
        db.execute("ALTER TABLE data_keys DROP COLUMN created")
        db.execute("UPDATE meta SET value = x'32' WHERE key = 'schema'")
        db.commit()
    with Vault.open(home) as vault:
        reply = vault.runner("alice").run({"command": "view", "path": "/memories/a.md"})
        assert reply.content.endswith("with line numbers:\n     1\tkept")
    with contextlib.closing(sqlite3.connect(home / "vault.db")) as db:
        assert db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()[0] == b"4"
        assert "touched" in _columns(db, "nodes")
        assert "created" in _columns(db, "data_keys")
