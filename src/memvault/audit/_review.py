"""Reviewing the audit log: read it and filter it.

Showing and counting are in ``_audit_show``; exports in ``_audit_export``.

Review reads the segments line by line, in order, and never changes them.
It does not verify the chain (``memvault audit verify`` does): a line that
is not a record is skipped and counted, so a review of a damaged log still
shows what can be read. Each record is resolved for an operator: the
pseudonym becomes the user's name and the sealed paths are opened, when the
vault still holds that user's audit key; after an erasure the record keeps
its pseudonym and its paths read ``[sealed]``.

Filters (all given kinds must match; several values of one kind match any):

* ``user``: a user name, matched through the pseudonym the name has in this
  vault, so records of an erased user still match; a value of the pseudonym's
  form (``u:`` and 20 hex digits) also matches that pseudonym itself.
* ``path``: on the paths as recorded (after the redaction filter rendered
  them), once opened; records whose paths stay sealed never match. ``P``
  matches the path ``P`` exactly; ``P/`` matches ``P`` and every path under
  it; ``*`` (any run of characters, ``/`` included) and ``?`` (one character)
  make ``P`` a glob over the whole path. A record matches if any of its
  paths (both, for a rename) does.
* ``command`` / ``outcome``: exact names, as a list or comma-separated;
  commands also take ``*``/``?`` globs (``audit.*``).
* ``since`` (inclusive) / ``until``: RFC 3339 (a time without an offset is
  UTC), a date ``YYYY-MM-DD`` (``until`` a date takes in that whole day),
  or an age such as ``30s``, ``15m``, ``2h``, ``7d``, ``2w`` before now.
* ``redacted_only``: records whose written text had findings.
* ``session``: the session id, exactly.
"""

from __future__ import annotations

import fnmatch
import json as _json
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import re2

from .._text import clean_text
from ..errors import IntegrityError, UsageError
from ._keys import UserAuditKey
from ._record import MEMORY_COMMANDS as COMMANDS
from ._record import OUTCOMES
from ._segments import read_error, segments

if TYPE_CHECKING:
    from ._appender import AuditLog


class Source(Protocol):
    """What a review reads: an open vault's log, and the users whose paths it can open."""

    home: Path

    @property
    def vault_id(self) -> str: ...

    @property
    def audit(self) -> AuditLog: ...

    def audit_users(self) -> dict[str, tuple[str, UserAuditKey]]:
        """Each user's log pseudonym, with their name and audit key."""
        ...


_T = TypeVar("_T")

TIME_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"  # the log's own: fixed width, so strings compare as times
SEALED = "[sealed]"
MAX_LINE = 1 << 20  # a longer line is no record the log writes: skipped without reading it whole

_PSEUDONYM = re.compile(r"u:[0-9a-f]{20}")
_AGE = re.compile(r"(\d{1,9})([smhdw])")
_AGE_UNITS = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days", "w": "weeks"}
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_ACTION = re.compile(r"[a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+")
_COMMAND_GLOB = re.compile(r"[a-z0-9_.*?]+")
_TIME_HINT = "use RFC 3339 (2025-03-01T12:00:00Z), a date (2025-03-01), or an age (15m, 2h, 7d)"


# -- filters ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Filters:
    """What a review keeps; see the module docstring for the rules. Make it with
    :func:`parse_filters`, which checks every value."""

    users: tuple[str, ...] = ()
    paths: tuple[str, ...] = ()
    commands: tuple[str, ...] = ()
    outcomes: tuple[str, ...] = ()
    sessions: tuple[str, ...] = ()
    since: datetime | None = None  # inclusive
    until: datetime | None = None  # exclusive
    redacted_only: bool = False


def parse_filters(
    *,
    user: str | Iterable[str] | None = None,
    path: str | Iterable[str] | None = None,
    command: str | Iterable[str] | None = None,
    outcome: str | Iterable[str] | None = None,
    session: str | Iterable[str] | None = None,
    since: str | None = None,
    until: str | None = None,
    redacted_only: bool = False,
    now: datetime | None = None,
) -> Filters:
    """Check the operator's filter options; raises :class:`UsageError` naming the bad one."""
    now = now or datetime.now(UTC)
    users = _values(user, "--user", split=False)
    paths = _values(path, "--path", split=False)
    commands = _unique(_check_command(c) for c in _values(command, "--command", split=True))
    outcomes = _unique(_check_outcome(o) for o in _values(outcome, "--outcome", split=True))
    sessions = _values(session, "--session", split=False)
    start = _parse_time("--since", since, now, end=False) if since is not None else None
    end = _parse_time("--until", until, now, end=True) if until is not None else None
    if start is not None and end is not None and start >= end:
        raise UsageError(
            "--since is not before --until, so no record can match",
            hint="swap them, or widen the period",
        )
    return Filters(users, paths, commands, outcomes, sessions, start, end, bool(redacted_only))


