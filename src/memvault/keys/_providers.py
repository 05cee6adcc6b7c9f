"""Where a vault's master key comes from: providers behind one small interface.

A :class:`KeyProvider` mints a master key (for a new vault, or for a master-key
rotation) and returns the key of an existing vault from the parameters the vault
recorded when the key was minted (salts and KDF costs, a KMS key id and the
wrapped key: never the key). The vault records the provider's kind too, so a
vault opened through the wrong kind of provider fails with a clear error.

Kinds:

* ``file``: a 0600 key file outside the home (``--master-key-file``,
  ``$MEMVAULT_MASTER_KEY_FILE``, else ``$XDG_CONFIG_HOME/memvault/keys/<id>.key``);
* ``env``: ``$MEMVAULT_MASTER_KEY``, base64 of 32 bytes (containers, secret
  managers); nothing is written to disk. ``file`` and ``env`` hold the same raw
  key, so a vault may move between them;
* ``passphrase``: Argon2id (scrypt where the installed ``cryptography`` lacks it)
  of a passphrase from a prompt, ``$MEMVAULT_PASSPHRASE`` or a file descriptor;
* ``kms``: AWS KMS envelope encryption: the master key is a KMS data key the vault
  keeps only wrapped, bound to the vault by an encryption context.

:func:`provider_for` picks one as the options, the vault's record and the
environment say; :func:`new_provider_for` the one a rotation mints the next key with.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from .. import _crypto, _fs
from .._crypto import Key
from ..errors import ConfigurationError, MasterKeyError, UsageError
from ._keyfile import decode_key, read_key_file, remove_key_file, write_key_file
from ._secrets import key_id

ENV_MASTER_KEY = "MEMVAULT_MASTER_KEY"
ENV_MASTER_KEY_FILE = "MEMVAULT_MASTER_KEY_FILE"
ENV_NEW_MASTER_KEY = "MEMVAULT_NEW_MASTER_KEY"
ENV_KEY_PROVIDER = "MEMVAULT_KEY_PROVIDER"
KINDS = ("file", "env", "passphrase", "kms")
RAW_KINDS = ("file", "env")  # the same raw key, kept in a file or in the environment

Params = Mapping[str, str | int]


@dataclass(frozen=True)
class Minted:
    """A new master key and what the vault records to have it again (nothing secret)."""

    key: Key
    params: dict[str, str | int]


class KeyProvider(Protocol):
    """Where one vault's master key is kept."""

    @property
    def kind(self) -> str:
        """One of :data:`KINDS`: recorded in the vault."""
        ...

    def describe(self) -> str:
        """Where the key comes from, for messages and ``keys list`` (never the key)."""
        ...

    def mint(self, vault_id: str, *, replacing: bool) -> Minted:
        """A new master key: for a vault being created (``replacing=False``; a key already
        provisioned for it may be returned), or the next key of a rotation, kept where
        this provider keeps keys without disturbing the current one."""
        ...

    def keys(self, vault_id: str, params: Params) -> list[Key]:
        """The keys this provider holds for the vault, the one the recorded ``params``
        name first; a key file mid-rotation also offers the next key. MasterKeyError,
        naming the provider and what to do, if none can be had."""
        ...

    def settle(self, vault_id: str, committed: Key | None = None) -> None:
        """After the vault committed to a key this provider minted with ``replacing``
        (``committed``, when the caller holds it: settle only if it is that key): make
        it the one kept (a key file's next key replaces the old one). Idempotent."""
        ...


@dataclass(frozen=True)
class ProviderOptions:
    """What the operator said about the master key (flags, ``Vault.open`` arguments)."""

    kind: str | None = None  # None: the vault's recorded kind (raw: env if set, else file)
    key_file: str | os.PathLike[str] | None = None
    passphrase_fd: int | None = None
    new_passphrase_fd: int | None = None
    kms_key_id: str | None = None
    kms_region: str | None = None
    kms_endpoint: str | None = None
    # The costs of a passphrase key minted now (a new vault, or a rotation's next key):
    # PassphraseCost's field names (memory_kib, iterations, lanes; n, r, p) to values.
    passphrase_cost: Mapping[str, int] | None = None


