"""Both stores' rows of users and their keys: data-key versions, re-sealing, re-wrapping.

A blob's key version is read from its header (bytes 2-5, big-endian), so what is
left under an old key is found from the ciphertexts themselves, not from
bookkeeping that could disagree with them.
"""

from __future__ import annotations

from ._errors import blob as _blob
from ._errors import integer as _int
from ._protocol import StaleRow, UserWraps
from ._rows import Rows

# Of a sealed blob: its key version, comparable as a blob (BYTEA) to a 4-byte big-endian
# number.
_VERSION = "substr({}, 2, 4)"
_STALE = (
    f"(n.key_version < ?2 OR {_VERSION.format('c.blob')} < ?3"
    f" OR {_VERSION.format('n.touched')} < ?3)"
)
# Nodes with a part sealed under an old version: ?1 the user, ?2 the version, ?3 the
# version as a blob's header has it, ?4 the node after which to start, ?5 how many.
_STALE_NODES = (
    "SELECT n.id, p.fid, n.fid, n.meta, c.blob, n.touched FROM nodes AS n"
    " LEFT JOIN nodes AS p ON p.id = n.parent_id"
    " LEFT JOIN contents AS c ON c.node_id = n.id"
    f" WHERE n.user_id = ?1 AND n.id > ?4 AND {_STALE} ORDER BY n.id LIMIT ?5"
)
_COUNT_STALE = (
    "SELECT count(*) FROM nodes AS n LEFT JOIN contents AS c ON c.node_id = n.id"
    f" WHERE n.user_id = ?1 AND {_STALE}"
)
_VERSIONS = (
    f"SELECT n.key_version, {_VERSION.format('c.blob')}, {_VERSION.format('n.touched')}"
    " FROM nodes AS n LEFT JOIN contents AS c ON c.node_id = n.id WHERE n.user_id = ?"
)


def _v(version: int) -> bytes:
    return version.to_bytes(4, "big")


