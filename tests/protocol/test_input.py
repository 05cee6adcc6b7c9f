"""Malformed and wrongly typed tool input: always a clear ToolError, never a crash."""

from __future__ import annotations

import io
import json
import sys
import types
from pathlib import Path
from typing import Any

import pytest
from anthropic.lib.tools import ToolError
from hypothesis import given, settings
from hypothesis import strategies as st

from memvault import MemoryTool, Vault
from memvault.cli import main
from memvault.memory import INTEGRITY_MESSAGE, UNAVAILABLE_MESSAGE

COMMANDS = "Use one of: view, create, str_replace, insert, delete, rename."
VIEW_RANGE_SHAPE = (
    "Error: `view_range` must be a list of two integers [start, end] "
    "(end = -1 reads to the end of the file)."
)


def refused(tool: MemoryTool, raw: object) -> str:
    """The message of the ToolError that ``tool.call(raw)`` raises."""
    with pytest.raises(ToolError) as exc:
        tool.call(raw)
    assert isinstance(exc.value.content, str)
    return exc.value.content


def snapshot(tool: MemoryTool) -> list[str]:
    """What the model can see: the root listing and every file's content."""
    listing = tool.call({"command": "view", "path": "/memories"})
    files = [row.split("\t", 1)[1] for row in listing.splitlines()[2:] if not row.endswith("/")]
    return [listing, *(tool.call({"command": "view", "path": f}) for f in files)]


# -- the shape of the input ----------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "kind"),
    [
        (None, "null"),
        ([], "a list"),
        ([{"command": "view", "path": "/memories"}], "a list"),
        ("view", "a string"),
        ('{"command": "view", "path": "/memories"}', "a string"),
        (5, "an integer"),
        (1.5, "a number"),
        (True, "a boolean"),
    ],
)
def test_input_that_is_not_an_object_is_refused(tool: MemoryTool, raw: object, kind: str) -> None:
    """Input other than an object is refused, naming what arrived instead."""
    assert refused(tool, raw) == (
        f"Error: The tool input must be an object with a `command` field, got {kind}."
    )


@pytest.mark.parametrize("raw", [{}, {"path": "/memories"}, {"Command": "view"}, {"cmd": "view"}])
def test_missing_command_is_refused(tool: MemoryTool, raw: dict[str, Any]) -> None:
    """An object without a `command` field is refused and the six commands are listed."""
    assert refused(tool, raw) == f"Error: The tool input has no `command` field. {COMMANDS}"


@pytest.mark.parametrize(
    ("command", "shown"),
    [
        ("bogus", "bogus"),
        ("VIEW", "VIEW"),
        ("view ", "view "),
        ("", ""),
        ("str-replace", "str-replace"),
        ("vi\x00ew", "vi\\x00ew"),
        ("x\ud800", "x\\ud800"),
        ("x" * 100, "x" * 40 + "…"),
        ([], "a list"),
        (["view"], "a list"),
        ({"name": "view"}, "an object"),
        (5, "an integer"),
        (None, "null"),
        (True, "a boolean"),
    ],
)
def test_unknown_or_mistyped_command_is_refused(
    tool: MemoryTool, command: object, shown: str
) -> None:
    """An unknown command is named (escaped, cut short); a non-string one by its JSON type."""
    assert refused(tool, {"command": command, "path": "/memories"}) == (
        f"Error: Unknown command {shown}. {COMMANDS}"
    )


# -- missing fields ------------------------------------------------------------------

