"""The policy's limits on what one user's memory holds, checked before a write stores
anything: the files it may hold, and their bytes together (``[limits]``).

Only growth is refused: a write that frees bytes, and any delete or rename, always
runs, so a user over a limit a policy lowered can always get back under it. The
totals come from the root tally (:meth:`~memvault.memory.Tree.usage`), so checking
costs no walk. The largest single memory is checked with the screened text
(:meth:`~memvault.memory.Handlers.screened`).
"""

from __future__ import annotations

from ..errors import CommandError
from ..redaction import Limits
from ._guard import MemoryPath
from ._tree import Tree


def check_room(
    tree: Tree, limits: Limits, path: MemoryPath, verb: str, added_bytes: int, added_files: int
) -> None:
    """Refuse a write that would take the user's memories past a limit. ``verb`` names
    the write in the message (``create``, ``edit``)."""
    if added_bytes > 0 or added_files > 0:
        check_usage(limits, path, verb, tree.usage(), added_bytes, added_files)


def check_usage(
    limits: Limits,
    path: MemoryPath,
    verb: str,
    usage: tuple[int, int],
    added_bytes: int,
    added_files: int,
) -> None:
    """:func:`check_room` against ``usage``, the (bytes, files) a user holds (a dry run's
    own count of what it would have stored)."""
    used, files = usage
    if added_files > 0 and files + added_files > limits.max_memories:
        raise CommandError(
            f"Error: Cannot {verb} {path.text}: /memories holds {files:,} files and may hold at "
            f"most {limits.max_memories:,}. Delete files that are no longer needed, or add "
            "this to an existing file.",
            kind="quota_files",
        )
    if added_bytes > 0 and used + added_bytes > limits.max_user_bytes:
        raise CommandError(
            f"Error: Cannot {verb} {path.text}: /memories would hold {used + added_bytes:,} "
            f"bytes, over its limit of {limits.max_user_bytes:,} bytes. Shorten the text, or "
            "delete files that are no longer needed.",
            kind="quota_bytes",
        )
