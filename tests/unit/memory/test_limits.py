"""The policy's ``[limits]`` applied: a write past a user's files or bytes is refused with
the exact message and its own error kind, nothing half-written; only growth is refused;
the counts the limits read stay right through every kind of write (and are rebuilt for a
user whose tally does not hold them)."""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from anthropic.lib.tools import ToolError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memvault import MemoryTool, Vault
from memvault.cli import main
from memvault.memory import Tree
from tests.support import stores


def _policy(tmp_path: Path, limits: str) -> Path:
    path = tmp_path / "limits.toml"
    path.write_text(f'version = 1\nname = "small"\n[limits]\n{limits}')
    return path


@pytest.fixture
def small(tmp_path: Path, home: Path) -> Iterator[Vault]:
    """A vault whose users may keep 3 files, 100 bytes in all, 60 bytes in one."""
    policy = _policy(tmp_path, "max_memories = 3\nmax_user_bytes = 100\nmax_memory_bytes = 60\n")
    with Vault.open(home, policy=policy) as v:
        yield v


def refused(tool: MemoryTool, **command: Any) -> str:
    with pytest.raises(ToolError) as caught:
        tool.call(command)
    return str(caught.value)


def records(home: Path) -> list[dict[str, Any]]:
    out, err = io.StringIO(), io.StringIO()
    assert main(["--home", str(home), "audit", "show", "--json"], out=out, err=err) == 0
    return [json.loads(line) for line in out.getvalue().splitlines()]


def listing(tool: MemoryTool) -> str:
    return tool.call({"command": "view", "path": "/memories"})


def test_a_create_past_the_files_limit_is_refused(small: Vault, home: Path) -> None:
    tool = small.memory_tool(user="alice")
    for name in ("a", "b", "c"):
        tool.call({"command": "create", "path": f"/memories/d/{name}.md", "file_text": "x"})
    before = listing(tool)
    message = refused(tool, command="create", path="/memories/e.md", file_text="y")
    assert message == (
        "Error: Cannot create /memories/e.md: /memories holds 3 files and may hold at most 3. "
        "Delete files that are no longer needed, or add this to an existing file."
    )
    assert listing(tool) == before  # nothing half-written: no file, no directory
    last = [r for r in records(home) if r["command"] == "create"][-1]
    assert (last["outcome"], last["error"]) == ("limit", "quota_files")
    tool.call({"command": "delete", "path": "/memories/d/a.md"})
    tool.call({"command": "create", "path": "/memories/e.md", "file_text": "y"})


def test_deleting_a_directory_frees_every_file_in_it(small: Vault) -> None:
    tool = small.memory_tool(user="alice")
    for name in ("a", "b", "c"):
        tool.call({"command": "create", "path": f"/memories/d/e/{name}.md", "file_text": "x"})
    tool.call({"command": "delete", "path": "/memories/d"})
    for name in ("f", "g", "h"):
        tool.call({"command": "create", "path": f"/memories/{name}.md", "file_text": "x"})
    assert "may hold at most 3" in refused(tool, command="create", path="/memories/i", file_text="")


def test_a_write_past_the_bytes_limit_is_refused(small: Vault, home: Path) -> None:
    tool = small.memory_tool(user="alice")
    tool.call({"command": "create", "path": "/memories/a.md", "file_text": "a" * 60})
    assert refused(tool, command="create", path="/memories/b.md", file_text="b" * 41) == (
        "Error: Cannot create /memories/b.md: /memories would hold 101 bytes, over its limit "
        "of 100 bytes. Shorten the text, or delete files that are no longer needed."
    )
    tool.call({"command": "create", "path": "/memories/b.md", "file_text": "b" * 40})
    assert refused(
        tool, command="str_replace", path="/memories/b.md", old_str="b", new_str="bb"
    ) == (
        "No replacement was performed. Multiple occurrences of old_str `b` in lines: 1. "
        "Please ensure it is unique"
    )
    assert refused(
        tool, command="str_replace", path="/memories/b.md", old_str="b" * 40, new_str="c" * 41
    ) == (
        "Error: Cannot edit /memories/b.md: /memories would hold 101 bytes, over its limit of "
        "100 bytes. Shorten the text, or delete files that are no longer needed."
    )
    assert refused(
        tool, command="insert", path="/memories/b.md", insert_line=0, insert_text=""
    ).startswith("Error: Cannot edit /memories/b.md: /memories would hold 101 bytes")
    view = tool.call({"command": "view", "path": "/memories/b.md"})
    assert view.endswith("\t" + "b" * 40)  # unchanged
    kinds = [(r["outcome"], r["error"]) for r in records(home) if r["outcome"] == "limit"]
    assert kinds == [("limit", "quota_bytes")] * 3


