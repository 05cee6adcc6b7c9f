"""Where keys come from and how they relate.

::

    master key (32 bytes; a key file outside the home, or MEMVAULT_MASTER_KEY)
     ├── check key     seals a known value at creation, so a wrong key fails at open
     ├── KEK           wraps every user's data keys
     └── user index    HMAC of user names (look-up) and a key to seal the names themselves
    data key, per user and version (random; stored only wrapped by the KEK)
     ├── memory key    seals file names, metadata and contents (AES-256-GCM-SIV)
     └── index key     HMAC look-up tokens for names within a directory

The master key never touches the home: a copy of the home alone (a backup, an
image of the data volume) decrypts nothing.
"""

from __future__ import annotations

import base64
import binascii
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from .. import _crypto
from .._crypto import Key, Sealer
from ..errors import ConfigurationError, IntegrityError, MasterKeyError

ENV_MASTER_KEY = "MEMVAULT_MASTER_KEY"
ENV_MASTER_KEY_FILE = "MEMVAULT_MASTER_KEY_FILE"

_CHECK_PLAINTEXT = b"memvault master key check v1"


def default_key_file(vault_id: str) -> Path:
    """``$XDG_CONFIG_HOME/memvault/keys/<vault id>.key`` (``~/.config`` when unset)."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "memvault" / "keys" / f"{vault_id}.key"


def _decode_key(text: str, source: str) -> Key:
    try:
        raw = base64.b64decode(text.strip(), validate=True)
    except (binascii.Error, ValueError):
        raise MasterKeyError(
            f"the master key in {source} is not valid base64",
            hint="it must be the standard base64 encoding of 32 random bytes",
        ) from None
    if len(raw) != _crypto.KEY_SIZE:
        raise MasterKeyError(
            f"the master key in {source} is {len(raw)} bytes long; it must be 32",
            hint="generate one with: python -c 'import os,base64;"
            "print(base64.b64encode(os.urandom(32)).decode())'",
        )
    return Key(raw)


def encode_key(key: Key) -> str:
    """Standard base64, the form ``MEMVAULT_MASTER_KEY`` and key files take."""
    return base64.b64encode(key.export_raw()).decode()


def _within(path: Path, directory: Path) -> bool:
    try:
        path.resolve().relative_to(directory.resolve())
    except ValueError:
        return False
    return True


@dataclass(frozen=True)
class KeySource:
    """Where a vault's master key comes from (never the key itself)."""

    env: str | None
    file: Path

    @classmethod
    def resolve(
        cls, vault_id: str, home: Path, key_file: str | os.PathLike[str] | None
    ) -> KeySource:
        env = os.environ.get(ENV_MASTER_KEY)
        if key_file is None and os.environ.get(ENV_MASTER_KEY_FILE):
            key_file = os.environ[ENV_MASTER_KEY_FILE]
        path = Path(key_file).expanduser() if key_file is not None else default_key_file(vault_id)
        if env is None and _within(path, home):
            raise ConfigurationError(
                f"the master key file {path} is inside the vault home {home}",
                hint="keep the key outside the home so that a copy of the home decrypts nothing",
            )
        return cls(env=env, file=path)

    def describe(self) -> str:
        return f"${ENV_MASTER_KEY}" if self.env is not None else str(self.file)

    def load(self, vault_id: str) -> Key:
        if self.env is not None:
            return _decode_key(self.env, f"${ENV_MASTER_KEY}")
        try:
            fd = os.open(self.file, os.O_RDONLY | os.O_NOFOLLOW)
        except FileNotFoundError:
            raise MasterKeyError(
                f"no master key for vault {vault_id}: {self.file} does not exist",
                hint=f"restore the key file, point --master-key-file (or ${ENV_MASTER_KEY_FILE}) "
                f"at it, or set ${ENV_MASTER_KEY}",
            ) from None
        except OSError as exc:
            raise MasterKeyError(
                f"cannot read the master key file {self.file}: {exc.strerror}"
            ) from None
        try:
            mode = os.fstat(fd).st_mode
            if not stat.S_ISREG(mode):
                raise MasterKeyError(f"the master key file {self.file} is not a regular file")
            if mode & 0o077:
                raise MasterKeyError(
                    f"the master key file {self.file} is accessible to other users "
                    f"(mode {stat.S_IMODE(mode):04o})",
                    hint=f"run: chmod 600 {self.file}",
                )
            text = os.read(fd, 4096).decode("ascii", "replace")
        except OSError as exc:
            raise MasterKeyError(
                f"cannot read the master key file {self.file}: {exc.strerror}"
            ) from None
        finally:
            os.close(fd)
        return _decode_key(text, str(self.file))

    def load_or_create(self, vault_id: str) -> Key:
        """The master key for a vault being created.

        From the environment if set; else the key file if one is already there
        (provisioned by the operator, or written by an earlier attempt to create
        this vault that was interrupted); else a new random key in a new 0600 file.
        """
        if self.env is not None:
            return _decode_key(self.env, f"${ENV_MASTER_KEY}")
        if not self.file.exists():
            key = _crypto.new_key()
            if _write_key_file(self.file, encode_key(key) + "\n"):
                return key
        # Another process won the race to write it, or it was there already.
        return self.load(vault_id)


