"""Tampering and corruption: what was touched reads correctly or fails the integrity check.

Each test writes through the tool, closes the vault (which checkpoints the WAL
into vault.db), changes the database behind memvault's back with sqlite3 or by
overwriting raw bytes, reopens and runs commands. The invariant: a command on a
touched memory either gives exactly the result it gave before the change, or
raises ToolError with the integrity message. Never another memory's text, never
an older text, never an exception other than ToolError; and Vault.open fails
only with a VaultError.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import random
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from anthropic.lib.tools import ToolError
from hypothesis import given, settings
from hypothesis import strategies as st

from memvault import (
    ConfigurationError,
    IntegrityError,
    MasterKeyError,
    Vault,
    VaultError,
)
from memvault.memory import INTEGRITY_MESSAGE

Outcome = tuple[bool, str]  # (succeeded, result or ToolError content)
INTEGRITY: Outcome = (False, INTEGRITY_MESSAGE)

# Header of a sealed blob: format byte, then a big-endian 32-bit key version.
HEADER_SIZE = 5
OVERHEAD = HEADER_SIZE + 12 + 16

FILES: dict[str, dict[str, str]] = {
    "alice": {
        "/memories/a.txt": "alpha line one\nalpha line two\n",
        "/memories/b.txt": "bravo line one\nbravo line two\n",
        "/memories/d1/c.txt": "charlie in d1\n",
        "/memories/d2/e.txt": "echo in d2\n",
    },
    "bob": {
        "/memories/a.txt": "bob private alpha\n",
        "/memories/d1/c.txt": "bob private charlie\n",
    },
}
# A substring of each text that str_replace can target.
NEEDLE = {"alice": "line one", "bob": "private"}


# -- helpers ---------------------------------------------------------------------------


def _run(tool: Any, command: dict[str, Any]) -> Outcome:
    """Run one command; a ToolError is an outcome, any other exception propagates."""
    try:
        return True, tool.call(command)
    except ToolError as exc:
        assert isinstance(exc.content, str)
        return False, exc.content


@contextmanager
def _sql(home: Path) -> Iterator[sqlite3.Connection]:
    """A plain sqlite3 connection to the vault's database, committed and closed on exit."""
    db = sqlite3.connect(home / "vault.db")
    db.execute("PRAGMA synchronous = OFF")  # test speed; durability is not under test here
    try:
        with db:
            yield db
    finally:
        db.close()


def _scalar(home: Path, query: str, *args: object) -> Any:
    with _sql(home) as db:
        row = db.execute(query, args).fetchone()
    return None if row is None else row[0]


def _sql_exec(home: Path, query: str, *args: object) -> None:
    with _sql(home) as db:
        db.execute(query, args)


# The audit log that goes with each database image taken: a restored image gets its own
# log back, as a restored backup of the whole home would (the vault refuses to open a
# store older than its log). An image edited byte by byte goes with the newest log.
_LOGS: dict[str, dict[str, bytes]] = {}
_NEWEST_LOG: list[dict[str, bytes]] = [{}]


def _image(home: Path) -> bytes:
    """The whole state of a closed vault: vault.db alone, its WAL checkpointed away
    (the audit log beside it is kept aside, for :func:`_restore`)."""
    assert not (home / "vault.db-wal").exists(), "closing the vault must checkpoint the WAL"
    image = (home / "vault.db").read_bytes()
    log = {p.name: p.read_bytes() for p in (home / "audit").glob("audit-*.jsonl")}
    _LOGS[hashlib.sha256(image).hexdigest()] = _NEWEST_LOG[0] = log
    return image


def _memories(image: bytes, scratch: Path) -> list[tuple[Any, ...]]:
    """Every memory row of a database image, the audit log's anchor left out (commands
    that change no memory still move the anchor, as their records are written)."""
    scratch.mkdir(exist_ok=True)
    (scratch / "vault.db").write_bytes(image)
    try:
        with _sql(scratch) as db:
            rows: list[tuple[Any, ...]] = []
            for table in ("users", "data_keys", "audit_keys", "nodes", "contents"):
                rows += [(table, *r) for r in db.execute(f"SELECT * FROM {table} ORDER BY 1, 2")]
            rows += db.execute(
                "SELECT 'meta', key, value FROM meta WHERE key NOT LIKE 'audit%' ORDER BY key"
            ).fetchall()
        return rows
    finally:
        (scratch / "vault.db").unlink()


def _restore(home: Path, image: bytes) -> None:
    for suffix in ("-wal", "-shm"):
        (home / f"vault.db{suffix}").unlink(missing_ok=True)
    (home / "vault.db").write_bytes(image)
    log = _LOGS.get(hashlib.sha256(image).hexdigest(), _NEWEST_LOG[0])
    for segment in (home / "audit").glob("audit-*.jsonl"):
        segment.unlink()
    for name, data in log.items():
        (home / "audit" / name).write_bytes(data)


def _swap(home: Path, table: str, column: str, key: str, first: int, second: int) -> None:
    """Exchange one column between two rows (in three steps, past UNIQUE constraints)."""
    with _sql(home) as db:
        a = db.execute(f"SELECT {column} FROM {table} WHERE {key} = ?", (first,)).fetchone()[0]
        b = db.execute(f"SELECT {column} FROM {table} WHERE {key} = ?", (second,)).fetchone()[0]
        db.execute(f"UPDATE {table} SET {column} = ? WHERE {key} = ?", (b"\0swap", first))
        db.execute(f"UPDATE {table} SET {column} = ? WHERE {key} = ?", (a, second))
        db.execute(f"UPDATE {table} SET {column} = ? WHERE {key} = ?", (b, first))


def _set(home: Path, table: str, column: str, key: str, row: int, value: object) -> None:
    with _sql(home) as db:
        cur = db.execute(f"UPDATE {table} SET {column} = ? WHERE {key} = ?", (value, row))
        assert cur.rowcount == 1


def _get(home: Path, table: str, column: str, key: str, row: int) -> bytes:
    value = _scalar(home, f"SELECT {column} FROM {table} WHERE {key} = ?", row)
    assert isinstance(value, bytes)
    return value


