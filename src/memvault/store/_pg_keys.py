"""The PostgreSQL store's rows of the key lifecycle: data-key versions, re-sealing, users.

As in the SQLite store, a blob's key version is read from its header (bytes 2-5,
big-endian), so what is left under an old key is found from the ciphertexts themselves.
"""

from __future__ import annotations

from ._errors import blob as _blob
from ._errors import integer as _int
from ._pg_rows import PgRows
from ._protocol import StaleRow, UserWraps

# Of a sealed blob: its key version, comparable as a BYTEA to a 4-byte big-endian number.
_VERSION = "substring({} from 2 for 4)"
_STALE = (
    "(n.key_version < %(version)s OR "
    + _VERSION.format("c.blob")
    + " < %(header)s OR "
    + _VERSION.format("n.touched")
    + " < %(header)s)"
)


def _v(version: int) -> bytes:
    return version.to_bytes(4, "big")


class PgKeyRows(PgRows):
    """Data-key versions, nodes under old versions, users with everything wrapped."""

    def set_primary_version(self, user_id: int, version: int) -> None:
        self._exec("UPDATE users SET primary_version = %s WHERE id = %s", (version, user_id))

    def data_key_versions(self, user_id: int) -> list[tuple[int, int | None]]:
        rows = self._q(
            "SELECT version, created FROM data_keys WHERE user_id = %s ORDER BY version",
            (user_id,),
        )
        return [
            (_int(r[0], "data_keys"), None if r[1] is None else _int(r[1], "data_keys"))
            for r in rows
        ]

    def delete_data_keys_below(self, user_id: int, version: int) -> int:
        return self._exec(
            "DELETE FROM data_keys WHERE user_id = %s AND version < %s", (user_id, version)
        )

    def stale_nodes(self, user_id: int, version: int, after_id: int, limit: int) -> list[StaleRow]:
        """Nodes of the user with any part sealed under a version below ``version``, from
        node ``after_id`` on, in id order."""
        rows = self._q(
            "SELECT n.id, p.fid, n.fid, n.meta, c.blob, n.touched FROM nodes AS n"
            " LEFT JOIN nodes AS p ON p.id = n.parent_id"
            " LEFT JOIN contents AS c ON c.node_id = n.id"
            " WHERE n.user_id = %(user)s AND n.id > %(after)s AND "
            + _STALE
            + " ORDER BY n.id LIMIT %(limit)s",
            {
                "user": user_id,
                "version": version,
                "header": _v(version),
                "after": after_id,
                "limit": limit,
            },
        )
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
        row = self._one(
            "SELECT count(*) FROM nodes AS n LEFT JOIN contents AS c ON c.node_id = n.id"
            " WHERE n.user_id = %(user)s AND " + _STALE,
            {"user": user_id, "version": version, "header": _v(version)},
        )
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
        """A node's look-up token and sealed parts, re-made under data key ``version``."""
        self._exec(
            "UPDATE nodes SET lookup = %s, meta = %s, touched = %s, key_version = %s WHERE id = %s",
            (lookup, meta, touched, version, node_id),
        )
        if content is not None:
            self._exec("UPDATE contents SET blob = %s WHERE node_id = %s", (content, node_id))

    def version_counts(self, user_id: int) -> dict[int, int]:
        """How many of the user's nodes have a part sealed under each data-key version."""
        rows = self._q(
            "SELECT n.key_version, "
            + _VERSION.format("c.blob")
            + ", "
            + _VERSION.format("n.touched")
            + " FROM nodes AS n LEFT JOIN contents AS c ON c.node_id = n.id"
            " WHERE n.user_id = %s",
            (user_id,),
        )
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
            " LEFT JOIN audit_keys AS a ON a.user_id = u.id"
            " WHERE u.id > %s ORDER BY u.id LIMIT %s",
            (after_id, limit),
        )
        out = []
        for r in users:
            user_id = _int(r[0], "users")
            keys = self._q(
                "SELECT version, wrapped FROM data_keys WHERE user_id = %s ORDER BY version",
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
        """Store a user's name and keys as re-wrapped."""
        self._exec("UPDATE users SET name = %s WHERE id = %s", (wraps.name, wraps.id))
        for version, wrapped in wraps.data_keys:
            self._exec(
                "UPDATE data_keys SET wrapped = %s WHERE user_id = %s AND version = %s",
                (wrapped, wraps.id, version),
            )
        if wraps.audit_key is not None:
            self._exec(
                "UPDATE audit_keys SET wrapped = %s WHERE user_id = %s",
                (wraps.audit_key, wraps.id),
            )

    def delete_user(self, user_id: int) -> int:
        """Delete a user with every key, node and content of theirs; returns the nodes."""
        row = self._one("SELECT count(*) FROM nodes WHERE user_id = %s", (user_id,))
        self._exec("DELETE FROM users WHERE id = %s", (user_id,))
        return _int(row[0], "a count")