@dataclass(frozen=True)
class EnvKey:
    """The key in an environment variable (its value is read once, at open)."""

    value: str
    name: str = ENV_MASTER_KEY
    kind: str = "env"

    def __repr__(self) -> str:
        return f"<EnvKey ${self.name}>"

    def describe(self) -> str:
        return f"${self.name}"

    def mint(self, vault_id: str, *, replacing: bool) -> Minted:
        return Minted(decode_key(self.value, self.describe()), {})

    def keys(self, vault_id: str, params: Params) -> list[Key]:
        return [decode_key(self.value, self.describe())]

    def settle(self, vault_id: str, committed: Key | None = None) -> None:
        return None


@dataclass(frozen=True)
class KeyFile:
    """The key in a 0600 file outside the home; a rotation's next key in ``<file>.next``."""

    path: Path
    kind: str = "file"

    @property
    def next_path(self) -> Path:
        return self.path.with_name(self.path.name + ".next")

    def describe(self) -> str:
        return str(self.path)

    def mint(self, vault_id: str, *, replacing: bool) -> Minted:
        """A new vault: the key file's key if one is there (provisioned by the operator,
        or written by an interrupted attempt to create this vault), else a new key in a
        new file. A rotation: the key in ``<file>.next``, written now if absent (a
        re-run after a crash finds the one it wrote)."""
        path = self.next_path if replacing else self.path
        hint = f"choose a writable location with --master-key-file, or set ${ENV_MASTER_KEY}"
        if not path.exists():
            key = _crypto.new_key()
            if write_key_file(path, key, hint):
                return Minted(key, {})
        found = read_key_file(path)  # another process won the race, or it was there
        if found is None:
            raise MasterKeyError(f"the master key file {path} vanished while it was being made")
        return Minted(found, {})

    def keys(self, vault_id: str, params: Params) -> list[Key]:
        found = [key for key in (read_key_file(self.path), read_key_file(self.next_path)) if key]
        if not found:
            raise MasterKeyError(
                f"no master key for vault {vault_id}: {self.path} does not exist",
                hint=f"restore the key file, point --master-key-file (or ${ENV_MASTER_KEY_FILE}) "
                f"at it, or set ${ENV_MASTER_KEY}",
            )
        return found

    def settle(self, vault_id: str, committed: Key | None = None) -> None:
        if committed is not None and read_key_file(self.next_path) != committed:
            return  # no next key, or one of a rotation not committed yet
        if self.next_path.exists():
            try:
                os.replace(self.next_path, self.path)
                _fs.fsync_dir(self.path.parent)
            except OSError as exc:
                if isinstance(exc, FileNotFoundError) and self.path.exists():
                    return  # another process (the rotating one, or an open) moved it first
                raise MasterKeyError(
                    f"cannot move the new master key into {self.path}: {_fs.reason(exc)}",
                    hint=f"the vault now uses the key in {self.next_path}; rename it to "
                    f"{self.path.name} by hand, or re-run the command",
                ) from None


def retire_key_file(retires: Mapping[str, str] | None, vault_id: str) -> None:
    """Remove the key file a master record retires (``{"file", "key_id"}``): the file that
    kept the previous generation's key when the rotation moved the key elsewhere. Only
    a file still holding exactly that key is removed; a missing one is no error."""
    if retires is None:
        return
    path = Path(retires["file"])
    try:
        found = read_key_file(path)
    except MasterKeyError:
        return  # not a key file (any more): not ours to remove
    if found is not None and key_id(found, vault_id) == retires["key_id"]:
        remove_key_file(path)


