"""Key rotation, master-key rotation and erasure, in process: what each leaves behind."""

from __future__ import annotations

import base64
import shutil
from pathlib import Path
from typing import Any

import pytest

from memvault import IntegrityError, MasterKeyError, Vault
from memvault import lifecycle as lc
from memvault.keys import ProviderOptions
from tests.support import stores

TEXTS = {f"/memories/d{i % 3}/n{i}.md": f"note {i}\n" * (i % 5 + 1) for i in range(40)}


@pytest.fixture(autouse=True)
def _no_env_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MEMVAULT_MASTER_KEY", raising=False)
    monkeypatch.delenv("MEMVAULT_KEY_PROVIDER", raising=False)


@pytest.fixture
def key_file(tmp_path: Path) -> Path:
    return tmp_path / "keys" / "vault.key"


@pytest.fixture
def home(home: Path, key_file: Path) -> Path:
    """The conftest's home (a directory, or a database in a ``[pg]`` run), filled."""
    with Vault.open(home, master_key_file=key_file) as vault:
        for user in ("alice", "bob"):
            runner = vault.runner(user)
            for path, text in TEXTS.items():
                assert not runner.run(
                    {"command": "create", "path": path, "file_text": text}
                ).is_error
    return home


def _read(vault: Vault, user: str, path: str) -> str:
    reply = vault.runner(user).run({"command": "view", "path": path})
    assert not reply.is_error, reply.content
    return "\n".join(line.split("\t", 1)[1] for line in reply.content.split("\n")[1:])


def _all_intact(vault: Vault, user: str) -> None:
    for path, text in TEXTS.items():
        assert _read(vault, user, path) == text


def _db_rows(home: Path, sql: str) -> list[Any]:
    return stores.execute(home, sql)


def test_rotation_reseals_everything_and_destroys_the_old_version(
    home: Path, key_file: Path
) -> None:
    before = dict(_db_rows(home, "SELECT id, meta FROM nodes"))
    with Vault.open(home, master_key_file=key_file) as vault:
        result = vault.rotate_user_key("alice")
        assert (result.retired, result.version, result.resumed) == ((1,), 2, False)
        assert result.memories == len(TEXTS) + 3  # the files and their three directories
        _all_intact(vault, "alice")
        _all_intact(vault, "bob")
        report = vault.key_report()
        assert vault.verify_store() == []
    alice = next(u for u in report["users"] if u["user"] == "alice")
    assert [v["version"] for v in alice["versions"]] == [2]
    assert alice["versions"][0]["memories"] == len(TEXTS) + 3
    after = dict(_db_rows(home, "SELECT id, meta FROM nodes"))
    changed = [i for i in before if before[i] != after[i]]
    assert len(changed) == len(TEXTS) + 3  # alice's rows, and only hers
    assert _db_rows(home, "SELECT user_id, version FROM data_keys ORDER BY user_id") == [
        (1, 2),
        (2, 1),
    ]


