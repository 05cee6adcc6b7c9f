"""The strings commands answer with, beyond the per-command ones in the handlers.

Paths in results are the values as the model sent them (after the redaction
screen rendered them). The vault's own failure messages reveal nothing about
the failure: the operator log and the audit record say what happened.
"""

from __future__ import annotations

from ..errors import CommandError
from ..redaction import Redacted
from ._guard import MemoryPath

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


def format_size(size: int) -> str:
    """Human-readable bytes as the reference backend writes them: ``0B``, ``512B``, ``5.5K``."""
    if size == 0:
        return "0B"
    units = ["B", "K", "M", "G"]
    exponent = min((size.bit_length() - 1) // 10, len(units) - 1)
    scaled = size / (1024**exponent)
    return (
        f"{int(scaled)}{units[exponent]}"
        if scaled == int(scaled)
        else f"{scaled:.1f}{units[exponent]}"
    )


def number_lines(lines: list[str], first: int) -> str:
    """Lines as view shows them: the number right-aligned in six columns, a tab, the line."""
    return "\n".join(f"{n:>6}\t{line}" for n, line in enumerate(lines, start=first))


def missing(path: MemoryPath) -> CommandError:
    """insert, delete, rename: the path does not exist (without the documents' "Please")."""
    return CommandError(f"Error: The path {path.text} does not exist", kind="not_found")


def missing_please(path: MemoryPath) -> CommandError:
    """str_replace: the path does not exist, or is a directory."""
    return CommandError(
        f"Error: The path {path.text} does not exist. Please provide a valid path.",
        kind="not_found",
    )


def with_note(result: str, stored: Redacted) -> str:
    """A result, followed by what the filter did (kinds and counts only), if anything."""
    note = stored.note()
    return f"{result}\n\n{note}" if note else result
