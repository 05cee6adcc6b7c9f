"""Verifying the audit log: the chain, the MACs, the segments, the store's anchor, checkpoints.

:func:`verify` reads every segment once, front to back, in constant memory,
and reports each problem with where it is (segment, line, record) and why. It
resynchronises after a problem, so one run shows every damaged place.

What it catches, and against what:

* a modified byte anywhere in a record: its MAC fails (the MAC key is derived
  from the master key, so a forger without it cannot make a valid record);
* an inserted, removed, duplicated or reordered record: the sequence numbers
  or the ``prev`` hashes do not follow;
* a missing segment: segment numbers jump, or the first is not 1;
* the newest records removed (truncation): the store's anchor names a record
  the log no longer has, beyond the window of reads the anchor may lag;
* a store restored from an older copy while the log ran on: write records
  after the anchor that the store never saw;
* a log rewritten or cut back together with its store: only a checkpoint kept
  elsewhere shows it (``--checkpoint``): the log must still hold the record
  the checkpoint names, with the same hash.
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import _crypto
from ..errors import LogDamagedError
from ._anchor import ANCHOR_EVERY
from ._keys import AuditKeys, ForwardState
from ._record import MAC_SUFFIX_LEN
from ._segments import (
    SCHEMA_VERSION,
    genesis,
    line_hash,
    not_applied_ref,
    read_error,
    segments,
    seq_of,
)

# How far the store's anchor may lag the log: reads are anchored in batches.
ANCHOR_WINDOW = 2 * ANCHOR_EVERY
MAX_REPORTED = 50

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

    @property
    def intact(self) -> bool:
        return not self.problems

    def add(self, problem: Problem) -> None:
        self.problems.append(problem)


@dataclass(slots=True)
class _State:
    expect_seq: int
    expect_prev: str
    after_bad_mac: bool = False  # the next prev cannot match: same damage, reported once
    pending_txn: dict[int, str] = field(default_factory=dict)  # txn records after the anchor


def _lines(path: Path) -> Iterator[tuple[int, bytes, bool]]:
    """(line number, line without newline, whether it ended with a newline)."""
    with open(path, "rb") as handle:
        for number, raw in enumerate(handle, start=1):
            if raw.endswith(b"\n"):
                yield number, raw[:-1], True
            else:
                yield number, raw, False


def examine(
    directory: Path,
    keys: AuditKeys,
    *,
    anchor: tuple[int, str] | None = None,
    pending: list[int] | None = None,
    checkpoint: dict[str, Any] | None = None,
    forward: ForwardState | None = None,
    forward_here: ForwardState | None = None,
) -> Report:
    """Check the whole log and report every problem found (never raises for damage:
    :func:`verify` does). ``anchor`` is the store's (seq, hash), ``pending`` the
    sequence numbers of the lines the store keeps copies of, ``checkpoint`` a
    parsed checkpoint to prove the log extends.

    With forward security on, segments from ``first`` on are MACed with keys of
    their own: ``forward`` (the first key, from the operator's file) checks them
    all; without it ``forward_here`` (the key file on this machine) checks only
    the current segment, and the earlier ones are checked for their chain alone.
    Raises StorageError if a segment cannot be read.
    """
    walk = _Walk(keys, anchor, checkpoint, _SegmentMacs(keys, forward, forward_here))
    files = segments(directory)
    if not files:
        if walk.anchor_seq:
            walk.report.add(
                Problem(
                    "the log as a whole",
                    f"no segment files in {directory}, but the store recorded record "
                    f"{walk.anchor_seq}",
                )
            )
        return walk.report
    for number, path in files:
        try:
            walk.segment(number, path)
        except OSError as exc:
            # Not evidence of tampering: the operator must fix access and verify again.
            raise read_error(path, exc) from None
    walk.finish(pending or [])
    return walk.report


def verify(
    directory: Path,
    keys: AuditKeys,
    *,
    anchor: tuple[int, str] | None = None,
    pending: list[int] | None = None,
    checkpoint: dict[str, Any] | None = None,
    forward: ForwardState | None = None,
    forward_here: ForwardState | None = None,
) -> Report:
    """:func:`examine`, then raise :class:`~memvault.errors.LogDamagedError` (carrying
    the report) unless the log is intact: a damaged log is never taken for an intact one
    by a caller that forgot to look. Returns the report of an intact log."""
    report = examine(
        directory,
        keys,
        anchor=anchor,
        pending=pending,
        checkpoint=checkpoint,
        forward=forward,
        forward_here=forward_here,
    )
    if not report.intact:
        raise LogDamagedError(
            f"the audit log failed verification: {report.problems[0]}",
            report=report,
            hint="keep this home as evidence; compare with a backup and the last checkpoint",
        )
    return report


class _Walk:
    """One pass over the log, front to back: what it expects next, and what it found."""

    def __init__(
        self,
        keys: AuditKeys,
        anchor: tuple[int, str] | None,
        checkpoint: dict[str, Any] | None,
        macs: _SegmentMacs,
    ) -> None:
        self.report = Report()
        self.macs = macs
        self.state = _State(1, genesis(keys.vault_id))
        self.anchor = anchor
        self.anchor_seq = anchor[0] if anchor and anchor[0] > 0 else 0
        self.report.anchor = self.anchor_seq or None
        self.anchor_seen = self.anchor_seq == 0
        self.checkpoint = checkpoint
        self.cp_seq = int(checkpoint["size"]) if checkpoint else 0
        self.cp_seen = checkpoint is None or self.cp_seq == 0
        self.expected_number = 1

    def segment(self, number: int, path: Path) -> None:
        report = self.report
        report.segments += 1
        if number < self.expected_number:
            report.add(
                Problem(
                    f"segment {number}",
                    f"a second file claims this segment number ({path.name}); only one is "
                    "memvault's",
                )
            )
            return
        if number != self.expected_number:
            missing = (
                f"segment {self.expected_number}"
                if number == self.expected_number + 1
                else f"segments {self.expected_number} to {number - 1}"
            )
            report.add(Problem(f"before segment {number}", f"{missing} missing"))
        self.expected_number = number + 1
        for line_no, line, complete in _lines(path):
            where = f"segment {number}, line {line_no}"
            if not complete:
                report.add(
                    Problem(where, "an incomplete last line (a torn write, or bytes appended)")
                )
                continue
            seq = _check_line(line, where, self.macs.for_segment(number), self.state, report)
            if seq is not None:
                self._record(seq, line, where)

    def _record(self, seq: int, line: bytes, where: str) -> None:
        """Cross-check an authenticated record with the anchor and the checkpoint."""
        report, state = self.report, self.state
        if seq == self.anchor_seq:
            self.anchor_seen = True
            if self.anchor is not None and line_hash(line) != self.anchor[1]:
                report.add(
                    Problem(
                        f"{where} (record {seq})",
                        "is not the record the store anchored: the log was rewritten, "
                        "or the store was restored from another copy",
                        seq,
                    )
                )
        if self.checkpoint is not None and seq == self.cp_seq:
            self.cp_seen = True
            if line_hash(line) != self.checkpoint["head"]:
                report.add(
                    Problem(
                        f"{where} (record {seq})",
                        "differs from the record the checkpoint signed: the log was "
                        "rewritten after the checkpoint",
                        seq,
                    )
                )
        if seq > self.anchor_seq and b'"txn":true' in line:
            state.pending_txn[seq] = _describe(line)
        ref = not_applied_ref(line)
        if ref is not None:
            state.pending_txn.pop(ref, None)
            report.notes.append(
                f"record {ref} was not applied ({_error(line)}); record {seq} says so"
            )

    def finish(self, pending: list[int]) -> None:
        """What only the whole log shows: its end against the anchor and the checkpoint."""
        report = self.report
        unchecked = self.macs.unchecked
        if unchecked:
            report.notes.append(
                f"segments {unchecked[0]} to {unchecked[-1]} are forward-secure: their "
                "chain was checked, their MACs need the first forward-secure key "
                "(--forward-key FILE)"
                if len(unchecked) > 1
                else f"segment {unchecked[0]} is forward-secure: its chain was checked, its "
                "MACs need the first forward-secure key (--forward-key FILE)"
            )
        held = [seq for seq in pending if seq > report.last_seq]
        if held:
            report.add(
                Problem(
                    "the end of the log",
                    f"records {held[0]} to {held[-1]} are missing from the log, but the store "
                    "holds copies of them (a crash lost them, or they were removed); opening "
                    "the vault restores them",
                    held[0],
                )
            )
            self.anchor_seen = True
        self._check_ends()
        _check_lag(report, self.state, self.anchor_seq)

    def _check_ends(self) -> None:
        report, anchor_seq, cp_seq = self.report, self.anchor_seq, self.cp_seq
        if anchor_seq and not self.anchor_seen:
            if report.last_seq < anchor_seq:
                report.add(
                    Problem(
                        "the end of the log",
                        f"the log ends at record {report.last_seq}, but the store anchored "
                        f"record {anchor_seq}: the newest records were removed",
                    )
                )
            else:
                report.add(Problem("the log as a whole", f"record {anchor_seq} is missing"))
        if self.checkpoint is None:
            return
        if not self.cp_seen:
            report.add(
                Problem(
                    "the end of the log",
                    f"the log ends at record {report.last_seq}, but the checkpoint signed "
                    f"{cp_seq} records: the log was cut back after the checkpoint",
                )
            )
        elif not report.problems:
            report.checkpoint = (
                f"the log extends the checkpoint of {self.checkpoint.get('time', '?')} "
                f"({cp_seq} records then, {report.last_seq} now)"
            )


def _check_line(
    line: bytes,
    where: str,
    mac: Callable[[bytes], bytes] | None,
    state: _State,
    report: Report,
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
    where = f"{where} (record {seq})"
    if version != SCHEMA_VERSION:
        report.add(
            Problem(where, f"schema version {version!r}; this memvault reads {SCHEMA_VERSION}")
        )
    if seq != state.expect_seq:
        if seq < state.expect_seq:
            reason = f"comes after record {state.expect_seq - 1}: a duplicated or reordered record"
        else:
            gone = state.expect_seq if seq == state.expect_seq + 1 else None
            reason = (
                f"record {gone} is missing (removed)"
                if gone is not None
                else f"records {state.expect_seq} to {seq - 1} are missing (removed)"
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


class _SegmentMacs:
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


def _resync(line: bytes, state: _State, report: Report) -> None:
    """After a bad MAC, carry on from this line so later problems are found too."""
    seq = seq_of(line)
    if seq is not None:
        state.expect_seq = seq + 1
        report.last_seq = seq
    state.expect_prev = line_hash(line)
    state.after_bad_mac = True


def _check_lag(report: Report, state: _State, anchor_seq: int) -> None:
    """Write records after the store's anchor: the last may be an interrupted command;
    more than that means the store is older than the log."""
    after = sorted(state.pending_txn)
    if len(after) == 1:
        seq = after[0]
        report.notes.append(
            f"record {seq} ({state.pending_txn[seq]}) was interrupted before its change was "
            "committed: the change does not exist (the next command records that)"
        )
        after = []
    if after:
        report.add(
            Problem(
                "the store",
                f"records {', '.join(map(str, after[:10]))} changed memories after the store's "
                f"anchor (record {anchor_seq}), but the store does not know them: it was "
                "restored from an older copy while the log ran on",
            )
        )
    elif anchor_seq and report.last_seq - anchor_seq > ANCHOR_WINDOW:
        report.add(
            Problem(
                "the store",
                f"its anchor (record {anchor_seq}) lags the log ({report.last_seq} records) by "
                f"more than {ANCHOR_WINDOW}: the store was restored from an older copy",
            )
        )


def _error(line: bytes) -> str:
    at = line.find(b',"error":"')
    if at < 0:
        return "unknown reason"
    end = line.find(b'"', at + 10)
    return line[at + 10 : end].decode("ascii", "replace")


def _describe(line: bytes) -> str:
    at = line.find(b',"command":"')
    end = line.find(b'"', at + 12)
    command = line[at + 12 : end].decode("ascii", "replace") if at >= 0 else "?"
    user_at = line.find(b',"user":"')
    # The line may be unauthenticated (a forward-secure segment checked without its key):
    # nothing read from it may fail to decode.
    user = (
        line[user_at + 9 : line.find(b'"', user_at + 9)].decode("ascii", "replace")
        if user_at >= 0
        else None
    )
    return f"{command} by {user}" if user else command
