"""The ``memory_20250818`` protocol, independent of any SDK: input parsing, the path guard,
the six commands over a user's encrypted tree, and the audited transaction each runs in
(:class:`Runner`, which every adapter shares). Strings: ``docs/protocol.md``."""

from . import _accounts as accounts
from . import _touch as touch
from ._accounts import MAX_USER_BYTES, check_user
from ._binding import verify_store
from ._commands import (
    COMMANDS,
    Command,
    Create,
    Delete,
    Insert,
    Outcome,
    Rename,
    StrReplace,
    View,
)
from ._guard import MAX_DEPTH, MAX_NAME_BYTES, MAX_PATH_BYTES, MemoryPath, parse_path
from ._handlers import DEFAULT_MAX_FILE_BYTES, MAX_LINES, Handlers
from ._node import Node
from ._parse import parse_command
from ._prompt import MEMORY_PROTOCOL_PROMPT
from ._quota import check_usage
from ._results import (
    AUDIT_MESSAGE,
    INTEGRITY_MESSAGE,
    UNAVAILABLE_MESSAGE,
    format_size,
    number_lines,
)
from ._runner import Reply, Runner, failure
from ._screen import Screen
from ._tally import Entry, Usage
from ._tree import Stored, Tree
from ._unlock import Unlocked, load_generations, open_keys

__all__ = [
    "AUDIT_MESSAGE",
    "COMMANDS",
    "DEFAULT_MAX_FILE_BYTES",
    "INTEGRITY_MESSAGE",
    "MAX_DEPTH",
    "MAX_LINES",
    "MAX_NAME_BYTES",
    "MAX_PATH_BYTES",
    "MAX_USER_BYTES",
    "MEMORY_PROTOCOL_PROMPT",
    "UNAVAILABLE_MESSAGE",
    "Command",
    "Create",
    "Delete",
    "Entry",
    "Handlers",
    "Insert",
    "MemoryPath",
    "Node",
    "Outcome",
    "Rename",
    "Reply",
    "Runner",
    "Screen",
    "Stored",
    "StrReplace",
    "Tree",
    "Unlocked",
    "Usage",
    "View",
    "accounts",
    "check_usage",
    "check_user",
    "failure",
    "format_size",
    "load_generations",
    "number_lines",
    "open_keys",
    "parse_command",
    "parse_path",
    "touch",
    "verify_store",
]
