"""The anthropic SDK's memory tool, as a thin shell over a user's :class:`Runner`.

It hands the model's input to the runner and turns an error reply into a
:class:`ToolError`, which the SDK's tool runner returns to the model with
``is_error: true``. Everything else (checks, transactions, the audit record,
failure messages) is the runner's, shared with every other adapter.
"""

from __future__ import annotations

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

from ..memory import Runner


class MemoryTool(BetaAbstractMemoryTool):
    """A user's encrypted memory, as Claude's ``memory_20250818`` tool.

    Made by :meth:`memvault.Vault.memory_tool`; use it as any SDK tool::

        runner = client.beta.messages.tool_runner(tools=[tool], ...)

    Every call leaves one record in the vault's audit log, whatever its
    outcome; a command whose record cannot be written is refused.
    """

    def __init__(self, runner: Runner) -> None:
        super().__init__()
        self._runner = runner

    @property
    def user(self) -> str:
        return self._runner.user

    @property
    def session(self) -> str | None:
        return self._runner.session

    def __repr__(self) -> str:
        return f"<MemoryTool user={self.user!r}>"

    def call(self, input: object) -> str:
        """Run one memory command from the model; errors raise ToolError(message)."""
        reply = self._runner.run(input)
        if reply.is_error:
            raise ToolError(reply.content)
        return reply.content

    def execute(self, command: BetaMemoryTool20250818Command) -> str:
        return self.call(command.to_dict())

    def view(self, command: BetaMemoryTool20250818ViewCommand) -> str:
        return self.call(command.to_dict())

    def create(self, command: BetaMemoryTool20250818CreateCommand) -> str:
        return self.call(command.to_dict())

    def str_replace(self, command: BetaMemoryTool20250818StrReplaceCommand) -> str:
        return self.call(command.to_dict())

    def insert(self, command: BetaMemoryTool20250818InsertCommand) -> str:
        return self.call(command.to_dict())

    def delete(self, command: BetaMemoryTool20250818DeleteCommand) -> str:
        return self.call(command.to_dict())

    def rename(self, command: BetaMemoryTool20250818RenameCommand) -> str:
        return self.call(command.to_dict())