def test_one_memory_past_its_limit_has_its_own_kind(small: Vault, home: Path) -> None:
    tool = small.memory_tool(user="alice")
    assert refused(tool, command="create", path="/memories/a.md", file_text="a" * 61) == (
        "Error: The file /memories/a.md would be 61 bytes, over the limit of 60 bytes. Split "
        "the content across smaller files."
    )
    last = [r for r in records(home) if r["command"] == "create"][-1]
    assert (last["outcome"], last["error"]) == ("limit", "file_size")


def test_shrinking_deleting_and_renaming_work_over_a_lowered_limit(
    tmp_path: Path, home: Path
) -> None:
    with Vault.open(home) as vault:
        tool = vault.memory_tool(user="alice")
        for name in ("a", "b", "c", "d"):
            tool.call({"command": "create", "path": f"/memories/{name}.md", "file_text": "x" * 30})
    lowered = _policy(tmp_path, "max_memories = 2\nmax_user_bytes = 100\nmax_memory_bytes = 60\n")
    with Vault.open(home, policy=lowered) as vault:
        tool = vault.memory_tool(user="alice")
        assert "holds 4 files and may hold at most 2" in refused(
            tool, command="create", path="/memories/e.md", file_text=""
        )
        assert "would hold 121 bytes" in refused(
            tool, command="insert", path="/memories/a.md", insert_line=0, insert_text=""
        )
        tool.call(
            {
                "command": "str_replace",
                "path": "/memories/a.md",
                "old_str": "x" * 30,
                "new_str": "short",
            }
        )
        tool.call({"command": "rename", "old_path": "/memories/b.md", "new_path": "/memories/z/b"})
        tool.call({"command": "delete", "path": "/memories/c.md"})
        tool.call({"command": "delete", "path": "/memories/d.md"})
        tool.call(
            {"command": "insert", "path": "/memories/a.md", "insert_line": 1, "insert_text": "more"}
        )


def test_new_directories_past_the_limit_are_refused(tmp_path: Path, home: Path) -> None:
    """Directories count too: a create or rename that would make one past the limit is
    refused and makes none; moving into directories that exist, and deleting, always run."""
    policy = _policy(tmp_path, "max_directories = 2\n")
    with Vault.open(home, policy=policy) as vault:
        tool = vault.memory_tool(user="alice")
        tool.call({"command": "create", "path": "/memories/a/b/c.md", "file_text": "x"})
        before = listing(tool)
        assert refused(tool, command="create", path="/memories/x/y.md", file_text="y") == (
            "Error: Cannot create /memories/x/y.md: /memories holds 2 directories and may hold "
            "at most 2. Use a directory that exists, or delete directories that are no longer "
            "needed."
        )
        assert refused(
            tool, command="rename", old_path="/memories/a/b/c.md", new_path="/memories/q/c.md"
        ).startswith("Error: Cannot rename to /memories/q/c.md: /memories holds 2 directories")
        assert listing(tool) == before
        tool.call(
            {"command": "rename", "old_path": "/memories/a/b/c.md", "new_path": "/memories/a/c"}
        )
        tool.call({"command": "delete", "path": "/memories/a/b"})
        tool.call({"command": "create", "path": "/memories/x/y.md", "file_text": "y"})
        assert vault.check().problems == []
    last = [r for r in records(home) if r["outcome"] == "limit"]
    assert [r["error"] for r in last] == ["quota_directories", "quota_directories"]


def test_a_file_over_a_lowered_size_limit_may_shrink_but_not_grow(
    tmp_path: Path, home: Path
) -> None:
    """A policy lowered below a file's size: edits that do not make it larger still run
    (so it can be cut down), one that grows it is refused."""
    with Vault.open(home) as vault:
        vault.memory_tool(user="alice").call(
            {"command": "create", "path": "/memories/big.md", "file_text": "x" * 3990 + "\nEND\n"}
        )
    lowered = _policy(tmp_path, "max_memory_bytes = 1_000\n")
    with Vault.open(home, policy=lowered) as vault:
        tool = vault.memory_tool(user="alice")
        tool.call({"command": "str_replace", "path": "/memories/big.md", "old_str": "END",
                   "new_str": "E"})  # fmt: skip
        tool.call({"command": "str_replace", "path": "/memories/big.md", "old_str": "\nE\n",
                   "new_str": "\nF\n"})  # fmt: skip
        assert refused(
            tool, command="insert", path="/memories/big.md", insert_line=0, insert_text="more"
        ) == (
            "Error: The file /memories/big.md would be 3,998 bytes, over the limit of 1,000 "
            "bytes. Split the content across smaller files."
        )


