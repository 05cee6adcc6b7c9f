"""Shared fixtures: every test gets its own home and its own key directory."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from memvault import MemoryTool, Vault


@pytest.fixture(autouse=True)
def _isolated_keys(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Keys go to a per-test config directory; no master key leaks in from the environment."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("MEMVAULT_MASTER_KEY", raising=False)
    monkeypatch.delenv("MEMVAULT_MASTER_KEY_FILE", raising=False)
    monkeypatch.delenv("MEMVAULT_HOME", raising=False)


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path / "home"


@pytest.fixture
def vault(home: Path) -> Iterator[Vault]:
    with Vault.open(home) as v:
        yield v


@pytest.fixture
def tool(vault: Vault) -> MemoryTool:
    return vault.memory_tool(user="alice")
