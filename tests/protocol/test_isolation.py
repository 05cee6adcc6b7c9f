"""Isolation between users: one user's tool never sees, reads, changes or deletes another's.

Alice and bob use the same path names with different contents. Every command bob
runs must give exactly what it gives in a vault where alice does not exist, and
must leave alice's memories exactly as they were (and the other way round).
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest
from anthropic.lib.tools import ToolError
from hypothesis import given, settings
from hypothesis import strategies as st

from memvault import MemoryTool, UsageError, Vault
from tests.support import stores

Outcome = tuple[bool, str]

ALICE = {
    "/memories/notes.md": "alice notes\nline two\n",
    "/memories/x": "alice x\n",
    "/memories/projects/plan.md": "alice plan\nstep one\n",
    "/memories/projects/deep/inner.txt": "alice inner\n",
    "/memories/alice-only.txt": "only alice has this\n",
}
BOB = {
    "/memories/notes.md": "bob notes, a little longer\n",
    "/memories/x": "bob x\n",
    "/memories/projects/plan.md": "bob plan\n",
    "/memories/bob-only/file.txt": "only bob has this\n",
}


def _run(tool: MemoryTool, command: dict[str, Any]) -> Outcome:
    try:
        return True, tool.call(command)
    except ToolError as exc:
        assert isinstance(exc.content, str)
        return False, exc.content


def _view(tool: MemoryTool, path: str) -> Outcome:
    return _run(tool, {"command": "view", "path": path})


def _fill(tool: MemoryTool, files: dict[str, str]) -> None:
    for path, text in files.items():
        tool.call({"command": "create", "path": path, "file_text": text})


def _snapshot(tool: MemoryTool) -> dict[str, Outcome]:
    """Everything a user can see: every listing, recursively, and every file's view."""
    seen: dict[str, Outcome] = {}
    todo = ["/memories"]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen[path] = listing = _view(tool, path)
        assert listing[0], (path, listing)
        for row in listing[1].split("\n")[2:]:
            entry = row.split("\t")[1]
            if entry.endswith("/"):
                todo.append(entry.rstrip("/"))
            else:
                seen[entry] = _view(tool, entry)
    return seen


def _missing(path: str) -> Outcome:
    return False, f"The path {path} does not exist. Please provide a valid path."


@pytest.fixture
def pair(vault: Vault) -> tuple[MemoryTool, MemoryTool]:
    """Alice's and bob's tools on one vault, both holding the same path names."""
    alice, bob = vault.memory_tool("alice"), vault.memory_tool("bob")
    _fill(alice, ALICE)
    _fill(bob, BOB)
    return alice, bob


def _solo_snapshot(home: Path, files: dict[str, str]) -> dict[str, Outcome]:
    with Vault.open(home, durability="normal") as v:
        tool = v.memory_tool("solo")
        _fill(tool, files)
        return _snapshot(tool)


def test_each_user_sees_exactly_what_a_vault_of_their_own_shows(
    pair: tuple[MemoryTool, MemoryTool], tmp_path: Path
) -> None:
    """Listings and file views of each user equal those of a vault holding that user alone."""
    alice, bob = pair
    assert _snapshot(alice) == _solo_snapshot(tmp_path / "alice-solo", ALICE)
    assert _snapshot(bob) == _solo_snapshot(tmp_path / "bob-solo", BOB)
    for path, text in ALICE.items():
        ok, shown = _view(alice, path)
        assert ok and f"     1\t{text.splitlines()[0]}\n" in shown
    assert "alice" not in "".join(text for _, text in _snapshot(bob).values())
    assert "bob" not in "".join(text for _, text in _snapshot(alice).values())


def test_paths_only_the_other_user_has_do_not_exist(pair: tuple[MemoryTool, MemoryTool]) -> None:
    """A path only alice has does not exist for bob, and the other way round."""
    alice, bob = pair
    assert _view(bob, "/memories/alice-only.txt") == _missing("/memories/alice-only.txt")
    assert _view(bob, "/memories/projects/deep") == _missing("/memories/projects/deep")
    assert _view(bob, "/memories/projects/deep/inner.txt") == _missing(
        "/memories/projects/deep/inner.txt"
    )
    assert _view(alice, "/memories/bob-only") == _missing("/memories/bob-only")
    assert _view(alice, "/memories/bob-only/file.txt") == _missing("/memories/bob-only/file.txt")