FILE = "/memories/a.txt"


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        ({"command": "view"}, "path"),
        ({"command": "view", "view_range": [1, 2]}, "path"),
        ({"command": "create", "file_text": "x"}, "path"),
        ({"command": "create", "path": FILE}, "file_text"),
        ({"command": "str_replace", "old_str": "a", "new_str": "b"}, "path"),
        ({"command": "str_replace", "path": FILE, "new_str": "b"}, "old_str"),
        ({"command": "str_replace", "path": FILE, "old_str": "a"}, "new_str"),
        ({"command": "insert", "insert_line": 0, "insert_text": "x"}, "path"),
        ({"command": "insert", "path": FILE, "insert_text": "x"}, "insert_line"),
        ({"command": "insert", "path": FILE, "insert_line": 0}, "insert_text"),
        ({"command": "delete"}, "path"),
        ({"command": "delete", "old_path": FILE}, "path"),
        ({"command": "rename", "new_path": FILE}, "old_path"),
        ({"command": "rename", "path": FILE, "new_path": "/memories/b"}, "old_path"),
        ({"command": "rename", "old_path": FILE}, "new_path"),
        ({"command": "rename"}, "old_path"),
    ],
    ids=lambda v: v if isinstance(v, str) else v["command"],
)
def test_missing_fields_are_named(tool: MemoryTool, raw: dict[str, Any], field: str) -> None:
    """A command without one of its fields is refused, naming the command and the field."""
    assert refused(tool, raw) == (
        f"Error: The `{raw['command']}` command requires the `{field}` parameter."
    )


# -- wrong types ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "kind"),
    [("3", "a string"), (3.0, "a number"), (True, "a boolean"), (None, "null"), ([3], "a list")],
)
def test_insert_line_must_be_an_integer(tool: MemoryTool, value: object, kind: str) -> None:
    """insert_line as a string, float, boolean, null or list is refused, never coerced."""
    tool.call({"command": "create", "path": FILE, "file_text": "one\ntwo\n"})
    raw = {"command": "insert", "path": FILE, "insert_line": value, "insert_text": "x"}
    assert refused(tool, raw) == f"Error: `insert_line` must be an integer, got {kind}."


@pytest.mark.parametrize(
    "value", ["1,2", "[1, 2]", [1], [], [1, 2, 3], {"start": 1, "end": 2}, 5, True]
)
def test_view_range_must_be_a_pair(tool: MemoryTool, value: object) -> None:
    """view_range that is not a list of exactly two items is refused with its expected shape."""
    tool.call({"command": "create", "path": FILE, "file_text": "one\ntwo\n"})
    assert refused(tool, {"command": "view", "path": FILE, "view_range": value}) == (
        VIEW_RANGE_SHAPE
    )


@pytest.mark.parametrize(
    ("value", "kind"),
    [
        (["1", 2], "a string"),
        ([1, "2"], "a string"),
        ([1.5, 2], "a number"),
        ([1, 2.0], "a number"),
        ([True, 2], "a boolean"),
        ([1, None], "null"),
        ([[1], 2], "a list"),
    ],
)
def test_view_range_items_must_be_integers(tool: MemoryTool, value: object, kind: str) -> None:
    """Each view_range item must be an integer: no strings, floats, booleans or null."""
    tool.call({"command": "create", "path": FILE, "file_text": "one\ntwo\n"})
    assert refused(tool, {"command": "view", "path": FILE, "view_range": value}) == (
        f"Error: `view_range` must be an integer, got {kind}."
    )


def test_null_view_range_means_absent(tool: MemoryTool) -> None:
    """view_range: null reads the whole file, as if it were not sent."""
    tool.call({"command": "create", "path": FILE, "file_text": "one\ntwo"})
    expected = f"Here's the content of {FILE} with line numbers:\n     1\tone\n     2\ttwo"
    assert tool.call({"command": "view", "path": FILE}) == expected
    assert tool.call({"command": "view", "path": FILE, "view_range": None}) == expected
    assert tool.call({"command": "view", "path": "/memories", "view_range": None}).startswith(
        "Here're the files"
    )


