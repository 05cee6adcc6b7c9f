"""The exact result strings of the six commands (docs/protocol.md §2-§7), success and error."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from anthropic.lib.tools import ToolError

from memvault import MemoryTool, Vault
from memvault.memory import Handlers

MiB = 1024 * 1024
DIR_HEADER = (
    "Here're the files and directories up to 2 levels deep in {}, "
    "excluding hidden items and node_modules:"
)
FILE_HEADER = "Here's the content of {} with line numbers:\n"
EDITED = (
    "The memory file has been edited. Here is the snippet showing the change (with line numbers):\n"
)


def call(tool: MemoryTool, command: str, **fields: Any) -> str:
    """The result of a command that must succeed."""
    return tool.call({"command": command, **fields})


def refused(tool: MemoryTool, command: str, **fields: Any) -> str:
    """The error message of a command that must fail."""
    with pytest.raises(ToolError) as err:
        tool.call({"command": command, **fields})
    content = err.value.content
    assert isinstance(content, str)
    return content


def create(tool: MemoryTool, path: str, text: str = "") -> None:
    assert call(tool, "create", path=path, file_text=text) == (
        f"File created successfully at: {path}"
    )


def content(tool: MemoryTool, path: str) -> str:
    """A file's text, rebuilt from its numbered view (lines split on "\\n" only)."""
    shown = call(tool, "view", path=path)
    header, _, body = shown.partition("\n")
    assert header + "\n" == FILE_HEADER.format(path)
    return "\n".join(row.partition("\t")[2] for row in body.split("\n"))


def listing(path: str, *rows: str) -> str:
    return "\n".join((DIR_HEADER.format(path), *rows))


def numbered(first: int, *lines: str) -> str:
    return "\n".join(f"{n:>6}\t{line}" for n, line in enumerate(lines, start=first))


TEN = "\n".join(f"l{i}" for i in range(1, 11))  # ten lines, no final newline


# -- view: files ---------------------------------------------------------------------


def test_view_file_numbers_lines_right_aligned_width_six_with_tab(tool: MemoryTool) -> None:
    """A file is shown under its header, each line as a 6-wide number, a tab, the line."""
    create(tool, "/memories/a.txt", "first\nsecond")
    assert call(tool, "view", path="/memories/a.txt") == (
        "Here's the content of /memories/a.txt with line numbers:\n     1\tfirst\n     2\tsecond"
    )


def test_view_file_with_final_newline_shows_empty_last_line(tool: MemoryTool) -> None:
    """Lines are text.split("\\n"): a final newline gives a last, empty numbered line."""
    create(tool, "/memories/a.txt", "only\n")
    assert call(tool, "view", path="/memories/a.txt") == (
        FILE_HEADER.format("/memories/a.txt") + "     1\tonly\n     2\t"
    )


def test_view_empty_file_shows_one_empty_line(tool: MemoryTool) -> None:
    """An empty file is one empty line."""
    create(tool, "/memories/empty.txt")
    assert call(tool, "view", path="/memories/empty.txt") == (
        FILE_HEADER.format("/memories/empty.txt") + "     1\t"
    )


def test_view_line_ten_keeps_alignment(tool: MemoryTool) -> None:
    """Two-digit line numbers stay right-aligned in the 6-character field."""
    create(tool, "/memories/ten.txt", TEN)
    shown = call(tool, "view", path="/memories/ten.txt")
    assert shown.endswith("\n     9\tl9\n    10\tl10")
    assert shown == FILE_HEADER.format("/memories/ten.txt") + numbered(1, *TEN.split("\n"))


def test_view_line_100000_fills_the_field_exactly(tool: MemoryTool) -> None:
    """Line 99999 is padded by one space; 100000 and 100001 fill all six characters."""
    create(tool, "/memories/long.txt", "\n".join(str(n) for n in range(1, 100_002)))
    assert call(tool, "view", path="/memories/long.txt", view_range=[99_999, -1]) == (
        FILE_HEADER.format("/memories/long.txt") + " 99999\t99999\n100000\t100000\n100001\t100001"
    )


def test_view_range_shows_inclusive_lines_with_their_own_numbers(tool: MemoryTool) -> None:
    """view_range [start, end] shows lines start..end numbered as in the file."""
    create(tool, "/memories/ten.txt", TEN)
    view = FILE_HEADER.format("/memories/ten.txt")
    assert call(tool, "view", path="/memories/ten.txt", view_range=[3, 5]) == (
        view + "     3\tl3\n     4\tl4\n     5\tl5"
    )
    assert call(tool, "view", path="/memories/ten.txt", view_range=[7, 7]) == view + "     7\tl7"
    assert call(tool, "view", path="/memories/ten.txt", view_range=[1, 1]) == view + "     1\tl1"


