"""The audit log's files: its lock, its segments, the tail an appender writes after.

Records are JSON Lines in ``<home>/audit/audit-NNNNNN.jsonl`` (the schema is
``docs/audit-schema.md``); a new segment starts when the current one would pass
its size. ``<home>/audit/.lock`` is the lock every appender takes (``flock``),
in every process, for the tens of microseconds an append lasts (or, inside a
write transaction, until the transaction has ended).

A crash mid-append can leave a partial last line; the next appender cuts it
off before anything follows it. A failed append leaves nothing: what part of
the line reached the file is cut off again (:func:`memvault._fs.append`).

``<home>/audit/.reserve`` keeps some of the disk allocated
for deletes: on a full disk no record could be written, so no command could
run, and no memory could be deleted to make room. A ``delete`` record (and an
``audit.not_applied`` one, which keeps the log honest when its commit then
fails) gives that space back to the file system before it is appended when
the disk is that short of space, or when the append met a full disk, so the
record and the store's commit after it fit. The reserve is made again when the
log is opened with room for it.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import NamedTuple

from .. import _fs
from .._log import log as _oplog
from ..errors import AuditError, ConfigurationError, IntegrityError
from ..store import Store
from ._keys import AuditKeys
from ._segments import (
    genesis,
    keep_reserve,
    last_record,
    line_hash,
    release_reserve,
    segment_path,
    segments,
    short_of_space,
    unexpected_files,
)

DIR_NAME = "audit"
SEGMENT_ENV = "MEMVAULT_AUDIT_SEGMENT_BYTES"
DEFAULT_SEGMENT_BYTES = 64 << 20
MIN_SEGMENT_BYTES = 1024
LOCK_SECONDS = 30.0
LOCK_NAME = ".lock"
# The records that may use the reserve: read at their fixed place in the line.
_SPARE = (b',"command":"delete",', b',"command":"audit.not_applied",')
_FULL = (errno.ENOSPC, errno.EDQUOT)
_TXN = b'"txn":true'


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


class Tail(NamedTuple):
    """The newest record of the log, as an appender needs it (made at every append)."""

    segment: int
    size: int
    seq: int
    hash: str
    txn: bool


class LogFiles:
    """The log's directory, lock and newest segment, for one open vault.

    Subclasses add forward security (:mod:`._forward`), the store's anchor
    (:mod:`._anchor`) and recording (:mod:`._appender`); the hooks
    :meth:`_segment_opened`, :meth:`_segment_started` and :meth:`_confirm` are
    where they attach.
    """

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
            _fs.make_private_dirs(self.directory)
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
        keep_reserve(self.directory)
        self._fd: int | None = None
        self._segment = 0
        self._next_segment = ""
        self._tail: Tail | None = None
        self._locked = False
        self._checked = False  # the tail was read under the lock held since: still the tail
        self._holding = 0  # > 0: a write transaction holds the lock until it ends
        self._txn_seq = 0  # the record a held write transaction appended
        self._known_head = 0  # the store's anchor, as last seen

    @staticmethod
    def make_room(directory: Path) -> bool:
        """On a file system short of space, give back the space the log keeps for deletes
        (``directory/.reserve``); True if that made room."""
        try:
            fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except OSError:
            return False
        try:
            short = short_of_space(fd)
        finally:
            os.close(fd)
        return short and release_reserve(directory)

    def unexpected_files(self) -> list[str]:
        """Files in the log's directory that are neither segments nor the log's own."""
        return unexpected_files(self.directory)

    def close(self) -> None:
        with suppress(OSError):
            if self._fd is not None:
                os.close(self._fd)
            os.close(self._lock_fd)
        self._fd = None

    @contextmanager
    def _mapped(self, action: str) -> Iterator[None]:
        """Operating-system errors inside become :class:`AuditError` naming ``action``."""
        try:
            yield
        except OSError as exc:
            raise os_error(exc, action) from None

    # -- hooks ---------------------------------------------------------------------------

    def _segment_opened(self) -> None:
        """Called when the newest segment was (re)opened."""

    def _segment_started(self, number: int) -> None:
        """Called when this process has just started segment ``number``."""

    def _confirm(self, tail: Tail) -> Tail:
        """Called with a write record at the tail that this process did not append."""
        return tail

    def _tail_moved(self) -> None:
        """Called when the newest record was read anew (another process appended)."""

    # -- the lock, the tail, and appending -----------------------------------------------

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
                raise os_error(exc, "locking the audit log") from None
        self._locked = True

    def _release(self) -> None:
        self._checked = False
        if self._locked:
            self._locked = False
            with suppress(OSError):
                fcntl.flock(self._lock_fd, fcntl.LOCK_UN)

    def _resolve_tail(self, *, confirm: bool = True) -> Tail:
        """The newest record, re-read only if another process appended since we looked.

        A record at the tail that was appended in a write transaction of a
        process that then died is confirmed against the store's anchor; a
        record the store never committed gets its ``not_applied`` record here.

        Under a lock held since the tail was last read (a write transaction's
        ``next_seq``, then its record), no one else can have appended: the files
        are not looked at again.
        """
        if self._checked and self._tail is not None:
            return self._tail
        try:
            if self._fd is None or os.path.exists(self._next_segment):
                self._open_newest()
            assert self._fd is not None
            size = os.fstat(self._fd).st_size
        except OSError as exc:
            raise os_error(exc, "reading the audit log") from None
        tail = self._tail
        if tail is not None and tail.segment == self._segment and tail.size == size:
            self._checked = self._locked
            return tail
        tail = self._read_tail(size)
        self._tail = tail
        self._checked = self._locked
        self._tail_moved()
        if confirm and tail.txn and tail.seq > self._known_head and tail.seq != self._txn_seq:
            return self._confirm(tail)
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
        self._segment_opened()

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
        _fs.truncate(self._fd, start + keep)
        _oplog.warning("audit_torn_tail_removed", segment=self._segment, bytes=len(data) - keep)
        return data[:keep]

    def _write(self, line: bytes, tail: Tail, txn: bool | None = None) -> str:
        """Append one line after ``tail``; returns its hash. ``txn``: whether the line is a
        write transaction's record (read from the line if not given)."""
        assert self._fd is not None
        data = line + b"\n"
        try:
            if tail.size and tail.size + len(data) > self.segment_bytes:
                self._roll()
                tail = Tail(self._segment, 0, tail.seq, tail.hash, tail.txn)
            self._append_line(data, tail.size)
        except OSError as exc:
            self._checked = False  # the file may not be as the tail says: read it again
            raise os_error(exc, "writing the audit log") from None
        digest = line_hash(line)
        self._tail = Tail(
            self._segment,
            tail.size + len(data),
            tail.seq + 1,
            digest,
            _TXN in line if txn is None else txn,
        )
        return digest

    def _append_line(self, data: bytes, size: int) -> None:
        """All of it or nothing: a part that reached the file is cut off again. A record
        that may use the reserve does so when the disk is short of space."""
        assert self._fd is not None
        spare = _SPARE[0] in data or _SPARE[1] in data
        if spare and short_of_space(self._fd):
            self._use_reserve()
        try:
            _fs.append(self._fd, data, size)
        except OSError as exc:
            if not (spare and exc.errno in _FULL and self._use_reserve()):
                raise
            _fs.append(self._fd, data, size)

    def _use_reserve(self) -> bool:
        released = release_reserve(self.directory)
        if released:
            _oplog.warning("audit_reserve_used", directory=str(self.directory))
        return released

    def _roll(self) -> None:
        """Start the next segment; the chain runs on across files."""
        assert self._fd is not None
        self._checked = False  # the tail is read anew, in the new segment
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
            _fs.fsync_dir(self.directory)
        self._segment_started(number)

    def _sync_file(self) -> None:
        if self._durable and self._fd is not None:
            try:
                os.fdatasync(self._fd)
            except OSError as exc:
                raise os_error(exc, "syncing the audit log") from None


def os_error(exc: OSError, action: str) -> AuditError:
    """An operating-system error met by the log, as the error that refuses the command."""
    return AuditError(
        f"the audit log could not be written ({_fs.reason(exc)}) while {action}",
        hint="free space or fix permissions on <home>/audit; the command was refused and "
        "nothing was changed",
    )