def test_two_tools_of_one_user_share_memories(vault: Vault) -> None:
    """Two tools made for the same user see the same memories (isolation is per user)."""
    first, second = vault.memory_tool("alice"), vault.memory_tool("alice")
    first.call({"command": "create", "path": "/memories/shared.txt", "file_text": "same"})
    assert _view(second, "/memories/shared.txt") == _view(first, "/memories/shared.txt")
    assert _view(second, "/memories/shared.txt")[0]


def test_bob_str_replace_acts_only_on_bob_files(pair: tuple[MemoryTool, MemoryTool]) -> None:
    """Bob's str_replace edits only his file, and says alice-only paths do not exist."""
    alice, bob = pair
    before = _snapshot(alice)
    ok, _ = _run(
        bob,
        {"command": "str_replace", "path": "/memories/notes.md", "old_str": "bob", "new_str": "B"},
    )
    assert ok
    assert "\tB notes, a little longer" in _view(bob, "/memories/notes.md")[1]
    # Text only alice's same-named file holds is not found in bob's.
    assert _run(
        bob,
        {"command": "str_replace", "path": "/memories/x", "old_str": "alice x", "new_str": "!"},
    ) == (
        False,
        "No replacement was performed, old_str `alice x` did not appear verbatim in /memories/x.",
    )
    assert _run(
        bob,
        {
            "command": "str_replace",
            "path": "/memories/alice-only.txt",
            "old_str": "only",
            "new_str": "!",
        },
    ) == (
        False,
        "Error: The path /memories/alice-only.txt does not exist. Please provide a valid path.",
    )
    assert _snapshot(alice) == before


def test_bob_insert_acts_only_on_bob_files(pair: tuple[MemoryTool, MemoryTool]) -> None:
    """Bob's insert edits only his file, and says alice-only paths do not exist."""
    alice, bob = pair
    before = _snapshot(alice)
    assert _run(
        bob,
        {"command": "insert", "path": "/memories/x", "insert_line": 0, "insert_text": "top"},
    ) == (True, "The file /memories/x has been edited.")
    assert _view(bob, "/memories/x")[1].endswith("     1\ttop\n     2\tbob x\n     3\t")
    # Alice's plan has 2 lines, bob's has 1: the range check uses bob's.
    assert _run(
        bob,
        {
            "command": "insert",
            "path": "/memories/projects/plan.md",
            "insert_line": 2,
            "insert_text": "z",
        },
    ) == (
        False,
        "Error: Invalid `insert_line` parameter: 2. It should be within the range of lines "
        "of the file: [0, 1]",
    )
    assert _run(
        bob,
        {
            "command": "insert",
            "path": "/memories/alice-only.txt",
            "insert_line": 0,
            "insert_text": "z",
        },
    ) == (False, "Error: The path /memories/alice-only.txt does not exist")
    assert _snapshot(alice) == before


def test_bob_delete_leaves_alice_intact(pair: tuple[MemoryTool, MemoryTool]) -> None:
    """Bob deleting a file or directory both users have leaves alice's copy intact."""
    alice, bob = pair
    before = _snapshot(alice)
    assert _run(bob, {"command": "delete", "path": "/memories/x"}) == (
        True,
        "Successfully deleted /memories/x",
    )
    assert _run(bob, {"command": "delete", "path": "/memories/projects"}) == (
        True,
        "Successfully deleted /memories/projects",
    )
    assert _run(bob, {"command": "delete", "path": "/memories/alice-only.txt"}) == (
        False,
        "Error: The path /memories/alice-only.txt does not exist",
    )
    assert _view(bob, "/memories/x") == _missing("/memories/x")
    assert _snapshot(alice) == before
    assert _view(alice, "/memories/x")[0]


