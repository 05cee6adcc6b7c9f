"""Errors that tell the truth about damage.

A value changed behind memvault's back is an integrity error that names what
is wrong, for the operator (the CLI's error, the operator log's ``detail``); the
model gets the integrity message. Never "internal error", never "restore the
right key" when the key is not to blame, never "check free disk space" for a
decoding error or a lock held too long. A pipe given as the key file is refused
at once instead of waited on.
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import os
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest
from anthropic.lib.tools import ToolError

from memvault import IntegrityError, StorageError, Vault
from memvault.cli import main
from memvault.memory import INTEGRITY_MESSAGE
from memvault.store import SqliteStore

DAMAGED_HINT = "memvault: hint: restore the home from a backup; nothing was changed\n"
A_FILE = {"command": "view", "path": "/memories/a.md"}


def cli(argv: list[str], stdin: bytes = b"") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdin=io.BytesIO(stdin), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def _sql(home: Path, statement: str, *args: object) -> None:
    with contextlib.closing(sqlite3.connect(home / "vault.db")) as db:
        db.execute(statement, args)
        db.commit()


def _build(home: Path) -> None:
    with Vault.open(home) as v:
        tool = v.memory_tool("alice")
        tool.call({"command": "create", "path": "/memories/a.md", "file_text": "alpha\n"})


def _run(home: Path, command: dict[str, Any], caplog: pytest.LogCaptureFixture) -> list[str]:
    """Run one command; it must fail with the integrity message. Returns the operator
    log's details."""
    with (
        Vault.open(home) as v,
        caplog.at_level(logging.ERROR, logger="memvault"),
        pytest.raises(ToolError) as caught,
    ):
        v.memory_tool("alice").call(command)
    assert caught.value.content == INTEGRITY_MESSAGE
    return [json.loads(r.getMessage()).get("detail", "") for r in caplog.records]


@pytest.mark.sqlite_only("works on the home directory's files")
def test_text_where_bytes_are_stored_is_damage_not_a_full_disk(home: Path) -> None:
    """A BLOB turned into text that is not UTF-8: the column is named, the stored bytes
    are not echoed, and the hint is to restore, not to free disk space."""
    _build(home)
    _sql(home, "UPDATE meta SET value = CAST(x'ff00' || value AS TEXT) WHERE key = 'key_check'")
    code, out, err = cli(["--home", str(home), "exec", "--user", "alice"])
    assert (code, out) == (1, "")
    assert err == (
        "memvault: error: the vault database holds text where memvault stores bytes (column "
        "'value'), while reading the vault: it was modified outside memvault\n" + DAMAGED_HINT
    )


