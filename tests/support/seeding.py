"""A home seeded with users' memories and a key file of its own, for tests that copy it."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest

from memvault import Vault

_KEY_VARIABLES = ("MEMVAULT_MASTER_KEY", "MEMVAULT_MASTER_KEY_FILE", "MEMVAULT_KEY_PROVIDER")


def seed_home(where: Path, texts: Mapping[str, Mapping[str, str]]) -> tuple[Path, Path]:
    """(home, key file) under ``where``: each user's memories (path -> text) created
    through the runner in durability ``normal``, whatever key the environment names."""
    home, key_file = where / "home", where / "keys" / "vault.key"
    with pytest.MonkeyPatch.context() as patch:
        for name in _KEY_VARIABLES:
            patch.delenv(name, raising=False)
        with Vault.open(home, master_key_file=key_file, durability="normal") as vault:
            for user, memories in texts.items():
                runner = vault.runner(user)
                for path, text in memories.items():
                    reply = runner.run({"command": "create", "path": path, "file_text": text})
                    assert not reply.is_error, reply.content
    return home, key_file
