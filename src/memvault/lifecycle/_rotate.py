"""``keys rotate``: a user's memories re-sealed under a new data key, the old one destroyed.

A rotation is three kinds of store transaction, each safe to interrupt:

1. **start**: a new data-key version is added and made the user's primary, so
   every write from then on seals under it (older versions still open what
   they sealed, and names are found under the token of either key);
2. **batches** of at most :data:`BATCH_NODES` nodes, :data:`BATCH_BYTES` of text or
   :data:`BATCH_SECONDS` of work: each node's metadata, text and last-used day
   re-sealed, its look-up token re-made. Agents' commands queue on the store's
   write lock for at most one batch, and read a consistent snapshot throughout;
3. **finish**: once no ciphertext of the user is under an older version (read
   from the ciphertexts' own headers), the older versions are destroyed and a
   ``keys.rotate`` record is written, in one transaction.

A user with more than one data-key version has a rotation under way: a re-run
(or ``--all``) finishes it instead of starting another.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from .. import _crypto
from ..audit import Event, UserAuditKey
from ..errors import IntegrityError, UsageError
from ..memory import Tree, accounts
from ._parts import Parts, operator

BATCH_NODES = 24
BATCH_BYTES = 4 << 20
# A batch holds the write lock for less than an agent's command takes, so that a
# command arriving meanwhile waits about that long at most (the store then pauses
# for waiting writers between batches).
BATCH_SECONDS = 0.0007

# Called after each batch with the memories and bytes it re-sealed.
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Rotation:
    """What one user's rotation did."""

    user: str
    pseudonym: str
    retired: tuple[int, ...]  # the versions destroyed
    version: int  # the version every memory of the user is sealed under now
    memories: int
    bytes: int
    resumed: bool  # an interrupted rotation was finished


def find_user(parts: Parts, user: str) -> tuple[int, bytes]:
    """(id, look-up token) of an existing user; UsageError if there is none."""
    token = parts.master.user_token(user)
    with parts.lock, parts.store.transaction(write=False, action="finding the user"):
        found = parts.store.user_by_lookup(token)
    if found is None:
        raise UsageError(
            "there is no such user in this vault",
            hint="`memvault users list` shows the users (ids are compared in NFC)",
        )
    return found[0], token


def pending_memories(parts: Parts, user_id: int) -> int:
    """How many of the user's nodes a rotation starting now would re-seal."""
    with parts.lock, parts.store.transaction(write=False, action="planning the rotation"):
        primary = parts.store.user_primary_version(user_id) or 0
        return parts.store.count_stale(user_id, primary + 1)


def rotate_user(parts: Parts, user: str, progress: Progress | None = None) -> Rotation:
    """Rotate one user's data key (or finish an interrupted rotation)."""
    user_id, token = find_user(parts, user)
    version, retired, resumed = start(parts, user_id, token)
    tree = Tree(parts.store, parts.master, user_id, token)
    memories = size = 0
    while True:
        count, nbytes = _reseal_all(parts, tree, user_id, version, progress)
        memories, size = memories + count, size + nbytes
        if _finish(parts, tree, user, user_id, version, retired, memories, size, resumed):
            break
    return Rotation(user, parts.audit.keys.user(user), retired, version, memories, size, resumed)


def start(parts: Parts, user_id: int, token: bytes) -> tuple[int, tuple[int, ...], bool]:
    """(new version, versions to retire, whether a rotation was already under way)."""
    store = parts.store
    with parts.lock, store.transaction(write=True, action="starting the key rotation"):
        versions = [v for v, _ in store.data_key_versions(user_id)]
        primary = store.user_primary_version(user_id)
        if not versions or primary != max(versions):
            raise IntegrityError(
                "the user's data keys do not match their primary version (modified outside "
                "memvault)",
                hint="run `memvault audit verify`; restore the home from a backup",
            )
        if len(versions) > 1:
            return primary, tuple(v for v in versions if v != primary), True
        accounts.current_master(store, parts.master)
        new = primary + 1
        store.insert_data_key(user_id, new, parts.master.wrap(_crypto.new_key(), token, new))
        store.set_primary_version(user_id, new)
        return new, (primary,), False


def _reseal_all(
    parts: Parts, tree: Tree, user_id: int, version: int, progress: Progress | None
) -> tuple[int, int]:
    """Re-seal, batch by batch, every node of the user with a part under an older key."""
    after = memories = size = 0
    while True:
        with parts.lock, tree.transaction(write=True):
            rows = parts.store.stale_nodes(user_id, version, after, BATCH_NODES)
            count = nbytes = 0
            began = time.monotonic()
            for row in rows:
                nbytes += tree.reseal(row)
                count += 1
                after = row.id
                if nbytes >= BATCH_BYTES or time.monotonic() - began >= BATCH_SECONDS:
                    break
        if not rows:
            return memories, size
        parts.store.pause_for_writers()
        memories, size = memories + count, size + nbytes
        if progress is not None:
            progress(count, nbytes)


def _finish(
    parts: Parts,
    tree: Tree,
    user: str,
    user_id: int,
    version: int,
    retired: tuple[int, ...],
    memories: int,
    size: int,
    resumed: bool,
) -> bool:
    """Destroy the older versions and record the rotation; False if a node under an older
    key is still there (moved behind the batches' cursor meanwhile): re-seal again."""
    store = parts.store
    with (
        parts.lock,
        parts.audit.holding(),
        store.transaction(write=True, action="finishing the key rotation"),
    ):
        tree.join()
        if store.count_stale(user_id, version):
            return False
        tree.reseal_root()
        destroyed = store.delete_data_keys_below(user_id, version)
        details = {
            "from": list(retired),
            "to": version,
            "memories": memories,
            "bytes": size,
            "destroyed": destroyed,
            "resumed": resumed,
            "operator": operator(),
        }
        event = Event(
            "keys.rotate",
            user=UserAuditKey(None, parts.audit.keys.user(user)),
            key_version=version,
            details=details,
        )
        parts.audit.record(event, txn=True)
    return True


def user_names(parts: Parts) -> list[str]:
    """Every user's id, in the order they were created."""
    with parts.lock, parts.store.transaction(write=False, action="reading the users"):
        rows = parts.store.users()
    return [parts.master.open_user_name(name, token) for _, token, name, _ in rows]
