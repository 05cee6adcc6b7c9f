"""The clock fixture: ``memory.touch.today`` replaced by a :class:`Clock` the test moves."""

from __future__ import annotations

import pytest

from memvault import memory
from tests.unit.lifecycle.helpers import DAY, Clock


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    clock = Clock(DAY)
    monkeypatch.setattr(memory.touch, "today", clock)
    return clock
