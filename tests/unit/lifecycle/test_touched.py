"""A memory's last-used day: set by every use, sealed to its file, and never a reason for a
view to fail.

create, str_replace, insert and the rename of a file make today the file's day, in the
write's own transaction; a view of a file does so in a short write transaction after its
read (only when the day is not today already). Listing a directory, moving a directory
and a refused command use nothing.
"""

from __future__ import annotations

import logging
import struct
from pathlib import Path

import pytest

from memvault import IntegrityError, StorageError, Vault, _crypto, memory
from memvault.cli import main
from memvault.memory import INTEGRITY_MESSAGE
from tests.unit.lifecycle.helpers import DAY, Clock, create, db, run, view


def _touched(home: Path) -> dict[int, bytes | None]:
    with db(home) as conn:
        return dict(conn.execute("SELECT id, touched FROM nodes ORDER BY id").fetchall())


def _file_rows(home: Path) -> list[int]:
    """Node ids of files (nodes with a text), oldest first."""
    with db(home) as conn:
        return [r[0] for r in conn.execute("SELECT node_id FROM contents ORDER BY node_id")]


def test_create_str_replace_and_insert_set_the_day(vault: Vault, clock: Clock) -> None:
    """Each write makes today the written file's day; the other files keep theirs."""
    run(vault, create("/memories/a.md", "one\n"), create("/memories/b.md", "two\n"))
    clock.day = DAY + 3
    run(
        vault,
        {"command": "str_replace", "path": "/memories/a.md", "old_str": "one", "new_str": "1"},
    )
    clock.day = DAY + 5
    run(
        vault, {"command": "insert", "path": "/memories/b.md", "insert_line": 0, "insert_text": "0"}
    )
    clock.day = DAY + 6
    run(vault, create("/memories/c.md"))
    assert clock.last_used(vault) == {
        "/memories/a.md": DAY + 3,
        "/memories/b.md": DAY + 5,
        "/memories/c.md": DAY + 6,
    }


def test_a_view_of_a_file_sets_its_day_a_listing_does_not(vault: Vault, clock: Clock) -> None:
    """Viewing a file (whole or a range) is a use of it; listing its directory is not, nor is a
    view refused for a bad range."""
    run(vault, create("/memories/d/a.md", "x\ny\n"), create("/memories/d/b.md"))
    clock.day = DAY + 10
    run(vault, view("/memories"), view("/memories/d"))
    reply = vault.runner("alice").run(
        {"command": "view", "path": "/memories/d/b.md", "view_range": [5, 6]}
    )
    assert reply.is_error
    clock.day = DAY + 20
    run(vault, {"command": "view", "path": "/memories/d/a.md", "view_range": [2, 2]})
    assert clock.last_used(vault) == {"/memories/d/a.md": DAY + 20, "/memories/d/b.md": DAY}


def test_renaming_a_file_uses_it_moving_a_directory_does_not(vault: Vault, clock: Clock) -> None:
    """A renamed file gets today as its day; the files below a moved directory keep theirs
    (archiving a directory does not keep its memories from expiring)."""
    run(vault, create("/memories/a.md"), create("/memories/project/notes.md"))
    clock.day = DAY + 30
    run(
        vault,
        {"command": "rename", "old_path": "/memories/a.md", "new_path": "/memories/b.md"},
        {"command": "rename", "old_path": "/memories/project", "new_path": "/memories/archive/p"},
    )
    assert clock.last_used(vault) == {
        "/memories/b.md": DAY + 30,
        "/memories/archive/p/notes.md": DAY,
    }


def test_one_tool_viewing_day_after_day_moves_the_day_on(vault: Vault, clock: Clock) -> None:
    """A long-lived tool remembers the files it saw used today (and looks them up no more
    that day); the next day its views set the day again."""
    runner = vault.runner("alice")
    assert not runner.run(create("/memories/a.md", "x\n")).is_error
    for offset in (0, 0, 1, 1, 4):
        clock.day = DAY + offset
        assert not runner.run(view("/memories/a.md")).is_error
        assert clock.last_used(vault) == {"/memories/a.md": DAY + offset}


def test_the_day_is_sealed_in_the_store(home: Path, vault: Vault, clock: Clock) -> None:
    """Files have a sealed blob of fixed length that holds no day in the clear (two files of
    one day differ); directories have none."""
    run(vault, create("/memories/d/a.md"), create("/memories/d/b.md"))
    days = _touched(home)
    a, b = (days[node] for node in _file_rows(home))
    assert a is not None and b is not None
    assert len(a) == len(b) == _crypto.OVERHEAD + 4
    assert a != b
    assert struct.pack(">I", DAY) not in a + b
    assert [node for node, blob in days.items() if blob is None] == [
        node for node in days if node not in _file_rows(home)
    ]


