"""Operators are audited too.

``audit show`` and ``audit stats`` open users' names and paths: each leaves a
record first (``audit.show``, ``audit.stats``) with what it was asked for
(which filters, never their values), and what cannot be recorded is not shown.
``audit verify`` writes nothing but its record, and that record is best effort:
a log that verified intact is reported intact, with a warning when the record
could not be written, and the exit code says what verification found.
"""

from __future__ import annotations

import errno
import io
import json
import os
from pathlib import Path
from typing import Any

import pytest

import memvault._fs
from memvault import Vault
from memvault.audit import segments
from memvault.cli import main

SECRET_NAME = "kestrel-dossier"


def cli(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def _session(home: Path) -> None:
    with Vault.open(home) as v:
        tool = v.memory_tool("alice")
        tool.call({"command": "create", "path": f"/memories/{SECRET_NAME}.md", "file_text": "x"})
        tool.call({"command": "view", "path": "/memories"})


def _lines(home: Path) -> list[bytes]:
    return [line for _, p in segments(home / "audit") for line in p.read_bytes().splitlines()]


def _last(home: Path) -> dict[str, Any]:
    record: dict[str, Any] = json.loads(_lines(home)[-1])
    return record


def _failing_write(fd: int, data: bytes) -> None:
    raise OSError(errno.EIO, os.strerror(errno.EIO))


@pytest.mark.sqlite_only("reads or changes the home's audit log files")
def test_show_is_recorded_with_its_filters_and_no_names(home: Path) -> None:
    _session(home)
    argv = ["--home", str(home), "audit", "show", "--json", "--user", "alice"]
    code, out, err = cli([*argv, "--path", f"/memories/{SECRET_NAME}.md", "--since", "1d"])
    assert (code, err) == (0, "")
    assert json.loads(out.splitlines()[0])["paths"] == [f"/memories/{SECRET_NAME}.md"]
    record = _last(home)
    assert (record["command"], record["user"], record["outcome"]) == ("audit.show", None, "ok")
    assert record["details"] == {"filters": ["user", "path", "since"], "json": True}
    raw = _lines(home)[-1]
    assert b"alice" not in raw and SECRET_NAME.encode() not in raw


@pytest.mark.sqlite_only("reads or changes the home's audit log files")
def test_stats_is_recorded_with_what_it_counted(home: Path) -> None:
    _session(home)
    code, out, err = cli(["--home", str(home), "audit", "stats", "--json", "--command", "view"])
    assert (code, err) == (0, "")
    assert json.loads(out)["records"] == 1
    record = _last(home)
    assert (record["command"], record["outcome"]) == ("audit.stats", "ok")
    assert record["details"] == {"filters": ["command"], "records": 1}
    code, out, _ = cli(["--home", str(home), "audit", "stats", "--json"])
    assert _last(home)["details"] == {"filters": [], "records": json.loads(out)["records"]}


@pytest.mark.sqlite_only("reads or changes the home's audit log files")
@pytest.mark.parametrize("action", ["show", "stats"])
def test_a_review_that_cannot_be_recorded_shows_nothing(
    home: Path, action: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _session(home)
    before = _lines(home)
    monkeypatch.setattr(memvault._fs, "write_all", _failing_write)
    code, out, err = cli(["--home", str(home), "audit", action])
    assert (code, out) == (1, "")
    assert err.splitlines()[0] == (
        "memvault: error: the audit log could not be written (an I/O error occurred) while "
        "writing the audit log"
    )
    monkeypatch.undo()
    assert _lines(home) == before


@pytest.mark.sqlite_only("reads or changes the home's audit log files")
def test_verify_reports_an_intact_log_when_its_record_cannot_be_written(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Verification is read-only; its record is best effort and the exit code is the
    verdict's."""
    _session(home)
    before = _lines(home)
    monkeypatch.setattr(memvault._fs, "write_all", _failing_write)
    code, out, err = cli(["--home", str(home), "audit", "verify"])
    assert code == 0
    assert out.startswith(f"audit log intact: {len(before)} records in 1 segment")
    assert err == (
        "memvault: warning: the log verified intact, but this verification could not be "
        "recorded in it: the audit log could not be written (an I/O error occurred) while "
        "writing the audit log\n"
    )
    assert _lines(home) == before


@pytest.mark.sqlite_only("reads or changes the home's audit log files")
def test_verify_records_itself_when_it_can(home: Path) -> None:
    _session(home)
    code, _, err = cli(["--home", str(home), "audit", "verify"])
    assert (code, err) == (0, "")
    record = _last(home)
    assert (record["command"], record["details"]) == (
        "audit.verify",
        {"records": len(_lines(home)) - 1, "checkpoint": False},
    )
