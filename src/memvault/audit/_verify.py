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

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..errors import LogDamagedError
from ._anchor import ANCHOR_EVERY
from ._chain import Problem, Report, SegmentMacs, State, check_line
from ._keys import AuditKeys, ForwardState
from ._segments import (
    genesis,
    line_hash,
    not_applied_ref,
    read_error,
    segments,
)

# How far the store's anchor may lag the log: reads are anchored in batches.
ANCHOR_WINDOW = 2 * ANCHOR_EVERY
MAX_REPORTED = 50


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
    walk = _Walk(keys, anchor, checkpoint, SegmentMacs(keys, forward, forward_here))
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
        macs: SegmentMacs,
    ) -> None:
        self.report = Report()
        self.macs = macs
        self.state = State(1, genesis(keys.vault_id))
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
            seq = check_line(line, where, self.macs.for_segment(number), self.state, report)
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


def _check_lag(report: Report, state: State, anchor_seq: int) -> None:
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
