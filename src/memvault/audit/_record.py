"""The audit record: its fields, in order, and the event a command fills in to make one.

The format is ``docs/audit-schema.md``; a record is built by structlog
processors (time stamp, origin) and ends as one line of compact ASCII JSON
whose MAC covers every byte before ``,"mac":``.

A record costs about what a function call costs beyond its own work: the event
makes one dict of every field, in their order, and the processors, the
appender and the encoder fill in and read that same dict
(:class:`RecordChain`).
"""

from __future__ import annotations

import json
import os
import socket
import time
from collections.abc import Callable, MutableMapping
from dataclasses import dataclass
from datetime import UTC, datetime
from json import encoder as _json_encoder
from typing import Any

import structlog

from ._keys import UserAuditKey
from ._segments import SCHEMA_VERSION

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

    def fields(self, txn: bool = False) -> dict[str, Any]:
        """Every field of the record, in :data:`FIELDS` order; the processors and the
        appender fill in those left ``None`` here (time, origin, number, chain)."""
        user, findings = self.user, self.findings
        return {
            "v": SCHEMA_VERSION,
            "seq": None,
            "time": None,
            "user": user.pseudonym if user is not None else None,
            "session": self.session,
            "command": self.command,
            "paths": user.seal_paths(self.paths) if user is not None and self.paths else None,
            "outcome": self.outcome,
            "error": self.error,
            "findings": dict(sorted(findings.items())) if findings else None,
            "before": self.before,
            "after": self.after,
            "key_version": self.key_version,
            "txn": txn,
            "ref": None,
            "details": self.details,
            "uid": None,
            "pid": None,
            "host": None,
            "prev": None,
        }


def ordered(fields: MutableMapping[str, Any]) -> dict[str, Any]:
    """Any mapping of record fields (a record read back, an operator's own), as
    :meth:`Event.fields` lays them out: every field, in order, ``txn`` a boolean."""
    record = {name: fields.get(name) for name in FIELDS}
    record["v"] = SCHEMA_VERSION
    record["txn"] = bool(record["txn"])
    return record


# -- structlog processors that build a record ---------------------------------------------

_HOST = socket.gethostname()
_UID = os.getuid()
encode_json = json.JSONEncoder(ensure_ascii=True, separators=(",", ":")).encode


def _record_encoder() -> Callable[[dict[str, Any]], str]:
    """``encode_json`` for a record's dict, with the C encoder made once instead of per
    call (no check for circular references: a record's values are the event's own)."""
    make = getattr(_json_encoder, "c_make_encoder", None)
    if make is None:  # pragma: no cover - a Python without the _json accelerator
        return encode_json
    chunks = make(
        None,
        json.JSONEncoder().default,
        _json_encoder.encode_basestring_ascii,
        None,
        ":",
        ",",
        False,
        False,
        True,
    )

    def encode(record: dict[str, Any]) -> str:
        return "".join(chunks(record, 0))

    return encode


encode_record = _record_encoder()


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


PROCESSORS = (stamp, origin)


class RecordChain(structlog.BoundLoggerBase):
    """structlog's bound logger for audit records, over the appender.

    ``msg(fields)`` runs the processors on ``fields``, the dict
    :meth:`Event.fields` made for this one record, in place: no copy of the
    (empty) context, no keywords packed and unpacked. The last processor's
    dict goes to the appender's ``append_record``, which numbers, chains, MACs
    and writes it.
    """

    def msg(self, fields: dict[str, Any]) -> int:
        event: Any = fields
        logger = self._logger
        for processor in self._processors:
            event = processor(logger, "msg", event)
        seq: int = logger.append_record(event)
        return seq
