"""A large write is screened before the store's write lock is taken: inside the write
transaction the filter never scans a large text again (bench/bench_lock_hold.py has the
times); small writes are screened inside it, as always."""

from __future__ import annotations

import base64
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from memvault import Vault

BIG = "a line of notes about the project, nothing secret\n" * 2800 + "THE END\n"
EDIT = {"command": "str_replace", "path": "/memories/big.md", "old_str": "THE END", "new_str": "x"}
MISS = {
    "command": "str_replace",
    "path": "/memories/big.md",
    "old_str": "y" * 70_000,
    "new_str": "",
}


@pytest.fixture
def vault(home: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Vault]:
    monkeypatch.setenv("MEMVAULT_MASTER_KEY", base64.b64encode(os.urandom(32)).decode())
    with Vault.open(home) as v:
        yield v


def watch(vault: Vault, monkeypatch: pytest.MonkeyPatch) -> list[tuple[bool, int]]:
    """(inside a write transaction?, length) of every text the filter scans."""
    seen: list[tuple[bool, int]] = []
    state = {"writing": False}
    store = vault._store
    real_transaction = store.transaction
    redactor = vault._handlers.screen.redactor
    real_apply, real_scan = redactor.apply, redactor.scan

    @contextmanager
    def transaction(*, write: bool, action: str = "running a command") -> Iterator[None]:
        with real_transaction(write=write, action=action):
            state["writing"] = write
            try:
                yield
            finally:
                state["writing"] = False

    def apply(text: str, *args: Any) -> Any:
        seen.append((state["writing"], len(text)))
        return real_apply(text, *args)

    def scan(text: str, *args: Any) -> Any:
        seen.append((state["writing"], len(text)))
        return real_scan(text, *args)

    monkeypatch.setattr(store, "transaction", transaction)
    monkeypatch.setattr(redactor, "apply", apply)
    monkeypatch.setattr(redactor, "scan", scan)
    return seen


def test_large_writes_are_screened_before_the_write_lock(
    vault: Vault, monkeypatch: pytest.MonkeyPatch
) -> None:
    runner = vault.runner("alice")
    seen = watch(vault, monkeypatch)
    commands = [
        {"command": "create", "path": "/memories/big.md", "file_text": BIG},
        EDIT,
        {"command": "insert", "path": "/memories/big.md", "insert_line": 2, "insert_text": "new\n"},
        MISS,
    ]
    for command in commands:
        seen.clear()
        runner.run(command)
        assert seen, command["command"]
        assert [n for writing, n in seen if writing and n > 1000] == [], command["command"]


def test_small_writes_are_screened_in_the_transaction(
    vault: Vault, monkeypatch: pytest.MonkeyPatch
) -> None:
    runner = vault.runner("alice")
    seen = watch(vault, monkeypatch)
    runner.run({"command": "create", "path": "/memories/small.md", "file_text": "hello"})
    assert (True, 5) in seen and (False, 5) not in seen, seen


def _transactions(vault: Vault, monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether each store transaction opened from now on writes."""
    opened: list[bool] = []
    store = vault._store
    real_transaction = store.transaction

    def transaction(*, write: bool, action: str = "running a command") -> Any:
        opened.append(write)
        return real_transaction(write=write, action=action)

    monkeypatch.setattr(store, "transaction", transaction)
    return opened


def test_an_edit_of_a_file_known_small_takes_one_transaction(
    vault: Vault, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A small edit of a file the tool last saw small is not looked at ahead: one write
    transaction. A file it has not seen, or saw large, is looked at first."""
    runner = vault.runner("alice")
    runner.run({"command": "create", "path": "/memories/small.md", "file_text": "one two\n"})
    runner.run({"command": "create", "path": "/memories/big.md", "file_text": BIG})
    opened = _transactions(vault, monkeypatch)
    edit = {
        "command": "str_replace",
        "path": "/memories/small.md",
        "old_str": "one",
        "new_str": "1",
    }
    assert not runner.run(edit).is_error
    assert opened == [True]
    opened.clear()
    assert not runner.run(EDIT).is_error  # large: read ahead, then written
    assert opened[0] is False and opened[-1] is True
    opened.clear()
    other = vault.runner("alice")  # a new tool has seen nothing
    assert not other.run({**edit, "old_str": "two", "new_str": "2"}).is_error
    assert opened[-2:] == [False, True]


def test_a_file_grown_by_another_tool_is_still_screened_whole(
    vault: Vault, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The size a tool remembers is a hint: a file another tool made large since is
    screened in the write transaction (slower, never skipped)."""
    runner, other = vault.runner("alice"), vault.runner("alice")
    runner.run({"command": "create", "path": "/memories/big.md", "file_text": "MARK\n"})
    other.run(
        {"command": "insert", "path": "/memories/big.md", "insert_line": 0, "insert_text": BIG}
    )
    seen = watch(vault, monkeypatch)
    assert not runner.run({**EDIT, "old_str": "MARK"}).is_error
    assert any(writing and n > len(BIG) for writing, n in seen), seen
