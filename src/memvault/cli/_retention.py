"""``memvault expire`` and ``memvault users list``: retention, and who holds what.

Both show users' names and paths to the operator (as ``audit show`` does), made safe
for a terminal; both are recorded by the library before anything is printed.
"""

from __future__ import annotations

import argparse
import json
from typing import IO, Any

from .._text import clean_text
from .._vault import Vault
from ..lifecycle import Expiry, UserSummary, parse_period

EXIT_OK = 0


def add_parsers(commands: Any) -> None:
    """The ``expire`` command, on the CLI's subparsers."""
    expire = commands.add_parser(
        "expire",
        help="delete memories unused for longer than the retention period",
        description="Delete memories (files) that were not created, written, renamed or viewed "
        "for longer than the retention period, with the directories that leaves empty. Each "
        "is recorded in the audit log. A memory with no last-used day on record (written "
        "before this was tracked) is not deleted: today becomes its day.",
    )
    expire.add_argument(
        "--older-than",
        metavar="N",
        help="the retention period: days or weeks, such as 90d or 12w (default: max_idle_days "
        "in the [retention] table of the redaction policy)",
    )
    expire.add_argument("--user", metavar="U", help="only this user's memories (default: all)")
    expire.add_argument(
        "--dry-run", action="store_true", help="list what would be deleted; change nothing"
    )
    expire.add_argument("--json", action="store_true", help="print one JSON object")
    expire.set_defaults(run=_expire)


def add_list(users: Any) -> None:
    """``list``, on the ``users`` command's actions."""
    listing = users.add_parser(
        "list",
        help="the users, their memories, bytes and last activity",
        description="List the vault's users with how many memories (files) and directories "
        "each has, the bytes of their files, and their last activity (the newest day one of "
        "their memories was used; unknown for memories written before this was tracked).",
    )
    listing.add_argument("--json", action="store_true", help="print one JSON object")
    listing.set_defaults(run=_list)


def _expire(args: argparse.Namespace, options: dict[str, Any], out: IO[str], err: IO[str]) -> int:
    period = None if args.older_than is None else parse_period(args.older_than)
    with Vault.open(**options) as vault:
        report = vault.expire(period, user=args.user, dry_run=args.dry_run)
    if args.json:
        out.write(_dumps(report.to_json()))
    else:
        out.write(expiry_text(report))
    return EXIT_OK


def expiry_text(report: Expiry) -> str:
    """The report for a terminal: a line per memory, under its user, then the totals."""
    dry = report.dry_run
    lines: dict[str, list[str]] = {}
    for expired in report.expired:
        verb = "would expire" if dry else "expired"
        lines.setdefault(expired.user, []).append(
            f"{verb} {clean_text(expired.path)}  (idle {_days(expired.idle_days)})"
        )
    for found in report.directories:
        verb = "would remove" if dry else "removed"
        lines.setdefault(found.user, []).append(f"{verb} {clean_text(found.path)}/  (left empty)")
    for found in report.stamped:
        verb, note = (
            ("would stamp", "no last-used day on record: a run without --dry-run sets today")
            if dry
            else ("stamped", "no last-used day on record: counted from today")
        )
        lines.setdefault(found.user, []).append(f"{verb} {clean_text(found.path)}  ({note})")
    text = "".join(
        f"{clean_text(user)}:\n" + "".join(f"  {line}\n" for line in lines[user])
        for user in sorted(lines)
    )
    return text + _totals(report) + "\n"


def _totals(report: Expiry) -> str:
    counts = (
        f"{_count(len(report.expired), 'memory', 'memories')} "
        f"{'would expire' if report.dry_run else 'expired'}, "
        f"{_count(len(report.directories), 'directory', 'directories')} "
        f"{'would be removed' if report.dry_run else 'removed'}, "
        f"{len(report.stamped)} {'would be stamped' if report.dry_run else 'stamped'}, "
        f"{report.kept} kept"
    )
    scope = f"retention {_days(report.period_days)}, {_count(report.users, 'user', 'users')}"
    suffix = "; dry run: nothing was changed" if report.dry_run else ""
    return f"{counts} ({scope}){suffix}"


def _list(args: argparse.Namespace, options: dict[str, Any], out: IO[str], err: IO[str]) -> int:
    with Vault.open(**options) as vault:
        users = vault.users()
    if args.json:
        shown = {"users": [user.to_json() for user in users]}
        out.write(_dumps(shown))
    else:
        out.write(users_table(users))
    return EXIT_OK


def users_table(users: list[UserSummary]) -> str:
    """The users as a table for a terminal; ``-`` where the last activity is unknown."""
    if not users:
        return "the vault has no users\n"
    header = ("user", "memories", "directories", "bytes", "last activity")
    rows = [header]
    for user in users:
        shown = user.to_json()
        rows.append(
            (
                clean_text(user.user),
                str(user.memories),
                str(user.directories),
                str(user.bytes),
                shown["last_activity"] or "-",
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    out = []
    for row in rows:
        cells = [row[0].ljust(widths[0])]
        cells += [cell.rjust(width) for cell, width in zip(row[1:4], widths[1:4], strict=True)]
        cells.append(row[4])
        out.append("  ".join(cells).rstrip() + "\n")
    return "".join(out)


def _dumps(value: object) -> str:
    # ASCII only, as `audit show --json`: a name or a path cannot bring a terminal control
    # character or a bidi override along.
    return json.dumps(value, ensure_ascii=True) + "\n"


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _days(n: int) -> str:
    return _count(n, "day", "days")
