"""The ``memvault audit`` commands: verify, checkpoint, show, stats, export."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import IO, Any

from .. import _fs
from .._crypto import new_key
from .._vault import Vault
from ..audit import (
    EXPORT_FORMATS,
    Filters,
    Report,
    export,
    forward_key_text,
    make_checkpoint,
    parse_filters,
    read_checkpoint,
    read_forward_key,
    segments,
    show,
    stats,
    verify,
)
from ..errors import LogDamagedError, UsageError

EXIT_OK = 0


def add_parsers(commands: Any) -> None:
    """The ``audit`` command and its actions, on the CLI's subparsers."""
    audit = commands.add_parser(
        "audit",
        help="review and verify the audit log",
        description="Review, verify and anchor the vault's audit log (JSON Lines under "
        "<home>/audit/).",
    )
    actions = audit.add_subparsers(dest="audit_command", metavar="ACTION")
    actions.required = True
    _add_verify(actions)
    _add_checkpoint(actions)
    _add_forward_secure(actions)
    _add_show(actions)
    _add_stats(actions)
    _add_export(actions)


def _add_verify(actions: Any) -> None:
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
    check.add_argument("--json", action="store_true", help="print one JSON object")
    check.set_defaults(run=_verify)


def _add_checkpoint(actions: Any) -> None:
    point = actions.add_parser(
        "checkpoint",
        help="print a signed checkpoint of the log, to keep off this machine",
        description="Sign (Ed25519) the log's size and head hash with a key derived from the "
        "master key, and print it as JSON. Keep it away from this machine; `audit verify "
        "--checkpoint FILE` later proves the log still extends it.",
    )
    point.add_argument("--out", metavar="FILE", help="write it to FILE (default: stdout)")
    point.set_defaults(run=_checkpoint)


def _add_forward_secure(actions: Any) -> None:
    forward = actions.add_parser(
        "forward-secure",
        help="give each new segment a MAC key of its own, erased when the log moves on",
        description="Turn on forward security: from a new segment on, each segment's records "
        "are MACed with a key of its own, derived one-way from the one before and overwritten "
        "once the log moves past it, so whoever takes this machine later cannot forge earlier "
        "records. The first key is written to FILE: keep it off this machine; `audit verify "
        "--forward-key FILE` checks every forward-secure segment with it.",
    )
    forward.add_argument(
        "--out", required=True, metavar="FILE", help="where to write the first key (a new file)"
    )
    forward.set_defaults(run=_forward_secure)


def _add_show(actions: Any) -> None:
    show = actions.add_parser(
        "show",
        help="print the audit records",
        description="Print the records that pass the filters: a table on a terminal (paged "
        "when long), plain lines otherwise, or JSON Lines with --json. Users are shown by "
        "name and paths opened while the vault holds the user's keys.",
    )
    _add_filters(show)
    show.add_argument("--json", action="store_true", help="one JSON object per record")
    show.set_defaults(run=_show)


def _add_stats(actions: Any) -> None:
    stats = actions.add_parser(
        "stats",
        help="count records by user, command, outcome and redaction type",
        description="Count the records that pass the filters by user, command, outcome and "
        "redaction type.",
    )
    _add_filters(stats)
    stats.add_argument("--json", action="store_true", help="print one JSON object")
    stats.set_defaults(run=_stats)


def _add_export(actions: Any) -> None:
    export = actions.add_parser(
        "export",
        help="write the records for a SIEM (ECS, OCSF or JSON Lines)",
        description="Write the records that pass the filters to FILE as JSON Lines, mapped to "
        "Elastic Common Schema (ecs), OCSF API Activity (ocsf), or as `show --json` (jsonl). "
        "The file (mode 0600) holds user names and paths in plaintext: keep it as "
        "sensitive as the memories.",
    )
    export.add_argument("--format", required=True, choices=EXPORT_FORMATS, help="the mapping")
    export.add_argument("--out", required=True, metavar="FILE", help="the file to write")
    export.add_argument("--overwrite", action="store_true", help="replace FILE if it exists")
    _add_filters(export)
    export.set_defaults(run=_export)


