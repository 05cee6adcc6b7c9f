"""Showing the audit log to an operator: a table on a terminal, text lines, JSON Lines,
and counts (``audit show``, ``audit stats``)."""

from __future__ import annotations

import json as _json
import os
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import IO, Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from .._text import clean_text
from ._filters import Filters
from ._review import SEALED, Entry, Scan, Source

MAX_TABLE_ROWS = 2_000  # a terminal table of the newest records; JSON streams any number


# -- showing ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Totals:
    """What a review went through: records it kept, lines that were not records."""

    records: int
    skipped: int

    def note(self) -> str | None:
        """A line for the operator (on stderr) when lines were skipped, else None."""
        if not self.skipped:
            return None
        lines = "line" if self.skipped == 1 else "lines"
        return (
            f"{self.skipped} {lines} of the audit log could not be read as records and "
            "were skipped; run `memvault audit verify`"
        )


def show(
    vault: Source,
    filters: Filters | None,
    out: IO[str],
    *,
    json: bool = False,
    terminal: bool | None = None,
    color: bool | None = None,
) -> Totals:
    """Print the records that pass ``filters``.

    ``json``: one object per line (:meth:`Entry.to_json`). Otherwise, on a
    terminal (``terminal=None``: whether ``out`` is one), a table, paged when
    it is taller than the screen; elsewhere one plain line per record. ``color``
    (None: rich decides, honouring ``NO_COLOR``) applies to the table only.
    """
    scan = Scan(vault, filters)
    if json:
        for entry in scan:
            out.write(dumps(entry.to_json()) + "\n")
    elif _is_terminal(out) if terminal is None else terminal:
        _show_table(scan, _console(out, color))
    else:
        for entry in scan:
            out.write(_plain_line(entry) + "\n")
    return Totals(scan.matched, scan.skipped)


def _show_table(scan: Scan, console: Console) -> None:
    table = Table(
        "seq",
        "time (UTC)",
        "user",
        "session",
        "command",
        "outcome",
        "error",
        "paths / details",
        "redacted",
        box=None,
        header_style="bold",
        pad_edge=False,
    )
    newest: deque[Entry] = deque(maxlen=MAX_TABLE_ROWS)  # a bounded window on the log
    newest.extend(scan)
    if not newest:
        console.print(Text("no audit records match"))
        return
    for entry in newest:
        table.add_row(*_cells(entry))
    if scan.matched > len(newest):
        table.caption = (
            f"the newest {len(newest):,} of {scan.matched:,} records; narrow them with "
            "--since, --user or --path, or use --json for all"
        )
    # Page only a real terminal (the pager writes to it), and only a table taller than
    # it; rows count one line each, so a table near the height with wrapped rows may not.
    if _is_terminal(console.file) and len(newest) + 2 > console.size.height - 1:
        # Styles only when the pager is told to pass them through (less -R).
        styles = "r" in os.environ.get("LESS", "").lower()
        with console.pager(styles=styles):
            console.print(table)
    else:
        console.print(table)


_OUTCOME_STYLE = {"ok": "green", "error": "yellow", "invalid": "yellow", "not_applied": "magenta"}


def _cells(entry: Entry) -> list[Text]:
    return [
        Text(entry.label, justify="right"),
        Text(entry.time[:19].replace("T", " ")),
        Text(
            clean_text(entry.user) if entry.user else "operator", style="" if entry.user else "dim"
        ),
        Text(clean_text(entry.session or "-")),
        Text(clean_text(entry.command)),
        Text(clean_text(entry.outcome), style=_OUTCOME_STYLE.get(entry.outcome, "red")),
        Text(clean_text(entry.error or "-")),
        Text(_what(entry), style="dim" if entry.sealed else ""),
        Text(_findings_text(entry.findings)),
    ]


def _plain_line(entry: Entry) -> str:
    """One record as an aligned line: seq, time, user, session, command, outcome, error,
    then paths (or an operator action's details, or a referenced record) and findings."""
    user = clean_text(entry.user) if entry.user else "operator"
    fields = [
        f"{entry.label:>7}",
        f"{clean_text(entry.time):<27}",
        f"{user:<24}",
        f"{clean_text(entry.session or '-'):<16}",
        f"{clean_text(entry.command):<16}",
        f"{clean_text(entry.outcome):<11}",
        f"{clean_text(entry.error or '-'):<12}",
        _what(entry),
    ]
    if entry.findings:
        fields.append(f"redacted: {_findings_text(entry.findings)}")
    return "  ".join(fields).rstrip()


