"""``memvault keys``: rotate users' data keys, rotate the master key, list the keys."""

from __future__ import annotations

import argparse
import json
import time
from typing import IO, Any

from .._text import clean_text
from .._vault import Vault
from ..errors import UsageError
from ..keys import KINDS, ProviderOptions
from ._progress import progress_bar

EXIT_OK = 0


def add_parsers(commands: Any) -> None:
    keys = commands.add_parser(
        "keys",
        help="rotate and list keys",
        description="Rotate users' data keys or the master key, and list every key.",
    )
    actions = keys.add_subparsers(dest="keys_command", metavar="ACTION")
    actions.required = True
    rotate = actions.add_parser(
        "rotate",
        help="re-seal users' memories under a new data key",
        description="Give each user named a new data key, re-seal every memory of theirs "
        "under it in batches (agents keep working), then destroy the old key. Safe to "
        "interrupt: a re-run finishes the job.",
    )
    who = rotate.add_mutually_exclusive_group(required=True)
    who.add_argument("--user", help="the user whose data key to rotate")
    who.add_argument("--all", action="store_true", help="every user")
    rotate.add_argument("--json", action="store_true", help="print the result as JSON")
    rotate.set_defaults(run=_rotate)
    _add_rotate_master(actions)
    listing = actions.add_parser(
        "list",
        help="users' key versions and the master key",
        description="Each user's data-key versions (when made, how many memories each still "
        "protects) and the master key (id, provider, age, any rotation under way).",
    )
    listing.add_argument("--json", action="store_true", help="print the document as JSON")
    listing.set_defaults(run=_list)


def _add_rotate_master(actions: Any) -> None:
    master = actions.add_parser(
        "rotate-master",
        help="replace the master key",
        description="Mint a new master key, re-wrap every user's keys under it and retire "
        "the old one; no memory is re-encrypted. A key file gets the new key in "
        "<file>.next first and replaces the old file only after the vault committed to "
        "it. Safe to interrupt: a re-run (or, for the last step, an open) finishes it.",
    )
    master.add_argument(
        "--to",
        choices=KINDS,
        help="keep the new key with another provider (default: the current one)",
    )
    master.add_argument(
        "--new-master-key-file", metavar="FILE", help="with --to file: where to keep the new key"
    )
    master.add_argument(
        "--new-passphrase-fd",
        type=int,
        metavar="FD",
        help="with a passphrase: read the new one from this file descriptor "
        "(else $MEMVAULT_NEW_PASSPHRASE, else a prompt)",
    )
    master.add_argument(
        "--new-kms-key-id", metavar="ID", help="with kms: the KMS key to wrap the new key under"
    )
    costs = master.add_argument_group(
        "passphrase costs",
        "Argon2id's costs for a new passphrase key (default: 64 MiB, 3 passes, 4 lanes; "
        "raise them to make the passphrase costlier to guess; recorded in the vault)",
    )
    costs.add_argument("--kdf-memory", type=int, metavar="MIB", help="memory, in MiB")
    costs.add_argument("--kdf-iterations", type=int, metavar="N", help="passes over it")
    costs.add_argument("--kdf-lanes", type=int, metavar="N", help="parallel lanes")
    master.add_argument("--json", action="store_true", help="print the result as JSON")
    master.set_defaults(run=_rotate_master)


def _passphrase_cost(args: argparse.Namespace) -> dict[str, int] | None:
    given = {
        "memory_kib": None if args.kdf_memory is None else args.kdf_memory * 1024,
        "iterations": args.kdf_iterations,
        "lanes": args.kdf_lanes,
    }
    return {name: value for name, value in given.items() if value is not None} or None


def new_provider_options(args: argparse.Namespace) -> ProviderOptions:
    """Where the next master key is to be kept, from ``rotate-master``'s (or ``erase``'s)
    flags; unset ones fall back to the current provider's."""
    return ProviderOptions(
        kind=getattr(args, "to", None),
        key_file=getattr(args, "new_master_key_file", None),
        new_passphrase_fd=getattr(args, "new_passphrase_fd", None),
        kms_key_id=getattr(args, "new_kms_key_id", None) or getattr(args, "kms_key_id", None),
        kms_region=getattr(args, "kms_region", None),
        kms_endpoint=getattr(args, "kms_endpoint", None),
        passphrase_cost=_passphrase_cost(args) if hasattr(args, "kdf_memory") else None,
    )


