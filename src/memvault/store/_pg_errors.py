"""How psycopg's errors become the vault's, by their SQLSTATE class: a violated constraint
or damaged data is an IntegrityError, anything else (the server unreachable, a lock
waited on too long, a full disk) a StorageError whose hint fits its cause.

Only the server's primary message is quoted: it names constraints, tables and indexes.
Its DETAIL line is never quoted, since for a unique violation it holds the key's value
(a look-up token), and for a data error, the value refused.
"""

from __future__ import annotations

from ..errors import IntegrityError, StorageError
from ._errors import DAMAGED_HINT

_CORRUPTED = ("XX001", "XX002")  # data_corrupted, index_corrupted
_LOCKS = ("55P03", "57014", "40P01", "40001")  # lock timeout, cancel, deadlock, serialization
_RESOURCES = "53"  # insufficient resources: disk full, out of memory, too many connections
_CONNECTION = "08"
_PRIVILEGE = ("42501", "28")  # insufficient privilege; invalid authorization


def reason(exc: BaseException) -> str:
    """What the server (or the driver) said, without a DETAIL that could hold values."""
    diag = getattr(exc, "diag", None)
    primary = getattr(diag, "message_primary", None)
    if primary:
        return str(primary)
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def pg_error(exc: BaseException, action: str) -> StorageError | IntegrityError:
    """``exc`` (a psycopg or pool error), met while ``action``, as the vault's error."""
    state = str(getattr(exc, "sqlstate", None) or "")
    text = reason(exc)
    if state.startswith("23"):
        return IntegrityError(
            f"the vault database refused a change that conflicts with its stored rows "
            f"({text}), while {action}: rows were deleted or changed outside memvault",
            hint=DAMAGED_HINT,
        )
    if state in _CORRUPTED:
        return IntegrityError(
            f"the vault database is corrupted ({text}) while {action}",
            hint="restore the database from a backup; nothing was changed",
        )
    if state.startswith("22"):
        return IntegrityError(
            f"the vault database holds or was given a value of the wrong type ({text}), "
            f"while {action}: it was modified outside memvault",
            hint=DAMAGED_HINT,
        )
    return StorageError(
        f"the vault database could not complete the operation while {action}: {text}",
        hint=_hint(state),
    )


def _hint(state: str) -> str:
    """What an operator can do about a store error that is not damage."""
    if state in _LOCKS:
        return (
            "another process held the vault database's lock too long (a long command, or a "
            "hung process); nothing was changed: try again"
        )
    if state.startswith(_RESOURCES):
        return "check the database server's disk, memory and connection limits; nothing was changed"
    if state.startswith(_PRIVILEGE):
        return "check the database role's privileges and credentials; nothing was changed"
    if state.startswith(_CONNECTION) or not state:
        return "check that the database server is running and reachable; nothing was changed"
    return "nothing was changed"
