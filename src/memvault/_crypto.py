"""The only module that touches cryptographic primitives.

Everything else uses the small recipe API below, which takes no nonce, IV, salt
or algorithm parameter: those are chosen here, once.

* Sealing is AES-256-GCM-SIV with a fresh random 96-bit nonce per message.
  GCM-SIV is nonce-misuse resistant: a repeated random nonce (a birthday event
  after ~2^48 messages under one key) leaks only whether two identical
  plaintexts were sealed under the same context, instead of the authentication
  key as with plain GCM. Per-user data keys and rotation keep volumes far below
  that anyway.
* Every sealed blob says what it is: a format byte (which also names the AEAD)
  and the 32-bit key version travel in a 5-byte header, which is authenticated
  as associated data together with the caller's context (purpose, user, file
  identity, ...). A blob moved to another context fails to open.
* Key derivation is HKDF-SHA256 with a distinct label per purpose; keyed
  look-up tokens are HMAC-SHA256.
* Signatures (the audit log's checkpoints) are Ed25519, from a derived seed.
* A master key made from a passphrase is Argon2id (RFC 9106) where the installed
  ``cryptography`` has it (44 and later, built with an OpenSSL that has it), else
  scrypt (RFC 7914). Salts are drawn here (:func:`new_salt`); the caller chooses the
  costs, and passes the recorded salt, KDF and costs back to derive the same key again:
  the one place a salt or an algorithm name enters this API.
"""

from __future__ import annotations

import hmac as _hmac
import os
import struct
from collections.abc import Callable, Mapping
from functools import cache
from typing import NoReturn

from cryptography.exceptions import InvalidSignature, InvalidTag, UnsupportedAlgorithm
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives import hmac as _hmac_primitive
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import AESGCMSIV
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

try:
    from cryptography.hazmat.primitives.kdf.argon2 import Argon2id
except ImportError:  # pragma: no cover - cryptography before 44
    Argon2id = None  # type: ignore[assignment,misc]

from .errors import ConfigurationError, IntegrityError

KEY_SIZE = 32
ID_SIZE = 16
SALT_SIZE = 16
_NONCE_SIZE = 12
_TAG_SIZE = 16

# Format byte 0x01: AES-256-GCM-SIV, 12-byte nonce, 16-byte tag.
FORMAT_V1 = 0x01
_HEADER = struct.Struct(">BI")  # format, key version
HEADER_SIZE = _HEADER.size
OVERHEAD = HEADER_SIZE + _NONCE_SIZE + _TAG_SIZE


class Key:
    """32 secret bytes that stay out of reprs, pickles and logs.

    Raw bytes leave only through :meth:`export_raw`, whose name says what it does.
    """

    __slots__ = ("__keyed", "__raw")

    def __init__(self, raw: bytes) -> None:
        if len(raw) != KEY_SIZE:
            raise ConfigurationError(f"a key must be {KEY_SIZE} bytes, got {len(raw)}")
        self.__raw = bytes(raw)
        self.__keyed: _hmac_primitive.HMAC | None = None  # HMAC-SHA256 keyed once, then copied

    def export_raw(self) -> bytes:
        """Return the raw key bytes (for wrapping or writing a key file only)."""
        return self.__raw

    def _mac(self, data: bytes, more: bytes = b"") -> bytes:
        """HMAC-SHA256 of ``data + more``: ``cryptography``'s HMAC, keyed on first use and
        copied for each MAC (a copy carries the keyed state; keying again every time costs
        more than the MAC of a short message)."""
        keyed = self.__keyed
        if keyed is None:
            keyed = self.__keyed = _hmac_primitive.HMAC(self.__raw, hashes.SHA256())
        mac = keyed.copy()
        mac.update(data)
        if more:
            mac.update(more)
        return mac.finalize()

    def __repr__(self) -> str:
        return "<Key (secret)>"

    __str__ = __repr__

    def __reduce__(self) -> NoReturn:
        raise TypeError("keys cannot be pickled")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Key):
            return NotImplemented
        return _hmac.compare_digest(self.__raw, other.__raw)

    # Defining __eq__ without __hash__ makes keys unhashable: a hash that agreed with
    # __eq__ would be a function of the key bytes, and keys never go into sets or dicts.


