"""What the retention tests share: a clock they set (every last-used day and every expiry
reads ``memory.touch.today``), the raw database, and memory commands."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from memvault import Vault
from tests.support import stores

DAY = 20_000  # 2024-10-04
FAR = DAY + 20_000  # a day by which every file is idle


class Clock:
    """Today, as the vault sees it; tests move it."""

    def __init__(self, day: int) -> None:
        self.day = day

    def __call__(self) -> int:
        return self.day

    def last_used(self, vault: Vault) -> dict[str, int | None]:
        """Each file's last-used day (None: it has none), as a dry run reports it on a
        far day (the dry run leaves a ``retention.expire`` record, and nothing else)."""
        today, self.day = self.day, FAR
        try:
            report = vault.expire(1, dry_run=True)
        finally:
            self.day = today
        days: dict[str, int | None] = {e.path: e.last_used for e in report.expired}
        days.update((found.path, None) for found in report.stamped)
        return days


@contextlib.contextmanager
def db(home: Path) -> Iterator[Any]:
    """The vault's database (a home's, or in a ``[pg]`` run, PostgreSQL), opened as
    someone without the key would (``tests/support/stores.py``)."""
    with stores.connect(home) as conn:
        yield conn


def create(path: str, text: str = "note\n") -> dict[str, object]:
    return {"command": "create", "path": path, "file_text": text}


def view(path: str) -> dict[str, object]:
    return {"command": "view", "path": path}


def run(vault: Vault, *commands: dict[str, object], user: str = "alice") -> list[str]:
    """Run memory commands that must succeed; their results."""
    runner = vault.runner(user)
    out = []
    for command in commands:
        reply = runner.run(command)
        assert not reply.is_error, reply.content
        out.append(reply.content)
    return out