@pytest.mark.parametrize(
    ("value", "kind"),
    [
        (b"x", "bytes"),
        (None, "null"),
        (5, "an integer"),
        (1.0, "a number"),
        (False, "a boolean"),
        (["x"], "a list"),
        ({"text": "x"}, "an object"),
    ],
)
def test_file_text_must_be_a_string(tool: MemoryTool, value: object, kind: str) -> None:
    """file_text of any other type is refused and no file is created."""
    raw = {"command": "create", "path": FILE, "file_text": value}
    assert refused(tool, raw) == f"Error: `file_text` must be a string, got {kind}."
    assert refused(tool, {"command": "view", "path": FILE}) == (
        f"The path {FILE} does not exist. Please provide a valid path."
    )


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        ({"command": "str_replace", "path": FILE, "old_str": 1, "new_str": "b"}, "old_str"),
        ({"command": "str_replace", "path": FILE, "old_str": "a", "new_str": 1}, "new_str"),
        ({"command": "insert", "path": FILE, "insert_line": 0, "insert_text": 1}, "insert_text"),
    ],
    ids=["old_str", "new_str", "insert_text"],
)
def test_edit_texts_must_be_strings(tool: MemoryTool, raw: dict[str, Any], field: str) -> None:
    """old_str, new_str and insert_text of another type are refused by name."""
    assert refused(tool, raw) == f"Error: `{field}` must be a string, got an integer."


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"command": "view", "path": None}, "`path` must be a string, got null"),
        (
            {"command": "create", "path": 5, "file_text": "x"},
            "`path` must be a string, got an integer",
        ),
        ({"command": "delete", "path": b"/memories/a"}, "`path` must be a string, got bytes"),
        (
            {"command": "rename", "old_path": ["/memories/a"], "new_path": "/memories/b"},
            "`old_path` must be a string, got a list",
        ),
        (
            {"command": "rename", "old_path": "/memories/a", "new_path": {}},
            "`new_path` must be a string, got an object",
        ),
    ],
    ids=["view-null", "create-int", "delete-bytes", "rename-old-list", "rename-new-object"],
)
def test_paths_must_be_strings(tool: MemoryTool, raw: dict[str, Any], message: str) -> None:
    """A path field of another type is refused, naming the field and the type that came."""
    assert refused(tool, raw) == f"Error: {message}."


# -- text that is not UTF-8 ----------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        ({"command": "create", "path": FILE, "file_text": "ab\ud800"}, "file_text"),
        ({"command": "str_replace", "path": FILE, "old_str": "ab\udfff", "new_str": ""}, "old_str"),
        (
            {"command": "str_replace", "path": FILE, "old_str": "a", "new_str": "ab\ud83d"},
            "new_str",
        ),
        (
            {"command": "insert", "path": FILE, "insert_line": 0, "insert_text": "ab\udc80"},
            "insert_text",
        ),
    ],
    ids=["file_text", "old_str", "new_str", "insert_text"],
)
def test_unpaired_surrogates_are_refused(tool: MemoryTool, raw: dict[str, Any], field: str) -> None:
    """Text with an unpaired surrogate is refused as not UTF-8, with where it is."""
    assert refused(tool, raw) == (
        f"Error: `{field}` is not valid UTF-8 text (an unpaired surrogate at position 2). "
        "Send text as UTF-8."
    )


def test_surrogate_in_path_is_refused_and_escaped(tool: MemoryTool) -> None:
    """A lone surrogate in a path is refused and shown escaped, so the message is valid UTF-8."""
    message = refused(tool, {"command": "create", "path": "/memories/a\ud800", "file_text": "x"})
    assert message == (
        "Error: The path /memories/a\\ud800 is not allowed: it contains the control or invisible "
        "character U+D800. Use /memories or a path below it, such as /memories/notes.md."
    )
    message.encode()


# -- refused input changes nothing ---------------------------------------------------