def new_key() -> Key:
    """A fresh random 256-bit key."""
    return Key(os.urandom(KEY_SIZE))


def new_id() -> bytes:
    """A fresh random 128-bit identifier (vaults, files)."""
    return os.urandom(ID_SIZE)


def derive(key: Key, label: str, *, salt: bytes | None = None) -> Key:
    """Derive an independent subkey for one purpose (HKDF-SHA256)."""
    hkdf = HKDF(algorithm=hashes.SHA256(), length=KEY_SIZE, salt=salt, info=label.encode())
    return Key(hkdf.derive(key.export_raw()))


def mac(key: Key, data: bytes) -> bytes:
    """HMAC-SHA256 of ``data``: deterministic look-up tokens that reveal nothing of ``data``."""
    return key._mac(data)


def mac_function(key: Key) -> Callable[[bytes], bytes]:
    """:func:`mac` with the key bound, for hot loops (verifying a million records)."""
    return key._mac


_LENGTH = struct.Struct(">I").pack  # a part's length prefix: 4 bytes, big-endian


def context_mac_function(key: Key) -> Callable[[bytes, bytes], bytes]:
    """``mac(key, context(a, b))`` for two byte strings, with the key bound: the keyed
    digest of a file's identity and text, made from the bytes in hand (not copied)."""
    keyed = key._mac

    def digest(a: bytes, b: bytes) -> bytes:
        return keyed(_LENGTH(len(a)) + a + _LENGTH(len(b)), b)

    return digest


def context(*parts: bytes | str | int) -> bytes:
    """Encode associated data unambiguously: each part is length-prefixed."""
    chunks: list[bytes] = []
    for part in parts:
        if part.__class__ is bytes:  # the common case first: ids, tokens, labels' bytes
            raw: bytes = part
        elif isinstance(part, int):
            raw = part.to_bytes(8, "big", signed=False)
        elif isinstance(part, str):
            raw = part.encode()
        else:
            raw = bytes(part)
        chunks.append(_LENGTH(len(raw)))
        chunks.append(raw)
    return b"".join(chunks)


class Sealer:
    """Seals and opens blobs under one key of one version."""

    __slots__ = ("_aead", "_header", "version")

    def __init__(self, key: Key, version: int) -> None:
        try:
            self._aead = AESGCMSIV(key.export_raw())
        except UnsupportedAlgorithm:  # pragma: no cover - depends on the OpenSSL build
            raise ConfigurationError(
                "this build of the cryptography package lacks AES-GCM-SIV",
                hint="install cryptography from its wheels (pip install -U cryptography)",
            ) from None
        self.version = version
        self._header = _HEADER.pack(FORMAT_V1, version)

    def __repr__(self) -> str:
        return f"<Sealer version={self.version}>"

    def __reduce__(self) -> NoReturn:
        raise TypeError("sealers cannot be pickled")

    def seal(self, plaintext: bytes, ctx: bytes) -> bytes:
        header = self._header
        nonce = os.urandom(_NONCE_SIZE)
        return b"".join((header, nonce, self._aead.encrypt(nonce, plaintext, header + ctx)))

    def _open(self, blob: bytes, ctx: bytes) -> bytes:
        nonce = blob[HEADER_SIZE : HEADER_SIZE + _NONCE_SIZE]
        sealed = memoryview(blob)[HEADER_SIZE + _NONCE_SIZE :]  # not copied
        try:
            return self._aead.decrypt(nonce, sealed, blob[:HEADER_SIZE] + ctx)
        except InvalidTag:
            raise IntegrityError(_OPEN_FAILED) from None


_OPEN_FAILED = "stored data failed its integrity check (modified, moved or corrupted)"


