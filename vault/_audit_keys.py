"""The audit log's keys: the vault-wide MAC, pseudonym and checkpoint keys, derived from
the master key, and each user's own audit key (random, erased with the user)."""

from __future__ import annotations

import base64
import json

from . import _crypto
from ._crypto import Key, Sealer, Signer
from ._errors import IntegrityError


class AuditKeys:
    """The vault-wide audit keys, derived from (and separate from) the master key."""

    __slots__ = ("_mac", "_signer", "_users", "mac_bytes", "vault_id")

    def __init__(self, master: Key, vault_id: str) -> None:
        salt = bytes.fromhex(vault_id)
        self.vault_id = vault_id
        self._mac = _crypto.derive(master, "memvault/v1/audit-mac", salt=salt)
        self.mac_bytes = _crypto.mac_function(self._mac)  # raw MAC, for verifying in bulk
        self._users = _crypto.derive(master, "memvault/v1/audit-users", salt=salt)
        self._signer = Signer(_crypto.derive(master, "memvault/v1/audit-checkpoint", salt=salt))

    def __repr__(self) -> str:
        return f"<AuditKeys vault={self.vault_id}>"

    def mac(self, body: bytes) -> str:
        return self.mac_bytes(body).hex()

    def user(self, name: str) -> str:
        """The pseudonym a user appears under in the log: stable, keyed, one-way."""
        return "u:" + _crypto.mac(self._users, name.encode()).hex()[:20]

    @property
    def public_key(self) -> bytes:
        return self._signer.public_key

    def sign(self, data: bytes) -> bytes:
        return self._signer.sign(data)


class UserAuditKey:
    """One user's audit key: seals the paths in their records and keys the digests.

    It is random, stored wrapped in the vault, and erased with the user, so
    after a crypto-erasure the log still verifies but no longer says which
    files the user had or what they held.
    """

    __slots__ = ("_digest", "_paths", "pseudonym")

    def __init__(self, key: Key | None, pseudonym: str) -> None:
        """``key=None``: the key could not be opened (damaged); records of the user's
        commands then carry the pseudonym but no paths and no digests."""
        self._paths = Sealer(_crypto.derive(key, "memvault/v1/audit-paths"), 1) if key else None
        self._digest = _crypto.derive(key, "memvault/v1/audit-digest") if key else None
        self.pseudonym = pseudonym

    def __repr__(self) -> str:
        return f"<UserAuditKey {self.pseudonym}>"

    def seal_paths(self, paths: list[str]) -> str | None:
        if self._paths is None:
            return None
        plain = json.dumps(paths, ensure_ascii=False).encode()
        blob = self._paths.seal(plain, _crypto.context("audit-paths", self.pseudonym))
        return base64.b64encode(blob).decode()

    def open_paths(self, sealed: str) -> list[str]:
        if self._paths is None:
            raise IntegrityError("this user's audit key could not be opened")
        paths = self._paths
        blob = base64.b64decode(sealed, validate=True)
        plain = _crypto.open_blob(
            blob,
            _crypto.context("audit-paths", self.pseudonym),
            lambda v: paths if v == 1 else None,
        )
        value = json.loads(plain)
        if not isinstance(value, list) or not all(isinstance(p, str) for p in value):
            raise IntegrityError("a sealed audit path list is malformed")
        return value

    def digest(self, fid: bytes, text: bytes) -> str | None:
        if self._digest is None:
            return None
        return _crypto.mac(self._digest, _crypto.context(fid, text)).hex()[:32]