def test_a_day_that_is_today_is_not_written_again(home: Path, vault: Vault, clock: Clock) -> None:
    """A view on the day the file was last used writes nothing (its sealed day stays byte for
    byte); the first view on a later day writes a new one."""
    run(vault, create("/memories/a.md"))
    before = _touched(home)
    run(vault, view("/memories/a.md"), view("/memories/a.md"))
    assert _touched(home) == before
    clock.day = DAY + 1
    run(vault, view("/memories/a.md"))
    assert _touched(home) != before


@pytest.mark.sqlite_only("reads the head of a log of files")
def test_setting_the_day_on_a_view_is_no_change_of_the_memory(
    home: Path, vault: Vault, clock: Clock
) -> None:
    """The view that sets a day leaves its one record and nothing else: the ledger does not
    move, and the store still verifies against the log."""
    run(vault, create("/memories/a.md"))
    head = vault.audit.head()[0]
    clock.day = DAY + 1
    run(vault, view("/memories/a.md"))
    assert vault.audit.head()[0] == head + 1
    assert vault.verify_store() == []


@pytest.mark.parametrize("other_user", [False, True])
def test_a_day_moved_to_another_file_fails_to_open(
    home: Path, vault: Vault, clock: Clock, other_user: bool
) -> None:
    """A sealed day copied onto another file (of the same user or another) is an integrity
    failure: the view fails with the fixed message, verify names the node, expire stops."""
    run(vault, create("/memories/a.md"))
    run(vault, create("/memories/b.md"), user="bob" if other_user else "alice")
    first, second = _file_rows(home)
    with db(home) as conn:
        conn.execute(
            "UPDATE nodes SET touched = (SELECT touched FROM nodes WHERE id = ?) WHERE id = ?",
            (first, second),
        )
    reply = vault.runner("bob" if other_user else "alice").run(view("/memories/b.md"))
    assert (reply.is_error, reply.content) == (True, INTEGRITY_MESSAGE)
    problems = [p.reason for p in vault.verify_store()]
    assert problems == [
        "a memory fails to open: stored data failed its integrity check (modified, moved or "
        f"corrupted): node {second}, its last-used day does not open (changed or moved)"
    ]
    with pytest.raises(IntegrityError):
        vault.expire(90)
    vault.close()
    assert main(["--home", str(home), "audit", "verify"]) == 1


@pytest.mark.sqlite_only(
    "the view's last-used day is set in a transaction of its own only with a log of files"
)
def test_a_view_whose_day_cannot_be_written_still_answers(
    vault: Vault, clock: Clock, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """If the short write after a view fails (the lock held past its timeout, a full disk),
    the view still answers, the operator log says so, and the day stays as it was."""
    run(vault, create("/memories/a.md", "kept\n"))

    def locked(self: memory.Tree) -> bool:
        raise StorageError("the vault database is locked by another process")

    monkeypatch.setattr(memory.Tree, "touch_read", locked)
    clock.day = DAY + 7
    with caplog.at_level(logging.WARNING, logger="memvault"):
        (content,) = run(vault, view("/memories/a.md"))
    assert content.endswith("with line numbers:\n     1\tkept\n     2\t")
    assert ['"touch_failed"' in r.getMessage() for r in caplog.records] == [True]
    monkeypatch.undo()
    monkeypatch.setattr(memory.touch, "today", clock)
    assert clock.last_used(vault) == {"/memories/a.md": DAY}


@pytest.mark.sqlite_only(
    "the view's last-used day is set in a transaction of its own only with a log of files"
)
def test_a_file_deleted_before_its_day_is_set_is_not_shown(
    home: Path, vault: Vault, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A view whose file goes away (deleted, expired) between its read and setting the day
    answers as things are now: an expiry that ran first is not contradicted."""
    run(vault, create("/memories/a.md"))
    clock.day = DAY + 1
    other = Vault.open(home)
    original = memory.Tree.touch_read

    def racing(self: memory.Tree) -> bool:
        run(other, {"command": "delete", "path": "/memories/a.md"})
        monkeypatch.setattr(memory.Tree, "touch_read", original)
        return original(self)

    monkeypatch.setattr(memory.Tree, "touch_read", racing)
    try:
        reply = vault.runner("alice").run(view("/memories/a.md"))
    finally:
        other.close()
    assert (reply.is_error, reply.content) == (
        True,
        "The path /memories/a.md does not exist. Please provide a valid path.",
    )
    assert vault.verify_store() == []
