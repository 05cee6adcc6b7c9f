"""``memvault audit forward-secure``: turning forward security on, and putting its key
file back from the first key (a log of files only)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import IO, Any

from .._crypto import new_key
from .._vault import Vault
from ..audit import AuditLog, DbAuditLog, Event, forward_key_text, read_forward_key, segments
from ..errors import UsageError
from ._verify import EXIT_OK, NO_FORWARD, read_text, write_new


def add_forward_secure(actions: Any) -> None:
    forward = actions.add_parser(
        "forward-secure",
        help="give each new segment a MAC key of its own, erased when the log moves on",
        description="Turn on forward security (--out): from a new segment on, each segment's "
        "records are MACed with a key of its own, derived one-way from the one before and "
        "overwritten once the log moves past it, so whoever takes this machine later cannot "
        "forge earlier records. The first key is written to FILE: keep it off this machine; "
        "`audit verify --forward-key FILE` checks every forward-secure segment with it. "
        "--restore FILE puts the key file on this machine back from that first key, when it "
        "was lost, damaged, or put back from an older copy.",
    )
    what = forward.add_mutually_exclusive_group(required=True)
    what.add_argument("--out", metavar="FILE", help="where to write the first key (a new file)")
    what.add_argument(
        "--restore", metavar="FILE", help="the first key, to make <home>/audit/.fskey from"
    )
    forward.set_defaults(run=_forward_secure)


# -- forward security ---------------------------------------------------------------------


def _forward_secure(
    args: argparse.Namespace, options: dict[str, Any], out: IO[str], err: IO[str]
) -> int:
    if args.restore:
        return _forward_restore(args.restore, options, out)
    with Vault.open(**options) as vault:
        audit = _file_log(vault)
        since, here = audit.forward_since(), audit.read_forward_file()
        if since is not None or here is not None:
            on = since if since is not None else here.first if here is not None else 0
            raise UsageError(f"forward security is already on (since audit segment {on})")
        target = Path(args.out).expanduser().absolute()
        if vault.home is not None and target.is_relative_to(vault.home):
            raise UsageError(
                f"{args.out} is inside the vault's home",
                hint="the first forward-secure key must live off this machine; write it elsewhere",
            )
        key = new_key()
        # The key is written before it is used: a log MACed with a key nobody kept could
        # never be checked.
        first = _peek_next_segment(vault)
        write_new(target, forward_key_text(vault.vault_id, first, key), mode=0o600)
        try:
            with audit.holding():
                audit.start_forward_security(
                    key,
                    first,
                    lambda n: audit.record(
                        Event("audit.forward_secure", details={"first_segment": n}), txn=True
                    ),
                )
        except UsageError:  # refused before anything was started: the key is no one's
            target.unlink()
            raise
    print(f"forward security is on from audit segment {first}", file=out)
    print(f"first key written to {args.out}: move it off this machine now", file=out)
    return EXIT_OK


def _forward_restore(path: str, options: dict[str, Any], out: IO[str]) -> int:
    """Put the key file back from the first key, then record that (a second open: the
    first cannot append, as the key file was what it lacked)."""
    with Vault._open(**options, audit_problems=[]) as vault:
        start = read_forward_key(read_text(path), vault.vault_id, path)
        segment = _file_log(vault).restore_forward_key(start)
    with Vault.open(**options) as vault:
        vault.record_operation(
            "audit.forward_restore", details={"first_segment": start.first, "segment": segment}
        )
    print(
        f"the forward-secure key file is back, at audit segment {segment} (forward security "
        f"is on since segment {start.first})",
        file=out,
    )
    return EXIT_OK


def _file_log(vault: Vault) -> AuditLog:
    """The vault's log of files; a usage error for a vault whose log is in its database."""
    if isinstance(vault.audit, DbAuditLog):
        raise UsageError(NO_FORWARD)
    return vault.audit


def _peek_next_segment(vault: Vault) -> int:
    """The segment forward security will start at: the current one if it is empty."""
    files = segments(_file_log(vault).directory)
    if not files:
        return 1
    number, path = files[-1]
    return number if path.stat().st_size == 0 else number + 1
