"""``memvault migrate``: moving a vault between a home and a PostgreSQL database."""

from __future__ import annotations

import argparse
import json
from typing import IO, Any

from .._vault import Vault
from ..store import DEFAULT_CHAINS, MAX_CHAINS

EXIT_OK = 0


def add_parsers(commands: Any) -> None:
    """``memvault migrate``, on the CLI's subparsers."""
    move = commands.add_parser(
        "migrate",
        help="move a vault between a home directory and a PostgreSQL database",
        description="Move the vault at --from (a home directory or a postgresql:// URI) to "
        "--to (an empty home, or a database `db migrate` made and no vault holds), copying "
        "every row as stored, ciphertexts and audit log unchanged: nothing is decrypted. "
        "The vault must verify intact; afterwards it opens only at --to. Stop every process "
        "that uses the vault first. Safe to interrupt: the same command resumes the move.",
    )
    move.add_argument("--from", dest="source", required=True, metavar="HOME|URI")
    move.add_argument("--to", dest="target", required=True, metavar="HOME|URI")
    move.add_argument(
        "--chains",
        type=int,
        default=DEFAULT_CHAINS,
        metavar="N",
        help=f"moving a log of files into a home: the chains of its log in the database "
        f"(default {DEFAULT_CHAINS}; 1-{MAX_CHAINS})",
    )
    move.add_argument("--json", action="store_true", help="print one JSON object")
    move.set_defaults(run=_migrate)


def _migrate(args: argparse.Namespace, options: dict[str, Any], out: IO[str], err: IO[str]) -> int:
    opened = {**options, "home": args.source}
    with Vault._open(**opened, moving=True) as vault:

        def progress(step: str, rows: int) -> None:
            if not args.json:
                print(f"  copied {rows:,} rows ({step})", file=err)

        done = vault.move_to(args.target, chains=args.chains, progress=progress)
    if args.json:
        out.write(json.dumps(done.__dict__) + "\n")
        return EXIT_OK
    print(
        f"moved {done.source} to {done.target}: {done.users:,} users, {done.memories:,} "
        f"memories, {done.data_keys:,} data keys, {done.records:,} audit records"
        + (" (resumed)" if done.resumed else ""),
        file=out,
    )
    print(f"the vault now opens at {done.target} only", file=out)
    return EXIT_OK
