"""Checking one record against the chain: its MAC, its number, its link to the one before.

A record is trusted only once its MAC holds (under the vault's audit key, or
its segment's forward-secure key); then its fixed fields are read in place.
After a bad MAC the check carries on from that line, so one run names every
damaged place, each with where it is and why.
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Callable
from dataclasses import dataclass, field

from .. import _crypto
from ._keys import AuditKeys, ForwardState
from ._record import MAC_SUFFIX_LEN
from ._segments import SCHEMA_VERSION, line_hash, seq_of

_PREV_MARK = b',"prev":"'
_MAC_MARK = b',"mac":"'


@dataclass(frozen=True, slots=True)
class Problem:
    """One place where the log is not what memvault wrote."""

    where: str  # "segment 2, line 17 (record 1042)" or "the log as a whole"
    reason: str
    seq: int | None = None

    def __str__(self) -> str:
        return f"{self.where}: {self.reason}"


@dataclass(slots=True)
class Report:
    records: int = 0
    segments: int = 0
    last_seq: int = 0
    last_hash: str = ""
    anchor: int | None = None
    problems: list[Problem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # interrupted commands, explained
    checkpoint: str | None = None
    chains: int | None = None  # a log in chains (a vault on PostgreSQL): how many

    @property
    def intact(self) -> bool:
        return not self.problems

    def add(self, problem: Problem) -> None:
        self.problems.append(problem)


@dataclass(slots=True)
class State:
    expect_seq: int
    expect_prev: str
    after_bad_mac: bool = False  # the next prev cannot match: same damage, reported once
    pending_txn: dict[int, str] = field(default_factory=dict)  # txn records after the anchor


def check_line(
    line: bytes,
    where: str,
    mac: Callable[[bytes], bytes] | None,
    state: State,
    report: Report,
    *,
    label: Callable[[int], str] = str,
) -> int | None:
    """Check one record; returns its sequence number, or None if it is unusable."""
    if (
        len(line) <= MAC_SUFFIX_LEN
        or line[-MAC_SUFFIX_LEN:][: len(_MAC_MARK)] != _MAC_MARK
        or not line.endswith(b'"}')
    ):
        report.add(Problem(where, "not a record (no MAC at its end)"))
        return None
    body = line[:-MAC_SUFFIX_LEN] + b"}"
    stated = line[-MAC_SUFFIX_LEN + len(_MAC_MARK) : -2]
    if mac is not None and not hmac.compare_digest(mac(body).hex().encode(), stated):
        report.add(Problem(where, "its MAC does not match: the record was modified or forged"))
        _resync(line, state, report)
        return None
    # The MAC holds, so the line is as memvault wrote it: read the fields it needs at
    # their fixed places instead of parsing the whole record.
    fields = _fixed_fields(line)
    if fields is None:
        report.add(Problem(where, "its MAC matches but it is not a valid record"))
        return None
    version, seq, prev = fields
    if label is str:
        where = f"{where} (record {seq})"
    if version != SCHEMA_VERSION:
        report.add(
            Problem(where, f"schema version {version!r}; this memvault reads {SCHEMA_VERSION}")
        )
    if seq != state.expect_seq:
        if seq < state.expect_seq:
            reason = (
                f"comes after record {label(state.expect_seq - 1)}: a duplicated or "
                "reordered record"
            )
        else:
            gone = state.expect_seq if seq == state.expect_seq + 1 else None
            reason = (
                f"record {label(gone)} is missing (removed)"
                if gone is not None
                else f"records {label(state.expect_seq)} to {label(seq - 1)} are missing (removed)"
            )
        report.add(Problem(where, reason, seq))
    elif prev != state.expect_prev and not state.after_bad_mac:
        report.add(
            Problem(
                where,
                "does not follow the record before it (its prev hash differs): records were "
                "inserted, removed or reordered",
                seq,
            )
        )
    state.expect_seq = seq + 1
    state.expect_prev = line_hash(line)
    state.after_bad_mac = False
    report.records += 1
    report.last_seq = seq
    report.last_hash = state.expect_prev
    return int(seq)


_HEAD = b'{"v":'
_SEQ = b',"seq":'
_PREV_AT = MAC_SUFFIX_LEN + 1 + 64  # ',"prev":"<64 hex>"' ends where the MAC suffix starts


def _fixed_fields(line: bytes) -> tuple[object, int, str] | None:
    """(v, seq, prev) of an authenticated line; None if it is not laid out as a record."""
    if line.startswith(_HEAD):
        comma = line.find(b",", len(_HEAD))
        if comma > 0 and line.startswith(_SEQ, comma):
            end = line.find(b",", comma + len(_SEQ))
            prev_at = len(line) - _PREV_AT
            if end > 0 and line[prev_at - len(_PREV_MARK) : prev_at] == _PREV_MARK:
                try:
                    return (
                        int(line[len(_HEAD) : comma]),
                        int(line[comma + len(_SEQ) : end]),
                        line[prev_at : prev_at + 64].decode("ascii"),
                    )
                except (ValueError, UnicodeDecodeError):
                    return None
    try:
        record = json.loads(line[:-MAC_SUFFIX_LEN] + b"}")
        return record["v"], int(record["seq"]), str(record["prev"])
    except (ValueError, KeyError, TypeError):
        return None


class SegmentMacs:
    """Which MAC function checks the records of each segment."""

    def __init__(
        self, keys: AuditKeys, forward: ForwardState | None, here: ForwardState | None
    ) -> None:
        self._keys = keys
        self._forward = forward
        self._here = here
        first = forward.first if forward is not None else here.first if here else None
        self._first = first
        self.unchecked: list[int] = []

    def for_segment(self, number: int) -> Callable[[bytes], bytes] | None:
        if self._first is None or number < self._first:
            return self._keys.mac_bytes
        if self._forward is not None:
            if number >= self._forward.segment:
                self._forward = self._forward.at(number)
                return _crypto.mac_function(self._forward.key)
            return None  # a segment met twice (a duplicate file): reported elsewhere
        if self._here is not None and number == self._here.segment:
            return _crypto.mac_function(self._here.key)
        if number not in self.unchecked:
            self.unchecked.append(number)
        return None


def _resync(line: bytes, state: State, report: Report) -> None:
    """After a bad MAC, carry on from this line so later problems are found too."""
    seq = seq_of(line)
    if seq is not None:
        state.expect_seq = seq + 1
        report.last_seq = seq
    state.expect_prev = line_hash(line)
    state.after_bad_mac = True
