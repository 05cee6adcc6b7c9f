"""The audit log's files: segment names, reading records back, hashing lines, and the
space the log keeps for deletes on a full disk.

Shared by the appender (``_files``), ``audit verify`` and the review commands.
Nothing here needs a key.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterator
from contextlib import suppress
from pathlib import Path

from .. import _fs
from .._log import log as _oplog
from ..errors import StorageError

SCHEMA_VERSION = 1
SEGMENT_NAME = re.compile(r"audit-([0-9]{6,})\.jsonl")
# The files of the log's directory that are not segments: the appenders' lock, the
# forward-secure key, and the space kept for deletes on a full disk.
KNOWN_FILES = frozenset({".lock", ".fskey", ".reserve"})
RESERVE_NAME = ".reserve"
RESERVE_BYTES = 256 << 10  # room for a few deletes: their records and the store's commits


def segment_path(directory: Path, number: int) -> Path:
    return directory / f"audit-{number:06d}.jsonl"


def genesis(vault_id: str) -> str:
    """The ``prev`` of record 1: binds the chain to its vault."""
    return hashlib.sha256(
        f"memvault audit v{SCHEMA_VERSION} genesis {vault_id}".encode()
    ).hexdigest()


def line_hash(line: bytes) -> str:
    """The hash the next record's ``prev`` carries (of the line without its newline)."""
    return hashlib.sha256(line).hexdigest()


def int_field(line: bytes, name: str) -> int | None:
    """A whole-number field of a line, read without parsing the whole record (the
    first occurrence: a field name inside a JSON string is always escaped)."""
    mark = f',"{name}":'.encode()
    at = line.find(mark)
    if at < 0:
        return None
    start = stop = at + len(mark)
    while stop < len(line) and line[stop : stop + 1].isdigit():
        stop += 1
    return int(line[start:stop]) if stop > start else None


def seq_of(line: bytes) -> int | None:
    """The sequence number of a line."""
    return int_field(line, "seq")


def not_applied_ref(line: bytes) -> int | None:
    """The record an ``audit.not_applied`` line says never happened, else None."""
    if b'"command":"audit.not_applied"' not in line:
        return None
    return int_field(line, "ref")


def prev_of(line: bytes) -> str | None:
    at = line.find(b',"prev":"')
    return None if at < 0 else line[at + 9 : at + 73].decode("ascii", "replace")


def segment_number(name: str) -> int | None:
    """The number of a segment file's name, exactly as :func:`segment_path` writes it
    (``audit-000001.jsonl``, ``audit-1234567.jsonl``); None for any other name.

    Only those names are the log: a copy under another name (``audit-1.jsonl``,
    ``audit-0000001.jsonl``, ``audit-000001.jsonl.bak``) is never read, so it can
    neither stand in for a segment nor be taken for a second one."""
    match = SEGMENT_NAME.fullmatch(name)
    if match is None:
        return None
    number = int(match.group(1))
    return number if number >= 1 and segment_path(Path(), number).name == name else None


def segments(directory: Path) -> list[tuple[int, Path]]:
    """The log's segment files, in order."""
    try:
        names = os.listdir(directory)
    except FileNotFoundError:
        return []
    found = [
        (number, directory / name) for name in names if (number := segment_number(name)) is not None
    ]
    return sorted(found)


def unexpected_files(directory: Path) -> list[str]:
    """Names in the log's directory that are neither segments nor the log's own files
    (sorted): nothing reads them; ``audit verify`` mentions them."""
    try:
        names = os.listdir(directory)
    except FileNotFoundError:
        return []
    return sorted(
        name for name in names if name not in KNOWN_FILES and segment_number(name) is None
    )


def last_record(path: Path) -> tuple[int, str] | None:
    """(seq, hash) of a segment's last record; None if there is no such segment or no
    record at its end. StorageError if the segment exists but cannot be read."""
    line = last_record_line(path)
    seq = None if line is None else seq_of(line)
    return None if line is None or seq is None else (seq, line_hash(line))


def last_record_line(path: Path) -> bytes | None:
    """A segment's last non-empty line; None if there is no such segment or no line in
    its last 64 KiB. StorageError if the segment exists but cannot be read."""
    try:
        with open(path, "rb") as handle:
            handle.seek(0, os.SEEK_END)
            size = handle.tell()
            handle.seek(max(0, size - 65536))
            data = handle.read()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise read_error(path, exc) from None
    lines = [line for line in data.split(b"\n") if line]
    return lines[-1] if lines else None


def find_record(directory: Path, seq: int) -> bytes | None:
    """The line of record ``seq``, searched from the end of the log backwards."""
    for line in _backwards(directory):
        found = seq_of(line)
        if found == seq:
            return line
        if found is not None and found < seq:
            return None
    return None


def lines_after(directory: Path, seq: int) -> list[bytes]:
    """The lines of the records after ``seq``, newest first (read from the end)."""
    out = []
    for line in _backwards(directory):
        found = seq_of(line)
        if found is not None and found <= seq:
            break
        out.append(line)
    return out


def _backwards(directory: Path) -> Iterator[bytes]:
    """Every non-empty line of the log, from the newest back, read in 1 MiB chunks."""
    chunk = 1 << 20
    for _, path in reversed(segments(directory)):
        try:
            with open(path, "rb") as handle:
                end = handle.seek(0, os.SEEK_END)
                carry = b""
                while end > 0:
                    start = max(0, end - chunk)
                    handle.seek(start)
                    lines = (handle.read(end - start) + carry).split(b"\n")
                    carry = lines.pop(0) if start > 0 else b""
                    for line in reversed(lines):
                        if line:
                            yield line
                    end = start
        except FileNotFoundError:
            continue  # removed meanwhile: the chain checks say what that means
        except OSError as exc:
            raise read_error(path, exc) from None


def read_error(path: Path, exc: OSError) -> StorageError:
    """A segment that exists but cannot be read: an access problem, not evidence of tampering."""
    return StorageError(
        f"cannot read the audit log segment {path.name}: {_fs.reason(exc)}",
        hint="check the permissions of <home>/audit",
    )


# -- the space kept for deletes ---------------------------------------------------------


def keep_reserve(directory: Path) -> None:
    """Make ``directory/.reserve`` hold :data:`RESERVE_BYTES` of allocated space, if the
    disk has room for it (best effort: a log without a reserve still works)."""
    try:
        fd = os.open(
            directory / RESERVE_NAME, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600
        )
    except OSError:
        return
    try:
        if os.fstat(fd).st_size < RESERVE_BYTES:
            os.posix_fallocate(fd, 0, RESERVE_BYTES)
    except OSError as exc:
        with suppress(OSError):
            os.ftruncate(fd, 0)  # a part of a reserve is no use to hold back
        _oplog.warning("audit_reserve_unavailable", reason=_fs.reason(exc))
    finally:
        os.close(fd)


def release_reserve(directory: Path) -> bool:
    """Give the space of ``directory/.reserve`` back to the file system; True if it held
    any."""
    try:
        fd = os.open(directory / RESERVE_NAME, os.O_RDWR | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        if os.fstat(fd).st_size == 0:
            return False
        os.ftruncate(fd, 0)
        return True
    except OSError:
        return False
    finally:
        os.close(fd)


def short_of_space(fd: int) -> bool:
    """Whether the file system of ``fd`` has less room than the reserve holds."""
    try:
        info = os.fstatvfs(fd)
    except OSError:
        return False
    return info.f_bavail * info.f_frsize < RESERVE_BYTES
