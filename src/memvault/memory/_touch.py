"""A memory's last-used day: the clock it is read from, and its sealed form.

A file's day (UTC days since the epoch) becomes today when the file is created,
written, renamed or viewed (:class:`~memvault.memory.Tree`), and ``memvault expire``
deletes files whose day is too old (``memvault.lifecycle``). Directories have no day.

The day is sealed under the user's primary data key with the associated data
``context("touched", user token, file identity)``: a day copied onto another file,
or onto another user's file, fails to open, and the store sees a blob of fixed
length, not the day. It is not bound to the file's parent, so a rename needs no new
seal; a data-key rotation seals it anew with the same associated data. Nothing in
the audit log or the ledger covers it: setting it is not a change of the memory.

:func:`today` is the one clock every day is read from; tests replace it
(``monkeypatch.setattr(memory.touch, "today", ...)``).
"""

from __future__ import annotations

import struct
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from datetime import date, timedelta
from typing import TYPE_CHECKING

from .. import _crypto
from .._crypto import Sealer
from ..errors import IntegrityError
from ..keys import labels
from ..store import Store

if TYPE_CHECKING:
    from ._node import Node
    from ._tally import Entry

SECONDS_PER_DAY = 86_400
_USED_ON_FILES = 4096  # files a tree remembers as used today, at most
_DAY = struct.Struct(">I")  # days since 1970-01-01 (UTC)
_EPOCH = date(1970, 1, 1)


def today() -> int:
    """The current day: whole UTC days since 1970-01-01."""
    return int(time.time()) // SECONDS_PER_DAY


def as_date(day: int) -> str:
    """A day as an ISO 8601 date: ``2026-11-25``."""
    return (_EPOCH + timedelta(days=day)).isoformat()


def _context(token: bytes, fid: bytes) -> bytes:
    return _crypto.context(labels.AAD_TOUCHED, token, fid)


def seal(sealer: Sealer, token: bytes, fid: bytes, day: int) -> bytes:
    """The day, sealed for the file ``fid`` of the user whose look-up token is ``token``."""
    return sealer.seal(_DAY.pack(day), _context(token, fid))


def open_day(
    blob: bytes, token: bytes, fid: bytes, sealer_for: Callable[[int], Sealer | None]
) -> int:
    """The day sealed in ``blob``; IntegrityError if it was not sealed for this file."""
    plain = _crypto.open_blob(blob, _context(token, fid), sealer_for)
    if len(plain) != _DAY.size:
        raise IntegrityError("a last-used day is malformed")
    day: int = _DAY.unpack(plain)[0]
    return day


class LastUsed:
    """The part of :class:`~memvault.memory.Tree` that reads and sets its files' days."""

    _store: Store
    _user_id: int
    # Of the current read transaction: a file it viewed whose day is not today, as
    # (node id, identity); the runner then calls touch_read().
    stale: tuple[int, bytes] | None = None
    # Files (node id, identity) this tree found or made used today, with that day: a
    # view of one of them needs no look-up. Ids only, never a name; a day only moves
    # forward, so what was today stays today until midnight.
    _used_on: dict[tuple[int, bytes], int]

    # -- what Tree provides ----------------------------------------------------------------

    def transaction(self, *, write: bool) -> AbstractContextManager[None]:
        raise NotImplementedError

    def _set_day(self, node_id: int, fid: bytes, day: int) -> None:
        raise NotImplementedError

    def _open_day(self, node_id: int, fid: bytes, blob: bytes) -> int:
        raise NotImplementedError

    # -- days ------------------------------------------------------------------------------

    def last_used(self, node: Node) -> int | None:
        """The day a file was last used; None if it has none (written before store
        format 3). IntegrityError if the day stored for it was not sealed for it."""
        row = self._store.touched(self._user_id, node.id)
        return None if row is None or row[1] is None else self._open_day(node.id, node.fid, row[1])

    def last_used_of(self, entries: list[Entry]) -> dict[int, int | None]:
        """The last-used day (or None) of every file among ``entries``, by node id."""
        blobs = self._store.touched_days(self._user_id)
        days: dict[int, int | None] = {}
        for entry in entries:
            node = entry.node
            if not node.is_dir:
                blob = blobs.get(node.id)
                days[node.id] = None if blob is None else self._open_day(node.id, node.fid, blob)
        return days

    def used(self, node: Node) -> None:
        """In a read transaction, the file ``node`` was viewed: if its day is not today,
        note it (:attr:`stale`) for :meth:`touch_read`. A day already today costs one
        look-up, and none once this tree has seen it today."""
        day, file = today(), (node.id, node.fid)
        if self._used_on.get(file) == day:
            return
        if self.last_used(node) != day:
            self.stale = file
        else:
            self._note_used(file, day)

    def _note_used(self, file: tuple[int, bytes], day: int) -> None:
        if len(self._used_on) >= _USED_ON_FILES:
            self._used_on.clear()
        self._used_on[file] = day

    def touch_read(self) -> bool:
        """After a read transaction that noted a stale day: make today that file's day,
        in a short write transaction of its own. False if the file is no longer there
        (deleted or expired in between); StorageError if the write could not be made."""
        noted, self.stale = self.stale, None
        if noted is None:
            return True
        with self.transaction(write=True):
            return self.touch(*noted)

    def touch_noted(self) -> None:
        """Inside a write transaction: make today the day of the file a read in it noted
        as stale, if any."""
        noted, self.stale = self.stale, None
        if noted is not None:
            self.touch(*noted)

    def touch(self, node_id: int, fid: bytes) -> bool:
        """Inside a write transaction: make today the last-used day of the file
        ``node_id`` (whose identity is ``fid``), unless it already is. False if the user
        has no such file any more."""
        row = self._store.touched(self._user_id, node_id)
        if row is None or row[0] != fid:
            return False
        day = today()
        if row[1] is None or self._open_day(node_id, fid, row[1]) != day:
            self._set_day(node_id, fid, day)
        self._note_used((node_id, fid), day)
        return True
