"""The audited transaction every memory command runs in, written once for every adapter.

:meth:`Runner.run` takes the tool input as the model sent it and returns a
:class:`Reply`: the result string, or the error string with ``is_error``.
Nothing else ever leaves it: a refusal, an integrity failure, a storage or
audit failure and a bug all become a reply whose text reveals nothing but
what the model may see (``docs/protocol.md`` §9).

Every call leaves one audit record, whatever its outcome:

* a command that may write runs in one store write transaction; its record is
  appended inside it and commits with the change, or neither does;
* a command that only reads records before its result is returned;
* input refused before it reached the store is recorded as refused;
* a failure of the vault itself is recorded if the log still can; if the
  record cannot be written, the command is refused (``AUDIT_MESSAGE``).
"""

from __future__ import annotations

import dataclasses
import threading
from dataclasses import dataclass, replace
from typing import Any

from .._log import log as _log
from ..audit import Event, Log, UserAuditKey
from ..errors import (
    AuditError,
    BlockedError,
    CommandError,
    IntegrityError,
    RedactionError,
    StorageError,
    VaultError,
)
from ._commands import COMMANDS, Command, Outcome, paths_of
from ._handlers import Handlers
from ._parse import parse_command
from ._results import AUDIT_MESSAGE, INTEGRITY_MESSAGE, UNAVAILABLE_MESSAGE
from ._tree import Stored, Tree

_PATH_CHARS = 1100  # a path longer than the guard allows is cut (it is refused anyway)
_PATH_FIELDS = ("path", "old_path", "new_path")
_BY_IDENTITY = ("rename", "delete")  # their records name the node by identity, not text
_RETOUCH = 3  # times a view runs again when the file it read went away before its day was set


@dataclass(frozen=True, slots=True)
class Reply:
    """What a command returns to the model: ``content``, an error if ``is_error``.

    ``error`` and ``findings`` are for the caller, not the model, and say what the
    command's audit record says: the error kind of a command that did not succeed
    (``exists``, ``path``, ``blocked``, ``audit`` ...), and the kinds and counts the
    redaction filter removed from what was stored, as sorted ``(kind, count)``
    pairs. Two replies are equal when the model is shown the same.
    """

    content: str
    is_error: bool = False
    error: str | None = dataclasses.field(default=None, compare=False)
    findings: tuple[tuple[str, int], ...] = dataclasses.field(default=(), compare=False)


class _Undo(Exception):
    """Rolls back a refused write's savepoint; carries the refusal out of it."""

    def __init__(self, outcome: Outcome) -> None:
        super().__init__()
        self.outcome = outcome


