"""Opening a vault's keys, and its users as the store holds them: made whole in one
recorded transaction, and a store of format 1 brought to the ledger format once.

A user is created with their first data key and their audit key in the same
store transaction as their ``user.create`` record, which advances the store's
ledger (``audit/_ledger.py``) by one user. Before a user is created, the users
table is read whole: a user the indexed look-up missed (a damaged index), or a
``users`` row deleted (the ledger counts one more than the table holds), is
refused instead of starting that user afresh with an empty namespace.
"""

from __future__ import annotations

import unicodedata

from .. import _crypto
from .._text import REFUSED_CATEGORIES
from ..audit import Event, LedgerState, Log, UserAuditKey
from ..errors import IntegrityError, UsageError
from ..keys import MasterKeys, MasterRecord
from ..store import Store

MAX_USER_BYTES = 255


def check_user(user: object) -> str:
    """A user id must be a short, printable, non-empty string; it is returned in NFC.

    Ids are compared in NFC, as names of files are: ``e\\u0301`` and ``\\u00e9`` are
    one user, whose keys and records every spelling reaches. The checks run on the
    id as given and on its NFC form, which is the one kept.
    """
    if not isinstance(user, str) or not user:
        raise UsageError("a user id must be a non-empty string")
    if len(user.encode("utf-8", "surrogatepass")) > MAX_USER_BYTES:
        raise UsageError(f"a user id must be at most {MAX_USER_BYTES} bytes of UTF-8")
    if any(unicodedata.category(ch) in REFUSED_CATEGORIES for ch in user):
        raise UsageError("a user id must not contain control or invisible characters")
    canonical = unicodedata.normalize("NFC", user)
    if len(canonical.encode()) > MAX_USER_BYTES:
        raise UsageError(f"a user id must be at most {MAX_USER_BYTES} bytes of UTF-8")
    return canonical


def current_master(store: Store, master: MasterKeys) -> None:
    """Inside a write transaction that is about to wrap a key: make sure ``master`` wraps
    under the generation the store is at now (another process may have rotated the
    master key since this one opened the vault), so nothing is ever wrapped under a
    retired key."""
    raw = store.get_meta("master")
    expected = (MasterRecord.decode(raw).generation if raw is not None else 1) + (
        store.get_meta("master_next") is not None
    )
    if expected != master.generation and master.refresh is not None:
        master.refresh()
    if expected != master.generation:
        raise IntegrityError(
            "the vault's master key changed while this process had it open, and the new "
            "key could not be loaded",
            hint="open the vault again with the new master key; nothing was changed",
        )


def create_user(store: Store, master: MasterKeys, audit: Log, user: str) -> int:
    """A new user; returns their id. Inside :meth:`AuditLog.holding` and a store write
    transaction."""
    current_master(store, master)
    token = master.user_token(user)
    _check_absent(store, audit, token)
    user_id = store.insert_user(token, master.seal_user_name(user, token), 1)
    store.insert_data_key(user_id, 1, master.wrap(_crypto.new_key(), token, 1))
    store.insert_audit_key(user_id, master.wrap_audit_key(_crypto.new_key(), token))
    event = Event("user.create", user=UserAuditKey(None, audit.keys.user(user)))
    audit.record(event, txn=True, change=(1, 0))
    return user_id


def _check_absent(store: Store, audit: Log, token: bytes) -> None:
    """Refuse to create a user whom the store holds, or whose rows may have been deleted."""
    users, found = store.user_census(token)
    if found:
        raise IntegrityError(
            "the vault database's index of users is damaged: it misses a user the table holds",
            hint="restore the home from a backup; nothing was changed",
        )
    state = audit.ledger.load() if audit.ledger is not None else None
    if state is not None and state.users != users:
        raise IntegrityError(
            f"the audit log and the store disagree: the store holds {users} users, but its "
            f"ledger counts {state.users}: users were deleted or added outside memvault",
            hint="run `memvault audit verify`; restore the home from a backup",
        )


def prepare(store: Store, master: MasterKeys, audit: Log, version: int) -> None:
    """At open, after the log was checked: give a new vault its ledger, and upgrade a
    store of format 1 (audit keys for every user, the ledger over its rows, a
    ``vault.upgrade`` record), each in one transaction that another process may have
    done first."""
    ledger = audit.ledger
    if ledger is None:
        raise IntegrityError("the vault was opened without its ledger")
    if version != 1:
        with store.transaction(write=False, action="opening the vault"):
            if ledger.load() is not None:
                return
    with audit.holding(), store.transaction(write=True, action="upgrading the vault"):
        found = store.initialize()
        if found == 1:
            _upgrade(store, master, audit)
        elif ledger.load() is None:
            if not store.is_empty():
                raise IntegrityError(
                    "the store holds users or memories but no ledger: it was removed",
                    hint="run `memvault audit verify`; restore the home from a backup",
                )
            ledger.save(LedgerState(0, 0, 0))


def _upgrade(store: Store, master: MasterKeys, audit: Log) -> None:
    for user_id, token in store.users_without_audit_key():
        store.insert_audit_key(user_id, master.wrap_audit_key(_crypto.new_key(), token))
    users, nodes, _ = store.counts()
    assert audit.ledger is not None
    audit.ledger.save(LedgerState(0, users, nodes))
    store.mark_upgraded()
    details = {"from": 1, "to": 2, "users": users, "nodes": nodes}
    audit.record(Event("vault.upgrade", details=details), txn=True, change=(0, 0))
