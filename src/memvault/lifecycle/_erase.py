"""``users erase``: crypto-erasure of one user.

The user's rows go (their data keys, audit key, sealed id, memories) in one
recorded transaction that moves the ledger by one user and their nodes, and
the WAL is checkpointed before the erasure returns, so no copy of a deleted key
stays in it. That is not
enough against a copy of the home taken earlier: it still holds the user's
data keys, wrapped under the current master key's KEK. So the erasure is also a
master-key rotation: the next key is minted (and recorded) before anything is
deleted, every other user's keys are re-wrapped under it, and the current key
is retired. Afterwards no key material that still exists opens the user's
keys, in the live store or in a copy made before (SECURITY.md says what a
backup of the old master key, kept by the operator, still opens).

Interrupted after the deletion, the rotation is finished by a re-run of
``users erase`` or ``keys rotate-master`` (``keys list`` shows it pending).
"""

from __future__ import annotations

from dataclasses import dataclass

from .._log import log as _oplog
from ..audit import Event, UserAuditKey
from ..errors import UsageError
from . import _master
from ._master import MasterRotation, NewProvider, UserProgress
from ._parts import Parts, operator


@dataclass(frozen=True)
class Erasure:
    """What an erasure did."""

    pseudonym: str  # the user's pseudonym in the audit log, which their records keep
    memories: int  # nodes deleted (0 when only an interrupted erasure was finished)
    rotation: MasterRotation
    finished_only: bool  # the user was already gone: an interrupted erasure was finished
    # The write-ahead log was emptied before the erasure returned. False: another process
    # kept reading an older snapshot past PURGE_WAIT_SECONDS, and the deleted rows stay in
    # ``vault.db-wal`` until the next checkpoint it allows.
    purged: bool = True


# How long an erasure waits for other connections to let the WAL be emptied.
PURGE_WAIT_SECONDS = 10.0


def erase_user(
    parts: Parts,
    user: str,
    new_provider: NewProvider,
    progress: UserProgress | None = None,
) -> Erasure:
    """Erase ``user`` for good (see the module's docstring)."""
    pseudonym = parts.audit.keys.user(user)
    token = parts.master.user_token(user)
    with parts.lock, parts.store.transaction(write=False, action="finding the user"):
        found = parts.store.user_by_lookup(token)
        due = parts.store.get_meta("rotation_due")
    if found is None:
        if due is None and _master.pending_rotation(parts) is None:
            raise UsageError(
                "there is no such user in this vault",
                hint="`memvault users list` shows the users (ids are compared in NFC)",
            )
        rotation = _master.rotate_master(parts, new_provider, reason="erase", progress=progress)
        return Erasure(pseudonym, 0, rotation, True, _purge(parts))
    record, resumed = _master.begin(parts, new_provider)
    memories = _delete(parts, found[0], pseudonym)
    users = _master.rewrap_all(parts, progress)
    rotation = _master.commit(parts, record, users=users, resumed=resumed, reason="erase")
    rotation = _master.settle(parts, new_provider, record, rotation)
    # The deleted rows, and the re-wrapped keys' older versions.
    return Erasure(pseudonym, memories, rotation, False, _purge(parts))


def _purge(parts: Parts) -> bool:
    purged = parts.store.purge_wal(wait_seconds=PURGE_WAIT_SECONDS)
    if not purged:
        _oplog.warning("erasure_wal_not_emptied", wait_seconds=PURGE_WAIT_SECONDS)
    return purged


def _delete(parts: Parts, user_id: int, pseudonym: str) -> int:
    """Delete the user's rows with their record; the rotation is then due."""
    store = parts.store
    with (
        parts.lock,
        parts.audit.holding(),
        store.transaction(write=True, action="erasing the user"),
    ):
        nodes = store.delete_user(user_id)
        store.set_meta("rotation_due", b"erase")
        event = Event(
            "users.erase",
            user=UserAuditKey(None, pseudonym),
            details={"memories": nodes, "master_key_rotation": "follows", "operator": operator()},
        )
        parts.audit.record(event, txn=True, change=(-1, -nodes))
    return nodes