def blob_version(blob: bytes) -> int:
    """The key version a sealed blob names; raises IntegrityError if it is no blob of ours."""
    if not isinstance(blob, bytes) or len(blob) < OVERHEAD:
        raise IntegrityError(_OPEN_FAILED)
    fmt, version = _HEADER.unpack_from(blob)
    if fmt != FORMAT_V1:
        raise IntegrityError(_OPEN_FAILED)
    return int(version)


def open_blob(blob: bytes, ctx: bytes, sealer_for: Callable[[int], Sealer | None]) -> bytes:
    """Open a sealed blob with the sealer for the key version it names.

    Every failure is the same opaque IntegrityError: a wrong version, a missing
    key, a flipped bit and a blob moved to another context all look alike.
    """
    sealer = sealer_for(blob_version(blob))
    if sealer is None:
        raise IntegrityError(_OPEN_FAILED)
    return sealer._open(blob, ctx)


class Signer:
    """An Ed25519 signing key made from a derived 32-byte seed."""

    __slots__ = ("_key",)

    def __init__(self, seed: Key) -> None:
        self._key = Ed25519PrivateKey.from_private_bytes(seed.export_raw())

    def __repr__(self) -> str:
        return "<Signer>"

    def __reduce__(self) -> NoReturn:
        raise TypeError("signing keys cannot be pickled")

    @property
    def public_key(self) -> bytes:
        """The raw 32-byte public key, to verify signatures with away from the vault."""
        return self._key.public_key().public_bytes_raw()

    def sign(self, data: bytes) -> bytes:
        return self._key.sign(data)


def verify_signature(public_key: bytes, signature: bytes, data: bytes) -> None:
    """Check an Ed25519 signature of ``data``; raises IntegrityError if it is not valid
    under ``public_key`` (or the key is malformed)."""
    try:
        Ed25519PublicKey.from_public_bytes(public_key).verify(signature, data)
    except (InvalidSignature, ValueError):
        raise IntegrityError("the signature does not match") from None


@cache
def passphrase_kdfs() -> tuple[str, ...]:
    """The passphrase KDFs this installation can run, the one to prefer first."""
    if Argon2id is None:  # pragma: no cover - cryptography before 44
        return ("scrypt",)
    try:
        Argon2id(salt=bytes(SALT_SIZE), length=KEY_SIZE, iterations=1, lanes=1, memory_cost=8)
    except UnsupportedAlgorithm:  # pragma: no cover - an OpenSSL without Argon2 (< 3.2)
        return ("scrypt",)
    return ("argon2id", "scrypt")


def new_salt() -> bytes:
    """A fresh random salt for :func:`derive_from_passphrase` (128 bits)."""
    return os.urandom(SALT_SIZE)


def derive_from_passphrase(
    passphrase: bytes, salt: bytes, *, kdf: str, cost: Mapping[str, int]
) -> Key:
    """A 256-bit key from a passphrase: ``argon2id`` with ``memory_kib``, ``iterations``
    and ``lanes``, or ``scrypt`` with ``n``, ``r`` and ``p``. The caller checks the costs
    against its floors; ConfigurationError if the KDF is not available here."""
    if kdf not in passphrase_kdfs():
        raise ConfigurationError(
            f"the passphrase KDF {kdf} is not available in the installed cryptography package",
            hint="install a current cryptography from its wheels (pip install -U cryptography)",
        )
    try:
        if kdf == "argon2id":
            function: Argon2id | Scrypt = Argon2id(
                salt=salt,
                length=KEY_SIZE,
                iterations=cost["iterations"],
                lanes=cost["lanes"],
                memory_cost=cost["memory_kib"],
            )
        else:
            function = Scrypt(salt=salt, length=KEY_SIZE, n=cost["n"], r=cost["r"], p=cost["p"])
        return Key(function.derive(passphrase))
    except (KeyError, ValueError, MemoryError):
        raise ConfigurationError(f"the {kdf} parameters are not valid") from None
