"""`Vault.import_memories`: a reference backend's plaintext directory, brought in as
``create`` commands. Every file meets the guard, the limits and the filter, and
leaves a ``create`` record; what cannot be imported safely is refused with a
line saying why; the source is never changed and never followed out of."""

from __future__ import annotations

import errno
import json
import os
import stat
import threading
import unicodedata
from pathlib import Path
from typing import Any

import pytest

import memvault._fs
from memvault import StorageError, UsageError, Vault
from memvault.lifecycle import ImportReport
from tests.support import stores

AWS_KEY = "AKIAQ3EGRT5XJ7KLMN2P"
CARD = "4111 1111 1111 1111"
EMAIL = "jane.doe@fastmail.com"
SECRETS = f"aws {AWS_KEY}\ncard {CARD}\nmail {EMAIL}\n"


def write(root: Path, relative: str, data: str | bytes) -> Path:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    path.write_bytes(data)
    return path


def source_tree(tmp_path: Path) -> Path:
    """A base directory as the reference backend leaves it: nested notes, one of them
    full of secrets, an empty one, and a name in another script."""
    base = tmp_path / "old"
    memories = base / "memories"
    write(memories, "notes/2025/january.md", "Prefers short answers.\n")
    write(memories, "notes/todo.md", "- call back\n- send the quote\n")
    write(memories, "tickets/4711.md", SECRETS)
    write(memories, "empty.md", "")
    write(memories, "日本語/メモ.md", "こんにちは\n")
    return base


def records(home: Path) -> list[dict[str, Any]]:
    return stores.records(home)


def stored_text(vault: Vault, user: str, path: str) -> str:
    """A memory's text, read back through the runner as the model reads it."""
    reply = vault.runner(user).run({"command": "view", "path": path})
    assert not reply.is_error, reply.content
    lines = reply.content.split("\n")[1:]
    return "\n".join(line.split("\t", 1)[1] for line in lines)


def snapshot(root: Path) -> dict[str, tuple[int, int, bytes | None]]:
    """(mode, mtime, bytes of regular files) of everything below root, links unfollowed."""
    seen: dict[str, tuple[int, int, bytes | None]] = {}
    for directory, dirs, files in os.walk(root, followlinks=False):
        for name in dirs + files:
            path = Path(directory) / name
            st = path.lstat()
            data = path.read_bytes() if stat.S_ISREG(st.st_mode) else None
            seen[str(path.relative_to(root))] = (st.st_mode, st.st_mtime_ns, data)
    return seen


def counts(home: Path) -> tuple[int, int, int]:
    with stores.connect(home) as db:
        return (
            db.execute("SELECT count(*) FROM users").fetchone()[0],
            db.execute("SELECT count(*) FROM nodes").fetchone()[0],
            db.execute("SELECT count(*) FROM contents").fetchone()[0],
        )


def by_path(report: ImportReport) -> dict[str, tuple[str, str | None]]:
    return {f.path: (f.status, f.reason) for f in report.files}


def test_a_nested_tree_is_imported_file_by_file(vault: Vault, tmp_path: Path) -> None:
    """Every file becomes the memory at the same path, its text as create stores it."""
    base = source_tree(tmp_path)
    report = vault.import_memories(base, "alice")
    assert (report.layout, report.source, report.dry_run) == ("base", base / "memories", False)
    assert [(f.path, f.status) for f in report.files] == [
        ("/memories/empty.md", "imported"),
        ("/memories/notes/2025/january.md", "imported"),
        ("/memories/notes/todo.md", "imported"),
        ("/memories/tickets/4711.md", "imported"),
        ("/memories/日本語/メモ.md", "imported"),
    ]
    assert (report.imported, report.refused, report.redacted) == (5, 0, 1)
    todo = stored_text(vault, "alice", "/memories/notes/todo.md")
    assert todo == "- call back\n- send the quote\n"
    assert stored_text(vault, "alice", "/memories/日本語/メモ.md") == "こんにちは\n"
    assert stored_text(vault, "alice", "/memories/empty.md") == ""


def test_the_memories_directory_itself_is_accepted_too(vault: Vault, tmp_path: Path) -> None:
    base = source_tree(tmp_path)
    report = vault.import_memories(base / "memories", "alice")
    assert (report.layout, report.imported) == ("memories", 5)


