"""The PostgreSQL store's schema version, checked at every open and changed only by
``memvault db migrate`` (see ``_pg_schema.py`` for the steps).

Both run inside a write transaction that holds the vault's exclusive lock, so no
command runs while the schema changes, and two migrations cannot interleave.
PostgreSQL's DDL is transactional: a migration that fails leaves the schema as it was.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import IntegrityError, StorageError, UsageError
from ._errors import DAMAGED_HINT
from ._pg_log import PgLogRows
from ._pg_schema import (
    DEFAULT_CHAINS,
    MAX_CHAINS,
    MIGRATIONS,
    PG_SCHEMA_VERSION,
    PG_TABLES_BY_VERSION,
)
from ._schema import SCHEMA_VERSION

_MIGRATE_HINT = "run `memvault --home DSN db migrate` once, with a role that may create tables"


@dataclass(frozen=True, slots=True)
class Migration:
    """What ``memvault db migrate`` did: the version before and after, and the log's
    number of chains."""

    before: int
    after: int
    chains: int


class PgSchema(PgLogRows):
    """Reading and changing the schema version."""

    def schema_version(self) -> int:
        """The database's schema version: 0 for one without memvault's tables."""
        tables = self._tables()
        if "meta" not in tables:
            return 0
        raw = self.get_meta("pg_schema")
        if raw is None:
            # Step 1 was applied before the version was kept: the store's format row
            # says the tables are there.
            return 1 if self.get_meta("schema") is not None else 0
        if not raw.isdigit() or len(raw) > 9:
            raise IntegrityError(
                "the vault database's schema version is damaged (modified outside memvault)",
                hint=DAMAGED_HINT,
            )
        return int(raw)

    def holds_vault(self) -> bool:
        """Whether the database holds a vault's identity (made by a first open)."""
        return self.schema_version() > 0 and self.get_meta("vault_id") is not None

    def initialize(self) -> int:
        """Check that the schema is the one this memvault reads (inside the caller's write
        transaction); return the store's row format. Nothing is created here: a database
        without the schema, or with an older one, is refused until it is migrated."""
        version = self.schema_version()
        if version == 0:
            raise StorageError(
                "the database holds no memvault schema: it was never migrated",
                hint=_MIGRATE_HINT,
            )
        _check_newer(version)
        if version < PG_SCHEMA_VERSION:
            raise StorageError(
                f"the database's memvault schema is at version {version}, and this memvault "
                f"needs version {PG_SCHEMA_VERSION}",
                hint=_MIGRATE_HINT + "; back the database up first",
            )
        self._check_tables(version)
        _check_format(self.get_meta("schema"))
        return SCHEMA_VERSION

    def migrate(self, chains: int | None = None) -> Migration:
        """Bring the schema to :data:`PG_SCHEMA_VERSION`, step by step (inside the caller's
        write transaction). ``chains``: how many chains the audit log gets when step 2
        makes it (16 when None); fixed from then on."""
        if chains is not None and not 1 <= chains <= MAX_CHAINS:
            raise UsageError(f"the number of audit chains must be 1 to {MAX_CHAINS}")
        before = self.schema_version()
        _check_newer(before)
        if before:
            self._check_tables(before)
            _check_format(self.get_meta("schema"))
        if before >= 2 and chains is not None and chains != self.log_chains():
            raise UsageError(
                f"the audit log already has {self.log_chains()} chains; their number is fixed "
                "when the log is made"
            )
        for step in range(before + 1, PG_SCHEMA_VERSION + 1):
            for statement in MIGRATIONS[step - 1]:
                self._exec(statement)
            if step == 1:
                if not self.is_empty():
                    raise IntegrityError(
                        "the database holds memvault's users but no schema version "
                        "(modified outside memvault)",
                        hint=DAMAGED_HINT,
                    )
                self.set_meta("schema", str(SCHEMA_VERSION).encode())
            if step == 2:
                if self.get_meta("audit_chains") is not None or self.log_extent()[0] is not None:
                    # Step 2 makes the log, and the number of its chains with it: a log
                    # found here means the version was set back outside memvault, and
                    # making it anew would send users' records to other chains.
                    raise IntegrityError(
                        f"the database holds an audit log, but its schema version says "
                        f"{before} (modified outside memvault)",
                        hint=DAMAGED_HINT,
                    )
                self.set_meta("audit_chains", str(chains or DEFAULT_CHAINS).encode())
            self.set_meta("pg_schema", str(step).encode())
        return Migration(before, PG_SCHEMA_VERSION, self.log_chains())

    def _tables(self) -> set[str]:
        rows = self._q("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")
        return {str(r[0]) for r in rows}

    def _check_tables(self, version: int) -> None:
        tables = self._tables()
        missing = [t for t in PG_TABLES_BY_VERSION[min(version, 2)] if t not in tables]
        if missing:
            raise IntegrityError(
                f"the vault database lacks its {', '.join(missing)} table (dropped outside "
                "memvault)",
                hint=DAMAGED_HINT,
            )


def _check_newer(version: int) -> None:
    if version > PG_SCHEMA_VERSION:
        raise StorageError(
            f"the database's memvault schema is at version {version}; this memvault reads "
            f"versions up to {PG_SCHEMA_VERSION}",
            hint="upgrade memvault on every worker before it opens this database",
        )


def _check_format(version: bytes | None) -> None:
    """The store's row format: only the current one was ever written to PostgreSQL."""
    if version is None or not version.isdigit() or len(version) > 9:
        raise IntegrityError(
            "the vault database's store format is missing or damaged (modified outside memvault)",
            hint=DAMAGED_HINT,
        )
    if int(version) > SCHEMA_VERSION:
        raise StorageError(
            f"the vault database has store format {version.decode()}, this memvault reads "
            f"versions up to {SCHEMA_VERSION}",
            hint="upgrade memvault to open this vault",
        )
    if int(version) != SCHEMA_VERSION:
        raise IntegrityError(
            f"the vault database has store format {version.decode()}, which memvault never "
            "wrote to PostgreSQL (modified outside memvault)",
            hint=DAMAGED_HINT,
        )
