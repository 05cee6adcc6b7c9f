"""The ``memvault audit`` commands: verify, checkpoint, show, stats, export."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import IO, Any

from .._vault import Vault
from ..audit import (
    EXPORT_FORMATS,
    Filters,
    count,
    export,
    parse_filters,
    show,
    stats,
)
from ._forward import add_forward_secure
from ._verify import add_verify, write_new

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
    add_verify(actions)
    _add_checkpoint(actions)
    add_forward_secure(actions)
    _add_show(actions)
    _add_stats(actions)
    _add_export(actions)


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


def _checkpoint(
    args: argparse.Namespace, options: dict[str, Any], out: IO[str], err: IO[str]
) -> int:
    with Vault.open(**options) as vault:
        vault.record_operation("audit.checkpoint", details={"out": bool(args.out)})
        body = vault.audit.checkpoint()
        size = body["size"]
        text = json.dumps(body, indent=2) + "\n"
    if args.out:
        write_new(Path(args.out), text)
        print(f"checkpoint of {size:,} records written to {args.out}", file=out)
    else:
        out.write(text)
    return EXIT_OK


def _show(args: argparse.Namespace, options: dict[str, Any], out: IO[str], err: IO[str]) -> int:
    filters = _filters(args)
    with Vault.open(**options) as vault:
        # Recorded first: the records show users' names and paths in the clear, and what
        # cannot be recorded is not shown.
        vault.record_operation(
            "audit.show", details={"filters": _filter_names(args), "json": args.json}
        )
        totals = show(vault, filters, out, json=args.json)
    _note(totals.note(), err)
    return EXIT_OK


def _stats(args: argparse.Namespace, options: dict[str, Any], out: IO[str], err: IO[str]) -> int:
    filters = _filters(args)
    with Vault.open(**options) as vault:
        counted = count(vault, filters)
        # Recorded before anything is printed: the counts name users.
        vault.record_operation(
            "audit.stats", details={"filters": _filter_names(args), "records": counted.records}
        )
        result = stats(vault, filters, out, json=args.json, counted=counted)
    _note(result.note(), err)
    return EXIT_OK


def _export(args: argparse.Namespace, options: dict[str, Any], out: IO[str], err: IO[str]) -> int:
    filters = _filters(args)
    with Vault.open(**options) as vault:
        # Recorded first: an export that cannot be recorded does not happen.
        vault.record_operation(
            "audit.export", details={"format": args.format, "filters": _filter_names(args)}
        )
        written = export(vault, filters, args.format, args.out, overwrite=args.overwrite)
    print(f"{written:,} records written to {args.out} ({args.format})", file=out)
    return EXIT_OK


def _filter_names(args: argparse.Namespace) -> list[str]:
    """Which filters a review was given, for its record: their names, never their values
    (a user's name, a path)."""
    given = {
        "user": args.user,
        "path": args.path,
        "command": args.command_filter,
        "outcome": args.outcome,
        "session": args.session,
        "since": args.since,
        "until": args.until,
        "redacted_only": args.redacted_only,
    }
    return [name for name, value in given.items() if value]


def _note(note: str | None, err: IO[str]) -> None:
    if note:
        print(f"memvault: warning: {note}", file=err)
