"""How keys relate: the master key, what is derived from it, and each user's data keys.

::

    master key, generation g (32 bytes, from a KeyProvider: a key file outside the
    │   home, the environment, a passphrase, or a KMS data key)
     ├── check key     seals a known value bound to the generation's record: a wrong key
     │                 (or an edited record) fails at open
     ├── KEK g         wraps every user's data keys and audit keys (blob version g)
     ├── names key g   seals user ids (blob version g)
     ├── secrets wrap  seals the stable secrets once the first master key is rotated away
     └── next wrap     seals the next master key while a rotation is under way
    stable secrets (derived from generation 1's key; ``_secrets.py``)
     ├── user index    HMAC of user ids: look-up tokens
     ├── pseudonyms    the redaction policy's per-user stable tokens
     └── audit keys    MAC, users' pseudonyms, checkpoints, forward security, ledger
    data key, per user and version (random; stored only wrapped by a KEK)
     ├── memory key    seals file names, metadata, contents and last-used days
     └── index key     HMAC look-up tokens for names within a directory
    audit key, per user (random; stored only wrapped by a KEK): seals the user's
     paths in the audit log; destroyed when the user is erased

A master-key rotation re-wraps every data key, audit key and user id under the
next generation and destroys the old one: no memory is re-encrypted. The
master key never touches the home: a copy of the home alone (a backup, an
image of the data volume) decrypts nothing. Labels: :mod:`._labels`.
"""

from __future__ import annotations

from collections.abc import Callable

from .. import _crypto
from .._crypto import Key, Sealer
from ..errors import IntegrityError, MasterKeyError
from . import _labels as L
from ._secrets import VaultSecrets

_CHECK_PLAINTEXT = b"memvault master key check v1"

# The KEK version of the first master key. A wrapped blob names the generation of the
# master key whose KEK wrapped it in its header, so a ring of several generations
# opens blobs wrapped under any of them.
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


def check_value(master: Key, vault_id: str, generation: int = 1, record: bytes = b"") -> bytes:
    """A known value sealed under the master key of ``generation``, bound to the vault and
    to the generation's record (vaults made before records were kept: no record)."""
    return _check_sealer(master, vault_id, generation).seal(
        _CHECK_PLAINTEXT, _check_ctx(vault_id, record)
    )


def _check_ctx(vault_id: str, record: bytes) -> bytes:
    if not record:
        return _crypto.context(L.AAD_CHECK, vault_id)
    return _crypto.context(L.AAD_CHECK, vault_id, record)


def check_shape(check: bytes, vault_id: str, generation: int) -> None:
    """A check value that is not even shaped like the one memvault stores was damaged,
    whatever the key: that is an IntegrityError, never a request for another key."""
    if (
        len(check) != _crypto.OVERHEAD + len(_CHECK_PLAINTEXT)
        or check[0] != _crypto.FORMAT_V1
        or _crypto.blob_version(check) != generation
    ):
        raise IntegrityError(
            f"the key check value of vault {vault_id} is damaged (modified outside memvault), "
            "so no master key can be proved right",
            hint="restore the vault database from a backup; the key itself may be right. "
            "Nothing was changed.",
        )


def opens_check(
    master: Key, vault_id: str, check: bytes, generation: int = 1, record: bytes = b""
) -> bool:
    """Whether ``master`` is the key of ``generation`` that sealed ``check``."""
    sealer = _check_sealer(master, vault_id, generation)
    try:
        ring = SealerRing({generation: sealer}, generation)
        return ring.open(check, _check_ctx(vault_id, record)) == _CHECK_PLAINTEXT
    except IntegrityError:
        return False


def verify_master(
    master: Key, vault_id: str, check: bytes, source: str, generation: int = 1, record: bytes = b""
) -> None:
    """Prove ``master`` is this vault's key; raises MasterKeyError naming ``source`` if not."""
    check_shape(check, vault_id, generation)
    if not opens_check(master, vault_id, check, generation, record):
        raise MasterKeyError(
            f"the master key from {source} does not open vault {vault_id}",
            hint="this key belongs to another vault or the key file was replaced (restore the "
            "right key), or the vault's key check value was modified (restore the database "
            "from a backup). Nothing was changed.",
        )


def _check_sealer(master: Key, vault_id: str, generation: int) -> Sealer:
    return Sealer(_crypto.derive(master, L.KDF_CHECK, salt=bytes.fromhex(vault_id)), generation)


