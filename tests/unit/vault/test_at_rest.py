"""Nothing readable at rest: every byte under the home is scanned for what was written.

Random markers go into every place text enters the vault: file contents, file and
directory names, user ids, str_replace and insert text, rename targets. No marker
may appear in any file under the home, in UTF-8 or UTF-16, in any letter case,
while the vault is open (WAL present) or after it is closed; what was deleted or
overwritten is gone from the disk once the vault is closed. The master key lives
outside the home, so a copy of the home alone opens nothing.
"""

from __future__ import annotations

import base64
import os
import re
import secrets
import shutil
import sqlite3
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from memvault import MasterKeyError, MemoryTool, Vault

DB_FILES = {"vault.db", "vault.db-wal", "vault.db-shm"}
AUDIT_FILE = re.compile(r"audit/(\.lock|\.reserve|audit-\d{6}\.jsonl)")


def _unexpected(names: set[str]) -> set[str]:
    """Files that are neither the database's nor the audit log's."""
    return {n for n in names if n not in DB_FILES and not AUDIT_FILE.fullmatch(n)}


def _marker() -> str:
    return "MARKER-" + secrets.token_hex(8)


def _needles(marker: str) -> list[bytes]:
    """Every spelling of a marker to look for: whole and token alone, cases, encodings."""
    token = marker.removeprefix("MARKER-")
    out = []
    for text in (marker, token):
        for variant in {text, text.lower(), text.upper()}:
            for codec in ("utf-8", "utf-16-le", "utf-16-be"):
                out.append(variant.encode(codec))
    return out


def _files(home: Path) -> dict[str, bytes]:
    """Every file under the home, by path relative to it."""
    found = {}
    for root, _dirs, names in os.walk(home):
        for name in names:
            path = Path(root) / name
            found[str(path.relative_to(home))] = path.read_bytes()
    return found


def _scan(home: Path, markers: list[str]) -> list[tuple[str, str]]:
    """(file, marker) for every marker found anywhere under the home."""
    hits = []
    for name, data in _files(home).items():
        for marker in markers:
            if any(needle in data for needle in _needles(marker)):
                hits.append((name, marker))
    return hits


def _sealed(home: Path) -> set[bytes]:
    """Every sealed blob the database holds now: contents and node metadata."""
    db = sqlite3.connect(home / "vault.db")
    try:
        blobs = {bytes(r[0]) for r in db.execute("SELECT blob FROM contents")}
        blobs |= {bytes(r[0]) for r in db.execute("SELECT meta FROM nodes")}
    finally:
        db.close()
    return blobs


def _key_file(home: Path) -> Path:
    db = sqlite3.connect(home / "vault.db")
    try:
        vault_id = db.execute("SELECT value FROM meta WHERE key = 'vault_id'").fetchone()[0]
    finally:
        db.close()
    return Path(os.environ["XDG_CONFIG_HOME"], "memvault", "keys", f"{vault_id.decode()}.key")


@contextmanager
def _umask(mask: int) -> Iterator[None]:
    old = os.umask(mask)
    try:
        yield
    finally:
        os.umask(old)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _workload(v: Vault, markers: dict[str, str]) -> MemoryTool:
    """Write every marker through every way text enters the vault; returns alice's tool."""
    alice = v.memory_tool("alice")
    m = markers
    alice.call({"command": "create", "path": "/memories/plain.md", "file_text": m["content"]})
    alice.call({"command": "create", "path": f"/memories/{m['file']}", "file_text": "short"})
    alice.call(
        {"command": "create", "path": f"/memories/{m['dir']}/inside.txt", "file_text": "inside"}
    )
    alice.call(
        {
            "command": "create",
            "path": "/memories/big.txt",
            "file_text": (m["big"] + "\n") * 600,  # spills onto overflow pages
        }
    )
    alice.call({"command": "create", "path": "/memories/edit.md", "file_text": "one\ntwo\n"})
    alice.call(
        {
            "command": "str_replace",
            "path": "/memories/edit.md",
            "old_str": "one",
            "new_str": m["new"],
        }
    )
    alice.call(
        {
            "command": "insert",
            "path": "/memories/edit.md",
            "insert_line": 1,
            "insert_text": m["inserted"],
        }
    )
    alice.call({"command": "create", "path": "/memories/old.txt", "file_text": "to be renamed"})
    alice.call(
        {"command": "rename", "old_path": "/memories/old.txt", "new_path": f"/memories/{m['to']}"}
    )
    alice.call(
        {
            "command": "rename",
            "old_path": f"/memories/{m['dir']}",
            "new_path": f"/memories/nested/{m['dir_to']}",
        }
    )
    someone = v.memory_tool(m["user"])
    someone.call({"command": "create", "path": "/memories/mine.txt", "file_text": m["user_text"]})
    # Reads exercise sorting and listing too; nothing they do may spill to disk.
    alice.call({"command": "view", "path": "/memories"})
    alice.call({"command": "view", "path": "/memories/big.txt"})
    return alice


