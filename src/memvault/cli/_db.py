"""``memvault db``: the schema of a vault's PostgreSQL database.

These commands need no master key: the schema holds no secret, and whoever runs the
fleet's migrations (a DBA, a deploy job) need not hold the key that opens the memories.
"""

from __future__ import annotations

import argparse
from typing import IO, Any

from ..errors import UsageError
from ..store import DEFAULT_CHAINS, MAX_CHAINS, PG_SCHEMA_VERSION, PgStore, describe_dsn, is_dsn

EXIT_OK = 0


def add_parsers(commands: Any) -> None:
    """The ``db`` command and its actions, on the CLI's subparsers."""
    db = commands.add_parser(
        "db",
        help="create or upgrade the schema of a vault's PostgreSQL database",
        description="The schema of a vault on PostgreSQL (--home postgresql://...). A vault "
        "opens only a database whose schema is this memvault's: migrate it first, "
        "explicitly, with a role that may create tables.",
    )
    actions = db.add_subparsers(dest="db_command", metavar="ACTION")
    actions.required = True
    migrate = actions.add_parser(
        "migrate",
        help="create the schema, or bring it up to this memvault's version",
        description="Create memvault's tables in the database, or apply the steps an older "
        "schema lacks, in one transaction while no command runs. A newer schema is refused.",
    )
    migrate.add_argument(
        "--chains",
        type=int,
        metavar="N",
        help=f"the audit log's chains of users' records, fixed when the log is made (default "
        f"{DEFAULT_CHAINS}; 1-{MAX_CHAINS}): commands of users in different chains commit at "
        "once",
    )
    migrate.set_defaults(run=_migrate)
    status = actions.add_parser(
        "status",
        help="print the schema's version, and whether it needs migrating",
        description="Print the database's schema version and the number of audit chains. "
        "Exit 0 if it is this memvault's version, 1 if it needs `db migrate`.",
    )
    status.set_defaults(run=_status)


def _store(options: dict[str, Any]) -> PgStore:
    home = options["home"]
    if not is_dsn(home):
        raise UsageError(
            f"`memvault db` works on a PostgreSQL database, and the home is a directory ({home})",
            hint="give the database's URI: --home postgresql://user@host/db (or $MEMVAULT_HOME)",
        )
    return PgStore(str(home))


def _migrate(args: argparse.Namespace, options: dict[str, Any], out: IO[str], err: IO[str]) -> int:
    store = _store(options)
    try:
        done = store.migrate_schema(args.chains)
    finally:
        store.close()
    where = describe_dsn(str(options["home"]))
    if done.before == done.after:
        print(f"{where}: the schema is at version {done.after} already; nothing to do", file=out)
    else:
        made = "created" if done.before == 0 else f"migrated from version {done.before}"
        print(f"{where}: schema {made} to version {done.after}", file=out)
    print(f"audit log: {done.chains} chains of users' records, and the operator's", file=out)
    return EXIT_OK


def _status(args: argparse.Namespace, options: dict[str, Any], out: IO[str], err: IO[str]) -> int:
    store = _store(options)
    try:
        with store.transaction(write=False, action="reading the schema version"):
            version = store.schema_version()
            chains = store.log_chains() if version >= 2 else None
            holds = store.get_meta("vault_id") is not None if version else False
    finally:
        store.close()
    where = describe_dsn(str(options["home"]))
    print(f"{where}: schema version {version} (this memvault's: {PG_SCHEMA_VERSION})", file=out)
    if chains is not None:
        print(f"audit log: {chains} chains of users' records, and the operator's", file=out)
    print(f"vault: {'made' if holds else 'not made yet (the first open makes it)'}", file=out)
    if version != PG_SCHEMA_VERSION:
        hint = "run `memvault db migrate`" if version < PG_SCHEMA_VERSION else "upgrade memvault"
        print(f"memvault: the schema needs attention: {hint}", file=err)
        return 1
    return EXIT_OK
