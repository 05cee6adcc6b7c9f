"""Both stores' rows as they are copied between stores (``memvault migrate``): ciphertexts,
keyed tokens and record lines, byte for byte, with their ids.

Nothing here opens a ciphertext. Ids are kept, so parent links, key ownership and
contents stay as they were (no ciphertext binds a row id; they bind the user's token and
the nodes' random identities). A table is read in batches by its key, and a batch is
written in the caller's transaction.
"""

from __future__ import annotations

from typing import Any

from ._rows import Rows

# Each copied table: its columns, and the column batches follow (a user's keys follow
# the user, a file's contents its node).
COPIED = {
    "users": (("id", "lookup", "name", "primary_version", "root"), "id"),
    "data_keys": (("user_id", "version", "wrapped", "created"), "user_id"),
    "audit_keys": (("user_id", "wrapped"), "user_id"),
    "nodes": (
        ("id", "user_id", "parent_id", "lookup", "fid", "meta", "key_version", "touched"),
        "id",
    ),
    "contents": (("node_id", "blob"), "node_id"),
    "audit_log": (("seq", "line"), "seq"),
}
# The tables that make ids: their next id must follow the copied ones.
WITH_IDS = ("users", "nodes")


class CopyRows(Rows):
    """Reading and writing whole rows of the copied tables."""

    _OVERRIDING = ""  # what an INSERT of explicit ids into an identity column needs

    def copy_rows(self, table: str, after: int, upto: int | None, limit: int) -> list[Any]:
        """Rows of ``table`` whose key is above ``after`` (and at most ``upto``), in key
        order, at most ``limit``."""
        columns, key = COPIED[table]
        bound = "" if upto is None else f" AND {key} <= ?"
        args: tuple[object, ...] = (after,) if upto is None else (after, upto)
        return self._q(
            f"SELECT {', '.join(columns)} FROM {table} WHERE {key} > ?{bound}"
            f" ORDER BY {', '.join(columns[:2]) if table == 'data_keys' else key} LIMIT ?",
            (*args, limit),
        )

    def put_rows(self, table: str, rows: list[Any]) -> None:
        """Insert whole rows of ``table`` (in the caller's transaction)."""
        columns, _ = COPIED[table]
        marks = ", ".join("?" for _ in columns)
        overriding = self._OVERRIDING if table in WITH_IDS else ""
        self._many(
            f"INSERT INTO {table} ({', '.join(columns)}){overriding} VALUES ({marks})",
            [tuple(row) for row in rows],
            f"copying the {table} table",
        )

    def follow_ids(self) -> None:
        """After a copy: ids made from now on follow the copied ones."""

    def empty_copy(self) -> None:
        """Delete every copied row, and the vault's rows of ``meta`` (a copy abandoned)."""
        for table in ("contents", "nodes", "audit_keys", "data_keys", "users", "audit_log"):
            self._exec(f"DELETE FROM {table}")
        self._exec("DELETE FROM meta WHERE key NOT IN ('schema', 'pg_schema', 'audit_chains')")

    def all_meta(self) -> dict[str, bytes]:
        """Every ``meta`` row."""
        return {str(k): bytes(v) for k, v in self._q("SELECT key, value FROM meta")}

    def table_counts(self) -> dict[str, int]:
        """How many rows each copied table holds."""
        return {table: int(self._one(f"SELECT count(*) FROM {table}")[0]) for table in COPIED}
