"""``memvault audit verify`` and ``audit forward-secure``: proving the log, and the keys
forward security lives on.

Verify reads without repairing. It names what it finds in the home around the
log too: a store anchor that cannot be read, a forward-secure key file that is
missing, damaged or older than the log (instead of taking the records that key
MACed for forgeries), and files in ``<home>/audit`` that are no segment. Its
own record is best effort: a log that verified intact is reported so even when
the record cannot be written (a full disk), with a warning that says so.
"""

from __future__ import annotations

import argparse
import json
import os
import stat
from pathlib import Path
from typing import IO, Any

from .. import _fs
from .._vault import Vault
from ..audit import (
    DIR_NAME,
    AuditLog,
    DbAuditLog,
    ForwardState,
    Problem,
    Report,
    examine,
    read_checkpoint,
    read_forward_key,
    segments,
)
from ..errors import IntegrityError, LogDamagedError, StorageError, UsageError, VaultError
from ..store import is_dsn

EXIT_OK = 0
_KEY_FILE = "the forward-secure key file"
_REFUSED = (
    "no record can be appended until `memvault audit forward-secure --restore FILE` puts "
    "the key back"
)
NO_FORWARD = (
    "forward security is for a log of files; the log of a vault on PostgreSQL is in its "
    "database, bound by its chains' ledgers and checked against your checkpoints"
)
_MAX_READ = 1 << 20  # a checkpoint or a key file is a few hundred bytes


def add_verify(actions: Any) -> None:
    check = actions.add_parser(
        "verify",
        help="check that the log is intact",
        description="Check every record's MAC and place in the chain, every segment, and the "
        "store's anchor; with --checkpoint, also that the log extends a checkpoint saved "
        "earlier. Exit 0 if intact, 1 naming the first bad record.",
    )
    check.add_argument("--checkpoint", metavar="FILE", help="a checkpoint from `audit checkpoint`")
    check.add_argument(
        "--forward-key",
        metavar="FILE",
        help="the first forward-secure key (from `audit forward-secure`), to check every "
        "forward-secure segment's MACs",
    )
    check.add_argument(
        "--jobs",
        type=int,
        default=1,
        metavar="N",
        help="a vault on PostgreSQL: check its chains with N processes at once, in one "
        "snapshot (default 1)",
    )
    check.add_argument("--json", action="store_true", help="print one JSON object")
    check.set_defaults(run=_verify)


# -- verify -------------------------------------------------------------------------------


def _verify(args: argparse.Namespace, options: dict[str, Any], out: IO[str], err: IO[str]) -> int:
    report, checkpoint = _examine(args, options)
    if not report.intact:
        # A damaged log takes no new record: the report is printed, the error raised.
        _print_report(report, args.json, out)
        raise LogDamagedError(
            f"the audit log failed verification: {report.problems[0]}",
            report=report,
            hint="keep this home as evidence; compare with a backup and the last checkpoint",
        )
    unrecorded = _record(options, report, checkpoint)
    _print_report(report, args.json, out)
    if unrecorded is not None:
        print(
            "memvault: warning: the log verified intact, but this verification could not be "
            f"recorded in it: {unrecorded}",
            file=err,
        )
    return EXIT_OK


def _examine(args: argparse.Namespace, options: dict[str, Any]) -> tuple[Report, bool]:
    """Check the log read-only; the report, and whether a checkpoint was checked."""
    with _open_read_only(options) as vault:
        audit = vault.audit
        checkpoint = None
        if args.checkpoint:
            checkpoint = read_checkpoint(read_text(args.checkpoint), audit.keys, args.checkpoint)
        if isinstance(audit, DbAuditLog):
            return _examine_db(vault, audit, args, checkpoint), checkpoint is not None
        return _examine_files(vault, audit, args, checkpoint), checkpoint is not None


def _examine_db(
    vault: Vault, audit: DbAuditLog, args: argparse.Namespace, checkpoint: dict[str, Any] | None
) -> Report:
    """A log in the vault's database: its chains, then the store against it."""
    if args.forward_key:
        raise UsageError(NO_FORWARD)
    if not 1 <= args.jobs <= 64:
        raise UsageError("--jobs must be 1 to 64")
    report = audit.examine(checkpoint, jobs=args.jobs)
    if report.intact:
        try:
            report.problems += vault.verify_store()
        except IntegrityError as exc:
            report.problems.append(Problem("the store", exc.message))
    if not report.intact:
        report.checkpoint = None
    return report


def _examine_files(
    vault: Vault, audit: AuditLog, args: argparse.Namespace, checkpoint: dict[str, Any] | None
) -> Report:
    """A log of files in the home: its segments, the anchor, then the store against it."""
    forward = None
    if args.forward_key:
        forward = read_forward_key(read_text(args.forward_key), vault.vault_id, args.forward_key)
    found: list[Problem] = []
    anchor, pending = _anchor(audit, found)
    report = examine(
        audit.directory,
        audit.keys,
        anchor=anchor,
        pending=pending,
        checkpoint=checkpoint,
        forward=forward,
        forward_here=_forward_here(audit, found),
    )
    stray = audit.unexpected_files()
    if report.intact and not found:
        # The log holds together: now the store against it, memory by memory.
        try:
            report.problems += vault.verify_store()
        except IntegrityError as exc:  # a row it could not even read: named, not raised
            report.problems.append(Problem("the store", exc.message))
    report.problems[:0] = found
    if found:
        report.checkpoint = None
    report.notes += [
        f"{DIR_NAME}/{name} is not a file memvault writes (segments are named "
        "audit-NNNNNN.jsonl): it was not read"
        for name in stray
    ]
    return report


