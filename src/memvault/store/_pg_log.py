"""The PostgreSQL store's ways with the log's rows (``_rows_log.py``): a chain's head and
its record written in one round trip each, every head in one statement."""

from __future__ import annotations

from ._pg_rows import PgRows
from ._rows_copy import WITH_IDS, CopyRows
from ._rows_log import ARCHIVE, Head, LogRows, _head


class PgLogRows(LogRows, CopyRows, PgRows):
    """:class:`LogRows`, with fewer round trips; and the copy's identity columns."""

    _OVERRIDING = " OVERRIDING SYSTEM VALUE"

    def follow_ids(self) -> None:
        for table in WITH_IDS:
            self._q(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                f" (SELECT coalesce(max(id), 0) + 1 FROM {table}), false)"
            )

    def log_heads(self, chains: int) -> dict[int, Head]:
        rows = self._q(
            "SELECT c, (SELECT value FROM meta WHERE key = 'ledger.' || c), t.seq, t.line"
            " FROM generate_series(?::integer, ?::integer) AS c LEFT JOIN LATERAL (SELECT seq, line"
            " FROM audit_log WHERE seq > (c::bigint + 1) << 40 AND seq < (c::bigint + 2) << 40"
            " ORDER BY seq DESC LIMIT 1) AS t ON true ORDER BY c",
            (ARCHIVE, chains),
        )
        return {int(r[0]): _head(r[1], r[2], r[3]) for r in rows}

    def log_append(self, seq: int, line: bytes, chain: int, ledger: bytes) -> None:
        """Add a record and set its chain's ledger, in one statement."""
        self._exec_with(
            "WITH added AS (INSERT INTO audit_log (seq, line) VALUES (?, ?))"
            " INSERT INTO meta (key, value) VALUES (?, ?)"
            " ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
            (seq, line, f"ledger.{chain}", ledger),
        )
