"""Which records a review keeps: the operator's filters, checked, and the tests they make.

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

import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import re2

from .._text import clean_text
from ..errors import UsageError
from ._record import MEMORY_COMMANDS as COMMANDS
from ._record import OUTCOMES

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
    # Kept in NFC, as the vault keeps user ids: ``e`` + U+0301 finds the user ``é``.
    users = tuple(
        unicodedata.normalize("NFC", name) for name in _values(user, "--user", split=False)
    )
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


def path_test(pattern: str) -> Callable[[str], bool]:
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
