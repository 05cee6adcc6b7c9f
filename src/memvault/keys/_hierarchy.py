"""How keys relate: the master key, what is derived from it, and each user's data keys.

::

    master key (32 bytes, from a KeySource: a key file outside the home, or the environment)
     ├── check key     seals a known value at creation, so a wrong key fails at open
     ├── KEK           wraps every user's data keys and audit keys (a versioned keyring)
     ├── user index    HMAC of user names (look-up) and a key to seal the names themselves
     └── pseudonyms    the redaction policy's per-user stable tokens
    data key, per user and version (random; stored only wrapped by the KEK)
     ├── memory key    seals file names, metadata and contents (AES-256-GCM-SIV)
     └── index key     HMAC look-up tokens for names within a directory

The master key never touches the home: a copy of the home alone (a backup, an
image of the data volume) decrypts nothing. Labels: :mod:`._labels`.
"""

from __future__ import annotations

from .. import _crypto
from .._crypto import Key, Sealer
from ..errors import IntegrityError, MasterKeyError
from . import _labels as L

_CHECK_PLAINTEXT = b"memvault master key check v1"

# The KEK version a master key wraps under. Every wrapped blob names its KEK version
# in its header, so a keyring of several versions opens blobs wrapped under any of them.
KEK_VERSION = 1


class SealerRing:
    """Sealers of several versions: one primary (seals), older ones open only."""

    __slots__ = ("_sealers", "primary")

    def __init__(self, sealers: dict[int, Sealer], primary: int) -> None:
        if primary not in sealers:
            raise IntegrityError("the primary key version is missing from its keyring")
        self._sealers = sealers
        self.primary = sealers[primary]

    def __repr__(self) -> str:
        return f"<SealerRing versions={sorted(self._sealers)} primary={self.primary.version}>"

    def sealer_for(self, version: int) -> Sealer | None:
        return self._sealers.get(version)

    def open(self, blob: bytes, ctx: bytes) -> bytes:
        return _crypto.open_blob(blob, ctx, self.sealer_for)


def check_value(master: Key, vault_id: str) -> bytes:
    """A known value sealed under the master key, stored when the vault is created."""
    return _check_sealer(master, vault_id).seal(
        _CHECK_PLAINTEXT, _crypto.context(L.AAD_CHECK, vault_id)
    )


def verify_master(master: Key, vault_id: str, check: bytes, source: str) -> None:
    """Prove ``master`` is this vault's key; raises MasterKeyError naming ``source`` if not.

    A check value that is not even shaped like the one memvault stores was damaged,
    whatever the key: that is an IntegrityError, never a request for another key."""
    if (
        len(check) != _crypto.OVERHEAD + len(_CHECK_PLAINTEXT)
        or check[0] != _crypto.FORMAT_V1
        or _crypto.blob_version(check) != 1
    ):
        raise IntegrityError(
            f"the key check value of vault {vault_id} is damaged (modified outside memvault), "
            "so no master key can be proved right",
            hint="restore the vault database from a backup; the key itself may be right. "
            "Nothing was changed.",
        )
    ring = SealerRing({1: _check_sealer(master, vault_id)}, 1)
    try:
        ok = ring.open(check, _crypto.context(L.AAD_CHECK, vault_id))
    except IntegrityError:
        ok = b""
    if ok != _CHECK_PLAINTEXT:
        raise MasterKeyError(
            f"the master key from {source} does not open vault {vault_id}",
            hint="this key belongs to another vault or the key file was replaced (restore the "
            "right key), or the vault's key check value was modified (restore the database "
            "from a backup). Nothing was changed.",
        )


def _check_sealer(master: Key, vault_id: str) -> Sealer:
    return Sealer(_crypto.derive(master, L.KDF_CHECK, salt=bytes.fromhex(vault_id)), 1)


