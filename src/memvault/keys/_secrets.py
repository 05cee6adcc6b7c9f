"""The vault's stable secrets, and what the vault records about its master key.

The master key rotates; some keys must not. The audit log's MAC, pseudonym,
checkpoint, forward-security and ledger keys, the users' look-up index and the
redaction pseudonyms keep their values for the life of the vault (records
written years ago must still verify, a user must keep their pseudonym). They
are :class:`VaultSecrets`: derived from the vault's first master key, and,
once that key has been rotated away, kept in the store sealed under the
current one. HKDF outputs are independent, so these keys reveal nothing of
the first master key or of the key-encryption key it derived: a copy of the
home taken before a rotation stays locked once the old master key is gone.

The key-encryption key and the key sealing user names are not among them:
each master-key generation derives its own (``_hierarchy.py``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from .. import _crypto
from .._crypto import Key, Sealer
from ..errors import IntegrityError
from . import _labels as L

# The stable purposes, in the order their keys are sealed.
STABLE = (
    L.KDF_USER_INDEX,
    L.KDF_PSEUDONYMS,
    L.KDF_AUDIT_MAC,
    L.KDF_AUDIT_USERS,
    L.KDF_AUDIT_CHECKPOINT,
    L.KDF_AUDIT_FORWARD_WRAP,
    L.KDF_AUDIT_LEDGER,
)


class VaultSecrets:
    """The keys of the stable purposes, by HKDF label."""

    __slots__ = ("_keys", "vault_id")

    def __init__(self, keys: dict[str, Key], vault_id: str) -> None:
        if set(keys) != set(STABLE):
            raise IntegrityError("the vault's stable secrets are incomplete")
        self._keys = keys
        self.vault_id = vault_id

    def __repr__(self) -> str:
        return f"<VaultSecrets vault={self.vault_id}>"

    @classmethod
    def derive(cls, master: Key, vault_id: str) -> VaultSecrets:
        """The secrets of a vault whose master key was never rotated: from that key."""
        salt = bytes.fromhex(vault_id)
        return cls({label: _crypto.derive(master, label, salt=salt) for label in STABLE}, vault_id)

    def key(self, label: str) -> Key:
        return self._keys[label]

    def seal(self, master: Key, generation: int) -> bytes:
        """Sealed under a key derived from master-key generation ``generation``."""
        plain = b"".join(self._keys[label].export_raw() for label in STABLE)
        return _wrapper(master, self.vault_id, generation).seal(plain, _ctx(self.vault_id))

    @classmethod
    def open(cls, blob: bytes, master: Key, generation: int, vault_id: str) -> VaultSecrets:
        sealer = _wrapper(master, vault_id, generation)
        plain = _crypto.open_blob(
            blob, _ctx(vault_id), lambda v: sealer if v == generation else None
        )
        size = _crypto.KEY_SIZE
        if len(plain) != size * len(STABLE):
            raise IntegrityError("the vault's sealed secrets are malformed")
        keys = {label: Key(plain[i * size : (i + 1) * size]) for i, label in enumerate(STABLE)}
        return cls(keys, vault_id)


def _wrapper(master: Key, vault_id: str, generation: int) -> Sealer:
    return Sealer(
        _crypto.derive(master, L.KDF_SECRETS_WRAP, salt=bytes.fromhex(vault_id)), generation
    )


def _ctx(vault_id: str) -> bytes:
    return _crypto.context(L.AAD_SECRETS, vault_id)


def key_id(master: Key, vault_id: str) -> str:
    """A master key's public fingerprint: names it in records and listings, one-way."""
    marker = _crypto.derive(master, L.KDF_KEY_ID, salt=bytes.fromhex(vault_id))
    return _crypto.mac(marker, b"memvault master key id").hex()[:16]


def seal_next(current: Key, generation: int, following: Key, vault_id: str) -> bytes:
    """The next master key of a rotation, sealed under the current one (``generation``), so
    that every process holding the current key can open what is re-wrapped meanwhile."""
    sealer = Sealer(
        _crypto.derive(current, L.KDF_NEXT_MASTER, salt=bytes.fromhex(vault_id)), generation
    )
    return sealer.seal(
        following.export_raw(), _crypto.context(L.AAD_NEXT_MASTER, vault_id, generation + 1)
    )


def open_next(current: Key, generation: int, blob: bytes, vault_id: str) -> Key:
    sealer = Sealer(
        _crypto.derive(current, L.KDF_NEXT_MASTER, salt=bytes.fromhex(vault_id)), generation
    )
    ctx = _crypto.context(L.AAD_NEXT_MASTER, vault_id, generation + 1)
    return Key(_crypto.open_blob(blob, ctx, lambda v: sealer if v == generation else None))


@dataclass(frozen=True)
class MasterRecord:
    """What the vault records of one master-key generation (``meta``: ``master``, and
    ``master_next`` while a rotation is under way). Nothing in it is secret; the key
    check value is bound to its bytes, so an edited record fails the check."""

    generation: int
    provider: str
    key_id: str
    created: str  # UTC, ISO 8601
    params: dict[str, str | int] = field(default_factory=dict)
    # A key file that kept the previous generation's key elsewhere, to be removed once
    # this generation is current: {"file": path, "key_id": that key's id}.
    retires: dict[str, str] | None = None

    @classmethod
    def new(
        cls,
        generation: int,
        provider: str,
        master: Key,
        vault_id: str,
        params: dict[str, str | int],
        retires: dict[str, str] | None = None,
    ) -> MasterRecord:
        now = datetime.now(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")
        return cls(generation, provider, key_id(master, vault_id), now, dict(params), retires)

    def encode(self) -> bytes:
        body: dict[str, Any] = {
            "generation": self.generation,
            "provider": self.provider,
            "key_id": self.key_id,
            "created": self.created,
            "params": self.params,
        }
        if self.retires is not None:
            body["retires"] = self.retires
        return json.dumps(body, sort_keys=True, separators=(",", ":")).encode()

    @classmethod
    def decode(cls, raw: bytes, what: str = "master key record") -> MasterRecord:
        try:
            body = json.loads(raw)
            record = cls(
                int(body["generation"]),
                str(body["provider"]),
                str(body["key_id"]),
                str(body["created"]),
                {str(k): v for k, v in dict(body["params"]).items()},
                _retires(body.get("retires")),
            )
        except (ValueError, KeyError, TypeError):
            raise IntegrityError(
                f"the vault's {what} is damaged (modified outside memvault)",
                hint="restore the home from a backup; nothing was changed",
            ) from None
        if record.generation < 1 or any(
            not isinstance(v, str | int) or isinstance(v, bool) for v in record.params.values()
        ):
            raise IntegrityError(f"the vault's {what} is damaged (modified outside memvault)")
        return record


def _retires(value: object) -> dict[str, str] | None:
    if value is None:
        return None
    if not isinstance(value, dict) or set(value) != {"file", "key_id"}:
        raise ValueError("a retired key file is named by its path and key id")
    return {str(k): str(v) for k, v in value.items()}
