"""``memvault users``: the people whose memories the vault keeps (erase them, and more)."""

from __future__ import annotations

import argparse
import json
from typing import IO, Any

from .._vault import Vault
from ..errors import UsageError
from . import _retention, _transfer
from ._keys import new_provider_options, vars_of

EXIT_OK = 0


def add_parsers(commands: Any) -> argparse.ArgumentParser:
    """The ``users`` group; returns its sub-parsers' holder for other modules' actions."""
    users = commands.add_parser(
        "users",
        help="erase, export and list users",
        description="The users whose memories the vault keeps.",
    )
    actions = users.add_subparsers(dest="users_command", metavar="ACTION")
    actions.required = True
    erase = actions.add_parser(
        "erase",
        help="crypto-erase a user (irreversible)",
        description="Destroy the user's keys and delete their memories, then rotate the "
        "master key, so that neither the vault nor a copy of it made before can open "
        "anything of theirs with the key material that remains. Their audit records keep "
        "their pseudonym; their paths stay sealed for good. Needs --yes, or typing the "
        "user id at the prompt. With the env provider, the new master key is read from "
        "$MEMVAULT_NEW_MASTER_KEY; with a passphrase, a new passphrase is asked for.",
    )
    erase.add_argument("user", help="the user to erase")
    erase.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    erase.add_argument("--json", action="store_true", help="print the result as JSON")
    erase.set_defaults(run=_erase)
    _transfer.add_export(actions)
    _retention.add_list(actions)
    return actions  # type: ignore[no-any-return]


def _confirm(args: argparse.Namespace, err: IO[str]) -> None:
    if args.yes:
        return
    stdin = args.stdin
    if not (hasattr(stdin, "isatty") and stdin.isatty()):
        raise UsageError(
            "erasing a user cannot be undone: confirm with --yes",
            hint="nothing was changed",
        )
    print(
        "Erasing a user destroys their keys and memories for good. Type the user id to confirm: ",
        end="",
        file=err,
        flush=True,
    )
    answer = stdin.readline().decode("utf-8", "replace").rstrip("\r\n")
    if answer != args.user:
        raise UsageError("the id typed does not match; nothing was erased")


def _erase(args: argparse.Namespace, options: dict[str, Any], out: IO[str], err: IO[str]) -> int:
    _confirm(args, err)
    with Vault.open(**options) as vault:
        result = vault.erase_user(args.user, new_provider_options(args))
    rotation = result.rotation
    if not result.purged:
        print(
            "memvault: warning: another process kept reading the vault, so the write-ahead "
            "log (vault.db-wal) still holds the deleted rows until it lets a checkpoint run",
            file=err,
        )
    if args.json:
        doc = {
            "pseudonym": result.pseudonym,
            "memories": result.memories,
            "finished_only": result.finished_only,
            "wal_emptied": result.purged,
            "rotation": vars_of(rotation),
        }
        print(json.dumps(doc), file=out)
        return EXIT_OK
    if result.finished_only:
        print(f"finished an interrupted erasure; master key is now {rotation.to_key_id}", file=out)
    else:
        print(
            f"erased user {result.pseudonym} ({result.memories} memories); master key "
            f"{rotation.from_key_id} retired, now {rotation.to_key_id}; "
            f"{rotation.users} other user(s) re-wrapped",
            file=out,
        )
    return EXIT_OK