def _db(home: Path) -> contextlib.AbstractContextManager[Any]:
    return stores.connect(home)


def test_a_user_without_a_root_tally_is_counted(small: Vault, home: Path, tmp_path: Path) -> None:
    """A user whose row holds no tally of /memories (kept before tallies were) is counted
    from the rows at the first write, limits included, and the count is kept."""
    tool = small.memory_tool(user="alice")
    for name in ("a", "b", "c"):
        tool.call({"command": "create", "path": f"/memories/d/{name}.md", "file_text": "x"})
    small.close()
    with _db(home) as db:
        db.execute("UPDATE users SET root = NULL")
    with Vault.open(home, policy=small_policy(tmp_path)) as vault:
        tool = vault.memory_tool(user="alice")
        assert "holds 3 files" in refused(tool, command="create", path="/memories/e", file_text="")
        tool.call({"command": "delete", "path": "/memories/d/a.md"})
        tool.call({"command": "create", "path": "/memories/e", "file_text": ""})
        assert "holds 3 files" in refused(tool, command="create", path="/memories/f", file_text="")
        assert vault.check().problems == []


def test_a_refused_write_keeps_the_counts_it_made_for_an_older_user(
    small: Vault, home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A user whose tally has no counts is counted once, at the first write transaction,
    and keeps them even when that write is refused: the next refusals walk nothing."""
    tool = small.memory_tool(user="alice")
    for name in ("a", "b", "c"):
        tool.call({"command": "create", "path": f"/memories/{name}.md", "file_text": "x"})
    small.close()
    with _db(home) as db:
        db.execute("UPDATE users SET root = NULL")
    walks = []
    count_all = Tree._count_all
    monkeypatch.setattr(Tree, "_count_all", lambda tree: walks.append(1) or count_all(tree))
    with Vault.open(home, policy=small_policy(tmp_path)) as vault:
        tool = vault.memory_tool(user="alice")
        for _ in range(3):
            assert "holds 3 files" in refused(
                tool, command="create", path="/memories/e", file_text=""
            )
    assert len(walks) == 1
    with _db(home) as db:
        assert db.execute("SELECT count(*) FROM users WHERE root IS NULL").fetchone() == (0,)


def small_policy(tmp_path: Path) -> Path:
    return tmp_path / "limits.toml"


_NAMES = st.sampled_from(["a", "b", "d/a", "d/b", "d/e/a", "e/a"])
_STEPS = st.lists(
    st.one_of(
        st.tuples(st.just("create"), _NAMES, st.integers(0, 40)),
        st.tuples(st.just("grow"), _NAMES, st.integers(-20, 40)),
        st.tuples(st.just("delete"), st.sampled_from(["a", "d", "d/e", "e", "d/b"]), st.just(0)),
        st.tuples(st.just("rename"), _NAMES, st.integers(0, 5)),
    ),
    max_size=25,
)


@pytest.mark.sync_tool_only("a property over many short sessions; async runs the same runner")
@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(steps=_STEPS)
def test_the_limits_hold_and_the_counts_stay_right(tmp_path_factory: Any, steps: list[Any]) -> None:
    """Whatever the writes, a user never holds more files or bytes than the policy allows,
    and the counts the limits read equal what a full check counts."""
    base = tmp_path_factory.mktemp("limits")
    policy = _policy(
        base,
        "max_memories = 4\nmax_user_bytes = 120\nmax_memory_bytes = 60\nmax_directories = 3\n",
    )
    with Vault.open(base / "home", policy=policy) as vault:
        tool = vault.memory_tool(user="alice")
        for action, name, amount in steps:
            path = f"/memories/{name}"
            command: dict[str, Any] = {"command": "create", "path": path, "file_text": "x" * amount}
            if action == "grow":
                text = "y" * max(amount, 0)
                command = {"command": "insert", "path": path, "insert_line": 0, "insert_text": text}
                if amount < 0:
                    command = {
                        "command": "str_replace",
                        "path": path,
                        "old_str": "x" * -amount,
                        "new_str": "",
                    }
            elif action == "delete":
                command = {"command": "delete", "path": path}
            elif action == "rename":
                command = {
                    "command": "rename",
                    "old_path": path,
                    "new_path": f"/memories/r{amount}/{name}",
                }
            with contextlib.suppress(ToolError):
                tool.call(command)
        report = vault.check()
        assert report.problems == []
        assert report.files <= 4 and report.bytes <= 120 and report.directories <= 3