def _what(entry: Entry) -> str:
    if entry.sealed:
        return SEALED
    if entry.paths:
        paths = [clean_text(p) for p in entry.paths]
        return " -> ".join(paths) if entry.command == "rename" else ", ".join(paths)
    parts = []
    if entry.ref is not None:
        parts.append(f"record {entry.ref}")
    for key, value in (entry.details or {}).items():
        text = value if isinstance(value, str) else dumps(value)
        parts.append(f"{clean_text(str(key))}={clean_text(text)}")
    return " ".join(parts) or "-"


def _findings_text(findings: dict[str, int] | None) -> str:
    return ", ".join(f"{clean_text(k)}={n}" for k, n in (findings or {}).items()) or "-"


def dumps(value: object) -> str:
    # ASCII only: a name or path from the log cannot bring a terminal control
    # character or a bidi override along into a terminal or a SIEM.
    return _json.dumps(value, ensure_ascii=True, separators=(",", ":"))


def _is_terminal(out: IO[str]) -> bool:
    try:
        return out.isatty()
    except (AttributeError, ValueError):
        return False


def _console(out: IO[str], color: bool | None) -> Console:
    return Console(
        file=out,
        force_terminal=True,
        color_system=None if color is False else "auto",
        markup=False,
        highlight=False,
        emoji=False,
    )


# -- statistics ------------------------------------------------------------------------


@dataclass(slots=True)
class Stats:
    """Counts over the records a review kept."""

    records: int = 0
    skipped: int = 0
    first: str | None = None
    last: str | None = None
    operator: int = 0  # operator actions: records without a user
    redacted: int = 0  # records with findings
    users: Counter[str] = field(default_factory=Counter)
    commands: Counter[str] = field(default_factory=Counter)
    outcomes: Counter[str] = field(default_factory=Counter)
    redactions: Counter[str] = field(default_factory=Counter)

    def note(self) -> str | None:
        return Totals(self.records, self.skipped).note()

    def to_json(self) -> dict[str, Any]:
        return {
            "records": self.records,
            "unparseable": self.skipped,
            "first": self.first,
            "last": self.last,
            "operator_actions": self.operator,
            "redacted_records": self.redacted,
            "users": _ranked(self.users),
            "commands": _ranked(self.commands),
            "outcomes": _ranked(self.outcomes),
            "redactions": _ranked(self.redactions),
        }


def count(vault: Source, filters: Filters | None = None) -> Stats:
    """Counts by user, command, outcome and redaction type over the filtered records."""
    scan = Scan(vault, filters, open_paths=False)
    result = Stats()
    for entry in scan:
        result.first = result.first or entry.time
        result.last = entry.time
        if entry.user:
            result.users[entry.user] += 1
        else:
            result.operator += 1
        result.commands[entry.command] += 1
        result.outcomes[entry.outcome] += 1
        if entry.findings:
            result.redacted += 1
            result.redactions.update(entry.findings)
    result.records, result.skipped = scan.matched, scan.skipped
    return result


def stats(
    vault: Source,
    filters: Filters | None,
    out: IO[str],
    *,
    json: bool = False,
    terminal: bool | None = None,
    color: bool | None = None,
    counted: Stats | None = None,
) -> Stats:
    """Print counts by user, command, outcome and redaction type: one JSON object, a
    set of tables on a terminal, or plain lines. ``counted``: the counts, made already
    by :func:`count` with the same filters (so they can be recorded before they are
    shown)."""
    result = counted if counted is not None else count(vault, filters)
    if json:
        out.write(dumps(result.to_json()) + "\n")
        return result
    users = _ranked(result.users)
    if result.operator:
        users["(operator)"] = result.operator
    sections = [
        ("user", users),
        ("command", _ranked(result.commands)),
        ("outcome", _ranked(result.outcomes)),
        ("redaction type", _ranked(result.redactions)),
    ]
    period = (
        f"{result.records:,} records, {result.first} to {result.last}"
        if result.records
        else "no audit records match"
    )
    if _is_terminal(out) if terminal is None else terminal:
        console = _console(out, color)
        console.print(Text(period, style="bold"))
        for title, counts in sections:
            if not counts:
                continue
            table = Table(title, "records", box=None, header_style="bold", pad_edge=False)
            for key, n in counts.items():
                table.add_row(Text(clean_text(key)), Text(f"{n:,}", justify="right"))
            console.print(table)
        return result
    lines = [period]
    for title, counts in sections:
        for key, n in counts.items():
            lines.append(f"{title:<15}  {clean_text(key):<32}  {n:>9}")
    out.write("\n".join(lines) + "\n")
    return result


def _ranked(counter: Counter[str]) -> dict[str, int]:
    """Most frequent first; ties by name, so the same log prints the same way."""
    return dict(sorted(counter.items(), key=lambda item: (-item[1], item[0])))