def test_view_range_end_minus_one_reads_to_the_end(tool: MemoryTool) -> None:
    """end = -1 means the last line; start may be the last line itself."""
    create(tool, "/memories/ten.txt", TEN)
    view = FILE_HEADER.format("/memories/ten.txt")
    assert call(tool, "view", path="/memories/ten.txt", view_range=[8, -1]) == (
        view + "     8\tl8\n     9\tl9\n    10\tl10"
    )
    assert call(tool, "view", path="/memories/ten.txt", view_range=[10, -1]) == view + "    10\tl10"
    assert call(tool, "view", path="/memories/ten.txt", view_range=[1, -1]) == call(
        tool, "view", path="/memories/ten.txt"
    )


def test_view_range_end_past_the_last_line_is_clamped(tool: MemoryTool) -> None:
    """An end beyond the file stops at its last line (here the empty one after "\\n")."""
    create(tool, "/memories/a.txt", "x\ny\n")
    assert call(tool, "view", path="/memories/a.txt", view_range=[2, 99]) == (
        FILE_HEADER.format("/memories/a.txt") + "     2\ty\n     3\t"
    )


@pytest.mark.parametrize(
    "view_range", [[0, 2], [0, -1], [-1, -1], [4, -1], [4, 4], [3, 2], [2, 1], [1, -2], [1, 0]]
)
def test_view_range_outside_the_file_is_refused(tool: MemoryTool, view_range: list[int]) -> None:
    """start must be in 1..lines and end -1 or >= start; anything else is an error."""
    create(tool, "/memories/abc.txt", "a\nb\nc")
    assert refused(tool, "view", path="/memories/abc.txt", view_range=view_range) == (
        f"Error: Invalid `view_range` parameter: [{view_range[0]}, {view_range[1]}]. "
        "Use 1 <= start <= 3 and start <= end, or end = -1 to read to the end of the file."
    )


def test_view_range_on_a_directory_selects_rows_of_its_listing(tool: MemoryTool) -> None:
    """On a directory, view_range pages through the listing's rows (row 1 is the directory
    itself), with the file's range checks and a message naming the listing."""
    for name in ("a.txt", "b.txt", "c/d.txt"):
        create(tool, f"/memories/d/{name}", "x")
    header = (
        "Here're the files and directories up to 2 levels deep in /memories/d, "
        "excluding hidden items and node_modules:\n"
    )
    assert tool.call({"command": "view", "path": "/memories/d", "view_range": [2, 3]}) == (
        header + "1B\t/memories/d/a.txt\n1B\t/memories/d/b.txt"
    )
    assert tool.call({"command": "view", "path": "/memories/d", "view_range": [4, -1]}) == (
        header + "1B\t/memories/d/c/\n1B\t/memories/d/c/d.txt"
    )
    assert refused(tool, "view", path="/memories/d", view_range=[6, -1]) == (
        "Error: Invalid `view_range` parameter: [6, -1]. Use 1 <= start <= 5 and start <= "
        "end, or end = -1 to read to the end of the listing."
    )


def test_view_missing_path(tool: MemoryTool) -> None:
    """A missing path (also one below a file): the documented message (§2.3), no "Error:"."""
    create(tool, "/memories/a.txt", "x")
    for path in ("/memories/nope.txt", "/memories/nope/", "/memories/a.txt/b"):
        assert refused(tool, "view", path=path) == (
            f"The path {path} does not exist. Please provide a valid path."
        )


# -- the 999,999-line limit ------------------------------------------------------------------


def test_file_of_999999_lines_is_created_and_viewed(tool: MemoryTool) -> None:
    """A file of exactly 999,999 lines is allowed; its last number fills the field."""
    create(tool, "/memories/max.txt", "\n" * 999_998)
    assert call(tool, "view", path="/memories/max.txt", view_range=[999_998, -1]) == (
        FILE_HEADER.format("/memories/max.txt") + "999998\t\n999999\t"
    )


def test_create_over_the_line_limit_is_refused(tool: MemoryTool) -> None:
    """create refuses 1,000,000 lines with the view limit message and writes nothing."""
    assert refused(tool, "create", path="/memories/big.txt", file_text="\n" * 999_999) == (
        "File /memories/big.txt exceeds maximum line limit of 999,999 lines."
    )
    assert refused(tool, "view", path="/memories/big.txt") == (
        "The path /memories/big.txt does not exist. Please provide a valid path."
    )


def test_edits_over_the_line_limit_are_refused(tool: MemoryTool) -> None:
    """insert and str_replace that would pass 999,999 lines are refused; the file stays."""
    create(tool, "/memories/max.txt", "top" + "\n" * 999_998)
    limit = "File /memories/max.txt exceeds maximum line limit of 999,999 lines."
    assert refused(tool, "insert", path="/memories/max.txt", insert_line=0, insert_text="x") == (
        limit
    )
    assert refused(
        tool, "str_replace", path="/memories/max.txt", old_str="top", new_str="a\nb"
    ) == (limit)
    assert call(tool, "view", path="/memories/max.txt", view_range=[1, 2]) == (
        FILE_HEADER.format("/memories/max.txt") + "     1\ttop\n     2\t"
    )