_KINDS = ("content", "file", "dir", "big", "new", "inserted", "to", "dir_to", "user", "user_text")


@pytest.mark.sqlite_only("reads or changes the store's rows with SQLite")
def test_markers_are_nowhere_under_home_while_open_or_closed(home: Path) -> None:
    """No marker appears in any file under the home, with the WAL present or after close."""
    markers = {kind: _marker() for kind in _KINDS}
    with Vault.open(home) as v:
        alice = _workload(v, markers)
        # The markers did go in: alice can read them back.
        assert markers["new"] in alice.call({"command": "view", "path": "/memories/edit.md"})
        assert markers["to"] in alice.call({"command": "view", "path": "/memories"})
        assert (home / "vault.db-wal").exists()
        assert (home / "vault.db-wal").stat().st_size > 0
        assert _scan(home, list(markers.values())) == []
    assert _scan(home, list(markers.values())) == []


@pytest.mark.sqlite_only("works on the home directory's files")
def test_scan_finds_a_marker_written_in_plain_text(home: Path) -> None:
    """The scan itself finds a marker in any case and encoding (so a clean scan means something)."""
    marker = _marker()
    home.mkdir()
    for i, data in enumerate(
        [
            marker.encode(),
            marker.lower().encode("utf-16-le"),
            marker.upper().encode("utf-16-be"),
            b"x" + marker.removeprefix("MARKER-").upper().encode(),
        ]
    ):
        path = home / f"probe{i}"
        path.write_bytes(b"\0" * 100 + data + b"\0" * 100)
        assert _scan(home, [marker]) == [(f"probe{i}", marker)]
        path.unlink()


@pytest.mark.sqlite_only("works on the home directory's files")
def test_deleted_and_renamed_memories_leave_nothing_behind(home: Path) -> None:
    """After delete, rename and edits, neither the old text nor the old ciphertext stays on disk."""
    markers = {kind: _marker() for kind in ("gone", "gone_name", "gone_dir", "old_name", "old")}
    with Vault.open(home) as v:
        alice = v.memory_tool("alice")
        alice.call(
            {"command": "create", "path": "/memories/gone.txt", "file_text": markers["gone"] * 300}
        )
        alice.call(
            {"command": "create", "path": f"/memories/{markers['gone_name']}", "file_text": "x"}
        )
        alice.call(
            {
                "command": "create",
                "path": f"/memories/{markers['gone_dir']}/a/b.txt",
                "file_text": markers["gone"],
            }
        )
        alice.call(
            {"command": "create", "path": f"/memories/{markers['old_name']}", "file_text": "keep"}
        )
        alice.call({"command": "create", "path": "/memories/edit.txt", "file_text": markers["old"]})
    old_blobs = _sealed(home)
    with Vault.open(home) as v:
        alice = v.memory_tool("alice")
        alice.call({"command": "delete", "path": "/memories/gone.txt"})
        alice.call({"command": "delete", "path": f"/memories/{markers['gone_name']}"})
        alice.call({"command": "delete", "path": f"/memories/{markers['gone_dir']}"})
        alice.call(
            {
                "command": "rename",
                "old_path": f"/memories/{markers['old_name']}",
                "new_path": "/memories/renamed",
            }
        )
        alice.call(
            {"command": "str_replace", "path": "/memories/edit.txt", "old_str": "M", "new_str": "m"}
        )
        assert _scan(home, list(markers.values())) == []
    assert _scan(home, list(markers.values())) == []
    # Every ciphertext no row holds any more (all but the renamed file's unchanged content)
    # is overwritten: secure_delete zeroes freed space, and closing checkpoints the WAL.
    live = _sealed(home)
    gone = old_blobs - live
    assert len(gone) == len(old_blobs) - 1
    on_disk = b"".join(_files(home).values())
    for blob in gone:
        windows = [blob[i : i + 24] for i in range(5, len(blob) - 24, 512)]
        assert windows
        assert not any(w in on_disk for w in windows)