REFUSED_WRITES: list[object] = [
    None,
    {"command": "create", "path": "/memories/new.txt", "file_text": b"x"},
    {"command": "create", "path": "/memories/new.txt", "file_text": "x\ud800"},
    {"command": "create", "path": "/memories/../new.txt", "file_text": "x"},
    {"command": "create", "path": "/memories/dir\\new.txt", "file_text": "x"},
    {"command": "str_replace", "path": "/memories/notes.md", "old_str": "one", "new_str": None},
    {"command": "str_replace", "path": "/memories/notes.md", "old_str": "one", "new_str": "\udc00"},
    {"command": "insert", "path": "/memories/notes.md", "insert_line": True, "insert_text": "x"},
    {"command": "insert", "path": "/memories/notes.md", "insert_line": "0", "insert_text": "x"},
    {"command": "insert", "path": "/memories/notes.md", "insert_line": 0},
    {"command": "delete", "path": "/memories/%2e%2e/memories/notes.md"},
    {"command": "delete", "path": "/memories/dir/../notes.md"},
    {"command": "delete", "path": ["/memories/notes.md"]},
    {"command": "rename", "old_path": "/memories/notes.md", "new_path": "/tmp/notes.md"},
    {"command": "rename", "old_path": "/memories/notes.md", "new_path": "/memories/\uff0e\uff0e"},
    {"command": "rename", "old_path": "/memories/notes.md"},
    {"command": "Delete", "path": "/memories/notes.md"},
    {"command": ["delete"], "path": "/memories/notes.md"},
]


def test_refused_input_changes_nothing(tool: MemoryTool) -> None:
    """After a run of refused writes, every listing and file reads exactly as before."""
    tool.call({"command": "create", "path": "/memories/notes.md", "file_text": "one\ntwo\n"})
    tool.call({"command": "create", "path": "/memories/dir/inner.txt", "file_text": "inner"})
    before = snapshot(tool)
    for raw in REFUSED_WRITES:
        with pytest.raises(ToolError):
            tool.call(raw)
    assert snapshot(tool) == before
    assert before[0].splitlines()[1:] == [
        "13B\t/memories",
        "5B\t/memories/dir/",
        "5B\t/memories/dir/inner.txt",
        "8B\t/memories/notes.md",
    ]


# -- anything at all -----------------------------------------------------------------

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text(st.characters(exclude_categories=()), max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=6,
)
PATH_LIKE = st.one_of(
    st.sampled_from(["/memories", "/memories/", "/memories/a", "/memories/a/b.md", "/memories/b"]),
    st.text(max_size=12).map(lambda s: "/memories/" + s),
    JSON,
)
TEXT_LIKE = st.one_of(st.text(st.characters(exclude_categories=()), max_size=20), JSON)
INT_LIKE = st.one_of(st.integers(-3, 5), st.integers(), JSON)
INPUTS = st.one_of(
    JSON,
    st.fixed_dictionaries(
        {
            "command": st.one_of(
                st.sampled_from(["view", "create", "str_replace", "insert", "delete", "rename"]),
                JSON,
            )
        },
        optional={
            "path": PATH_LIKE,
            "old_path": PATH_LIKE,
            "new_path": PATH_LIKE,
            "file_text": TEXT_LIKE,
            "old_str": TEXT_LIKE,
            "new_str": TEXT_LIKE,
            "insert_text": TEXT_LIKE,
            "insert_line": INT_LIKE,
            "view_range": st.one_of(st.lists(INT_LIKE, max_size=3), JSON),
        },
    ),
)


def test_any_input_returns_text_or_a_clear_tool_error(home: Path) -> None:
    """Arbitrary JSON-like input yields a result or a clear ToolError, never an internal error."""
    with Vault.open(home, durability="normal") as v:
        tool = v.memory_tool(user="alice")

        @settings(max_examples=200, deadline=None)
        @given(raw=INPUTS)
        def call(raw: object) -> None:
            try:
                result = tool.call(raw)
            except ToolError as exc:
                assert isinstance(exc.content, str)
                assert exc.content not in (UNAVAILABLE_MESSAGE, INTEGRITY_MESSAGE)
                exc.content.encode()
            else:
                assert isinstance(result, str)
                result.encode()

        call()


