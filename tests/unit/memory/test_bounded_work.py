"""No command can stall the vault: bounded messages, linear searches, bounded input.

``str_replace`` lists at most 100 lines of a non-unique ``old_str`` and counts
the rest (docs/protocol.md §4); the lines are found in time linear in the file,
so a one-character ``old_str`` on the largest file allowed answers at once.
Text fields longer than 4 times the file size limit are refused before
anything reads or screens them (§4, the input limit).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from anthropic.lib.tools import ToolError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memvault import MemoryTool, Vault
from memvault.memory import DEFAULT_MAX_FILE_BYTES, Screen

PATH = "/memories/f.md"
START = "No replacement was performed. Multiple occurrences of old_str"


def refused(tool: MemoryTool, command: dict[str, Any]) -> str:
    with pytest.raises(ToolError) as exc:
        tool.call(command)
    assert isinstance(exc.value.content, str)
    return exc.value.content


def replace(tool: MemoryTool, old: str, path: str = PATH) -> str:
    return refused(tool, {"command": "str_replace", "path": path, "old_str": old, "new_str": "z"})


def expected(text: str, old: str) -> str:
    """The not-unique message, from its definition: every start, then its line."""
    starts = [at for at in range(len(text)) if text.startswith(old, at)]
    assert len(starts) > 1
    lines = sorted({text.count("\n", 0, at) + 1 for at in starts})
    listed = ", ".join(map(str, lines[:100]))
    more = f" … and {len(lines) - 100} more" if len(lines) > 100 else ""
    return f"{START} `{old}` in lines: {listed}{more}. Please ensure it is unique"


# -- the list of lines ---------------------------------------------------------------


def test_up_to_100_lines_the_message_is_the_documented_one(tool: MemoryTool) -> None:
    """100 lines are listed in full, without a tail."""
    tool.call({"command": "create", "path": PATH, "file_text": "x\n" * 100})
    listed = ", ".join(str(n) for n in range(1, 101))
    assert replace(tool, "x") == f"{START} `x` in lines: {listed}. Please ensure it is unique"


def test_past_100_lines_the_rest_are_counted(tool: MemoryTool) -> None:
    """The 101st line and after are counted in `… and N more`."""
    tool.call({"command": "create", "path": PATH, "file_text": "a x\n" * 301})
    listed = ", ".join(str(n) for n in range(1, 101))
    assert replace(tool, "x") == (
        f"{START} `x` in lines: {listed} … and 201 more. Please ensure it is unique"
    )


def test_a_one_character_old_str_on_every_line_of_the_largest_file(tool: MemoryTool) -> None:
    """The case that held the write lock for minutes and answered with 4 MB: 524,288 lines."""
    tool.call(
        {"command": "create", "path": PATH, "file_text": "x\n" * (DEFAULT_MAX_FILE_BYTES // 2)}
    )
    listed = ", ".join(str(n) for n in range(1, 101))
    assert replace(tool, "x") == (
        f"{START} `x` in lines: {listed} … and 524188 more. Please ensure it is unique"
    )
    # An old_str with a newline starts once per line at most: here on every line that
    # ends with one, all 524,288 of them.
    assert replace(tool, "\n") == (
        f"{START} `\n` in lines: {listed} … and 524188 more. Please ensure it is unique"
    )


def test_a_one_character_old_str_a_million_times_on_one_line(tool: MemoryTool) -> None:
    """1,048,576 occurrences, all on line 1: one line listed."""
    tool.call({"command": "create", "path": PATH, "file_text": "x" * DEFAULT_MAX_FILE_BYTES})
    assert replace(tool, "x") == f"{START} `x` in lines: 1. Please ensure it is unique"
    assert replace(tool, "xx") == f"{START} `xx` in lines: 1. Please ensure it is unique"


def test_overlapping_occurrences_of_a_long_old_str_on_the_largest_file(tool: MemoryTool) -> None:
    """An old_str that overlaps itself, 523,289 times, one line each."""
    tool.call(
        {"command": "create", "path": PATH, "file_text": "x\n" * (DEFAULT_MAX_FILE_BYTES // 2)}
    )
    old = "x\n" * 1000
    listed = ", ".join(str(n) for n in range(1, 101))
    assert replace(tool, old) == (
        f"{START} `{old}` in lines: {listed} … and 523189 more. Please ensure it is unique"
    )


@pytest.mark.parametrize(
    ("text", "old"),
    [
        ("x\nx\n\n" * 150 + "x\n" * 150 + "x\nx\n\n" * 50, "x\nx"),  # apart, then overlapping
        ("\n\nx" * 300, "\n\n"),  # an old_str that could overlap itself, found apart
        (("\n" * 12 + "x") * 40 + "\n" * 400, "\n" * 12),  # many ways to overlap
        ("a\nb\na\nb\na" * 120, "a\nb\na"),
    ],
)
def test_lines_of_an_old_str_with_a_newline(tool: MemoryTool, text: str, old: str) -> None:
    """Past 100 lines, occurrences that overlap and occurrences apart are all counted."""
    tool.call({"command": "create", "path": PATH, "file_text": text})
    assert replace(tool, old) == expected(text, old)


@pytest.fixture(scope="module")
def shared_tool(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MemoryTool]:
    root = tmp_path_factory.mktemp("bounded")
    with Vault.open(root / "home", master_key_file=root / "key", durability="normal") as vault:
        yield vault.memory_tool(user="alice")


NAMES = itertools.count()
units = st.text(alphabet="ab\n", min_size=1, max_size=4)


@st.composite
def text_and_old(draw: st.DrawFn) -> tuple[str, str]:
    """Texts that repeat a unit (so that occurrences overlap and run on), with a few
    changes; ``old_str`` a piece of the text or a repetition of the unit."""
    unit = draw(units)
    chars = list(unit * draw(st.integers(1, 150)))
    for _ in range(draw(st.integers(0, 4))):
        chars[draw(st.integers(0, len(chars) - 1))] = draw(st.sampled_from("ab\n"))
    text = "".join(chars)
    if draw(st.booleans()):
        start = draw(st.integers(0, len(text) - 1))
        old = text[start : start + draw(st.integers(1, 12))]
    else:
        old = unit * draw(st.integers(1, 4))
    return text, old


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(case=text_and_old())
def test_lines_match_their_definition(shared_tool: MemoryTool, case: tuple[str, str]) -> None:
    """Whatever the text and old_str, the lines listed and counted are those on which an
    occurrence starts, overlapping ones included."""
    text, old = case
    if sum(text.startswith(old, at) for at in range(len(text))) < 2:
        return  # found once or never: not this test's subject
    path = f"/memories/f{next(NAMES)}.md"
    shared_tool.call({"command": "create", "path": path, "file_text": text})
    assert replace(shared_tool, old, path) == expected(text, old)


# -- the input limit -----------------------------------------------------------------

LIMIT = 1000  # bytes; the input limit is 4,000 characters


@pytest.fixture
def small(home: Path) -> Iterator[MemoryTool]:
    with Vault.open(home, max_file_bytes=LIMIT) as vault:
        tool = vault.memory_tool(user="alice")
        tool.call({"command": "create", "path": PATH, "file_text": "one\ntwo\n"})
        yield tool


@pytest.fixture
def unscreened(monkeypatch: pytest.MonkeyPatch) -> None:
    """The redaction filter fails the test if it is handed anything over 4,000 characters."""
    text, render = Screen.text, Screen.render

    def checked_text(self: Screen, value: str, *args: Any) -> Any:
        assert len(value) <= 4 * LIMIT, "an over-long text reached the filter"
        return text(self, value, *args)

    def checked_render(self: Screen, value: str) -> str:
        assert len(value) <= 4 * LIMIT, "an over-long text reached the filter"
        return render(self, value)

    monkeypatch.setattr(Screen, "text", checked_text)
    monkeypatch.setattr(Screen, "render", checked_render)


def over(field: str) -> str:
    return (
        f"Error: `{field}` is 4,001 characters long, over the input limit of 4,000 "
        "characters. Send less text in one command."
    )


BIG = "y" * (4 * LIMIT + 1)


@pytest.mark.parametrize(
    ("command", "field"),
    [
        ({"command": "create", "path": "/memories/new.md", "file_text": BIG}, "file_text"),
        ({"command": "str_replace", "path": PATH, "old_str": BIG, "new_str": ""}, "old_str"),
        ({"command": "str_replace", "path": PATH, "old_str": "one", "new_str": BIG}, "new_str"),
        (
            {"command": "str_replace", "path": "/memories/no", "old_str": BIG, "new_str": ""},
            "old_str",
        ),
        ({"command": "insert", "path": PATH, "insert_line": 0, "insert_text": BIG}, "insert_text"),
    ],
)
def test_text_over_the_input_limit_is_refused_unscreened(
    small: MemoryTool, unscreened: None, command: dict[str, Any], field: str
) -> None:
    """Over 4 times the size limit: refused first, before the filter or the search."""
    assert refused(small, command) == over(field)
    assert small.call({"command": "view", "path": "/memories"}).endswith("\n8B\t/memories/f.md")


def test_text_at_the_input_limit_reaches_the_size_check(small: MemoryTool) -> None:
    """4,000 characters pass the input limit and meet the size limit as before."""
    assert refused(
        small, {"command": "create", "path": "/memories/new.md", "file_text": "y" * 4000}
    ) == (
        "Error: The file /memories/new.md would be 4,000 bytes, over the limit of 1,000 bytes. "
        "Split the content across smaller files."
    )