@dataclass
class Layout:
    """A closed vault holding FILES, with the row ids memvault gave each user and node."""

    home: Path
    users: dict[str, int]
    nodes: dict[tuple[str, str], int]  # (user, path) -> node id; directories included
    image: bytes  # vault.db before any tampering
    expected: dict[str, Outcome] = field(default_factory=dict)  # outcomes on ``image``


def _build(home: Path) -> Layout:
    users: dict[str, int] = {}
    nodes: dict[tuple[str, str], int] = {}
    with Vault.open(home, durability="normal") as v:
        for user, files in FILES.items():
            tool = v.memory_tool(user)
            users[user] = _scalar(home, "SELECT max(id) FROM users")
            for path, text in files.items():
                tool.call({"command": "create", "path": path, "file_text": text})
                node = _scalar(home, "SELECT max(id) FROM nodes")
                nodes[(user, path)] = node
                parent = _scalar(home, "SELECT parent_id FROM nodes WHERE id = ?", node)
                if parent:
                    nodes[(user, path.rsplit("/", 1)[0])] = parent
    return Layout(home, users, nodes, _image(home))


@pytest.fixture
def layout(home: Path) -> Layout:
    return _build(home)


def _outcomes(home: Path, image: bytes, user: str, commands: list[dict[str, Any]]) -> list[Outcome]:
    """Each command's outcome, every one run on a fresh copy of ``image``.

    A command refused with the integrity error must have changed nothing, as its
    message says.
    """
    results = []
    for command in commands:
        _restore(home, image)
        with Vault.open(home, durability="normal") as v:
            results.append(_run(v.memory_tool(user), command))
        if results[-1] == INTEGRITY:
            scratch = home.parent / "scratch"
            assert _memories(_image(home), scratch) == _memories(image, scratch), command
    return results


def _file_commands(path: str, needle: str) -> list[dict[str, Any]]:
    parent = path.rsplit("/", 1)[0]
    return [
        {"command": "view", "path": path},
        {"command": "view", "path": path, "view_range": [2, -1]},
        {"command": "view", "path": parent},
        {"command": "view", "path": "/memories"},
        {"command": "str_replace", "path": path, "old_str": needle, "new_str": "REPLACED"},
        {"command": "insert", "path": path, "insert_line": 1, "insert_text": "INSERTED"},
        {"command": "create", "path": path, "file_text": "again"},
        {"command": "delete", "path": path},
        {"command": "rename", "old_path": path, "new_path": "/memories/moved/here.txt"},
    ]


def _dir_commands(path: str) -> list[dict[str, Any]]:
    return [
        {"command": "view", "path": path},
        {"command": "view", "path": "/memories"},
        {"command": "create", "path": f"{path}/new.txt", "file_text": "new"},
        {"command": "delete", "path": path},
        {"command": "rename", "old_path": path, "new_path": "/memories/moved"},
    ]


def _commands_for(user: str, path: str) -> list[dict[str, Any]]:
    if path in FILES[user]:
        return _file_commands(path, NEEDLE[user])
    return _dir_commands(path)


def _assert_same_or_integrity(
    layout: Layout, tampered: bytes, user: str, commands: list[dict[str, Any]]
) -> list[Outcome]:
    """Every command gives what it gave before the change, or the integrity error."""
    for command in commands:
        key = json.dumps([user, command], sort_keys=True)
        if key not in layout.expected:
            layout.expected[key] = _outcomes(layout.home, layout.image, user, [command])[0]
    expected = [layout.expected[json.dumps([user, c], sort_keys=True)] for c in commands]
    got = _outcomes(layout.home, tampered, user, commands)
    for command, want, have in zip(commands, expected, got, strict=True):
        assert have in (want, INTEGRITY), (command, want, have)
    return got


def _compare(
    home: Path, good: bytes, bad: bytes, user: str, commands: list[dict[str, Any]]
) -> list[Outcome]:
    expected = _outcomes(home, good, user, commands)
    got = _outcomes(home, bad, user, commands)
    for command, want, have in zip(commands, expected, got, strict=True):
        assert have in (want, INTEGRITY), (command, want, have)
    return got


def _tampered(layout: Layout, change: Callable[[Path], None]) -> bytes:
    _restore(layout.home, layout.image)
    change(layout.home)
    return _image(layout.home)


def _view(layout: Layout, user: str, path: str) -> Outcome:
    with Vault.open(layout.home) as v:
        return _run(v.memory_tool(user), {"command": "view", "path": path})


def _pristine_view(layout: Layout, user: str, path: str) -> Outcome:
    _restore(layout.home, layout.image)
    return _view(layout, user, path)


def _assert_others_intact(layout: Layout, image: bytes, touched: set[tuple[str, str]]) -> None:
    """Every file that is not in ``touched`` (and not below it) reads exactly as before."""
    expected = {}
    for user, files in FILES.items():
        for path in files:
            if not any(u == user and (path == p or path.startswith(p + "/")) for u, p in touched):
                expected[(user, path)] = _pristine_view(layout, user, path)
    _restore(layout.home, image)
    with Vault.open(layout.home) as v:
        tools = {user: v.memory_tool(user) for user in FILES}
        for (user, path), want in expected.items():
            assert want[0]
            assert _run(tools[user], {"command": "view", "path": path}) == want, (user, path)


# -- swapped, moved and grafted rows ---------------------------------------------------


@pytest.mark.sqlite_only("works on the home directory's files")
def test_swapped_content_blobs_fail_integrity(layout: Layout) -> None:
    """Content blobs swapped between two files of one user fail; neither shows the other's text."""
    a, b = layout.nodes[("alice", "/memories/a.txt")], layout.nodes[("alice", "/memories/b.txt")]
    tampered = _tampered(layout, lambda h: _swap(h, "contents", "blob", "node_id", a, b))
    for path in ("/memories/a.txt", "/memories/b.txt"):
        got = _assert_same_or_integrity(layout, tampered, "alice", _file_commands(path, "line one"))
        assert got[0] == INTEGRITY
        assert got[4] == INTEGRITY  # str_replace reads the content before writing
        assert got[5] == INTEGRITY  # so does insert
    _assert_others_intact(
        layout, tampered, {("alice", "/memories/a.txt"), ("alice", "/memories/b.txt")}
    )