def _rotate(args: argparse.Namespace, options: dict[str, Any], out: IO[str], err: IO[str]) -> int:
    started = time.monotonic()
    results = []
    with Vault.open(**options) as vault:
        users = vault.user_ids() if args.all else [args.user]
        for user in users:
            total = vault.pending_rotation_size(user)
            with progress_bar(err, total, "memories", show=not args.json) as advance:
                results.append(vault.rotate_user_key(user, advance))
    seconds = time.monotonic() - started
    if args.json:
        doc = {
            "users": [
                {
                    "user": r.user,
                    "pseudonym": r.pseudonym,
                    "from": list(r.retired),
                    "to": r.version,
                    "memories": r.memories,
                    "bytes": r.bytes,
                    "resumed": r.resumed,
                }
                for r in results
            ],
            "seconds": round(seconds, 3),
        }
        print(json.dumps(doc), file=out)
        return EXIT_OK
    memories = sum(r.memories for r in results)
    size = sum(r.bytes for r in results)
    rate = memories / seconds if seconds > 0 else 0.0
    print(
        f"rotated {len(results)} user(s): {memories} memories ({size / 1e6:.1f} MB) re-sealed "
        f"in {seconds:.1f} s ({rate:.0f} memories/s); old data keys destroyed",
        file=out,
    )
    return EXIT_OK


def _rotate_master(
    args: argparse.Namespace, options: dict[str, Any], out: IO[str], err: IO[str]
) -> int:
    if args.new_master_key_file is not None and args.to not in (None, "file"):
        raise UsageError("--new-master-key-file goes with --to file")
    with Vault.open(**options) as vault:
        opened_with = vault.key_source
        result = vault.rotate_master_key(new_provider_options(args))
    if args.json:
        print(json.dumps(vars_of(result)), file=out)
        return EXIT_OK
    kept = f"{result.provider} {result.key_file}" if result.key_file else result.provider
    print(
        f"master key {result.from_key_id} (generation {result.from_generation}) replaced by "
        f"{result.to_key_id} (generation {result.to_generation}, {kept}); "
        f"{result.users} user(s) re-wrapped"
        + (" — an interrupted rotation was finished" if result.resumed else ""),
        file=out,
    )
    _print_moved_key(result, opened_with, out)
    return EXIT_OK


def _print_moved_key(result: Any, opened_with: str, out: IO[str]) -> None:
    """Tell the operator how to open the vault from now on, when the key file moved."""
    if result.key_file is not None and result.key_file != opened_with:
        print(
            f"the master key is now in {result.key_file}: give --master-key-file "
            f"{result.key_file} (or $MEMVAULT_MASTER_KEY_FILE) from now on",
            file=out,
        )


def vars_of(result: Any) -> dict[str, Any]:
    return {name: getattr(result, name) for name in result.__dataclass_fields__}


def _list(args: argparse.Namespace, options: dict[str, Any], out: IO[str], err: IO[str]) -> int:
    with Vault.open(**options) as vault:
        doc = vault.key_report()
    if args.json:
        print(json.dumps(doc), file=out)
        return EXIT_OK
    _render(doc, out)
    return EXIT_OK


def _render(doc: dict[str, Any], out: IO[str]) -> None:
    """``keys list`` for a person: the master key, then one line per user and version."""
    master = doc["master"]
    age = "" if master["age_days"] is None else f", {master['age_days']} days old"
    source = clean_text(str(master["source"]))
    where = (
        source if source.startswith(str(master["provider"])) else f"{master['provider']} ({source})"
    )
    print(
        f"master key {master['key_id']}: generation {master['generation']}, provider "
        f"{where}, created "
        f"{master['created'] or 'before memvault recorded it'}{age}",
        file=out,
    )
    rotation = master["rotation"]
    if rotation is not None:
        due = " (due to an erasure)" if rotation["due_to"] == "erase" else ""
        print(
            f"  a master-key rotation is under way{due}: run `memvault keys rotate-master` "
            "to finish it",
            file=out,
        )
    if not doc["users"]:
        print("no users", file=out)
    for entry in doc["users"]:
        print(f"user {clean_text(entry['user'])}:", file=out)
        for version in entry["versions"]:
            primary = " (primary)" if version["version"] == entry["primary"] else ""
            created = version["created"] or "before memvault recorded it"
            print(
                f"  version {version['version']}{primary}: {version['memories']} memories, "
                f"created {created}",
                file=out,
            )