@pytest.mark.sqlite_only("reads or changes the store's rows with SQLite")
def test_home_holds_only_the_database_and_audit_files(home: Path) -> None:
    """While open and after close, the home holds vault.db and its -wal/-shm, and the
    audit log's segments, lock file and reserve under audit/, nothing else."""
    with Vault.open(home) as v:
        _workload(v, {kind: _marker() for kind in _KINDS})
        assert _unexpected(set(_files(home))) == set()
        assert "vault.db-wal" in _files(home)
        assert "audit/audit-000001.jsonl" in _files(home)
        assert [p.name for p in home.rglob("*") if p.is_dir()] == ["audit"]
    assert _unexpected(set(_files(home))) == set()
    assert "vault.db" in _files(home)


@pytest.mark.sqlite_only("reads or changes the store's rows with SQLite")
@pytest.mark.parametrize("umask", [0o022, 0o000])
def test_home_and_database_files_are_private(home: Path, umask: int) -> None:
    """The home is 0700 and vault.db (with -wal and -shm) 0600, whatever the umask."""
    with _umask(umask):
        with Vault.open(home) as v:
            _workload(v, {kind: _marker() for kind in _KINDS})
            assert _mode(home) == 0o700
            present = set(_files(home))
            assert {"vault.db", "vault.db-wal", "vault.db-shm"} <= present
            for name in present:
                assert _mode(home / name) == 0o600, name
            assert _mode(home / "audit") == 0o700
        assert _mode(home) == 0o700
        for name in _files(home):
            assert _mode(home / name) == 0o600, name
        key_file = _key_file(home)
        assert _mode(key_file) == 0o600
        assert _mode(key_file.parent) == 0o700


@pytest.mark.sqlite_only("works on the home directory's files")
def test_key_file_is_outside_home_private_and_32_bytes_of_base64(home: Path) -> None:
    """The key file is not under the home, is 0600 and holds one base64 line of 32 bytes."""
    Vault.open(home).close()
    key_file = _key_file(home)
    assert key_file.is_file()
    assert not key_file.resolve().is_relative_to(home.resolve())
    assert _mode(key_file) == 0o600
    text = key_file.read_text(encoding="ascii")
    assert text.endswith("\n")
    assert text.count("\n") == 1
    assert len(base64.b64decode(text.strip(), validate=True)) == 32
    # The key itself is nowhere under the home either.
    raw = base64.b64decode(text.strip())
    for data in _files(home).values():
        assert raw not in data
        assert text.strip().encode() not in data
    assert [name for name in os.listdir(key_file.parent) if name.startswith(".")] == []


@pytest.mark.sqlite_only("works on the home directory's files")
def test_copy_of_home_alone_cannot_be_opened(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A copy of the home without the key file raises MasterKeyError and decrypts nothing."""
    marker = _marker()
    with Vault.open(home) as v:
        v.memory_tool("alice").call(
            {"command": "create", "path": "/memories/secret.txt", "file_text": marker}
        )
    copy = tmp_path / "copied-home"
    shutil.copytree(home, copy)
    before = _files(copy)
    elsewhere = tmp_path / "elsewhere"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(elsewhere))
    with pytest.raises(MasterKeyError):
        Vault.open(copy)
    assert _files(copy) == before
    assert not elsewhere.exists() or list(elsewhere.rglob("*.key")) == []
    assert _scan(copy, [marker]) == []
    # With the key file back in reach, the same copy opens: the key was the only thing missing.
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    with Vault.open(copy) as v:
        shown = v.memory_tool("alice").call({"command": "view", "path": "/memories/secret.txt"})
    assert marker in shown
