"""`Vault.export_memories`: a user's memories as stored, in one snapshot, to a new file
of mode 0600, whole or not at all, recorded as ``users.export``."""

from __future__ import annotations

import errno
import io
import json
import os
import stat
import tarfile
from pathlib import Path
from typing import Any

import pytest

import memvault._fs
from memvault import IntegrityError, StorageError, UsageError, Vault
from tests.support import stores

NOTES = {
    "/memories/a.md": "first line\nsecond line\n",
    "/memories/notes/2025/jan.md": "Prefers short answers.\n",
    "/memories/notes/empty.md": "",
    "/memories/日本語/メモ.md": "こんにちは 👋\n",
    "/memories/tickets/4711.md": "mail jane.doe@fastmail.com\n",
}


def fill(vault: Vault, user: str = "alice") -> None:
    runner = vault.runner(user)
    for path, text in NOTES.items():
        assert not runner.run({"command": "create", "path": path, "file_text": text}).is_error
    # A directory left empty: created for a file that is then moved out of it.
    runner.run({"command": "create", "path": "/memories/old/x.md", "file_text": "x"})
    move = {"command": "rename", "old_path": "/memories/old/x.md", "new_path": "/memories/x.md"}
    runner.run(move)


def stored(vault: Vault, user: str, path: str) -> str:
    reply = vault.runner(user).run({"command": "view", "path": path})
    return "\n".join(line.split("\t", 1)[1] for line in reply.content.split("\n")[1:])


def records(home: Path) -> list[dict[str, Any]]:
    return stores.records(home)


def test_json_round_trip_of_texts_and_directories(vault: Vault, tmp_path: Path) -> None:
    """Every memory's text as stored (redacted), unicode and empty ones included, and
    every directory, empty ones included, in pre-order."""
    fill(vault)
    out = tmp_path / "alice.json"
    report = vault.export_memories("alice", out)
    document = json.loads(out.read_text(encoding="utf-8"))
    assert list(document) == ["format", "user", "vault", "exported", "memories", "directories"]
    assert (document["format"], document["user"], document["vault"]) == (
        "memvault-export/1",
        "alice",
        vault.vault_id,
    )
    assert document["exported"] == report.exported and report.exported.endswith("Z")
    paths = [m["path"] for m in document["memories"]]
    assert paths == [
        "/memories/a.md",
        "/memories/notes/2025/jan.md",
        "/memories/notes/empty.md",
        "/memories/tickets/4711.md",
        "/memories/x.md",
        "/memories/日本語/メモ.md",
    ]
    for memory in document["memories"]:
        assert memory["text"] == stored(vault, "alice", memory["path"])
        assert memory["bytes"] == len(memory["text"].encode())
    texts = {m["path"]: m["text"] for m in document["memories"]}
    assert texts["/memories/日本語/メモ.md"] == NOTES["/memories/日本語/メモ.md"]
    assert texts["/memories/tickets/4711.md"] == "mail [REDACTED:email]\n"
    assert document["directories"] == [
        "/memories/notes",
        "/memories/notes/2025",
        "/memories/old",
        "/memories/tickets",
        "/memories/日本語",
    ]
    assert (report.memories, report.directories, report.bytes) == (6, 5, out.stat().st_size)


def test_tar_round_trip_and_back_in_through_import(vault: Vault, tmp_path: Path) -> None:
    """The archive is the reference backend's layout: unpacked, it imports again into
    the same memories."""
    fill(vault)
    out = tmp_path / "alice.tar"
    report = vault.export_memories("alice", out, fmt="tar")
    with tarfile.open(out) as archive:
        members = {m.name: m for m in archive.getmembers()}
        assert members["memories"].isdir() and members["memories/old"].isdir()
        texts = {
            "/" + name: archive.extractfile(m).read().decode()  # type: ignore[union-attr]
            for name, m in members.items()
            if m.isfile()
        }
        assert {m.mode for m in members.values() if m.isfile()} == {0o600}
        assert {(m.uid, m.gid, m.uname) for m in members.values()} == {(0, 0, "")}
        archive.extractall(tmp_path / "unpacked", filter="data")
    assert texts == {path: stored(vault, "alice", path) for path in texts}
    assert len(texts) == report.memories == 6
    again = vault.import_memories(tmp_path / "unpacked", "bob")
    assert (again.layout, again.imported, again.refused) == ("base", 6, 0)
    assert all(stored(vault, "bob", path) == text for path, text in texts.items())


def test_the_file_is_private_whatever_the_umask(vault: Vault, tmp_path: Path) -> None:
    fill(vault)
    previous = os.umask(0)
    try:
        vault.export_memories("alice", tmp_path / "a.json")
        vault.export_memories("alice", tmp_path / "a.tar", fmt="tar")
    finally:
        os.umask(previous)
    for name in ("a.json", "a.tar"):
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o600


