"""`memvault exec` answers every line and records every line (docs/protocol.md §8.1).

A line that cannot be read as one JSON value (not UTF-8, not JSON, two values,
an integer too long for Python, nesting too deep for its parser) gets an error
line, the lines after it still run, and it leaves an audit record of invalid
input that holds nothing of the line.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from memvault.cli import main
from memvault.memory import COMMANDS

MARKER = "Kestrel-Marker-5521"  # in every bad line; must appear in no answer or record
VIEW = b'{"command": "view", "path": "/memories"}'
LISTING = (
    "Here're the files and directories up to 2 levels deep in /memories, "
    "excluding hidden items and node_modules:\n0B\t/memories"
)
BAD_LINES = {
    "not UTF-8": f'{{"command": "view", "path": "/memories/{MARKER}\xff"}}'.encode("latin-1"),
    "not JSON": f"please remember {MARKER}".encode(),
    "two objects": f'{{"command": "view", "path": "/memories"}} {{"note": "{MARKER}"}}'.encode(),
    "long integer": ('{"command": "view", "path": "/memories", "' + MARKER + '": ').encode()
    + b"7" * 4301
    + b"}",
    "deep nesting": b"[" * 200_000 + MARKER.encode() + b"]" * 200_000,
}
ANSWERS = {
    "not UTF-8": "Error: line {n} is not valid UTF-8 (byte 58); send UTF-8 JSON.",
    "not JSON": "Error: line {n} is not valid JSON (Expecting value at column 1); "
    "send one JSON object per line.",
    "two objects": "Error: line {n} is not valid JSON (Extra data at column 42); "
    "send one JSON object per line.",
    "long integer": "Error: line {n} could not be read (an integer has more than 4300 digits); "
    "send one JSON object per line.",
    "deep nesting": "Error: line {n} could not be read (it is nested too deeply); "
    "send one JSON object per line.",
}


def run(argv: list[str], stdin: bytes = b"") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdin=io.BytesIO(stdin), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def command_records(home: Path) -> list[dict[str, Any]]:
    """The audit records of memory commands (operator records left out)."""
    code, out, err = run(["--home", str(home), "audit", "show", "--json"])
    assert (code, err) == (0, "")
    records = [json.loads(line) for line in out.splitlines()]
    return [r for r in records if r["command"] in ("invalid", *COMMANDS)]


def test_every_bad_line_is_answered_and_the_next_lines_run(home: Path) -> None:
    """Each kind of unreadable line gets its error line; a view after each still runs."""
    stdin = b"\n".join(line for bad in BAD_LINES.values() for line in (bad, VIEW)) + b"\n"
    code, out, err = run(["--home", str(home), "exec", "--user", "alice"], stdin)
    assert (code, err) == (0, "")
    expected = []
    for number, kind in enumerate(BAD_LINES, start=0):
        expected.append({"is_error": True, "content": ANSWERS[kind].format(n=2 * number + 1)})
        expected.append({"is_error": False, "content": LISTING})
    assert [json.loads(line) for line in out.splitlines()] == expected
    assert MARKER not in out


@pytest.mark.sqlite_only("reads or changes the home's audit log files")
def test_every_bad_line_leaves_a_record_of_invalid_input(home: Path) -> None:
    """One record per unreadable line, in order among the commands' records: outcome
    `invalid`, error `input`, and nothing of the line in it or anywhere in the log."""
    stdin = b"\n".join(line for bad in BAD_LINES.values() for line in (bad, VIEW)) + b"\n"
    assert run(["--home", str(home), "exec", "--user", "alice"], stdin)[0] == 0
    records = command_records(home)
    invalid = {
        "command": "invalid",
        "outcome": "invalid",
        "error": "input",
        "paths": None,
        "findings": None,
        "before": None,
        "after": None,
    }
    assert [
        {key: record[key] for key in invalid} if record["command"] == "invalid" else "view"
        for record in records
    ] == [invalid, "view"] * len(BAD_LINES)
    assert all(r["outcome"] == "ok" for r in records if r["command"] == "view")
    for path in (home / "audit").rglob("*"):
        if path.is_file():
            assert MARKER.encode() not in path.read_bytes(), path
    code, _, err = run(["--home", str(home), "audit", "verify"])
    assert (code, err) == (0, "")


def test_blank_lines_are_neither_answered_nor_recorded(home: Path) -> None:
    """Blank lines are skipped (but counted): no answer, no record."""
    code, out, _ = run(["--home", str(home), "exec", "--user", "alice"], b"\n  \n\r\nnope\n")
    assert code == 0
    assert [json.loads(line)["content"] for line in out.splitlines()] == [
        "Error: line 4 is not valid JSON (Expecting value at column 1); "
        "send one JSON object per line."
    ]
    assert [r["command"] for r in command_records(home)] == ["invalid"]


def test_a_real_process_survives_a_long_integer_and_deep_nesting(tmp_path: Path) -> None:
    """As a program too: exit 0, one answer per line, the last command run."""
    stdin = BAD_LINES["long integer"] + b"\n" + BAD_LINES["deep nesting"] + b"\n" + VIEW + b"\n"
    argv = ["--home", str(tmp_path / "home"), "exec", "--user", "alice"]
    done = subprocess.run(
        [sys.executable, "-m", "memvault", *argv],
        input=stdin,
        capture_output=True,
        env={**os.environ},  # the fixture's key directory, and nothing more
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, b"")
    answers = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert answers == [
        {"is_error": True, "content": ANSWERS["long integer"].format(n=1)},
        {"is_error": True, "content": ANSWERS["deep nesting"].format(n=2)},
        {"is_error": False, "content": LISTING},
    ]