def test_bob_rename_does_not_cross_users(pair: tuple[MemoryTool, MemoryTool]) -> None:
    """Bob's renames move only his memories and never see alice's as sources or destinations."""
    alice, bob = pair
    before = _snapshot(alice)
    assert _run(bob, {"command": "rename", "old_path": "/memories/x", "new_path": "/memories/y"})[0]
    # Alice has /memories/alice-only.txt; for bob the destination is free.
    assert _run(
        bob,
        {
            "command": "rename",
            "old_path": "/memories/notes.md",
            "new_path": "/memories/alice-only.txt",
        },
    ) == (True, "Successfully renamed /memories/notes.md to /memories/alice-only.txt")
    assert _run(
        bob,
        {
            "command": "rename",
            "old_path": "/memories/projects/deep",
            "new_path": "/memories/z",
        },
    ) == (False, "Error: The path /memories/projects/deep does not exist")  # alice has it
    assert _run(
        bob,
        {"command": "rename", "old_path": "/memories/projects", "new_path": "/memories/deep/p"},
    )[0]
    assert _snapshot(alice) == before
    assert _view(alice, "/memories/y") == _missing("/memories/y")
    assert "bob notes" in _view(bob, "/memories/alice-only.txt")[1]


def test_bob_create_does_not_see_alice_paths(pair: tuple[MemoryTool, MemoryTool]) -> None:
    """Bob can create a file at a path only alice has; neither file changes the other."""
    alice, bob = pair
    before = _snapshot(alice)
    assert _run(
        bob,
        {"command": "create", "path": "/memories/alice-only.txt", "file_text": "bob's own"},
    ) == (True, "File created successfully at: /memories/alice-only.txt")
    assert _run(
        bob,
        {"command": "create", "path": "/memories/projects/deep/inner.txt", "file_text": "b"},
    )[0]
    assert _snapshot(alice) == before
    assert "\tbob's own" in _view(bob, "/memories/alice-only.txt")[1]


def test_isolation_survives_reopening(home: Path) -> None:
    """After closing and reopening the vault, each user still reads only their own files."""
    with Vault.open(home) as v:
        _fill(v.memory_tool("alice"), ALICE)
        _fill(v.memory_tool("bob"), BOB)
    with Vault.open(home) as v:
        alice, bob = v.memory_tool("alice"), v.memory_tool("bob")
        assert "\talice notes" in _view(alice, "/memories/notes.md")[1]
        assert "\tbob notes" in _view(bob, "/memories/notes.md")[1]
        assert _view(bob, "/memories/alice-only.txt") == _missing("/memories/alice-only.txt")


# -- random interleavings ----------------------------------------------------------------

# Both users start with the same paths, so most commands find something to act on.
_START = {"/memories/a": "{} a\nx\n", "/memories/d/a": "{} da\ny\n", "/memories/d/b": "{}\nxy\n"}
_NAMES = ("a", "b", "d")
_paths = st.one_of(
    st.sampled_from(sorted(_START)),
    st.lists(st.sampled_from(_NAMES), min_size=1, max_size=2).map(
        lambda parts: "/memories/" + "/".join(parts)
    ),
)
_texts = st.sampled_from(["", "x", "xy\n", "y\nx\n", "xx\nyy\nx"])
_snippets = st.sampled_from(["x", "y", "xy", "\n", "z"])
_commands = st.one_of(
    st.builds(lambda p: {"command": "view", "path": p}, _paths),
    st.builds(lambda p: {"command": "view", "path": "/memories"}, _paths),
    st.builds(lambda p, t: {"command": "create", "path": p, "file_text": t}, _paths, _texts),
    st.builds(
        lambda p, o, n: {"command": "str_replace", "path": p, "old_str": o, "new_str": n},
        _paths,
        _snippets,
        _snippets,
    ),
    st.builds(
        lambda p, n, t: {"command": "insert", "path": p, "insert_line": n, "insert_text": t},
        _paths,
        st.integers(min_value=0, max_value=3),
        _snippets,
    ),
    st.builds(lambda p: {"command": "delete", "path": p}, _paths),
    st.builds(lambda p, q: {"command": "rename", "old_path": p, "new_path": q}, _paths, _paths),
)
_steps = st.lists(st.tuples(st.sampled_from(["alice", "bob"]), _commands), max_size=16)


