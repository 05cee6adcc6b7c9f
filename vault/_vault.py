"""The vault: a home directory, its store, and the keys that open it."""

from __future__ import annotations

import os
import threading
import unicodedata
from pathlib import Path
from types import TracebackType

from . import _crypto
from ._errors import ConfigurationError, IntegrityError, StorageError, UsageError
from ._guard import REFUSED_CATEGORIES
from ._handlers import DEFAULT_MAX_FILE_BYTES, Handlers
from ._keys import KeySource, MasterKeys
from ._namespace import Namespace
from ._policy import load as load_policy
from ._screen import Screen
from ._store import Durability, Store
from ._tool import MemoryTool

DB_NAME = "vault.db"
MAX_USER_BYTES = 255


def check_user(user: object) -> str:
    """A user id must be a short, printable, non-empty string."""
    if not isinstance(user, str) or not user:
        raise UsageError("a user id must be a non-empty string")
    if len(user.encode("utf-8", "surrogatepass")) > MAX_USER_BYTES:
        raise UsageError(f"a user id must be at most {MAX_USER_BYTES} bytes of UTF-8")
    if any(unicodedata.category(ch) in REFUSED_CATEGORIES for ch in user):
        raise UsageError("a user id must not contain control or invisible characters")
    return user


class Vault:
    """An encrypted memory vault in a home directory.

    ``Vault.open(home)`` creates the vault on first use. The master key is
    taken from ``$MEMVAULT_MASTER_KEY`` (base64 of 32 bytes) if set, else from
    a key file kept outside the home (``master_key_file``,
    ``$MEMVAULT_MASTER_KEY_FILE``, or ``~/.config/memvault/keys/<vault id>.key``),
    which is created with mode 0600 together with a new vault.
    """

    def __init__(
        self, home: Path, store: Store, master: MasterKeys, handlers: Handlers, key_source: str
    ) -> None:
        self.home = home
        self._store = store
        self._master = master
        self.key_source = key_source  # where the master key came from (never the key)
        self._handlers = handlers
        self._lock = threading.RLock()
        self._closed = False

    @property
    def vault_id(self) -> str:
        return self._master.vault_id

    def __repr__(self) -> str:
        return f"<Vault {self.vault_id} at {self.home}>"

    @classmethod
    def open(
        cls,
        home: str | os.PathLike[str],
        *,
        master_key_file: str | os.PathLike[str] | None = None,
        durability: Durability = "full",
        max_file_bytes: int = DEFAULT_MAX_FILE_BYTES,
        policy: str | os.PathLike[str] | None = None,
    ) -> Vault:
        """Open the vault at ``home``, creating it (and its master key) on first use.

        ``policy`` names the redaction policy every write passes: a built-in
        policy's name (``"default"`` when omitted) or the path of a TOML file; an
        invalid policy fails here, naming the file, the line and the problem.

        ``durability="full"`` (the default) makes every acknowledged write survive
        a power loss; ``"normal"`` survives a crash of the process but may lose
        the last writes if the machine loses power.
        """
        if durability not in ("full", "normal"):
            raise UsageError("durability must be 'full' or 'normal'")
        if (
            isinstance(max_file_bytes, bool)
            or not isinstance(max_file_bytes, int)
            or max_file_bytes < 1
        ):
            raise UsageError("max_file_bytes must be a positive integer")
        screen = Screen(load_policy(policy).redactor)
        home_path = Path(home).expanduser().absolute()
        try:
            home_path.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as exc:
            raise ConfigurationError(
                f"cannot create the vault home {home_path}: {exc.strerror}"
            ) from None
        if not home_path.is_dir():
            raise ConfigurationError(f"the vault home {home_path} is not a directory")
        store = Store(home_path / DB_NAME, durability=durability)
        try:
            master, key_source = cls._open_keys(store, home_path, master_key_file)
        except BaseException:
            store.close()
            raise
        return cls(
            home_path, store, master, Handlers(screen, max_file_bytes=max_file_bytes), key_source
        )

    @staticmethod
    def _open_keys(
        store: Store, home: Path, key_file: str | os.PathLike[str] | None
    ) -> tuple[MasterKeys, str]:
        """Find (or, for a new vault, make) the master key and prove it opens this vault.

        A new vault is made in steps that each survive a crash: its id is
        committed first, then the key file named by that id is written, then
        the key check value is committed. An open that finds a vault id without
        a check value finishes the job with the key file already there.
        """
        store.check_structure()  # before taking the write lock: it reads every page
        with store.transaction(write=True, action="opening the vault"):
            store.initialize()
            raw_id = store.get_meta("vault_id")
            check = store.get_meta("key_check")
            # Only a store that never held anything may be (re)started as a new
            # vault: missing identity records next to data mean damage, and
            # adopting a new key there would hide the old data behind it.
            if (raw_id is None or check is None) and not store.is_empty():
                raise IntegrityError(
                    f"the vault database in {home} holds memories but lacks its "
                    f"{'vault id' if raw_id is None else 'key check value'}",
                    hint="the store was damaged or modified; restore the home from a backup",
                )
            if raw_id is None:
                raw_id = _crypto.new_id().hex().encode()
                store.set_meta("vault_id", raw_id)
        vault_id = raw_id.decode("ascii", "replace")
        try:
            if len(bytes.fromhex(vault_id)) != _crypto.ID_SIZE:
                raise ValueError
        except ValueError:
            raise IntegrityError(f"the vault id in {home} is damaged") from None
        source = KeySource.resolve(vault_id, home, key_file)
        if check is None:
            master = source.load_or_create(vault_id)
            with store.transaction(write=True, action="creating the vault"):
                check = store.get_meta("key_check")
                if check is None:  # else another process finished creating it meanwhile
                    check = MasterKeys.check_value(master, vault_id)
                    store.set_meta("key_check", check)
        else:
            master = source.load(vault_id)
        MasterKeys.verify(master, vault_id, check, source.describe())
        return MasterKeys(master, vault_id), source.describe()

    def memory_tool(self, user: str) -> MemoryTool:
        """The memory tool for one user: a ``BetaAbstractMemoryTool`` over their memories only."""
        self._check_open()
        user = check_user(user)
        token = self._master.user_token(user)
        with self._lock, self._store.transaction(write=False, action="opening a user's memories"):
            found = self._store.user_by_lookup(token)
        if found is None:
            with self._lock, self._store.transaction(write=True, action="creating a user"):
                found = self._store.user_by_lookup(token)  # another process may have won
                if found is None:
                    user_id = self._store.insert_user(
                        token, self._master.seal_user_name(user, token), 1
                    )
                    self._store.insert_data_key(
                        user_id, 1, self._master.wrap(_crypto.new_key(), token, 1)
                    )
                    found = (user_id, 1)
        namespace = Namespace(self._store, self._master, found[0], token)
        return MemoryTool(namespace, self._handlers, self._lock, user)

    def _check_open(self) -> None:
        if self._closed:
            raise StorageError("the vault is closed")

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._store.close()

    def __enter__(self) -> Vault:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
