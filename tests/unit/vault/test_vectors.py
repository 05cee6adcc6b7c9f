"""Known-answer vectors: the sealed blob format and a version-1 vault stay readable."""

from __future__ import annotations

import base64
import copy
import json
import pickle
import shutil
from pathlib import Path
from typing import Any

import pytest

from memvault import IntegrityError, Vault
from memvault._crypto import Key, Sealer, open_blob

VECTORS = Path(__file__).resolve().parents[2] / "vectors"


def _blob_vectors() -> list[dict[str, Any]]:
    return json.loads((VECTORS / "sealed_blobs.json").read_text())["vectors"]


@pytest.mark.parametrize("vector", _blob_vectors(), ids=lambda v: v["context"][:16])
def test_sealed_blob_vectors_open(vector: dict[str, Any]) -> None:
    """Blobs sealed by an earlier release open to the same plaintext."""
    sealer = Sealer(Key(base64.b64decode(vector["key"])), vector["version"])
    blob, ctx = bytes.fromhex(vector["blob"]), bytes.fromhex(vector["context"])
    found = open_blob(blob, ctx, lambda v: sealer if v == vector["version"] else None)
    assert found == bytes.fromhex(vector["plaintext"])


@pytest.mark.parametrize("vector", _blob_vectors(), ids=lambda v: v["context"][:16])
def test_sealed_blob_vectors_refuse_any_change(vector: dict[str, Any]) -> None:
    """Every single-byte change to a vector blob, or to its context, fails to open."""
    sealer = Sealer(Key(base64.b64decode(vector["key"])), vector["version"])
    blob, ctx = bytes.fromhex(vector["blob"]), bytes.fromhex(vector["context"])
    for i in range(len(blob)):
        bad = bytearray(blob)
        bad[i] ^= 0x01
        with pytest.raises(IntegrityError):
            open_blob(bytes(bad), ctx, lambda v: sealer)
    with pytest.raises(IntegrityError):
        open_blob(blob, ctx + b"\x00", lambda v: sealer)


def test_version_1_vault_opens(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A vault written by schema version 1 opens and reads exactly as it was written."""
    home = tmp_path / "home"
    home.mkdir(mode=0o700)
    shutil.copy(VECTORS / "vault-v1.db", home / "vault.db")
    monkeypatch.setenv("MEMVAULT_MASTER_KEY", (VECTORS / "vault-v1.key").read_text().strip())
    with Vault.open(home) as v:
        alice, bob = v.memory_tool("alice"), v.memory_tool("bob")
        assert alice.call({"command": "view", "path": "/memories"}) == (
            "Here're the files and directories up to 2 levels deep in /memories, excluding "
            "hidden items and node_modules:\n"
            "50B\t/memories\n37B\t/memories/notes/\n37B\t/memories/notes/todo.md\n"
            "13B\t/memories/prefs.md"
        )
        assert alice.call({"command": "view", "path": "/memories/notes/todo.md"}) == (
            "Here's the content of /memories/notes/todo.md with line numbers:\n"
            "     1\t- call back on Monday\n     2\t- send invoice\n     3\t"
        )
        assert alice.call({"command": "view", "path": "/memories/prefs.md"}).endswith(
            "     1\tGrüße 👋\n     2\t"
        )
        assert bob.call({"command": "view", "path": "/memories"}) == (
            "Here're the files and directories up to 2 levels deep in /memories, excluding "
            "hidden items and node_modules:\n"
            "4B\t/memories\n4B\t/memories/archive/\n4B\t/memories/archive/prefs.md"
        )


def test_keys_resist_exposure() -> None:
    """A Key shows no bytes in repr or str and cannot be pickled or deep-copied."""
    raw = bytes(range(32))
    key = Key(raw)
    for text in (repr(key), str(key), f"{key}", repr([key])):
        assert raw.hex() not in text and "\\x00\\x01" not in text
        assert text == "<Key (secret)>" or text == "[<Key (secret)>]"
    with pytest.raises(TypeError):
        pickle.dumps(key)
    with pytest.raises(TypeError):
        copy.deepcopy(key)
    assert key.export_raw() == raw
    assert "version=3" in repr(Sealer(key, 3)) and raw.hex() not in repr(Sealer(key, 3))
