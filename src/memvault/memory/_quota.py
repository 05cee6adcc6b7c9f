"""The policy's limits on what one user's memory holds, checked before a write stores
anything: the files and directories it may hold, and their bytes together (``[limits]``).

Only growth is refused: a write that frees bytes, and any delete or rename into
directories that exist, always runs, so a user over a limit a policy lowered can
always get back under it. The totals come from the root tally
(:meth:`~memvault.memory.Tree.usage`), so checking costs no walk. The largest single
memory is checked with the screened text (:meth:`~memvault.memory.Handlers.screened`).
"""

from __future__ import annotations

from ..errors import CommandError
from ..redaction import Limits
from ._guard import MemoryPath
from ._tally import Usage
from ._tree import Tree


def check_room(
    tree: Tree,
    limits: Limits,
    path: MemoryPath,
    verb: str,
    added_bytes: int,
    added_files: int,
    added_directories: int = 0,
) -> None:
    """Refuse a write that would take the user's memories past a limit. ``verb`` names
    the write in the message (``create``, ``edit``, ``rename``)."""
    if added_bytes > 0 or added_files > 0 or added_directories > 0:
        usage = tree.usage()
        check_usage(limits, path, verb, usage, added_bytes, added_files, added_directories)


def check_usage(
    limits: Limits,
    path: MemoryPath,
    verb: str,
    usage: Usage,
    added_bytes: int,
    added_files: int,
    added_directories: int = 0,
) -> None:
    """:func:`check_room` against ``usage`` (a dry run's own count of what it would have
    stored)."""
    if added_files > 0 and usage.files + added_files > limits.max_memories:
        raise CommandError(
            f"Error: Cannot {verb} {path.text}: /memories holds {_count(usage.files, 'file')} "
            f"and may hold at most {limits.max_memories:,}. Delete files that are no longer "
            "needed, or add this to an existing file.",
            kind="quota_files",
        )
    if added_directories > 0 and usage.directories + added_directories > limits.max_directories:
        raise CommandError(
            f"Error: Cannot {verb} {path.text}: /memories holds "
            f"{_count(usage.directories, 'directory', 'directories')} and may hold at most "
            f"{limits.max_directories:,}. Use a directory that exists, or delete directories "
            "that are no longer needed.",
            kind="quota_directories",
        )
    if added_bytes > 0 and usage.bytes + added_bytes > limits.max_user_bytes:
        raise CommandError(
            f"Error: Cannot {verb} {path.text}: /memories would hold "
            f"{usage.bytes + added_bytes:,} bytes, over its limit of {limits.max_user_bytes:,} "
            "bytes. Shorten the text, or delete files that are no longer needed.",
            kind="quota_bytes",
        )


def _count(n: int, one: str, many: str | None = None) -> str:
    return f"{n:,} {one if n == 1 else many or one + 's'}"
