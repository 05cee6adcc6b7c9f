"""``keys list``: every user's data-key versions, and the master key, as a document.

The shape is stable (docs/audit-schema.md and the README describe it)::

    {"users": [{"user": "alice", "primary": 2,
                "versions": [{"version": 2, "memories": 2000, "created": "2026-...Z"}]}],
     "master": {"key_id": "...", "provider": "file", "source": "...", "generation": 2,
                "created": "2026-...Z", "age_days": 30, "costs": null, "rotation": null}}

A version's ``memories`` is how many of the user's nodes (files and directories)
have a part still sealed under it; destroyed versions are not listed. ``created``
is null for keys made before memvault recorded it. ``rotation`` is null, or
``{"to_key_id": ..., "to_generation": ..., "due_to": "erase" | null}`` while a
master-key rotation is under way or due. ``costs`` is a passphrase key's KDF and its
costs (``{"kdf": "argon2id", "memory_kib": 65536, "iterations": 3, "lanes": 4}``),
null for the other providers.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from .. import keys
from ..keys import MasterRecord
from ._parts import Parts


def _iso(seconds: int | None) -> str | None:
    if seconds is None:
        return None
    return datetime.fromtimestamp(seconds, UTC).isoformat().replace("+00:00", "Z")


def key_report(parts: Parts) -> dict[str, Any]:
    """The document ``keys list --json`` prints (one read transaction)."""
    store, master = parts.store, parts.master
    with parts.lock, store.transaction(write=False, action="listing the keys"):
        users = []
        for user_id, token, name, primary in store.users():
            counts = store.version_counts(user_id)
            versions = [
                {"version": v, "memories": counts.get(v, 0), "created": _iso(created)}
                for v, created in reversed(store.data_key_versions(user_id))
            ]
            users.append(
                {
                    "user": master.open_user_name(name, token),
                    "primary": primary,
                    "versions": versions,
                }
            )
        raw = store.get_meta("master")
        raw_next = store.get_meta("master_next")
        due = store.get_meta("rotation_due")
    return {"users": users, "master": _master_entry(parts, raw, raw_next, due)}


def _master_entry(
    parts: Parts, raw: bytes | None, raw_next: bytes | None, due: bytes | None
) -> dict[str, Any]:
    record = MasterRecord.decode(raw) if raw is not None else None
    generation = record.generation if record else 1
    created = record.created if record else None
    age = None
    if created is not None:
        made = datetime.fromisoformat(created.replace("Z", "+00:00"))
        age = (datetime.now(UTC) - made).days
    rotation = None
    if raw_next is not None or due is not None:
        following = MasterRecord.decode(raw_next) if raw_next is not None else None
        rotation = {
            "to_key_id": following.key_id if following else None,
            "to_generation": following.generation if following else None,
            "due_to": due.decode("ascii", "replace") if due is not None else None,
        }
    current = parts.master.master_key(generation)
    return {
        "key_id": record.key_id if record else keys.key_id(current, parts.master.vault_id),
        "provider": record.provider
        if record
        else (parts.provider.kind if parts.provider else None),
        "source": parts.provider.describe() if parts.provider else None,
        "generation": generation,
        "created": created,
        "age_days": age,
        "costs": _costs(record),
        "rotation": rotation,
    }


def _costs(record: MasterRecord | None) -> dict[str, Any] | None:
    """A passphrase key's KDF and costs (what it takes to guess it); None for the others."""
    if record is None or record.provider != "passphrase":
        return None
    return {k: v for k, v in record.params.items() if k != "salt"}
