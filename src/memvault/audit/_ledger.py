"""The ledger: the store's sealed account of itself, bound to the audit log.

The anchor (:mod:`._anchor`) proves the log is not shorter than the store
remembers, but the anchor is a copy of a genuine record: someone with write
access to the home and no key could put back an older genuine copy (or delete
it) and cut the log to match, and the memories written after it would stand
in a store whose anchor says they were never written. The ledger closes that:

* a sealed value in the store's ``meta`` (key :data:`META_KEY`), under a key
  among the vault's stable secrets, holding the sequence number of the newest
  record whose transaction changed memories or users (``written``) and how
  many users and nodes the store holds;
* every write that changes anything updates it in the same transaction as the
  change and its record, so the ledger can only be rolled back together with
  the anchor, and then every memory written since is newer than both: each
  node's sealed metadata names the record that last wrote it
  (``memory/_tree.py``), which ``memvault audit verify`` checks against the log
  (``memory/_binding.py``).

Opening the vault checks what costs nothing to check: the counts against the
rows, and ``written`` against the anchor. A store without a ledger is damaged
unless it holds nothing (a new vault) or is of format 1 (the vault upgrades it
once, and records that).
"""

from __future__ import annotations

import json
import struct
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from .. import _crypto
from .._crypto import Sealer
from ..errors import IntegrityError
from ..keys import VaultSecrets
from ..keys import labels as L
from ..store import Store
from ._segments import segments

META_KEY = "ledger"
_FORMAT = 1
_STATE = struct.Struct(">BQQQQ")  # format, written, users, nodes, first forward segment
_HINT = "run `memvault audit verify` for the details; restore the home from a backup"


@dataclass(frozen=True, slots=True)
class LedgerState:
    """What the store says of itself, as sealed in its ledger."""

    written: int  # the newest record whose transaction changed memories or users
    users: int
    nodes: int
    forward: int = 0  # the first forward-secure segment; 0: forward security is off


class Ledger:
    """Reads, checks and advances one store's ledger (inside the caller's transaction)."""

    __slots__ = ("_ctx", "_known", "_sealer", "_store")

    def __init__(self, store: Store, secrets: VaultSecrets, vault_id: str) -> None:
        self._store = store
        self._sealer = Sealer(secrets.key(L.KDF_AUDIT_LEDGER), 1)
        self._ctx = _crypto.context(L.AAD_AUDIT_LEDGER, vault_id)
        # The last sealed value opened or written here, and its state: the same bytes
        # read back need not be opened again (they opened, or were sealed, as this).
        self._known: tuple[bytes, LedgerState] | None = None

    def __repr__(self) -> str:
        return "<Ledger>"

    def load(self) -> LedgerState | None:
        """The sealed state; None if the store has none. IntegrityError if it does not open."""
        blob = self._store.get_meta(META_KEY)
        if blob is None:
            return None
        known = self._known
        if known is not None and known[0] == blob:
            return known[1]
        try:
            plain = _crypto.open_blob(blob, self._ctx, lambda v: self._sealer if v == 1 else None)
            fmt, written, users, nodes, forward = _STATE.unpack(plain)
        except (IntegrityError, struct.error):
            raise IntegrityError(
                "the store's ledger fails its integrity check (modified or replaced)", hint=_HINT
            ) from None
        if fmt != _FORMAT:
            raise IntegrityError(f"the store's ledger has an unknown format ({fmt})", hint=_HINT)
        state = LedgerState(written, users, nodes, forward)
        self._known = (bytes(blob), state)
        return state

    def save(self, state: LedgerState) -> None:
        plain = _STATE.pack(_FORMAT, state.written, state.users, state.nodes, state.forward)
        blob = self._sealer.seal(plain, self._ctx)
        self._store.set_meta(META_KEY, blob)
        self._known = (blob, state)

    def advance(self, seq: int, *, users: int = 0, nodes: int = 0) -> None:
        """Record that the transaction of record ``seq`` changed the store: ``users`` and
        ``nodes`` more (or fewer) than before."""
        state = self.load()
        if state is None:
            raise IntegrityError("the store's ledger is missing", hint=_HINT)
        new = LedgerState(seq, state.users + users, state.nodes + nodes, state.forward)
        if new.users < 0 or new.nodes < 0 or seq <= state.written:
            raise IntegrityError(
                "the store's ledger does not match its rows (modified outside memvault)",
                hint=_HINT,
            )
        self.save(new)

    def set_forward(self, first: int) -> None:
        """Record that forward security is on from segment ``first`` (in the transaction
        that turns it on): removing the store's other word of it, or the key file, can
        then not turn it off quietly."""
        state = self.load()
        if state is not None:
            self.save(LedgerState(state.written, state.users, state.nodes, first))

    def problems(self, head: int, *, counted: bool = True) -> list[str]:
        """The newest change against the anchor (``head``, the store's anchored record)
        and, if ``counted``, the ledger's counts against the rows: counting reads every
        row, so an open does not (``memvault check`` and ``audit verify`` do)."""
        state = self.load()
        if state is None:
            if not self._store.is_empty():
                return ["the store holds users or memories but no ledger: it was removed"]
            return []
        out = counts_against(self._store, state) if counted else []
        if state.written > head:
            out.append(
                f"the store's ledger names record {state.written} as its newest change, but "
                f"its audit anchor is record {head}: the anchor was rolled back or removed"
            )
        return out

    def count_problems(self) -> list[str]:
        """The ledger's counts against the rows (users, memories, audit keys): reads every
        row, for ``memvault check``."""
        state = self.load()
        return [] if state is None else counts_against(self._store, state)