def test_secrets_are_redacted_as_create_redacts_them(vault: Vault, tmp_path: Path) -> None:
    """The stored text is what a create of the same text stores; the result names the
    kinds and counts, never the values."""
    base = source_tree(tmp_path)
    report = vault.import_memories(base, "alice")
    (ticket,) = [f for f in report.files if f.path == "/memories/tickets/4711.md"]
    assert ticket.findings == {"api_key": 1, "card_number": 1, "email": 1}
    assert ticket.note == "1 api key and 1 email were redacted, and 1 card number was masked"
    assert report.findings() == {"api_key": 1, "card_number": 1, "email": 1}
    imported = stored_text(vault, "alice", "/memories/tickets/4711.md")
    assert AWS_KEY not in imported and "4111 1111" not in imported and EMAIL not in imported
    bob = vault.runner("bob")
    bob.run({"command": "create", "path": "/memories/t.md", "file_text": SECRETS})
    assert imported == stored_text(vault, "bob", "/memories/t.md")
    assert AWS_KEY not in json.dumps(report.to_json())


def test_each_memory_has_its_create_record_and_the_import_one_record(
    vault: Vault, home: Path, tmp_path: Path
) -> None:
    """One ordinary create record per memory, in the import's session, then one
    users.import record with the counts (and nothing of names or texts)."""
    before = len(records(home))
    report = vault.import_memories(source_tree(tmp_path), "alice")
    new = records(home)[before:]
    assert [r["command"] for r in new] == ["user.create"] + ["create"] * 5 + ["users.import"]
    creates = [r for r in new if r["command"] == "create"]
    assert all(r["outcome"] == "ok" and r["session"] == report.session for r in creates)
    assert report.session is not None and report.session.startswith("import-")
    assert [r["findings"] for r in creates if r["findings"]] == [
        {"api_key": 1, "card_number": 1, "email": 1}
    ]
    last = new[-1]
    assert last["user"] == creates[0]["user"] and last["session"] == report.session
    assert last["details"] == {
        "dry_run": False,
        "layout": "base",
        "imported": 5,
        "refused": 0,
        "redacted": 1,
    }
    raw = b"\n".join(stores.log_lines(home))
    # "4711" alone turns up in hex digests now and then, by chance: the path's
    # own spelling cannot.
    assert b"4711.md" not in raw and AWS_KEY.encode() not in raw and b"alice" not in raw


def test_hostile_names_are_refused_with_the_guards_reason(vault: Vault, tmp_path: Path) -> None:
    memories = tmp_path / "memories"
    write(memories, "bell\x07.md", "x")
    write(memories, "a\u2215b.md", "look-alike of a slash")
    write(memories, "esc\x1bdir/inside.md", "never read")
    write(memories, f"{EMAIL}.md", "a name with an e-mail address")
    deep = "/".join(["d" * 200] * 5)  # each name fits; the path is over 1,024 bytes
    write(memories, f"{deep}/{'f' * 20}.md", "x")
    write(memories, "\u0958" * 85, "255 bytes on disk, 510 in NFC")
    (memories / os.fsdecode(b"caf\xe9.md")).write_text("a name that is not UTF-8")
    write(memories, ".hidden", "x")
    write(memories, ".git/config", "x")
    write(memories, "fine.md", "fine")
    report = vault.import_memories(memories, "alice")
    results = {f.path: f for f in report.files}
    assert results["/memories/bell\\x07.md"].reason == "path"
    assert "control or invisible character U+0007" in str(results["/memories/bell\\x07.md"].message)
    assert "look-alike of '.' or '/'" in str(results["/memories/a\u2215b.md"].message)
    # A directory the guard refuses is one line; nothing below it is read.
    assert results["/memories/esc\\x1bdir"].reason == "path"
    assert not any(p.startswith("/memories/esc\\x1bdir/") for p in results)
    assert results["/memories/[REDACTED:email].md"].reason == "path_content"
    assert EMAIL not in json.dumps(report.to_json())
    (far,) = [f for f in report.files if f.path.endswith("f.md")]
    assert far.reason == "path" and "the limit is 1024" in str(far.message)
    (long,) = [f for f in report.files if "\u0958" in f.path]
    assert "a name in it is 510 bytes long; the limit is 255" in str(long.message)
    latin1 = results["/memories/caf\\udce9.md"]
    assert latin1.reason == "path" and "U+DCE9" in str(latin1.message)
    assert results["/memories/.hidden"].reason == results["/memories/.git"].reason == "hidden"
    assert results["/memories/fine.md"].status == "imported"
    assert (report.imported, report.refused) == (1, 9)
    json.dumps(report.to_json(), ensure_ascii=False).encode()  # every path shown is UTF-8


