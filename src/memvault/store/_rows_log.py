"""Both stores' rows of an audit log kept in the database: records in chains, each with
its ledger.

A record's key is its chain's number plus one, shifted left by :data:`CHAIN_BITS`, plus
its place in the chain (from 1), so one B-tree index holds every chain in order and a
chain's newest record is one index probe. Keys below ``1 << CHAIN_BITS`` are the
*archive* (chain -1): the records of a log of files, kept as they were written when a
vault moved from its home into a database. Each chain's sealed ledger is a ``meta`` row
(``ledger.<chain>``), read with the chain's newest record and written with each new one.
What the lines and ledgers mean is the audit layer's (``audit/_db_log.py``); here they
are bytes.

A vault on PostgreSQL always keeps its log here; a vault in a home only after it moved
there from a database (``memvault migrate``).
"""

from __future__ import annotations

from ..errors import IntegrityError
from ._errors import DAMAGED_HINT
from ._errors import blob as _blob
from ._errors import integer as _int
from ._rows import Rows

CHAIN_BITS = 40  # a chain holds up to 2**40 - 1 records
ARCHIVE = -1  # the chain of a log of files' records, kept after a move


def chain_range(chain: int) -> tuple[int, int]:
    """The keys of ``chain``'s records lie strictly between these two."""
    return (chain + 1) << CHAIN_BITS, (chain + 2) << CHAIN_BITS


def chain_of_seq(seq: int) -> int:
    """The chain a record's key belongs to (-1: the archive of a log of files)."""
    return (seq >> CHAIN_BITS) - 1


Head = tuple[int | None, bytes | None, bytes | None]  # newest key, its line, the ledger


class LogRows(Rows):
    """The log's rows: appending, the newest of a chain, reading a chain back."""

    def log_chains(self) -> int:
        """The number of chains of users' records; 0 if the store keeps no log in chains."""
        raw = self.get_meta("audit_chains")
        if raw is None:
            return 0
        if not raw.isdigit() or not 1 <= int(raw) <= 1024:
            raise IntegrityError(
                "the vault database's number of audit chains is damaged (modified outside "
                "memvault)",
                hint=DAMAGED_HINT,
            )
        return int(raw)

    def log_head(self, chain: int) -> Head:
        """(key, line) of ``chain``'s newest record (None, None if it has none), and its
        ledger (None if absent): one statement, one snapshot."""
        low, high = chain_range(chain)
        row = self._one(
            "SELECT (SELECT value FROM meta WHERE key = ?1),"
            " (SELECT seq FROM audit_log WHERE seq > ?2 AND seq < ?3 ORDER BY seq DESC LIMIT 1),"
            " (SELECT line FROM audit_log WHERE seq > ?2 AND seq < ?3 ORDER BY seq DESC LIMIT 1)",
            (f"ledger.{chain}", low, high),
        )
        return _head(row[0], row[1], row[2])

    def log_heads(self, chains: int) -> dict[int, Head]:
        """:meth:`log_head` of the archive and of chains 0 to ``chains``."""
        return {chain: self.log_head(chain) for chain in range(ARCHIVE, chains + 1)}

    def log_append(self, seq: int, line: bytes, chain: int, ledger: bytes) -> None:
        """Add a record and set its chain's ledger."""
        self._exec("INSERT INTO audit_log (seq, line) VALUES (?, ?)", (seq, line))
        self.set_meta(f"ledger.{chain}", ledger)

    def log_ledgers(self) -> dict[int, bytes]:
        """Every chain's ledger (the archive's too), by chain, in one statement."""
        rows = self._q("SELECT key, value FROM meta WHERE substr(key, 1, 7) = 'ledger.'")
        out: dict[int, bytes] = {}
        for key, value in rows:
            suffix = str(key)[len("ledger.") :]
            # Only a chain's own row, ``ledger.<n>`` as memvault names it: ``ledger.03``
            # (a row added outside memvault) is not chain 3's ledger (:meth:`log_extent`).
            if suffix.lstrip("-").isdigit() and str(int(suffix)) == suffix:
                out[int(suffix)] = _blob(value, "meta")
        return out

    def log_extent(self) -> tuple[int | None, list[str]]:
        """The highest record key of any chain (None: no record), and the names of every
        ledger row: what lies beyond the chains the vault says it has."""
        row = self._one("SELECT max(seq) FROM audit_log")
        keys = self._q("SELECT key FROM meta WHERE substr(key, 1, 7) = 'ledger.'")
        return (None if row[0] is None else _int(row[0], "audit_log")), [str(k[0]) for k in keys]

    def log_lines(self, chain: int, after: int, limit: int) -> list[tuple[int, bytes]]:
        """Up to ``limit`` records of ``chain`` with keys above ``after``, in order."""
        low, high = chain_range(chain)
        rows = self._q(
            "SELECT seq, line FROM audit_log WHERE seq > ? AND seq < ? ORDER BY seq LIMIT ?",
            (max(after, low), high, limit),
        )
        return [(_int(r[0], "audit_log"), _blob(r[1], "audit_log")) for r in rows]


def _head(ledger: object, seq: object, line: object) -> Head:
    return (
        None if seq is None else _int(seq, "audit_log"),
        None if line is None else _blob(line, "audit_log"),
        None if ledger is None else _blob(ledger, "meta"),
    )