class MasterKeys:
    """The keys of a vault's master key generations (one primary: it wraps and seals; the
    others open only, while a rotation is under way) and its stable secrets.

    ``refresh`` (set by the vault) reloads the generations from the store and the
    provider: a blob wrapped under a generation this process does not know means
    another process rotated the master key, and is retried once after it.
    """

    __slots__ = (
        "_kek",
        "_masters",
        "_names",
        "_pseudonyms",
        "_user_index",
        "refresh",
        "secrets",
        "vault_id",
    )

    def __init__(
        self,
        master: Key | dict[int, Key],
        vault_id: str,
        *,
        primary: int = KEK_VERSION,
        secrets: VaultSecrets | None = None,
    ) -> None:
        generations = master if isinstance(master, dict) else {KEK_VERSION: master}
        self.vault_id = vault_id
        self.secrets = secrets or VaultSecrets.derive(generations[primary], vault_id)
        self._user_index = self.secrets.key(L.KDF_USER_INDEX)
        # Not a data key: pseudonyms must stay stable when a user's data keys rotate.
        self._pseudonyms = self.secrets.key(L.KDF_PSEUDONYMS)
        self.refresh: Callable[[], None] | None = None
        self.adopt(generations, primary)

    def __repr__(self) -> str:
        return f"<MasterKeys vault={self.vault_id} generation={self.generation}>"

    def adopt(self, generations: dict[int, Key], primary: int) -> None:
        """Use these master key generations from now on (after a rotation)."""
        salt = bytes.fromhex(self.vault_id)
        self._masters = dict(generations)
        self._kek = SealerRing(
            {g: Sealer(_crypto.derive(k, L.KDF_KEK, salt=salt), g) for g, k in generations.items()},
            primary,
        )
        self._names = SealerRing(
            {
                g: Sealer(_crypto.derive(k, L.KDF_USER_NAMES, salt=salt), g)
                for g, k in generations.items()
            },
            primary,
        )

    def master_key(self, generation: int) -> Key:
        """The master key of ``generation`` (a rotation seals the next key under it)."""
        try:
            return self._masters[generation]
        except KeyError:
            raise IntegrityError(
                f"master key generation {generation} is not open in this process"
            ) from None

    @property
    def generations(self) -> tuple[int, ...]:
        return tuple(sorted(self._masters))

    @property
    def generation(self) -> int:
        """The generation new wraps are made under."""
        return self._kek.primary.version

    def _open(self, names: bool, blob: bytes, ctx: bytes) -> bytes:
        """Open a blob wrapped by a KEK (or, ``names``, a sealed user id) of any generation
        this process holds; one it does not hold is retried after a refresh."""
        ring = self._names if names else self._kek
        if ring.sealer_for(_crypto.blob_version(blob)) is None and self.refresh is not None:
            self.refresh()
            ring = self._names if names else self._kek
        return ring.open(blob, ctx)

    def user_token(self, user: str) -> bytes:
        return _crypto.mac(self._user_index, user.encode())

    def pseudonym(self, token: bytes, kind: str, value: str) -> str:
        """A keyed, per-user stable token for a value: equal values give equal tokens
        for one user, and nothing about the value can be learned from it."""
        return _crypto.mac(self._pseudonyms, _crypto.context(token, kind, value)).hex()[:10]

    def seal_user_name(self, user: str, token: bytes) -> bytes:
        return self._names.primary.seal(user.encode(), _crypto.context(L.AAD_USER_NAME, token))

    def open_user_name(self, blob: bytes, token: bytes) -> str:
        raw = self._open(True, blob, _crypto.context(L.AAD_USER_NAME, token))
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
        return Key(self._open(False, blob, _crypto.context(L.AAD_DATA_KEY, token, version)))

    def wrap_audit_key(self, audit_key: Key, token: bytes) -> bytes:
        ctx = _crypto.context(L.AAD_AUDIT_KEY, token)
        return self._kek.primary.seal(audit_key.export_raw(), ctx)

    def unwrap_audit_key(self, blob: bytes, token: bytes) -> Key:
        return Key(self._open(False, blob, _crypto.context(L.AAD_AUDIT_KEY, token)))


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

    def older(self) -> list[UserKey]:
        """The decrypt-only versions, newest first (a rotation is under way if any)."""
        return [
            self._keys[v] for v in sorted(self._keys, reverse=True) if v != self.primary.version
        ]
