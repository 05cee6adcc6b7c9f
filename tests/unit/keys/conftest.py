"""The key providers' tests: a KMS server for the session, no passphrase from outside."""

from __future__ import annotations

import pytest

from tests.support.kms import aws_env, kms, kms_server  # noqa: F401 - fixtures


@pytest.fixture(autouse=True)
def _no_passphrase_from_outside(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("MEMVAULT_PASSPHRASE", "MEMVAULT_NEW_PASSPHRASE", "MEMVAULT_KEY_PROVIDER"):
        monkeypatch.delenv(name, raising=False)
