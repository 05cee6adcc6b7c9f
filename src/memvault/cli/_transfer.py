"""``memvault import`` and ``memvault users export``: memories brought in from a
plaintext directory, and a user's memories written out for them."""

from __future__ import annotations

import argparse
import json
from typing import IO, Any

from .._text import clean_text
from .._vault import Vault
from ..lifecycle import EXPORT_FORMATS, FileResult, ImportReport
from ..redaction import label

EXIT_OK = 0
EXIT_REFUSED = 1

_STATUS = {"imported": "imported", "would_import": "would import", "refused": "refused"}
_LAYOUT = {
    "base": "DIR is a base directory: it holds memories/",
    "memories": "DIR is the memories/ directory itself",
}


def add_parsers(commands: Any) -> None:
    """``memvault import``, on the CLI's subparsers."""
    imp = commands.add_parser(
        "import",
        help="bring a plaintext memory directory into the vault",
        description="Import the memory files of the SDK's reference backend "
        "(BetaLocalFilesystemMemoryTool): DIR is its base_path (holding memories/) or that "
        "memories/ directory. Each file is stored as the model's create would store it: path "
        "guard, size limit, redaction filter, one audit record. Symbolic links, special and "
        "hidden files, files that are not UTF-8 or too large, and paths that already hold a "
        "memory are refused and listed; the rest is imported. DIR is never changed. Exit 0 "
        "if every file was imported, 1 if any was refused.",
    )
    imp.add_argument("dir", metavar="DIR", help="the plaintext memory directory")
    imp.add_argument("--user", required=True, help="whose memories the files become")
    imp.add_argument(
        "--dry-run",
        action="store_true",
        help="check every file (guard, limits, UTF-8, redaction) and store nothing",
    )
    imp.add_argument("--json", action="store_true", help="print one JSON document")
    imp.set_defaults(run=_import)


def add_export(users: Any) -> None:
    """``export``, on the subparsers of the ``users`` command."""
    export = users.add_parser(
        "export",
        help="write a user's memories to a file (subject-access export)",
        description="Write every memory of user U, its path and its text as stored (after "
        "redaction), and every directory, to the new file FILE (mode 0600): one JSON document, "
        "or a tar archive of memories/ in the reference backend's layout. Recorded in the "
        "audit log as users.export. The file holds the memories in plaintext.",
    )
    export.add_argument("user", metavar="U", help="the user whose memories to export")
    export.add_argument("--out", required=True, metavar="FILE", help="the file to write")
    export.add_argument(
        "--format", choices=EXPORT_FORMATS, default="json", help="json (default) or tar"
    )
    export.add_argument("--overwrite", action="store_true", help="replace FILE if it exists")
    export.add_argument("--json", action="store_true", help="print a one-line JSON summary")
    export.set_defaults(run=_export)


def _import(args: argparse.Namespace, options: dict[str, Any], out: IO[str], err: IO[str]) -> int:
    with Vault.open(**options) as vault:
        report = vault.import_memories(args.dir, args.user, dry_run=args.dry_run)
    if args.json:
        out.write(json.dumps(report.to_json(), ensure_ascii=False) + "\n")
    else:
        _summary(report, out)
    if not report.refused:
        return EXIT_OK
    refuses = "would refuse" if report.dry_run else "refused"
    print(
        f"memvault: error: the import {refuses} {report.refused:,} of "
        f"{_count(len(report.files), 'file')}",
        file=err,
    )
    print(
        "memvault: hint: the summary says why for each; fix them and import again (what is "
        "already imported is then refused as existing, and left as it is)",
        file=err,
    )
    return EXIT_REFUSED


def _summary(report: ImportReport, out: IO[str]) -> None:
    print(f"source: {clean_text(str(report.source))} ({_LAYOUT[report.layout]})", file=out)
    for result in report.files:
        print(_line(result), file=out)
    redacted = ""
    if report.redacted:
        kinds = ", ".join(f"{n} {label(kind, n)}" for kind, n in report.findings().items())
        redacted = f" ({report.redacted:,} of them redacted: {kinds})"
    given = report.source.parent if report.layout == "base" else report.source
    if report.dry_run:
        print(
            f"dry run: {report.imported:,} would be imported{redacted}, {report.refused:,} "
            "refused; nothing was stored",
            file=out,
        )
        print("next: run the same command without --dry-run to import", file=out)
        return
    print(f"{report.imported:,} imported{redacted}, {report.refused:,} refused", file=out)
    first = f"handle the {_count(report.refused, 'refused file')}, then " if report.refused else ""
    print(
        f"next: {first}remove the plaintext copy at {clean_text(str(given))} (it is not "
        "encrypted; memvault left it as it was)",
        file=out,
    )


def _line(result: FileResult) -> str:
    detail = result.note if result.status != "refused" else result.message
    return f"{_STATUS[result.status]:<12}  {result.path}" + (f": {detail}" if detail else "")


def _export(args: argparse.Namespace, options: dict[str, Any], out: IO[str], err: IO[str]) -> int:
    with Vault.open(**options) as vault:
        report = vault.export_memories(
            args.user, args.out, fmt=args.format, overwrite=args.overwrite
        )
    if args.json:
        print(json.dumps(report.to_json(), ensure_ascii=False), file=out)
        return EXIT_OK
    memories = _count(report.memories, "memory", "memories")
    directories = _count(report.directories, "directory", "directories")
    print(
        f"{memories} and {directories} of {clean_text(report.user)} written to "
        f"{clean_text(str(report.out))} ({report.format}, {report.bytes:,} bytes, mode 0600)",
        file=out,
    )
    print(
        "the file holds these memories in plaintext: hand it over by a safe channel, then "
        "delete it",
        file=out,
    )
    return EXIT_OK


def _count(n: int, one: str, many: str | None = None) -> str:
    return f"{n:,} {one if n == 1 else many or one + 's'}"