def _add_filters(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("filters (all must match; a repeated option matches any)")
    group.add_argument("--user", action="append", metavar="U", help="a user id (or pseudonym)")
    group.add_argument(
        "--path",
        action="append",
        metavar="P",
        help="a path as recorded; P/ takes everything below P; * and ? are globs",
    )
    group.add_argument(
        "--command",
        action="append",
        dest="command_filter",  # "command" is the CLI's own subcommand
        metavar="C",
        help="a command or operator action (audit.*)",
    )
    group.add_argument(
        "--outcome",
        action="append",
        metavar="O",
        help="ok, error, invalid, refused, limit, blocked, failed, not_applied",
    )
    group.add_argument(
        "--since", metavar="T", help="from T: RFC 3339, YYYY-MM-DD, or 15m/2h/7d ago"
    )
    group.add_argument("--until", metavar="T", help="up to T (a date: that whole day)")
    group.add_argument(
        "--redacted-only", action="store_true", help="records where the filter removed something"
    )
    group.add_argument("--session", action="append", metavar="S", help="a session id")


def _filters(args: argparse.Namespace) -> Filters:
    return parse_filters(
        user=args.user,
        path=args.path,
        command=args.command_filter,
        outcome=args.outcome,
        session=args.session,
        since=args.since,
        until=args.until,
        redacted_only=args.redacted_only,
    )


def _verify(args: argparse.Namespace, options: dict[str, Any], out: IO[str], err: IO[str]) -> int:
    problems_at_open: list[str] = []
    with Vault._open(**options, audit_problems=problems_at_open) as vault:
        checkpoint = None
        if args.checkpoint:
            checkpoint = read_checkpoint(_read(args.checkpoint), vault.audit.keys, args.checkpoint)
        forward = None
        if args.forward_key:
            forward = read_forward_key(_read(args.forward_key), vault.vault_id, args.forward_key)
        try:
            report = verify(
                vault.audit.directory,
                vault.audit.keys,
                anchor=vault.audit.store_head(),
                pending=vault.audit.pending(),
                checkpoint=checkpoint,
                forward=forward,
                forward_here=vault.audit.forward_state,
            )
        except LogDamagedError as damaged:
            # A damaged log takes no new record: the report is printed, the error raised.
            assert isinstance(damaged.report, Report)
            _print_report(damaged.report, args.json, out)
            raise
    # Recorded once the log is known to be intact.
    with Vault.open(**options) as vault:
        vault.record_operation(
            "audit.verify",
            details={"records": report.records, "checkpoint": checkpoint is not None},
        )
    _print_report(report, args.json, out)
    return EXIT_OK


def _print_report(report: Report, as_json: bool, out: IO[str]) -> None:
    out.write(json.dumps(_report_json(report)) + "\n" if as_json else _report_text(report))


def _report_text(report: Report) -> str:
    lines = []
    if report.intact:
        lines.append(
            f"audit log intact: {report.records:,} records in {report.segments} "
            f"segment{'s' if report.segments != 1 else ''}"
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
        "last_seq": report.last_seq,
        "anchor": report.anchor,
        "problems": [{"where": p.where, "seq": p.seq, "reason": p.reason} for p in report.problems],
        "notes": report.notes,
        "checkpoint": report.checkpoint,
    }


def _checkpoint(
    args: argparse.Namespace, options: dict[str, Any], out: IO[str], err: IO[str]
) -> int:
    with Vault.open(**options) as vault:
        vault.record_operation("audit.checkpoint", details={"out": bool(args.out)})
        size, head = vault.audit.head()
        text = json.dumps(make_checkpoint(vault.audit.keys, size, head), indent=2) + "\n"
    if args.out:
        _write_new(Path(args.out), text)
        print(f"checkpoint of {size:,} records written to {args.out}", file=out)
    else:
        out.write(text)
    return EXIT_OK


def _show(args: argparse.Namespace, options: dict[str, Any], out: IO[str], err: IO[str]) -> int:
    filters = _filters(args)
    with Vault.open(**options) as vault:
        totals = show(vault, filters, out, json=args.json)
    _note(totals.note(), err)
    return EXIT_OK


def _stats(args: argparse.Namespace, options: dict[str, Any], out: IO[str], err: IO[str]) -> int:
    filters = _filters(args)
    with Vault.open(**options) as vault:
        result = stats(vault, filters, out, json=args.json)
    _note(result.note(), err)
    return EXIT_OK


def _export(args: argparse.Namespace, options: dict[str, Any], out: IO[str], err: IO[str]) -> int:
    filters = _filters(args)
    with Vault.open(**options) as vault:
        # Recorded first: an export that cannot be recorded does not happen.
        vault.record_operation("audit.export", details={"format": args.format})
        written = export(vault, filters, args.format, args.out, overwrite=args.overwrite)
    print(f"{written:,} records written to {args.out} ({args.format})", file=out)
    return EXIT_OK


def _note(note: str | None, err: IO[str]) -> None:
    if note:
        print(f"memvault: warning: {note}", file=err)


def _forward_secure(
    args: argparse.Namespace, options: dict[str, Any], out: IO[str], err: IO[str]
) -> int:
    with Vault.open(**options) as vault:
        if vault.audit.forward_state is not None:
            raise UsageError(
                f"forward security is already on (since audit segment "
                f"{vault.audit.forward_state.first})"
            )
        target = Path(args.out).expanduser().absolute()
        if target.is_relative_to(vault.home):
            raise UsageError(
                f"{args.out} is inside the vault's home",
                hint="the first forward-secure key must live off this machine; write it elsewhere",
            )
        key = new_key()
        # The key is written before it is used: a log MACed with a key nobody kept could
        # never be checked.
        first = _peek_next_segment(vault)
        _write_new(target, forward_key_text(vault.vault_id, first, key), mode=0o600)
        started = vault.audit.start_forward_security(key)
        if started != first:
            target.unlink()
            raise UsageError("another process started a segment meanwhile; run the command again")
        vault.record_operation("audit.forward_secure", details={"first_segment": first})
    print(f"forward security is on from audit segment {first}", file=out)
    print(f"first key written to {args.out}: move it off this machine now", file=out)
    return EXIT_OK


def _peek_next_segment(vault: Vault) -> int:
    """The segment forward security will start at: the current one if it is empty."""
    files = segments(vault.audit.directory)
    if not files:
        return 1
    number, path = files[-1]
    return number if path.stat().st_size == 0 else number + 1


def _read(path: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else "not UTF-8 text"
        raise UsageError(f"cannot read {path}: {reason}") from None


def _write_new(path: Path, text: str, mode: int = 0o644) -> None:
    """Write a file that must not exist yet (a checkpoint or a key is never overwritten),
    whole or not at all."""
    if not _fs.write_new(path, text.encode(), mode=mode):
        raise UsageError(
            f"{path} already exists", hint="choose a new file name for each checkpoint"
        )
