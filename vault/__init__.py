"""memvault: an encrypted, audited memory vault for Claude's memory tool.

::

    from vault import Vault

    with Vault.open("path/to/home") as v:
        tool = v.memory_tool(user="alice")   # a BetaAbstractMemoryTool
        tool.call({"command": "view", "path": "/memories"})
"""

from ._errors import (
    CommandError,
    ConfigurationError,
    IntegrityError,
    MasterKeyError,
    PathError,
    StorageError,
    UsageError,
    VaultError,
)
from ._tool import MemoryTool
from ._vault import Vault

__all__ = [
    "CommandError",
    "ConfigurationError",
    "IntegrityError",
    "MasterKeyError",
    "MemoryTool",
    "PathError",
    "StorageError",
    "UsageError",
    "Vault",
    "VaultError",
]
