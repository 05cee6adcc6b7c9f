"""Unlocking a vault: its master key from a provider, proved against the vault's record.

The store keeps, in ``meta``: the record of the current master-key generation
(``master``: provider kind, parameters, key id, creation time) and its key check
value (``key_check``, bound to the record); while a master-key rotation is under
way, the next generation's record (``master_next``), the next key sealed under
the current one (``master_next_key``) and its check value (``key_check_next``);
once the first key was rotated away, the stable secrets sealed under the
current key (``secrets``). Vaults made before records were kept have no
``master`` record: their key is generation 1, kept in a file or the environment.

A new vault is made in steps that each survive a crash: its id is committed
first, then the provider mints the key (a key file named by that id is
written), then the record and the key check value are committed. An open
that finds a vault id without a check value finishes the job.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .. import _crypto, keys
from .._crypto import Key
from ..audit import AuditKeys, Ledger
from ..errors import IntegrityError, MasterKeyError, VaultError
from ..keys import KeyProvider, MasterKeys, MasterRecord, ProviderOptions, VaultSecrets
from ..store import Store

# The ``meta`` values that say which master keys open the vault.
_RECORDS = ("master", "key_check", "master_next", "master_next_key", "key_check_next", "secrets")


@dataclass
class Unlocked:
    """An opened vault's keys, and what opening learned."""

    master: MasterKeys
    audit_keys: AuditKeys
    ledger: Ledger
    provider: KeyProvider
    created: bool  # the vault was created by this open
    version: int  # the store's format version, as found
    secrets: VaultSecrets  # the stable secrets the audit keys and ledgers come from


@dataclass
class Generations:
    """The master keys a vault is open with: the current generation's, and the next's
    while a rotation is under way (then the primary: new wraps go under it)."""

    keys: dict[int, Key]
    primary: int
    current: int
    record: MasterRecord | None
    pending: MasterRecord | None
    secrets: VaultSecrets


def open_keys(store: Store, home: Path | None, chosen: ProviderOptions | KeyProvider) -> Unlocked:
    """Find (or, for a new vault, make) the master key and prove it opens this vault."""
    version, vault_id, check = _identity(store, home)
    recorded = _read_record(store, "master")
    provider = _provider(chosen, vault_id, home, recorded.provider if recorded else None)
    created = False
    if check is None:
        created = _create(store, provider, vault_id)
    generations = load_generations(store, provider, vault_id, {})
    if generations.record is not None:  # a rotation's last step, if it did not run
        keys.retire_key_file(generations.record.retires, vault_id)
    master = MasterKeys(
        generations.keys, vault_id, primary=generations.primary, secrets=generations.secrets
    )

    def refresh() -> None:
        again = load_generations(store, provider, vault_id, generations.keys)
        generations.keys = again.keys
        master.adopt(again.keys, again.primary)

    master.refresh = refresh
    return Unlocked(
        master,
        AuditKeys(generations.secrets, vault_id),
        Ledger(store, generations.secrets, vault_id),
        provider,
        created,
        version,
        generations.secrets,
    )


def _provider(
    chosen: ProviderOptions | KeyProvider, vault_id: str, home: Path | None, recorded: str | None
) -> KeyProvider:
    if isinstance(chosen, ProviderOptions):
        return keys.provider_for(chosen, vault_id, home, recorded)
    keys.chosen_kind(ProviderOptions(kind=chosen.kind), recorded)  # the wrong kind is refused
    return chosen


def _identity(store: Store, home: Path | None) -> tuple[int, str, bytes | None]:
    """(format version, vault id, key check value) — the id made now for a new vault."""
    with store.transaction(write=True, action="opening the vault"):
        version = store.initialize()
        raw_id = store.get_meta("vault_id")
        check = store.get_meta("key_check")
        # Only a store that never held anything may be (re)started as a new
        # vault: missing identity records next to data mean damage, and
        # adopting a new key there would hide the old data behind it.
        if (raw_id is None or check is None) and not store.is_empty():
            raise IntegrityError(
                f"the vault database{f' in {home}' if home else ''} holds memories but lacks its "
                f"{'vault id' if raw_id is None else 'key check value'}",
                hint="the store was damaged or modified; restore it from a backup",
            )
        if raw_id is None:
            raw_id = _crypto.new_id().hex().encode()
            store.set_meta("vault_id", raw_id)
    vault_id = raw_id.decode("ascii", "replace")
    try:
        if len(bytes.fromhex(vault_id)) != _crypto.ID_SIZE:
            raise ValueError
    except ValueError:
        raise IntegrityError(f"the vault id{f' in {home}' if home else ''} is damaged") from None
    return version, vault_id, check


