"""The six memory commands, one typed value each, as the parser hands them to the handlers.

A command exists only once its input has been checked: every field has the
right type, texts are valid UTF-8, and every path has passed the guard and
the redaction screen (``docs/protocol.md``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..errors import CommandError
from ..redaction import Finding
from ._guard import MemoryPath
from ._tree import Stored


@dataclass(frozen=True, slots=True)
class View:
    """Show a directory two levels deep, or a file's lines (all, or ``view_range``)."""

    name: ClassVar[str] = "view"
    writes: ClassVar[bool] = False
    path: MemoryPath
    view_range: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class Create:
    """Create a new file (and any missing parent directories)."""

    name: ClassVar[str] = "create"
    writes: ClassVar[bool] = True
    path: MemoryPath
    file_text: str


@dataclass(frozen=True, slots=True)
class StrReplace:
    """Replace the one occurrence of ``old_str`` in a file with ``new_str``."""

    name: ClassVar[str] = "str_replace"
    writes: ClassVar[bool] = True
    path: MemoryPath
    old_str: str
    new_str: str


@dataclass(frozen=True, slots=True)
class Insert:
    """Insert ``insert_text`` after line ``insert_line`` (0: at the top)."""

    name: ClassVar[str] = "insert"
    writes: ClassVar[bool] = True
    path: MemoryPath
    insert_line: int
    insert_text: str


@dataclass(frozen=True, slots=True)
class Delete:
    """Delete a file, or a directory with everything below it."""

    name: ClassVar[str] = "delete"
    writes: ClassVar[bool] = True
    path: MemoryPath


@dataclass(frozen=True, slots=True)
class Rename:
    """Move a file or a whole directory; never over an existing entry."""

    name: ClassVar[str] = "rename"
    writes: ClassVar[bool] = True
    old_path: MemoryPath
    new_path: MemoryPath


Command = View | Create | StrReplace | Insert | Delete | Rename


def paths_of(command: Command) -> tuple[MemoryPath, ...]:
    """A command's paths, in the order its input names them."""
    if isinstance(command, Rename):
        return (command.old_path, command.new_path)
    return (command.path,)


def texts_of(command: Command) -> tuple[tuple[str, str], ...]:
    """A command's text fields, as ``(name, value)`` in the order its input names them."""
    if isinstance(command, Create):
        return (("file_text", command.file_text),)
    if isinstance(command, StrReplace):
        return (("old_str", command.old_str), ("new_str", command.new_str))
    if isinstance(command, Insert):
        return (("insert_text", command.insert_text),)
    return ()


# In the order the protocol lists them; messages that name them all use this order.
COMMANDS: tuple[str, ...] = tuple(
    kind.name for kind in (View, Create, StrReplace, Insert, Delete, Rename)
)


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one command did: the result for the model, and what its audit record needs.

    ``refused`` is the command's own refusal (its message is the error result);
    ``before`` is the file text the command read or removed, ``after`` the text
    it stored, for the record's keyed digests; ``findings`` is what the
    redaction filter removed from the stored text (kinds only reach the record).
    """

    result: str
    refused: CommandError | None = None
    before: Stored | None = None
    after: Stored | None = None
    findings: tuple[Finding, ...] = ()

    @classmethod
    def refusal(cls, error: CommandError, before: Stored | None = None) -> Outcome:
        return cls(error.message, refused=error, before=before)
