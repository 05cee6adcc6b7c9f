"""The key providers' tests: no passphrase from outside."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _no_passphrase_from_outside(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("MEMVAULT_PASSPHRASE", "MEMVAULT_NEW_PASSPHRASE", "MEMVAULT_KEY_PROVIDER"):
        monkeypatch.delenv(name, raising=False)