def test_a_tree_deeper_than_the_guard_allows_is_not_walked_past_the_limit(
    vault: Vault, tmp_path: Path
) -> None:
    memories = tmp_path / "memories"
    write(memories, "/".join(["d"] * 40) + "/deep.md", "x")
    report = vault.import_memories(memories, "alice")
    (only,) = report.files
    assert only.path == "/memories/" + "/".join(["d"] * 32)
    assert (only.reason, only.status) == ("limit", "refused")


def test_symbolic_links_are_never_followed(vault: Vault, tmp_path: Path) -> None:
    """Links to files and directories, inside the tree or out of it, are refused; what
    they point to outside is never read."""
    outside = write(tmp_path / "elsewhere", "secret.md", "outside the source")
    memories = tmp_path / "memories"
    write(memories, "real/note.md", "inside")
    (memories / "to-file-inside.md").symlink_to(memories / "real" / "note.md")
    (memories / "to-dir-inside").symlink_to(memories / "real")
    (memories / "to-file-outside.md").symlink_to(outside)
    (memories / "to-dir-outside").symlink_to(outside.parent)
    (memories / "dangling.md").symlink_to(tmp_path / "nothing")
    report = vault.import_memories(memories, "alice")
    assert by_path(report) == {
        "/memories/dangling.md": ("refused", "symlink"),
        "/memories/real/note.md": ("imported", None),
        "/memories/to-dir-inside": ("refused", "symlink"),
        "/memories/to-dir-outside": ("refused", "symlink"),
        "/memories/to-file-inside.md": ("refused", "symlink"),
        "/memories/to-file-outside.md": ("refused", "symlink"),
    }
    listing = vault.runner("alice").run({"command": "view", "path": "/memories"}).content
    assert "secret" not in listing and "to-" not in listing


def test_a_symlinked_source_is_refused(vault: Vault, tmp_path: Path) -> None:
    base = source_tree(tmp_path)
    (tmp_path / "link").symlink_to(base)
    with pytest.raises(UsageError, match="is a symbolic link; import follows none"):
        vault.import_memories(tmp_path / "link", "alice")
    other = tmp_path / "other"
    other.mkdir()
    (other / "memories").symlink_to(base / "memories")
    with pytest.raises(UsageError, match="memories is a symbolic link"):
        vault.import_memories(other, "alice")


def test_a_directory_that_is_no_memory_directory_is_refused(vault: Vault, tmp_path: Path) -> None:
    write(tmp_path / "notes", "a.md", "x")
    with pytest.raises(UsageError, match="holds no memories/ directory, and is not one"):
        vault.import_memories(tmp_path / "notes", "alice")
    with pytest.raises(UsageError, match=r"cannot open .*: no such file or directory"):
        vault.import_memories(tmp_path / "missing", "alice")


def test_a_fifo_is_refused_without_waiting_on_it(vault: Vault, tmp_path: Path) -> None:
    """Opening a FIFO to read it would wait for a writer forever: it is never opened."""
    memories = tmp_path / "memories"
    write(memories, "a.md", "x")
    os.mkfifo(memories / "pipe")
    done: list[ImportReport] = []
    worker = threading.Thread(
        target=lambda: done.append(vault.import_memories(memories, "alice")), daemon=True
    )
    worker.start()
    worker.join(timeout=20)
    assert not worker.is_alive(), "the import waited on a FIFO"
    assert by_path(done[0])["/memories/pipe"] == ("refused", "special")
    assert done[0].files[1].message == "a FIFO: only regular files are read"


