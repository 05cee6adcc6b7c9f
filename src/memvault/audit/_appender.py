"""The audit log: one record per command, chained, keyed, and anchored in the store.

Records are JSON Lines in ``<home>/audit/audit-NNNNNN.jsonl`` (the schema is
``docs/audit-schema.md``). Each record carries the SHA-256 of the line before
it and an HMAC under an audit key derived from the master key, so an edited,
inserted, removed or reordered line breaks the chain where it happened.

Durability, with one fsync per write command:

* A command that writes runs in a store transaction. Its record is appended to
  the log *inside* that transaction (the append takes the log's lock and holds
  it until the transaction has committed or rolled back), and the same
  transaction stores a copy of the record's line (the newest copy the store
  holds is its anchor) and of every earlier line the log file may not have on
  disk yet. The store's commit is the one fsync: after it, the change and its
  record are durable together, and an open after a power loss restores any
  line the log file lost from the store's copies.
* If the append fails (disk full, read-only, permissions, I/O), the
  transaction is rolled back and the command refused: nothing changes without
  its record. If the process dies after the append and before the commit, the
  record names a change that never happened; whoever takes the log's lock next
  sees it at the tail, finds the store's anchor short of it, and appends a
  ``not_applied`` record for it.
* Commands that do not write (reads, and every refusal) append their record
  before their result is returned, without an fsync; the store's anchor
  catches up with them at the next write, every :data:`ANCHOR_EVERY` records,
  and when the vault is closed, so removing the newest records is caught
  beyond that window.

The log never holds memory text, names or secrets: the user is a keyed
pseudonym, paths are sealed under the user's own audit key (erased with the
user), and the before/after digests are HMACs under that key.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import structlog

from .._crypto import Key
from .._log import log as _oplog
from ..errors import AuditError, ConfigurationError, IntegrityError, VaultError
from ..store import Store
from ._keys import FORWARD_FILE_SIZE, AuditKeys, ForwardState
from ._record import FIELDS, MAC_SUFFIX_LEN, Event, encode_json, origin, stamp, to_chain
from ._segments import (
    SCHEMA_VERSION,
    find_record,
    fsync_dir,
    genesis,
    last_record,
    line_hash,
    lines_after,
    not_applied_ref,
    prev_of,
    segment_path,
    segments,
    seq_of,
)

DIR_NAME = "audit"
SEGMENT_ENV = "MEMVAULT_AUDIT_SEGMENT_BYTES"
DEFAULT_SEGMENT_BYTES = 64 << 20
MIN_SEGMENT_BYTES = 1024
ANCHOR_EVERY = 256  # records that may run ahead of the store's anchor between anchors
PENDING_LIMIT = 256  # log lines the store keeps before the log file is synced
LOCK_SECONDS = 30.0

LOCK_NAME = ".lock"
FORWARD_NAME = ".fskey"  # the forward-secure MAC key of the current segment, sealed


def segment_bytes_from_env() -> int:
    raw = os.environ.get(SEGMENT_ENV)
    if raw is None or not raw.strip():
        return DEFAULT_SEGMENT_BYTES
    try:
        value = int(raw.strip())
    except ValueError:
        value = 0
    if value < MIN_SEGMENT_BYTES:
        raise ConfigurationError(
            f"{SEGMENT_ENV} must be a whole number of bytes, at least {MIN_SEGMENT_BYTES}",
            hint=f"unset it for the default of {DEFAULT_SEGMENT_BYTES} bytes",
        )
    return value


@dataclass(frozen=True, slots=True)
class Tail:
    """The newest record of the log, as an appender needs it."""

    segment: int
    size: int
    seq: int
    hash: str
    txn: bool


class AuditLog:
    """The appender: one per open vault, shared by its memory tools."""

    def __init__(
        self,
        home: Path,
        keys: AuditKeys,
        store: Store,
        *,
        durable: bool = True,
        segment_bytes: int | None = None,
    ) -> None:
        self.directory = home / DIR_NAME
        self.keys = keys
        self._store = store
        self._durable = durable
        self.segment_bytes = (
            segment_bytes if segment_bytes is not None else segment_bytes_from_env()
        )
        self._genesis = genesis(keys.vault_id)
        try:
            self.directory.mkdir(mode=0o700, exist_ok=True)
            self._lock_fd = os.open(
                self.directory / LOCK_NAME,
                os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC,
                0o600,
            )
        except OSError as exc:
            raise AuditError(
                f"cannot open the audit log in {self.directory}: {exc.strerror}",
                hint="check permissions and free space on the home",
            ) from None
        self._fd: int | None = None
        self._segment = 0
        self._next_segment = ""
        self._tail: Tail | None = None
        self._forward: ForwardState | None = None
        self._locked = False
        self._holding = 0  # > 0: a write transaction holds the lock until it ends
        self._txn_seq = 0  # the record a held write transaction appended
        self._known_head = 0
        # What this process last left in the store (valid while no one else appended).
        self._synced = 0
        self._covered = -1
        self._reads: list[tuple[int, bytes]] = []  # our read records since ``_covered``
        self.read_only = False  # opened for verification: nothing may be appended
        # Bound once: the lazy proxy wrap_logger returns would bind again on every record.
        self._emit: structlog.BoundLogger = structlog.wrap_logger(
            self,
            wrapper_class=structlog.BoundLogger,
            processors=[stamp, origin, to_chain],
            context_class=dict,
            cache_logger_on_first_use=False,
        ).bind()
        self._forward = self._load_forward()

    def close(self) -> None:
        with suppress(OSError):
            if self._fd is not None:
                os.close(self._fd)
            os.close(self._lock_fd)
        self._fd = None

    # -- recording ---------------------------------------------------------------------

    def record(self, event: Event, *, txn: bool = False) -> int:
        """Append the record of ``event``; returns its sequence number.

        ``txn=True``: the caller is inside a store write transaction (entered
        within :meth:`holding`), whose commit makes the record durable and
        anchors it. Raises :class:`AuditError` if the record cannot be written.
        """
        seq: int = self._emit.msg(event.command, **event.fields(), txn=txn)
        return seq

    def msg(self, fields: dict[str, Any]) -> int:
        """The end of the structlog chain: number, chain, MAC and append one record."""
        txn = bool(fields.get("txn"))
        if self.read_only:
            raise AuditError("the audit log was opened for verification only")
        if txn and not self._holding:
            raise AuditError("a write command's record must be appended within holding()")
        self._acquire()
        try:
            tail = self._resolve_tail()
            body = self._body(fields, tail.seq + 1, tail.hash)
            tail = self._place(tail, len(body) - 1 + MAC_SUFFIX_LEN)
            line = self._finish(body)
            if txn:
                self._cover(tail, line)
            self._write(line, tail)
            if txn:
                self._txn_seq = tail.seq + 1
                self._known_head = tail.seq + 1
            elif tail.seq == self._covered + len(self._reads) and len(self._reads) < 64:
                self._reads.append((tail.seq + 1, line))  # right after our own: kept at hand
            else:
                self._reads = []
            return tail.seq + 1
        finally:
            if not self._holding:
                self._release()

    def _body(self, fields: Mapping[str, Any], seq: int, prev: str) -> bytes:
        """The record without its MAC, as the bytes the MAC covers."""
        record = {name: fields.get(name) for name in FIELDS}
        record["v"] = SCHEMA_VERSION
        record["seq"] = seq
        record["prev"] = prev
        record["txn"] = bool(fields.get("txn"))
        return encode_json(record).encode()

    def _finish(self, body: bytes) -> bytes:
        """The line: ``body`` with the MAC of the segment it goes into."""
        return body[:-1] + b',"mac":"' + self._mac(body).encode() + b'"}'

    def _place(self, tail: Tail, length: int) -> Tail:
        """Start a new segment first if a line of ``length`` bytes would not fit the
        current one: the MAC key depends on the segment (with forward security on)."""
        if tail.size and tail.size + length + 1 > self.segment_bytes:
            try:
                self._roll()
            except OSError as exc:
                raise _os_error(exc, "starting a new audit segment") from None
            return Tail(self._segment, 0, tail.seq, tail.hash, tail.txn)
        return tail

    def _mac(self, body: bytes) -> str:
        forward = self._forward
        if forward is None or self._segment < forward.first:
            return self.keys.mac(body)
        if forward.segment != self._segment:
            # Another process started this segment but died before moving the key
            # file on: keys only go forward, so this one can still be derived.
            self._store_forward(forward.at(self._segment))
            forward = self._forward
            assert forward is not None
        return forward.mac(body)

    @contextmanager
    def holding(self) -> Iterator[None]:
        """Around a write transaction: the lock a record takes inside it is kept
        until the transaction has ended, so no other record can follow one whose
        change is not yet committed. If the transaction did not commit after its
        record was appended, a ``not_applied`` record follows it."""
        self._holding += 1
        self._txn_seq = 0
        failed: BaseException | None = None
        try:
            yield
        except BaseException as exc:
            failed = exc
            raise
        finally:
            self._holding -= 1
            appended, self._txn_seq = self._txn_seq, 0
            try:
                if failed is not None and appended and self._locked:
                    self._not_applied(appended, "rolled_back")
            finally:
                if not self._holding:
                    self._release()

    def _not_applied(self, seq: int, why: str) -> None:
        """Record that record ``seq`` names a change that was never committed."""
        tail = self._resolve_tail()
        fields = dict(origin(None, "", stamp(None, "", {})))
        fields.update(command="audit.not_applied", outcome="not_applied", error=why, ref=seq)
        body = self._body(fields, tail.seq + 1, tail.hash)
        tail = self._place(tail, len(body) - 1 + MAC_SUFFIX_LEN)
        self._write(self._finish(body), tail)

    # -- the anchor in the store ---------------------------------------------------------

    def store_head(self) -> tuple[int, str]:
        """The store's anchor: (seq, hash) of the newest record it holds a copy of."""
        newest = self._store.newest_record()
        if newest is None:
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
            with self._store.transaction(write=True, action="anchoring the audit log"):
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

    def head(self) -> tuple[int, str]:
        """(seq, hash) of the newest record, as the next record's ``prev`` would be."""
        self._acquire()
        try:
            tail = self._resolve_tail()
            return tail.seq, tail.hash
        finally:
            if not self._holding:
                self._release()

    def maybe_anchor(self) -> None:
        tail = self._tail
        if tail is not None and tail.seq - self._known_head >= ANCHOR_EVERY:
            self.anchor()

    # -- the log's lock, its tail, and appending ------------------------------------------

    def _acquire(self) -> None:
        if self._locked:
            return
        deadline = time.monotonic() + LOCK_SECONDS
        pause = 0.00002  # the lock is held for tens of microseconds: look again soon
        while True:
            try:
                fcntl.flock(self._lock_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise AuditError(
                        f"the audit log stayed locked by another process for {LOCK_SECONDS:.0f}s",
                        hint="a memvault process may be hung; nothing was changed",
                    ) from None
                time.sleep(pause)
                pause = min(pause * 2, 0.001)
            except OSError as exc:
                raise _os_error(exc, "locking the audit log") from None
        self._locked = True

    def _release(self) -> None:
        if self._locked:
            self._locked = False
            with suppress(OSError):
                fcntl.flock(self._lock_fd, fcntl.LOCK_UN)

    def _resolve_tail(self, *, confirm: bool = True) -> Tail:
        """The newest record, re-read only if another process appended since we looked.

        A record at the tail that was appended in a write transaction of a
        process that then died is confirmed against the store's anchor; a
        record the store never committed gets its ``not_applied`` record here.
        """
        try:
            if self._fd is None or os.path.exists(self._next_segment):
                self._open_newest()
            assert self._fd is not None
            size = os.fstat(self._fd).st_size
        except OSError as exc:
            raise _os_error(exc, "reading the audit log") from None
        tail = self._tail
        if tail is not None and tail.segment == self._segment and tail.size == size:
            return tail
        tail = self._read_tail(size)
        self._tail = tail
        if confirm and tail.txn and tail.seq > self._known_head and tail.seq != self._txn_seq:
            return self._confirm(tail)
        return tail

    def _confirm(self, tail: Tail) -> Tail:
        """A write record at the tail that the store's anchor does not reach was never
        committed (its process died first): record that, and return the new tail."""
        head, _ = self.store_head()
        self._known_head = head
        if tail.txn and tail.seq > head:
            self._not_applied(tail.seq, "interrupted")
            return self._resolve_tail()
        return tail

    def _open_newest(self) -> None:
        files = segments(self.directory)
        number = files[-1][0] if files else 1
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
        self._fd = os.open(
            segment_path(self.directory, number),
            os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC,
            0o600,
        )
        self._segment = number
        self._next_segment = os.fspath(segment_path(self.directory, number + 1))
        self._tail = None
        self._forward = self._load_forward()

    def _read_tail(self, size: int) -> Tail:
        assert self._fd is not None
        if size == 0:
            if self._segment <= 1:
                return Tail(self._segment, 0, 0, self._genesis, False)
            prev = last_record(segment_path(self.directory, self._segment - 1))
            if prev is None:
                raise IntegrityError(
                    f"the audit log's segment {self._segment - 1} is missing or empty",
                    hint="run `memvault audit verify`; restore audit/ from a backup",
                )
            return Tail(self._segment, 0, prev[0], prev[1], False)
        start = max(0, size - 65536)
        data = os.pread(self._fd, size - start, start)
        if not data.endswith(b"\n"):
            data = self._repair_torn(data, start)
            size = start + len(data)
        lines = data.split(b"\n")[:-1]
        if start > 0:
            lines = lines[1:]
        if not lines:
            raise IntegrityError(
                "the audit log's last record could not be found",
                hint="run `memvault audit verify`; restore audit/ from a backup",
            )
        last = lines[-1]
        try:
            record = json.loads(last)
            seq = int(record["seq"])
            txn = bool(record.get("txn"))
        except (ValueError, KeyError, TypeError):
            raise IntegrityError(
                "the audit log's last record is damaged, so no record can follow it",
                hint="run `memvault audit verify`; restore audit/ from a backup",
            ) from None
        return Tail(self._segment, size, seq, line_hash(last), txn)

    def _repair_torn(self, data: bytes, start: int) -> bytes:
        """A crash mid-append can leave a partial last line; it never held a whole
        record, so it is cut off (and logged) before anything follows it."""
        assert self._fd is not None
        keep = data.rfind(b"\n") + 1
        os.ftruncate(self._fd, start + keep)
        _oplog.warning("audit_torn_tail_removed", segment=self._segment, bytes=len(data) - keep)
        return data[:keep]

    def _write(self, line: bytes, tail: Tail) -> str:
        """Append one line after ``tail``; returns its hash."""
        assert self._fd is not None
        data = line + b"\n"
        try:
            if tail.size and tail.size + len(data) > self.segment_bytes:
                self._roll()
                tail = Tail(self._segment, 0, tail.seq, tail.hash, tail.txn)
            written = os.write(self._fd, data)
            if written != len(data):
                # A short write leaves a partial line: cut it off so the log stays whole.
                os.ftruncate(self._fd, tail.size)
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        except OSError as exc:
            raise _os_error(exc, "writing the audit log") from None
        digest = line_hash(line)
        self._tail = Tail(
            self._segment, tail.size + len(data), tail.seq + 1, digest, b'"txn":true' in line
        )
        return digest

    def _roll(self) -> None:
        """Start the next segment; the chain runs on across files."""
        assert self._fd is not None
        if self._durable:
            os.fsync(self._fd)
        number = self._segment + 1
        fd = os.open(
            segment_path(self.directory, number),
            os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
            0o600,
        )
        os.close(self._fd)
        self._fd, self._segment = fd, number
        self._next_segment = os.fspath(segment_path(self.directory, number + 1))
        if self._durable:
            fsync_dir(self.directory)
        if self._forward is not None and number > self._forward.first:
            self._store_forward(self._forward.at(number))

    # -- forward security ----------------------------------------------------------------

    def _load_forward(self) -> ForwardState | None:
        try:
            with open(self.directory / FORWARD_NAME, "rb") as handle:
                blob = handle.read(FORWARD_FILE_SIZE + 1)
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise _os_error(exc, "reading the audit log's forward-secure key") from None
        if len(blob) != FORWARD_FILE_SIZE:
            raise IntegrityError(
                "the audit log's forward-secure key file is damaged",
                hint="run `memvault audit verify --forward-key FILE` with the first key",
            )
        return self.keys.open_forward(blob)

    def _store_forward(self, state: ForwardState) -> None:
        """Overwrite the key file in place: the previous segment's key is gone from it."""
        blob = self.keys.seal_forward(state)
        fd = os.open(
            self.directory / FORWARD_NAME,
            os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC,
            0o600,
        )
        try:
            if os.pwrite(fd, blob, 0) != len(blob):
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            os.fdatasync(fd)
        finally:
            os.close(fd)
        self._forward = state

    @property
    def forward_state(self) -> ForwardState | None:
        """The forward-secure state on this machine (first segment, current segment and
        its key), or None if forward security is off."""
        return self._load_forward()

    def start_forward_security(self, key: Key) -> int:
        """Turn forward security on from a new segment, whose MAC key is ``key``; returns
        the segment's number. The caller has already handed ``key`` to the operator, to
        keep off this machine: without it the earlier segments' MACs cannot be checked."""
        self._acquire()
        try:
            tail = self._resolve_tail()
            if self._forward is not None:
                raise AuditError(
                    f"forward security is already on (since audit segment {self._forward.first})"
                )
            if tail.size:
                self._roll()
            first = self._segment
            try:
                self._store_forward(ForwardState(first, first, key))
            except OSError as exc:
                raise _os_error(exc, "writing the audit log's forward-secure key") from None
            return first
        finally:
            if not self._holding:
                self._release()

    def _sync_file(self) -> None:
        if self._durable and self._fd is not None:
            try:
                os.fdatasync(self._fd)
            except OSError as exc:
                raise _os_error(exc, "syncing the audit log") from None

    # -- opening: restore what a crash lost, and cross-check with the store ----------------

    def recover(self) -> list[str]:
        """At open: re-append lines the store holds and the log lost; return problems.

        Runs in a store write transaction (store lock, then log lock: the order
        every appender takes them in).
        """
        with self._store.transaction(write=True, action="checking the audit log"):
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


def _os_error(exc: OSError, action: str) -> AuditError:
    reason = {
        errno.ENOSPC: "the disk is full",
        errno.EDQUOT: "the disk quota is exceeded",
        errno.EROFS: "the file system is read-only",
        errno.EACCES: "permission denied",
        errno.EPERM: "operation not permitted",
        errno.EIO: "an I/O error occurred",
    }.get(exc.errno or 0, exc.strerror or "an operating system error occurred")
    return AuditError(
        f"the audit log could not be written ({reason}) while {action}",
        hint="free space or fix permissions on <home>/audit; the command was refused and "
        "nothing was changed",
    )
