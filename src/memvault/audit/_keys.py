"""The audit log's keys: the vault-wide MAC, pseudonym and checkpoint keys, among the
vault's stable secrets (they outlive master-key rotations), and each user's own audit
key (random, erased with the user)."""

from __future__ import annotations

import base64
import json
from json.encoder import encode_basestring

from .. import _crypto
from .._crypto import Key, Sealer, Signer
from ..errors import IntegrityError, UsageError
from ..keys import VaultSecrets
from ..keys import labels as L


class AuditKeys:
    """The vault-wide audit keys, derived from (and separate from) the master key."""

    __slots__ = ("_forward_wrap", "_mac", "_signer", "_users", "mac_bytes", "vault_id")

    def __init__(self, master: Key | VaultSecrets, vault_id: str) -> None:
        """From the vault's stable secrets (or, for a vault whose master key was never
        rotated, and in tests, its master key)."""
        secrets = (
            master if isinstance(master, VaultSecrets) else VaultSecrets.derive(master, vault_id)
        )
        self.vault_id = vault_id
        self._mac = secrets.key(L.KDF_AUDIT_MAC)
        self.mac_bytes = _crypto.mac_function(self._mac)  # raw MAC, for verifying in bulk
        self._users = secrets.key(L.KDF_AUDIT_USERS)
        self._signer = Signer(secrets.key(L.KDF_AUDIT_CHECKPOINT))
        self._forward_wrap = Sealer(secrets.key(L.KDF_AUDIT_FORWARD_WRAP), 1)

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

    def seal_forward(self, state: ForwardState) -> bytes:
        """The forward-secure state as ``<home>/audit/.fskey`` holds it: sealed, fixed size."""
        plain = state.first.to_bytes(8, "big") + state.segment.to_bytes(8, "big")
        plain += state.key.export_raw()
        return self._forward_wrap.seal(plain, _crypto.context(L.AAD_AUDIT_FORWARD, self.vault_id))

    def open_forward(self, blob: bytes) -> ForwardState:
        plain = _crypto.open_blob(
            blob,
            _crypto.context(L.AAD_AUDIT_FORWARD, self.vault_id),
            lambda v: self._forward_wrap if v == 1 else None,
        )
        if len(plain) != 16 + _crypto.KEY_SIZE:
            raise IntegrityError("the audit log's forward-secure key file is damaged")
        first, segment = int.from_bytes(plain[:8], "big"), int.from_bytes(plain[8:16], "big")
        return ForwardState(first, segment, Key(plain[16:]))


FORWARD_FILE_SIZE = _crypto.OVERHEAD + 16 + _crypto.KEY_SIZE


class ForwardState:
    """Forward-secure MAC keys: from segment ``first`` on, each segment's records are
    MACed with a key of its own, the next derived one-way from it, and each key is
    overwritten once the log has moved past its segment. Whoever takes the machine
    later cannot make a MAC for an earlier segment; a verifier starts from the first
    key, kept off the machine."""

    __slots__ = ("first", "key", "segment")

    def __init__(self, first: int, segment: int, key: Key) -> None:
        self.first = first
        self.segment = segment
        self.key = key

    def __repr__(self) -> str:
        return f"<ForwardState from segment {self.first}, at {self.segment}>"

    @classmethod
    def unkeyed(cls, first: int) -> ForwardState:
        """Forward security known to be on from segment ``first``, without a key for any
        segment (at no segment, under a random key): a verifier checks those segments'
        chain only, instead of taking their MACs for forgeries."""
        return cls(first, 0, _crypto.new_key())

    def at(self, segment: int) -> ForwardState:
        """The state for a later segment (keys only go forward)."""
        if segment < self.segment:
            raise IntegrityError(
                f"the forward-secure key for audit segment {segment} is gone (the key file is "
                f"at segment {self.segment})",
                hint="run `memvault audit verify --forward-key FILE` with the first key",
            )
        state = self
        while state.segment < segment:
            state = ForwardState(
                state.first, state.segment + 1, next_forward_key(state.key, state.segment + 1)
            )
        return state

    def mac(self, body: bytes) -> str:
        return _crypto.mac(self.key, body).hex()


