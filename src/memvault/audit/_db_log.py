"""The audit log of a vault on PostgreSQL: in the vault's database, in chains.

A record is the same line a log file would hold (``docs/audit-schema.md``), MACed in
this process under the vault's audit key (the key never reaches the database), and
inserted in the same transaction as the change it describes: the store and its log
commit together or not at all, by construction, so there is no anchor to keep, no
line to restore after a crash, and no ``not_applied`` record to write.

One chain for the whole fleet would make every command wait for one head. The log is
partitioned instead (:mod:`._chains`): a user's records go to their own chain, and a
command holds only its chain's lock (``Store.partition``) for its transaction, so
commands of users in different chains commit at once. Each chain is gap-free and
linked from its own genesis, verified on its own; its sealed ledger is rewritten with
every record, and a checkpoint signs every chain's head.

A record of a command that wrote nothing (a view, a refusal) is committed in a
transaction of its own, without waiting for the server's flush: a crash of the server
may lose the last of those, as a crash of the machine may lose the last read records of
a log file.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Iterator, MutableMapping
from contextlib import contextmanager
from typing import Any

from ..errors import AuditError, IntegrityError, StorageError
from ..keys import VaultSecrets
from ..store import ARCHIVE, LogStore, chain_of_seq, chain_range
from ._chain import Report
from ._chains import ChainLedger, ChainState, chain_genesis, chain_of, label, place
from ._checkpoint import make_checkpoint
from ._db_read import bound, merged_lines, open_states, stray_problems
from ._db_verify import examine_chains
from ._keys import AuditKeys
from ._ledger import Bound, LedgerState, counts_against
from ._record import MAC_SUFFIX_LEN, PROCESSORS, Event, RecordChain, encode_record, ordered, stamp
from ._segments import line_hash, seq_of

_HINT = "run `memvault audit verify` for the details; restore the database from a backup"


class DbAuditLog:
    """The appender of a vault on PostgreSQL: one per open vault, shared by its commands."""

    partitioned = True  # records are numbered per chain (:func:`._chains.label`)
    # A read's record commits in the read's own transaction (``Runner._read_with_record``).
    reads_commit_records = True
    legacy_store = False  # a PostgreSQL vault has no older formats

    def __init__(
        self, keys: AuditKeys, store: LogStore, secrets: VaultSecrets, chains: int | None = None
    ) -> None:
        """``chains``: the store's number of chains, when the caller has read it already.
        (How durable a commit is, the store's sessions say.)"""
        self.keys = keys
        self._store = store
        self._sealer = ChainLedger(secrets, keys.vault_id)
        if chains is None:
            with store.transaction(write=False, action="opening the audit log"):
                chains = store.log_chains()
        self.chains = chains
        if not self.chains:
            raise IntegrityError(
                "the vault database's number of audit chains is missing (modified outside "
                "memvault)",
                hint=_HINT,
            )
        self.ledger = DbLedger(store, self._sealer, self.chains)
        self.read_only = False  # opened for verification: nothing may be appended
        self._holding = 0
        self._partition: int | None = None  # the chain the held transaction may write
        self._head: tuple[int, str, ChainState] | None = None  # in the held transaction
        self._change: tuple[int, int] | None = None
        self._emit = RecordChain(self, processors=PROCESSORS, context={})

    def __repr__(self) -> str:
        return f"<DbAuditLog chains={self.chains}>"

    @staticmethod
    def label(seq: int) -> str:
        return label(seq)

    def chain_of(self, pseudonym: str | None) -> int:
        return chain_of(pseudonym, self.chains)

    # -- appending ----------------------------------------------------------------------

    @contextmanager
    def holding(self, user: str | None = None, *, flush: bool = True) -> Iterator[None]:
        """Around a write transaction: its records are appended in it. ``user`` (a
        pseudonym): the transaction writes that user's rows and chain only, and locks
        only that chain; None: it locks the whole vault. ``flush=False``: its commit
        need not wait for the server's flush (a transaction that records a read)."""
        if self._holding:
            yield  # nested: the outer transaction's lock holds
            return
        self._holding = 1
        self._partition = chain_of(user, self.chains) if user is not None else None
        try:
            with self._store.partition(self._partition, flush=flush):
                yield
        finally:
            self._holding, self._partition, self._head = 0, None, None

    def next_seq(self) -> int:
        """Inside :meth:`holding` of a user, in its write transaction, before any record:
        the number this transaction's record will take (the chain is locked until the
        transaction ends)."""
        if not self._holding or self._partition is None:
            raise AuditError("next_seq() is only known within holding() of a user")
        return self._read_head(self._partition)[0] + 1

    def record(
        self, event: Event, *, txn: bool = False, change: tuple[int, int] | None = None
    ) -> int:
        """Append the record of ``event``; returns its number. ``txn=True``: inside
        :meth:`holding` and its write transaction, which commits the record with the
        change; ``change`` (users, nodes): the transaction changed that many more or
        fewer. Raises :class:`AuditError` if the record cannot be written."""
        if change is not None and not txn:
            raise AuditError("a change is recorded in a write transaction")
        self._change = change
        try:
            return self._emit.msg(event.fields(txn))
        finally:
            self._change = None

    def msg(self, fields: MutableMapping[str, Any]) -> int:
        """Append a record of ``fields`` as given, numbered, chained and MACed anew."""
        return self.append_record(ordered(fields))

    def append_record(self, fields: dict[str, Any]) -> int:
        """The end of the structlog chain: number, chain, MAC and insert one record."""
        if self.read_only:
            raise AuditError("the audit log was opened for verification only")
        chain = chain_of(fields["user"], self.chains)
        if fields["txn"]:
            if not self._holding:
                raise AuditError("a write command's record must be appended within holding()")
            if self._partition is not None and chain != self._partition:
                raise AuditError("a record of another user's chain, in a held transaction")
            return self._append(fields, chain)
        try:
            with (
                self._store.partition(chain, flush=False),
                self._store.transaction(write=True, action="writing the audit log"),
            ):
                return self._append(fields, chain)
        except StorageError as exc:
            raise AuditError(
                f"the audit log could not be written: {exc.message}", hint=exc.hint
            ) from None
        finally:
            self._head = None

    def _append(self, fields: dict[str, Any], chain: int) -> int:
        last, prev, state = self._read_head(chain)
        seq = fields["seq"] = last + 1
        fields["prev"] = prev
        stamp(None, "", fields)  # under the chain's lock: a chain's times never go back
        body = encode_record(fields).encode()
        line = b"".join((body[:-1], b',"mac":"', self.keys.mac(body).encode(), b'"}'))
        users, nodes = self._change or (0, 0)
        state = ChainState(
            seq,
            seq if self._change is not None else state.written,
            state.users + users,
            state.nodes + nodes,
        )
        self._store.log_append(seq, line, chain, self._sealer.seal(chain, state))
        self._head = (seq, line_hash(line), state) if self._holding else None
        return seq

    def _read_head(self, chain: int) -> tuple[int, str, ChainState]:
        """(newest number, its hash, the ledger) of ``chain``, checked: the ledger opens and
        names that record, which is authentic. An empty chain's number is its first
        record's less one."""
        if self._head is not None and chain_of_seq(self._head[0]) == chain:
            return self._head
        seq, line, blob = self._store.log_head(chain)
        problem, state = self._check_head(chain, seq, line, blob)
        if problem is not None:
            raise IntegrityError(f"the audit log and the store disagree: {problem}", hint=_HINT)
        if seq is None or line is None:
            head = (chain_range(chain)[0], chain_genesis(self.keys.vault_id, chain), state)
        else:
            head = (seq, line_hash(line), state)
        if self._holding:
            self._head = head
        return head

    def _check_head(
        self, chain: int, seq: int | None, line: bytes | None, blob: bytes | None
    ) -> tuple[str | None, ChainState]:
        """What is wrong with a chain's newest record and its ledger (None if nothing)."""
        try:
            state = self._sealer.open(chain, blob)
        except IntegrityError as exc:
            return exc.message, ChainState()
        if seq is None or line is None:
            if state.newest:
                return (
                    f"audit chain {chain} is empty, but its ledger names record "
                    f"{label(state.newest)}: its records were deleted",
                    state,
                )
            return None, state
        if blob is None:
            return f"audit chain {chain} has records but no ledger: it was removed", state
        if seq_of(line) != seq or not self._authentic(line):
            return f"audit record {label(seq)} is damaged or forged", state
        if state.newest != seq:
            return (
                f"audit chain {chain} ends at record {label(seq)}, but its ledger names "
                f"record {label(state.newest)}: records were "
                + ("removed from its end" if state.newest > seq else "added outside memvault"),
                state,
            )
        return None, state

    def _authentic(self, line: bytes) -> bool:
        body = line[:-MAC_SUFFIX_LEN] + b"}"
        stated = line[-MAC_SUFFIX_LEN + len(',"mac":"') : -2]
        return hmac.compare_digest(self.keys.mac(body).encode(), stated)

    # -- at open, and what the file log needs that this one does not ----------------------

    def recover(self, *, upgrading: bool = False) -> list[str]:
        """At open: every chain's newest record against its ledger; the problems found."""
        with self._store.transaction(write=False, action="checking the audit log"):
            return self.head_problems()

    def head_problems(self) -> list[str]:
        """:meth:`recover`'s check, inside the caller's transaction."""
        problems = []
        for chain, (seq, line, blob) in self._store.log_heads(self.chains).items():
            problem, _ = self._check_head(chain, seq, line, blob)
            if problem is not None:
                problems.append(problem)
        return problems + stray_problems(self._store, self.chains)

    def heads(self) -> dict[int, tuple[int, str]]:
        """Every chain's (newest number, its hash), as a checkpoint signs them; a chain
        without records is left out."""
        with self._store.transaction(write=False, action="reading the audit log"):
            found = self._store.log_heads(self.chains)
        return {
            chain: (seq, line_hash(line))
            for chain, (seq, line, _) in found.items()
            if seq is not None and line is not None
        }

    def bound(self) -> Bound:
        """Inside a read transaction: what the store's memories are checked against."""
        states = open_states(self._sealer, self._store.log_ledgers(), self.chains)
        return bound(self._store, self.chains, states, self.head_problems())

    def lines(self) -> Iterator[bytes]:
        """Every record, merged by time across the chains (for review)."""
        return merged_lines(self._store, self.chains)

    def examine(self, checkpoint: dict[str, Any] | None = None, *, jobs: int = 1) -> Report:
        """``audit verify``: every chain checked (see ``_db_verify.py``), by ``jobs``
        processes at once."""
        return examine_chains(
            self._store, self.keys, self._sealer, self.chains, checkpoint, jobs=jobs
        )

    def checkpoint(self) -> dict[str, Any]:
        """A signed checkpoint of every chain's head (``audit checkpoint``)."""
        heads = self.heads()
        size = sum(place(seq) for seq, _ in heads.values())
        listed = json.dumps(sorted(heads.items()), separators=(",", ":")).encode()
        return make_checkpoint(self.keys, size, hashlib.sha256(listed).hexdigest(), heads)

    def maybe_anchor(self) -> None:
        """Nothing: every record is in the store already."""

    def anchor(self) -> None:
        """Nothing: every record is in the store already."""

    def close(self) -> None:
        """Nothing: the vault closes the store."""


class DbLedger:
    """The chains' ledgers, read as one (for the checks the file log's ledger makes)."""

    def __init__(self, store: LogStore, sealer: ChainLedger, chains: int) -> None:
        self._store = store
        self._sealer = sealer
        self._chains = chains

    def states(self) -> dict[int, ChainState]:
        """Every chain's ledger, in one statement (one snapshot)."""
        blobs = self._store.log_ledgers()
        return {c: self._sealer.open(c, blobs.get(c)) for c in range(ARCHIVE, self._chains + 1)}

    def load(self) -> LedgerState:
        """The users and nodes all chains' records added (``written`` is per chain)."""
        states = self.states().values()
        return LedgerState(0, sum(s.users for s in states), sum(s.nodes for s in states))

    def save(self, state: LedgerState) -> None:
        """Only a new vault's empty ledgers are saved whole: each record writes its own."""
        if state != LedgerState(0, 0, 0):
            raise AuditError("a PostgreSQL vault's ledgers are written with their records")

    def count_problems(self) -> list[str]:
        """The ledgers' counts against the rows (inside the caller's read transaction)."""
        return counts_against(self._store, self.load())
