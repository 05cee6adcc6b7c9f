"""Reviewing the audit log: read it and filter it.

Showing and counting are in ``_render``; exports in ``_export``.

Review reads the segments line by line, in order, and never changes them.
It does not verify the chain (``memvault audit verify`` does): a line that
is not a record is skipped and counted, so a review of a damaged log still
shows what can be read. Each record is resolved for an operator: the
pseudonym becomes the user's name and the sealed paths are opened, when the
vault still holds that user's audit key; after an erasure the record keeps
its pseudonym and its paths read ``[sealed]``.

Filters are :mod:`._filters`.
"""

from __future__ import annotations

import fnmatch
import json as _json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from ..errors import IntegrityError
from ..store import chain_of_seq
from ._chains import label, place
from ._db_log import DbAuditLog
from ._filters import Filters, path_test
from ._keys import UserAuditKey
from ._segments import read_error, segments

if TYPE_CHECKING:
    from . import Log


class Source(Protocol):
    """What a review reads: an open vault's log, and the users whose paths it can open."""

    home: Path | None

    @property
    def vault_id(self) -> str: ...

    @property
    def audit(self) -> Log: ...

    def audit_users(self) -> dict[str, tuple[str, UserAuditKey]]:
        """Each user's log pseudonym, with their name and audit key."""
        ...


_T = TypeVar("_T")

TIME_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"  # the log's own: fixed width, so strings compare as times
SEALED = "[sealed]"
MAX_LINE = 1 << 20  # a longer line is no record the log writes: skipped without reading it whole

_PSEUDONYM = re.compile(r"u:[0-9a-f]{20}")


# -- reading ---------------------------------------------------------------------------


@dataclass(slots=True)
class Entry:
    """One record, resolved for review. ``paths`` is None when the record has none,
    or when they stay sealed (then ``sealed`` is true)."""

    v: int | None
    seq: int
    time: str
    pseudonym: str | None
    name: str | None
    session: str | None
    command: str
    paths: list[str] | None
    sealed: bool
    outcome: str
    error: str | None
    findings: dict[str, int] | None
    before: str | None
    after: str | None
    key_version: int | None
    txn: bool
    ref: int | None
    details: dict[str, Any] | None
    uid: int | None
    pid: int | None
    host: str | None
    partitioned: bool = False  # of a log in chains (a vault on PostgreSQL)

    @property
    def label(self) -> str:
        """The record's number as a person reads it: ``chain.place`` in a log of chains."""
        return label(self.seq) if self.partitioned else str(self.seq)

    @property
    def user(self) -> str | None:
        """The user's name when the vault still holds their key, else the pseudonym."""
        return self.name or self.pseudonym

    def to_json(self) -> dict[str, Any]:
        """The record as ``audit show --json`` prints it: opened, without the chain's
        ``prev`` and ``mac`` or the sealed blob (``audit verify`` reads those). A record
        of a log in chains also names its chain and its place in it."""
        if self.partitioned:
            return {**self._fields(), "chain": chain_of_seq(self.seq), "place": place(self.seq)}
        return self._fields()

    def _fields(self) -> dict[str, Any]:
        return {
            "v": self.v,
            "seq": self.seq,
            "time": self.time,
            "user": self.user,
            "pseudonym": self.pseudonym,
            "session": self.session,
            "command": self.command,
            "paths": self.paths,
            "paths_sealed": self.sealed,
            "outcome": self.outcome,
            "error": self.error,
            "findings": self.findings,
            "before": self.before,
            "after": self.after,
            "key_version": self.key_version,
            "txn": self.txn,
            "ref": self.ref,
            "details": self.details,
            "uid": self.uid,
            "pid": self.pid,
            "host": self.host,
        }


