"""Directory tallies: kept current by every write, read by listings (two levels, not the
subtree), compared with the rows by every listing and every full walk."""

from __future__ import annotations

import contextlib
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memvault import Vault
from memvault.memory import INTEGRITY_MESSAGE, Reply, Tree

VECTORS = Path(__file__).resolve().parents[2] / "vectors"

FILES = (
    "/memories/a.md",
    "/memories/d/b.md",
    "/memories/d/e/c.md",
    "/memories/d/e/f/g.md",
    "/memories/x/y.md",
    "/memories/x/.hidden/h.md",
)
DIRS = ("/memories", "/memories/d", "/memories/d/e", "/memories/d/e/f", "/memories/x")


@contextlib.contextmanager
def _db(home: Path) -> Iterator[sqlite3.Connection]:
    with contextlib.closing(sqlite3.connect(home / "vault.db")) as db:
        yield db
        db.commit()


def _full_walk_listing(self: Tree, directory: Any) -> tuple[int, list[Any]]:
    """The listing as it was made before tallies: every file below, summed."""
    return self.tree(directory, depth=2)


def _views(vault: Vault, user: str = "alice") -> dict[str, Reply]:
    runner = vault.runner(user)
    return {path: runner.run({"command": "view", "path": path}) for path in DIRS}


_text = st.text(alphabet="abc é\n", max_size=40)
_command = st.one_of(
    st.builds(
        lambda p, t: {"command": "create", "path": p, "file_text": t},
        st.sampled_from(FILES),
        _text,
    ),
    st.builds(
        lambda p, t: {"command": "insert", "path": p, "insert_line": 0, "insert_text": t},
        st.sampled_from(FILES),
        _text,
    ),
    st.builds(
        lambda p: {"command": "delete", "path": p},
        st.sampled_from(FILES + DIRS[1:]),
    ),
    st.builds(
        lambda a, b: {"command": "rename", "old_path": a, "new_path": b},
        st.sampled_from(FILES + DIRS[1:]),
        st.sampled_from(FILES + DIRS[1:] + ("/memories/z", "/memories/d/z")),
    ),
)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(commands=st.lists(_command, max_size=14))
def test_every_write_keeps_every_tally_current(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, commands: list[dict[str, Any]]
) -> None:
    """After any sequence of writes, each listing equals the full walk's, and the full walk
    (which compares every tally with the rows) finds nothing wrong."""
    home = Path(tempfile.mkdtemp(dir=tmp_path))
    try:
        with Vault.open(home, durability="normal") as vault:
            runner = vault.runner("alice")
            for command in commands:
                runner.run(command)
            listed = _views(vault)
            assert vault.verify_store() == []
            with monkeypatch.context() as patch:
                patch.setattr(Tree, "two_levels", _full_walk_listing)
                assert _views(vault) == listed
    finally:
        shutil.rmtree(home)


def _layout(home: Path) -> None:
    with Vault.open(home) as vault:
        runner = vault.runner("alice")
        for path in FILES:
            runner.run({"command": "create", "path": path, "file_text": f"text of {path}\n"})


def _node_of(home: Path, vault_path: str) -> int:
    """The row id of a node, found through the vault's own walk."""
    with Vault.open(home) as vault:
        runner = vault.runner("alice")
        tree = runner._tree  # the row id is what this test damages
        with tree.transaction(write=False):
            node = tree.resolve(tuple(vault_path.split("/")[2:]))
    assert node is not None
    return node.id


@pytest.mark.sqlite_only("reads or changes the store's rows with SQLite")
def test_a_listing_reads_two_levels_not_the_subtree(home: Path) -> None:
    """Damage three levels down does not reach a listing of /memories (it is not read),
    and is refused where it is listed."""
    _layout(home)
    with Vault.open(home) as vault:
        before = _views(vault)["/memories"]
    deep = _node_of(home, "/memories/d/e/f/g.md")
    with _db(home) as db:
        db.execute("UPDATE nodes SET meta = zeroblob(length(meta)) WHERE id = ?", (deep,))
    with Vault.open(home) as vault:
        views = _views(vault)
    assert views["/memories"] == before
    assert not views["/memories/d"].is_error  # g.md is three levels below /memories/d
    assert views["/memories/d/e"] == Reply(INTEGRITY_MESSAGE, is_error=True)


@pytest.mark.sqlite_only("reads or changes the store's rows with SQLite")
@pytest.mark.parametrize("hidden", ["/memories/d/b.md", "/memories/d/e", "/memories/a.md"])
def test_a_row_removed_outside_memvault_is_refused_not_listed_short(
    home: Path, hidden: str
) -> None:
    """A row deleted behind the vault's back (as a damaged index would hide it): every
    listing that would show it is refused, and verify names the tally."""
    _layout(home)
    node = _node_of(home, hidden)
    with _db(home) as db:
        db.execute("PRAGMA foreign_keys = ON")
        db.execute("DELETE FROM nodes WHERE id = ?", (node,))
    with Vault.open(home) as vault:
        views = _views(vault)
        assert views["/memories"] == Reply(INTEGRITY_MESSAGE, is_error=True)
        problems = [p.reason for p in vault.verify_store()]
    assert any("but its tally records" in p for p in problems), problems


def test_a_directory_moved_keeps_the_tallies_of_both_places(home: Path) -> None:
    _layout(home)
    with Vault.open(home) as vault:
        runner = vault.runner("alice")
        reply = runner.run(
            {"command": "rename", "old_path": "/memories/d/e", "new_path": "/memories/x/e"}
        )
        assert not reply.is_error, reply.content
        listing = runner.run({"command": "view", "path": "/memories"}).content
        assert vault.verify_store() == []
    text = {path: len(f"text of {path}\n") for path in FILES}
    below_e = text["/memories/d/e/c.md"] + text["/memories/d/e/f/g.md"]
    assert f"{text['/memories/d/b.md']}B\t/memories/d/" in listing
    assert f"{text['/memories/x/y.md'] + text['/memories/x/.hidden/h.md'] + below_e}B" in listing


def test_a_rotation_reseals_the_tally_of_memories(home: Path) -> None:
    """After a data-key rotation destroyed the old key, /memories still lists."""
    _layout(home)
    with Vault.open(home) as vault:
        before = _views(vault)
        vault.rotate_user_key("alice")
        assert _views(vault) == before
        assert vault.verify_store() == []


def test_a_version_1_vault_gains_tallies_as_it_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Directories written before tallies are listed by a full walk, and counted the first
    time a write passes through them; the result lists and verifies the same."""
    home = tmp_path / "home"
    home.mkdir(mode=0o700)
    shutil.copy(VECTORS / "vault-v1.db", home / "vault.db")
    monkeypatch.setenv("MEMVAULT_MASTER_KEY", (VECTORS / "vault-v1.key").read_text().strip())
    with Vault.open(home) as vault:
        runner = vault.runner("alice")
        runner.run({"command": "create", "path": "/memories/notes/later.md", "file_text": "12345"})
        listing = runner.run({"command": "view", "path": "/memories"}).content
        assert vault.verify_store() == []
    assert listing.endswith(
        "\n55B\t/memories\n42B\t/memories/notes/\n5B\t/memories/notes/later.md\n"
        "37B\t/memories/notes/todo.md\n13B\t/memories/prefs.md"
    )
    with _db(home) as db:
        roots = [row[0] for row in db.execute("SELECT root FROM users ORDER BY id")]
    assert roots[0] is not None and roots[1] is None  # bob has not written since
