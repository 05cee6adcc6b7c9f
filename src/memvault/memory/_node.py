"""A node of a user's tree as the memory layer sees it, and how damage to one is named."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import IntegrityError

ROOT_FID = b"/memories"

TAMPERED = "stored data failed its integrity check (modified, moved or corrupted)"


def tampered(node_id: int, what: str) -> IntegrityError:
    """The integrity error for one node, naming its row and what failed (for the operator:
    the model is shown a fixed message)."""
    return IntegrityError(f"{TAMPERED}: node {node_id}, {what}")


@dataclass(frozen=True, slots=True)
class Node:
    """A directory or file, with its metadata opened.

    A directory's ``size`` is the bytes of every file below it and ``children`` the
    entries directly in it (its tally, ``_tally.py``); both are 0 and None for a
    directory written before tallies were kept."""

    id: int
    fid: bytes
    name: str
    is_dir: bool
    size: int
    cid: bytes
    written: int | None = None  # the audit record that last wrote it (None: format 1)
    children: int | None = None

    def with_tally(self, size: int, children: int) -> Node:
        """This directory with another tally (``dataclasses.replace`` costs several times
        more, on every write)."""
        return Node(self.id, self.fid, self.name, True, size, self.cid, self.written, children)


ROOT = Node(id=0, fid=ROOT_FID, name="", is_dir=True, size=0, cid=b"")
