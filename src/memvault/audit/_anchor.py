"""The audit log's anchor in the store: records made durable with the changes they name.

A command that writes runs in a store transaction. Its record is appended to
the log *inside* that transaction, and the same transaction stores a copy of
the record's line (the newest copy the store holds is its anchor) and of every
earlier line the log file may not have on disk yet. The store's commit is the
one fsync: after it, the change and its record are durable together, and an
open after a power loss restores any line the log file lost from the store's
copies (:meth:`Anchored.recover`).

Commands that do not write append their record without an fsync; the anchor
catches up with them at the next write, every :data:`ANCHOR_EVERY` records,
and when the vault is closed, so removing the newest records is caught beyond
that window. Opening cross-checks the log against the anchor.
"""

from __future__ import annotations

import os

from .._log import log as _oplog
from ..errors import IntegrityError, VaultError
from ._files import Tail
from ._forward import ForwardSecure
from ._segments import find_record, line_hash, lines_after, not_applied_ref, prev_of, seq_of

ANCHOR_EVERY = 256  # records that may run ahead of the store's anchor between anchors
PENDING_LIMIT = 256  # log lines the store keeps before the log file is synced


class Anchored(ForwardSecure):
    """The log's files, kept in step with the store's anchor."""

    # What this process last left in the store (valid while no one else appended).
    _synced = 0
    _covered = -1
    _reads: list[tuple[int, bytes]]  # our read records since ``_covered``
    legacy_store = False  # a store of format 1, being upgraded: it may predate the anchor

    def store_head(self) -> tuple[int, str]:
        """The store's anchor: (seq, hash) of the newest record it holds a copy of."""
        newest = self._store.newest_record()
        if newest is None:
            if not self.legacy_store and not self._store.is_empty():
                raise IntegrityError(
                    "the store holds users or memories but no audit anchor: it was removed",
                    hint="run `memvault audit verify`; restore the home from a backup",
                )
            return 0, self._genesis
        seq, line = newest
        if seq_of(line) != seq:
            raise IntegrityError(
                "the store's audit anchor is damaged",
                hint="run `memvault audit verify`; restore the home from a backup",
            )
        return seq, line_hash(line)

    def pending(self) -> list[int]:
        """Sequence numbers of the lines the store keeps copies of because the log file
        may not have synced them yet."""
        with self._store.transaction(write=False, action="reading the audit anchor"):
            synced, _ = self._store.audit_coverage()
            return [seq for seq, _ in self._store.pending_records() if seq > synced]

    def _cover(self, tail: Tail, line: bytes) -> None:
        """Inside a write transaction: anchor this record in the store (its line is the
        store's newest copy), and make every line before it durable with the store's
        commit, by keeping copies of those the log file may not have on disk yet."""
        if not self._durable:
            # Nothing is synced in this mode (the store's commit is not either): the
            # copy is the anchor only.
            self._store.clear_pending(tail.seq)
            self._store.add_pending([(tail.seq + 1, line)])
            return
        found: list[tuple[int, bytes]] | None = []
        if tail.seq == self._covered + len(self._reads) and tail.segment == self._segment:
            # Since this process's last write record (whose line the store holds) only
            # its own reads were appended, and their lines are at hand. The synced point
            # may have moved on in another process's anchor; an older value only syncs
            # sooner.
            synced, covered, found = self._synced, self._covered, list(self._reads)
        else:
            synced, last_pending = self._store.audit_coverage()
            covered = max(synced, last_pending)
            if tail.seq > covered:
                found = self._recent_lines(covered)
        if found is None or covered + len(found) != tail.seq or tail.seq - synced >= PENDING_LIMIT:
            self._sync_file()  # everything up to the tail; this record's line is in the store
            self._store.set_audit_synced(tail.seq)
            self._store.clear_pending(tail.seq)
            found = []
            synced = tail.seq
        self._store.add_pending([*found, (tail.seq + 1, line)])
        self._synced, self._covered, self._reads = synced, tail.seq + 1, []

    def _recent_lines(self, after: int) -> list[tuple[int, bytes]] | None:
        """The lines of the current segment with a sequence number above ``after``,
        read back from its end (a little at first: usually a few reads' worth); None
        if they are not all in its last 256 KiB."""
        assert self._fd is not None
        size = os.fstat(self._fd).st_size
        want = 4096
        while True:
            start = max(0, size - want)
            lines = os.pread(self._fd, size - start, start).split(b"\n")[:-1]
            out: list[tuple[int, bytes]] = []
            for raw in reversed(lines if start == 0 else lines[1:]):
                seq = seq_of(raw)
                if seq is None:
                    return None
                if seq <= after:
                    return list(reversed(out))
                out.append((seq, raw))
            if start == 0:
                return list(reversed(out)) if self._segment == 1 else None
            if want >= 256 << 10:
                return None
            want *= 4

    def anchor(self) -> None:
        """Bring the store's anchor up to the log's newest record (and sync the log)."""
        try:
            with (
                self._store.transaction(write=True, action="anchoring the audit log"),
                self._mapped("anchoring the audit log"),
            ):
                self._acquire()
                try:
                    tail = self._resolve_tail()
                    head, _ = self.store_head()
                    if tail.seq > head:
                        line = self._tail_line(tail)
                        self._sync_file()
                        self._store.set_audit_synced(tail.seq)
                        self._store.clear_pending(tail.seq)
                        self._store.add_pending([(tail.seq, line)])
                    self._known_head = max(head, tail.seq)
                finally:
                    self._release()
        except VaultError as exc:
            _oplog.warning("audit_anchor_failed", error=type(exc).__name__)

    def _tail_line(self, tail: Tail) -> bytes:
        found = self._recent_lines(tail.seq - 1) or []
        line = found[-1][1] if found else find_record(self.directory, tail.seq)
        if line is None or line_hash(line) != tail.hash:
            raise IntegrityError(
                "the audit log's newest record could not be read back",
                hint="run `memvault audit verify`",
            )
        return line

    def maybe_anchor(self) -> None:
        tail = self._tail
        if tail is not None and tail.seq - self._known_head >= ANCHOR_EVERY:
            self.anchor()

    def recover(self, *, upgrading: bool = False) -> list[str]:
        """At open: re-append lines the store holds and the log lost; return problems.

        Runs in a store write transaction (store lock, then log lock: the order
        every appender takes them in). ``upgrading``: the store is of a format
        without a ledger, which the vault adds next.
        """
        with (
            self._store.transaction(write=True, action="checking the audit log"),
            self._mapped("checking the audit log"),
        ):
            self._acquire()
            try:
                tail = self._resolve_tail(confirm=False)
                restored = 0
                synced, _ = self._store.audit_coverage()
                for seq, line in self._store.pending_records():
                    if seq <= tail.seq or seq <= synced:
                        continue  # a synced line cannot be lost by a crash: not restored
                    record_prev = prev_of(line)
                    if seq != tail.seq + 1 or record_prev != tail.hash:
                        break
                    self._write(line, tail)
                    tail = self._resolve_tail(confirm=False)
                    restored += 1
                if restored:
                    self._sync_file()
                    _oplog.warning("audit_records_restored", count=restored)
                problems = self._anchor_problems(tail)
                if not problems and self.ledger is not None and not upgrading:
                    problems = self.ledger.problems(self._known_head, counted=False)
                if not problems:
                    self._confirm(tail)
                return problems
            finally:
                self._release()

    def _anchor_problems(self, tail: Tail) -> list[str]:
        head, digest = self.store_head()
        self._known_head = head
        if head == 0:
            return []
        if tail.seq < head:
            return [
                f"the audit log ends at record {tail.seq}, but the store recorded record "
                f"{head}: the newest records were removed (or the store is newer than the log)"
            ]
        found = find_record(self.directory, head)
        if found is None:
            return [f"the audit log lacks record {head}, which the store recorded"]
        if line_hash(found) != digest:
            return [
                f"audit record {head} is not the one the store recorded: the log was "
                "rewritten, or the store was restored from another copy"
            ]
        unknown = self._changes_after(head, tail.seq)
        if unknown is None:
            return [
                f"the store's anchor (record {head}) lags the log ({tail.seq} records) by more "
                f"than {2 * ANCHOR_EVERY}: the store was restored from an older copy"
            ]
        if len(unknown) > 1:
            return [
                f"records {', '.join(map(str, unknown[:10]))} changed memories after the "
                f"store's anchor (record {head}), but the store does not know them: it was "
                "restored from an older copy while the log ran on"
            ]
        return []

    def _changes_after(self, head: int, last: int) -> list[int] | None:
        """Write records after the store's anchor that no ``not_applied`` record explains;
        None if the log runs further ahead of the anchor than reads may take it."""
        if last - head > 2 * ANCHOR_EVERY:
            return None
        changes: set[int] = set()
        explained: set[int] = set()
        for line in lines_after(self.directory, head):
            seq = seq_of(line)
            if b'"txn":true' in line and seq is not None:
                changes.add(seq)
            ref = not_applied_ref(line)
            if ref is not None:
                explained.add(ref)
        return sorted(changes - explained)
