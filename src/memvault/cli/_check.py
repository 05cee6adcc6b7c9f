"""``memvault check``: read every page, count and memory of the store, and say what is
wrong (what opening a vault leaves out, because it reads every row)."""

from __future__ import annotations

import argparse
import json
from typing import IO, Any

from .._vault import Vault
from ._progress import progress_bar

EXIT_OK = 0
EXIT_DAMAGED = 1


def add_parsers(commands: Any) -> None:
    check = commands.add_parser(
        "check",
        help="check every page, count and memory of the store",
        description="Read the whole store: SQLite's integrity check of every page and "
        "index, the ledger's counts against the rows, and every user's keys, directories "
        "(with their tallies), texts and last-used days, each opened and authenticated. "
        "Opening a vault does none of this (its cost does not grow with the vault); run it "
        "on a schedule and after restoring a backup, with `memvault audit verify`, which "
        "checks the log. Changes nothing; the run is recorded. Exit 0 if intact, 1 if not.",
    )
    check.add_argument("--json", action="store_true", help="print the result as JSON")
    check.set_defaults(run=_check)


def _check(args: argparse.Namespace, options: dict[str, Any], out: IO[str], err: IO[str]) -> int:
    with (
        Vault.open(**options) as vault,
        progress_bar(err, None, "memories", show=not args.json, label="checking") as bar,
    ):
        report = vault.check(bar, sized=bar.resize)
    if args.json:
        print(json.dumps(report.to_json()), file=out)
        return EXIT_OK if report.intact else EXIT_DAMAGED
    counted = (
        f"{report.users:,} users, {report.files + report.directories:,} memories "
        f"({report.directories:,} directories, {report.files:,} files, "
        f"{report.bytes / 1e6:.1f} MB)"
    )
    if report.intact:
        print(
            f"vault check: intact: {counted}; every page and index; in {report.seconds:.1f} s",
            file=out,
        )
        return EXIT_OK
    print(f"vault check: DAMAGED: {len(report.problems)} problem(s) in {counted}", file=out)
    for problem in report.problems:
        print(f"  {problem}", file=out)
    print(
        "memvault: hint: restore the home from a backup; `memvault audit verify` names the "
        "records that changed what is damaged",
        file=err,
    )
    return EXIT_DAMAGED
