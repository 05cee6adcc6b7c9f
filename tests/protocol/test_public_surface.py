"""The pinned public surface (README: "Use it from Python"), end to end in one session."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from anthropic.lib.tools import BetaAbstractMemoryTool, BetaAsyncAbstractMemoryTool, ToolError

import memvault
from memvault import AsyncMemoryTool, MemoryTool, Vault


def test_exported_names_are_pinned() -> None:
    """The package exports exactly these names, sorted."""
    assert memvault.__all__ == sorted(memvault.__all__)
    assert memvault.__all__ == [
        "AsyncMemoryTool",
        "AuditError",
        "BlockedError",
        "CommandError",
        "ConfigurationError",
        "IntegrityError",
        "LogDamagedError",
        "MasterKeyError",
        "MemoryTool",
        "PathError",
        "PolicyError",
        "RedactionError",
        "StorageError",
        "UsageError",
        "Vault",
        "VaultError",
        "__version__",
    ]


@pytest.mark.sync_tool_only("pins the sync tool's class; the async one's is pinned below")
def test_open_creates_vault_and_tool_is_sdk_memory_tool(home: Path) -> None:
    """Vault.open creates a vault; memory_tool returns a BetaAbstractMemoryTool named memory."""
    with Vault.open(home) as v:
        tool = v.memory_tool(user="alice")
        assert isinstance(tool, BetaAbstractMemoryTool)
        assert isinstance(tool, MemoryTool)
        assert tool.to_dict() == {"type": "memory_20250818", "name": "memory"}
        assert tool.call({"command": "create", "path": "/memories/a.txt", "file_text": "hi"}) == (
            "File created successfully at: /memories/a.txt"
        )
        with pytest.raises(ToolError) as err:
            tool.call({"command": "create", "path": "/memories/a.txt", "file_text": "x"})
        assert err.value.content == "Error: File /memories/a.txt already exists"
    with Vault.open(home) as v:
        assert v.memory_tool(user="alice").call({"command": "view", "path": "/memories/a.txt"}) == (
            "Here's the content of /memories/a.txt with line numbers:\n     1\thi"
        )


def test_async_tool_is_the_sdks_async_memory_tool(home: Path) -> None:
    """async_memory_tool returns a BetaAsyncAbstractMemoryTool named memory, with the
    sync tool's answers, awaited."""

    async def session(v: Vault) -> None:
        tool = v.async_memory_tool(user="alice", session="conv-1")
        assert isinstance(tool, BetaAsyncAbstractMemoryTool)
        assert isinstance(tool, AsyncMemoryTool)
        assert (tool.user, tool.session) == ("alice", "conv-1")
        assert repr(tool) == "<AsyncMemoryTool user='alice'>"
        assert tool.to_dict() == {"type": "memory_20250818", "name": "memory"}
        created = await tool.call(
            {"command": "create", "path": "/memories/a.txt", "file_text": "hi"}
        )
        assert created == "File created successfully at: /memories/a.txt"
        with pytest.raises(ToolError) as err:
            await tool.call({"command": "create", "path": "/memories/a.txt", "file_text": "x"})
        assert err.value.content == "Error: File /memories/a.txt already exists"

    with Vault.open(home) as v:
        asyncio.run(session(v))
    with Vault.open(home) as v:
        view = v.async_memory_tool(user="alice").call(
            {"command": "view", "path": "/memories/a.txt"}
        )
        assert asyncio.run(view) == (
            "Here's the content of /memories/a.txt with line numbers:\n     1\thi"
        )