def _open_read_only(options: dict[str, Any]) -> Vault:
    """The vault, opened to verify. On a disk too full for the store to open, the space
    the log keeps for deletes is given back first: verifying writes nothing but its
    record, which is best effort."""
    try:
        return Vault._open(**options, audit_problems=[])
    except StorageError:
        if is_dsn(options["home"]):
            raise
        home = Path(str(options["home"])).expanduser().absolute()
        if not AuditLog.make_room(home / DIR_NAME):
            raise
    return Vault._open(**options, audit_problems=[])


def _anchor(audit: AuditLog, found: list[Problem]) -> tuple[tuple[int, str] | None, list[int]]:
    """The store's anchor and pending copies; a damaged anchor is a problem to report,
    and the log is then checked without it."""
    try:
        return audit.store_head(), audit.pending()
    except IntegrityError as exc:
        found.append(Problem("the store", exc.message))
        return None, []


def _forward_here(audit: AuditLog, found: list[Problem]) -> ForwardState | None:
    """What forward security the home holds, for the walk: the key file's state, or,
    when the store says it is on and the key file cannot say, that it is on from where
    (its segments are then checked for their chain). What is wrong is added to ``found``."""
    name = audit.forward_name
    try:
        since = audit.forward_since()
    except IntegrityError as exc:
        found.append(Problem("the store", exc.message))
        since = None
    try:
        here = audit.read_forward_file()
    except IntegrityError:
        found.append(
            Problem(_KEY_FILE, f"{name} is damaged (modified outside memvault): {_REFUSED}")
        )
        here = None
    except VaultError as exc:
        found.append(Problem(_KEY_FILE, exc.message))
        here = None
    if here is None:
        if since is not None and not found:
            found.append(
                Problem(
                    _KEY_FILE,
                    f"forward security is on since segment {since}, but {name} is missing: "
                    f"{_REFUSED}",
                )
            )
        return ForwardState.unkeyed(since) if since is not None else None
    problem = _forward_problem(audit, here, since)
    if problem is not None:
        found.append(Problem(_KEY_FILE, problem))
    return here


def _forward_problem(audit: AuditLog, here: ForwardState, since: int | None) -> str | None:
    """Why a readable key file cannot MAC the next record, if it cannot."""
    name = audit.forward_name
    if since is not None and since != here.first:
        return (
            f"{name} starts at segment {here.first}, but the store says forward security is "
            f"on since segment {since}: {_REFUSED}"
        )
    files = segments(audit.directory)
    newest = files[-1][0] if files else 0
    newest_empty = bool(files) and files[-1][1].stat().st_size == 0
    if here.segment > newest:
        return (
            f"{name} is at segment {here.segment}, ahead of the log (at segment {newest}): "
            "the log was cut back, or put back from an older copy"
        )
    if here.segment < newest and not (here.segment == newest - 1 and newest_empty):
        return (
            f"forward security is on since segment {here.first}, but {name} is older than "
            f"the log (at segment {here.segment}, the log at {newest}): it was put back from "
            f"a copy, with keys the log had erased; {_REFUSED}"
        )
    return None


def _record(options: dict[str, Any], report: Report, checkpoint: bool) -> str | None:
    """Record the verification; the reason it could not be, else None."""
    try:
        with Vault.open(**options) as vault:
            vault.record_operation(
                "audit.verify", details={"records": report.records, "checkpoint": checkpoint}
            )
    except VaultError as exc:
        return exc.message
    return None


def _print_report(report: Report, as_json: bool, out: IO[str]) -> None:
    out.write(json.dumps(_report_json(report)) + "\n" if as_json else _report_text(report))


def _report_text(report: Report) -> str:
    lines = []
    if report.intact:
        where = (
            f"{report.chains} chains (the operator's and {report.chains - 1} of users')"
            if report.chains is not None
            else f"{report.segments} segment{'s' if report.segments != 1 else ''}"
        )
        lines.append(
            f"audit log intact: {report.records:,} records in {where}"
            + (f", the store's anchor at record {report.anchor:,}" if report.anchor else "")
        )
    else:
        count = len(report.problems)
        lines.append(
            f"audit log DAMAGED: {count} problem{'s' if count != 1 else ''} in "
            f"{report.records:,} readable records; the first bad place is listed first"
        )
        lines += [f"  {problem}" for problem in report.problems[:50]]
        if count > 50:
            lines.append(f"  ... and {count - 50} more")
    lines += [f"note: {note}" for note in report.notes]
    if report.checkpoint:
        lines.append(f"checkpoint: {report.checkpoint}")
    return "\n".join(lines) + "\n"


def _report_json(report: Report) -> dict[str, Any]:
    return {
        "intact": report.intact,
        "records": report.records,
        "segments": report.segments,
        "chains": report.chains,
        "last_seq": report.last_seq,
        "anchor": report.anchor,
        "problems": [{"where": p.where, "seq": p.seq, "reason": p.reason} for p in report.problems],
        "notes": report.notes,
        "checkpoint": report.checkpoint,
    }


def read_text(path: str) -> str:
    """A small text file the operator names (a checkpoint, a key file). A pipe or a device
    is refused at once instead of waited on."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC | os.O_NONBLOCK)
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise UsageError(f"cannot read {path}: not a regular file")
        data = b""
        while len(data) <= _MAX_READ and (chunk := os.read(fd, 65536)):
            data += chunk
        return data.decode("utf-8")
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise UsageError(f"cannot read {path}: not UTF-8 text") from None
    finally:
        os.close(fd)


def write_new(path: Path, text: str, mode: int = 0o644) -> None:
    """Write a file that must not exist yet (a checkpoint or a key is never overwritten),
    whole or not at all."""
    if not _fs.write_new(path, text.encode(), mode=mode):
        raise UsageError(
            f"{path} already exists", hint="choose a new file name for each checkpoint"
        )