class KeyRows(Rows):
    """Users, data-key versions, nodes under old versions, users with everything wrapped."""

    def user_by_lookup(self, lookup: bytes) -> tuple[int, int] | None:
        row = self._one("SELECT id, primary_version FROM users WHERE lookup = ?", (lookup,))
        return None if row is None else (_int(row[0], "users"), _int(row[1], "users"))

    def user_census(self, lookup: bytes) -> tuple[int, bool]:
        """(how many users, whether one has this token), read from the table's own rows,
        not through an index a damaged page could have emptied."""
        row = self._one(self._USER_CENSUS, (lookup,))
        return _int(row[0], "a count"), bool(row[1])

    def user_primary_version(self, user_id: int) -> int | None:
        row = self._one("SELECT primary_version FROM users WHERE id = ?", (user_id,))
        return None if row is None else _int(row[0], "users.primary_version")

    def insert_user(self, lookup: bytes, name: bytes, primary_version: int) -> int:
        return self._insert(
            "INSERT INTO users (lookup, name, primary_version) VALUES (?, ?, ?)",
            (lookup, name, primary_version),
        )

    def data_keys(self, user_id: int) -> list[tuple[int, bytes]]:
        rows = self._q(
            "SELECT version, wrapped FROM data_keys WHERE user_id = ? ORDER BY version", (user_id,)
        )
        return [(_int(r[0], "data_keys"), _blob(r[1], "data_keys")) for r in rows]

    def insert_data_key(self, user_id: int, version: int, wrapped: bytes) -> None:
        self._exec(self._INSERT_DATA_KEY, (user_id, version, wrapped))

    def set_primary_version(self, user_id: int, version: int) -> None:
        self._exec("UPDATE users SET primary_version = ? WHERE id = ?", (version, user_id))

    def data_key_versions(self, user_id: int) -> list[tuple[int, int | None]]:
        rows = self._q(
            "SELECT version, created FROM data_keys WHERE user_id = ? ORDER BY version", (user_id,)
        )
        return [
            (_int(r[0], "data_keys"), None if r[1] is None else _int(r[1], "data_keys"))
            for r in rows
        ]

    def delete_data_keys_below(self, user_id: int, version: int) -> int:
        deleted = self._exec(
            "DELETE FROM data_keys WHERE user_id = ? AND version < ?", (user_id, version)
        )
        self._deleted_rows()
        return deleted

    def stale_nodes(self, user_id: int, version: int, after_id: int, limit: int) -> list[StaleRow]:
        """Nodes of the user with any part sealed under a version below ``version``, from
        node ``after_id`` on, in id order."""
        rows = self._q(_STALE_NODES, (user_id, version, _v(version), after_id, limit))
        return [
            StaleRow(
                _int(r[0], "nodes"),
                None if r[1] is None else _blob(r[1], "nodes"),
                _blob(r[2], "nodes"),
                _blob(r[3], "nodes"),
                None if r[4] is None else _blob(r[4], "contents"),
                None if r[5] is None else _blob(r[5], "nodes.touched"),
            )
            for r in rows
        ]

    def count_stale(self, user_id: int, version: int) -> int:
        row = self._one(_COUNT_STALE, (user_id, version, _v(version)))
        return _int(row[0], "a count")

    def reseal_node(
        self,
        node_id: int,
        lookup: bytes,
        meta: bytes,
        content: bytes | None,
        touched: bytes | None,
        version: int,
    ) -> None:
        """A node's look-up token and sealed parts, re-made under data key ``version``
        (SQLite overwrites the old ciphertexts: secure_delete)."""
        self._exec(
            "UPDATE nodes SET lookup = ?, meta = ?, touched = ?, key_version = ? WHERE id = ?",
            (lookup, meta, touched, version, node_id),
        )
        if content is not None:
            self._exec("UPDATE contents SET blob = ? WHERE node_id = ?", (content, node_id))

    def version_counts(self, user_id: int) -> dict[int, int]:
        """How many of the user's nodes have a part sealed under each data-key version."""
        rows = self._q(_VERSIONS, (user_id,))
        counts: dict[int, int] = {}
        for row in rows:
            versions = {_int(row[0], "nodes")}
            versions.update(int.from_bytes(v, "big") for v in row[1:] if isinstance(v, bytes))
            for version in versions:
                counts[version] = counts.get(version, 0) + 1
        return counts

    def users(self) -> list[tuple[int, bytes, bytes, int]]:
        """(id, look-up token, sealed name, primary version) of every user, by id."""
        rows = self._q("SELECT id, lookup, name, primary_version FROM users ORDER BY id")
        return [
            (_int(r[0], "users"), _blob(r[1], "users"), _blob(r[2], "users"), _int(r[3], "users"))
            for r in rows
        ]

    def user_wraps(self, after_id: int, limit: int) -> list[UserWraps]:
        """Users from ``after_id`` on with their sealed name and every wrapped key."""
        users = self._q(
            "SELECT u.id, u.lookup, u.name, a.wrapped FROM users AS u"
            " LEFT JOIN audit_keys AS a ON a.user_id = u.id WHERE u.id > ? ORDER BY u.id LIMIT ?",
            (after_id, limit),
        )
        out = []
        for r in users:
            user_id = _int(r[0], "users")
            keys = self._q(
                "SELECT version, wrapped FROM data_keys WHERE user_id = ? ORDER BY version",
                (user_id,),
            )
            out.append(
                UserWraps(
                    user_id,
                    _blob(r[1], "users"),
                    _blob(r[2], "users"),
                    [(_int(k[0], "data_keys"), _blob(k[1], "data_keys")) for k in keys],
                    None if r[3] is None else _blob(r[3], "audit_keys"),
                )
            )
        return out

    def rewrap_user(self, wraps: UserWraps) -> None:
        """Store a user's name and keys as re-wrapped (old wraps overwritten)."""
        self._exec("UPDATE users SET name = ? WHERE id = ?", (wraps.name, wraps.id))
        for version, wrapped in wraps.data_keys:
            self._exec(
                "UPDATE data_keys SET wrapped = ? WHERE user_id = ? AND version = ?",
                (wrapped, wraps.id, version),
            )
        if wraps.audit_key is not None:
            self._exec(
                "UPDATE audit_keys SET wrapped = ? WHERE user_id = ?", (wraps.audit_key, wraps.id)
            )

    def delete_user(self, user_id: int) -> int:
        """Delete a user with every key, node and content of theirs; returns the nodes."""
        row = self._one("SELECT count(*) FROM nodes WHERE user_id = ?", (user_id,))
        self._exec("DELETE FROM users WHERE id = ?", (user_id,))
        self._deleted_rows()
        return _int(row[0], "a count")
