"""What an erasure leaves on disk: nothing of the user's in the home's bytes, and nothing a
copy of the home taken before can be made to open with the key material left."""

from __future__ import annotations

import contextlib
import shutil
import sqlite3
from pathlib import Path

import pytest

from memvault import MasterKeyError, Vault

USER = "erin-to-be-erased"
OTHER = "bob"
TEXTS = {
    f"/memories/recipes/dish{i:02d}.md": f"erin's secret recipe number {i}\n" for i in range(30)
}
EDITED = "/memories/recipes/dish07.md"  # edited once: its first ciphertext was replaced


@pytest.fixture(autouse=True)
def _no_env_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MEMVAULT_MASTER_KEY", raising=False)
    monkeypatch.delenv("MEMVAULT_KEY_PROVIDER", raising=False)


@pytest.fixture
def key_file(tmp_path: Path) -> Path:
    return tmp_path / "keys" / "vault.key"


def _secrets_of(db_path: Path, user_id: int, *, keys: bool = True) -> list[bytes]:
    """Every stored byte string of the user's: each node's look-up token, identity, sealed
    metadata and text, and (``keys``) their look-up token, sealed id, wrapped data and
    audit keys."""
    with contextlib.closing(sqlite3.connect(db_path)) as db:
        rows = db.execute(
            "SELECT n.lookup, n.fid, n.meta, n.touched, c.blob FROM nodes AS n"
            " LEFT JOIN contents AS c ON c.node_id = n.id WHERE n.user_id = ?",
            (user_id,),
        ).fetchall()
        if keys:
            rows += db.execute("SELECT lookup, name FROM users WHERE id = ?", (user_id,))
            rows += db.execute("SELECT wrapped FROM data_keys WHERE user_id = ?", (user_id,))
            rows += db.execute("SELECT wrapped FROM audit_keys WHERE user_id = ?", (user_id,))
    return [value for row in rows for value in row if value is not None]


def _home_bytes(home: Path) -> dict[str, bytes]:
    """Every file of the home: the database, its WAL and shared memory, the audit log."""
    return {str(p.relative_to(home)): p.read_bytes() for p in home.rglob("*") if p.is_file()}


def _found(needles: list[bytes], files: dict[str, bytes]) -> list[tuple[str, bytes]]:
    return [(name, n[:8]) for n in needles for name, data in files.items() if n in data]


@pytest.mark.sqlite_only("reads or changes the store's rows with SQLite")
def test_erasure_leaves_no_byte_of_the_user_in_the_home(home: Path, key_file: Path) -> None:
    """After `users erase`, with the vault still open and after it is closed: the user's id,
    paths and texts, and every ciphertext and wrapped key they had (an edited memory's
    earlier text too) appear in no file of the home; the other user's are still there."""
    with Vault.open(home, master_key_file=key_file) as vault:
        erin, bob = vault.runner(USER), vault.runner(OTHER)
        for path, text in TEXTS.items():
            assert not erin.run({"command": "create", "path": path, "file_text": text}).is_error
            assert not bob.run({"command": "create", "path": path, "file_text": "b\n"}).is_error
        earlier = _secrets_of(home / "vault.db", 1)
        reply = erin.run(
            {"command": "str_replace", "path": EDITED, "old_str": "secret", "new_str": "family"}
        )
        assert not reply.is_error
        stored = _secrets_of(home / "vault.db", 1)
        bobs = _secrets_of(home / "vault.db", 2, keys=False)  # his keys are re-wrapped
        assert set(earlier) - set(stored), "the edit replaced no ciphertext"
        files = _home_bytes(home)
        assert len(_found(stored, files)) >= len(stored)  # the search finds what is there

        vault.erase_user(USER)
        plain = [USER, *TEXTS, *TEXTS.values(), "erin's family recipe number 7"]
        needles = [*earlier, *stored, *(s.encode() for s in plain)]
        for moment in ("open", "closed"):
            files = _home_bytes(home)
            assert "vault.db" in files
            assert _found(needles, files) == [], moment
            assert len(_found(bobs, files)) >= len(bobs)
            vault.close()


