"""The vault: a home directory, its store, and the keys that open it."""

from __future__ import annotations

import os
import re
import threading
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

from . import lifecycle
from ._async_methods import AsyncMethods
from ._lifecycle_methods import LifecycleMethods
from ._log import log as _log
from ._opening import (
    DB_NAME,
    check_options,
    chosen_provider,
    open_log,
    open_store,
    refuse_moved,
)
from .audit import Event, Log, Problem, UserAuditKey
from .errors import IntegrityError, StorageError, UsageError
from .keys import KeyProvider, MasterKeys, ProviderOptions
from .memory import (
    Handlers,
    Runner,
    Screen,
    Tree,
    accounts,
    check_user,
    open_keys,
    verify_store,
)
from .redaction import load_policy
from .store import Durability, LogStore, PgStore, is_dsn

if TYPE_CHECKING:
    from concurrent.futures import ThreadPoolExecutor

    from .tool import MemoryTool

_SESSION = re.compile(r"[A-Za-z0-9._:/+=-]{1,128}")


class Vault(AsyncMethods, LifecycleMethods):
    """An encrypted memory vault in a home directory, or in a PostgreSQL database.

    ``Vault.open(home)`` creates the vault on first use (in a database, once
    ``memvault db migrate`` has made its schema). The master key is
    taken from ``$MEMVAULT_MASTER_KEY`` (base64 of 32 bytes) if set, else from
    a key file kept outside the home (``master_key_file``,
    ``$MEMVAULT_MASTER_KEY_FILE``, or ``~/.config/memvault/keys/<vault id>.key``),
    which is created with mode 0600 together with a new vault.
    """

    def __init__(
        self,
        home: Path | None,
        store: LogStore,
        master: MasterKeys,
        handlers: Handlers,
        provider: KeyProvider,
        audit: Log,
        location: str | None = None,
    ) -> None:
        self.home = home  # None for a vault in a database
        self.location = location or str(home)  # the home, or the database's URI (no password)
        self._store = store
        self._master = master
        self._provider = provider
        self.key_source = provider.describe()  # where the master key came from (never the key)
        self._handlers = handlers
        self._audit = audit
        self._lock = threading.RLock()
        self._closed = False
        self._worker: ThreadPoolExecutor | None = None  # the async tools' store thread
        self._worker_lock = threading.Lock()

    @property
    def vault_id(self) -> str:
        return self._master.vault_id

    def __repr__(self) -> str:
        return f"<Vault {self.vault_id} at {self.location}>"

    @staticmethod
    def exists(home: str | os.PathLike[str]) -> bool:
        """Whether ``home`` holds a vault (:meth:`open` would open one, not make one). For
        a database: whether it holds a vault's identity (it may still need migrating)."""
        if not is_dsn(home):
            return (Path(home).expanduser() / DB_NAME).is_file()
        store = PgStore(str(home))
        try:
            return store.holds_vault()
        finally:
            store.close()

    @classmethod
    def open(
        cls,
        home: str | os.PathLike[str],
        *,
        master_key_file: str | os.PathLike[str] | None = None,
        key_provider: str | KeyProvider | ProviderOptions | None = None,
        durability: Durability = "full",
        max_file_bytes: int | None = None,
        policy: str | os.PathLike[str] | None = None,
    ) -> Vault:
        """Open the vault at ``home``, creating it (and its master key) on first use.

        ``home`` is a directory, or the URI of a PostgreSQL database
        (``postgresql://user@host/db?sslmode=verify-full``) whose schema ``memvault db
        migrate`` made; its vault's audit log is in the database too.

        ``policy`` names the redaction policy every write passes: a built-in
        policy's name (``"default"`` when omitted) or the path of a TOML file; an
        invalid policy fails here, naming the file, the line and the problem. Its
        ``[limits]`` bound what each user may keep and what one view returns;
        ``max_file_bytes``, when given, replaces its largest memory
        (``max_memory_bytes``, 1 MiB by default; ``max_user_bytes`` is raised to it if
        smaller).

        ``durability="full"`` (the default) makes every acknowledged write survive
        a power loss; ``"normal"`` survives a crash of the process but may lose
        the last writes if the machine loses power.
        """
        return cls._open(
            home,
            master_key_file=master_key_file,
            key_provider=key_provider,
            durability=durability,
            max_file_bytes=max_file_bytes,
            policy=policy,
        )

    @classmethod
    def _open(
        cls,
        home: str | os.PathLike[str],
        *,
        master_key_file: str | os.PathLike[str] | None = None,
        key_provider: str | KeyProvider | ProviderOptions | None = None,
        durability: Durability = "full",
        max_file_bytes: int | None = None,
        policy: str | os.PathLike[str] | None = None,
        audit_problems: list[str] | None = None,
        moving: bool = False,
    ) -> Vault:
        """:meth:`open`, for the audit commands: with ``audit_problems`` (a list), the
        log is neither repaired nor cross-checked at open (``audit verify`` does that
        and reports what it finds), and nothing is added to it. ``moving``: for
        ``memvault migrate``, a vault being moved (or moved) away opens too."""
        check_options(durability, max_file_bytes)
        loaded = load_policy(policy)
        screen = Screen(loaded.redactor)
        home_path, location, store = open_store(home, durability)
        audit: Log | None = None
        try:
            unlocked = open_keys(store, home_path, chosen_provider(key_provider, master_key_file))
            master, version, created = unlocked.master, unlocked.version, unlocked.created
            if not moving:
                refuse_moved(store)
            audit = open_log(home_path, store, unlocked, durability)
            audit.legacy_store = version == 1
            if audit_problems is None:
                problems = audit.recover(upgrading=version == 1)
                if problems:
                    raise IntegrityError(
                        f"the audit log and the store disagree: {problems[0]}",
                        hint="run `memvault audit verify` for the details; restore the home "
                        "(database and audit/) from a backup",
                    )
                accounts.prepare(store, master, audit, version)
                audit.legacy_store = False
            else:
                audit.read_only = True
            vault = cls(
                home_path,
                store,
                master,
                Handlers(screen, limits=loaded.limits.with_memory_bytes(max_file_bytes)),
                unlocked.provider,
                audit,
                location,
            )
            vault.retention_days = loaded.max_idle_days
            if audit_problems is None:
                if created:
                    vault.record_operation("vault.create", details={"vault": master.vault_id})
                vault._note_policy(loaded.name, loaded.digest)
        except BaseException:
            if audit is not None:
                audit.close()
            store.close()
            raise
        return vault

    def _note_policy(self, name: str, digest: str) -> None:
        """Record a change of redaction policy since the vault was last opened."""
        current = f"{name}:{digest}".encode()
        if self._store.get_meta("policy") == current:
            return
        with (
            self._lock,
            self._audit.holding(),
            self._store.transaction(write=True, action="recording the policy"),
        ):
            previous = self._store.get_meta("policy")
            if previous == current:
                return
            self._store.set_meta("policy", current)
            details = {"policy": name, "sha256": digest}
            if previous is not None:
                details["previous_sha256"] = previous.decode("ascii", "replace").rpartition(":")[2]
            self._audit.record(Event("policy.change", details=details), txn=True)

    def record_operation(
        self,
        command: str,
        *,
        outcome: str = "ok",
        error: str | None = None,
        details: dict[str, Any] | None = None,
    ) -> int:
        """Record an operator action (``audit.verify``, ``vault.create``, ...); returns its
        sequence number. Raises if the record cannot be written."""
        self._check_open()
        event = Event(command, outcome=outcome, error=error, details=details)
        with (
            self._lock,
            self._audit.holding(),
            self._store.transaction(write=True, action="recording an operation"),
        ):
            return self._audit.record(event, txn=True)

    @property
    def audit(self) -> Log:
        return self._audit

    def _parts(self) -> lifecycle.Parts:
        """The parts the lifecycle operations work with."""
        self._check_open()
        return lifecycle.Parts(
            self.home,
            self._store,
            self._master,
            self._audit,
            self._handlers,
            self._lock,
            self._provider,
        )

    def audit_users(self) -> dict[str, tuple[str, UserAuditKey]]:
        """Each user's log pseudonym, with their name and audit key (to open sealed paths).

        An erased user is absent: their records keep the pseudonym, and their
        paths stay sealed for good.
        """
        self._check_open()
        with self._lock, self._store.transaction(write=False, action="reading the users"):
            rows = self._store.audit_keys()
        return self._opened_users(rows)

    def _opened_users(
        self, rows: list[tuple[bytes, bytes, bytes]]
    ) -> dict[str, tuple[str, UserAuditKey]]:
        """:meth:`audit_users` of the store's rows (``Store.audit_keys``)."""
        out: dict[str, tuple[str, UserAuditKey]] = {}
        for token, sealed_name, wrapped in rows:
            try:
                name = self._master.open_user_name(sealed_name, token)
                key = self._master.unwrap_audit_key(wrapped, token)
            except IntegrityError:
                _log.error("integrity_failure", command="open_audit_key")
                continue
            pseudonym = self._audit.keys.user(name)
            out[pseudonym] = (name, UserAuditKey(key, pseudonym))
        return out

    def verify_store(self) -> list[Problem]:
        """What the store and its audit log disagree on (``memvault audit verify``): the
        anchor, the ledger, and every memory against the record that last wrote it, all
        read in one snapshot (writers may go on meanwhile)."""
        self._check_open()
        with self._lock:
            return verify_store(
                self._store,
                self._master,
                self._audit,
                lambda: self._opened_users(self._store.audit_keys()),
            )

    def memory_tool(self, user: str, session: str | None = None) -> MemoryTool:
        """The memory tool for one user: a ``BetaAbstractMemoryTool`` over their memories only.

        ``session`` (optional) is an id of the application's choosing, such as a
        conversation id, written into each audit record of the tool's commands
        so a review can follow one conversation. It must be 1-128 characters of
        letters, digits and ``._:/+=-``, and carry no secret or personal data.
        """
        runner = self.runner(user, session)
        from .tool import MemoryTool  # the SDK is imported when a tool is first asked for

        return MemoryTool(runner)

    def runner(self, user: str, session: str | None = None) -> Runner:
        """The audited command runner for one user, which every adapter wraps (the SDK
        tool, ``memvault exec``): ``runner.run(tool_input)`` returns a :class:`Reply`.
        ``user`` and ``session`` as for :meth:`memory_tool`; the user is created on
        first use."""
        self._check_open()
        return self._open_runner(check_user(user), self._check_session(session))

    def _open_runner(self, user: str, session: str | None) -> Runner:
        """:meth:`runner`, for a user id and session already checked."""
        token = self._master.user_token(user)
        with self._lock, self._store.transaction(write=False, action="opening a user's memories"):
            found = self._store.user_by_lookup(token)
        if found is None:
            with (
                self._lock,
                self._audit.holding(),
                self._store.transaction(write=True, action="creating a user"),
            ):
                found = self._store.user_by_lookup(token)  # another process may have won
                if found is None:
                    found = (accounts.create_user(self._store, self._master, self._audit, user), 1)
        try:
            audit_key = self._user_audit_key(found[0], token, user)
        except IntegrityError:
            # Commands will meet the damage and fail with the integrity error; their
            # records still name the user, without paths or digests.
            _log.error("integrity_failure", command="open_audit_key")
            audit_key = UserAuditKey(None, self._audit.keys.user(user))
        tree = Tree(self._store, self._master, found[0], token)
        return Runner(tree, self._handlers, self._lock, self._audit, audit_key, user, session)

    def _user_audit_key(self, user_id: int, token: bytes, user: str) -> UserAuditKey:
        """The user's audit key (every user has one since their creation, or since the
        store's upgrade to format 2)."""
        with self._lock, self._store.transaction(write=False, action="opening a user's memories"):
            wrapped = self._store.audit_key(user_id)
        if wrapped is None:
            raise IntegrityError("a user's audit key is missing from the store")
        key = self._master.unwrap_audit_key(wrapped, token)
        return UserAuditKey(key, self._audit.keys.user(user))

    def _check_session(self, session: object) -> str | None:
        if session is None:
            return None
        if not isinstance(session, str) or not _SESSION.fullmatch(session):
            raise UsageError("a session id must be 1-128 characters of letters, digits and ._:/+=-")
        if self._handlers.screen.render(session) != session:
            raise UsageError(
                "a session id must not carry secrets or personal data; use an opaque id"
            )
        return session

    def _check_open(self) -> None:
        if self._closed:
            raise StorageError("the vault is closed")

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._stop_worker()
            with self._lock:
                if not self._audit.read_only:
                    self._audit.anchor()
                self._audit.close()
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
