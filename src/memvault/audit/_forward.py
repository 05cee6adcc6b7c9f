"""Forward security for the audit log: a MAC key per segment, each erased once passed.

From segment ``first`` on, each segment's records are MACed with a key of its
own, the next derived one-way from it; ``<home>/audit/.fskey`` holds the
current segment's key, sealed, and is overwritten in place when the log moves
on, so whoever takes the machine later cannot make a MAC for an earlier
segment. A verifier starts from the first key, kept off the machine.

Forward security cannot be turned off quietly: the store remembers, in the
same transaction that turned it on, the first forward-secure segment (meta key
:data:`FORWARD_META`). From then on a record is MACed only with the key the
key file holds for its segment: a key file that is missing, damaged, or older
than the log (put back from a copy, with a key the log had erased) makes
every append fail with an :class:`AuditError` that says so and what to do,
instead of MACing with the vault's key and leaving genuine records looking
forged. Only one gap is bridged: a process that started a segment and died
before moving the key file on leaves it one segment behind an empty segment.
"""

from __future__ import annotations

import hmac
import os
from collections.abc import Callable

from .. import _crypto, _fs
from .._crypto import Key
from ..errors import AuditError, IntegrityError, UsageError, VaultError
from ._files import LogFiles, Tail
from ._keys import FORWARD_FILE_SIZE, ForwardState
from ._ledger import Ledger
from ._record import MAC_SUFFIX_LEN
from ._segments import last_record_line, segment_path

FORWARD_NAME = ".fskey"  # the forward-secure MAC key of the current segment, sealed
FORWARD_META = "audit_forward"  # in the store: the first forward-secure segment, in decimal
RESTORE_HINT = (
    "run `memvault audit forward-secure --restore FILE` with the first forward-secure key "
    "(kept off this machine); until then every command is refused and nothing is changed"
)


