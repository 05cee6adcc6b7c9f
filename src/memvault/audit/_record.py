"""The audit record: its fields, in order, and the event a command fills in to make one.

The format is ``docs/audit-schema.md``; a record is built by structlog
processors (time stamp, origin) and ends as one line of compact ASCII JSON
whose MAC covers every byte before ``,"mac":``.
"""

from __future__ import annotations

import json
import os
import socket
import time
from collections.abc import MutableMapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from ._keys import UserAuditKey

# The memory commands a record may name (besides ``invalid`` and operator actions).
MEMORY_COMMANDS = ("view", "create", "str_replace", "insert", "delete", "rename")

# Field order of a record; "mac" always comes last, as ',"mac":"<64 hex>"}'.
FIELDS = (
    "v",
    "seq",
    "time",
    "user",
    "session",
    "command",
    "paths",
    "outcome",
    "error",
    "findings",
    "before",
    "after",
    "key_version",
    "txn",
    "ref",
    "details",
    "uid",
    "pid",
    "host",
    "prev",
)
MAC_SUFFIX_LEN = len(',"mac":"') + 64 + len('"}')

OUTCOMES = (
    "ok",
    "error",
    "invalid",
    "refused",
    "limit",
    "blocked",
    "failed",
    "not_applied",
)


# -- the event a command produces ---------------------------------------------------------


@dataclass(slots=True)
class Event:
    """What one command did, gathered while it runs, before it becomes a record."""

    command: str
    user: UserAuditKey | None = None
    session: str | None = None
    paths: list[str] | None = None
    outcome: str = "ok"
    error: str | None = None
    findings: dict[str, int] | None = None
    before: str | None = None
    after: str | None = None
    key_version: int | None = None
    details: dict[str, Any] | None = None

    def fields(self) -> dict[str, Any]:
        return {
            "user": self.user.pseudonym if self.user else None,
            "session": self.session,
            "command": self.command,
            "paths": self.user.seal_paths(self.paths) if self.user and self.paths else None,
            "outcome": self.outcome,
            "error": self.error,
            "findings": dict(sorted(self.findings.items())) if self.findings else None,
            "before": self.before,
            "after": self.after,
            "key_version": self.key_version,
            "details": self.details,
        }


# -- structlog processors that build a record ---------------------------------------------

_HOST = socket.gethostname()
_UID = os.getuid()
encode_json = json.JSONEncoder(ensure_ascii=True, separators=(",", ":")).encode


class _Clock:
    """UTC time stamps with microseconds, ``2026-11-25T10:00:00.123456Z``; the part up to
    the second is formatted once a second, not once a record."""

    def __init__(self) -> None:
        self._second = -1
        self._prefix = ""

    def now(self) -> str:
        second, micro = divmod(time.time_ns() // 1000, 1_000_000)
        if second != self._second:  # two threads may both format it: the results agree
            self._prefix = datetime.fromtimestamp(second, UTC).strftime("%Y-%m-%dT%H:%M:%S")
            self._second = second
        return f"{self._prefix}.{micro:06d}Z"


_clock = _Clock()


def stamp(_: Any, __: str, event: MutableMapping[str, Any]) -> MutableMapping[str, Any]:
    event["time"] = _clock.now()
    return event


def origin(_: Any, __: str, event: MutableMapping[str, Any]) -> MutableMapping[str, Any]:
    event["uid"] = _UID
    event["pid"] = os.getpid()
    event["host"] = _HOST
    return event


def to_chain(_: Any, __: str, event: MutableMapping[str, Any]) -> MutableMapping[str, Any]:
    event.pop("event", None)  # structlog's positional message: the command, already a field
    return {"fields": event}  # structlog built this dict for this record alone: no copy