@pytest.mark.sqlite_only("works on the home directory's files")
@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("/memories/a.txt", "/memories/b.txt"),
        ("/memories/a.txt", "/memories/d1"),
        ("/memories/d1/c.txt", "/memories/d2/e.txt"),
        ("/memories/d1", "/memories/d2"),
    ],
)
def test_swapped_node_meta_fails_integrity(layout: Layout, first: str, second: str) -> None:
    """Sealed metadata swapped between two nodes (files or directories) fails on both."""
    ids = layout.nodes[("alice", first)], layout.nodes[("alice", second)]
    tampered = _tampered(layout, lambda h: _swap(h, "nodes", "meta", "id", *ids))
    for path in (first, second):
        got = _assert_same_or_integrity(layout, tampered, "alice", _commands_for("alice", path))
        assert got[0] == INTEGRITY
    listing = _outcomes(layout.home, tampered, "alice", [{"command": "view", "path": "/memories"}])
    assert listing == [INTEGRITY]
    _assert_others_intact(layout, tampered, {("alice", first), ("alice", second)})


@pytest.mark.sqlite_only("works on the home directory's files")
def test_swapped_fids_fail_integrity(layout: Layout) -> None:
    """File identities swapped between two rows make both rows fail to open."""
    a, b = layout.nodes[("alice", "/memories/a.txt")], layout.nodes[("alice", "/memories/b.txt")]
    tampered = _tampered(layout, lambda h: _swap(h, "nodes", "fid", "id", a, b))
    for path in ("/memories/a.txt", "/memories/b.txt"):
        got = _assert_same_or_integrity(layout, tampered, "alice", _file_commands(path, "line one"))
        assert got[0] == INTEGRITY


@pytest.mark.sqlite_only("works on the home directory's files")
def test_swapped_lookup_tokens_never_show_the_other_file(layout: Layout) -> None:
    """Look-up tokens swapped within a directory: a path never opens the other file's text."""
    a, b = layout.nodes[("alice", "/memories/a.txt")], layout.nodes[("alice", "/memories/b.txt")]
    tampered = _tampered(layout, lambda h: _swap(h, "nodes", "lookup", "id", a, b))
    for path, other in (("/memories/a.txt", "bravo"), ("/memories/b.txt", "alpha")):
        got = _assert_same_or_integrity(layout, tampered, "alice", _file_commands(path, "line one"))
        assert got[0] == INTEGRITY
        assert all(other not in text for _, text in got)
    _assert_others_intact(
        layout, tampered, {("alice", "/memories/a.txt"), ("alice", "/memories/b.txt")}
    )


@pytest.mark.sqlite_only("works on the home directory's files")
@pytest.mark.parametrize(
    ("moved", "new_parent", "failing_listing"),
    [
        ("/memories/d1/c.txt", "/memories/d2", "/memories/d2"),
        ("/memories/d1/c.txt", "", "/memories"),  # to the root (parent id 0)
        ("/memories/a.txt", "/memories/d1", "/memories/d1"),
        ("/memories/d1", "/memories/d2", "/memories/d2"),
        ("/memories/d2/e.txt", "/memories/a.txt", "/memories"),  # under a file
    ],
)
def test_parent_changed_never_gives_content_elsewhere(
    layout: Layout, moved: str, new_parent: str, failing_listing: str
) -> None:
    """A node re-parented in the database fails where it lands and never opens at either path."""
    node = layout.nodes[("alice", moved)]
    parent = layout.nodes[("alice", new_parent)] if new_parent else 0
    tampered = _tampered(layout, lambda h: _set(h, "nodes", "parent_id", "id", node, parent))
    name = moved.rsplit("/", 1)[1]
    landed = f"{new_parent or '/memories'}/{name}"
    moved_texts = [t for p, t in FILES["alice"].items() if p == moved or p.startswith(moved + "/")]
    _restore(layout.home, tampered)
    with Vault.open(layout.home) as v:
        tool = v.memory_tool("alice")
        assert _run(tool, {"command": "view", "path": failing_listing}) == INTEGRITY
        for path in (moved, landed):
            for command in (
                {"command": "view", "path": path},
                {"command": "str_replace", "path": path, "old_str": "in", "new_str": "X"},
                {"command": "insert", "path": path, "insert_line": 0, "insert_text": "X"},
                {"command": "delete", "path": path},
            ):
                ok, text = _run(tool, command)
                # The integrity error, or the path is not there: a row moved away is
                # indistinguishable from a deleted one. Never the file's text.
                assert not ok, (command, text)
                assert text == INTEGRITY_MESSAGE or "does not exist" in text, (command, text)
                assert not any(t.strip() in text for t in moved_texts), (command, text)
    _assert_others_intact(layout, tampered, {("alice", moved)})


@pytest.mark.sqlite_only("works on the home directory's files")
def test_row_moved_from_bob_to_alice_fails_integrity(layout: Layout) -> None:
    """Bob's row given alice's user id never opens for alice; her own same-named file is intact."""
    node = layout.nodes[("bob", "/memories/a.txt")]
    alice = layout.users["alice"]
    tampered = _tampered(layout, lambda h: _set(h, "nodes", "user_id", "id", node, alice))
    got = _assert_same_or_integrity(
        layout, tampered, "alice", _file_commands("/memories/a.txt", "line one")
    )
    assert got[3] == INTEGRITY  # alice's listing meets the foreign row
    assert got[0] == _pristine_view(layout, "alice", "/memories/a.txt")
    assert all("bob private" not in text for _, text in got)


@pytest.mark.sqlite_only("works on the home directory's files")
def test_directory_moved_from_bob_to_alice_fails_integrity(layout: Layout) -> None:
    """Bob's directory and its file moved to alice fail to open in alice's listing."""
    rows = layout.nodes[("bob", "/memories/d1")], layout.nodes[("bob", "/memories/d1/c.txt")]
    alice = layout.users["alice"]

    def move(home: Path) -> None:
        for row in rows:
            _set(home, "nodes", "user_id", "id", row, alice)

    tampered = _tampered(layout, move)
    got = _assert_same_or_integrity(
        layout, tampered, "alice", _file_commands("/memories/d1/c.txt", "charlie")
    )
    assert got[0] == _pristine_view(layout, "alice", "/memories/d1/c.txt")
    assert got[3] == INTEGRITY
    assert all("bob private" not in text for _, text in got)


