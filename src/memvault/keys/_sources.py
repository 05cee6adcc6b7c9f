"""Where a vault's master key comes from, behind one small interface.

A :class:`KeySource` loads the master key for a vault, or makes one when the
vault is created, and says where it came from (never the key). Sources today:

* :class:`EnvKey`: ``$MEMVAULT_MASTER_KEY``, base64 of 32 bytes (containers,
  secret managers); nothing is written to disk;
* :class:`KeyFile`: a 0600 file kept outside the home: ``--master-key-file``,
  ``$MEMVAULT_MASTER_KEY_FILE``, or ``$XDG_CONFIG_HOME/memvault/keys/<id>.key``.

:func:`resolve` picks one as the options and the environment say.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from .. import _crypto
from .._crypto import Key
from ..errors import ConfigurationError, MasterKeyError
from ._keyfile import decode_key, read_key_file, write_key_file

ENV_MASTER_KEY = "MEMVAULT_MASTER_KEY"
ENV_MASTER_KEY_FILE = "MEMVAULT_MASTER_KEY_FILE"


class KeySource(Protocol):
    """Where one vault's master key is kept."""

    def describe(self) -> str:
        """Where the key comes from, for messages (``$MEMVAULT_MASTER_KEY``, a path)."""
        ...

    def load(self, vault_id: str) -> Key:
        """The master key of an existing vault; MasterKeyError if it cannot be had."""
        ...

    def load_or_create(self, vault_id: str) -> Key:
        """The master key for a vault being created: the one already provisioned, or a
        new random key kept where this source keeps keys."""
        ...


@dataclass(frozen=True)
class EnvKey:
    """The key in an environment variable (its value is read once, at open)."""

    value: str
    name: str = ENV_MASTER_KEY

    def __repr__(self) -> str:
        return f"<EnvKey ${self.name}>"

    def describe(self) -> str:
        return f"${self.name}"

    def load(self, vault_id: str) -> Key:
        return decode_key(self.value, self.describe())

    def load_or_create(self, vault_id: str) -> Key:
        return self.load(vault_id)


@dataclass(frozen=True)
class KeyFile:
    """The key in a 0600 file outside the home."""

    path: Path

    def describe(self) -> str:
        return str(self.path)

    def load(self, vault_id: str) -> Key:
        key = read_key_file(self.path)
        if key is None:
            raise MasterKeyError(
                f"no master key for vault {vault_id}: {self.path} does not exist",
                hint=f"restore the key file, point --master-key-file (or ${ENV_MASTER_KEY_FILE}) "
                f"at it, or set ${ENV_MASTER_KEY}",
            )
        return key

    def load_or_create(self, vault_id: str) -> Key:
        """The key file's key if one is there (provisioned by the operator, or written by
        an interrupted attempt to create this vault); else a new key in a new file."""
        if not self.path.exists():
            key = _crypto.new_key()
            hint = f"choose a writable location with --master-key-file, or set ${ENV_MASTER_KEY}"
            if write_key_file(self.path, key, hint):
                return key
        # Another process won the race to write it, or it was there already.
        return self.load(vault_id)


def default_key_file(vault_id: str) -> Path:
    """``$XDG_CONFIG_HOME/memvault/keys/<vault id>.key`` (``~/.config`` when unset)."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "memvault" / "keys" / f"{vault_id}.key"


def resolve(vault_id: str, home: Path, key_file: str | os.PathLike[str] | None) -> KeySource:
    """The source the options and environment name: the environment variable if set,
    else the key file given, else the default key file. A key file inside the home
    is refused: a copy of the home must decrypt nothing."""
    env = os.environ.get(ENV_MASTER_KEY)
    if env is not None:
        return EnvKey(env)
    if key_file is None and os.environ.get(ENV_MASTER_KEY_FILE):
        key_file = os.environ[ENV_MASTER_KEY_FILE]
    path = Path(key_file).expanduser() if key_file is not None else default_key_file(vault_id)
    if path.resolve().is_relative_to(home.resolve()):
        raise ConfigurationError(
            f"the master key file {path} is inside the vault home {home}",
            hint="keep the key outside the home so that a copy of the home decrypts nothing",
        )
    return KeyFile(path)