# -- the exec command ----------------------------------------------------------------


def run_exec(home: Path, stdin: bytes, monkeypatch: pytest.MonkeyPatch) -> tuple[int, list[Any]]:
    """Run ``memvault exec`` in-process on ``stdin``; the exit code and the parsed output lines."""
    monkeypatch.setattr(sys, "stdin", types.SimpleNamespace(buffer=io.BytesIO(stdin)))
    out, err = io.StringIO(), io.StringIO()
    code = main(["--home", str(home), "exec", "--user", "alice"], out=out, err=err)
    assert err.getvalue() == ""
    return code, [json.loads(line) for line in out.getvalue().split("\n") if line]


def test_exec_reports_bad_lines_and_keeps_going(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Non-UTF-8, non-JSON and non-object lines each get an error line; later lines still run."""
    stdin = b"\n".join(
        [
            b"\xff\xfe{}",
            b'{"command": "create", "path": "/memories/a.txt", "file_text": "hi"}',
            b"not json",
            b"",
            b'{"command": "view", "path": }',
            b"[1, 2]",
            b'"view"',
            b"null",
            b'{"command": "create", "path": "/memories/b.txt", "file_text": "\\ud800"}',
            b'{"command": "view", "path": "/memories/a.txt"}',
        ]
    )
    code, lines = run_exec(home, stdin + b"\n", monkeypatch)
    assert code == 0
    not_object = "Error: The tool input must be an object with a `command` field, got {}."
    assert lines == [
        {
            "is_error": True,
            "content": "Error: line 1 is not valid UTF-8 (byte 0); send UTF-8 JSON.",
        },
        {"is_error": False, "content": "File created successfully at: /memories/a.txt"},
        {
            "is_error": True,
            "content": "Error: line 3 is not valid JSON (Expecting value at column 1); "
            "send one JSON object per line.",
        },
        {
            "is_error": True,
            "content": "Error: line 5 is not valid JSON (Expecting value at column 29); "
            "send one JSON object per line.",
        },
        {"is_error": True, "content": not_object.format("a list")},
        {"is_error": True, "content": not_object.format("a string")},
        {"is_error": True, "content": not_object.format("null")},
        {
            "is_error": True,
            "content": "Error: `file_text` is not valid UTF-8 text (an unpaired surrogate at "
            "position 0). Send text as UTF-8.",
        },
        {
            "is_error": False,
            "content": "Here's the content of /memories/a.txt with line numbers:\n     1\thi",
        },
    ]


def test_exec_bad_utf8_mid_line_names_the_byte(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bad byte inside an otherwise valid command is reported by offset, and nothing runs."""
    stdin = (
        b'{"command": "create", "path": "/memories/\xc3(.txt", "file_text": "x"}\n'
        b'{"command": "view", "path": "/memories"}\n'
    )
    code, lines = run_exec(home, stdin, monkeypatch)
    assert code == 0
    assert lines == [
        {
            "is_error": True,
            "content": f"Error: line 1 is not valid UTF-8 (byte {stdin.index(0xC3)}); "
            "send UTF-8 JSON.",
        },
        {
            "is_error": False,
            "content": "Here're the files and directories up to 2 levels deep in /memories, "
            "excluding hidden items and node_modules:\n0B\t/memories",
        },
    ]


def test_exec_names_the_column_of_a_cut_off_line(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """JSON cut off at the end of a line is reported at that column, not at column 1."""
    code, lines = run_exec(home, b'{"command": "view"\n', monkeypatch)
    assert code == 0
    assert lines == [
        {
            "is_error": True,
            "content": "Error: line 1 is not valid JSON (Expecting ',' delimiter at column 19); "
            "send one JSON object per line.",
        }
    ]