def _write_key_file(path: Path, text: str) -> bool:
    """Create ``path`` (mode 0600) atomically, never over an existing file.

    Returns False if the file already exists. The key is written to an unnamed
    temporary file (``O_TMPFILE``) that is linked into place only when complete,
    so a crash leaves either no file or the whole key, never a stray copy. Where
    the file system cannot do that, a named temporary file is used instead.
    """
    data = text.encode()
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        linked = _link_unnamed(path, data)
        if linked is None:
            linked = _link_named(path, data)
        if linked:
            dfd = os.open(path.parent, os.O_RDONLY)
            try:
                os.fsync(dfd)
            finally:
                os.close(dfd)
        return linked
    except OSError as exc:
        raise MasterKeyError(
            f"cannot write the master key file {path}: {exc.strerror}",
            hint=f"choose a writable location with --master-key-file, or set ${ENV_MASTER_KEY}",
        ) from None


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
    os.fsync(fd)


def _link_unnamed(path: Path, data: bytes) -> bool | None:
    """True: linked; False: the file exists; None: unnamed files are not supported here."""
    try:
        fd = os.open(path.parent, os.O_TMPFILE | os.O_WRONLY, 0o600)
    except (AttributeError, OSError):
        return None
    try:
        _write_all(fd, data)
        os.link(f"/proc/self/fd/{fd}", path, follow_symlinks=True)
    except FileExistsError:
        return False
    except OSError:
        return None
    finally:
        os.close(fd)
    return True


def _remove_stale(path: Path) -> None:
    """Remove temporary key files left by crashed attempts (their process is gone)."""
    for stale in path.parent.glob(f".{path.name}.*.tmp"):
        try:
            os.kill(int(stale.name.rsplit(".", 2)[-2]), 0)
        except ProcessLookupError:
            stale.unlink(missing_ok=True)
        except (ValueError, OSError):
            continue