def test_a_fifo_swapped_in_after_it_was_looked_at_is_refused_unread(
    vault: Vault, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Between the lstat and the open a file can become a FIFO: the open does not block
    (O_NONBLOCK) and fstat refuses it before a byte is read."""
    memories = tmp_path / "memories"
    write(memories, "regular.md", "x")
    os.mkfifo(memories / "pipe")
    real_stat = os.stat
    regular = real_stat(memories / "regular.md")

    def stale_stat(path: Any, *args: Any, **kwargs: Any) -> os.stat_result:
        return regular if path == "pipe" else real_stat(path, *args, **kwargs)

    monkeypatch.setattr(os, "stat", stale_stat)
    done: list[ImportReport] = []
    worker = threading.Thread(
        target=lambda: done.append(vault.import_memories(memories, "alice")), daemon=True
    )
    worker.start()
    worker.join(timeout=20)
    assert not worker.is_alive(), "the import waited on a FIFO"
    assert by_path(done[0])["/memories/pipe"] == ("refused", "special")


def test_text_that_is_not_utf8_is_refused(vault: Vault, tmp_path: Path) -> None:
    memories = tmp_path / "memories"
    write(memories, "latin1.md", "café au lait\n".encode("latin-1"))
    write(memories, "utf16.md", "note".encode("utf-16"))
    report = vault.import_memories(memories, "alice")
    results = {f.path: f for f in report.files}
    assert results["/memories/latin1.md"].message == (
        "not UTF-8 text: byte 0xe9 at offset 3 does not decode; convert it to UTF-8 to import it"
    )
    assert results["/memories/utf16.md"].reason == "not_utf8"
    assert report.imported == 0


def test_an_oversized_file_is_refused_before_it_is_read(vault: Vault, tmp_path: Path) -> None:
    """A sparse file of 64 GiB: read whole it would never finish; it is refused by its size."""
    memories = tmp_path / "memories"
    huge = write(memories, "huge.md", b"")
    os.truncate(huge, 64 << 30)
    write(memories, "just-over.md", "a" * (vault._handlers.max_file_bytes + 1))
    report = vault.import_memories(memories, "alice")
    assert [(f.path, f.reason, f.size) for f in report.files] == [
        ("/memories/huge.md", "too_large", 64 << 30),
        ("/memories/just-over.md", "too_large", 1_048_577),
    ]
    assert report.files[1].message == (
        "1,048,577 bytes, over the limit of 1,048,576 bytes a memory may hold; split it to "
        "import it"
    )


def test_a_blocked_kind_refuses_the_file(vault: Vault, tmp_path: Path) -> None:
    """The default policy blocks private keys: the file is refused, as its create is."""
    key = (
        "-----BEGIN OPENSSH PRIVATE KEY-----\n"
        "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n"
        "QyNTUxOQAAACDxEYiMKuS1F8zTrjGXq8VvK5J5ZgC9VdHr3Z2v0s3n0wAAAJgXl0kXF5dJ\n"
        "-----END OPENSSH PRIVATE KEY-----\n"
    )
    memories = tmp_path / "memories"
    write(memories, "id_ed25519.md", key)
    report = vault.import_memories(memories, "alice")
    assert by_path(report) == {"/memories/id_ed25519.md": ("refused", "blocked")}
    assert "b3BlbnNzaC1rZXkt" not in json.dumps(report.to_json())


def test_an_existing_memory_is_never_overwritten(vault: Vault, tmp_path: Path) -> None:
    runner = vault.runner("alice")
    runner.run({"command": "create", "path": "/memories/notes/todo.md", "file_text": "mine\n"})
    runner.run({"command": "create", "path": "/memories/tickets", "file_text": "a file\n"})
    report = vault.import_memories(source_tree(tmp_path), "alice")
    assert by_path(report)["/memories/notes/todo.md"] == ("refused", "exists")
    assert by_path(report)["/memories/tickets/4711.md"] == ("refused", "not_a_directory")
    assert stored_text(vault, "alice", "/memories/notes/todo.md") == "mine\n"
    assert (report.imported, report.refused) == (3, 2)


def test_names_equal_in_nfc_are_one_path(vault: Vault, tmp_path: Path) -> None:
    """Two files whose names differ only in their Unicode form are one memory: the
    second is refused, in a dry run as in the import."""
    memories = tmp_path / "memories"
    write(memories, unicodedata.normalize("NFC", "café.md"), "composed")
    write(memories, unicodedata.normalize("NFD", "café.md"), "decomposed")
    dry = vault.import_memories(memories, "alice", dry_run=True)
    real = vault.import_memories(memories, "alice")
    for report in (dry, real):
        assert [f.reason for f in report.files] == [None, "exists"]


def test_the_source_is_left_exactly_as_it_was(vault: Vault, tmp_path: Path) -> None:
    base = source_tree(tmp_path)
    memories = base / "memories"
    write(memories, "latin1.md", b"caf\xe9")
    write(memories, ".hidden", "x")
    os.mkfifo(memories / "pipe")
    (memories / "link.md").symlink_to(memories / "empty.md")
    before = snapshot(base)
    vault.import_memories(base, "alice", dry_run=True)
    vault.import_memories(base, "alice")
    assert snapshot(base) == before


def test_a_dry_run_stores_nothing_and_records_only_itself(
    vault: Vault, home: Path, tmp_path: Path
) -> None:
    """The same checks, the same results; no user, memory or create record is made, and
    one users.import record (dry_run) says the user's memories were looked into."""
    base = source_tree(tmp_path)
    write(base / "memories", "bell\x07.md", "x")
    write(base / "memories", "latin1.md", b"caf\xe9")
    lines, rows = len(records(home)), counts(home)
    dry = vault.import_memories(base, "alice", dry_run=True)
    assert counts(home) == rows
    new = records(home)[lines:]
    assert [(r["command"], r["session"], r["details"]["dry_run"]) for r in new] == [
        ("users.import", None, True)
    ]
    assert dry.session is None
    real = vault.import_memories(base, "alice")
    assert [(f.path, f.reason, f.findings, f.note) for f in dry.files] == [
        (f.path, f.reason, f.findings, f.note) for f in real.files
    ]
    assert {f.status for f in dry.files} == {"would_import", "refused"}
    assert {f.status for f in real.files} == {"imported", "refused"}


def test_a_dry_run_sees_what_the_vault_already_holds(vault: Vault, tmp_path: Path) -> None:
    runner = vault.runner("alice")
    runner.run({"command": "create", "path": "/memories/notes/todo.md", "file_text": "x"})
    dry = vault.import_memories(source_tree(tmp_path), "alice", dry_run=True)
    assert by_path(dry)["/memories/notes/todo.md"] == ("refused", "exists")


def test_the_users_limits_refuse_what_does_not_fit_dry_run_and_real_alike(
    home: Path, tmp_path: Path
) -> None:
    """A policy allowing 3 files: with one already held, an import of 3 stores the first 2
    (in walk order) and refuses the third as a create would; the dry run says the same."""
    policy = tmp_path / "small.toml"
    policy.write_text("version = 1\n[limits]\nmax_memories = 3\n")
    memories = tmp_path / "memories"
    for name in ("a.md", "b.md", "c.md"):
        write(memories, name, "x" * 10)
    with Vault.open(home, policy=policy) as vault:
        vault.runner("alice").run({"command": "create", "path": "/memories/z", "file_text": ""})
        dry = vault.import_memories(memories, "alice", dry_run=True)
        real = vault.import_memories(memories, "alice")
    for report in (dry, real):
        assert [(f.path, f.reason) for f in report.files] == [
            ("/memories/a.md", None),
            ("/memories/b.md", None),
            ("/memories/c.md", "quota_files"),
        ]
    assert (
        real.files[2].message
        == dry.files[2].message
        == (
            "Cannot create /memories/c.md: /memories holds 3 files and may hold at most 3. "
            "Delete files that are no longer needed, or add this to an existing file."
        )
    )


def test_new_directories_past_the_limit_are_refused_dry_run_and_real_alike(
    home: Path, tmp_path: Path
) -> None:
    """Two directories allowed, one already held: of three files in new directories (two
    in the same one), the third's directory is refused, in the dry run as for real."""
    policy = tmp_path / "dirs.toml"
    policy.write_text("version = 1\n[limits]\nmax_directories = 2\n")
    memories = tmp_path / "memories"
    for name in ("a/1.md", "a/2.md", "b/3.md"):
        write(memories, name, "x")
    with Vault.open(home, policy=policy) as vault:
        vault.runner("alice").run({"command": "create", "path": "/memories/z/f", "file_text": ""})
        dry = vault.import_memories(memories, "alice", dry_run=True)
        real = vault.import_memories(memories, "alice")
    for report in (dry, real):
        assert [(f.path, f.reason) for f in report.files] == [
            ("/memories/a/1.md", None),
            ("/memories/a/2.md", None),
            ("/memories/b/3.md", "quota_directories"),
        ]


def test_nothing_to_import_creates_no_user(vault: Vault, home: Path, tmp_path: Path) -> None:
    memories = tmp_path / "memories"
    write(memories, ".only-hidden", "x")
    rows = counts(home)
    report = vault.import_memories(memories, "alice")
    assert (report.imported, report.refused, counts(home)) == (0, 1, rows)


@pytest.mark.sqlite_only("works on the home directory's files")
def test_a_failing_vault_stops_the_import(
    vault: Vault, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A record that cannot be written refuses its command: the import stops there and
    says so, instead of refusing every file for a reason that is not theirs."""
    base = source_tree(tmp_path)
    vault.runner("alice")

    def failing(fd: int, data: bytes) -> None:
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr(memvault._fs, "write_all", failing)
    stopped = r"the import stopped at /memories/empty.md: .*\(audit\)"
    with pytest.raises(StorageError, match=stopped):
        vault.import_memories(base, "alice")
