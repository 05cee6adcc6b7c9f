"""What each directory holds, kept current on every write, and the walks that read it.

A directory's sealed metadata carries its **tally**: how many entries sit directly
in it, and the bytes of every file below it at any depth (the size ``view``
shows). ``/memories`` itself has no node: its tally is sealed in the user's row
(``users.root``) under the data key, bound to the user
(``context("root-tally", user token)``), and counts the user's files and directories
too, so the policy's limits on a user's bytes, files and directories cost nothing to
check (:meth:`Tallies.usage`).

* **Writes** add their change along the chain of directories above what they
  changed, one re-seal per directory, in the command's transaction. The tally is
  not a change of the directory: its write stamp stays.
* **A listing** (:meth:`Tallies.two_levels`) reads two levels, not the subtree,
  and compares each directory it lists the entries of with its tally: rows
  removed, hidden by a damaged index, or added outside memvault are refused, never
  listed short.
* **A full walk** (:meth:`Tallies.tree`) compares every tally below it with what
  it counted.
* **Older vaults**: a directory written before tallies were kept, or a user with no
  root tally, is counted from its subtree the first time a write passes through it,
  and listed by a full walk until then; a root tally without the counts of files and
  directories (as stores of format 4 first kept it) gets them the same way.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import NamedTuple

from .. import _crypto
from ..errors import IntegrityError
from ..keys import Keyring, UserKey, labels
from ..store import Store
from ._guard import MAX_DEPTH
from ._node import ROOT, Node, tampered

# Entries directly in /memories; bytes, files and directories below it. The first root
# tallies of format 4 held the first two only, or three: their counts are made again.
_TALLY = struct.Struct(">QQQQ")
_TALLY_FIRST = struct.Struct(">QQ")


class Usage(NamedTuple):
    """What all of one user's memories take: bytes of text, files, directories."""

    bytes: int
    files: int
    directories: int


Counts = tuple[int, int]  # (files, directories) below /memories


@dataclass(frozen=True, slots=True)
class Entry:
    """A node found by a walk: its path below the listed directory."""

    parts: tuple[str, ...]
    node: Node
    total_size: int  # bytes of the file, or of every file below the directory


Chain = list[Node]
"""The directories from ``/memories`` (first) down to one, each inside the one before."""


