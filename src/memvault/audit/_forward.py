"""Forward security for the audit log: a MAC key per segment, each erased once passed.

From segment ``first`` on, each segment's records are MACed with a key of its
own, the next derived one-way from it; ``<home>/audit/.fskey`` holds the
current segment's key, sealed, and is overwritten in place when the log moves
on, so whoever takes the machine later cannot make a MAC for an earlier
segment. A verifier starts from the first key, kept off the machine.
"""

from __future__ import annotations

import os

from .. import _fs
from .._crypto import Key
from ..errors import AuditError, IntegrityError
from ._files import LogFiles, os_error
from ._keys import FORWARD_FILE_SIZE, ForwardState

FORWARD_NAME = ".fskey"  # the forward-secure MAC key of the current segment, sealed


class ForwardSecure(LogFiles):
    """The log's files, with per-segment MAC keys once forward security is on."""

    _forward: ForwardState | None = None

    def _segment_opened(self) -> None:
        self._forward = self._load_forward()

    def _segment_started(self, number: int) -> None:
        if self._forward is not None and number > self._forward.first:
            self._store_forward(self._forward.at(number))

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

    def _load_forward(self) -> ForwardState | None:
        try:
            with open(self.directory / FORWARD_NAME, "rb") as handle:
                blob = handle.read(FORWARD_FILE_SIZE + 1)
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise os_error(exc, "reading the audit log's forward-secure key") from None
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
            _fs.write_all_at(fd, blob, 0)
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
            with self._mapped("starting forward security"):
                tail = self._resolve_tail()
                if self._forward is not None:
                    raise AuditError(
                        "forward security is already on (since audit segment "
                        f"{self._forward.first})"
                    )
                if tail.size:
                    self._roll()
                first = self._segment
            with self._mapped("writing the audit log's forward-secure key"):
                self._store_forward(ForwardState(first, first, key))
            return first
        finally:
            if not self._holding:
                self._release()