@pytest.mark.sqlite_only("works on the home directory's files")
def test_bob_content_blob_on_alice_file_fails_integrity(layout: Layout) -> None:
    """Bob's content blob copied onto alice's file with the same path fails to open."""
    src = layout.nodes[("bob", "/memories/a.txt")]
    dst = layout.nodes[("alice", "/memories/a.txt")]

    def graft(home: Path) -> None:
        _set(
            home, "contents", "blob", "node_id", dst, _get(home, "contents", "blob", "node_id", src)
        )

    tampered = _tampered(layout, graft)
    got = _assert_same_or_integrity(
        layout, tampered, "alice", _file_commands("/memories/a.txt", "line one")
    )
    assert got[0] == INTEGRITY
    assert all("bob private" not in text for _, text in got)
    _assert_others_intact(layout, tampered, {("alice", "/memories/a.txt")})


@pytest.mark.sqlite_only("works on the home directory's files")
def test_bob_whole_row_on_alice_file_fails_integrity(layout: Layout) -> None:
    """Bob's identity, metadata and content all copied onto alice's row still fail to open."""
    src = layout.nodes[("bob", "/memories/a.txt")]
    dst = layout.nodes[("alice", "/memories/a.txt")]

    def graft(home: Path) -> None:
        for column in ("fid", "meta"):
            _set(home, "nodes", column, "id", dst, _get(home, "nodes", column, "id", src))
        _set(
            home, "contents", "blob", "node_id", dst, _get(home, "contents", "blob", "node_id", src)
        )

    tampered = _tampered(layout, graft)
    got = _assert_same_or_integrity(
        layout, tampered, "alice", _file_commands("/memories/a.txt", "line one")
    )
    assert got[0] == INTEGRITY
    assert all("bob private" not in text for _, text in got)


# -- replayed, truncated and re-versioned blobs ----------------------------------------


@pytest.mark.sqlite_only("works on the home directory's files")
@pytest.mark.parametrize("replayed", [("contents", "blob", "node_id"), ("nodes", "meta", "id")])
def test_replayed_old_blob_after_edit_fails_integrity(
    home: Path, replayed: tuple[str, str, str]
) -> None:
    """A file's older content (or metadata) blob put back after a str_replace fails to open."""
    table, column, key = replayed
    path = "/memories/notes.md"
    with Vault.open(home) as v:
        tool = v.memory_tool("alice")
        tool.call({"command": "create", "path": path, "file_text": "version one\n"})
    node = _scalar(home, "SELECT max(id) FROM nodes")
    old = _get(home, table, column, key, node)
    with Vault.open(home) as v:
        tool = v.memory_tool("alice")
        tool.call({"command": "str_replace", "path": path, "old_str": "one", "new_str": "two"})
    edited = _image(home)
    _set(home, table, column, key, node, old)
    got = _compare(home, edited, _image(home), "alice", _file_commands(path, "version"))
    assert got[0] == INTEGRITY
    assert all("version one" not in text for _, text in got)