@pytest.mark.sqlite_only("works on the home directory's files")
def test_a_copy_from_before_an_erasure_opens_with_no_key_left(
    home: Path, key_file: Path, tmp_path: Path
) -> None:
    """A copy of the home taken before the erasure holds the user's data keys, wrapped
    under the master key of then. That key is gone: the key file left after the erasure
    does not open the copy; only a backup of the old key (kept aside here) would."""
    with Vault.open(home, master_key_file=key_file) as vault:
        runner = vault.runner(USER)
        for path, text in TEXTS.items():
            assert not runner.run({"command": "create", "path": path, "file_text": text}).is_error
    backup = tmp_path / "backup" / "vault.key"
    backup.parent.mkdir(mode=0o700)
    shutil.copy2(key_file, backup)
    shutil.copytree(home, tmp_path / "copy")

    with Vault.open(home, master_key_file=key_file) as vault:
        vault.erase_user(USER)
    assert sorted(p.name for p in key_file.parent.iterdir()) == ["vault.key"]
    assert key_file.read_bytes() != backup.read_bytes()

    with pytest.raises(MasterKeyError, match="does not open vault"):
        Vault.open(tmp_path / "copy", master_key_file=key_file)
    # The copy does hold the user: the old key, which the erasure retired, opens them.
    with Vault.open(tmp_path / "copy", master_key_file=backup) as old:
        assert old.user_ids() == [USER]
        reply = old.runner(USER).run({"command": "view", "path": EDITED})
        assert reply.content.endswith("\terin's secret recipe number 7\n     2\t")


@pytest.mark.sqlite_only("reads or changes the store's rows with SQLite")
def test_an_erasure_waits_for_the_log_and_says_when_a_reader_kept_it(
    home: Path, key_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The erasure empties the WAL before it returns, waiting for other connections; one
    that keeps an older snapshot open past the wait is reported (purged False, an operator
    warning), and the next checkpoint it allows removes the rows."""
    monkeypatch.setattr("memvault.lifecycle._erase.PURGE_WAIT_SECONDS", 0.2)
    with Vault.open(home, master_key_file=key_file) as vault:
        runner = vault.runner(USER)
        for path, text in TEXTS.items():
            assert not runner.run({"command": "create", "path": path, "file_text": text}).is_error
        stored = _secrets_of(home / "vault.db", 1)
        with contextlib.closing(sqlite3.connect(home / "vault.db")) as reader:
            reader.execute("BEGIN")
            reader.execute("SELECT count(*) FROM nodes").fetchone()  # holds its snapshot
            result = vault.erase_user(USER)
            assert result.purged is False
            reader.execute("COMMIT")
        assert vault._store.purge_wal(wait_seconds=1.0)  # the reader is gone
        assert _found(stored, _home_bytes(home)) == []


@pytest.mark.sqlite_only("reads or changes the store's rows with SQLite")
def test_an_erasure_empties_the_log_while_another_connection_reads_and_checkpoints(
    home: Path, key_file: Path
) -> None:
    """Another connection that keeps reading short snapshots and checkpointing (as another
    process, and the store's own checkpoint thread, do): SQLite refuses the erasure's
    checkpoint while one is under way, or a snapshot is older; the erasure waits and tries
    again, and returns with the log emptied."""
    import threading
    import time

    with Vault.open(home, master_key_file=key_file) as vault:
        runner = vault.runner(USER)
        for path, text in TEXTS.items():
            assert not runner.run({"command": "create", "path": path, "file_text": text}).is_error
        stored = _secrets_of(home / "vault.db", 1)
        stop = threading.Event()

        def read_and_checkpoint() -> None:
            with contextlib.closing(sqlite3.connect(home / "vault.db")) as other:
                other.isolation_level = None
                other.execute("PRAGMA busy_timeout = 0")
                while not stop.is_set():
                    with contextlib.suppress(sqlite3.Error):
                        other.execute("BEGIN")
                        other.execute("SELECT count(*) FROM nodes").fetchone()
                        time.sleep(0.005)
                        other.execute("COMMIT")
                        other.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()

        thread = threading.Thread(target=read_and_checkpoint)
        thread.start()
        try:
            result = vault.erase_user(USER)
        finally:
            stop.set()
            thread.join()
        assert result.purged
        assert _found(stored, _home_bytes(home)) == []
