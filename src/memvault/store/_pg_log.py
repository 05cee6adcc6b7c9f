"""The audit log's rows in a PostgreSQL vault: records in chains, each with its ledger.

A record's key is its chain's number plus one, shifted left by :data:`CHAIN_BITS`, plus
its place in the chain (from 1), so one B-tree index holds every chain in order and a
chain's newest record is one index probe. Keys below ``1 << CHAIN_BITS`` are no chain's:
they are the numbers of a log of files (one chain, from 1), which a vault moved here from
SQLite keeps. Each chain's sealed ledger is a ``meta`` row
(``ledger.<chain>``), read with the chain's newest record and written with each new one,
in one statement each. What the lines and ledgers mean is the audit layer's
(``audit/_db_log.py``); here they are bytes.
"""

from __future__ import annotations

from ._errors import blob as _blob
from ._errors import integer as _int
from ._pg_rows import PgRows

CHAIN_BITS = 40  # a chain holds up to 2**40 - 1 records


def chain_range(chain: int) -> tuple[int, int]:
    """The keys of ``chain``'s records lie strictly between these two."""
    return (chain + 1) << CHAIN_BITS, (chain + 2) << CHAIN_BITS


def chain_of_seq(seq: int) -> int:
    """The chain a record's key belongs to (-1: none, a log of files' number)."""
    return (seq >> CHAIN_BITS) - 1


class PgLogRows(PgRows):
    """The log's rows: appending, the newest of a chain, reading a chain back."""

    def log_head(self, chain: int) -> tuple[int | None, bytes | None, bytes | None]:
        """(key, line) of ``chain``'s newest record (None, None if it has none), and its
        ledger (None if absent): one statement, one snapshot."""
        low, high = chain_range(chain)
        row = self._one(
            "SELECT (SELECT value FROM meta WHERE key = ?), t.seq, t.line"
            " FROM (SELECT 1) AS one LEFT JOIN LATERAL (SELECT seq, line FROM audit_log"
            " WHERE seq > ? AND seq < ? ORDER BY seq DESC LIMIT 1) AS t ON true",
            (f"ledger.{chain}", low, high),
        )
        assert row is not None  # one row, always
        ledger = None if row[0] is None else _blob(row[0], "meta")
        if row[1] is None:
            return None, None, ledger
        return _int(row[1], "audit_log"), _blob(row[2], "audit_log"), ledger

    def log_heads(self, chains: int) -> dict[int, tuple[int | None, bytes | None, bytes | None]]:
        """:meth:`log_head` of chains 0 to ``chains``, in one statement."""
        rows = self._q(
            "SELECT c, (SELECT value FROM meta WHERE key = 'ledger.' || c), t.seq, t.line"
            " FROM generate_series(0, ?) AS c LEFT JOIN LATERAL (SELECT seq, line"
            " FROM audit_log WHERE seq > (c::bigint + 1) << 40 AND seq < (c::bigint + 2) << 40"
            " ORDER BY seq DESC LIMIT 1) AS t ON true ORDER BY c",
            (chains,),
        )
        out: dict[int, tuple[int | None, bytes | None, bytes | None]] = {}
        for chain, ledger, seq, line in rows:
            out[_int(chain, "audit_log")] = (
                None if seq is None else _int(seq, "audit_log"),
                None if line is None else _blob(line, "audit_log"),
                None if ledger is None else _blob(ledger, "meta"),
            )
        return out

    def log_append(self, seq: int, line: bytes, chain: int, ledger: bytes) -> None:
        """Add a record and set its chain's ledger, in one statement."""
        self._exec_with(
            "WITH added AS (INSERT INTO audit_log (seq, line) VALUES (?, ?))"
            " INSERT INTO meta (key, value) VALUES (?, ?)"
            " ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
            (seq, line, f"ledger.{chain}", ledger),
        )

    def log_ledgers(self) -> dict[int, bytes]:
        """Every chain's ledger, by chain, in one statement."""
        rows = self._q("SELECT key, value FROM meta WHERE starts_with(key, 'ledger.')")
        out: dict[int, bytes] = {}
        for key, value in rows:
            suffix = str(key)[len("ledger.") :]
            if suffix.isdigit():
                out[int(suffix)] = _blob(value, "meta")
        return out

    def set_log_ledgers(self, ledgers: dict[int, bytes]) -> None:
        self._many(
            self._SET_META,
            [(f"ledger.{chain}", blob) for chain, blob in ledgers.items()],
            "recording the audit ledgers",
        )

    def log_lines(self, chain: int, after: int, limit: int) -> list[tuple[int, bytes]]:
        """Up to ``limit`` records of ``chain`` with keys above ``after``, in order."""
        low, high = chain_range(chain)
        rows = self._q(
            "SELECT seq, line FROM audit_log WHERE seq > ? AND seq < ? ORDER BY seq LIMIT ?",
            (max(after, low), high, limit),
        )
        return [(_int(r[0], "audit_log"), _blob(r[1], "audit_log")) for r in rows]

    def log_count(self) -> int:
        row = self._one("SELECT count(*) FROM audit_log")
        return 0 if row is None else _int(row[0], "audit_log")
