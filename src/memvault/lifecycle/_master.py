"""``keys rotate-master``: a new master key; every wrapped key re-wrapped under it; the old
one retired. No memory is re-encrypted.

Each step is a store transaction (or a provider's atomic file operation), so the
rotation can be interrupted anywhere:

1. **begin**: the provider mints the next key (a key file writes ``<file>.next``
   and leaves the current file alone); the store records the next generation,
   the next key sealed under the current one, and its check value. From then on,
   every process holding the current key also holds the next (it opens the
   sealed copy), and new wraps go under the next generation;
2. **batches** of users: each user's sealed id, data keys and audit key are
   re-wrapped under the next generation's keys;
3. **commit**: one transaction sweeps any wrap still under the current generation
   (another process may have added a user meanwhile), makes the next generation
   current (record, check value, the stable secrets sealed under the new key),
   forgets the sealed copy, and writes the ``keys.rotate_master`` record;
4. **settle**: the provider makes the new key the one kept (``<file>.next``
   replaces the old file; an open finishes this step if it was interrupted), and
   a key kept by another provider before is removed.

A re-run finds a rotation under way (step 1 recorded) and finishes it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

from .. import _crypto, keys
from ..audit import Event
from ..errors import IntegrityError, MasterKeyError, UsageError
from ..keys import KeyProvider, MasterRecord
from ..memory import accounts
from ..store import UserWraps
from ._parts import Parts, operator

BATCH_USERS = 200

# Called after each batch with the number of users whose keys it re-wrapped.
UserProgress = Callable[[int], None]
# Builds the provider of the next key: None: the one asked for; a kind: the one that
# minted a rotation under way (to settle it).
NewProvider = Callable[[str | None], KeyProvider]


@dataclass(frozen=True)
class MasterRotation:
    """What a master-key rotation did."""

    from_key_id: str
    to_key_id: str
    from_generation: int
    to_generation: int
    provider: str  # the kind of provider that keeps the new key
    users: int
    resumed: bool
    reason: str
    key_file: str | None = None  # where the new key is kept, when in a key file


def pending_rotation(parts: Parts) -> MasterRecord | None:
    """The next generation's record if a master-key rotation is under way."""
    with parts.lock, parts.store.transaction(write=False, action="reading the master key"):
        raw = parts.store.get_meta("master_next")
    return None if raw is None else MasterRecord.decode(raw, "record of the next master key")


def current_record(parts: Parts) -> MasterRecord | None:
    with parts.lock, parts.store.transaction(write=False, action="reading the master key"):
        raw = parts.store.get_meta("master")
    return None if raw is None else MasterRecord.decode(raw)


def begin(parts: Parts, new_provider: NewProvider) -> tuple[MasterRecord, bool]:
    """Record the next master key (minted by ``new_provider(kind of a pending rotation)``),
    or find the rotation already under way: (its record, whether it was under way)."""
    pending = pending_rotation(parts)
    if pending is not None:
        _adopt_pending(parts)
        return pending, True
    provider = new_provider(None)
    minted = provider.mint(parts.master.vault_id, replacing=True)
    store, master = parts.store, parts.master
    with parts.lock, store.transaction(write=True, action="starting the master-key rotation"):
        raw_current = store.get_meta("master")
        if store.get_meta("master_next") is not None:  # another process began meanwhile
            return _found_meanwhile(parts)
        accounts.current_master(store, master)
        generation = MasterRecord.decode(raw_current).generation if raw_current else 1
        current = master.master_key(generation)
        if minted.key == current:
            raise MasterKeyError(
                "the new master key is the current one",
                hint="give a new key (a new passphrase, another key file, a new "
                f"${keys.ENV_NEW_MASTER_KEY}); nothing was changed",
            )
        record = MasterRecord.new(
            generation + 1,
            provider.kind,
            minted.key,
            master.vault_id,
            minted.params,
            _retires(parts.provider, provider, keys.key_id(current, master.vault_id)),
        )
        raw = record.encode()
        store.set_meta("master_next", raw)
        store.set_meta(
            "master_next_key", keys.seal_next(current, generation, minted.key, master.vault_id)
        )
        store.set_meta(
            "key_check_next", keys.check_value(minted.key, master.vault_id, generation + 1, raw)
        )
    master.adopt({generation: current, generation + 1: minted.key}, generation + 1)
    return record, False


def _found_meanwhile(parts: Parts) -> tuple[MasterRecord, bool]:
    raw = parts.store.get_meta("master_next")
    assert raw is not None
    record = MasterRecord.decode(raw, "record of the next master key")
    _adopt_pending(parts)
    return record, True


def _adopt_pending(parts: Parts) -> None:
    """Make sure this process holds the next generation a rotation recorded."""
    if parts.master.refresh is not None:
        parts.master.refresh()


