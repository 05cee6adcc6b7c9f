"""Damage is named where it is: the table and row, the schema value, the node."""

from __future__ import annotations

import base64
import contextlib
import logging
import os
import sqlite3
from pathlib import Path

import pytest

from memvault import IntegrityError, Vault
from memvault.memory import INTEGRITY_MESSAGE


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("MEMVAULT_MASTER_KEY", base64.b64encode(os.urandom(32)).decode())
    home = tmp_path / "home"
    with Vault.open(home) as vault:
        vault.runner("alice").run(
            {"command": "create", "path": "/memories/a.md", "file_text": "one"}
        )
    return home


def sql(home: Path, statement: str, *args: object) -> None:
    with contextlib.closing(sqlite3.connect(home / "vault.db")) as db:
        db.execute(statement, args)
        db.commit()


def test_a_value_of_the_wrong_type_names_its_table(home: Path) -> None:
    sql(home, "UPDATE users SET primary_version = 'x'")
    with Vault.open(home) as vault, pytest.raises(IntegrityError) as caught:
        vault.runner("alice").run({"command": "view", "path": "/memories/a.md"})
        vault._store.user_primary_version(1)
    assert "users" in caught.value.message


def test_a_damaged_schema_version_is_damage_not_a_newer_format(home: Path) -> None:
    sql(home, "UPDATE meta SET value = x'ff00' WHERE key = 'schema'")
    with pytest.raises(IntegrityError) as caught:
        Vault.open(home)
    assert caught.value.message == (
        "the vault database's schema version is damaged (modified outside memvault)"
    )


def test_a_tampered_node_is_named_for_the_operator(
    home: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with contextlib.closing(sqlite3.connect(home / "vault.db")) as db:
        (node_id,) = db.execute("SELECT id FROM nodes").fetchone()
        (blob,) = db.execute("SELECT blob FROM contents").fetchone()
        flipped = bytes(blob[:-1]) + bytes([blob[-1] ^ 1])
        db.execute("UPDATE contents SET blob = ?", (flipped,))
        db.commit()
    caplog.set_level(logging.ERROR, logger="memvault")
    with Vault.open(home) as vault:
        reply = vault.runner("alice").run({"command": "view", "path": "/memories/a.md"})
    assert (reply.content, reply.is_error) == (INTEGRITY_MESSAGE, True)
    assert f"node {node_id}, its text does not open (changed, moved or older)" in caplog.text


def test_a_wrong_master_key_is_still_blamed_on_the_key(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The second witness (the ledger) clears a right key only: a wrong one opens neither."""
    from memvault import MasterKeyError

    monkeypatch.setenv("MEMVAULT_MASTER_KEY", base64.b64encode(os.urandom(32)).decode())
    with pytest.raises(MasterKeyError):
        Vault.open(home)
