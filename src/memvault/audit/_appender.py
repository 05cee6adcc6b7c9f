"""The audit log's appender: one record per command, chained, keyed, and anchored.

Each record carries the SHA-256 of the line before it and an HMAC under an
audit key derived from the master key (or the segment's forward-secure key),
so an edited, inserted, removed or reordered line breaks the chain where it
happened. How records become durable with the changes they name is in
:mod:`._anchor`; the files, the lock and the tail in :mod:`._files`.

* If an append fails (disk full, read-only, permissions, I/O), the command's
  transaction is rolled back and the command refused: nothing changes without
  its record.
* If the process dies after the append and before the commit, the record
  names a change that never happened; whoever takes the log's lock next sees
  it at the tail, finds the store's anchor short of it, and appends a
  ``not_applied`` record for it.

The log never holds memory text, names or secrets: the user is a keyed
pseudonym, paths are sealed under the user's own audit key (erased with the
user), and the before/after digests are HMACs under that key.
"""

from __future__ import annotations

from collections.abc import Iterator, MutableMapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..errors import AuditError, IntegrityError
from ..store import Store
from ._anchor import Anchored
from ._checkpoint import make_checkpoint
from ._files import Tail, os_error
from ._keys import AuditKeys
from ._ledger import Bound, Ledger, committed_changes
from ._record import (
    MAC_SUFFIX_LEN,
    PROCESSORS,
    Event,
    RecordChain,
    encode_record,
    ordered,
)