def next_forward_key(key: Key, segment: int) -> Key:
    """The key of ``segment``, from the key of the segment before it (one-way)."""
    return _crypto.derive(key, f"{L.KDF_AUDIT_FORWARD_PREFIX}{segment}")


def _encode_paths(paths: list[str]) -> bytes:
    """``json.dumps(paths, ensure_ascii=False)``, encoded: each string escaped by the
    JSON module's own C function, without building an encoder per record."""
    return ("[" + ", ".join(map(encode_basestring, paths)) + "]").encode()


class UserAuditKey:
    """One user's audit key: seals the paths in their records and keys the digests.

    It is random, stored wrapped in the vault, and erased with the user, so
    after a crypto-erasure the log still verifies but no longer says which
    files the user had or what they held.
    """

    __slots__ = ("_digest", "_paths", "_paths_ctx", "pseudonym")

    def __init__(self, key: Key | None, pseudonym: str) -> None:
        """``key=None``: the key could not be opened (damaged); records of the user's
        commands then carry the pseudonym but no paths and no digests."""
        self._paths = Sealer(_crypto.derive(key, L.KDF_AUDIT_PATHS), 1) if key else None
        self._paths_ctx = _crypto.context(L.AAD_AUDIT_PATHS, pseudonym)
        self._digest = (
            _crypto.context_mac_function(_crypto.derive(key, L.KDF_AUDIT_DIGEST)) if key else None
        )
        self.pseudonym = pseudonym

    def __repr__(self) -> str:
        return f"<UserAuditKey {self.pseudonym}>"

    def seal_paths(self, paths: list[str]) -> str | None:
        if self._paths is None:
            return None
        blob = self._paths.seal(_encode_paths(paths), self._paths_ctx)
        return base64.b64encode(blob).decode()

    def open_paths(self, sealed: str) -> list[str]:
        if self._paths is None:
            raise IntegrityError("this user's audit key could not be opened")
        paths = self._paths
        blob = base64.b64decode(sealed, validate=True)
        plain = _crypto.open_blob(blob, self._paths_ctx, lambda v: paths if v == 1 else None)
        value = json.loads(plain)
        if not isinstance(value, list) or not all(isinstance(p, str) for p in value):
            raise IntegrityError("a sealed audit path list is malformed")
        return value

    def digest(self, fid: bytes, text: bytes) -> str | None:
        """The keyed digest of a file's ``text`` (its UTF-8 bytes) and identity ``fid``."""
        if self._digest is None:
            return None
        return self._digest(fid, text).hex()[:32]


FORWARD_KEY_FORMAT = "memvault-audit-forward-key/1"


def forward_key_text(vault_id: str, first: int, key: Key) -> str:
    """The operator's copy of the first forward-secure key, as a small JSON file."""
    body = {
        "format": FORWARD_KEY_FORMAT,
        "vault": vault_id,
        "first_segment": first,
        "key": base64.b64encode(key.export_raw()).decode(),
    }
    return json.dumps(body, indent=2) + "\n"


def read_forward_key(text: str, vault_id: str, source: str) -> ForwardState:
    """Parse the operator's copy of the first forward-secure key; UsageError if it is not one."""
    try:
        body = json.loads(text)
        if not isinstance(body, dict) or body.get("format") != FORWARD_KEY_FORMAT:
            raise ValueError
        first = body["first_segment"]
        raw = base64.b64decode(body["key"], validate=True)
        if not isinstance(first, int) or first < 1 or len(raw) != _crypto.KEY_SIZE:
            raise ValueError
    except (ValueError, KeyError, TypeError):
        raise UsageError(f"{source} is not a memvault forward-secure key file") from None
    if body.get("vault") != vault_id:
        raise UsageError(f"{source} is the forward-secure key of vault {body.get('vault')}")
    return ForwardState(first, first, Key(raw))
