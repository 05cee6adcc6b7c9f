"""``memvault users export``: a subject-access export of one user's memories.

What the vault holds for the user (GDPR art. 15 and 20), in a form they can
read and take elsewhere: every memory's path and text as stored, that is after
redaction, and every directory. Every memory is read through the same
decryption and integrity checks as the tool's own reads, in one read
transaction, so the export is one consistent snapshot; a memory that fails its
check fails the export rather than being left out.

Two formats. ``json`` (the default), one document::

    {"format": "memvault-export/1", "user": "alice", "vault": "<vault id>",
     "exported": "2026-11-22T05:20:13Z",
     "memories": [{"path": "/memories/notes/a.md", "bytes": 12, "text": "..."}],
     "directories": ["/memories/notes"]}

with memories and directories in pre-order (each directory's entries sorted by
name), ``bytes`` the UTF-8 length of ``text``. ``tar``: a POSIX (pax) archive of
``memories/`` with each directory and file (modes 0700 and 0600, the time of the
export), the layout of the SDK's reference backend, so ``memvault import`` takes
it back once unpacked.

The file is written whole or not at all, mode 0600 (:func:`memvault._fs.new_file`),
never inside the vault's home, and never over an existing file unless asked. The
``users.export`` record (the user's pseudonym, the format and the counts; never
the file's name or contents) is appended before the file is written: an export
that cannot be recorded does not happen.
"""

from __future__ import annotations

import io
import json
import os
import tarfile
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .. import _fs
from .._text import clean_text
from ..audit import Event
from ..errors import UsageError
from ..memory import Tree
from ._parts import Parts

EXPORT_RECORD = "users.export"
EXPORT_FORMATS = ("json", "tar")
FORMAT_ID = "memvault-export/1"
_ROOT = "/memories"


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A user's memories as stored, read in one transaction: (path, UTF-8 bytes) of each
    file and the path of each directory, in pre-order."""

    files: list[tuple[str, bytes]]
    directories: list[str]


@dataclass(frozen=True, slots=True)
class ExportReport:
    """A finished export: what was written where."""

    user: str
    out: Path
    format: str
    exported: str  # UTC, RFC 3339, to the second
    memories: int
    directories: int
    bytes: int  # the size of the file written

    def to_json(self) -> dict[str, Any]:
        return {
            "user": self.user,
            "out": clean_text(str(self.out)),
            "format": self.format,
            "exported": self.exported,
            "memories": self.memories,
            "directories": self.directories,
            "bytes": self.bytes,
        }


def export_memories(
    parts: Parts, user: str, out: Path, *, fmt: str = "json", overwrite: bool = False
) -> ExportReport:
    """Write ``user``'s memories, as stored, to the new file ``out`` in ``fmt``
    (``json`` or ``tar``); ``overwrite`` replaces an existing file. Raises
    :class:`UsageError` for an unknown user or format, an existing ``out`` (without
    ``overwrite``) or one inside the vault's home, and records nothing then."""
    if fmt not in EXPORT_FORMATS:
        raise UsageError(f"{clean_text(fmt)!r} is not an export format", hint="use json or tar")
    target = Path(os.path.abspath(out))
    _check_target(parts.home, target, overwrite)
    snapshot = read_snapshot(parts, user)
    now = datetime.now(UTC).replace(microsecond=0)
    exported = now.strftime("%Y-%m-%dT%H:%M:%SZ")
    if fmt == "json":
        data = _json_document(parts, user, exported, snapshot)
    else:
        data = _tar_archive(snapshot, int(now.timestamp()))
    details = {
        "format": fmt,
        "memories": len(snapshot.files),
        "directories": len(snapshot.directories),
    }
    parts.record(Event(EXPORT_RECORD, user=parts.user_key(user), details=details))
    with _fs.new_file(target, mode=0o600, replace=overwrite) as write:
        write(data)
    return ExportReport(
        user, target, fmt, exported, len(snapshot.files), len(snapshot.directories), len(data)
    )


def read_snapshot(parts: Parts, user: str) -> Snapshot:
    """Every memory and directory of ``user``, opened and authenticated in one read
    transaction. An unknown user is a :class:`UsageError`, and is not created."""
    token = parts.master.user_token(user)
    with parts.lock:
        with parts.store.transaction(write=False, action="reading the users"):
            found = parts.store.user_by_lookup(token)
        if found is None:
            raise UsageError(
                f"the vault has no user {clean_text(user)!r}",
                hint="user ids are compared exactly (in Unicode NFC); `memvault audit show "
                "--command user.create` lists the users the vault has created",
            )
        tree = Tree(parts.store, parts.master, found[0], token)
        files: list[tuple[str, bytes]] = []
        directories: list[str] = []
        with tree.transaction(write=False):
            for entry in tree.everything():
                path = "/".join((_ROOT, *entry.parts))
                if entry.node.is_dir:
                    directories.append(path)
                else:
                    files.append((path, tree.read(entry.node).raw))
    return Snapshot(files, directories)


def _check_target(home: Path | None, target: Path, overwrite: bool) -> None:
    where = target.parent.resolve() / target.name
    home = home.resolve() if home is not None else None  # (a vault in a database: no home)
    if home is not None and (where == home or home in where.parents):
        raise UsageError(
            f"{clean_text(str(target))} is inside the vault's home, where an export could "
            "replace the vault's own files and would sit beside them in every backup",
            hint="write the export outside the home",
        )
    if not target.parent.is_dir():  # checked before the export is recorded
        raise UsageError(
            f"cannot write {clean_text(str(target))}: the directory "
            f"{clean_text(str(target.parent))} does not exist",
            hint="create it first, or choose another place",
        )
    if not overwrite and os.path.lexists(target):
        raise UsageError(
            f"{clean_text(str(target))} already exists; it was left as it is",
            hint="choose a new file name, or pass --overwrite to replace it",
        )


def _json_document(parts: Parts, user: str, exported: str, snapshot: Snapshot) -> bytes:
    document = {
        "format": FORMAT_ID,
        "user": user,
        "vault": parts.master.vault_id,
        "exported": exported,
        "memories": [
            {"path": path, "bytes": len(raw), "text": raw.decode()} for path, raw in snapshot.files
        ],
        "directories": snapshot.directories,
    }
    return (json.dumps(document, ensure_ascii=False, indent=2) + "\n").encode()


def _tar_archive(snapshot: Snapshot, mtime: int) -> bytes:
    """``memories/`` and everything in it, owned by nobody in particular (uid and gid 0,
    no names), so the archive says nothing of the machine it was made on."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as archive:
        archive.addfile(_member("memories", tarfile.DIRTYPE, 0o700, mtime))
        for path in snapshot.directories:
            archive.addfile(_member(path.lstrip("/"), tarfile.DIRTYPE, 0o700, mtime))
        for path, raw in snapshot.files:
            member = _member(path.lstrip("/"), tarfile.REGTYPE, 0o600, mtime)
            member.size = len(raw)
            archive.addfile(member, io.BytesIO(raw))
    return buffer.getvalue()


def _member(name: str, kind: bytes, mode: int, mtime: int) -> tarfile.TarInfo:
    member = tarfile.TarInfo(name)
    member.type, member.mode, member.mtime = kind, mode, mtime
    member.uid = member.gid = 0
    member.uname = member.gname = ""
    return member