def test_agents_keep_working_between_batches(
    home: Path, key_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Between two batches: a file not yet re-sealed is read, edited, moved; a new one is
    made. The rotation then finishes, and nothing is left under the old key."""
    monkeypatch.setattr("memvault.lifecycle._rotate.BATCH_NODES", 5)
    with Vault.open(home, master_key_file=key_file) as vault:
        agent = vault.runner("alice")
        calls: list[int] = []

        def mid_rotation(items: int, nbytes: int) -> None:
            calls.append(items)
            if len(calls) == 1:
                edited, moved = "/memories/d2/n35.md", "/memories/d2/n38.md"  # re-sealed last
                assert _read(vault, "alice", edited) == TEXTS[edited]
                assert not agent.run(
                    {"command": "str_replace", "path": edited, "old_str": "note 35", "new_str": "x"}
                ).is_error
                assert not agent.run(
                    {"command": "rename", "old_path": moved, "new_path": "/memories/moved.md"}
                ).is_error
                assert not agent.run(
                    {"command": "create", "path": moved, "file_text": "new"}
                ).is_error

        vault.rotate_user_key("alice", mid_rotation)
        assert len(calls) > 3
        assert _read(vault, "alice", "/memories/moved.md") == TEXTS["/memories/d2/n38.md"]
        assert _read(vault, "alice", "/memories/d2/n38.md") == "new"
        assert _read(vault, "alice", "/memories/d2/n35.md") == "x\n"
        assert vault.verify_store() == []
    assert _db_rows(home, "SELECT count(*) FROM data_keys WHERE user_id = 1") == [(1,)]


def test_a_directory_written_through_before_its_batch_is_found_after_the_rotation(
    home: Path, key_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file edited in a directory no batch has re-sealed yet: the directory's tally is
    sealed under the new key, and its look-up token made under it too, so the directory
    and what is in it are found once the old key is gone."""
    monkeypatch.setattr("memvault.lifecycle._rotate.BATCH_NODES", 1)  # /memories/d0 first
    edited = "/memories/d2/n35.md"
    with Vault.open(home, master_key_file=key_file) as vault:
        agent = vault.runner("alice")
        calls: list[int] = []

        def after_the_first_batch(items: int, nbytes: int) -> None:
            calls.append(items)
            if len(calls) == 1:
                assert not agent.run(
                    {"command": "str_replace", "path": edited, "old_str": "note 35", "new_str": "x"}
                ).is_error

        vault.rotate_user_key("alice", after_the_first_batch)
        assert _read(vault, "alice", edited) == "x\n"
    with Vault.open(home, master_key_file=key_file) as vault:
        for path, text in TEXTS.items():
            assert _read(vault, "alice", path) == ("x\n" if path == edited else text)
        assert vault.verify_store() == []


def test_an_interrupted_rotation_is_finished_by_a_re_run(home: Path, key_file: Path) -> None:
    with Vault.open(home, master_key_file=key_file) as vault:
        parts = vault._parts()
        user_id, token = lc.find_user(parts, "alice")
        lc.start(parts, user_id, token)  # then the process dies
    with Vault.open(home, master_key_file=key_file) as vault:
        _all_intact(vault, "alice")  # two versions: both open
        result = vault.rotate_user_key("alice")
        assert (result.retired, result.version, result.resumed) == ((1,), 2, True)
        _all_intact(vault, "alice")


@pytest.mark.sqlite_only("copies the home directory")
def test_master_rotation_replaces_the_key_file_and_locks_out_old_copies(
    home: Path, key_file: Path, tmp_path: Path
) -> None:
    old_key = key_file.read_bytes()
    shutil.copytree(home, tmp_path / "copy")
    with Vault.open(home, master_key_file=key_file) as vault:
        result = vault.rotate_master_key()
        assert (result.from_generation, result.to_generation, result.users) == (1, 2, 2)
        _all_intact(vault, "bob")
    assert key_file.read_bytes() != old_key
    assert sorted(p.name for p in key_file.parent.iterdir()) == ["vault.key"]
    with pytest.raises(MasterKeyError, match="does not open vault"):
        Vault.open(tmp_path / "copy", master_key_file=key_file)
    with Vault.open(home, master_key_file=key_file) as vault:
        _all_intact(vault, "alice")
        assert vault.key_report()["master"]["generation"] == 2
        assert vault.verify_store() == []


def test_a_rotation_interrupted_before_its_commit_is_finished_by_a_re_run(
    home: Path, key_file: Path
) -> None:
    with Vault.open(home, master_key_file=key_file) as vault:
        lc.begin(vault._parts(), vault._new_provider(None))  # then the process dies
    assert key_file.with_name("vault.key.next").exists()
    with Vault.open(home, master_key_file=key_file) as vault:
        _all_intact(vault, "alice")
        vault.runner("carol").run({"command": "create", "path": "/memories/c.md", "file_text": "c"})
        rotation = vault.key_report()["master"]["rotation"]
        assert rotation is not None and rotation["to_generation"] == 2
        result = vault.rotate_master_key()
        # carol was created under the next key: two users had anything to re-wrap.
        assert result.resumed and result.users == 2
    with Vault.open(home, master_key_file=key_file) as vault:
        assert _read(vault, "carol", "/memories/c.md") == "c"
        assert vault.key_report()["master"]["rotation"] is None
    assert not key_file.with_name("vault.key.next").exists()


def test_a_rotation_committed_but_not_settled_is_settled_by_the_next_open(
    home: Path, key_file: Path
) -> None:
    with Vault.open(home, master_key_file=key_file) as vault:
        parts = vault._parts()
        record, _ = lc.begin(parts, vault._new_provider(None))
        lc.rewrap_all(parts)
        lc.commit(parts, record, users=2, resumed=False, reason="rotate")
    # The key file still holds the old key; the new one waits beside it.
    assert key_file.with_name("vault.key.next").exists()
    with Vault.open(home, master_key_file=key_file) as vault:
        _all_intact(vault, "alice")
    assert not key_file.with_name("vault.key.next").exists()


def test_a_move_to_another_key_file_cut_short_is_finished_by_the_next_open(
    home: Path, key_file: Path, tmp_path: Path
) -> None:
    """Committed to a key waiting in ``<new file>.next``: the open that finds it moves it
    into place (the new file did not exist yet) and removes the old key file."""
    moved = tmp_path / "elsewhere" / "moved.key"
    with Vault.open(home, master_key_file=key_file) as vault:
        parts = vault._parts()
        record, _ = lc.begin(parts, vault._new_provider(ProviderOptions(key_file=moved)))
        lc.rewrap_all(parts)
        lc.commit(parts, record, users=2, resumed=False, reason="rotate")
    assert (key_file.exists(), moved.exists(), moved.with_name("moved.key.next").exists()) == (
        True,
        False,
        True,
    )
    with Vault.open(home, master_key_file=moved) as vault:
        _all_intact(vault, "alice")
    assert (key_file.exists(), moved.exists(), moved.with_name("moved.key.next").exists()) == (
        False,
        True,
        False,
    )
    with Vault.open(home, master_key_file=moved) as vault:
        _all_intact(vault, "bob")


def test_a_move_from_a_key_file_to_the_environment_cut_short_removes_the_file_at_open(
    home: Path, key_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The old key file is removed by the open after the commit; a file at that path
    holding some other key is left alone."""
    new_key = base64.b64encode(bytes(range(32))).decode()
    monkeypatch.setenv("MEMVAULT_NEW_MASTER_KEY", new_key)
    with Vault.open(home, master_key_file=key_file) as vault:
        parts = vault._parts()
        record, _ = lc.begin(parts, vault._new_provider(ProviderOptions(kind="env")))
        lc.rewrap_all(parts)
        lc.commit(parts, record, users=2, resumed=False, reason="rotate")
    assert key_file.exists()
    monkeypatch.setenv("MEMVAULT_MASTER_KEY", new_key)
    with Vault.open(home) as vault:
        _all_intact(vault, "alice")
    assert not key_file.exists()
    key_file.write_text(base64.b64encode(bytes(32)).decode() + "\n")
    key_file.chmod(0o600)
    with Vault.open(home) as vault:
        _all_intact(vault, "bob")
    assert key_file.exists()


def test_a_process_open_during_rotations_follows_them(home: Path, key_file: Path) -> None:
    agent = Vault.open(home, master_key_file=key_file)
    operator = Vault.open(home, master_key_file=key_file)
    try:
        runner = agent.runner("alice")
        operator.rotate_master_key()
        operator.rotate_user_key("alice")
        assert _read(agent, "alice", "/memories/d0/n0.md") == TEXTS["/memories/d0/n0.md"]
        assert not runner.run(
            {"command": "create", "path": "/memories/x.md", "file_text": "x"}
        ).is_error
        operator.rotate_master_key()
        # A user created by the agent after the rotation is wrapped under the new key.
        assert (
            not agent.runner("dave")
            .run({"command": "create", "path": "/memories/d.md", "file_text": "d"})
            .is_error
        )
    finally:
        agent.close()
        operator.close()
    with Vault.open(home, master_key_file=key_file) as vault:
        assert _read(vault, "dave", "/memories/d.md") == "d"
        assert vault.verify_store() == []


@pytest.mark.sqlite_only("copies the home directory")
def test_erasure_leaves_nothing_of_the_user_in_the_vault_or_an_older_copy(
    home: Path, key_file: Path, tmp_path: Path
) -> None:
    shutil.copytree(home, tmp_path / "copy")
    with Vault.open(home, master_key_file=key_file) as vault:
        pseudonym = vault.audit.keys.user("alice")
        result = vault.erase_user("alice")
        assert (result.pseudonym, result.memories) == (pseudonym, len(TEXTS) + 3)
        assert result.rotation.reason == "erase"
        assert vault.user_ids() == ["bob"]
        assert pseudonym not in vault.audit_users()
        _all_intact(vault, "bob")
        assert vault.verify_store() == []
        # The id can be used again: a new, empty namespace.
        reply = vault.runner("alice").run({"command": "view", "path": "/memories/d0/n0.md"})
        assert reply.is_error
    with pytest.raises(MasterKeyError):
        Vault.open(tmp_path / "copy", master_key_file=key_file)


def test_erasing_an_unknown_user_is_refused_and_changes_nothing(home: Path, key_file: Path) -> None:
    before = stores.snapshot(home)
    with Vault.open(home, master_key_file=key_file) as vault:
        with pytest.raises(Exception, match="there is no such user in this vault"):
            vault.erase_user("nobody")
        assert vault.key_report()["master"]["generation"] == 1
    assert key_file.exists() and not key_file.with_name("vault.key.next").exists()
    del before


def test_a_vault_refuses_another_kind_of_provider(home: Path, key_file: Path) -> None:
    with pytest.raises(MasterKeyError, match="kept by the file provider, not passphrase"):
        Vault.open(home, master_key_file=key_file, key_provider="passphrase")


def test_an_edited_master_record_fails_the_key_check(home: Path, key_file: Path) -> None:
    ((raw,),) = stores.execute(home, "SELECT value FROM meta WHERE key = 'master'")
    stores.execute(
        home,
        "UPDATE meta SET value = ? WHERE key = 'master'",
        (bytes(raw).replace(b'"created":"', b'"created":"1'),),
    )
    with pytest.raises((IntegrityError, MasterKeyError)):
        Vault.open(home, master_key_file=key_file)
