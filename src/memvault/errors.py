"""memvault's exceptions, in one small tree.

::

    VaultError                      anything memvault refuses or cannot do
     ├── ConfigurationError         the vault cannot be opened as asked (home, options)
     │    ├── MasterKeyError        the master key is missing, malformed or not this vault's
     │    └── PolicyError           a redaction policy file is invalid (file:line: problem)
     ├── IntegrityError             stored bytes failed authentication: tampering or corruption
     │    └── LogDamagedError       the audit log failed verification (``report`` lists where)
     ├── StorageError               the store could not complete an operation (I/O, locks)
     │    └── AuditError            the audit log could not take a record: the command is refused
     ├── RedactionError             the redaction filter failed, so the input was refused
     ├── ModelError                 the Messages API could not be reached or refused a request
     └── UsageError (ValueError)    bad input from a caller
          └── CommandError          a memory command was refused; str() is the tool result
               ├── PathError        the path guard refused a path
               └── BlockedError     the redaction policy blocks a kind of data the text holds

Messages say what happened and what to do. They never carry memory text, key
material or file names other than the path the caller itself sent.

This module imports nothing from the package, so every layer can raise from it.
"""

from __future__ import annotations

__all__ = [
    "AuditError",
    "BlockedError",
    "CommandError",
    "ConfigurationError",
    "IntegrityError",
    "LogDamagedError",
    "MasterKeyError",
    "ModelError",
    "PathError",
    "PolicyError",
    "RedactionError",
    "StorageError",
    "UsageError",
    "VaultError",
]


class VaultError(Exception):
    """Base of every error memvault raises on purpose.

    ``hint`` (optional) tells an operator what to do next; the CLI prints it on a
    line of its own.
    """

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return self.message


class ConfigurationError(VaultError):
    """The vault cannot be opened with the given home, options or environment."""


class MasterKeyError(ConfigurationError):
    """The master key is missing, malformed, too widely readable, or belongs to another vault."""


class PolicyError(ConfigurationError):
    """The policy file is invalid; the message names the file, the line and the problem."""


class IntegrityError(VaultError):
    """Stored bytes failed authentication: they were modified, moved or corrupted."""


class LogDamagedError(IntegrityError):
    """The audit log failed verification; ``report`` names every damaged place."""

    def __init__(self, message: str, *, report: object, hint: str | None = None) -> None:
        super().__init__(message, hint=hint)
        self.report = report


class StorageError(VaultError):
    """The store could not complete an operation; nothing was changed."""


class AuditError(StorageError):
    """The audit log could not take a record, so the command was refused."""


class RedactionError(VaultError):
    """The redaction filter could not do its part, so the input was refused.

    A fault of the vault, not of the caller's input: nothing passes unfiltered.
    The message is safe to return to the model as the tool's error result.
    """


class ModelError(VaultError):
    """A conversation with the model could not go on: the Messages API could not be
    reached, refused the key, or refused a request. The message names the endpoint's
    answer (status and error type), cut short and with control characters escaped."""


class UsageError(VaultError, ValueError):
    """A caller passed something the library cannot accept (a bad user name, option, ...)."""


class CommandError(UsageError):
    """A memory command was refused; the message is the exact tool result to return.

    ``kind`` names the reason in one word for the audit log (``not_found``,
    ``exists``, ``limit``, ``input``, ...), never with any of the command's data.
    """

    kind = "command"

    def __init__(self, message: str, *, hint: str | None = None, kind: str | None = None) -> None:
        super().__init__(message, hint=hint)
        if kind is not None:
            self.kind = kind


class PathError(CommandError):
    """The path guard refused a path; the message names the path and the reason."""

    kind = "path"


class BlockedError(CommandError):
    """The redaction policy blocks a kind of data the write contains."""