class AuditLog(Anchored):
    """The appender: one per open vault, shared by its memory commands."""

    def __init__(
        self,
        home: Path,
        keys: AuditKeys,
        store: Store,
        *,
        durable: bool = True,
        segment_bytes: int | None = None,
        ledger: Ledger | None = None,
    ) -> None:
        super().__init__(home, keys, store, durable=durable, segment_bytes=segment_bytes)
        self.ledger = ledger
        self._reads = []
        self._change: tuple[int, int] | None = None  # of the record being appended
        self._announced = 0  # the number next_seq() promised to the held transaction
        self.read_only = False  # opened for verification: nothing may be appended
        # Bound once, to this log: structlog's processors, run on each record's own dict.
        self._emit = RecordChain(self, processors=PROCESSORS, context={})
        with self._mapped("reading the audit log's forward-secure key"):
            self._forward = self._load_forward()

    def record(
        self, event: Event, *, txn: bool = False, change: tuple[int, int] | None = None
    ) -> int:
        """Append the record of ``event``; returns its sequence number.

        ``txn=True``: the caller is inside a store write transaction (entered
        within :meth:`holding`), whose commit makes the record durable and
        anchors it. ``change`` (users, nodes): the transaction changed memories or
        users, by that many more or fewer; the store's ledger advances to this
        record in the same transaction. Raises :class:`AuditError` if the record
        cannot be written.
        """
        if change is not None and (not txn or self.ledger is None):
            raise AuditError("a change is recorded in a write transaction, with a ledger")
        self._change = change
        try:
            return self._emit.msg(event.fields(txn))
        finally:
            self._change = None

    def next_seq(self) -> int:
        """Inside :meth:`holding`, before any record: the number this transaction's
        record will take (the log stays locked until the transaction ends)."""
        if not self._holding:
            raise AuditError("next_seq() is only known within holding()")
        self._acquire()
        try:
            self._announced = self._resolve_tail().seq + 1
        except OSError as exc:
            raise os_error(exc, "reading the audit log") from None
        return self._announced

    def msg(self, fields: MutableMapping[str, Any]) -> int:
        """Append a record of ``fields`` as given (its time and origin too), numbered,
        chained and MACed anew: for tools that replay records."""
        return self.append_record(ordered(fields))

    def append_record(self, fields: dict[str, Any]) -> int:
        """The end of the structlog chain: number, chain, MAC and append one record.
        ``fields`` holds every field, in order (:meth:`Event.fields`); it is filled in
        here, not copied."""
        txn: bool = fields["txn"]
        if self.read_only:
            raise AuditError("the audit log was opened for verification only")
        if txn and not self._holding:
            raise AuditError("a write command's record must be appended within holding()")
        self._acquire()
        try:
            return self._append(fields, txn)
        except OSError as exc:
            raise os_error(exc, "writing the audit log") from None
        finally:
            if not self._holding:
                self._release()

    def _append(self, fields: dict[str, Any], txn: bool) -> int:
        tail = self._resolve_tail()
        seq = fields["seq"] = tail.seq + 1
        fields["prev"] = tail.hash
        body = encode_record(fields).encode()
        tail = self._place(tail, len(body) - 1 + MAC_SUFFIX_LEN)
        line = self._finish(body)
        if txn:
            if self._announced and self._announced != seq:
                raise AuditError(
                    "the audit log moved on within a held transaction",
                    hint="nothing was changed; report this",
                )
            if self._change is not None:
                assert self.ledger is not None
                users, nodes = self._change
                self.ledger.advance(seq, users=users, nodes=nodes)
            self._cover(tail, line)
        self._write(line, tail, txn)
        if txn:
            self._txn_seq = self._known_head = seq
        elif tail.seq == self._covered + len(self._reads) and len(self._reads) < 64:
            self._reads.append((seq, line))  # right after our own: kept at hand
        else:
            self._reads = []
        return seq

    def _finish(self, body: bytes) -> bytes:
        """The line: ``body`` with the MAC of the segment it goes into."""
        return b"".join((body[:-1], b',"mac":"', self._mac(body).encode(), b'"}'))

    def _place(self, tail: Tail, length: int) -> Tail:
        """Start a new segment first if a line of ``length`` bytes would not fit the
        current one: the MAC key depends on the segment (with forward security on)."""
        if tail.size and tail.size + length + 1 > self.segment_bytes:
            try:
                self._roll()
            except OSError as exc:
                raise os_error(exc, "starting a new audit segment") from None
            return Tail(self._segment, 0, tail.seq, tail.hash, tail.txn)
        return tail

    partitioned = False  # one chain, numbered from 1
    reads_commit_records = False  # a read's record is appended after its transaction

    @staticmethod
    def label(seq: int) -> str:
        """How a record's number reads to a person."""
        return str(seq)

    @contextmanager
    def holding(self, user: str | None = None, *, flush: bool = True) -> Iterator[None]:
        """Around a write transaction: the lock a record takes inside it is kept
        until the transaction has ended, so no other record can follow one whose
        change is not yet committed. If the transaction did not commit after its
        record was appended, a ``not_applied`` record follows it. ``user`` (the
        pseudonym of the one user the transaction writes for) changes nothing here:
        one log, one lock. Nor does ``flush``."""
        self._holding += 1
        self._txn_seq = 0
        self._announced = 0
        failed: BaseException | None = None
        try:
            yield
        except BaseException as exc:
            failed = exc
            raise
        finally:
            self._holding -= 1
            appended, self._txn_seq, self._announced = self._txn_seq, 0, 0
            try:
                if failed is not None and appended and self._locked:
                    self._not_applied(appended, "rolled_back")
            finally:
                if not self._holding:
                    self._release()

    def _not_applied(self, seq: int, why: str) -> None:
        """Record that record ``seq`` names a change that was never committed."""
        with self._mapped("writing the audit log"):
            tail = self._resolve_tail()
            fields = Event("audit.not_applied", outcome="not_applied", error=why).fields()
            for processor in PROCESSORS:
                processor(None, "", fields)  # in place
            fields.update(seq=tail.seq + 1, ref=seq, prev=tail.hash)
            body = encode_record(fields).encode()
            tail = self._place(tail, len(body) - 1 + MAC_SUFFIX_LEN)
            self._write(self._finish(body), tail, False)

    def bound(self) -> Bound:
        """Inside a read transaction: what the store's memories are checked against (see
        :class:`Bound`). The changes after the anchor were never committed (their process
        died first: the walk of the log reports them as interrupted)."""
        head, _ = self.store_head()
        if self.ledger is None:
            return Bound([], None, ["it was opened without its ledger"])
        problems = self.ledger.problems(head)
        state = self.ledger.load()
        changes = [c for c in committed_changes(self.directory) if c.seq <= head]
        return Bound(changes, None if state is None else {0: state.written}, problems)

    def checkpoint(self) -> dict[str, Any]:
        """A signed checkpoint of the log as it is now (``audit checkpoint``)."""
        return make_checkpoint(self.keys, *self.head())

    def head(self) -> tuple[int, str]:
        """(seq, hash) of the newest record, as the next record's ``prev`` would be."""
        self._acquire()
        try:
            with self._mapped("reading the audit log"):
                tail = self._resolve_tail()
            return tail.seq, tail.hash
        finally:
            if not self._holding:
                self._release()

    def _confirm(self, tail: Tail) -> Tail:
        """A write record at the tail that the store's anchor does not reach was never
        committed (its process died first): record that, and return the new tail."""
        head, _ = self.store_head()
        self._known_head = head
        if tail.txn and tail.seq > head:
            state = self.ledger.load() if self.ledger is not None else None
            if state is not None and state.written >= tail.seq:
                # The store committed that record's change: its anchor was put back.
                raise IntegrityError(
                    f"the store's ledger names record {state.written}, but its audit anchor "
                    f"is record {head}: the anchor was rolled back",
                    hint="run `memvault audit verify`; restore the home from a backup",
                )
            self._not_applied(tail.seq, "interrupted")
            return self._resolve_tail()
        return tail