def _truncations(blob: bytes) -> list[bytes]:
    return [
        b"",
        blob[:1],
        blob[:HEADER_SIZE],
        blob[: OVERHEAD - 1],
        blob[:OVERHEAD],
        blob[:-1],
        blob[: len(blob) // 2],
        blob + b"\0",
    ]


@pytest.mark.sqlite_only("works on the home directory's files")
@pytest.mark.parametrize(
    ("table", "column", "key", "path"),
    [
        ("contents", "blob", "node_id", "/memories/a.txt"),
        ("nodes", "meta", "id", "/memories/a.txt"),
        ("nodes", "meta", "id", "/memories/d1"),
    ],
)
def test_truncated_blob_fails_integrity(
    layout: Layout, table: str, column: str, key: str, path: str
) -> None:
    """A blob cut short (or extended) at any length fails the integrity check."""
    node = layout.nodes[("alice", path)]
    blob = _get(layout.home, table, column, key, node)
    for cut in _truncations(blob):
        tampered = _tampered(layout, lambda h, c=cut: _set(h, table, column, key, node, c))
        got = _assert_same_or_integrity(layout, tampered, "alice", _commands_for("alice", path)[:2])
        assert got[0] == INTEGRITY, len(cut)
    _assert_others_intact(layout, tampered, {("alice", path)})


@pytest.mark.sqlite_only("works on the home directory's files")
@pytest.mark.parametrize(
    "header",
    [
        b"\x01\x00\x00\x00\x02",  # a key version the user does not have
        b"\x01\x00\x00\x00\x00",
        b"\x01\xff\xff\xff\xff",
        b"\x01\x00\x00\x01\x01",
        b"\x02\x00\x00\x00\x01",  # an unknown format
        b"\x00\x00\x00\x00\x01",
    ],
)
@pytest.mark.parametrize(
    ("table", "column", "key"), [("contents", "blob", "node_id"), ("nodes", "meta", "id")]
)
def test_changed_blob_header_fails_integrity(
    layout: Layout, header: bytes, table: str, column: str, key: str
) -> None:
    """A changed format byte or key version in a blob's header fails the integrity check."""
    node = layout.nodes[("alice", "/memories/b.txt")]
    blob = _get(layout.home, table, column, key, node)
    assert blob[:HEADER_SIZE] == b"\x01\x00\x00\x00\x01"
    tampered = _tampered(
        layout, lambda h: _set(h, table, column, key, node, header + blob[HEADER_SIZE:])
    )
    got = _assert_same_or_integrity(
        layout, tampered, "alice", _file_commands("/memories/b.txt", "line one")
    )
    assert got[0] == INTEGRITY
    _assert_others_intact(layout, tampered, {("alice", "/memories/b.txt")})


@pytest.mark.sqlite_only("works on the home directory's files")
def test_changed_key_version_column_never_gives_wrong_content(layout: Layout) -> None:
    """The plain key_version column changed on a node gives the right content or the error."""
    node = layout.nodes[("alice", "/memories/a.txt")]
    tampered = _tampered(layout, lambda h: _set(h, "nodes", "key_version", "id", node, 7))
    _assert_same_or_integrity(layout, tampered, "alice", _file_commands("/memories/a.txt", "line"))


# -- users and their keys ---------------------------------------------------------------


def _all_commands(user: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [{"command": "view", "path": "/memories"}]
    for path in FILES[user]:
        out.append({"command": "view", "path": path})
    out.append({"command": "create", "path": "/memories/fresh.txt", "file_text": "fresh"})
    out.append(
        {
            "command": "str_replace",
            "path": "/memories/a.txt",
            "old_str": NEEDLE[user],
            "new_str": "X",
        }
    )
    return out


def _flip_first_byte_after_header(blob: bytes) -> bytes:
    return blob[:HEADER_SIZE] + bytes([blob[HEADER_SIZE] ^ 0x40]) + blob[HEADER_SIZE + 1 :]


@pytest.mark.sqlite_only("works on the home directory's files")
@pytest.mark.parametrize(
    "damage",
    [
        "flip",
        "truncate",
        "version",
        "delete",
        "primary",
    ],
)
def test_damaged_data_key_fails_every_command_of_that_user_only(
    layout: Layout, damage: str
) -> None:
    """A damaged wrapped data key fails all of alice's commands; bob's still work."""
    alice = layout.users["alice"]
    wrapped = _get(layout.home, "data_keys", "wrapped", "user_id", alice)

    def change(home: Path) -> None:
        with _sql(home) as db:
            if damage == "flip":
                db.execute(
                    "UPDATE data_keys SET wrapped = ? WHERE user_id = ?",
                    (_flip_first_byte_after_header(wrapped), alice),
                )
            elif damage == "truncate":
                db.execute(
                    "UPDATE data_keys SET wrapped = ? WHERE user_id = ?", (wrapped[:-3], alice)
                )
            elif damage == "version":
                db.execute("UPDATE data_keys SET version = 2 WHERE user_id = ?", (alice,))
            elif damage == "delete":
                db.execute("DELETE FROM data_keys WHERE user_id = ?", (alice,))
            else:
                db.execute("UPDATE users SET primary_version = 2 WHERE id = ?", (alice,))

    tampered = _tampered(layout, change)
    got = _outcomes(layout.home, tampered, "alice", _all_commands("alice"))
    assert got == [INTEGRITY] * len(got)
    _assert_others_intact(layout, tampered, {("alice", "/memories")})


@pytest.mark.sqlite_only("works on the home directory's files")
def test_swapped_wrapped_data_keys_fail_both_users(layout: Layout) -> None:
    """Alice's and bob's wrapped data keys swapped: neither user opens anything."""
    alice, bob = layout.users["alice"], layout.users["bob"]
    tampered = _tampered(layout, lambda h: _swap(h, "data_keys", "wrapped", "user_id", alice, bob))
    for user in FILES:
        got = _outcomes(layout.home, tampered, user, _all_commands(user))
        assert got == [INTEGRITY] * len(got)


@pytest.mark.sqlite_only("works on the home directory's files")
def test_swapped_user_lookups_fail_both_users(layout: Layout) -> None:
    """Alice's and bob's look-up tokens swapped: each lands on the other's rows and fails."""
    alice, bob = layout.users["alice"], layout.users["bob"]
    tampered = _tampered(layout, lambda h: _swap(h, "users", "lookup", "id", alice, bob))
    for user in FILES:
        got = _outcomes(layout.home, tampered, user, _all_commands(user))
        assert got == [INTEGRITY] * len(got)


@pytest.mark.sqlite_only("works on the home directory's files")
@pytest.mark.parametrize("damage", ["flip", "truncate", "swap"])
def test_corrupted_user_name_never_gives_wrong_content(layout: Layout, damage: str) -> None:
    """A corrupted sealed user name: the user's commands work as before or fail integrity."""
    alice, bob = layout.users["alice"], layout.users["bob"]

    def change(home: Path) -> None:
        name = _get(home, "users", "name", "id", alice)
        if damage == "flip":
            _set(home, "users", "name", "id", alice, _flip_first_byte_after_header(name))
        elif damage == "truncate":
            _set(home, "users", "name", "id", alice, name[:7])
        else:
            _swap(home, "users", "name", "id", alice, bob)

    tampered = _tampered(layout, change)
    for user in FILES:
        _assert_same_or_integrity(layout, tampered, user, _all_commands(user))
    _assert_others_intact(layout, tampered, {("alice", "/memories")})


@pytest.mark.sqlite_only("reads or changes the store's rows with SQLite")
@pytest.mark.parametrize("damage", ["flip", "truncate", "other-vault"])
def test_corrupted_key_check_refuses_open_and_changes_nothing(
    layout: Layout, damage: str, tmp_path: Path
) -> None:
    """A damaged meta.key_check makes open fail and leaves vault.db as is, with an
    IntegrityError: the key is right, since it opens the store's sealed ledger (a second
    witness), or the value is not even shaped like a check value."""

    def change(home: Path) -> None:
        check = bytes(_scalar(home, "SELECT value FROM meta WHERE key = 'key_check'"))
        with _sql(home) as db:
            if damage == "flip":
                value = _flip_first_byte_after_header(check)
            elif damage == "truncate":
                value = check[:10]
            else:  # the check value of another vault, under another key
                with Vault.open(tmp_path / "other") as other:
                    pass
                with _sql(other.home) as odb:
                    value = odb.execute("SELECT value FROM meta WHERE key = 'key_check'").fetchone()
                    value = bytes(value[0])
            db.execute("UPDATE meta SET value = ? WHERE key = 'key_check'", (value,))

    tampered = _tampered(layout, change)
    listing = sorted(os.listdir(layout.home))
    vault_id = _scalar(layout.home, "SELECT value FROM meta WHERE key = 'vault_id'").decode()
    with pytest.raises(IntegrityError) as err:
        Vault.open(layout.home)
    assert vault_id in str(err.value)
    if damage != "truncate":
        assert str(err.value).endswith("the master key is right, it opens the store's ledger")
    assert (layout.home / "vault.db").read_bytes() == tampered
    assert sorted(os.listdir(layout.home)) == listing


@pytest.mark.sqlite_only("reads or changes the store's rows with SQLite")
def test_missing_key_check_never_adopts_a_wrong_master_key(
    layout: Layout, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With meta.key_check gone, a wrong master key is still refused and nothing is written."""
    tampered = _tampered(layout, lambda h: _sql_exec(h, "DELETE FROM meta WHERE key = 'key_check'"))
    monkeypatch.setenv("MEMVAULT_MASTER_KEY", base64.b64encode(os.urandom(32)).decode())
    with pytest.raises(IntegrityError):
        Vault.open(layout.home).close()
    assert (layout.home / "vault.db").read_bytes() == tampered


@pytest.mark.sqlite_only("reads or changes the store's rows with SQLite")
@pytest.mark.parametrize(
    ("value", "error"), [(b"zz-not-hex", IntegrityError), (b"00" * 16, MasterKeyError)]
)
def test_corrupted_vault_id_refuses_open(
    layout: Layout, value: bytes, error: type[VaultError]
) -> None:
    """A damaged vault id refuses to open with a VaultError (another id finds no key)."""
    tampered = _tampered(
        layout,
        lambda h: _sql_exec(h, "UPDATE meta SET value = ? WHERE key = 'vault_id'", value),
    )
    with pytest.raises(error):
        Vault.open(layout.home)
    assert (layout.home / "vault.db").read_bytes() == tampered


@pytest.mark.sqlite_only("works on the home directory's files")
@pytest.mark.parametrize(
    ("table", "column", "key", "user", "path"),
    [
        ("contents", "blob", "node_id", "alice", "/memories/a.txt"),
        ("nodes", "meta", "id", "alice", "/memories/a.txt"),
        ("nodes", "fid", "id", "alice", "/memories/a.txt"),
        ("data_keys", "wrapped", "user_id", "alice", ""),
    ],
)
def test_blob_replaced_by_text_value_fails_integrity(
    layout: Layout, table: str, column: str, key: str, user: str, path: str
) -> None:
    """A sealed column overwritten with a TEXT value gives the integrity error, like any tamper."""
    row = layout.users[user] if table == "data_keys" else layout.nodes[(user, path)]
    tampered = _tampered(layout, lambda h: _set(h, table, column, key, row, "not a blob"))
    got = _outcomes(
        layout.home, tampered, "alice", [{"command": "view", "path": "/memories/a.txt"}]
    )
    assert got == [INTEGRITY]


@pytest.mark.sqlite_only("works on the home directory's files")
def test_blob_replaced_by_integer_value_fails_integrity(layout: Layout) -> None:
    """A sealed column overwritten with a small INTEGER value gives the integrity error."""
    node = layout.nodes[("alice", "/memories/a.txt")]
    for table, column, key in (("contents", "blob", "node_id"), ("nodes", "meta", "id")):
        tampered = _tampered(layout, lambda h, t=table, c=column, k=key: _set(h, t, c, k, node, 64))
        got = _outcomes(
            layout.home, tampered, "alice", [{"command": "view", "path": "/memories/a.txt"}]
        )
        assert got == [INTEGRITY], table


# -- random single-byte flips ------------------------------------------------------------


@pytest.mark.sqlite_only("works on the home directory's files")
def test_random_byte_flips_in_blobs_fail_only_what_they_touch(layout: Layout) -> None:
    """Any single flipped byte in a content or metadata blob fails that memory; others read."""
    expected_views = {
        (user, path): _pristine_view(layout, user, path)
        for user, files in FILES.items()
        for path in files
    }
    expected_listing = {user: _pristine_view(layout, user, "/memories") for user in FILES}
    targets = [
        ("contents", "blob", "node_id", user, path)
        for (user, path) in layout.nodes
        if path in FILES[user]
    ] + [("nodes", "meta", "id", user, path) for (user, path) in layout.nodes]
    blobs = {
        (table, user, path): _get(layout.home, table, column, key, layout.nodes[(user, path)])
        for table, column, key, user, path in targets
    }

    @settings(max_examples=120, deadline=None)
    @given(
        target=st.sampled_from(targets),
        offset=st.integers(min_value=0, max_value=10_000),
        mask=st.integers(min_value=1, max_value=255),
    )
    def check(target: tuple[str, str, str, str, str], offset: int, mask: int) -> None:
        table, column, key, user, path = target
        blob = bytearray(blobs[(table, user, path)])
        blob[offset % len(blob)] ^= mask
        _restore(layout.home, layout.image)
        _set(layout.home, table, column, key, layout.nodes[(user, path)], bytes(blob))
        with Vault.open(layout.home) as v:
            tools = {u: v.memory_tool(u) for u in FILES}
            for (u, p), want in expected_views.items():
                got = _run(tools[u], {"command": "view", "path": p})
                touched = u == user and (p == path or p.startswith(path + "/"))
                assert got == (INTEGRITY if touched else want), (u, p)
            for u, want in expected_listing.items():
                got = _run(tools[u], {"command": "view", "path": "/memories"})
                # Listing opens every node's metadata, but no content.
                assert got == (INTEGRITY if u == user and table == "nodes" else want), u

    check()


# -- raw corruption of the database file -------------------------------------------------


def _raw_pages_layout(home: Path) -> tuple[dict[str, dict[str, str]], bytes]:
    files = {
        "alice": {f"/memories/f{i:02}.txt": f"alice file {i}\n" * (i * 40 + 1) for i in range(14)},
        "bob": {f"/memories/d/g{i}.txt": f"bob file {i}\n" * (i * 60 + 1) for i in range(6)},
    }
    files["alice"]["/memories/sub/deep/x.txt"] = "deep\n"
    with Vault.open(home, durability="normal") as v:
        for user, paths in files.items():
            tool = v.memory_tool(user)
            for path, text in paths.items():
                tool.call({"command": "create", "path": path, "file_text": text})
    return files, _image(home)


def _expected_view(path: str, text: str) -> str:
    lines = text.split("\n")
    return f"Here's the content of {path} with line numbers:\n" + "\n".join(
        f"{n:>6}\t{line}" for n, line in enumerate(lines, 1)
    )


def _listed(listing: str) -> tuple[str, dict[str, str]]:
    """A directory listing as its header and {path: size}."""
    header, *rows = listing.split("\n")
    return header, {path: size for size, path in (row.split("\t") for row in rows)}


@pytest.mark.sqlite_only("reads or changes the store's rows with SQLite")
def test_overwritten_database_pages_never_give_wrong_content(home: Path) -> None:
    """Garbage written over vault.db pages: nothing raw escapes and no file shows wrong text."""
    files, image = _raw_pages_layout(home)
    page = 4096
    assert len(image) // page >= 10
    listings: dict[str, tuple[str, dict[str, str]]] = {}
    _restore(home, image)
    with Vault.open(home) as v:
        for user in files:
            listings[user] = _listed(
                v.memory_tool(user).call({"command": "view", "path": "/memories"})
            )
    rng = random.Random(20240518)
    opened = failed = 0
    for number in range(1, len(image) // page):
        for offset in (0, 8, 12, rng.randrange(16, page - 64), page - 40):
            data = bytearray(image)
            start = number * page + offset
            size = rng.randint(1, 32)
            data[start : start + size] = rng.randbytes(size)
            _restore(home, bytes(data))
            try:
                v = Vault.open(home, durability="normal")
            except VaultError:
                failed += 1
                continue
            opened += 1
            where = (number, offset)
            try:
                for user, paths in files.items():
                    try:
                        tool = v.memory_tool(user)
                    except VaultError:
                        continue
                    for path, text in paths.items():
                        ok, got = _run(tool, {"command": "view", "path": path})
                        assert not ok or got == _expected_view(path, text), (where, path)
                    ok, got = _run(tool, {"command": "view", "path": "/memories"})
                    if ok:
                        # Damage the open-time check lets through never hides rows.
                        assert _listed(got) == listings[user], where
                    _run(tool, {"command": "create", "path": "/memories/new.txt", "file_text": "n"})
            finally:
                v.close()
    assert opened and failed  # both kinds of damage were met


def _page_of(home: Path, name: str) -> int:
    """The byte offset of the root page of a table or index in vault.db."""
    with _sql(home) as db:
        root = db.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (name,)).fetchone()
        size = db.execute("PRAGMA page_size").fetchone()[0]
    return (int(root[0]) - 1) * int(size)


@pytest.mark.sqlite_only("works on the home directory's files")
def test_corrupted_users_index_page_is_not_an_empty_memory(layout: Layout) -> None:
    """A corrupted users index never makes a user's memories look empty."""
    expected = {user: _pristine_view(layout, user, "/memories") for user in FILES}
    offset = _page_of(layout.home, "sqlite_autoindex_users_1")
    data = bytearray(layout.image)
    assert data[offset] == 0x0A  # a leaf index page
    cells = int.from_bytes(data[offset + 3 : offset + 5], "big")
    assert cells == 2
    # Both cell pointers now point at the first cell: one user's key is gone from the index.
    data[offset + 10 : offset + 12] = data[offset + 8 : offset + 10]
    _restore(layout.home, bytes(data))
    try:
        v = Vault.open(layout.home)
    except VaultError:
        return
    with v:
        for user in FILES:
            try:
                tool = v.memory_tool(user)
            except VaultError:
                continue
            got = _run(tool, {"command": "view", "path": "/memories"})
            assert got in (expected[user], INTEGRITY), user


@pytest.mark.sqlite_only("reads or changes the store's rows with SQLite")
@pytest.mark.parametrize("rows", [("vault_id",), ("vault_id", "key_check")])
def test_missing_vault_id_refuses_open_and_changes_nothing(
    layout: Layout, rows: tuple[str, ...]
) -> None:
    """A vault whose vault_id row is gone refuses to open instead of starting over."""
    keys = Path(os.environ["XDG_CONFIG_HOME"]) / "memvault" / "keys"
    key_files = sorted(os.listdir(keys))

    def change(home: Path) -> None:
        for row in rows:
            _sql_exec(home, "DELETE FROM meta WHERE key = ?", row)

    tampered = _tampered(layout, change)
    try:
        with Vault.open(layout.home) as v:
            listing = _run(v.memory_tool("alice"), {"command": "view", "path": "/memories"})
            assert listing == INTEGRITY
    except VaultError:
        pass
    assert sorted(os.listdir(keys)) == key_files
    assert (layout.home / "vault.db").read_bytes() == tampered


@pytest.mark.sqlite_only("reads or changes the store's rows with SQLite")
@pytest.mark.parametrize("damage", ["random", "zeros", "keep-magic", "page-size"])
def test_corrupted_sqlite_header_refuses_open_with_vault_error(home: Path, damage: str) -> None:
    """The first 100 bytes of vault.db overwritten: open raises a VaultError that says so."""
    _, image = _raw_pages_layout(home)
    rng = random.Random(damage)
    if damage == "random":
        header = rng.randbytes(100)
    elif damage == "zeros":
        header = bytes(100)
    elif damage == "keep-magic":
        header = image[:16] + rng.randbytes(84)
    else:
        header = image[:16] + b"\x00\x03" + image[18:100]
    _restore(home, header + image[100:])
    with pytest.raises(VaultError) as err:
        Vault.open(home)
    message = str(err.value)
    assert "vault database" in message
    assert "corrupt" in message
    assert err.value.hint and "backup" in err.value.hint
    assert "Traceback" not in message


# -- master keys ----------------------------------------------------------------------------


def _key_file(home: Path) -> Path:
    vault_id = _scalar(home, "SELECT value FROM meta WHERE key = 'vault_id'").decode()
    path = Path(os.environ["XDG_CONFIG_HOME"]) / "memvault" / "keys" / f"{vault_id}.key"
    assert path.is_file()
    return path


def _digest(home: Path) -> dict[str, str]:
    """Every file of the home (the audit log's too), by content."""
    return {
        str(path.relative_to(home)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(home.rglob("*"))
        if path.is_file()
    }


@pytest.mark.sqlite_only("reads or changes the store's rows with SQLite")
def test_wrong_master_key_refuses_open_and_changes_nothing(
    layout: Layout, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another master key in $MEMVAULT_MASTER_KEY raises MasterKeyError; vault.db is untouched."""
    before = _digest(layout.home)
    monkeypatch.setenv("MEMVAULT_MASTER_KEY", base64.b64encode(os.urandom(32)).decode())
    with pytest.raises(MasterKeyError) as err:
        Vault.open(layout.home)
    assert "does not open vault" in str(err.value)
    assert _digest(layout.home) == before
    monkeypatch.delenv("MEMVAULT_MASTER_KEY")
    with Vault.open(layout.home) as v:  # the right key still opens it
        assert "alpha" in v.memory_tool("alice").call(
            {"command": "view", "path": "/memories/a.txt"}
        )


@pytest.mark.sqlite_only("reads or changes the store's rows with SQLite")
def test_wrong_key_file_refuses_open_and_changes_nothing(layout: Layout) -> None:
    """A key file holding another valid key raises MasterKeyError; vault.db is untouched."""
    key_file = _key_file(layout.home)
    right = key_file.read_bytes()
    key_file.write_bytes(base64.b64encode(os.urandom(32)) + b"\n")
    before = _digest(layout.home)
    with pytest.raises(MasterKeyError):
        Vault.open(layout.home)
    assert _digest(layout.home) == before
    assert key_file.read_bytes() != right  # never "repaired" by writing a new key


@pytest.mark.sqlite_only("works on the home directory's files")
def test_missing_key_file_names_the_expected_path(layout: Layout) -> None:
    """A missing key file raises MasterKeyError naming where the key was expected."""
    key_file = _key_file(layout.home)
    key_file.unlink()
    before = _digest(layout.home)
    with pytest.raises(MasterKeyError) as err:
        Vault.open(layout.home)
    assert str(key_file) in str(err.value)
    assert not key_file.exists()  # no new key is made up for an existing vault
    assert _digest(layout.home) == before


@pytest.mark.sqlite_only("works on the home directory's files")
@pytest.mark.parametrize("mode", [0o644, 0o640, 0o604, 0o660])
def test_key_file_readable_by_others_is_refused(layout: Layout, mode: int) -> None:
    """A key file other users can read is refused with a hint to chmod 600."""
    key_file = _key_file(layout.home)
    key_file.chmod(mode)
    with pytest.raises(MasterKeyError) as err:
        Vault.open(layout.home)
    assert str(key_file) in str(err.value)
    assert err.value.hint is not None and f"chmod 600 {key_file}" in err.value.hint
    key_file.chmod(0o600)
    Vault.open(layout.home).close()


@pytest.mark.parametrize(
    ("value", "says"),
    [
        ("not base64 at all!", "not valid base64"),
        ("QUJD", "3 bytes long"),
        (base64.b64encode(bytes(31)).decode(), "31 bytes long"),
        (base64.b64encode(bytes(33)).decode(), "33 bytes long"),
        (base64.b64encode(bytes(64)).decode(), "64 bytes long"),
        ("", "0 bytes long"),
    ],
)
@pytest.mark.parametrize("existing", [True, False])
def test_malformed_env_master_key_is_a_clear_error(
    home: Path, monkeypatch: pytest.MonkeyPatch, value: str, says: str, existing: bool
) -> None:
    """A malformed $MEMVAULT_MASTER_KEY raises MasterKeyError saying what is wrong with it."""
    if existing:
        Vault.open(home).close()
    monkeypatch.setenv("MEMVAULT_MASTER_KEY", value)
    with pytest.raises(MasterKeyError) as err:
        Vault.open(home)
    assert says in str(err.value)
    assert "MEMVAULT_MASTER_KEY" in str(err.value)
    if len(value) > 4:
        assert value not in str(err.value)  # never echo key material


@pytest.mark.sqlite_only("works on the home directory's files")
@pytest.mark.parametrize("how", ["argument", "environment"])
@pytest.mark.parametrize("existing", [True, False])
def test_key_file_inside_home_is_refused(
    home: Path, monkeypatch: pytest.MonkeyPatch, how: str, existing: bool
) -> None:
    """A master key file inside the home is refused with ConfigurationError."""
    if existing:
        Vault.open(home).close()
    inside = home / "keys" / "master.key"
    kwargs: dict[str, Any] = {}
    if how == "argument":
        kwargs["master_key_file"] = inside
    else:
        monkeypatch.setenv("MEMVAULT_MASTER_KEY_FILE", str(inside))
    with pytest.raises(ConfigurationError) as err:
        Vault.open(home, **kwargs)
    assert "inside the vault home" in str(err.value)
    assert not inside.exists()
    assert not inside.parent.exists()


@pytest.mark.sqlite_only("works on the home directory's files")
def test_key_file_symlinked_into_home_is_refused(home: Path, tmp_path: Path) -> None:
    """A key file path outside the home that resolves inside it is refused too."""
    Vault.open(home).close()
    link = tmp_path / "outside.key"
    link.symlink_to(home / "master.key")
    with pytest.raises(ConfigurationError):
        Vault.open(home, master_key_file=link)


@pytest.mark.sqlite_only("works on the home directory's files")
def test_key_file_that_is_a_symlink_is_refused(layout: Layout) -> None:
    """A key path that is a symlink (even to a good key file) is refused with MasterKeyError."""
    key_file = _key_file(layout.home)
    target = key_file.with_name("real.key")
    key_file.rename(target)
    key_file.symlink_to(target)
    with pytest.raises(MasterKeyError) as err:
        Vault.open(layout.home)
    assert str(key_file) in str(err.value)


@pytest.mark.sqlite_only("works on the home directory's files")
def test_key_file_that_is_a_directory_is_refused(layout: Layout) -> None:
    """A key path that is a directory is refused with MasterKeyError, not a raw OSError."""
    key_file = _key_file(layout.home)
    key_file.unlink()
    key_file.mkdir(mode=0o700)
    with pytest.raises(MasterKeyError):
        Vault.open(layout.home)
