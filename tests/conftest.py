"""Shared fixtures: every test gets its own home and its own key directory.

Tiers: tests under ``tests/system/`` (crash, concurrency, several processes) and
those that mount file systems are marked ``system``; ``pytest -m "not system"``
is the fast tier. Tests marked ``mounts`` run only when ``MEMVAULT_TEST_MOUNTS=1``
(they need root): never by default on a developer's machine.
"""

from __future__ import annotations

import os
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


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    mounts_allowed = os.environ.get("MEMVAULT_TEST_MOUNTS") == "1"
    for item in items:
        mounts = item.get_closest_marker("mounts") is not None
        if mounts or "tests/system/" in item.nodeid:
            item.add_marker(pytest.mark.system)
        if mounts and not mounts_allowed:
            item.add_marker(
                pytest.mark.skip(reason="mounts a file system: set MEMVAULT_TEST_MOUNTS=1 (root)")
            )
