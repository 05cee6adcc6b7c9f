"""The audit log's files: segment names, reading records back, hashing lines.

Shared by the appender (``_audit``), ``audit verify`` and the review commands.
Nothing here needs a key.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterator
from pathlib import Path

from .. import _fs
from ..errors import StorageError

SCHEMA_VERSION = 1
SEGMENT_NAME = re.compile(r"audit-(\d{6,9})\.jsonl")


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


def segments(directory: Path) -> list[tuple[int, Path]]:
    """The log's segment files, in order."""
    try:
        names = os.listdir(directory)
    except FileNotFoundError:
        return []
    found = [
        (int(m.group(1)), directory / name) for name in names if (m := SEGMENT_NAME.fullmatch(name))
    ]
    return sorted(found)


def last_record(path: Path) -> tuple[int, str] | None:
    """(seq, hash) of a segment's last record; None if there is no such segment or no
    record at its end. StorageError if the segment exists but cannot be read."""
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
    if not lines:
        return None
    seq = seq_of(lines[-1])
    return None if seq is None else (seq, line_hash(lines[-1]))


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
