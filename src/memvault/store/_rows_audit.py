"""Both stores' rows of the audit log: users' wrapped audit keys, and the anchor."""

from __future__ import annotations

from ._errors import blob as _blob
from ._errors import integer as _int
from ._errors import synced_mark as _synced
from ._rows import Rows


class AuditRows(Rows):
    """Audit keys and the copies of audit lines the store holds (its anchor)."""

    def audit_key(self, user_id: int) -> bytes | None:
        row = self._one("SELECT wrapped FROM audit_keys WHERE user_id = ?", (user_id,))
        return None if row is None else _blob(row[0], "audit_keys.wrapped")

    def insert_audit_key(self, user_id: int, wrapped: bytes) -> None:
        self._exec("INSERT INTO audit_keys (user_id, wrapped) VALUES (?, ?)", (user_id, wrapped))

    def audit_keys(self) -> list[tuple[bytes, bytes, bytes]]:
        """(user look-up token, sealed user name, wrapped audit key) of every user."""
        rows = self._q(
            "SELECT u.lookup, u.name, a.wrapped FROM users AS u JOIN audit_keys AS a"
            " ON a.user_id = u.id ORDER BY u.id"
        )
        where = "users or audit_keys"
        return [(_blob(r[0], where), _blob(r[1], where), _blob(r[2], where)) for r in rows]

    def users_without_audit_key(self) -> list[tuple[int, bytes]]:
        """(user id, look-up token) of users made before audit keys were (format 1)."""
        rows = self._q(
            "SELECT u.id, u.lookup FROM users AS u WHERE NOT EXISTS"
            " (SELECT 1 FROM audit_keys AS a WHERE a.user_id = u.id) ORDER BY u.id"
        )
        return [(_int(r[0], "users"), _blob(r[1], "users")) for r in rows]

    def pending_records(self) -> list[tuple[int, bytes]]:
        rows = self._q("SELECT seq, line FROM audit_pending ORDER BY seq")
        return [(_int(r[0], "audit_pending"), _blob(r[1], "audit_pending")) for r in rows]

    def newest_record(self) -> tuple[int, bytes] | None:
        """The newest audit line the store holds: its anchor."""
        row = self._one("SELECT seq, line FROM audit_pending ORDER BY seq DESC LIMIT 1")
        if row is None:
            return None
        return _int(row[0], "audit_pending"), _blob(row[1], "audit_pending")

    def audit_coverage(self) -> tuple[int, int]:
        """(seq the log file was last synced through, newest line the store holds a copy of)."""
        row = self._one(
            "SELECT (SELECT value FROM meta WHERE key = 'audit_synced'),"
            " (SELECT max(seq) FROM audit_pending)"
        )
        synced = _synced(row[0]) if row is not None and row[0] is not None else 0
        return synced, (
            _int(row[1], "audit_pending") if row is not None and row[1] is not None else 0
        )

    def set_audit_synced(self, seq: int) -> None:
        self.set_meta("audit_synced", str(seq).encode())

    def add_pending(self, records: list[tuple[int, bytes]]) -> None:
        self._many(self._ADD_PENDING, list(records), "recording the audit log's anchor")

    def clear_pending(self, through: int) -> None:
        """Forget the copies up to ``through`` (the caller then stores a newer anchor)."""
        self._exec("DELETE FROM audit_pending WHERE seq <= ?", (through,))
