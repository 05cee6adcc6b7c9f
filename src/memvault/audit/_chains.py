"""The chains of a vault's audit log in PostgreSQL, and each chain's sealed ledger.

Chain 0 holds the operator's records (``vault.create``, ``audit.*``, key rotations,
policy changes); chains 1 to N hold the users' records, each user's in one chain chosen
by their pseudonym (itself a keyed hash of the user id, so the choice reveals nothing
and no one without the vault's keys can steer users into one chain). A record's number
holds its chain and its place in the chain (from 1) (``store.chain_range``), so a number
alone names its chain, records sort by chain, then place, and no chain's numbers are
those of a log of files.

Each chain has a ledger, sealed under the vault's ledger key and bound to its chain,
holding: the newest record of the chain (``newest``), the newest whose transaction
changed memories or users (``written``), and how many users and nodes that chain's
records added. It is written in the same transaction as every record of its chain, so
the log cannot lose a record at its end without its ledger saying so, and the sum of the
ledgers' counts is the store's (checked in one snapshot).
"""

from __future__ import annotations

import hashlib
import struct
from dataclasses import dataclass

from .. import _crypto
from .._crypto import Sealer
from ..errors import IntegrityError
from ..keys import VaultSecrets
from ..keys import labels as L
from ..store import ARCHIVE, CHAIN_BITS, chain_of_seq
from ._segments import SCHEMA_VERSION

_FORMAT = 2  # the file log's ledger is format 1
_STATE = struct.Struct(">BQQqq")  # format, newest, written, users, nodes (deltas may be < 0)
_HINT = "run `memvault audit verify` for the details; restore the database from a backup"


def chain_of(pseudonym: str | None, chains: int) -> int:
    """The chain a user's records go to (1 to ``chains``); an operator's (None): 0."""
    if pseudonym is None:
        return 0
    return 1 + int(pseudonym[2:14], 16) % chains


def chain_genesis(vault_id: str, chain: int) -> str:
    """The ``prev`` of a chain's first record: binds the chain to its vault and number."""
    return hashlib.sha256(
        f"memvault audit v{SCHEMA_VERSION} genesis {vault_id} chain {chain}".encode()
    ).hexdigest()


def label(seq: int) -> str:
    """How a record's number reads to a person: ``chain.place`` (``3.1042``); a record of
    the archive (a log of files, before the vault moved into a database), its number."""
    chain = chain_of_seq(seq)
    return str(seq) if chain == ARCHIVE else f"{chain}.{place(seq)}"


def place(seq: int) -> int:
    """A record's place in its chain (from 1)."""
    return seq & ((1 << CHAIN_BITS) - 1)


@dataclass(frozen=True, slots=True)
class ChainState:
    """What one chain's ledger says (records named by their full numbers; 0: none)."""

    newest: int = 0
    written: int = 0
    users: int = 0
    nodes: int = 0


class ChainLedger:
    """Seals and opens the ledgers of one vault's chains."""

    __slots__ = ("_sealer", "_vault_id")

    def __init__(self, secrets: VaultSecrets, vault_id: str) -> None:
        self._sealer = Sealer(secrets.key(L.KDF_AUDIT_LEDGER), 1)
        self._vault_id = vault_id

    def __repr__(self) -> str:
        return "<ChainLedger>"

    def _ctx(self, chain: int) -> bytes:
        return _crypto.context(L.AAD_AUDIT_LEDGER, self._vault_id, "chain", str(chain))

    def seal(self, chain: int, state: ChainState) -> bytes:
        plain = _STATE.pack(_FORMAT, state.newest, state.written, state.users, state.nodes)
        return self._sealer.seal(plain, self._ctx(chain))

    def open(self, chain: int, blob: bytes | None) -> ChainState:
        """The state ``blob`` seals for ``chain``; a chain without a ledger has an empty
        one (its records, if any, are then missing their ledger: the caller checks)."""
        if blob is None:
            return ChainState()
        try:
            plain = _crypto.open_blob(
                blob, self._ctx(chain), lambda v: self._sealer if v == 1 else None
            )
            fmt, newest, written, users, nodes = _STATE.unpack(plain)
        except (IntegrityError, struct.error):
            raise IntegrityError(
                f"the ledger of audit chain {chain} fails its integrity check (modified, "
                "replaced, or moved from another chain)",
                hint=_HINT,
            ) from None
        if fmt != _FORMAT:
            raise IntegrityError(
                f"the ledger of audit chain {chain} has an unknown format ({fmt})", hint=_HINT
            )
        return ChainState(newest, written, users, nodes)
