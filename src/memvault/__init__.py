"""memvault: an encrypted, audited memory vault for Claude's memory tool.

::

    from memvault import Vault

    with Vault.open("path/to/home") as v:
        tool = v.memory_tool(user="alice")   # a BetaAbstractMemoryTool
        tool.call({"command": "view", "path": "/memories"})
        # in asyncio code: a BetaAsyncAbstractMemoryTool whose store work runs off the loop
        await v.async_memory_tool(user="alice").call({"command": "view", "path": "/memories"})

Importing memvault does not import the ``anthropic`` SDK: it is loaded when a
tool is asked for (``Vault.memory_tool``, ``Vault.async_memory_tool``, or the
names ``memvault.MemoryTool`` and ``memvault.AsyncMemoryTool``),
so operator commands such as ``memvault audit verify`` start without it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._vault import Vault
from .errors import (
    AuditError,
    BlockedError,
    CommandError,
    ConfigurationError,
    IntegrityError,
    LogDamagedError,
    MasterKeyError,
    PathError,
    PolicyError,
    RedactionError,
    StorageError,
    UsageError,
    VaultError,
)

if TYPE_CHECKING:
    from .tool import AsyncMemoryTool, MemoryTool

__all__ = [
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


def __getattr__(name: str) -> Any:
    # The version is read from the installed metadata on first use: importing
    # importlib.metadata and scanning the distributions costs a new process ~50 ms.
    if name == "__version__":
        from importlib import metadata

        try:
            version = metadata.version("memvault")
        except metadata.PackageNotFoundError:  # pragma: no cover - run from a source tree
            version = "0+unknown"
        globals()["__version__"] = version
        return version
    # The SDK adapter is imported on first use only (importing the SDK takes about a second).
    if name in ("AsyncMemoryTool", "MemoryTool"):
        from . import tool

        return getattr(tool, name)
    raise AttributeError(f"module 'memvault' has no attribute {name!r}")