class MasterKeys:
    """The keys derived from a vault's master key."""

    __slots__ = ("_kek", "_names", "_pseudonyms", "_user_index", "vault_id")

    def __init__(self, master: Key, vault_id: str) -> None:
        salt = bytes.fromhex(vault_id)
        self.vault_id = vault_id
        kek = Sealer(_crypto.derive(master, L.KDF_KEK, salt=salt), KEK_VERSION)
        self._kek = SealerRing({KEK_VERSION: kek}, KEK_VERSION)
        self._names = SealerRing(
            {1: Sealer(_crypto.derive(master, L.KDF_USER_NAMES, salt=salt), 1)}, 1
        )
        self._user_index = _crypto.derive(master, L.KDF_USER_INDEX, salt=salt)
        # Not a data key: pseudonyms must stay stable when a user's data keys rotate.
        self._pseudonyms = _crypto.derive(master, L.KDF_PSEUDONYMS, salt=salt)

    def __repr__(self) -> str:
        return f"<MasterKeys vault={self.vault_id}>"

    def user_token(self, user: str) -> bytes:
        return _crypto.mac(self._user_index, user.encode())

    def pseudonym(self, token: bytes, kind: str, value: str) -> str:
        """A keyed, per-user stable token for a value: equal values give equal tokens
        for one user, and nothing about the value can be learned from it."""
        return _crypto.mac(self._pseudonyms, _crypto.context(token, kind, value)).hex()[:10]

    def seal_user_name(self, user: str, token: bytes) -> bytes:
        return self._names.primary.seal(user.encode(), _crypto.context(L.AAD_USER_NAME, token))

    def open_user_name(self, blob: bytes, token: bytes) -> str:
        raw = self._names.open(blob, _crypto.context(L.AAD_USER_NAME, token))
        try:
            return raw.decode()
        except UnicodeDecodeError:
            raise IntegrityError("a sealed user name is malformed") from None

    def wrap(self, data_key: Key, token: bytes, version: int) -> bytes:
        ctx = _crypto.context(L.AAD_DATA_KEY, token, version)
        return self._kek.primary.seal(data_key.export_raw(), ctx)

    def unwrap(self, blob: bytes, token: bytes, version: int) -> Key:
        if not 0 <= version < 1 << 64:  # no key was ever wrapped under such a version
            raise IntegrityError(
                f"a user's data key is stored under version {version}, which memvault never "
                "writes (modified outside memvault)"
            )
        return Key(self._kek.open(blob, _crypto.context(L.AAD_DATA_KEY, token, version)))

    def wrap_audit_key(self, audit_key: Key, token: bytes) -> bytes:
        ctx = _crypto.context(L.AAD_AUDIT_KEY, token)
        return self._kek.primary.seal(audit_key.export_raw(), ctx)

    def unwrap_audit_key(self, blob: bytes, token: bytes) -> Key:
        return Key(self._kek.open(blob, _crypto.context(L.AAD_AUDIT_KEY, token)))


class UserKey:
    """One version of a user's data key, as the two subkeys it is used through."""

    __slots__ = ("index", "sealer", "version")

    def __init__(self, data_key: Key, version: int) -> None:
        self.version = version
        self.sealer = Sealer(_crypto.derive(data_key, L.KDF_MEMORY), version)
        self.index = _crypto.derive(data_key, L.KDF_INDEX)

    def __repr__(self) -> str:
        return f"<UserKey version={self.version}>"


class Keyring:
    """A user's data keys: one primary (seals and indexes) and older decrypt-only ones."""

    __slots__ = ("_keys", "primary")

    def __init__(self, keys: dict[int, UserKey], primary: int) -> None:
        if primary not in keys:
            raise IntegrityError(
                f"the user's primary data key (version {primary}) is not in the store: the "
                "user's row or their data keys were changed outside memvault"
            )
        self._keys = keys
        self.primary = keys[primary]

    def __repr__(self) -> str:
        return f"<Keyring versions={sorted(self._keys)} primary={self.primary.version}>"

    def sealer_for(self, version: int) -> Sealer | None:
        key = self._keys.get(version)
        return key.sealer if key is not None else None