class Runner:
    """One user's memory commands, each run as an audited transaction.

    Made by the vault (:meth:`memvault.Vault.runner`); adapters (the SDK tool,
    ``memvault exec``, the demo) are thin shells over :meth:`run`. Calls
    are serialized by the vault's lock, so a runner may be shared by threads.
    """

    def __init__(
        self,
        tree: Tree,
        handlers: Handlers,
        lock: threading.RLock,
        audit: Log,
        audit_key: UserAuditKey,
        user: str,
        session: str | None = None,
    ) -> None:
        self._tree = tree
        self._handlers = handlers
        self._lock = lock
        self._audit = audit
        self._audit_key = audit_key
        self.user = user
        self.session = session

    def __repr__(self) -> str:
        return f"<Runner user={self.user!r}>"

    def run(self, raw: object) -> Reply:
        """Run one command from the model, as its tool input (a JSON object)."""
        name = _known(raw.get("command") if isinstance(raw, dict) else None)
        event = Event(command=name or "invalid", user=self._audit_key, session=self.session)
        with self._lock:
            try:
                command = parse_command(raw, self._handlers.screen)
            except CommandError as exc:
                event.paths = self._paths(raw)
                return self._refuse(event, exc)
            except Exception as exc:
                event.paths = self._paths(raw)
                return self._fail(event, exc)
            # The parser screened the paths already: as the record keeps them.
            event.paths = [path.text for path in paths_of(command)]
            try:
                outcome = (
                    self._write(command, event) if command.writes else self._read(command, event)
                )
            except Exception as exc:
                return self._fail(event, exc)
        if outcome.refused is not None:
            return Reply(outcome.refused.message, is_error=True, error=event.error)
        return Reply(outcome.result, findings=tuple(sorted((event.findings or {}).items())))

    def _write(self, command: Command, event: Event) -> Outcome:
        """A command that may change memories: its record commits with it, or neither does.

        A large write is screened first, before the write lock, so the lock is held
        for little more than the write (:meth:`Handlers.prepare`)."""
        with self._handlers.screen.ahead():
            self._handlers.prepare(self._tree, command)
            return self._commit(command, event)

    def _commit(self, command: Command, event: Event) -> Outcome:
        with self._audit.holding(self._audit_key.pseudonym), self._tree.transaction(write=True):
            # Every node the command writes names the record that will describe it.
            self._tree.begin_write(self._audit.next_seq())
            change: tuple[int, int] | None = None
            try:
                with self._tree.savepoint():
                    outcome = self._handlers.run(self._tree, command)
                    if outcome.refused is not None:
                        raise _Undo(outcome)
                change = (0, self._tree.added)
            except _Undo as undo:
                outcome = replace(undo.outcome, after=None)  # rolled back: nothing stored
            except CommandError as exc:
                outcome = Outcome.refusal(exc)
            self._describe(event, outcome)
            acted = self._tree.acted
            if change is not None and acted is not None and command.name in _BY_IDENTITY:
                # A moved node, or a deleted directory: the digest of its identity alone.
                event.before = event.before or self._audit_key.digest(acted, b"")
                if command.name == "rename":
                    event.after = event.before
            self._audit.record(event, txn=True, change=change)
        return outcome

    def _read(self, command: Command, event: Event) -> Outcome:
        """A command that changes nothing: its record is written before the result is returned."""
        if self._audit.reads_commit_records:
            return self._read_with_record(command, event)
        outcome = self._run_read(command)
        for _ in range(_RETOUCH):
            if self._touched():
                break
            outcome = self._run_read(command)  # the file went away: answer as things are now
        self._describe(event, outcome)
        self._audit.record(event)
        self._audit.maybe_anchor()
        return outcome

    def _read_with_record(self, command: Command, event: Event) -> Outcome:
        """A command that changes nothing, on a log in the database: one transaction under
        the user's chain lock (their memories cannot change meanwhile) reads, sets a stale
        last-used day, and commits the record, without waiting for the server's flush."""
        with (
            self._audit.holding(self._audit_key.pseudonym, flush=False),
            self._tree.transaction(write=True),
        ):
            try:
                outcome = self._handlers.run(self._tree, command)
            except CommandError as exc:
                outcome = Outcome.refusal(exc)
            self._tree.touch_noted()
            self._describe(event, outcome)
            self._audit.record(event, txn=True)
        return outcome

    def _run_read(self, command: Command) -> Outcome:
        with self._tree.transaction(write=False):
            try:
                return self._handlers.run(self._tree, command)
            except CommandError as exc:
                return Outcome.refusal(exc)

    def _touched(self) -> bool:
        """After a view of a file whose last-used day was not today: today becomes its
        day, before the result is returned, so an expiry that runs after this view sees
        it. False if the file went away in between (then the view runs again).

        The view never fails for it: if the day cannot be written (the store's lock held
        past its timeout, a full disk), the result stands and the failure is logged;
        the next view of the file tries again."""
        try:
            # In a database, the write locks the user's chain only, as the user's commands do.
            with self._audit.holding(self._audit_key.pseudonym):
                return self._tree.touch_read()
        except StorageError as exc:
            _log.warning("touch_failed", error=type(exc).__name__, detail=exc.message)
            return True

    def _describe(self, event: Event, outcome: Outcome) -> None:
        event.key_version = self._tree.key_version
        event.before = self._digest(outcome.before)
        event.after = self._digest(outcome.after)
        if outcome.refused is not None:
            event.outcome, event.error = outcome_of(outcome.refused)
        elif outcome.findings:
            counts: dict[str, int] = {}
            for finding in outcome.findings:
                counts[finding.kind] = counts.get(finding.kind, 0) + 1
            event.findings = counts

    def _digest(self, stored: Stored | None) -> str | None:
        return self._audit_key.digest(stored.fid, stored.raw) if stored is not None else None

    def _refuse(self, event: Event, exc: CommandError) -> Reply:
        """Input the guard or the checks refused: recorded, then returned as the error."""
        event.outcome, event.error = outcome_of(exc)
        try:
            self._audit.record(event)
        except VaultError as audit_exc:
            return self._fail(event, audit_exc)
        return Reply(exc.message, is_error=True, error=event.error)

    def _fail(self, event: Event, exc: BaseException) -> Reply:
        """A failure of the vault itself: logged for the operator, recorded if the log
        still can, and returned to the model as a message that reveals nothing."""
        name = event.command
        message, error = failure(exc, name)
        if error != "audit":
            event.outcome, event.error = "failed", error
            event.before = event.after = event.findings = None
            try:
                self._audit.record(event)
            except Exception as audit_exc:
                _log.error("audit_failure", command=name, error=type(audit_exc).__name__)
                message, error = AUDIT_MESSAGE, "audit"
        return Reply(message, is_error=True, error=error)

    def _paths(self, raw: Any) -> list[str] | None:
        """The paths of input the parser refused, as the redaction filter renders them
        (for the sealed record)."""
        if not isinstance(raw, dict):
            return None
        paths = []
        for field in _PATH_FIELDS:
            value = raw.get(field)
            if isinstance(value, str):
                try:
                    rendered = self._handlers.screen.render(value[:_PATH_CHARS])
                except Exception:
                    rendered = "[unscreened]"
                paths.append(rendered)
        return paths or None

    def refuse_line(self, message: str) -> Reply:
        """Record input that could not be read as a tool input at all (a line of
        ``memvault exec`` that is not UTF-8, not JSON, or more than one value) and
        return ``message``, the reader's error, as the reply.

        The record says only that invalid input arrived: nothing of the input is
        in it, nor in ``message``, which names what was wrong by position only.
        """
        event = Event(command="invalid", user=self._audit_key, session=self.session)
        with self._lock:
            return self._refuse(event, CommandError(message, kind="input"))