class Scan:
    """The records that pass ``filters``, in log order, read one line at a time.

    Iterate it once. Afterwards ``matched`` is the number of records it gave
    and ``skipped`` the number of lines that were not records.
    """

    def __init__(self, vault: Source, filters: Filters | None = None, *, open_paths: bool = True):
        self.filters = filters = filters or Filters()
        self.skipped = 0
        self.matched = 0
        self._log = vault.audit
        self._users = vault.audit_users()
        keys = vault.audit.keys
        self._pseudonyms = frozenset(keys.user(name) for name in filters.users) | {
            name for name in filters.users if _PSEUDONYM.fullmatch(name)
        }
        self._since = filters.since.strftime(TIME_FORMAT) if filters.since else None
        self._until = filters.until.strftime(TIME_FORMAT) if filters.until else None
        self._path_tests = [path_test(p) for p in filters.paths]
        self._open_paths = open_paths or bool(filters.paths)

    def __iter__(self) -> Iterator[Entry]:
        for line in self._lines():
            record = _parse(line) if line is not None else None
            if record is None:
                self.skipped += 1
                continue
            if not self._keeps(record):
                continue
            entry = self._resolve(record)
            if self._path_tests and not any(
                test(p) for p in entry.paths or () for test in self._path_tests
            ):
                continue
            self.matched += 1
            yield entry

    def _lines(self) -> Iterator[bytes | None]:
        """Each line of each segment (None for one too long to be a record); in a
        database, every record of every chain, merged by time."""
        if isinstance(self._log, DbAuditLog):
            yield from self._log.lines()
            return
        found = segments(self._log.directory)
        for index, (_, path) in enumerate(found):
            try:
                yield from _segment_lines(path, last=index == len(found) - 1)
            except OSError as exc:
                raise read_error(path, exc) from None

    def _keeps(self, record: dict[str, Any]) -> bool:
        f = self.filters
        if f.commands and not any(fnmatch.fnmatchcase(record["command"], c) for c in f.commands):
            return False
        if f.outcomes and record.get("outcome") not in f.outcomes:
            return False
        if self._pseudonyms and _opt(record.get("user"), str) not in self._pseudonyms:
            return False
        if f.sessions and _opt(record.get("session"), str) not in f.sessions:
            return False
        if self._since is not None and record["time"] < self._since:
            return False
        if self._until is not None and record["time"] >= self._until:
            return False
        return not (f.redacted_only and not _findings(record.get("findings")))

    def _resolve(self, record: dict[str, Any]) -> Entry:
        pseudonym = _opt(record.get("user"), str)
        known = self._users.get(pseudonym) if pseudonym else None
        sealed_paths = record.get("paths")
        paths: list[str] | None = None
        sealed = False
        if sealed_paths is not None and self._open_paths:
            paths = _open(known[1] if known else None, sealed_paths)
            sealed = paths is None
        return Entry(
            v=_opt(record.get("v"), int),
            seq=record["seq"],
            time=record["time"],
            pseudonym=pseudonym,
            name=known[0] if known else None,
            session=_opt(record.get("session"), str),
            command=record["command"],
            paths=paths,
            sealed=sealed,
            outcome=_opt(record.get("outcome"), str) or "?",
            error=_opt(record.get("error"), str),
            findings=_findings(record.get("findings")),
            before=_opt(record.get("before"), str),
            after=_opt(record.get("after"), str),
            key_version=_opt(record.get("key_version"), int),
            txn=record.get("txn") is True,
            ref=_opt(record.get("ref"), int),
            details=_opt(record.get("details"), dict),
            uid=_opt(record.get("uid"), int),
            pid=_opt(record.get("pid"), int),
            host=_opt(record.get("host"), str),
            partitioned=self._log.partitioned,
        )


def _parse(line: bytes) -> dict[str, Any] | None:
    try:
        record = _json.loads(line)
    except (ValueError, RecursionError):  # JSON and UTF-8 errors are ValueErrors
        return None
    if not isinstance(record, dict):
        return None
    if type(record.get("seq")) is not int:
        return None
    if not isinstance(record.get("command"), str) or not isinstance(record.get("time"), str):
        return None
    return record


def _open(key: UserAuditKey | None, sealed: object) -> list[str] | None:
    """The record's paths, or None when they cannot be opened (key erased, or damage)."""
    if key is None or not isinstance(sealed, str):
        return None
    try:
        return key.open_paths(sealed)
    except (IntegrityError, ValueError):
        return None


def _opt(value: object, kind: type[_T]) -> _T | None:
    if isinstance(value, bool):
        return None  # JSON true is no number, name or object here
    return value if isinstance(value, kind) else None


def _findings(value: object) -> dict[str, int] | None:
    if not isinstance(value, dict) or not value:
        return None
    out = {k: n for k, n in value.items() if isinstance(k, str) and type(n) is int and n > 0}
    return out or None


def _segment_lines(path: Path, *, last: bool) -> Iterator[bytes | None]:
    """The lines of one segment; a line too long to be a record is None."""
    with open(path, "rb") as handle:
        while line := handle.readline(MAX_LINE):
            if not line.endswith(b"\n"):
                if len(line) < MAX_LINE:
                    if not last:
                        yield line  # a torn line inside the log: not a record
                    # At the end of the newest segment, an append in progress (or a
                    # torn one, which the next append cuts off): not a record yet.
                    break
                while (rest := handle.readline(MAX_LINE)) and not rest.endswith(b"\n"):
                    pass
                yield None
                continue
            yield line
