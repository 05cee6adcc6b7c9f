"""What only the async tool has: the store thread, the queue, cancellation, close.

Everything the two tools share (results, errors, guard, filter, records, bytes at
rest) is tested once and run against both (``tests/support/tool_kinds.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import io
import json
import logging
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from anthropic.lib.tools import ToolError
from anthropic.types.beta import (
    BetaMemoryTool20250818CreateCommand,
    BetaMemoryTool20250818ViewCommand,
)

from memvault import IntegrityError, StorageError, Vault
from memvault.cli import main
from memvault.memory import AUDIT_MESSAGE, INTEGRITY_MESSAGE

REQUEST = contextvars.ContextVar("REQUEST", default="none")


@contextlib.contextmanager
def write_lock(home: Path) -> Iterator[None]:
    """SQLite's write lock on the vault's database, held by another connection."""
    db = sqlite3.connect(home / "vault.db", isolation_level=None)
    try:
        db.execute("BEGIN IMMEDIATE")
        yield
        db.execute("ROLLBACK")
    finally:
        db.close()


def create(path: str, text: str = "x") -> dict[str, str]:
    return {"command": "create", "path": path, "file_text": text}


def view(path: str = "/memories") -> dict[str, str]:
    return {"command": "view", "path": path}


def store_threads() -> set[threading.Thread]:
    return {t for t in threading.enumerate() if t.name.startswith("memvault-store")}


def records(home: Path) -> list[dict[str, Any]]:
    """The audit log, as ``memvault audit show --json`` gives it (the vault closed)."""
    out, err = io.StringIO(), io.StringIO()
    assert main(["--home", str(home), "audit", "show", "--json"], out=out, err=err) == 0
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_every_async_tool_of_a_vault_runs_on_one_store_thread(vault: Vault) -> None:
    """Fifty users' tools make one thread, not fifty; close stops it."""

    async def work() -> None:
        tools = [vault.async_memory_tool(f"user-{n}") for n in range(50)]
        await asyncio.gather(*(tool.call(create("/memories/a.md")) for tool in tools))

    others = store_threads()  # other vaults' (none, unless a test left one open)
    asyncio.run(work())
    (mine,) = store_threads() - others
    vault.close()
    assert not mine.is_alive()


@pytest.mark.sqlite_only("holds SQLite's write lock on the home's database")
def test_making_a_tool_does_no_store_work(vault: Vault, home: Path) -> None:
    """A tool is made without a look at the store (so never waits for it): the user is
    created by the first command."""
    with write_lock(home):  # a maker that touched the store would wait for this
        tool = vault.async_memory_tool("alice", session="conv-1")
    assert (tool.user, tool.session) == ("alice", "conv-1")
    assert "alice" not in {name for name, _ in vault.audit_users().values()}
    asyncio.run(tool.call(view()))
    assert "alice" in {name for name, _ in vault.audit_users().values()}


def test_a_closed_vault_makes_no_async_tool(vault: Vault) -> None:
    """As memory_tool: a closed vault refuses to make a tool."""
    vault.close()
    with pytest.raises(StorageError, match="the vault is closed"):
        vault.async_memory_tool("alice")


def test_the_calls_of_a_task_run_in_the_order_it_made_them(vault: Vault) -> None:
    """Thirty inserts at the top, gathered: the queue is first in, first out."""
    tool = vault.async_memory_tool("alice")

    async def work() -> str:
        await tool.call(create("/memories/a.md", ""))
        inserts = (
            tool.call(
                {
                    "command": "insert",
                    "path": "/memories/a.md",
                    "insert_line": 0,
                    "insert_text": f"{n}\n",
                }
            )
            for n in range(30)
        )
        await asyncio.gather(*inserts)
        return await tool.call(view("/memories/a.md"))

    shown = asyncio.run(work())
    assert [row.split("\t")[1] for row in shown.split("\n")[1:-1]] == [
        str(n) for n in reversed(range(30))
    ]


@pytest.mark.sqlite_only("holds SQLite's write lock on the home's database")
def test_a_call_cancelled_in_the_queue_never_runs(vault: Vault, home: Path) -> None:
    """A command waiting behind another is dropped with its call: no file, no record."""
    tool = vault.async_memory_tool("alice")

    async def work() -> None:
        await tool.open()
        with write_lock(home):
            first = asyncio.create_task(tool.call(create("/memories/first.md")))
            queued = asyncio.create_task(tool.call(create("/memories/queued.md")))
            await asyncio.sleep(0.1)  # first waits for the lock, queued behind it
            queued.cancel()
            await asyncio.sleep(0.05)
        assert await first == "File created successfully at: /memories/first.md"
        assert queued.cancelled()

    asyncio.run(work())
    listing = asyncio.run(vault.async_memory_tool("alice").call(view()))
    assert "/memories/first.md" in listing
    assert "queued" not in listing
    vault.close()
    paths = [r["paths"] for r in records(home) if r["command"] == "create"]
    assert paths == [["/memories/first.md"]]