def rewrap_all(parts: Parts, progress: UserProgress | None = None) -> int:
    """Re-wrap every user's id and keys under the primary (next) generation, in batches;
    returns how many users had anything re-wrapped."""
    after = done = 0
    while True:
        with parts.lock, parts.store.transaction(write=True, action="re-wrapping keys"):
            rows = parts.store.user_wraps(after, BATCH_USERS)
            count = sum(_rewrap(parts, row) for row in rows)
        if not rows:
            return done
        parts.store.pause_for_writers()
        after = rows[-1].id
        done += count
        if progress is not None:
            progress(len(rows))


def _rewrap(parts: Parts, row: UserWraps) -> bool:
    """Re-wrap one user's id and keys if any is under another generation; True if so."""
    master = parts.master
    target = master.generation
    blobs = [row.name, *(w for _, w in row.data_keys)]
    if row.audit_key is not None:
        blobs.append(row.audit_key)
    if all(_crypto.blob_version(b) == target for b in blobs):
        return False
    name = master.open_user_name(row.name, row.lookup)
    data_keys = [
        (v, master.wrap(master.unwrap(w, row.lookup, v), row.lookup, v)) for v, w in row.data_keys
    ]
    audit_key = (
        None
        if row.audit_key is None
        else master.wrap_audit_key(master.unwrap_audit_key(row.audit_key, row.lookup), row.lookup)
    )
    parts.store.rewrap_user(
        UserWraps(row.id, row.lookup, master.seal_user_name(name, row.lookup), data_keys, audit_key)
    )
    return True


def commit(
    parts: Parts, record: MasterRecord, *, users: int, resumed: bool, reason: str
) -> MasterRotation:
    """Make the next generation current, in one recorded transaction."""
    store, master = parts.store, parts.master
    with (
        parts.lock,
        parts.audit.holding(),
        store.transaction(write=True, action="committing the master-key rotation"),
    ):
        raw_next = store.get_meta("master_next")
        if raw_next is None or MasterRecord.decode(raw_next) != record:
            raise IntegrityError("the master-key rotation under way changed while it ran")
        raw_current = store.get_meta("master")
        previous = MasterRecord.decode(raw_current) if raw_current else None
        generation = record.generation - 1
        after = 0
        while rows := store.user_wraps(after, BATCH_USERS):  # the sweep
            users += sum(_rewrap(parts, row) for row in rows)
            after = rows[-1].id
        check = store.get_meta("key_check_next")
        if check is None:
            raise IntegrityError("the vault's record of a master-key rotation is incomplete")
        new_key = master.master_key(record.generation)
        store.set_meta("master", raw_next)
        store.set_meta("key_check", check)
        store.set_meta("secrets", master.secrets.seal(new_key, record.generation))
        for name in ("master_next", "master_next_key", "key_check_next", "rotation_due"):
            store.delete_meta(name)
        result = MasterRotation(
            previous.key_id
            if previous
            else keys.key_id(master.master_key(generation), master.vault_id),
            record.key_id,
            generation,
            record.generation,
            record.provider,
            users,
            resumed,
            reason,
        )
        parts.audit.record(
            Event("keys.rotate_master", details=_details(result, previous)), txn=True
        )
    master.adopt({record.generation: new_key}, record.generation)
    return result


def _details(result: MasterRotation, previous: MasterRecord | None) -> dict[str, object]:
    return {
        "from_key_id": result.from_key_id,
        "to_key_id": result.to_key_id,
        "from_generation": result.from_generation,
        "to_generation": result.to_generation,
        "from_provider": previous.provider if previous else None,
        "to_provider": result.provider,
        "users": result.users,
        "resumed": result.resumed,
        "reason": result.reason,
        "operator": operator(),
    }


def _retires(old: KeyProvider | None, new: KeyProvider, old_key_id: str) -> dict[str, str] | None:
    """The key file to remove once the next key is current: the one that keeps the
    current key, unless the next key replaces it in the same file."""
    if old is None or old.kind != "file":
        return None
    if new.kind == "file" and new.describe() == old.describe():
        return None
    return {"file": old.describe(), "key_id": old_key_id}


def settle(
    parts: Parts, new_provider: NewProvider, record: MasterRecord, result: MasterRotation
) -> MasterRotation:
    """After the commit: the new key becomes the one its provider keeps, and a key file
    that kept the old key elsewhere is removed (an open does both if this is cut short).
    Only key files have anything to do here; ``result`` names the new key's file then."""
    if record.provider == "file":
        provider = new_provider("file")
        provider.settle(parts.master.vault_id)
        result = dataclasses.replace(result, key_file=provider.describe())
    keys.retire_key_file(record.retires, parts.master.vault_id)
    return result


def rotate_master(
    parts: Parts,
    new_provider: NewProvider,
    *,
    reason: str = "rotate",
    progress: UserProgress | None = None,
) -> MasterRotation:
    """Rotate the master key (or finish a rotation under way). ``new_provider(kind)``
    builds the provider of the next key: with ``None``, the one asked for; with a kind,
    the one that minted a rotation under way (to settle it)."""
    if parts.provider is None:
        raise UsageError("the vault was opened without a key provider")
    record, resumed = begin(parts, new_provider)
    users = rewrap_all(parts, progress)
    result = commit(parts, record, users=users, resumed=resumed, reason=reason)
    return settle(parts, new_provider, record, result)