def _create(store: Store, provider: KeyProvider, vault_id: str) -> bool:
    """Mint the first master key and commit its record and check value; False if another
    process finished creating the vault meanwhile."""
    minted = provider.mint(vault_id, replacing=False)
    record = MasterRecord.new(1, provider.kind, minted.key, vault_id, minted.params)
    raw = record.encode()
    with store.transaction(write=True, action="creating the vault"):
        if store.get_meta("key_check") is not None:
            return False
        store.set_meta("master", raw)
        store.set_meta("key_check", keys.check_value(minted.key, vault_id, 1, raw))
    return True


def _read_record(store: Store, name: str) -> MasterRecord | None:
    with store.transaction(write=False, action="opening the vault"):
        raw = store.get_meta(name)
    return None if raw is None else MasterRecord.decode(raw)


def load_generations(
    store: Store, provider: KeyProvider, vault_id: str, known: dict[int, Key]
) -> Generations:
    """The master keys the store's records call for, proved against their check values:
    ``known`` ones are reused, the current one is otherwise asked of ``provider``."""
    meta = store.get_metas(_RECORDS)  # one statement: one snapshot, in a transaction or not
    raw, check = meta.get("master"), meta.get("key_check")
    pending = meta.get("master_next"), meta.get("master_next_key")
    next_check, sealed_secrets = meta.get("key_check_next"), meta.get("secrets")
    if check is None:
        raise IntegrityError(f"the key check value of vault {vault_id} is missing")
    record = MasterRecord.decode(raw) if raw is not None else None
    current = record.generation if record else 1
    keys.check_shape(check, vault_id, current)
    key = _prove(store, provider, vault_id, known.get(current), check, current, raw or b"")
    found = {current: key}
    primary = current
    next_record = None
    if pending[0] is not None:
        next_record = MasterRecord.decode(pending[0], "record of the next master key")
        if pending[1] is None or next_check is None or next_record.generation != current + 1:
            raise IntegrityError("the vault's record of a master-key rotation is incomplete")
        following = keys.open_next(key, current, pending[1], vault_id)
        if not keys.opens_check(following, vault_id, next_check, current + 1, pending[0]):
            raise IntegrityError("the next master key of a rotation fails its check")
        found[current + 1] = following
        primary = current + 1
    secrets = _secrets(key, current, sealed_secrets, vault_id)
    return Generations(found, primary, current, record, next_record, secrets)


def _secrets(key: Key, generation: int, sealed: bytes | None, vault_id: str) -> VaultSecrets:
    if sealed is not None:
        return VaultSecrets.open(sealed, key, generation, vault_id)
    if generation != 1:
        raise IntegrityError(
            "the vault's sealed secrets are missing (modified outside memvault)",
            hint="restore the home from a backup; nothing was changed",
        )
    return VaultSecrets.derive(key, vault_id)


def _prove(
    store: Store,
    provider: KeyProvider,
    vault_id: str,
    known: Key | None,
    check: bytes,
    generation: int,
    record: bytes,
) -> Key:
    """The key of ``generation``: ``known``, or the provider's key that opens the check
    value (a key file whose next key the vault committed to is settled now)."""
    if known is not None:
        return known
    candidates = provider.keys(vault_id, _params(record))
    for key in candidates:
        if keys.opens_check(key, vault_id, check, generation, record):
            # A rotation that committed to a next key its provider still keeps aside
            # did not run its last step: run it now.
            provider.settle(vault_id, key)
            return key
    _second_witness(store, candidates[0], vault_id)
    raise MasterKeyError(
        f"the master key from {provider.describe()} does not open vault {vault_id}",
        hint="this key belongs to another vault, the key file was replaced or the wrong "
        "passphrase was given (use the right key), or the vault's key check value was "
        "modified (restore the database from a backup). Nothing was changed.",
    )


def _params(record: bytes) -> dict[str, str | int]:
    return MasterRecord.decode(record).params if record else {}


def _second_witness(store: Store, master: Key, vault_id: str) -> None:
    """The key failed the key check value: if it opens the store's sealed ledger, the key
    is right and the check value was damaged; say so instead of blaming the key."""
    try:
        with store.transaction(write=False, action="opening the vault"):
            sealed = store.get_meta("secrets")
            state = Ledger(store, _secrets(master, 1, sealed, vault_id), vault_id).load()
    except VaultError:
        return
    if state is not None:
        raise IntegrityError(
            f"the key check value of vault {vault_id} is damaged (modified outside "
            "memvault): the master key is right, it opens the store's ledger",
            hint="restore the home from a backup, or run `memvault audit verify`",
        )
