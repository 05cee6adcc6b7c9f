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

from .._log import log as _log
from ..audit import AuditLog, Event, UserAuditKey
from ..errors import (
    AuditError,
    BlockedError,
    CommandError,
    IntegrityError,
    RedactionError,
    VaultError,
)
from ..memory import COMMANDS, Command, Handlers, Namespace, Trace, check

INTEGRITY_MESSAGE = (
    "Error: The memory store could not read this memory: its stored data failed an integrity "
    "check (it was modified or corrupted outside memvault). Nothing was changed. Tell the "
    "operator; the vault should be restored from a backup."
)
AUDIT_MESSAGE = (
    "Error: The memory store could not record this command in its audit log, so it was "
    "refused and nothing was changed. Tell the operator."
)
UNAVAILABLE_MESSAGE = (
    "Error: The memory store could not complete the command; nothing was changed. "
    "Try again in a moment."
)


class MemoryTool(BetaAbstractMemoryTool):
    """A user's encrypted memory, as Claude's ``memory_20250818`` tool.

    Made by :meth:`vault.Vault.memory_tool`; use it as any SDK tool::

        runner = client.beta.messages.tool_runner(tools=[tool], ...)

    Every call leaves one record in the vault's audit log, whatever its
    outcome; a command whose record cannot be written is refused.
    """

    def __init__(
        self,
        namespace: Namespace,
        handlers: Handlers,
        lock: threading.RLock,
        user: str,
        audit: AuditLog,
        audit_key: UserAuditKey,
        session: str | None = None,
    ) -> None:
        super().__init__()
        self._ns = namespace
        self._handlers = handlers
        self._lock = lock
        self._audit = audit
        self._audit_key = audit_key
        self.user = user
        self.session = session

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
        name = _safe(raw.get("command") if isinstance(raw, dict) else None)
        event = Event(
            command=name if name != "?" else "invalid",
            user=self._audit_key,
            session=self.session,
            paths=self._paths(raw),
        )
        with self._lock:
            try:
                command = check(raw, self._handlers.screen)
            except CommandError as exc:
                return self._refuse(event, exc)
            try:
                if command.writes:
                    return self._write(command, event)
                return self._read(command, event)
            except ToolError:
                raise
            except Exception as exc:
                return self._fail(event, exc, name)

    def _write(self, command: Command, event: Event) -> str:
        """A command that may change memories: its record commits with it, or neither does."""
        ns = self._ns
        ns.trace = Trace()
        refused: CommandError | None = None
        with self._audit.holding(), ns.transaction(write=True):
            try:
                with ns.store.savepoint():
                    result = self._handlers.run(ns, command)
            except CommandError as exc:
                refused = exc
                ns.trace.after = None  # rolled back: nothing was written
            self._describe(event, refused)
            self._audit.record(event, txn=True)
        if refused is not None:
            raise ToolError(refused.message)
        return result

    def _read(self, command: Command, event: Event) -> str:
        """A command that changes nothing: its record is written before the result is returned."""
        ns = self._ns
        ns.trace = Trace()
        refused: CommandError | None = None
        with ns.transaction(write=False):
            try:
                result = self._handlers.run(ns, command)
            except CommandError as exc:
                refused = exc
        self._describe(event, refused)
        self._audit.record(event)
        self._audit.maybe_anchor()
        if refused is not None:
            raise ToolError(refused.message)
        return result

    def _describe(self, event: Event, refused: CommandError | None) -> None:
        trace = self._ns.trace
        key = self._audit_key
        event.key_version = trace.key_version
        event.before = key.digest(*trace.before) if trace.before else None
        event.after = key.digest(*trace.after) if trace.after else None
        if trace.findings and refused is None:
            counts: dict[str, int] = {}
            for finding in trace.findings:
                counts[finding.kind] = counts.get(finding.kind, 0) + 1
            event.findings = counts
        if refused is not None:
            event.outcome, event.error = outcome_of(refused)

    def _refuse(self, event: Event, exc: CommandError) -> str:
        """Input the guard or the checks refused: recorded, then returned as the error."""
        event.outcome, event.error = outcome_of(exc)
        try:
            self._audit.record(event)
        except VaultError as audit_exc:
            return self._fail(event, audit_exc, event.command)
        raise ToolError(exc.message)

    def _fail(self, event: Event, exc: BaseException, name: str) -> str:
        """A failure of the vault itself: logged for the operator, recorded if the log
        still can, and returned to the model as a message that reveals nothing."""
        if isinstance(exc, IntegrityError):
            _log.error("integrity_failure", command=name, detail=exc.message)
            message, error = INTEGRITY_MESSAGE, "integrity"
        elif isinstance(exc, AuditError):
            _log.error("audit_failure", command=name, detail=exc.message)
            message, error = AUDIT_MESSAGE, "audit"
        elif isinstance(exc, VaultError):
            _log.error("command_failed", command=name, error=type(exc).__name__, detail=exc.message)
            message, error = UNAVAILABLE_MESSAGE, "storage"
        else:
            # Never the message: it could echo memory text (a codec error quotes its input).
            _log.error("internal_error", command=name, error=type(exc).__name__)
            message, error = UNAVAILABLE_MESSAGE, "internal"
        if error != "audit":
            event.outcome, event.error = "failed", error
            event.before = event.after = event.findings = None
            try:
                self._audit.record(event)
            except Exception as audit_exc:
                _log.error("audit_failure", command=name, error=type(audit_exc).__name__)
                message = AUDIT_MESSAGE
        raise ToolError(message)

    def _paths(self, raw: Any) -> list[str] | None:
        """The command's paths as the redaction filter renders them (for the sealed record)."""
        if not isinstance(raw, dict):
            return None
        paths = []
        for field in ("path", "old_path", "new_path"):
            value = raw.get(field)
            if isinstance(value, str):
                try:
                    rendered = self._handlers.screen.render(value[:_PATH_CHARS])
                except Exception:
                    rendered = "[unscreened]"
                paths.append(rendered)
        return paths or None


_PATH_CHARS = 1100  # a path longer than the guard allows is cut (it is refused anyway)


def outcome_of(exc: CommandError) -> tuple[str, str]:
    """(outcome, error kind) of a refused command, as the audit log records them."""
    if isinstance(exc, BlockedError):
        return "blocked", "blocked"
    if isinstance(exc, RedactionError):
        return "failed", "redaction"
    kind = exc.kind
    outcome = {
        "input": "invalid",
        "path": "refused",
        "path_content": "refused",
        "limit": "limit",
    }.get(kind, "error")
    return outcome, kind


def _safe(name: object) -> str:
    """The command name for a log event, only if it is one of ours (never model text)."""
    return name if isinstance(name, str) and name in COMMANDS else "?"