def default_key_file(vault_id: str) -> Path:
    """``$XDG_CONFIG_HOME/memvault/keys/<vault id>.key`` (``~/.config`` when unset)."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "memvault" / "keys" / f"{vault_id}.key"


def _key_file(vault_id: str, home: Path | None, key_file: str | os.PathLike[str] | None) -> KeyFile:
    """The key file the options name; one inside the home is refused (a copy of the home
    must decrypt nothing)."""
    if key_file is None and os.environ.get(ENV_MASTER_KEY_FILE):
        key_file = os.environ[ENV_MASTER_KEY_FILE]
    path = Path(key_file).expanduser() if key_file is not None else default_key_file(vault_id)
    if home is not None and path.resolve().is_relative_to(home.resolve()):
        raise ConfigurationError(
            f"the master key file {path} is inside the vault home {home}",
            hint="keep the key outside the home so that a copy of the home decrypts nothing",
        )
    return KeyFile(path)


def chosen_kind(options: ProviderOptions, recorded: str | None) -> str:
    """The kind of provider to open the vault with: the one asked for (checked against
    the vault's record), else the recorded one, else the raw key (env if set, else file)."""
    asked = options.kind or os.environ.get(ENV_KEY_PROVIDER) or None
    if asked is not None and asked not in KINDS:
        raise UsageError(
            f"unknown key provider {asked!r}", hint=f"choose one of: {', '.join(KINDS)}"
        )
    raw = "env" if os.environ.get(ENV_MASTER_KEY) is not None else "file"
    if asked is None:
        return raw if recorded is None or recorded in RAW_KINDS else recorded
    if recorded is not None and not (
        asked == recorded or (asked in RAW_KINDS and recorded in RAW_KINDS)
    ):
        raise MasterKeyError(
            f"this vault's master key is kept by the {recorded} provider, not {asked}",
            hint=f"open it with --key-provider {recorded} (or unset ${ENV_KEY_PROVIDER}); "
            "nothing was changed",
        )
    return asked


def _check_cost_goes_with(kind: str, options: ProviderOptions) -> None:
    if options.passphrase_cost and kind != "passphrase":
        raise UsageError(
            f"passphrase costs were given, but the master key is kept by the {kind} provider",
            hint="they apply to a key derived from a passphrase (rotate-master --to "
            "passphrase); nothing was changed",
        )


def provider_for(
    options: ProviderOptions, vault_id: str, home: Path | None, recorded: str | None
) -> KeyProvider:
    """The provider that opens (or creates) the vault ``vault_id``."""
    kind = chosen_kind(options, recorded)
    _check_cost_goes_with(kind, options)
    if kind == "env":
        value = os.environ.get(ENV_MASTER_KEY)
        if value is None:
            raise MasterKeyError(
                f"the key provider is env, but ${ENV_MASTER_KEY} is not set",
                hint=f"set ${ENV_MASTER_KEY} to the vault's key (base64 of 32 bytes)",
            )
        return EnvKey(value)
    if kind == "file":
        return _key_file(vault_id, home, options.key_file)
    return _other(kind, options, new=False)


def new_provider_for(
    options: ProviderOptions, vault_id: str, home: Path | None, current: KeyProvider
) -> KeyProvider:
    """The provider a master-key rotation mints the next key with: the kind asked for,
    else the current one (a key file: the same file; env: ``$MEMVAULT_NEW_MASTER_KEY``)."""
    kind = options.kind or current.kind
    if kind not in KINDS:
        raise UsageError(
            f"unknown key provider {kind!r}", hint=f"choose one of: {', '.join(KINDS)}"
        )
    _check_cost_goes_with(kind, options)
    if kind == "env":
        value = os.environ.get(ENV_NEW_MASTER_KEY)
        if value is None:
            raise MasterKeyError(
                f"a new master key kept in the environment must be given in ${ENV_NEW_MASTER_KEY}",
                hint="generate one (base64 of 32 random bytes), put it in your secret store, "
                f"set ${ENV_NEW_MASTER_KEY} to it and re-run; nothing was changed",
            )
        return EnvKey(value, ENV_NEW_MASTER_KEY)
    if kind == "file":
        if isinstance(current, KeyFile) and options.key_file is None:
            return current
        return _key_file(vault_id, home, options.key_file)
    return _other(kind, options, new=True, current=current)


def _other(
    kind: str, options: ProviderOptions, *, new: bool, current: KeyProvider | None = None
) -> KeyProvider:
    """A passphrase or KMS provider. Imported here, when asked for: their modules import
    this one, and boto3 loads only when a KMS key is minted or unwrapped. ``new``: the
    provider mints a rotation's next key (the new passphrase; by default the current KMS
    key, region and endpoint)."""
    if kind == "passphrase":
        from ._passphrase import PassphraseKey, cost_of

        return PassphraseKey(
            fd=options.new_passphrase_fd if new else options.passphrase_fd,
            new=new,
            cost=cost_of(options.passphrase_cost),
        )
    if kind != "kms":
        raise UsageError(
            f"unknown key provider {kind!r}", hint=f"choose one of: {', '.join(KINDS)}"
        )
    from ._kms import KmsKey

    key_id, region, endpoint = options.kms_key_id, options.kms_region, options.kms_endpoint
    if new and isinstance(current, KmsKey):
        key_id = key_id or current.recorded or current.key_id
        region = region or current.region
        endpoint = endpoint or current.endpoint
    return KmsKey(key_id, region=region, endpoint=endpoint)
