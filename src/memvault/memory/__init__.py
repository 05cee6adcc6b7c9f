"""The ``memory_20250818`` protocol, independent of any SDK: parsing, the path guard, the six
commands, and the audited transaction each command runs in."""

from ._guard import (
    MAX_DEPTH,
    MAX_NAME_BYTES,
    MAX_PATH_BYTES,
    REFUSED_CATEGORIES,
    MemoryPath,
    parse,
    show,
)
from ._handlers import DEFAULT_MAX_FILE_BYTES, Handlers, format_size, number_lines
from ._parse import COMMANDS, Command, check
from ._screen import Screen
from ._tree import Namespace, Trace

__all__ = [
    "COMMANDS",
    "DEFAULT_MAX_FILE_BYTES",
    "MAX_DEPTH",
    "MAX_NAME_BYTES",
    "MAX_PATH_BYTES",
    "REFUSED_CATEGORIES",
    "Command",
    "Handlers",
    "MemoryPath",
    "Namespace",
    "Screen",
    "Trace",
    "check",
    "format_size",
    "number_lines",
    "parse",
    "show",
]
