"""Only the segment names the appender writes are the log.

``audit-000001.jsonl`` (six digits, more only past 999999) is a segment; a copy
under any other name (``audit-1.jsonl``, ``audit-0000001.jsonl``,
``audit-000001.jsonl.bak``) is never read: not by the appender, not by a
review, not by verify, which names it as a file it did not read.
"""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest

from memvault import Vault
from memvault.audit import segments
from memvault.cli import main

STRAYS = ("audit-1.jsonl", "audit-0000001.jsonl", "audit-000001.jsonl.bak", "audit-000002.jsonl~")


def cli(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def _vault(home: Path) -> None:
    with Vault.open(home) as v:
        v.memory_tool("alice").call({"command": "view", "path": "/memories"})


@pytest.mark.sqlite_only("reads or changes the home's audit log files")
@pytest.mark.parametrize("name", STRAYS)
def test_a_copy_under_another_name_is_not_a_segment(home: Path, name: str) -> None:
    """segments() lists the appender's names only."""
    _vault(home)
    directory = home / "audit"
    shutil.copy(directory / "audit-000001.jsonl", directory / name)
    assert [path.name for _, path in segments(directory)] == ["audit-000001.jsonl"]


def test_numbers_past_six_digits_keep_their_names(tmp_path: Path) -> None:
    """Segment 1000000 and on are named with as many digits as they need, and read."""
    for name in ("audit-000001.jsonl", "audit-999999.jsonl", "audit-1000000.jsonl"):
        (tmp_path / name).write_bytes(b"")
    assert [n for n, _ in segments(tmp_path)] == [1, 999999, 1000000]


@pytest.mark.sqlite_only("reads or changes the home's audit log files")
def test_verify_names_files_it_did_not_read_and_stays_intact(home: Path) -> None:
    """A copy of segment 1 under a 7-digit name is not taken for a second segment 1."""
    _vault(home)
    directory = home / "audit"
    for name in STRAYS:
        shutil.copy(directory / "audit-000001.jsonl", directory / name)
    code, out, err = cli(["--home", str(home), "audit", "verify"])
    assert (code, err) == (0, ""), out
    assert out.splitlines()[1:] == [
        f"note: audit/{name} is not a file memvault writes (segments are named "
        "audit-NNNNNN.jsonl): it was not read"
        for name in sorted(STRAYS)
    ]
    records = len((directory / "audit-000001.jsonl").read_bytes().splitlines())
    code, out, _ = cli(["--home", str(home), "audit", "stats", "--json"])
    assert code == 0 and json.loads(out)["records"] == records


@pytest.mark.sqlite_only("reads or changes the home's audit log files")
def test_the_appender_never_appends_to_a_stray_file(home: Path) -> None:
    """A stray file with a bigger number-like name does not become the newest segment."""
    _vault(home)
    directory = home / "audit"
    (directory / "audit-0000009.jsonl").write_bytes(b"")
    _vault(home)
    assert (directory / "audit-0000009.jsonl").read_bytes() == b""
    code, out, err = cli(["--home", str(home), "audit", "verify"])
    assert (code, err) == (0, ""), out