@pytest.mark.sqlite_only("holds SQLite's write lock on the home's database")
def test_a_started_command_runs_to_its_end_when_its_call_is_cancelled(
    vault: Vault, home: Path
) -> None:
    """Cancelling a call whose command has begun drops the result, not the command: it
    commits (or not) whole, with its record."""
    tool = vault.async_memory_tool("alice")

    async def work() -> None:
        await tool.open()
        with write_lock(home):
            started = asyncio.create_task(tool.call(create("/memories/a.md")))
            await asyncio.sleep(0.1)  # waiting for the lock, on the store thread
            started.cancel()
            with pytest.raises(asyncio.CancelledError):
                await started
        assert "/memories/a.md" in await tool.call(view())  # queued after it: it ended

    asyncio.run(work())


def test_close_lets_queued_commands_finish(home: Path) -> None:
    """Commands handed to the store thread before close complete, and are kept."""

    async def work(vault: Vault) -> list[str]:
        tools = [vault.async_memory_tool(f"user-{n}") for n in range(20)]
        calls = [asyncio.create_task(t.call(create("/memories/a.md"))) for t in tools]
        await asyncio.sleep(0)  # every call has handed its command over
        vault.close()
        return await asyncio.gather(*calls)

    vault = Vault.open(home)
    assert set(asyncio.run(work(vault))) == {"File created successfully at: /memories/a.md"}
    with Vault.open(home) as reopened:
        tool = reopened.async_memory_tool("user-19")
        assert "/memories/a.md" in asyncio.run(tool.call(view()))


@pytest.mark.sync_tool_only("compares the two tools side by side")
def test_a_tool_that_outlives_its_vault_answers_as_the_sync_one(vault: Vault) -> None:
    """After close, both tools refuse a command with the same message."""
    sync_tool = vault.memory_tool("alice")
    async_tool = vault.async_memory_tool("alice")
    asyncio.run(async_tool.open())
    vault.close()
    with pytest.raises(ToolError) as sync_error:
        sync_tool.call(view())
    with pytest.raises(ToolError) as async_error:
        asyncio.run(async_tool.call(view()))
    assert async_error.value.content == sync_error.value.content == AUDIT_MESSAGE


class _Request(logging.Filter):
    """Notes the request id the application bound when each operator event was logged."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[tuple[str, str]] = []

    def filter(self, record: logging.LogRecord) -> bool:
        self.seen.append((str(record.msg), REQUEST.get()))
        return True


@pytest.mark.sqlite_only("reads or changes the store's rows with SQLite")
def test_a_user_that_cannot_be_opened(home: Path) -> None:
    """A user whose rows were deleted behind the vault's back: open() raises what
    memory_tool raises; a call answers with the integrity message, leaves no record, and
    the operator's event carries the caller's context (a request id bound by the app)."""
    with Vault.open(home) as v:
        for name in ("alice", "bob"):
            asyncio.run(v.async_memory_tool(name).call(create("/memories/a.md")))
    with contextlib.closing(sqlite3.connect(home / "vault.db")) as db:
        db.execute("PRAGMA foreign_keys = ON")
        db.execute("DELETE FROM users WHERE id = (SELECT min(id) FROM users)")  # alice's
        db.commit()
    request = _Request()
    logging.getLogger("memvault").addFilter(request)

    async def as_request(coroutine: object) -> object:
        REQUEST.set("req-81")
        return await coroutine  # type: ignore[misc]

    try:
        with Vault.open(home) as v:
            tool = v.async_memory_tool("alice")
            with pytest.raises(IntegrityError, match="the store holds 1 users"):
                asyncio.run(tool.open())
            with pytest.raises(ToolError) as error:
                asyncio.run(as_request(tool.call(view())))
            assert error.value.content == INTEGRITY_MESSAGE
            assert asyncio.run(v.async_memory_tool("bob").call(view("/memories/a.md")))
    finally:
        logging.getLogger("memvault").removeFilter(request)
    assert [r["command"] for r in records(home) if r["command"] == "view"] == ["view"]  # bob's
    assert any('"integrity_failure"' in msg and rid == "req-81" for msg, rid in request.seen)


def test_the_sdk_dispatch_methods_reach_the_same_commands(vault: Vault) -> None:
    """execute() and the per-command methods the SDK's base class declares run the
    command as call() does."""
    tool = vault.async_memory_tool("alice")

    async def work() -> None:
        made = BetaMemoryTool20250818CreateCommand(
            command="create", path="/memories/a", file_text="hi"
        )
        assert await tool.create(made) == "File created successfully at: /memories/a"
        shown = BetaMemoryTool20250818ViewCommand(command="view", path="/memories/a")
        assert (
            await tool.execute(shown)
            == await tool.view(shown)
            == ("Here's the content of /memories/a with line numbers:\n     1\thi")
        )

    asyncio.run(work())