def test_view_of_a_file_over_the_line_limit_is_refused(
    tool: MemoryTool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stored file of 1,000,000 lines (written past a raised limit) cannot be viewed."""
    with monkeypatch.context() as patch:
        patch.setattr(Handlers, "max_lines", 2_000_000)
        create(tool, "/memories/big.txt", "\n" * 999_999)
    message = "File /memories/big.txt exceeds maximum line limit of 999,999 lines."
    assert refused(tool, "view", path="/memories/big.txt") == message
    assert refused(tool, "view", path="/memories/big.txt", view_range=[1, 2]) == message


# -- view: directories ---------------------------------------------------------------------


def test_view_empty_memories_directory(tool: MemoryTool) -> None:
    """A fresh /memories lists only itself, with size 0B."""
    assert call(tool, "view", path="/memories") == listing("/memories", "0B\t/memories")


def _tree(tool: MemoryTool) -> None:
    create(tool, "/memories/b.txt", "x" * 512)
    create(tool, "/memories/Z.md")
    create(tool, "/memories/a/half.txt", "h" * 1536)
    create(tool, "/memories/a/empty.txt")
    create(tool, "/memories/a/deep/near.txt", "near\n")  # depth 3 from /memories
    create(tool, "/memories/a/deep/deeper/far.txt", "far")  # depth 4
    create(tool, "/memories/a/.cache/blob", "c" * 1000)
    create(tool, "/memories/.secret", "s" * 100)
    create(tool, "/memories/node_modules/pkg/index.js", "js")


def test_view_directory_two_levels_sorted_sized_hidden_left_out(tool: MemoryTool) -> None:
    """Root listing: 2 levels, sorted, dirs end in "/", hidden items out but counted in sizes."""
    _tree(tool)
    # 512 + 1536 + 5 + 3 + 1000 + 100 + 2 = 3158 bytes; a/ holds 1536 + 5 + 3 + 1000 = 2544.
    assert call(tool, "view", path="/memories") == listing(
        "/memories",
        "3.1K\t/memories",
        "0B\t/memories/Z.md",
        "2.5K\t/memories/a/",
        "8B\t/memories/a/deep/",
        "0B\t/memories/a/empty.txt",
        "1.5K\t/memories/a/half.txt",
        "512B\t/memories/b.txt",
    )


def test_view_subdirectory_counts_levels_from_itself(tool: MemoryTool) -> None:
    """Below /memories/a the depth-2 cut-off is counted from /memories/a."""
    _tree(tool)
    assert call(tool, "view", path="/memories/a") == listing(
        "/memories/a",
        "2.5K\t/memories/a",
        "8B\t/memories/a/deep/",
        "3B\t/memories/a/deep/deeper/",
        "5B\t/memories/a/deep/near.txt",
        "0B\t/memories/a/empty.txt",
        "1.5K\t/memories/a/half.txt",
    )


def test_view_with_trailing_slash_echoes_path_without_double_slash(tool: MemoryTool) -> None:
    """A path sent as "/memories/" is echoed as sent; entries have a single slash."""
    _tree(tool)
    assert call(tool, "view", path="/memories/") == listing(
        "/memories/",
        "3.1K\t/memories/",
        "0B\t/memories/Z.md",
        "2.5K\t/memories/a/",
        "8B\t/memories/a/deep/",
        "0B\t/memories/a/empty.txt",
        "1.5K\t/memories/a/half.txt",
        "512B\t/memories/b.txt",
    )
    assert call(tool, "view", path="/memories/a/deep/") == listing(
        "/memories/a/deep/",
        "8B\t/memories/a/deep/",
        "3B\t/memories/a/deep/deeper/",
        "3B\t/memories/a/deep/deeper/far.txt",
        "5B\t/memories/a/deep/near.txt",
    )


def test_view_directory_sorts_by_name_children_right_after_their_directory(
    tool: MemoryTool,
) -> None:
    """Names sort as Python strings, and a directory's children follow it (pre-order)."""
    for path in ("a-b", "a.txt", "B", "ä", "10", "9", "a/x", "a/.x", "a/node_modules/y"):
        create(tool, f"/memories/{path}", "1")
    assert call(tool, "view", path="/memories") == listing(
        "/memories",
        "9B\t/memories",
        "1B\t/memories/10",
        "1B\t/memories/9",
        "1B\t/memories/B",
        "3B\t/memories/a/",
        "1B\t/memories/a/x",
        "1B\t/memories/a-b",
        "1B\t/memories/a.txt",
        "1B\t/memories/ä",
    )


def test_view_hides_dot_names_and_node_modules_with_everything_below(tool: MemoryTool) -> None:
    """Hidden names are left out at every level; similar names are not hidden."""
    create(tool, "/memories/.hidden/visible.txt", "1")
    create(tool, "/memories/d/node_modules/m.js", "22")
    create(tool, "/memories/d/.env", "333")
    create(tool, "/memories/d/node_modules2/x", "4444")
    create(tool, "/memories/d/my.node_modules", "")
    create(tool, "/memories/Node_modules/x", "")
    assert call(tool, "view", path="/memories") == listing(
        "/memories",
        "10B\t/memories",
        "0B\t/memories/Node_modules/",
        "0B\t/memories/Node_modules/x",
        "9B\t/memories/d/",
        "0B\t/memories/d/my.node_modules",
        "4B\t/memories/d/node_modules2/",
    )


def test_view_of_a_hidden_directory_itself_lists_its_contents(tool: MemoryTool) -> None:
    """Hiding applies to entries, not to the directory asked for."""
    create(tool, "/memories/node_modules/pkg/index.js", "js")
    create(tool, "/memories/node_modules/.bin/x", "x")
    assert call(tool, "view", path="/memories/node_modules") == listing(
        "/memories/node_modules",
        "3B\t/memories/node_modules",
        "2B\t/memories/node_modules/pkg/",
        "2B\t/memories/node_modules/pkg/index.js",
    )
    assert call(tool, "view", path="/memories/node_modules/.bin/x") == (
        FILE_HEADER.format("/memories/node_modules/.bin/x") + "     1\tx"
    )


def test_view_directory_sizes_are_human_readable(home: Path) -> None:
    """Sizes: 0B, 512B, 1K, 1.5K, 1M, 1.2M; a directory sums every file below it."""
    with Vault.open(home, max_file_bytes=2 * MiB) as v:
        tool = v.memory_tool(user="alice")
        sizes = {"s0": 0, "s1": 512, "s2": 1024, "s3": 1536, "s4": MiB, "s5": 1_258_291}
        for name, size in sizes.items():
            create(tool, f"/memories/sizes/{name}", "z" * size)
        assert call(tool, "view", path="/memories/sizes") == listing(
            "/memories/sizes",
            "2.2M\t/memories/sizes",  # 2,309,939 bytes
            "0B\t/memories/sizes/s0",
            "512B\t/memories/sizes/s1",
            "1K\t/memories/sizes/s2",
            "1.5K\t/memories/sizes/s3",
            "1M\t/memories/sizes/s4",
            "1.2M\t/memories/sizes/s5",
        )


def test_view_sizes_count_utf8_bytes(tool: MemoryTool) -> None:
    """A file's size is its UTF-8 byte count, not its length in characters."""
    create(tool, "/memories/u.txt", "é🙂")  # 2 + 4 bytes
    assert call(tool, "view", path="/memories") == listing(
        "/memories", "6B\t/memories", "6B\t/memories/u.txt"
    )


def test_directories_stay_after_their_files_are_deleted(tool: MemoryTool) -> None:
    """Directories made by create outlive their files and are listed empty."""
    create(tool, "/memories/d/e/f.txt", "x")
    assert call(tool, "delete", path="/memories/d/e/f.txt") == (
        "Successfully deleted /memories/d/e/f.txt"
    )
    assert call(tool, "view", path="/memories") == listing(
        "/memories", "0B\t/memories", "0B\t/memories/d/", "0B\t/memories/d/e/"
    )
    assert refused(tool, "create", path="/memories/d/e", file_text="") == (
        "Error: File /memories/d/e already exists"
    )


# -- create --------------------------------------------------------------------------------


def test_create_makes_missing_parent_directories(tool: MemoryTool) -> None:
    """create makes every missing parent; the new directories are listed."""
    create(tool, "/memories/x/y/z.txt", "deep")
    assert call(tool, "view", path="/memories") == listing(
        "/memories", "4B\t/memories", "4B\t/memories/x/", "4B\t/memories/x/y/"
    )
    assert content(tool, "/memories/x/y/z.txt") == "deep"


@pytest.mark.parametrize("path", ["/memories/a.txt", "/memories/d", "/memories", "/memories/"])
def test_create_refuses_an_existing_path(tool: MemoryTool, path: str) -> None:
    """An existing file or directory (and /memories itself) is never overwritten."""
    create(tool, "/memories/a.txt", "keep")
    create(tool, "/memories/d/inner.txt", "")
    assert refused(tool, "create", path=path, file_text="new") == (
        f"Error: File {path} already exists"
    )
    assert content(tool, "/memories/a.txt") == "keep"


def test_create_refuses_a_path_ending_in_slash(tool: MemoryTool) -> None:
    """A file path cannot end with "/"."""
    assert refused(tool, "create", path="/memories/new/", file_text="x") == (
        "Error: Cannot create /memories/new/: a file path cannot end with '/'."
    )
    assert call(tool, "view", path="/memories") == listing("/memories", "0B\t/memories")


@pytest.mark.parametrize("path", ["/memories/f.txt/x.txt", "/memories/f.txt/sub/x.txt"])
def test_create_below_a_file_is_refused(tool: MemoryTool, path: str) -> None:
    """A parent that is a file is named in the error; nothing is created."""
    create(tool, "/memories/f.txt", "x")
    assert refused(tool, "create", path=path, file_text="y") == (
        f"Error: Cannot create {path}: /memories/f.txt is a file, not a directory."
    )
    assert call(tool, "view", path="/memories") == listing(
        "/memories", "1B\t/memories", "1B\t/memories/f.txt"
    )


def test_create_over_the_size_limit_is_refused(tool: MemoryTool) -> None:
    """Default limit 1 MiB of UTF-8: exactly 1 MiB passes, one byte more does not."""
    create(tool, "/memories/full.txt", "x" * MiB)
    assert refused(tool, "create", path="/memories/big.txt", file_text="x" * (MiB + 1)) == (
        "Error: The file /memories/big.txt would be 1,048,577 bytes, over the limit of "
        "1,048,576 bytes. Split the content across smaller files."
    )
    assert refused(tool, "create", path="/memories/big.txt", file_text="é" * (MiB // 2 + 1)) == (
        "Error: The file /memories/big.txt would be 1,048,578 bytes, over the limit of "
        "1,048,576 bytes. Split the content across smaller files."
    )
    assert refused(tool, "view", path="/memories/big.txt").startswith("The path")


# -- str_replace ---------------------------------------------------------------------------


def test_str_replace_shows_two_lines_around_the_change(tool: MemoryTool) -> None:
    """The snippet runs from 2 lines before the change to 2 lines after it."""
    create(tool, "/memories/ten.txt", TEN)
    assert call(tool, "str_replace", path="/memories/ten.txt", old_str="l5", new_str="five") == (
        EDITED + numbered(3, "l3", "l4", "five", "l6", "l7")
    )
    assert content(tool, "/memories/ten.txt") == TEN.replace("l5", "five")


def test_str_replace_snippet_covers_every_line_of_new_str(tool: MemoryTool) -> None:
    """A multi-line new_str is shown whole, with 2 lines after its last line."""
    create(tool, "/memories/ten.txt", TEN)
    assert call(tool, "str_replace", path="/memories/ten.txt", old_str="l5", new_str="A\nB\nC") == (
        EDITED + numbered(3, "l3", "l4", "A", "B", "C", "l6", "l7")
    )


def test_str_replace_snippet_after_removing_lines(tool: MemoryTool) -> None:
    """Removing lines: the snippet is taken from the edited file around the first line."""
    create(tool, "/memories/ten.txt", TEN)
    assert call(tool, "str_replace", path="/memories/ten.txt", old_str="l4\nl5\n", new_str="") == (
        EDITED + numbered(2, "l2", "l3", "l6", "l7", "l8")
    )


def test_str_replace_snippet_is_clamped_to_the_file(tool: MemoryTool) -> None:
    """Near the first or last line the snippet stops at the file's edges."""
    create(tool, "/memories/ten.txt", TEN)
    assert call(tool, "str_replace", path="/memories/ten.txt", old_str="l2", new_str="two") == (
        EDITED + numbered(1, "l1", "two", "l3", "l4")
    )
    assert call(tool, "str_replace", path="/memories/ten.txt", old_str="l10", new_str="ten") == (
        EDITED + numbered(8, "l8", "l9", "ten")
    )
    create(tool, "/memories/nl.txt", "a\nb\n")
    assert call(tool, "str_replace", path="/memories/nl.txt", old_str="b", new_str="B") == (
        EDITED + numbered(1, "a", "B", "")
    )


def test_str_replace_with_empty_new_str_deletes_the_text(tool: MemoryTool) -> None:
    """new_str may be empty."""
    create(tool, "/memories/a.txt", "keep drop keep")
    call(tool, "str_replace", path="/memories/a.txt", old_str=" drop", new_str="")
    assert content(tool, "/memories/a.txt") == "keep keep"


def test_str_replace_no_match(tool: MemoryTool) -> None:
    """An old_str not in the file: the documented message (§4); the file is unchanged."""
    create(tool, "/memories/a.txt", "hello")
    assert refused(tool, "str_replace", path="/memories/a.txt", old_str="Hello", new_str="x") == (
        "No replacement was performed, old_str `Hello` did not appear verbatim in /memories/a.txt."
    )
    assert content(tool, "/memories/a.txt") == "hello"


def test_str_replace_several_matches_lists_distinct_lines(tool: MemoryTool) -> None:
    """Several matches name each line once, ascending, comma-separated."""
    create(tool, "/memories/ten.txt", TEN)
    assert refused(tool, "str_replace", path="/memories/ten.txt", old_str="l1", new_str="x") == (
        "No replacement was performed. Multiple occurrences of old_str `l1` in lines: 1, 10. "
        "Please ensure it is unique"
    )
    create(tool, "/memories/xs.txt", "x x\ny\nx")
    assert refused(tool, "str_replace", path="/memories/xs.txt", old_str="x", new_str="z") == (
        "No replacement was performed. Multiple occurrences of old_str `x` in lines: 1, 3. "
        "Please ensure it is unique"
    )
    assert content(tool, "/memories/xs.txt") == "x x\ny\nx"


def test_str_replace_overlapping_matches_count_as_several(tool: MemoryTool) -> None:
    """ "aa" occurs twice in "aaa" (overlapping), so it is not unique."""
    create(tool, "/memories/a.txt", "aaa")
    assert refused(tool, "str_replace", path="/memories/a.txt", old_str="aa", new_str="b") == (
        "No replacement was performed. Multiple occurrences of old_str `aa` in lines: 1. "
        "Please ensure it is unique"
    )
    assert content(tool, "/memories/a.txt") == "aaa"


def test_str_replace_empty_old_str_is_refused(tool: MemoryTool) -> None:
    """An empty old_str is an error."""
    create(tool, "/memories/a.txt", "text")
    assert refused(tool, "str_replace", path="/memories/a.txt", old_str="", new_str="x") == (
        "Error: `old_str` is empty. Give the exact text to replace."
    )
    assert content(tool, "/memories/a.txt") == "text"


@pytest.mark.parametrize("path", ["/memories/nope.txt", "/memories/d"])
def test_str_replace_needs_an_existing_file(tool: MemoryTool, path: str) -> None:
    """A missing path or a directory gets §4's "Please provide a valid path" error."""
    create(tool, "/memories/d/a.txt", "x")
    assert refused(tool, "str_replace", path=path, old_str="x", new_str="y") == (
        f"Error: The path {path} does not exist. Please provide a valid path."
    )


# -- insert --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "line", "insert_text", "result"),
    [
        ("one\ntwo\n", 0, "zero", "zero\none\ntwo\n"),
        ("one\ntwo\n", 1, "mid\n", "one\nmid\ntwo\n"),
        ("one\ntwo\n", 2, "three", "one\ntwo\nthree\n"),
        ("one\ntwo", 2, "three", "one\ntwo\nthree\n"),
        ("one\ntwo", 1, "a\nb", "one\na\nb\ntwo"),
        ("one\n\n", 2, "x", "one\n\nx\n"),
        ("one", 0, "", "\none"),
        ("", 0, "first", "first\n"),
        ("\n", 1, "x", "\nx\n"),
    ],
)
def test_insert_places_text_after_line(
    tool: MemoryTool, text: str, line: int, insert_text: str, result: str
) -> None:
    """Text goes after line N with a newline added if missing; appending ends the last line."""
    create(tool, "/memories/a.txt", text)
    assert call(
        tool, "insert", path="/memories/a.txt", insert_line=line, insert_text=insert_text
    ) == ("The file /memories/a.txt has been edited.")
    assert content(tool, "/memories/a.txt") == result


@pytest.mark.parametrize(
    ("text", "line", "n_lines"),
    [("one\ntwo\n", 3, 2), ("one\ntwo\n", -1, 2), ("one\ntwo", 3, 2), ("", 1, 0), ("\n", 2, 1)],
)
def test_insert_line_out_of_range_is_refused(
    tool: MemoryTool, text: str, line: int, n_lines: int
) -> None:
    """insert_line must be in [0, lines], not counting the empty tail of a final newline."""
    create(tool, "/memories/a.txt", text)
    assert refused(tool, "insert", path="/memories/a.txt", insert_line=line, insert_text="x") == (
        f"Error: Invalid `insert_line` parameter: {line}. It should be within the range of "
        f"lines of the file: [0, {n_lines}]"
    )
    assert content(tool, "/memories/a.txt") == text


@pytest.mark.parametrize("path", ["/memories/nope.txt", "/memories/d"])
def test_insert_needs_an_existing_file(tool: MemoryTool, path: str) -> None:
    """A missing path or a directory: "Error: The path ... does not exist"."""
    create(tool, "/memories/d/a.txt", "x")
    assert refused(tool, "insert", path=path, insert_line=0, insert_text="y") == (
        f"Error: The path {path} does not exist"
    )


def test_edits_over_the_size_limit_are_refused(home: Path) -> None:
    """str_replace and insert that would pass max_file_bytes are refused; the file stays."""
    with Vault.open(home, max_file_bytes=10) as v:
        tool = v.memory_tool(user="alice")
        create(tool, "/memories/a.txt", "123456789")
        assert refused(tool, "str_replace", path="/memories/a.txt", old_str="9", new_str="9é") == (
            "Error: The file /memories/a.txt would be 11 bytes, over the limit of 10 bytes. "
            "Split the content across smaller files."
        )
        assert refused(tool, "insert", path="/memories/a.txt", insert_line=0, insert_text="x") == (
            "Error: The file /memories/a.txt would be 11 bytes, over the limit of 10 bytes. "
            "Split the content across smaller files."
        )
        assert content(tool, "/memories/a.txt") == "123456789"
        assert refused(tool, "create", path="/memories/b.txt", file_text="x" * 11) == (
            "Error: The file /memories/b.txt would be 11 bytes, over the limit of 10 bytes. "
            "Split the content across smaller files."
        )


# -- delete --------------------------------------------------------------------------------


def test_delete_file(tool: MemoryTool) -> None:
    """Deleting a file removes it and only it."""
    create(tool, "/memories/a.txt", "x")
    create(tool, "/memories/b.txt", "y")
    assert call(tool, "delete", path="/memories/a.txt") == "Successfully deleted /memories/a.txt"
    assert refused(tool, "view", path="/memories/a.txt") == (
        "The path /memories/a.txt does not exist. Please provide a valid path."
    )
    assert content(tool, "/memories/b.txt") == "y"


def test_delete_directory_removes_everything_in_it(tool: MemoryTool) -> None:
    """A directory is deleted with its whole subtree."""
    create(tool, "/memories/d/x/y.txt", "1")
    create(tool, "/memories/d/.h", "2")
    create(tool, "/memories/keep.txt", "3")
    assert call(tool, "delete", path="/memories/d/") == "Successfully deleted /memories/d/"
    for path in ("/memories/d", "/memories/d/x", "/memories/d/x/y.txt", "/memories/d/.h"):
        assert refused(tool, "delete", path=path) == f"Error: The path {path} does not exist"
    assert call(tool, "view", path="/memories") == listing(
        "/memories", "1B\t/memories", "1B\t/memories/keep.txt"
    )


def test_delete_missing_path(tool: MemoryTool) -> None:
    """A missing path (or one below a file) cannot be deleted."""
    create(tool, "/memories/a.txt", "x")
    for path in ("/memories/nope", "/memories/a.txt/b"):
        assert refused(tool, "delete", path=path) == f"Error: The path {path} does not exist"


@pytest.mark.parametrize("path", ["/memories", "/memories/"])
def test_delete_memories_itself_is_refused(tool: MemoryTool, path: str) -> None:
    """/memories itself cannot be deleted."""
    create(tool, "/memories/a.txt", "x")
    assert refused(tool, "delete", path=path) == (
        "Error: Cannot delete the /memories directory itself"
    )
    assert content(tool, "/memories/a.txt") == "x"


# -- rename --------------------------------------------------------------------------------


def test_rename_file(tool: MemoryTool) -> None:
    """A renamed file keeps its text; the old path is gone."""
    create(tool, "/memories/a.txt", "text")
    assert call(tool, "rename", old_path="/memories/a.txt", new_path="/memories/b.txt") == (
        "Successfully renamed /memories/a.txt to /memories/b.txt"
    )
    assert content(tool, "/memories/b.txt") == "text"
    assert refused(tool, "view", path="/memories/a.txt").startswith("The path /memories/a.txt")


def test_rename_creates_missing_parents_of_the_destination(tool: MemoryTool) -> None:
    """Missing parents of new_path are created."""
    create(tool, "/memories/a.txt", "text")
    call(tool, "rename", old_path="/memories/a.txt", new_path="/memories/x/y/a.txt")
    assert call(tool, "view", path="/memories") == listing(
        "/memories",
        "4B\t/memories",
        "4B\t/memories/x/",
        "4B\t/memories/x/y/",
    )
    assert content(tool, "/memories/x/y/a.txt") == "text"


def test_rename_directory_moves_its_whole_subtree(tool: MemoryTool) -> None:
    """Renaming a directory moves everything below it, hidden files included."""
    create(tool, "/memories/proj/a.txt", "A")
    create(tool, "/memories/proj/sub/deep/b.txt", "BB")
    create(tool, "/memories/proj/.h", "H")
    assert call(tool, "rename", old_path="/memories/proj", new_path="/memories/old/proj") == (
        "Successfully renamed /memories/proj to /memories/old/proj"
    )
    assert content(tool, "/memories/old/proj/a.txt") == "A"
    assert content(tool, "/memories/old/proj/sub/deep/b.txt") == "BB"
    assert content(tool, "/memories/old/proj/.h") == "H"
    assert refused(tool, "view", path="/memories/proj/a.txt").startswith("The path")
    assert call(tool, "view", path="/memories/old") == listing(
        "/memories/old",
        "4B\t/memories/old",
        "4B\t/memories/old/proj/",
        "1B\t/memories/old/proj/a.txt",
        "2B\t/memories/old/proj/sub/",
    )


@pytest.mark.parametrize(
    "new_path", ["/memories/b.txt", "/memories/d", "/memories", "/memories/a.txt"]
)
def test_rename_never_overwrites(tool: MemoryTool, new_path: str) -> None:
    """An existing destination (file, directory, /memories, the source) is refused."""
    create(tool, "/memories/a.txt", "A")
    create(tool, "/memories/b.txt", "B")
    create(tool, "/memories/d/c.txt", "C")
    assert refused(tool, "rename", old_path="/memories/a.txt", new_path=new_path) == (
        f"Error: The destination {new_path} already exists"
    )
    assert content(tool, "/memories/a.txt") == "A"
    assert content(tool, "/memories/b.txt") == "B"


def test_rename_missing_source(tool: MemoryTool) -> None:
    """A missing old_path is named in the error."""
    assert refused(tool, "rename", old_path="/memories/nope", new_path="/memories/x") == (
        "Error: The path /memories/nope does not exist"
    )


@pytest.mark.parametrize("old_path", ["/memories", "/memories/"])
def test_rename_memories_itself_is_refused(tool: MemoryTool, old_path: str) -> None:
    """/memories itself cannot be renamed."""
    assert refused(tool, "rename", old_path=old_path, new_path="/memories/x") == (
        "Error: Cannot rename the /memories directory itself"
    )


def test_rename_directory_into_its_own_subtree_is_refused(tool: MemoryTool) -> None:
    """A directory cannot move below itself; nothing changes."""
    create(tool, "/memories/d/sub/a.txt", "A")
    assert refused(tool, "rename", old_path="/memories/d", new_path="/memories/d/sub/d") == (
        "Error: Cannot move the directory /memories/d into itself (/memories/d/sub/d)."
    )
    assert refused(tool, "rename", old_path="/memories/d", new_path="/memories/d/x") == (
        "Error: Cannot move the directory /memories/d into itself (/memories/d/x)."
    )
    assert content(tool, "/memories/d/sub/a.txt") == "A"


def test_rename_below_a_file_is_refused(tool: MemoryTool) -> None:
    """A destination whose parent is a file names that file."""
    create(tool, "/memories/a.txt", "A")
    create(tool, "/memories/f.txt", "F")
    assert refused(tool, "rename", old_path="/memories/a.txt", new_path="/memories/f.txt/a") == (
        "Error: Cannot rename to /memories/f.txt/a: /memories/f.txt is a file, not a directory."
    )
    assert content(tool, "/memories/a.txt") == "A"


# -- content round trips -------------------------------------------------------------------

TRICKY = "emoji 🙂👍🏽 ünïcödé\r\nwindows line\r\n\ttab\tand\x00nul\n\nlast line"


def test_unicode_crlf_tabs_and_nul_round_trip_exactly(home: Path) -> None:
    """Emoji, CRLF, tabs and NUL come back byte for byte, also after re-opening the vault."""
    with Vault.open(home) as v:
        tool = v.memory_tool(user="alice")
        create(tool, "/memories/t.txt", TRICKY)
        assert call(tool, "view", path="/memories/t.txt") == FILE_HEADER.format(
            "/memories/t.txt"
        ) + numbered(
            1,
            "emoji 🙂👍🏽 ünïcödé\r",
            "windows line\r",
            "\ttab\tand\x00nul",
            "",
            "last line",
        )
    with Vault.open(home) as v:
        tool = v.memory_tool(user="alice")
        assert content(tool, "/memories/t.txt") == TRICKY
        assert call(tool, "view", path="/memories") == listing(
            "/memories",
            f"{len(TRICKY.encode())}B\t/memories",
            f"{len(TRICKY.encode())}B\t/memories/t.txt",
        )


def test_edits_keep_crlf_and_unicode_around_them(tool: MemoryTool) -> None:
    """str_replace and insert touch only what they are asked to; CRs stay in place."""
    create(tool, "/memories/t.txt", "a\r\nb 🙂\r\nc\r\n")
    call(tool, "str_replace", path="/memories/t.txt", old_str="🙂", new_str="👍🏽")
    call(tool, "insert", path="/memories/t.txt", insert_line=1, insert_text="ins\r\n")
    assert content(tool, "/memories/t.txt") == "a\r\nins\r\nb 👍🏽\r\nc\r\n"
    assert call(tool, "str_replace", path="/memories/t.txt", old_str="c\r", new_str="C\r") == (
        EDITED + numbered(2, "ins\r", "b 👍🏽\r", "C\r", "")
    )


# -- known bugs ----------------------------------------------------------------------------


def test_rename_never_strands_a_file_beyond_the_path_limit(tool: MemoryTool) -> None:
    """After any rename that succeeds, every moved file can still be viewed at its new path."""
    below = "/".join(["d"] * 31) + "/f"  # 32 levels: the deepest path the guard accepts
    create(tool, f"/memories/{below}", "x")
    try:
        call(tool, "rename", old_path="/memories/d", new_path="/memories/x/d")
    except ToolError:
        return  # refusing the rename keeps the file reachable
    assert content(tool, f"/memories/x/{below}") == "x"


def test_directory_size_counts_files_at_any_depth_reached_by_renames(tool: MemoryTool) -> None:
    """A file nested over 256 levels deep by renames still counts in /memories' size."""
    chain = "/".join(["d"] * 30)
    create(tool, f"/memories/c0/{chain}", "x")
    for i in range(1, 10):  # each rename nests the file 30 levels deeper
        create(tool, f"/memories/c{i}/{chain}")
        call(tool, "delete", path=f"/memories/c{i}/{chain}")
        try:
            call(tool, "rename", old_path=f"/memories/c{i - 1}", new_path=f"/memories/c{i}/{chain}")
        except ToolError:
            return  # refusing to nest past the limits keeps the tree whole
    assert call(tool, "view", path="/memories").split("\n")[1] == "1B\t/memories"
