"""``[limits]``: how much one user's memory may hold, and how much one ``view`` returns.

The limits live in the policy file beside the redaction rules because they are the
same kind of decision, taken by the same people: what a deployment lets a model keep.
Each has a default a heavy real user does not reach by accident; a policy may lower
or raise any of them. The memory layer applies them (``memory/_handlers.py``).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from ._policy_schema import Checker

MIB = 1 << 20


@dataclass(frozen=True, slots=True)
class Limits:
    """What one user's memories may hold, and what one read returns."""

    max_memory_bytes: int = MIB  # one file, UTF-8 text as stored (after redaction)
    max_user_bytes: int = 100 * MIB  # every file of one user together
    max_memories: int = 10_000  # files of one user
    max_view_chars: int = 100_000  # characters one `view` returns; past it, a page and a hint
    max_directories: int = 10_000  # directories of one user

    def with_memory_bytes(self, largest: int | None) -> Limits:
        """These limits with another largest memory (``Vault.open(max_file_bytes=...)``),
        the user's bytes raised to it if they were fewer; these if ``largest`` is None."""
        if largest is None:
            return self
        return dataclasses.replace(
            self, max_memory_bytes=largest, max_user_bytes=max(self.max_user_bytes, largest)
        )


# name: (smallest, largest, what the number counts). A smallest view cap leaves room for
# the header with the longest path the guard allows and the paging line.
BOUNDS = {
    "max_memory_bytes": (1, 256 * MIB, "bytes"),
    "max_user_bytes": (1, 1 << 50, "bytes"),
    "max_memories": (1, 1 << 40, "files"),
    "max_directories": (1, 1 << 40, "directories"),
    "max_view_chars": (4_000, 1 << 40, "characters"),
}


def limits(check: Checker, data: dict[str, Any]) -> Limits:
    """The ``[limits]`` table, checked key by key; the defaults where it says nothing."""
    table = data.get("limits", {})
    known = ", ".join(repr(name) for name in BOUNDS)
    for key in table:
        if key not in BOUNDS:
            raise check.fail(
                check.line(key, "limits"), f"unknown setting {key!r} in [limits] (use {known})"
            )
    chosen: dict[str, int] = {}
    for key, value in table.items():
        low, high, unit = BOUNDS[key]
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise check.fail(
                check.line(key, "limits"),
                f"{key!r} must be a whole number of {unit} from {low:,} to {high:,} "
                "(no quotes, no unit; underscores may group digits: 100_000)",
            )
        chosen[key] = value
    found = Limits(**chosen)
    if found.max_memory_bytes > found.max_user_bytes:
        at = "max_memory_bytes" if "max_memory_bytes" in table else "max_user_bytes"
        raise check.fail(
            check.line(at, "limits"),
            f"'max_memory_bytes' ({found.max_memory_bytes:,}) is larger than 'max_user_bytes' "
            f"({found.max_user_bytes:,}): one memory can never be larger than all of them",
        )
    return found
