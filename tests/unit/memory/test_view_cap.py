"""``max_view_chars``: a view past the cap returns what fits and a note with the
``view_range`` that reads on; following the notes reads a file or a listing whole."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memvault import MemoryTool, Vault

CAP = 4_000
_EXAMPLES = itertools.count()
_WHOLE = re.compile(r'View it whole with "view_range": \[(\d+), \d+\]')
_NEXT = re.compile(r'"view_range": \[(\d+), (-?\d+)\]\.$')


@pytest.fixture
def capped(tmp_path: Path, home: Path) -> Iterator[Vault]:
    policy = tmp_path / "cap.toml"
    policy.write_text(f"version = 1\n[limits]\nmax_view_chars = {CAP}\n")
    with Vault.open(home, policy=policy) as v:
        yield v


def view(tool: MemoryTool, path: str, view_range: list[int] | None = None) -> str:
    command: dict[str, Any] = {"command": "view", "path": path}
    if view_range is not None:
        command["view_range"] = view_range
    result = tool.call(command)
    assert len(result) <= CAP
    return result


def read_all(tool: MemoryTool, path: str) -> tuple[list[str], int]:
    """Every line (or row) below the header, following the notes; and the pages read."""
    rows: list[str] = []
    view_range: list[int] | None = None
    pages = 0
    while True:
        pages += 1
        body, _, note = view(tool, path, view_range).partition("\n\nNote: ")
        rows += body.split("\n")[1:]
        whole = _WHOLE.search(note)
        if whole:  # a line shown cut that a view of its own shows whole
            line = [int(whole[1]), int(whole[1])]
            rows[-1] = view(tool, path, line).split("\n", 1)[1]
        found = _NEXT.search(note)
        if not found:
            return rows, pages
        view_range = [int(found[1]), int(found[2])]


def test_a_long_file_is_paged_with_the_range_to_read_on(capped: Vault) -> None:
    tool = capped.memory_tool(user="alice")
    text = "\n".join(f"line {n} " + "x" * 40 for n in range(1, 1001))
    tool.call({"command": "create", "path": "/memories/long.md", "file_text": text})
    first = view(tool, "/memories/long.md")
    header = "Here's the content of /memories/long.md with line numbers:\n"
    shown = first[len(header) :].partition("\n\n")[0].split("\n")
    assert first.startswith(header) and shown[0] == "     1\tline 1 " + "x" * 40
    assert first.endswith(
        f"\n\nNote: this view stops at its limit of 4,000 characters: lines 1-{len(shown)} of "
        f'1,000 are shown. To read on, view the file again with "view_range": '
        f"[{len(shown) + 1}, -1]."
    )
    rows, pages = read_all(tool, "/memories/long.md")
    assert [row.partition("\t")[2] for row in rows] == text.split("\n")
    assert [int(row.partition("\t")[0]) for row in rows] == list(range(1, 1001))
    assert pages > 10


def test_a_range_past_the_cap_suggests_the_rest_of_that_range(capped: Vault) -> None:
    tool = capped.memory_tool(user="alice")
    text = "\n".join("y" * 50 for _ in range(500))
    tool.call({"command": "create", "path": "/memories/r.md", "file_text": text})
    result = view(tool, "/memories/r.md", [100, 400])
    found = _NEXT.search(result)
    assert found is not None and found[2] == "400"
    assert f"lines 100-{int(found[1]) - 1} of 500 are shown" in result
    assert view(tool, "/memories/r.md", [100, 120]).count("\n") == 21  # fits: no note


def test_a_line_longer_than_a_view_is_shown_cut(capped: Vault) -> None:
    tool = capped.memory_tool(user="alice")
    tool.call({"command": "create", "path": "/memories/w.md", "file_text": "z" * 9_000 + "\nend"})
    result = view(tool, "/memories/w.md")
    header = "Here's the content of /memories/w.md with line numbers:\n"
    cut = CAP - len(header) - 400 - 7
    assert result == (
        f"{header}     1\t{'z' * cut}\n\nNote: line 1 is 9,000 characters long, more than one "
        f"view returns (4,000): only its first {cut:,} characters are shown. To read on, view "
        'the file again with "view_range": [2, -1].'
    )
    assert view(tool, "/memories/w.md", [2, -1]).endswith("\n     2\tend")
    alone = view(tool, "/memories/w.md", [1, 1])
    assert alone.endswith(f"only its first {cut:,} characters are shown.")


def test_a_line_that_fits_a_view_alone_is_named_and_shown_whole_on_its_own(
    capped: Vault,
) -> None:
    """A line too long to share a page with the note, but not longer than a view: the
    note names the range that shows it whole, and following the notes reads it whole."""
    tool = capped.memory_tool(user="alice")
    text = "a" * 3_920 + "\nb\nc"
    tool.call({"command": "create", "path": "/memories/l.md", "file_text": text})
    first = view(tool, "/memories/l.md")
    header = "Here's the content of /memories/l.md with line numbers:\n"
    cut = CAP - len(header) - 400 - 7
    assert first.endswith(
        f"\n\nNote: line 1 is 3,920 characters long: only its first {cut:,} are shown here. "
        'View it whole with "view_range": [1, 1], then read on with "view_range": [2, -1].'
    )
    assert view(tool, "/memories/l.md", [1, 1]) == f"{header}     1\t{'a' * 3_920}"
    assert view(tool, "/memories/l.md", [2, -1]) == f"{header}     2\tb\n     3\tc"


def test_a_long_listing_is_paged_by_rows(capped: Vault, home: Path) -> None:
    tool = capped.memory_tool(user="alice")
    for n in range(150):
        tool.call({"command": "create", "path": f"/memories/topic-{n:03}/note.md", "file_text": ""})
    first = view(tool, "/memories")
    assert first.startswith(
        "Here're the files and directories up to 2 levels deep in /memories, excluding hidden "
        "items and node_modules:\n0B\t/memories\n0B\t/memories/topic-000/\n"
    )
    assert "(row 1 is the directory itself). To read on, view the directory again with" in first
    rows, pages = read_all(tool, "/memories")
    capped.close()
    with Vault.open(home) as whole:  # the default cap: the whole listing at once
        everything = whole.memory_tool(user="alice").call({"command": "view", "path": "/memories"})
    assert rows == everything.split("\n")[1:]
    assert len(rows) == 301 and pages > 1


def test_the_default_cap_pages_a_file_at_the_size_limit(vault: Vault) -> None:
    """A 1 MiB file (the largest by default) is not returned whole: 100,000 characters at most."""
    tool = vault.memory_tool(user="alice")
    text = "\n".join(f"{n:05} " + "w" * 95 for n in range(10_000))
    tool.call({"command": "create", "path": "/memories/big.md", "file_text": text})
    result = tool.call({"command": "view", "path": "/memories/big.md"})
    assert 99_000 < len(result) <= 100_000
    assert result.endswith('To read on, view the file again with "view_range": [914, -1].')


@pytest.mark.sync_tool_only("a property over many files; async runs the same runner")
@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(lengths=st.lists(st.integers(0, 3_930), min_size=1, max_size=60))
def test_paging_reads_any_file_whole(capped: Vault, lengths: list[int]) -> None:
    """Lines that fit a view: following the notes gives every line once, whole, in order."""
    tool = capped.memory_tool(user="alice")
    text = "\n".join(chr(ord("a") + n % 26) * length for n, length in enumerate(lengths))
    path = f"/memories/p{next(_EXAMPLES)}.md"
    tool.call({"command": "create", "path": path, "file_text": text})
    rows, _ = read_all(tool, path)
    assert [row.partition("\t")[2] for row in rows] == text.split("\n")
