"""A key file's last step of a master-key rotation, taken by two processes at once.

After a rotation commits, the new key waits in ``<file>.next`` until the rotating
process (or the next open, if it died) moves it over the key file. An open in another
process may take that step at the same moment as the rotating process. The
interleavings are made here in one process, with two vaults, at the exact points
where the other process could act.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from memvault import Vault
from memvault import lifecycle as lc
from memvault.keys import KeyFile

TEXT = "a note that must outlive every rotation\n"


@pytest.fixture(autouse=True)
def _no_env_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MEMVAULT_MASTER_KEY", raising=False)
    monkeypatch.delenv("MEMVAULT_KEY_PROVIDER", raising=False)


@pytest.fixture
def key_file(tmp_path: Path, home: Path) -> Path:
    key_file = tmp_path / "keys" / "vault.key"
    with Vault.open(home, master_key_file=key_file) as vault:
        reply = vault.runner("alice").run(
            {"command": "create", "path": "/memories/a.md", "file_text": TEXT}
        )
        assert not reply.is_error
    return key_file


def _committed_not_settled(vault: Vault) -> lc.Parts:
    """A master-key rotation run up to its commit: the new key still in ``<file>.next``."""
    parts = vault._parts()
    record, _ = lc.begin(parts, vault._new_provider(None))
    users = lc.rewrap_all(parts)
    lc.commit(parts, record, users=users, resumed=False, reason="rotate")
    return parts


def _reads_back(vault: Vault) -> None:
    reply = vault.runner("alice").run({"command": "view", "path": "/memories/a.md"})
    assert not reply.is_error, reply.content
    assert reply.content.endswith(f"\t{TEXT.rstrip()}\n     2\t")


def test_an_open_settling_beside_the_rotating_process_does_not_fail(
    home: Path, key_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rotating process moves ``<file>.next`` over the key file between the moment an
    open saw it there and the moment the open moves it itself: the open finds the job
    done (settling is idempotent) instead of failing on the missing file."""
    rotator = Vault.open(home, master_key_file=key_file)
    try:
        _committed_not_settled(rotator)
        real_replace = os.replace

        def replace(src: Any, dst: Any, *args: Any, **kwargs: Any) -> None:
            monkeypatch.setattr(os, "replace", real_replace)
            KeyFile(key_file).settle(rotator.vault_id)  # the rotating process
            real_replace(src, dst, *args, **kwargs)

        monkeypatch.setattr(os, "replace", replace)
        with Vault.open(home, master_key_file=key_file) as vault:
            _reads_back(vault)
    finally:
        rotator.close()
    assert sorted(p.name for p in key_file.parent.iterdir()) == ["vault.key"]
    with Vault.open(home, master_key_file=key_file) as vault:
        _reads_back(vault)


def test_an_open_settling_late_never_moves_the_next_rotations_key(
    home: Path, key_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An open reads the key file (old key) and ``<file>.next`` (the committed key); before
    it settles, the rotating process settles and begins another rotation, writing a new
    ``<file>.next``, then dies before that rotation commits. The vault still opens with
    its key file, and every memory reads back."""
    rotator = Vault.open(home, master_key_file=key_file)
    try:
        parts = _committed_not_settled(rotator)
        real_keys = KeyFile.keys

        def keys(self: KeyFile, vault_id: str, params: Any) -> list[Any]:
            found = real_keys(self, vault_id, params)
            monkeypatch.setattr(KeyFile, "keys", real_keys)
            KeyFile(key_file).settle(rotator.vault_id)  # the rotating process
            lc.begin(parts, rotator._new_provider(None))  # ... starts the next rotation
            return found

        monkeypatch.setattr(KeyFile, "keys", keys)
        with Vault.open(home, master_key_file=key_file) as vault:
            _reads_back(vault)
    finally:
        rotator.close()  # it dies before its commit: nothing more of it reaches the store
    with Vault.open(home, master_key_file=key_file) as vault:
        _reads_back(vault)
