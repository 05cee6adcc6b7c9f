"""Both stores' rows of retention: each memory's sealed last-used day.

A day is sealed by the layer above (``memory``), bound to its user and its node: the
store sees a blob of fixed length, not the day.
"""

from __future__ import annotations

from ._errors import blob as _blob
from ._errors import integer as _int
from ._rows import Rows


class RetentionRows(Rows):
    """``nodes.touched``, and whether a node has children."""

    def touched(self, user_id: int, node_id: int) -> tuple[bytes, bytes | None] | None:
        row = self._one(
            "SELECT fid, touched FROM nodes WHERE user_id = ? AND id = ?", (user_id, node_id)
        )
        if row is None:
            return None
        return _blob(row[0], "nodes"), None if row[1] is None else _blob(row[1], "nodes.touched")

    def set_touched(self, node_id: int, touched: bytes) -> None:
        self._exec("UPDATE nodes SET touched = ? WHERE id = ?", (touched, node_id))

    def touched_days(self, user_id: int) -> dict[int, bytes | None]:
        rows = self._q("SELECT id, touched FROM nodes WHERE user_id = ?", (user_id,))
        return {
            _int(r[0], "nodes"): None if r[1] is None else _blob(r[1], "nodes.touched")
            for r in rows
        }

    def has_children(self, user_id: int, node_id: int) -> bool:
        return bool(
            self._q(
                "SELECT 1 FROM nodes WHERE user_id = ? AND parent_id = ? LIMIT 1",
                (user_id, node_id),
            )
        )