def _values(raw: str | Iterable[str] | None, option: str, *, split: bool) -> tuple[str, ...]:
    items = [raw] if isinstance(raw, str) else list(raw or ())
    out: list[str] = []
    for item in items:
        parts = item.split(",") if split else [item]
        for part in parts:
            value = part.strip() if split else part
            if not value:
                raise UsageError(f"{option} needs a value", hint=f"give {option} a non-empty value")
            out.append(value)
    return _unique(out)


def _unique(values: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(values))


def _check_command(value: str) -> str:
    name = value.lower()
    if name in COMMANDS or name == "invalid" or _ACTION.fullmatch(name):
        return name
    if ("*" in name or "?" in name) and _COMMAND_GLOB.fullmatch(name):
        return name
    raise UsageError(
        f"--command {clean_text(value)!r} names no command",
        hint=f"use {', '.join(COMMANDS)}, invalid, or an operator action such as "
        "audit.verify; * and ? match any characters (audit.*)",
    )


def _check_outcome(value: str) -> str:
    name = value.lower()
    if name in OUTCOMES:
        return name
    raise UsageError(
        f"--outcome {clean_text(value)!r} is not an outcome", hint=f"use {', '.join(OUTCOMES)}"
    )


def _parse_time(option: str, value: str, now: datetime, *, end: bool) -> datetime:
    """A bound of the period: ``end`` makes it exclusive (the instant just after it)."""
    text = value.strip()
    try:
        if age := _AGE.fullmatch(text.lower()):
            return now - timedelta(**{_AGE_UNITS[age[2]]: int(age[1])})
        if _DATE.fullmatch(text):
            day = datetime.strptime(text, "%Y-%m-%d").replace(tzinfo=UTC)
            return day + timedelta(days=1) if end else day
        moment = datetime.fromisoformat(text)
        moment = moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
        return moment + timedelta(microseconds=1) if end else moment
    except (ValueError, OverflowError):
        raise UsageError(f"{option} {clean_text(value)!r} is not a time", hint=_TIME_HINT) from None


def _path_test(pattern: str) -> Callable[[str], bool]:
    if "*" in pattern or "?" in pattern:
        # RE2, so no pattern can make the match backtrack; every other character is literal.
        parts = [
            ".*" if ch == "*" else "." if ch == "?" else f"\\x{{{ord(ch):x}}}" for ch in pattern
        ]
        options = re2.Options()
        options.log_errors = False  # RE2 would print its own line to stderr
        compiled = re2.compile("(?s)" + "".join(parts), options)
        return lambda p: compiled.fullmatch(p) is not None
    if pattern.endswith("/") and len(pattern) > 1:
        directory = pattern.rstrip("/")
        return lambda p: p == directory or p.startswith(pattern)
    return lambda p: p == pattern


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

    @property
    def user(self) -> str | None:
        """The user's name when the vault still holds their key, else the pseudonym."""
        return self.name or self.pseudonym

    def to_json(self) -> dict[str, Any]:
        """The record as ``audit show --json`` prints it: opened, without the chain's
        ``prev`` and ``mac`` or the sealed blob (``audit verify`` reads those)."""
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
        self._directory = vault.audit.directory
        self._users = vault.audit_users()
        keys = vault.audit.keys
        self._pseudonyms = frozenset(keys.user(name) for name in filters.users) | {
            name for name in filters.users if _PSEUDONYM.fullmatch(name)
        }
        self._since = filters.since.strftime(TIME_FORMAT) if filters.since else None
        self._until = filters.until.strftime(TIME_FORMAT) if filters.until else None
        self._path_tests = [_path_test(p) for p in filters.paths]
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
        """Each line of each segment (None for one too long to be a record)."""
        found = segments(self._directory)
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
