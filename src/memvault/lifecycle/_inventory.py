"""The users list (``memvault users list``): each user's memories, counted in one snapshot."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..audit import Event
from ..memory import MAX_DEPTH, Tree, touch
from ._parts import Parts
from ._retention import record_operation

LIST_RECORD = "users.list"


@dataclass(frozen=True, slots=True)
class UserSummary:
    """One user: how many files and directories they have, the bytes of their files, and
    their last activity, the newest last-used day of their files (None: no file has a
    day, because they have no files or every file predates store format 3)."""

    user: str
    memories: int
    directories: int
    bytes: int
    last_activity: int | None  # the day

    def to_json(self) -> dict[str, Any]:
        """As ``memvault users list --json`` prints it; ``last_activity`` as an ISO date."""
        return {
            "user": self.user,
            "memories": self.memories,
            "directories": self.directories,
            "bytes": self.bytes,
            "last_activity": None
            if self.last_activity is None
            else touch.as_date(self.last_activity),
        }


def list_users(parts: Parts) -> list[UserSummary]:
    """Every user of the vault, by name, read in one read transaction (each user's tree
    is opened, and so authenticated, whole). A ``users.list`` record is appended before
    the list is returned: it names users."""
    summaries = []
    with parts.lock, parts.store.transaction(write=False, action="listing the users"):
        for user_id, token, sealed, _ in parts.store.users():
            name = parts.master.open_user_name(sealed, token)
            tree = Tree(parts.store, parts.master, user_id, token)
            tree.join()
            total, entries = tree.listing(MAX_DEPTH + 1)
            days = [day for day in tree.last_used_of(entries).values() if day is not None]
            files = sum(1 for entry in entries if not entry.node.is_dir)
            summaries.append(
                UserSummary(name, files, len(entries) - files, total, max(days, default=None))
            )
    record_operation(parts, Event(LIST_RECORD, details={"users": len(summaries)}))
    return sorted(summaries, key=lambda summary: summary.user)