def counts_against(store: Store, state: LedgerState) -> list[str]:
    """What a ledger's counts and the store's rows disagree on (reads every row)."""
    users, nodes, audit_keys = store.counts()
    out = []
    if state.users != users:
        out.append(
            f"the store holds {users} users, but its ledger counts {state.users}: users "
            "were deleted or added outside memvault"
        )
    if state.nodes != nodes:
        out.append(
            f"the store holds {nodes} memories (files and directories), but its ledger "
            f"counts {state.nodes}: memories were deleted or re-inserted outside memvault"
        )
    if audit_keys != users:
        out.append(
            f"the store holds {audit_keys} audit keys for {users} users: keys were "
            "deleted or added outside memvault"
        )
    return out


# -- what the log says was committed, for ``memvault audit verify`` ------------------------

# Records whose transaction changes memories or users (advancing the ledger) when they
# succeed: the memory commands that write, a retention expiry, a user's creation, the
# store's upgrade.
CHANGES = (
    "create",
    "str_replace",
    "insert",
    "delete",
    "rename",
    "memory.expire",
    "user.create",
    "users.erase",
    "vault.upgrade",
)


@dataclass(frozen=True, slots=True)
class Bound:
    """What ``audit verify`` compares the store's memories with: the committed changes,
    each chain's newest change as its ledger says (by ``seq >> store.CHAIN_BITS`` of the
    chain's records: 0 for a log of files; None: the store has no ledger), and what is
    wrong with the ledgers themselves."""

    changes: list[Change]
    written: dict[int, int] | None
    problems: list[str]


@dataclass(frozen=True, slots=True)
class Change:
    """A committed write record, as the binding check needs it."""

    seq: int
    user: str | None
    command: str
    before: str | None
    after: str | None


def committed_changes(directory: Path) -> list[Change]:
    """Every successful change record the log's files hold that no ``audit.not_applied``
    record withdraws, oldest first. Reads lines the verifier has authenticated already; a
    line that does not parse is skipped (the chain check reports it)."""

    def lines() -> Iterator[bytes]:
        for _, path in segments(directory):
            with open(path, "rb") as handle:
                yield from handle

    return changes_in(lines())


def changes_in(lines: Iterable[bytes]) -> list[Change]:
    """:func:`committed_changes` of any sequence of record lines."""
    found: dict[int, Change] = {}
    withdrawn: set[int] = set()
    for line in lines:
        if b'"txn":true' not in line and b'"audit.not_applied"' not in line:
            continue
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if not isinstance(record, dict):
            continue
        if record.get("command") == "audit.not_applied":
            withdrawn.add(record.get("ref") or 0)
        elif record.get("outcome") == "ok" and record.get("command") in CHANGES:
            seq = record.get("seq")
            if isinstance(seq, int):
                found[seq] = Change(
                    seq,
                    record.get("user"),
                    record["command"],
                    record.get("before"),
                    record.get("after"),
                )
    return [found[seq] for seq in sorted(found) if seq not in withdrawn]