def test_a_failed_write_leaves_no_file(
    vault: Vault, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full disk part-way through: no file, no temporary file, and an existing file
    that was to be replaced is still whole."""
    fill(vault)
    out = tmp_path / "out" / "alice.json"
    out.parent.mkdir()

    def full(fd: int, data: bytes) -> None:
        os.write(fd, data[:10])
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(memvault._fs, "write_all", full)
    with pytest.raises(StorageError, match="the disk is full"):
        vault.export_memories("alice", out)
    assert list(out.parent.iterdir()) == []
    out.write_text("the previous export\n")
    with pytest.raises(StorageError):
        vault.export_memories("alice", out, overwrite=True)
    assert list(out.parent.iterdir()) == [out]
    assert out.read_text() == "the previous export\n"


def test_an_existing_file_is_kept_unless_overwrite_is_given(vault: Vault, tmp_path: Path) -> None:
    fill(vault)
    out = tmp_path / "alice.json"
    out.write_text("keep me")
    with pytest.raises(UsageError, match="already exists; it was left as it is") as caught:
        vault.export_memories("alice", out)
    assert caught.value.hint == "choose a new file name, or pass --overwrite to replace it"
    assert out.read_text() == "keep me"
    vault.export_memories("alice", out, overwrite=True)
    assert json.loads(out.read_text())["user"] == "alice"


def test_an_unknown_user_is_an_error_and_is_not_created(
    vault: Vault, home: Path, tmp_path: Path
) -> None:
    fill(vault)
    before = records(home)
    with pytest.raises(UsageError, match="the vault has no user 'mallory'"):
        vault.export_memories("mallory", tmp_path / "m.json")
    assert records(home) == before
    assert not (tmp_path / "m.json").exists()
    with stores.connect(home) as db:
        assert db.execute("SELECT count(*) FROM users").fetchone()[0] == 1


@pytest.mark.sqlite_only("reads the home's audit log files")
def test_a_file_inside_the_home_is_refused(vault: Vault, home: Path, tmp_path: Path) -> None:
    fill(vault)
    (tmp_path / "link-to-home").symlink_to(home)
    for target in (home / "export.json", home / "audit" / "x.json", tmp_path / "link-to-home/x"):
        with pytest.raises(UsageError, match="is inside the vault's home"):
            vault.export_memories("alice", target)
        assert not (home / "export.json").exists()


def test_a_missing_directory_is_refused_before_anything_is_recorded(
    vault: Vault, home: Path, tmp_path: Path
) -> None:
    fill(vault)
    before = records(home)
    with pytest.raises(UsageError, match=r"the directory .*/nowhere does not exist"):
        vault.export_memories("alice", tmp_path / "nowhere" / "a.json")
    assert records(home) == before


def test_a_bad_format_is_refused(vault: Vault, tmp_path: Path) -> None:
    fill(vault)
    with pytest.raises(UsageError, match="'zip' is not an export format"):
        vault.export_memories("alice", tmp_path / "a.zip", fmt="zip")


def test_the_export_is_recorded_without_its_contents(
    vault: Vault, home: Path, tmp_path: Path
) -> None:
    """One users.export record naming the user by pseudonym, the format and the counts;
    neither the file's name nor anything of the memories."""
    fill(vault)
    before = len(records(home))
    vault.export_memories("alice", tmp_path / "secret-name.tar", fmt="tar")
    (record,) = records(home)[before:]
    creates = [r for r in records(home) if r["command"] == "create"]
    assert (record["command"], record["outcome"], record["user"]) == (
        "users.export",
        "ok",
        creates[0]["user"],
    )
    assert record["details"] == {"format": "tar", "memories": 6, "directories": 5}
    line = json.dumps(record)
    assert "secret-name" not in line and "alice" not in line and "first line" not in line


@pytest.mark.sqlite_only("works on the home directory's files")
def test_an_export_that_cannot_be_recorded_writes_nothing(
    vault: Vault, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fill(vault)
    real = memvault._fs.write_all
    calls = {"n": 0}

    def log_fails(fd: int, data: bytes) -> None:
        calls["n"] += 1
        if calls["n"] == 1:  # the first write is the record's
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        real(fd, data)

    monkeypatch.setattr(memvault._fs, "write_all", log_fails)
    with pytest.raises(StorageError, match="audit log"):
        vault.export_memories("alice", tmp_path / "a.json")
    assert not (tmp_path / "a.json").exists()


def test_a_damaged_memory_fails_the_export(home: Path, tmp_path: Path) -> None:
    """Every text passes the tool's integrity checks: contents swapped between two files
    fail the export, and no file is written."""
    with Vault.open(home) as vault:
        fill(vault)
    with stores.connect(home) as db:
        (a, blob_a), (b, blob_b) = db.execute("SELECT node_id, blob FROM contents LIMIT 2")
        db.execute("UPDATE contents SET blob = ? WHERE node_id = ?", (blob_b, a))
        db.execute("UPDATE contents SET blob = ? WHERE node_id = ?", (blob_a, b))
        db.commit()
    with Vault.open(home) as vault, pytest.raises(IntegrityError, match="failed its integrity"):
        vault.export_memories("alice", tmp_path / "a.json")
    assert not (tmp_path / "a.json").exists()


def test_the_json_is_one_document_of_utf8(vault: Vault, tmp_path: Path) -> None:
    fill(vault)
    vault.export_memories("alice", tmp_path / "a.json")
    raw = (tmp_path / "a.json").read_bytes()
    assert "こんにちは 👋".encode() in raw and raw.endswith(b"}\n")
    assert json.load(io.BytesIO(raw))["user"] == "alice"
