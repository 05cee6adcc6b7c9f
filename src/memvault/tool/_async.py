"""The anthropic SDK's async memory tool: the sync tool's runner, run off the event loop.

Each call hands the model's input to the vault's store thread and awaits the
reply there, so the loop never waits for what a command may wait for: the
vault's lock, SQLite's write lock held by another process, an fsync, the
redaction filter reading a megabyte. What runs on that thread is the same
:class:`~memvault.memory.Runner` the sync tool wraps, so the two answer alike:
the same guard, filter, encryption, transaction, audit record and reply.

A call cancelled while its command waits in the queue never runs it; once the
command has started it runs to its end (it is one transaction, and it is
recorded), and only its result is dropped.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
from collections.abc import Callable
from concurrent.futures import Executor
from typing import TypeVar

from anthropic.lib.tools import BetaAsyncAbstractMemoryTool, ToolError
from anthropic.types.beta import (
    BetaMemoryTool20250818Command,
    BetaMemoryTool20250818CreateCommand,
    BetaMemoryTool20250818DeleteCommand,
    BetaMemoryTool20250818InsertCommand,
    BetaMemoryTool20250818RenameCommand,
    BetaMemoryTool20250818StrReplaceCommand,
    BetaMemoryTool20250818ViewCommand,
)

from ..memory import Reply, Runner, failure

_T = TypeVar("_T")


class AsyncMemoryTool(BetaAsyncAbstractMemoryTool):
    """A user's encrypted memory, as Claude's ``memory_20250818`` tool, for asyncio.

    Made by :meth:`memvault.Vault.async_memory_tool`; use it as any async SDK tool::

        runner = async_client.beta.messages.tool_runner(tools=[tool], ...)

    ``await tool.call(input)`` returns the result string or raises
    ``ToolError(message)``, as :class:`~memvault.MemoryTool` does, and leaves the
    same audit record.
    """

    def __init__(
        self,
        open_runner: Callable[[], Runner],
        executor: Executor,
        user: str,
        session: str | None = None,
    ) -> None:
        super().__init__()
        self._open_runner = open_runner
        self._executor = executor
        self._runner: Runner | None = None  # set on the store thread, by the first command
        self._user = user
        self._session = session

    @property
    def user(self) -> str:
        return self._user

    @property
    def session(self) -> str | None:
        return self._session

    def __repr__(self) -> str:
        return f"<AsyncMemoryTool user={self.user!r}>"

    async def call(self, input: object) -> str:
        """Run one memory command from the model; errors raise ToolError(message)."""
        reply = await self._offload(functools.partial(self._run, input))
        if reply.is_error:
            raise ToolError(reply.content)
        return reply.content

    async def open(self) -> None:
        """Open the user's memories now (creating the user on first use) rather than at
        the first command, and raise what :meth:`memvault.Vault.memory_tool` raises
        when they cannot be opened (``IntegrityError``, ``StorageError``, ...). Optional:
        a command opens them too, and answers such a failure with a ``ToolError``."""
        await self._offload(self._opened)

    def _opened(self) -> Runner:
        if self._runner is None:
            self._runner = self._open_runner()
        return self._runner

    def _run(self, input: object) -> Reply:
        """On the store thread: one command, as the sync tool runs it."""
        try:
            runner = self._opened()
        except Exception as exc:
            # The sync tool's maker would have raised this; a call answers the model as
            # the runner answers any failure of the vault (logged, a fixed message).
            message, error = failure(exc, "open")
            return Reply(message, is_error=True, error=error)
        return runner.run(input)

    async def _offload(self, job: Callable[[], _T]) -> _T:
        """``job()`` on the store thread, awaited; the caller's context variables go
        with it (a request id bound for the operator log, as asyncio.to_thread does)."""
        loop = asyncio.get_running_loop()
        run = functools.partial(contextvars.copy_context().run, job)
        try:
            pending = loop.run_in_executor(self._executor, run)
        except RuntimeError:  # the vault was closed, and its thread stopped
            pending = loop.run_in_executor(None, run)
        return await pending

    async def execute(self, command: BetaMemoryTool20250818Command) -> str:
        return await self.call(command.to_dict())

    async def view(self, command: BetaMemoryTool20250818ViewCommand) -> str:
        return await self.call(command.to_dict())

    async def create(self, command: BetaMemoryTool20250818CreateCommand) -> str:
        return await self.call(command.to_dict())

    async def str_replace(self, command: BetaMemoryTool20250818StrReplaceCommand) -> str:
        return await self.call(command.to_dict())

    async def insert(self, command: BetaMemoryTool20250818InsertCommand) -> str:
        return await self.call(command.to_dict())

    async def delete(self, command: BetaMemoryTool20250818DeleteCommand) -> str:
        return await self.call(command.to_dict())

    async def rename(self, command: BetaMemoryTool20250818RenameCommand) -> str:
        return await self.call(command.to_dict())