class ForwardSecure(LogFiles):
    """The log's files, with per-segment MAC keys once forward security is on."""

    forward_name = FORWARD_NAME
    ledger: Ledger | None = None  # the store's sealed account of itself (``._ledger``)
    _forward: ForwardState | None = None
    _forward_since: int | None = None  # the store's word: on since this segment
    _forward_error: VaultError | None = None  # why the key file cannot be used

    def _segment_opened(self) -> None:
        self._forward = self._load_forward()

    def _tail_moved(self) -> None:
        # Another process appended. If it turned forward security on in the segment we
        # have open (an empty one, so no new file told us), its record says so first.
        if self._forward is None and self._forward_since is None:
            self._forward = self._load_forward()

    def _segment_started(self, number: int) -> None:
        if self._forward is not None or self._forward_since is not None:
            self._forward_for(number)  # moves the key file on, or refuses

    def _mac(self, body: bytes) -> str:
        forward = self._forward_for(self._segment)
        return self.keys.mac(body) if forward is None else forward.mac(body)

    def _forward_for(self, segment: int) -> ForwardState | None:
        """The state that MACs a record of ``segment``; None: the vault's audit key.
        Moves the key file on to ``segment`` when that is the one gap a crash leaves;
        raises :class:`AuditError` when forward security is on and the key file cannot
        give the key."""
        error = self._forward_error
        if error is not None:
            raise (
                error
                if isinstance(error, AuditError)
                else AuditError(error.message, hint=error.hint)
            )
        forward, since = self._forward, self._forward_since
        if forward is None and since is None:
            return None  # forward security off: the common case, kept cheap
        path = self._forward_path
        if forward is None:
            if since is not None:
                raise AuditError(
                    f"forward security is on since audit segment {since}, but its key file "
                    f"{path} is missing, so no record can be MACed",
                    hint=RESTORE_HINT,
                )
            return None
        if since is not None and since != forward.first:
            raise AuditError(
                f"the forward-secure key file {path} starts at audit segment {forward.first}, "
                f"but the store says forward security is on since segment {since}",
                hint=RESTORE_HINT,
            )
        if segment < forward.first or forward.segment == segment:
            return None if segment < forward.first else forward
        if forward.segment > segment:
            raise AuditError(
                f"the forward-secure key file {path} is at audit segment {forward.segment}, "
                f"ahead of the log (segment {segment}): the log was cut back or put back "
                "from an older copy",
                hint="run `memvault audit verify`; restore the home (database and audit/) "
                "from a backup",
            )
        tail = self._tail
        if forward.segment < segment - 1 or (tail and tail.segment == segment and tail.size):
            raise AuditError(
                f"the forward-secure key file {path} is at audit segment {forward.segment}, "
                f"behind the log (segment {segment}): it was put back from an older copy, "
                "with keys the log had erased",
                hint=RESTORE_HINT,
            )
        # Another process started this segment but died before moving the key file on:
        # keys only go forward, so this one can still be derived.
        state = forward.at(segment)
        with self._mapped("moving the audit log's forward-secure key on"):
            self._store_forward(state)
        return state

    @property
    def _forward_path(self) -> str:
        return os.fspath(self.directory / FORWARD_NAME)

    def forward_since(self) -> int | None:
        """The first forward-secure segment, as the store remembers it; None if it does
        not (forward security off, or turned on before the store kept it)."""
        raw = self._store.get_meta(FORWARD_META)
        state = self.ledger.load() if self.ledger is not None else None
        sealed = state.forward if state is not None and state.forward else None
        if raw is None:
            return sealed  # the plain word removed: the ledger still says so
        if not raw.isdigit() or len(raw) > 12 or int(raw) < 1:
            raise IntegrityError(
                "the store's record of forward security is damaged (modified outside memvault)",
                hint="run `memvault audit verify`; restore the home from a backup",
            )
        if state is not None and sealed not in (None, int(raw)):
            raise IntegrityError(
                f"the store says forward security is on since segment {int(raw)}, its ledger "
                f"since segment {sealed}: one of them was changed outside memvault",
                hint="run `memvault audit verify`; restore the home from a backup",
            )
        return int(raw)

    def _load_forward(self) -> ForwardState | None:
        """Read the store's word and the key file afresh. Never raises: what keeps the key
        file from being used is kept in ``_forward_error`` and raised by the next MAC
        (so ``audit verify`` can still open the vault and say what is wrong)."""
        self._forward_error = None
        try:
            self._forward_since = self.forward_since()
            return self.read_forward_file()
        except VaultError as exc:
            self._forward_error = exc
            return None

    def read_forward_file(self) -> ForwardState | None:
        """The key file's state, None if there is none; AuditError if it cannot be read,
        IntegrityError if it is damaged."""
        path = self._forward_path
        try:
            with open(path, "rb") as handle:
                blob = handle.read(FORWARD_FILE_SIZE + 1)
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise AuditError(
                f"the forward-secure key file {path} cannot be read ({_fs.reason(exc)})",
                hint="fix the permissions of <home>/audit; nothing was changed",
            ) from None
        try:
            if len(blob) != FORWARD_FILE_SIZE:
                raise IntegrityError("wrong size")
            return self.keys.open_forward(blob)
        except IntegrityError:
            raise IntegrityError(
                f"the forward-secure key file {path} is damaged (modified outside memvault)",
                hint=RESTORE_HINT,
            ) from None

    def _store_forward(self, state: ForwardState) -> None:
        """Overwrite the key file in place: the previous segment's key is gone from it."""
        blob = self.keys.seal_forward(state)
        fd = os.open(
            self.directory / FORWARD_NAME,
            os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC,
            0o600,
        )
        try:
            _fs.write_all_at(fd, blob, 0)
            os.ftruncate(fd, len(blob))
            os.fdatasync(fd)
        finally:
            os.close(fd)
        self._forward, self._forward_error = state, None

    @property
    def forward_state(self) -> ForwardState | None:
        """The forward-secure state on this machine (first segment, current segment and
        its key), or None if there is no key file. Raises if it cannot be used."""
        state = self._load_forward()
        if self._forward_error is not None:
            raise self._forward_error
        return state

    def start_forward_security(
        self, key: Key, expected: int, record: Callable[[int], object]
    ) -> int:
        """Turn forward security on from segment ``expected`` (the current one if it is
        empty, else a new one), whose MAC key is ``key``; returns its number. The caller
        has already handed ``key`` to the operator, to keep off this machine: without it
        the earlier segments' MACs cannot be checked.

        Runs within :meth:`holding`, in one store write transaction that remembers the
        first segment and in which ``record(first)`` appends the record of the change."""
        if not self._holding:
            raise AuditError("forward security is turned on within holding()")
        with self._store.transaction(write=True, action="turning on forward security"):
            self._acquire()
            with self._mapped("starting forward security"):
                tail = self._resolve_tail()
                self._forward = self._load_forward()
                if self._forward_error is not None:
                    raise self._forward_error
                if self._forward is not None or self._forward_since is not None:
                    on = self._forward.first if self._forward else self._forward_since
                    raise UsageError(f"forward security is already on (since audit segment {on})")
                first = self._segment + 1 if tail.size else self._segment
                if first != expected:
                    raise UsageError(
                        "another process started a segment meanwhile; run the command again"
                    )
                if tail.size:
                    self._roll()
                self._store_forward(ForwardState(first, first, key))
            self._store.set_meta(FORWARD_META, str(first).encode())
            if self.ledger is not None:
                self.ledger.set_forward(first)
            self._forward_since = first
            record(first)
        return first

    def restore_forward_key(self, start: ForwardState) -> int:
        """Write the key file anew from the operator's first key (``start``), for the
        newest segment, once that key is shown to MAC the newest forward-secure record;
        the store is told forward security is on if it did not know. Returns the
        segment the key file is now at.

        A missing, damaged or older key file is replaced, and with it any key the log
        had erased."""
        with self._store.transaction(write=True, action="restoring the forward-secure key"):
            self._acquire()
            try:
                with self._mapped("restoring the audit log's forward-secure key"):
                    tail = self._resolve_tail(confirm=False)
                    since = self.forward_since()
                    if since is not None and since != start.first:
                        raise UsageError(
                            f"this key starts at audit segment {start.first}, but forward "
                            f"security is on since segment {since}",
                            hint="use the key file `audit forward-secure` wrote for this vault",
                        )
                    self._check_start(start, tail)
                    segment = max(self._segment, start.first)
                    self._store_forward(start.at(segment))
                self._store.set_meta(FORWARD_META, str(start.first).encode())
                if self.ledger is not None:
                    self.ledger.set_forward(start.first)
                self._forward_since = start.first
            finally:
                self._release()
        return segment

    def _check_start(self, start: ForwardState, tail: Tail) -> None:
        """The newest record, if it is forward-secure, must carry the MAC the key gives."""
        number = tail.segment if tail.size else tail.segment - 1
        if number < start.first:
            return  # no forward-secure record yet: the key MACs the next one
        line = last_record_line(segment_path(self.directory, number))
        if line is None:
            raise UsageError(
                f"audit segment {number} holds no record to check the key against",
                hint="run `memvault audit verify` for the details",
            )
        body = line[:-MAC_SUFFIX_LEN] + b"}"
        stated = line[-MAC_SUFFIX_LEN + len(',"mac":"') : -2]
        mac = _crypto.mac(start.at(number).key, body).hex().encode()
        if not hmac.compare_digest(mac, stated):
            raise UsageError(
                f"this key does not MAC the newest record (in audit segment {number}): it is "
                "not this log's first forward-secure key, or that record was changed",
                hint="use the key file `audit forward-secure` wrote for this vault; run "
                "`memvault audit verify --forward-key FILE`",
            )