@pytest.mark.slow  # a sweep of seconds: outside the fast tier
def test_random_interleavings_never_cross_users(tmp_path: Path) -> None:
    """Random command sequences of two users: each behaves as if alone; the other is untouched."""
    serial = itertools.count()
    with (
        Vault.open(tmp_path / "shared", durability="normal") as shared,
        Vault.open(tmp_path / "alice-alone", durability="normal") as alice_alone,
        Vault.open(tmp_path / "bob-alone", durability="normal") as bob_alone,
    ):

        @settings(max_examples=80, deadline=None)
        @given(steps=_steps)
        def check(steps: list[tuple[str, dict[str, Any]]]) -> None:
            # Fresh users for every example; each "alone" vault never holds the other user.
            n = next(serial)
            tools = {
                "alice": shared.memory_tool(f"alice-{n}"),
                "bob": shared.memory_tool(f"bob-{n}"),
            }
            alone = {
                "alice": alice_alone.memory_tool(f"alice-{n}"),
                "bob": bob_alone.memory_tool(f"bob-{n}"),
            }
            for who in tools:
                start = {path: text.format(who) for path, text in _START.items()}
                _fill(tools[who], start)
                _fill(alone[who], start)
            for who, command in steps:
                other = "bob" if who == "alice" else "alice"
                before = _snapshot(tools[other])
                got = _run(tools[who], command)
                assert got == _run(alone[who], command), (who, command)
                assert _snapshot(tools[other]) == before, (who, command)
            for who in tools:
                assert _snapshot(tools[who]) == _snapshot(alone[who])

        check()


# -- user ids ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "user",
    [
        "",
        "\x00",
        "ali\x00ce",
        "alice\n",
        "al\tice",
        "\x7f",
        "\x1b[31malice",
        "ali\u200bce",  # zero-width space
        "alice\u202e",  # right-to-left override
        "a\u2028b",  # line separator
        "a\u2029b",  # paragraph separator
        "\ud800",  # unpaired surrogate
        "a" * 256,
        "é" * 128,  # 256 bytes of UTF-8
        "🙂" * 64 + "a",  # 257 bytes
        42,
        None,
        b"alice",
        ["alice"],
        1.5,
    ],
)
def test_invalid_user_ids_are_refused(vault: Vault, home: Path, user: object) -> None:
    """Empty, control-character, over-255-byte and non-str user ids raise UsageError."""
    with pytest.raises(UsageError) as err:
        vault.memory_tool(user)  # type: ignore[arg-type]
    assert isinstance(err.value, ValueError)
    with stores.connect(home) as db:
        assert db.execute("SELECT count(*) FROM users").fetchone()[0] == 0


@pytest.mark.parametrize("user", ["a" * 255, "é" * 127 + "a", "🙂" * 63 + "abc", "x", "a b"])
def test_user_ids_up_to_255_bytes_are_accepted(vault: Vault, user: str) -> None:
    """Printable user ids of 1 to 255 bytes of UTF-8 are accepted and work."""
    tool = vault.memory_tool(user)
    assert tool.call({"command": "create", "path": "/memories/a", "file_text": "ok"})


def test_similar_user_names_are_distinct_users(home: Path) -> None:
    """'alice', 'Alice', 'alice ' and other near-spellings are separate users."""
    names = ["alice", "Alice", "ALICE", "alice ", " alice", "alice\u00a0", "alicе", "alice."]
    with Vault.open(home) as v:
        for name in names:
            v.memory_tool(name).call(
                {"command": "create", "path": "/memories/who.txt", "file_text": repr(name)}
            )
    with Vault.open(home) as v:
        for name in names:
            tool = v.memory_tool(name)
            assert _view(tool, "/memories/who.txt") == (
                True,
                f"Here's the content of /memories/who.txt with line numbers:\n     1\t{name!r}",
            )
            listing = _view(tool, "/memories")[1].split("\n")
            assert len(listing) == 3  # header, /memories, who.txt
    with stores.connect(home) as db:
        assert db.execute("SELECT count(*) FROM users").fetchone()[0] == len(names)