@pytest.mark.sqlite_only("works on the home directory's files")
def test_a_memorys_text_turned_to_text_is_an_integrity_failure(
    home: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The model gets the integrity message (not "try again"), the operator the column."""
    _build(home)
    _sql(home, "UPDATE contents SET blob = CAST(x'ff00' || blob AS TEXT)")
    assert _run(home, A_FILE, caplog) == [
        "the vault database holds text where memvault stores bytes (column 'blob'), while "
        "reading the vault: it was modified outside memvault"
    ]


@pytest.mark.sqlite_only("works on the home directory's files")
def test_a_stray_row_in_the_way_of_a_write_is_named_as_damage(
    home: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A contents row for a node id not used yet: the next create conflicts with it."""
    _build(home)
    _sql(home, "INSERT INTO contents (node_id, blob) SELECT max(id) + 1, x'00' FROM nodes")
    details = _run(home, {"command": "create", "path": "/memories/b.md", "file_text": "b"}, caplog)
    assert details == [
        "the vault database refused a change that conflicts with its stored rows (UNIQUE "
        "constraint failed: contents.node_id), while running a command: rows were deleted or "
        "changed outside memvault"
    ]


@pytest.mark.sqlite_only("works on the home directory's files")
def test_a_data_key_version_out_of_range_is_damage_not_an_internal_error(
    home: Path, caplog: pytest.LogCaptureFixture
) -> None:
    _build(home)
    _sql(home, "UPDATE data_keys SET version = -1")
    _sql(home, "UPDATE users SET primary_version = -1")
    assert _run(home, A_FILE, caplog) == [
        "a user's data key is stored under version -1, which memvault never writes "
        "(modified outside memvault)"
    ]


@pytest.mark.sqlite_only("works on the home directory's files")
def test_a_primary_version_without_its_key_names_the_version(
    home: Path, caplog: pytest.LogCaptureFixture
) -> None:
    _build(home)
    _sql(home, "UPDATE users SET primary_version = 7")
    assert _run(home, A_FILE, caplog) == [
        "the user's primary data key (version 7) is not in the store: the user's row or "
        "their data keys were changed outside memvault"
    ]


@pytest.mark.sqlite_only("works on the home directory's files")
def test_a_check_value_of_the_wrong_shape_does_not_blame_the_key(home: Path) -> None:
    """A truncated key check value: no key could open it, so the key is not blamed."""
    _build(home)
    with Vault.open(home) as v:
        vault_id = v.vault_id
    _sql(home, "UPDATE meta SET value = substr(value, 1, 20) WHERE key = 'key_check'")
    with pytest.raises(IntegrityError) as caught:
        Vault.open(home)
    assert caught.value.message == (
        f"the key check value of vault {vault_id} is damaged (modified outside memvault), "
        "so no master key can be proved right"
    )
    assert caught.value.hint == (
        "restore the vault database from a backup; the key itself may be right. "
        "Nothing was changed."
    )


def test_a_lock_held_too_long_is_not_a_full_disk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("memvault.store._sqlite._BUSY_SECONDS", 0.2)
    path = tmp_path / "vault.db"
    store = SqliteStore(path)
    holder = sqlite3.connect(path, isolation_level=None)
    try:
        holder.execute("BEGIN IMMEDIATE")
        with pytest.raises(StorageError) as caught, store.transaction(write=True, action="x"):
            pass
    finally:
        holder.close()
        store.close()
    assert caught.value.message == (
        "the vault database could not complete the operation while x: database is locked"
    )
    assert caught.value.hint == (
        "another process held the vault database's lock too long (a long command, or a hung "
        "process); nothing was changed: try again"
    )


def _promptly(argv: list[str], fifo: Path) -> tuple[int, str, str]:
    """Run the CLI in a thread; if it is still waiting on ``fifo`` after a few seconds,
    let it go (open the pipe's other end) and fail."""
    done: list[tuple[int, str, str]] = []
    worker = threading.Thread(target=lambda: done.append(cli(argv)), daemon=True)
    worker.start()
    worker.join(5)
    if worker.is_alive():
        with contextlib.suppress(OSError):
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        worker.join(5)
        pytest.fail(f"{argv} waited on the pipe {fifo}")
    return done[0]


def test_a_pipe_as_the_key_file_is_refused_at_once(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """MEMVAULT_MASTER_KEY_FILE and --master-key-file naming a FIFO: an error, not a wait
    for a writer that may never come."""
    fifo = tmp_path / "key.fifo"
    os.mkfifo(fifo, 0o600)
    monkeypatch.setenv("MEMVAULT_MASTER_KEY_FILE", str(fifo))
    code, out, err = _promptly(["--home", str(home), "init"], fifo)
    assert (code, out) == (1, "")
    assert err == (
        f"memvault: error: the master key file {fifo} is not a regular file\n"
        "memvault: hint: point it at the 0600 file that holds the key (not a pipe or a device)\n"
    )
    monkeypatch.delenv("MEMVAULT_MASTER_KEY_FILE")
    code, _, err = _promptly(["--home", str(home), "--master-key-file", str(fifo), "init"], fifo)
    assert code == 1
    assert err.startswith(f"memvault: error: the master key file {fifo} is not a regular file\n")


def test_a_pipe_as_a_checkpoint_is_refused_at_once(home: Path, tmp_path: Path) -> None:
    _build(home)
    fifo = tmp_path / "checkpoint.fifo"
    os.mkfifo(fifo, 0o600)
    argv = ["--home", str(home), "audit", "verify", "--checkpoint", str(fifo)]
    code, out, err = _promptly(argv, fifo)
    assert (code, out) == (2, "")
    assert err == f"memvault: error: cannot read {fifo}: not a regular file\n"


@pytest.mark.sqlite_only("reads or changes the home's audit log files")
def test_verify_reports_a_damaged_anchor_instead_of_stopping(home: Path) -> None:
    """The anchor's number changed: verify checks the log without it and names the store."""
    _build(home)
    _sql(home, "UPDATE audit_pending SET seq = seq + 1000")
    code, out, err = cli(["--home", str(home), "audit", "verify"])
    assert code == 1
    assert out.splitlines()[1] == "  the store: the store's audit anchor is damaged"
    assert err.startswith(
        "memvault: error: the audit log failed verification: the store: the store's audit "
        "anchor is damaged\n"
    )