class Tallies:
    """Mixed into :class:`~memvault.memory.Tree`."""

    _store: Store
    _user_id: int
    _token: bytes
    _keyring: Keyring | None
    _fresh: dict[int, Node]  # directories re-tallied in this transaction, by id
    _fresh_counts: Counts  # the files and directories below /memories, when _fresh holds it
    _root_blob: bytes | None  # the sealed tally of /memories, as the transaction found it

    # -- what Tree provides ----------------------------------------------------------------

    @property
    def _key(self) -> UserKey:
        raise NotImplementedError

    def _open_meta(self, node_id: int, parent_fid: bytes, fid: bytes, blob: bytes) -> Node:
        raise NotImplementedError

    def _seal_node(self, parent_fid: bytes, node: Node, stamp: int) -> bytes:
        raise NotImplementedError

    # -- /memories -------------------------------------------------------------------------

    def root(self) -> Node:
        """``/memories`` with its tally (``children`` None: none kept yet)."""
        return self._root_tally()[0]

    def _root_tally(self) -> tuple[Node, Counts | None]:
        """``/memories`` with its tally, and the files and directories below it (None: not
        counted yet)."""
        fresh = self._fresh.get(ROOT.id)
        if fresh is not None:
            return fresh, self._fresh_counts
        blob = self._root_blob
        if blob is None:
            return ROOT, None
        assert self._keyring is not None
        try:
            plain = _crypto.open_blob(blob, self._root_ctx(), self._keyring.sealer_for)
            counts: Counts | None = None
            if len(plain) == _TALLY.size:
                children, size, files, directories = _TALLY.unpack(plain)
                counts = (files, directories)
            else:
                children, size = _TALLY_FIRST.unpack_from(plain)
        except (IntegrityError, struct.error):
            raise tampered(ROOT.id, "the tally of /memories does not open") from None
        root = ROOT.with_tally(size, children)
        if counts is not None:  # opened once a transaction: kept as this one sees it
            self._fresh[ROOT.id], self._fresh_counts = root, counts
        return root, counts

    def usage(self) -> Usage:
        """What all the user's memories take, as this transaction sees them: from the root
        tally, or counted from the rows where it does not say."""
        root, counts = self._root_tally()
        if root.children is None or counts is None:
            total, _, counted = self._count_all()
            return Usage(total, *counted)
        return Usage(root.size, *counts)

    def _count_all(self) -> tuple[int, int, Counts]:
        """(bytes below /memories, entries directly in it, (files, directories) below it),
        counted from the rows."""
        total, entries = self.tree(ROOT, depth=MAX_DEPTH)
        inside = sum(1 for entry in entries if len(entry.parts) == 1)
        directories = sum(1 for entry in entries if entry.node.is_dir)
        return total, inside, (len(entries) - directories, directories)

    def count_root(self) -> None:
        """Inside a write transaction: give ``/memories`` a tally with its counts, from its
        rows, if it has none (a user of an older vault); once, then every write keeps it."""
        if self._root_tally()[1] is None:
            self._save_root(*self._added_root(0, 0, (0, 0)))

    def _root_ctx(self) -> bytes:
        return _crypto.context(labels.AAD_ROOT_TALLY, self._token)

    def _save_root(self, root: Node, counts: Counts) -> None:
        assert root.children is not None
        plain = _TALLY.pack(root.children, root.size, *counts)
        self._store.set_root_tally(self._user_id, self._key.sealer.seal(plain, self._root_ctx()))
        self._fresh[ROOT.id], self._fresh_counts = root, counts

    def reseal_root(self) -> None:
        """Seal the tally of ``/memories`` under the primary key (a key rotation's last
        step, before the older keys go). Inside a write transaction."""
        root, counts = self._root_tally()
        if root.children is not None:
            if counts is None:
                usage = self.usage()
                counts = (usage.files, usage.directories)
            self._save_root(root, counts)

    # -- keeping tallies current -----------------------------------------------------------

    def _retally(
        self, *changes: tuple[Chain, int, int], files: int = 0, directories: int = 0
    ) -> None:
        """Add changes to the tallies of directories: each is (a chain, bytes added below
        its last directory, entries added directly in it); ``files`` and ``directories``
        were added to the user's. After the rows changed, in the same write transaction;
        each directory is re-sealed once, deepest first (a directory counted from its
        subtree finds the tallies below it current)."""
        delta: dict[int, list[int]] = {}
        place: dict[int, tuple[int, Node]] = {}  # id: (depth, parent)
        for chain, size, entries in changes:
            for depth, node in enumerate(chain):
                delta.setdefault(node.id, [0, 0])[0] += size
                place[node.id] = (depth, chain[depth - 1] if depth else ROOT)
                if node.id != ROOT.id:
                    self._fresh.setdefault(node.id, node)
            delta[chain[-1].id][1] += entries
        for node_id in sorted(delta, key=lambda n: -place[n][0]):
            size, entries = delta[node_id]
            if node_id == ROOT.id:
                if size or entries or files or directories:
                    self._save_root(*self._added_root(size, entries, (files, directories)))
                continue
            if not size and not entries:
                continue
            node = self._added(self._fresh[node_id], size, entries)
            parent = place[node_id][1]
            meta = self._seal_node(parent.fid, node, node.written or 0)
            if self._keyring is not None and self._keyring.older():
                # A key rotation is under way: the row's look-up token may be an older
                # key's. A row's key version names the key of its metadata and of its
                # token alike, so the token is re-made too (else the rotation passes the
                # row by, and the directory is not found once the older key is gone).
                lookup = _crypto.mac(self._key.index, _crypto.context(parent.fid, node.name))
                self._store.update_node(node_id, parent.id, lookup, meta, self._key.version)
            else:
                self._store.update_meta(node_id, meta, self._key.version)
            self._fresh[node_id] = node

    def _added(self, directory: Node, size: int, entries: int) -> Node:
        """``directory`` with a change added to its tally; counted from its rows (which the
        change already reached) if it has none yet."""
        if directory.children is None:
            return self._counted(directory)
        return directory.with_tally(directory.size + size, directory.children + entries)

    def _added_root(self, size: int, entries: int, added: Counts) -> tuple[Node, Counts]:
        """``/memories`` and its counts with a change added; counted from the rows (which
        the change already reached) where the tally does not say."""
        root, counts = self._root_tally()
        if root.children is None or counts is None:
            total, inside, counted = self._count_all()
            return ROOT.with_tally(total, inside), counted
        moved = root.with_tally(root.size + size, root.children + entries)
        return moved, (counts[0] + added[0], counts[1] + added[1])

    def _counted(self, directory: Node) -> Node:
        """A directory with the tally its rows give now (one kept before tallies were)."""
        total, entries = self.tree(directory, depth=1)
        return directory.with_tally(total, len(entries))

    def tallied(self, directory: Node) -> Node:
        """``directory`` as this transaction left it, counted if it has no tally yet."""
        node = self._fresh.get(directory.id, directory)
        return node if node.children is not None else self._counted(node)

    # -- walks -----------------------------------------------------------------------------

    def two_levels(self, directory: Node) -> tuple[int, list[Entry]]:
        """What ``view`` lists of ``directory``: its total and its entries two levels
        deep, in pre-order, by name. Reads two levels where tallies are kept; each
        directory whose entries it lists must hold as many as its tally records."""
        top = self.root() if directory.id == ROOT.id else directory
        if top.children is None:
            return self.tree(directory, depth=2)
        rows = self._store.subtree(self._user_id, directory.id, 2)
        nodes: dict[int, Node] = {directory.id: top}
        children: dict[int, list[Node]] = {directory.id: []}
        for row in rows:  # parents come before their children
            parent = nodes.get(row.parent_id)
            if parent is None or not parent.is_dir:
                raise tampered(row.id, "its parent is not a directory of this user")
            node = self._open_meta(row.id, parent.fid, row.fid, row.meta)
            if node.is_dir and node.children is None:
                return self.tree(directory, depth=2)
            nodes[row.id] = node
            children.setdefault(row.parent_id, []).append(node)
            if node.is_dir and row.depth == 1:
                children[row.id] = []
        for node_id, kids in children.items():
            _check_count(nodes[node_id], len(kids))
        entries: list[Entry] = []
        for kid in sorted(children[directory.id], key=_name):
            entries.append(Entry((kid.name,), kid, kid.size))
            for grandchild in sorted(children.get(kid.id, ()), key=_name):
                entries.append(Entry((kid.name, grandchild.name), grandchild, grandchild.size))
        return top.size, entries

    def tree(
        self, directory: Node, depth: int, miscounted: list[str] | None = None
    ) -> tuple[int, list[Entry]]:
        """Everything below ``directory`` down to ``depth`` levels, in pre-order.

        The whole subtree is opened (and so authenticated), not just what is
        listed, and every tally in it is compared with what it counts: a wrong one
        is refused, or added to ``miscounted`` if that is given (``audit verify``
        names what changed the rows). Sizes of directories are the sum of all files
        below them. Returns the directory's own total too."""
        rows = self._store.subtree(self._user_id, directory.id)
        nodes: dict[int, Node] = {directory.id: directory}
        children: dict[int, list[int]] = {}
        for row in rows:  # parents come before their children
            parent = nodes.get(row.parent_id)
            if parent is None or not parent.is_dir:
                raise tampered(row.id, "its parent is not a directory of this user")
            nodes[row.id] = self._open_meta(row.id, parent.fid, row.fid, row.meta)
            children.setdefault(row.parent_id, []).append(row.id)
        totals: dict[int, int] = {}
        for row in reversed(rows):
            node = nodes[row.id]
            own = totals.get(row.id, 0) if node.is_dir else node.size
            totals[row.id] = own
            totals[row.parent_id] = totals.get(row.parent_id, 0) + own
        for node_id, node in nodes.items():
            if node.is_dir and node.children is not None:
                try:
                    _check_count(node, len(children.get(node_id, ())))
                    if node.size != totals.get(node_id, 0):
                        raise tampered(node_id, "the bytes below it are not what its tally records")
                except IntegrityError as exc:
                    if miscounted is None:
                        raise
                    miscounted.append(exc.message)

        entries: list[Entry] = []

        def visit(node_id: int, prefix: tuple[str, ...], level: int) -> None:
            kids = sorted((nodes[k] for k in children.get(node_id, ())), key=_name)
            for kid in kids:
                parts = (*prefix, kid.name)
                entries.append(Entry(parts, kid, totals.get(kid.id, 0)))
                if kid.is_dir and level < depth:
                    visit(kid.id, parts, level + 1)

        visit(directory.id, (), 1)
        return totals.get(directory.id, 0), entries

    def listing(self, depth: int, miscounted: list[str] | None = None) -> tuple[int, list[Entry]]:
        """:meth:`tree` of ``/memories`` (its tally compared too, with the files it
        counts): everything of the user down to ``depth`` levels."""
        root, counts = self._root_tally()
        total, entries = self.tree(root, MAX_DEPTH, miscounted)
        directories = sum(1 for entry in entries if entry.node.is_dir)
        found = (len(entries) - directories, directories)
        if counts is not None and counts != found:
            problem = tampered(
                ROOT.id,
                f"it holds {found[0]} files and {found[1]} directories but its tally records "
                f"{counts[0]} and {counts[1]} (rows were removed, hidden or added outside "
                "memvault)",
            )
            if miscounted is None:
                raise problem
            miscounted.append(problem.message)
        return total, [entry for entry in entries if len(entry.parts) <= depth]


def _name(node: Node) -> str:
    return node.name


def _check_count(directory: Node, found: int) -> None:
    if found != directory.children:
        raise tampered(
            directory.id,
            f"it holds {found} entries but its tally records {directory.children} (rows were "
            "removed, hidden or added outside memvault)",
        )