def failure(exc: BaseException, command: str) -> tuple[str, str]:
    """(message for the model, error kind) of a failure of the vault itself, logged for
    the operator by kind. The message is a fixed one (``docs/protocol.md`` §9), or the
    redaction filter's own refusal; never a foreign exception's, which could echo
    memory text."""
    if isinstance(exc, IntegrityError):
        _log.error("integrity_failure", command=command, detail=exc.message)
        return INTEGRITY_MESSAGE, "integrity"
    if isinstance(exc, AuditError):
        _log.error("audit_failure", command=command, detail=exc.message)
        return AUDIT_MESSAGE, "audit"
    if isinstance(exc, RedactionError):
        # The screen has logged the fault; its message is safe for the model.
        return exc.message, "redaction"
    if isinstance(exc, VaultError):
        _log.error("command_failed", command=command, error=type(exc).__name__, detail=exc.message)
        return UNAVAILABLE_MESSAGE, "storage"
    # Never the message: it could echo memory text (a codec error quotes its input).
    _log.error("internal_error", command=command, error=type(exc).__name__)
    return UNAVAILABLE_MESSAGE, "internal"


def outcome_of(exc: CommandError) -> tuple[str, str]:
    """(outcome, error kind) of a refused command, as the audit log records them."""
    if isinstance(exc, BlockedError):
        return "blocked", "blocked"
    kind = exc.kind
    outcome = {
        "input": "invalid",
        "path": "refused",
        "path_content": "refused",
        "limit": "limit",
        "file_size": "limit",
        "quota_bytes": "limit",
        "quota_files": "limit",
        "quota_directories": "limit",
    }.get(kind, "error")
    return outcome, kind


def _known(name: object) -> str | None:
    """The command name for the record, only if it is one of ours (never model text)."""
    return name if isinstance(name, str) and name in COMMANDS else None
