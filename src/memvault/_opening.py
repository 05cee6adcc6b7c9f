"""Opening a vault's parts: its store, in a home directory or a PostgreSQL database, and
the audit log that goes with it; and checking what ``Vault.open`` was told."""

from __future__ import annotations

import dataclasses
import os
import re
from pathlib import Path

from . import _fs
from .audit import DIR_NAME as AUDIT_DIR
from .audit import AuditLog, DbAuditLog, Log
from .errors import ConfigurationError, StorageError, UsageError
from .keys import KeyProvider, ProviderOptions
from .lifecycle import MOVE_MARK, read_mark
from .memory import Unlocked
from .store import Durability, LogStore, PgStore, SqliteStore, describe_dsn, is_dsn

DB_NAME = "vault.db"
# "host=db dbname=memvault ...": libpq's keyword form, which is not taken for a home.
_CONNINFO = re.compile(r"\s*(host|hostaddr|dbname|user|port|service|sslmode)\s*=")


def open_store(
    location: str | os.PathLike[str], durability: Durability
) -> tuple[Path | None, str, LogStore]:
    """(home directory or None, the location as it may be shown, the store) of a vault
    location: a PostgreSQL URI, or a home directory (made if absent)."""
    if is_dsn(location):
        dsn = str(location)
        return None, describe_dsn(dsn), PgStore(dsn, durability=durability)
    if isinstance(location, str) and _CONNINFO.match(location) and not os.path.exists(location):
        raise UsageError(
            "the vault's location looks like a libpq connection string (key=value ...), "
            "which memvault does not take: it would be a directory of that name",
            hint="give a PostgreSQL URI instead: postgresql://user@host:5432/dbname?sslmode=...",
        )
    home = Path(location).expanduser().absolute()
    try:
        _fs.make_private_dirs(home)
    except OSError as exc:
        raise ConfigurationError(f"cannot create the vault home {home}: {exc.strerror}") from None
    if not home.is_dir():
        raise ConfigurationError(f"the vault home {home} is not a directory")
    return home, str(home), _open_sqlite(home, durability)


def open_log(home: Path | None, store: LogStore, unlocked: Unlocked, durability: Durability) -> Log:
    """The audit log of the store: the database's own (always in PostgreSQL; in a home, once
    the vault moved there from a database), or files in the home."""
    with store.transaction(write=False, action="opening the audit log"):
        chains = store.log_chains()
    if home is None or chains > 0:
        return DbAuditLog(unlocked.audit_keys, store, unlocked.secrets, chains)
    return AuditLog(
        home, unlocked.audit_keys, store, durable=durability == "full", ledger=unlocked.ledger
    )


def refuse_moved(store: LogStore) -> None:
    """A vault moved (or being moved) to another store opens only for ``memvault migrate``:
    a process writing to the old one would write what the new one never sees."""
    with store.transaction(write=False, action="opening the vault"):
        raw = store.get_meta(MOVE_MARK)
    if raw is None:
        return
    mark = read_mark(raw)
    if mark.get("state") == "moved":
        raise ConfigurationError(
            f"this vault was moved to {mark.get('to')}; open it there",
            hint="point --home (or $MEMVAULT_HOME, or Vault.open) at the new location",
        )
    raise ConfigurationError(
        f"this vault is being moved to {mark.get('to')}, and opens only to finish the move",
        hint=f"run memvault migrate --from ... --to {mark.get('to')} again to finish it",
    )


def _open_sqlite(home: Path, durability: Durability) -> LogStore:
    try:
        return SqliteStore(home / DB_NAME, durability=durability)
    except StorageError:
        # A disk too full for SQLite's shared-memory file: give back the space the log
        # keeps for deletes (so a delete can free more), and try once more.
        if not AuditLog.make_room(home / AUDIT_DIR):
            raise
        return SqliteStore(home / DB_NAME, durability=durability)


def check_options(durability: object, max_file_bytes: object) -> None:
    if durability not in ("full", "normal"):
        raise UsageError("durability must be 'full' or 'normal'")
    if max_file_bytes is not None and (
        isinstance(max_file_bytes, bool)
        or not isinstance(max_file_bytes, int)
        or max_file_bytes < 1
    ):
        raise UsageError("max_file_bytes must be a positive integer")


def chosen_provider(
    key_provider: str | KeyProvider | ProviderOptions | None,
    master_key_file: str | os.PathLike[str] | None,
) -> ProviderOptions | KeyProvider:
    """What ``Vault.open`` was told about the master key, as the unlocking step takes it."""
    if key_provider is None or isinstance(key_provider, str):
        return ProviderOptions(kind=key_provider, key_file=master_key_file)
    if isinstance(key_provider, ProviderOptions):
        if master_key_file is not None and key_provider.key_file is None:
            return dataclasses.replace(key_provider, key_file=master_key_file)
        return key_provider
    return key_provider
