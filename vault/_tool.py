"""The tool adapter: the SDK's memory tool interface over a user's namespace.

A thin shell. It checks the input, runs the command in one transaction, and
turns every failure into a :class:`ToolError` with a clear message, so that
nothing raw (a traceback, an exception repr, a database path) reaches the model.
"""

from __future__ import annotations

import threading
from typing import Any

from anthropic.lib.tools import BetaAbstractMemoryTool, ToolError
from anthropic.types.beta import (
    BetaMemoryTool20250818Command,
    BetaMemoryTool20250818CreateCommand,
    BetaMemoryTool20250818DeleteCommand,
    BetaMemoryTool20250818InsertCommand,
    BetaMemoryTool20250818RenameCommand,
    BetaMemoryTool20250818StrReplaceCommand,
    BetaMemoryTool20250818ViewCommand,
)

from ._errors import CommandError, IntegrityError, VaultError
from ._handlers import Handlers
from ._input import COMMANDS, check
from ._log import log as _log
from ._namespace import Namespace

INTEGRITY_MESSAGE = (
    "Error: The memory store could not read this memory: its stored data failed an integrity "
    "check (it was modified or corrupted outside memvault). Nothing was changed. Tell the "
    "operator; the vault should be restored from a backup."
)
UNAVAILABLE_MESSAGE = (
    "Error: The memory store could not complete the command; nothing was changed. "
    "Try again in a moment."
)


class MemoryTool(BetaAbstractMemoryTool):
    """A user's encrypted memory, as Claude's ``memory_20250818`` tool.

    Made by :meth:`vault.Vault.memory_tool`; use it as any SDK tool::

        runner = client.beta.messages.tool_runner(tools=[tool], ...)
    """

    def __init__(
        self, namespace: Namespace, handlers: Handlers, lock: threading.RLock, user: str
    ) -> None:
        super().__init__()
        self._ns = namespace
        self._handlers = handlers
        self._lock = lock
        self.user = user

    def __repr__(self) -> str:
        return f"<MemoryTool user={self.user!r}>"

    def call(self, input: object) -> str:
        """Run one memory command from the model; errors raise ToolError(message)."""
        return self._run(input)

    def execute(self, command: BetaMemoryTool20250818Command) -> str:
        return self._run(command.to_dict())

    def view(self, command: BetaMemoryTool20250818ViewCommand) -> str:
        return self._run(command.to_dict())

    def create(self, command: BetaMemoryTool20250818CreateCommand) -> str:
        return self._run(command.to_dict())

    def str_replace(self, command: BetaMemoryTool20250818StrReplaceCommand) -> str:
        return self._run(command.to_dict())

    def insert(self, command: BetaMemoryTool20250818InsertCommand) -> str:
        return self._run(command.to_dict())

    def delete(self, command: BetaMemoryTool20250818DeleteCommand) -> str:
        return self._run(command.to_dict())

    def rename(self, command: BetaMemoryTool20250818RenameCommand) -> str:
        return self._run(command.to_dict())

    def _run(self, raw: Any) -> str:
        name = raw.get("command") if isinstance(raw, dict) else None
        try:
            command = check(raw, self._handlers.screen)
            with self._lock, self._ns.transaction(write=command.writes):
                return self._handlers.run(self._ns, command)
        except CommandError as exc:
            raise ToolError(exc.message) from None
        except IntegrityError as exc:
            _log.error("integrity_failure", command=_safe(name), detail=exc.message)
            raise ToolError(INTEGRITY_MESSAGE) from None
        except VaultError as exc:
            _log.error(
                "command_failed", command=_safe(name), error=type(exc).__name__, detail=exc.message
            )
            raise ToolError(UNAVAILABLE_MESSAGE) from None
        except Exception as exc:
            # Never the message: it could echo memory text (a codec error quotes its input).
            _log.error("internal_error", command=_safe(name), error=type(exc).__name__)
            raise ToolError(UNAVAILABLE_MESSAGE) from None


def _safe(name: object) -> str:
    """The command name for a log event, only if it is one of ours (never model text)."""
    return name if isinstance(name, str) and name in COMMANDS else "?"