def _link_named(path: Path, data: bytes) -> bool:
    _remove_stale(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    try:
        _write_all(fd, data)
        os.link(tmp, path)
    except FileExistsError:
        return False
    finally:
        os.close(fd)
        tmp.unlink(missing_ok=True)
    return True


class MasterKeys:
    """The keys derived from a vault's master key."""

    __slots__ = ("_kek", "_names", "_pseudonyms", "_user_index", "vault_id")

    def __init__(self, master: Key, vault_id: str) -> None:
        salt = bytes.fromhex(vault_id)
        self.vault_id = vault_id
        self._kek = Sealer(_crypto.derive(master, "memvault/v1/kek", salt=salt), 1)
        self._names = Sealer(_crypto.derive(master, "memvault/v1/user-names", salt=salt), 1)
        self._user_index = _crypto.derive(master, "memvault/v1/user-index", salt=salt)
        # Not a data key: pseudonyms must stay stable when a user's data keys rotate.
        self._pseudonyms = _crypto.derive(master, "memvault/v1/pseudonyms", salt=salt)

    def __repr__(self) -> str:
        return f"<MasterKeys vault={self.vault_id}>"

    @staticmethod
    def check_value(master: Key, vault_id: str) -> bytes:
        sealer = Sealer(
            _crypto.derive(master, "memvault/v1/check", salt=bytes.fromhex(vault_id)), 1
        )
        return sealer.seal(_CHECK_PLAINTEXT, _crypto.context("check", vault_id))

    @staticmethod
    def verify(master: Key, vault_id: str, check: bytes, source: str) -> None:
        sealer = Sealer(
            _crypto.derive(master, "memvault/v1/check", salt=bytes.fromhex(vault_id)), 1
        )
        try:
            ok = _crypto.open_blob(
                check, _crypto.context("check", vault_id), lambda v: sealer if v == 1 else None
            )
        except IntegrityError:
            ok = b""
        if ok != _CHECK_PLAINTEXT:
            raise MasterKeyError(
                f"the master key from {source} does not open vault {vault_id}",
                hint="this key belongs to another vault, or the key file was replaced; "
                "restore the right key. Nothing was changed.",
            )

    def user_token(self, user: str) -> bytes:
        return _crypto.mac(self._user_index, user.encode())

    def pseudonym(self, token: bytes, kind: str, value: str) -> str:
        """A keyed, per-user stable token for a value: equal values give equal tokens
        for one user, and nothing about the value can be learned from it."""
        return _crypto.mac(self._pseudonyms, _crypto.context(token, kind, value)).hex()[:10]

    def seal_user_name(self, user: str, token: bytes) -> bytes:
        return self._names.seal(user.encode(), _crypto.context("user-name", token))

    def open_user_name(self, blob: bytes, token: bytes) -> str:
        raw = _crypto.open_blob(
            blob, _crypto.context("user-name", token), lambda v: self._names if v == 1 else None
        )
        return raw.decode()

    def wrap(self, data_key: Key, token: bytes, version: int) -> bytes:
        return self._kek.seal(data_key.export_raw(), _crypto.context("data-key", token, version))

    def wrap_audit_key(self, audit_key: Key, token: bytes) -> bytes:
        return self._kek.seal(audit_key.export_raw(), _crypto.context("audit-key", token))

    def unwrap_audit_key(self, blob: bytes, token: bytes) -> Key:
        raw = _crypto.open_blob(
            blob, _crypto.context("audit-key", token), lambda v: self._kek if v == 1 else None
        )
        return Key(raw)

    def unwrap(self, blob: bytes, token: bytes, version: int) -> Key:
        raw = _crypto.open_blob(
            blob,
            _crypto.context("data-key", token, version),
            lambda v: self._kek if v == 1 else None,
        )
        return Key(raw)


class UserKey:
    """One version of a user's data key, as the two subkeys it is used through."""

    __slots__ = ("index", "sealer", "version")

    def __init__(self, data_key: Key, version: int) -> None:
        self.version = version
        self.sealer = Sealer(_crypto.derive(data_key, "memvault/v1/memory"), version)
        self.index = _crypto.derive(data_key, "memvault/v1/index")

    def __repr__(self) -> str:
        return f"<UserKey version={self.version}>"


class Keyring:
    """A user's data keys: one primary (seals and indexes) and older decrypt-only ones."""

    __slots__ = ("_keys", "primary")

    def __init__(self, keys: dict[int, UserKey], primary: int) -> None:
        if primary not in keys:
            raise IntegrityError("the user's primary data key is missing from the store")
        self._keys = keys
        self.primary = keys[primary]

    def __repr__(self) -> str:
        return f"<Keyring versions={sorted(self._keys)} primary={self.primary.version}>"

    def sealer_for(self, version: int) -> Sealer | None:
        key = self._keys.get(version)
        return key.sealer if key is not None else None
