"""Both stores' rows of each user's tree: nodes and the contents of files."""

from __future__ import annotations

from ..errors import IntegrityError
from ._errors import DAMAGED_HINT as _DAMAGED_HINT
from ._errors import blob as _blob
from ._errors import integer as _int
from ._protocol import NodeRow, SubtreeRow
from ._rows import MAX_DEPTH as _MAX_DEPTH
from ._rows import Rows

# A node and everything below it, as ``sub(id, depth)``: ?1 the user, ?2 the node, ?3 the
# deepest level followed.
_SUB = (
    "sub(id, depth) AS ("
    "  SELECT id, 0 FROM nodes WHERE user_id = ?1 AND id = ?2"
    "  UNION ALL"
    "  SELECT n.id, sub.depth + 1 FROM nodes AS n JOIN sub ON n.parent_id = sub.id"
    "  WHERE n.user_id = ?1 AND sub.depth < ?3"
    ")"
)
# Every node below ?2, parents before children; ids order a level, the same on both stores.
_SUBTREE = (
    "WITH RECURSIVE sub(id, parent_id, fid, meta, depth) AS ("
    "  SELECT id, parent_id, fid, meta, 1 FROM nodes WHERE user_id = ?1 AND parent_id = ?2"
    "  UNION ALL"
    "  SELECT n.id, n.parent_id, n.fid, n.meta, sub.depth + 1"
    "  FROM nodes AS n JOIN sub ON n.parent_id = sub.id"
    "  WHERE n.user_id = ?1 AND sub.depth < ?3"
    ") SELECT id, parent_id, fid, meta, depth FROM sub ORDER BY depth, id"
)
_COUNT_FILES = (
    f"WITH RECURSIVE {_SUB} SELECT count(*) FROM contents WHERE node_id IN (SELECT id FROM sub)"
)
_DELETE_SUBTREE = f"WITH RECURSIVE {_SUB} DELETE FROM nodes WHERE id IN (SELECT id FROM sub)"


class TreeRows(Rows):
    """Nodes and contents (every blob sealed, or a keyed look-up token)."""

    def child(self, user_id: int, parent_id: int, lookup: bytes) -> NodeRow | None:
        row = self._one(
            "SELECT id, parent_id, fid, meta FROM nodes"
            " WHERE user_id = ? AND parent_id = ? AND lookup = ?",
            (user_id, parent_id, lookup),
        )
        if row is None:
            return None
        return NodeRow(
            _int(row[0], "nodes"),
            _int(row[1], "nodes"),
            _blob(row[2], "nodes"),
            _blob(row[3], "nodes"),
        )

    def subtree(self, user_id: int, node_id: int, max_depth: int = _MAX_DEPTH) -> list[SubtreeRow]:
        """Every node below ``node_id``, parents before children, with its depth (1 = child)."""
        rows = self._q(_SUBTREE, (user_id, node_id, max_depth))
        return [
            SubtreeRow(
                _int(r[0], "nodes"),
                _int(r[1], "nodes"),
                _blob(r[2], "nodes"),
                _blob(r[3], "nodes"),
                _int(r[4], "nodes"),
            )
            for r in rows
        ]

    def user_state(self, user_id: int) -> tuple[int, bytes | None] | None:
        row = self._one("SELECT primary_version, root FROM users WHERE id = ?", (user_id,))
        if row is None:
            return None
        root = None if row[1] is None else _blob(row[1], "users.root")
        return _int(row[0], "users.primary_version"), root

    def set_root_tally(self, user_id: int, blob: bytes) -> None:
        self._exec("UPDATE users SET root = ? WHERE id = ?", (blob, user_id))

    def insert_node(
        self,
        user_id: int,
        parent_id: int,
        lookup: bytes,
        fid: bytes,
        meta: bytes,
        version: int,
        touched: bytes | None = None,
    ) -> int:
        return self._insert(
            "INSERT INTO nodes (user_id, parent_id, lookup, fid, meta, key_version, touched)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (user_id, parent_id, lookup, fid, meta, version, touched),
        )

    def update_node(
        self,
        node_id: int,
        parent_id: int,
        lookup: bytes,
        meta: bytes,
        version: int,
        touched: bytes | None = None,
    ) -> None:
        if touched is None:
            self._exec(
                "UPDATE nodes SET parent_id = ?, lookup = ?, meta = ?, key_version = ?"
                " WHERE id = ?",
                (parent_id, lookup, meta, version, node_id),
            )
        else:
            self._exec(
                "UPDATE nodes SET parent_id = ?, lookup = ?, meta = ?, key_version = ?,"
                " touched = ? WHERE id = ?",
                (parent_id, lookup, meta, version, touched, node_id),
            )

    def update_meta(self, node_id: int, meta: bytes, version: int) -> None:
        """New sealed metadata for a node that stays where it is (no index changes)."""
        self._exec(
            "UPDATE nodes SET meta = ?, key_version = ? WHERE id = ?", (meta, version, node_id)
        )

    def content(self, node_id: int) -> bytes | None:
        row = self._one("SELECT blob FROM contents WHERE node_id = ?", (node_id,))
        return None if row is None else _blob(row[0], "contents.blob")

    def insert_content(self, node_id: int, blob: bytes) -> None:
        self._exec("INSERT INTO contents (node_id, blob) VALUES (?, ?)", (node_id, blob))

    def replace_content(self, node_id: int, blob: bytes) -> None:
        """Overwrite a file's sealed text in place (SQLite's secure_delete clears the old
        bytes; PostgreSQL keeps them in a dead tuple until ``purge_wal``'s VACUUM)."""
        if self._exec("UPDATE contents SET blob = ? WHERE node_id = ?", (blob, node_id)) != 1:
            raise IntegrityError(
                f"the vault database has no text for file node {node_id} (its contents row "
                "was deleted outside memvault)",
                hint=_DAMAGED_HINT,
            )

    def delete_node(self, user_id: int, node_id: int) -> int:
        """Delete a node that has nothing below it (a file: its contents go with it)."""
        deleted = self._exec("DELETE FROM nodes WHERE id = ? AND user_id = ?", (node_id, user_id))
        self._deleted_rows()
        return deleted

    def delete_subtree(self, user_id: int, node_id: int) -> tuple[int, int]:
        """Delete a node and everything below it (contents go with their nodes)."""
        args = (user_id, node_id, _MAX_DEPTH)
        files = _int(self._one(_COUNT_FILES, args)[0], "a count")
        nodes = self._exec_with(_DELETE_SUBTREE, args)
        self._deleted_rows()
        return nodes, files
