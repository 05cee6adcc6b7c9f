"""How ``sqlite3`` errors become the vault's: damage is an IntegrityError, anything else a
StorageError whose hint fits its cause (a lock is not a full disk).

SQLite's own messages are fixed texts and are kept; a decoding error quotes the stored
bytes, so only its column name is.
"""

from __future__ import annotations

import re
import sqlite3

from ..errors import IntegrityError, StorageError

DAMAGED_HINT = "restore the home from a backup; nothing was changed"

_DECODE = re.compile(r"Could not decode to UTF-8 column '([A-Za-z0-9_]{1,64})'")


def storage_error(exc: sqlite3.Error, action: str) -> StorageError | IntegrityError:
    """``exc``, met while ``action``, as the vault's error."""
    text = str(exc)
    name = getattr(exc, "sqlite_errorname", None) or ""
    decode = _DECODE.match(text)
    if decode is not None or text.startswith("Could not decode"):
        column = decode.group(1) if decode is not None else "?"
        return IntegrityError(
            f"the vault database holds text where memvault stores bytes (column "
            f"'{column}'), while {action}: it was modified outside memvault",
            hint=DAMAGED_HINT,
        )
    if isinstance(exc, sqlite3.IntegrityError) or name.startswith("SQLITE_CONSTRAINT"):
        return IntegrityError(
            f"the vault database refused a change that conflicts with its stored rows "
            f"({text}), while {action}: rows were deleted or changed outside memvault",
            hint=DAMAGED_HINT,
        )
    if name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")) or (
        isinstance(exc, sqlite3.DatabaseError)
        and ("malformed" in text or "not a database" in text or "corrupt" in text)
    ):
        return IntegrityError(
            f"the vault database is corrupted ({text}) while {action}",
            hint="restore the home from a backup; nothing was changed",
        )
    return StorageError(
        f"the vault database could not complete the operation while {action}: {text}",
        hint=_storage_hint(name, text),
    )


def _storage_hint(name: str, text: str) -> str:
    """What an operator can do about a store error that is not damage."""
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "locked" in text:
        return (
            "another process held the vault database's lock too long (a long command, or a "
            "hung process); nothing was changed: try again"
        )
    if name.startswith("SQLITE_FULL") or text == "database or disk is full":
        return "free space on the home's file system; nothing was changed"
    if name.startswith(("SQLITE_READONLY", "SQLITE_PERM", "SQLITE_CANTOPEN", "SQLITE_AUTH")):
        return "check the permissions of the home and its files; nothing was changed"
    if name.startswith("SQLITE_IOERR"):
        return "check the disk, its free space and the system log; nothing was changed"
    return "nothing was changed"


# -- values read back from the store ---------------------------------------------------


def blob(value: object, where: str = "a row") -> bytes:
    """A BLOB column's value; anything else means the row was tampered with."""
    if isinstance(value, bytes):
        return value
    raise IntegrityError(_DAMAGED.format(where=where), hint=DAMAGED_HINT)


def integer(value: object, where: str = "a row") -> int:
    if isinstance(value, int):
        return value
    raise IntegrityError(_DAMAGED.format(where=where), hint=DAMAGED_HINT)


def synced_mark(value: object) -> int:
    """The stored ``audit_synced`` mark: decimal digits, as :meth:`set_audit_synced` writes."""
    raw = blob(value, "meta 'audit_synced'")
    if not raw.isdigit() or len(raw) > 19:
        raise IntegrityError(
            "the vault database's audit sync mark is damaged (modified outside memvault)",
            hint="run `memvault audit verify`; restore the home from a backup",
        )
    return int(raw)


_DAMAGED = (
    "the vault database holds a value of the wrong type in {where} (modified outside memvault)"
)
DAMAGED_HINT = "restore the home from a backup; nothing was changed"
