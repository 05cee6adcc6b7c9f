"""Opening a vault's keys, and its users as the store holds them: made whole in one
recorded transaction, and a store of format 1 brought to the ledger format once.

A user is created with their first data key and their audit key in the same
store transaction as their ``user.create`` record, which advances the store's
ledger (``audit/_ledger.py``) by one user: a user's rows removed later, or a
``users`` row deleted, no longer match the ledger's count, so the vault refuses
to open instead of starting that user afresh with an empty namespace.
"""

from __future__ import annotations

import os
from pathlib import Path

from .. import _crypto, keys
from .._crypto import Key
from ..audit import AuditKeys, AuditLog, Event, Ledger, LedgerState, UserAuditKey
from ..errors import IntegrityError, MasterKeyError, VaultError
from ..keys import MasterKeys
from ..store import Store


def create_user(store: Store, master: MasterKeys, audit: AuditLog, user: str) -> int:
    """A new user; returns their id. Inside :meth:`AuditLog.holding` and a store write
    transaction."""
    token = master.user_token(user)
    user_id = store.insert_user(token, master.seal_user_name(user, token), 1)
    store.insert_data_key(user_id, 1, master.wrap(_crypto.new_key(), token, 1))
    store.insert_audit_key(user_id, master.wrap_audit_key(_crypto.new_key(), token))
    event = Event("user.create", user=UserAuditKey(None, audit.keys.user(user)))
    audit.record(event, txn=True, change=(1, 0))
    return user_id


def prepare(store: Store, master: MasterKeys, audit: AuditLog, version: int) -> None:
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


def _upgrade(store: Store, master: MasterKeys, audit: AuditLog) -> None:
    for user_id, token in store.users_without_audit_key():
        store.insert_audit_key(user_id, master.wrap_audit_key(_crypto.new_key(), token))
    users, nodes, _ = store.counts()
    assert audit.ledger is not None
    audit.ledger.save(LedgerState(0, users, nodes))
    store.mark_upgraded()
    details = {"from": 1, "to": 2, "users": users, "nodes": nodes}
    audit.record(Event("vault.upgrade", details=details), txn=True, change=(0, 0))


def open_keys(
    store: Store, home: Path, key_file: str | os.PathLike[str] | None
) -> tuple[MasterKeys, AuditKeys, Ledger, str, bool, int]:
    """Find (or, for a new vault, make) the master key and prove it opens this vault:
    (master keys, audit keys, ledger, where the key came from, whether the vault was
    created now, the store's format version).

    A new vault is made in steps that each survive a crash: its id is
    committed first, then the key file named by that id is written, then
    the key check value is committed. An open that finds a vault id without
    a check value finishes the job with the key file already there.
    """
    store.check_structure()  # before taking the write lock: it reads every page
    with store.transaction(write=True, action="opening the vault"):
        version = store.initialize()
        raw_id = store.get_meta("vault_id")
        check = store.get_meta("key_check")
        # Only a store that never held anything may be (re)started as a new
        # vault: missing identity records next to data mean damage, and
        # adopting a new key there would hide the old data behind it.
        if (raw_id is None or check is None) and not store.is_empty():
            raise IntegrityError(
                f"the vault database in {home} holds memories but lacks its "
                f"{'vault id' if raw_id is None else 'key check value'}",
                hint="the store was damaged or modified; restore the home from a backup",
            )
        if raw_id is None:
            raw_id = _crypto.new_id().hex().encode()
            store.set_meta("vault_id", raw_id)
    vault_id = raw_id.decode("ascii", "replace")
    try:
        if len(bytes.fromhex(vault_id)) != _crypto.ID_SIZE:
            raise ValueError
    except ValueError:
        raise IntegrityError(f"the vault id in {home} is damaged") from None
    source = keys.provider_for(keys.ProviderOptions(key_file=key_file), vault_id, home, None)
    created = False
    if check is None:
        master = source.mint(vault_id, replacing=False).key
        with store.transaction(write=True, action="creating the vault"):
            check = store.get_meta("key_check")
            if check is None:  # else another process finished creating it meanwhile
                check = keys.check_value(master, vault_id)
                store.set_meta("key_check", check)
                created = True
    else:
        master = source.keys(vault_id, {})[0]
    try:
        keys.verify_master(master, vault_id, check, source.describe())
    except MasterKeyError:
        _second_witness(store, master, vault_id)
        raise
    return (
        MasterKeys(master, vault_id),
        AuditKeys(master, vault_id),
        Ledger(store, master, vault_id),
        source.describe(),
        created,
        version,
    )


def _second_witness(store: Store, master: Key, vault_id: str) -> None:
    """The key failed the key check value: if it opens the store's sealed ledger, the key
    is right and the check value was damaged; say so instead of blaming the key."""
    try:
        with store.transaction(write=False, action="opening the vault"):
            state = Ledger(store, master, vault_id).load()
    except VaultError:
        return
    if state is not None:
        raise IntegrityError(
            f"the key check value of vault {vault_id} is damaged (modified outside "
            "memvault): the master key is right, it opens the store's ledger",
            hint="restore the home from a backup, or run `memvault audit verify`",
        )
