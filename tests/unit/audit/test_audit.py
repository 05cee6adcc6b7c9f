"""The audit log: tamper vectors, anchoring, checkpoints, fail-closed appends, no secrets.

The mutation vectors run a log of 30 records in five segments, made by
two users, through :func:`memvault.audit.examine` once per mutation and
assert the first problem it names: the segment, the line and, where verify
determines it, the record number. A handful run through ``memvault audit
verify`` for the exact stderr line, and check that verify repairs nothing.
The fail-closed tests marked ``mounts`` mount a tmpfs or a read-only bind
mount over ``<home>/audit``: they run only with ``MEMVAULT_TEST_MOUNTS=1``, as
root (CI sets it).
"""

from __future__ import annotations

import contextlib
import errno
import io
import json
import logging
import os
import random
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from anthropic.lib.tools import ToolError

import memvault._fs
import memvault.audit as audit_module
from memvault import IntegrityError, MemoryTool, StorageError, Vault
from memvault._crypto import Key
from memvault.audit import FIELDS, AuditKeys, Problem, Report, examine, line_hash
from memvault.cli import main
from memvault.memory import AUDIT_MESSAGE, UNAVAILABLE_MESSAGE
from tests.support import stores
from tests.support.filesystems import fill

SEGMENT_BYTES = 4096  # 7 records a segment: the script below fills 5 segments
HINT = "memvault: hint: keep this home as evidence; compare with a backup and the last checkpoint\n"

Segments = dict[int, list[bytes]]  # segment number -> its lines, without newlines

# Two users, every command, and the outcomes a log must record (errors, refusals,
# malformed input). With vault.create and policy.change: 30 records.
SCRIPT: list[tuple[str, dict[str, Any]]] = [
    ("alice", {"command": "create", "path": "/memories/notes/a.md", "file_text": "one\ntwo\n"}),
    ("bob", {"command": "create", "path": "/memories/b.md", "file_text": "bob's\n"}),
    ("alice", {"command": "view", "path": "/memories"}),
    ("alice", {"command": "str_replace", "path": "/memories/notes/a.md", "old_str": "one",
               "new_str": "uno"}),
    ("bob", {"command": "view", "path": "/memories/b.md"}),
    ("alice", {"command": "insert", "path": "/memories/notes/a.md", "insert_line": 1,
               "insert_text": "between"}),
    ("bob", {"command": "view", "path": "/memories/missing.md"}),
    ("alice", {"command": "rename", "old_path": "/memories/notes/a.md",
               "new_path": "/memories/notes/c.md"}),
    ("bob", {"command": "frob"}),
    ("alice", {"command": "view", "path": "/etc/passwd"}),
    ("bob", {"command": "create", "path": "/memories/d/e.md", "file_text": "deep\n"}),
    ("alice", {"command": "create", "path": "/memories/x.md", "file_text": "x\n"}),
    ("alice", {"command": "delete", "path": "/memories/x.md"}),
    ("bob", {"command": "str_replace", "path": "/memories/b.md", "old_str": "nope",
             "new_str": "n"}),
    ("alice", {"command": "view", "path": "/memories/notes/c.md"}),
    ("bob", {"command": "rename", "old_path": "/memories/d", "new_path": "/memories/f"}),
    ("alice", {"command": "insert", "path": "/memories/notes/c.md", "insert_line": 0,
               "insert_text": "top"}),
    ("bob", {"command": "view", "path": "/memories"}),
    ("alice", {"command": "create", "path": "/memories/y.md", "file_text": "y\n"}),
    ("bob", {"command": "delete", "path": "/memories/f"}),
    ("alice", {"command": "view", "path": "/memories/y.md", "view_range": [1, 1]}),
    ("bob", {"command": "create", "path": "/memories/g.md", "file_text": "g\n"}),
    ("alice", {"command": "str_replace", "path": "/memories/y.md", "old_str": "y",
               "new_str": "why"}),
    ("bob", {"command": "view", "path": "/memories/g.md"}),
    ("alice", {"command": "delete", "path": "/memories/y.md"}),
    ("bob", {"command": "insert", "path": "/memories/g.md", "insert_line": 1,
             "insert_text": "h"}),
    ("alice", {"command": "view", "path": "/memories"}),
    ("bob", {"command": "view", "path": "/memories/g.md"}),
]  # fmt: skip
RECORDS = 4 + len(SCRIPT)  # vault.create, policy.change, two user.create, the script


def cli(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def run_script(home: Path) -> None:
    with Vault.open(home) as v:
        tools = {user: v.memory_tool(user) for user in ("alice", "bob")}
        for user, command in SCRIPT:
            with contextlib.suppress(ToolError):
                tools[user].call(command)


def read_segments(directory: Path) -> Segments:
    return {
        int(p.name[6:12]): p.read_bytes().split(b"\n")[:-1]
        for p in sorted(directory.glob("audit-*.jsonl"))
    }


def write_segments(directory: Path, segs: Segments) -> None:
    for old in directory.glob("audit-*.jsonl"):
        old.unlink()
    for number, lines in segs.items():
        (directory / f"audit-{number:06d}.jsonl").write_bytes(b"".join(x + b"\n" for x in lines))


def snapshot(directory: Path) -> dict[str, bytes]:
    """Every file under ``directory``, by relative name."""
    return {
        str(p.relative_to(directory)): p.read_bytes()
        for p in sorted(directory.rglob("*"))
        if p.is_file()
    }


def locate(segs: Segments, line: bytes) -> str:
    """Where verify names a line: ``segment S, line L``."""
    for number, lines in segs.items():
        if line in lines:
            return f"segment {number}, line {lines.index(line) + 1}"
    raise AssertionError("line not found")


def records(directory: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for lines in read_segments(directory).values() for line in lines]


def failed_line(problem: Problem | str) -> str:
    return f"memvault: error: the audit log failed verification: {problem}\n"


# -- the pristine log the mutation vectors start from ------------------------------------


@dataclass
class Pristine:
    directory: Path  # a scratch directory each vector writes its log into
    keys: AuditKeys
    anchor: tuple[int, str]
    segs: Segments

    @property
    def flat(self) -> list[tuple[int, int, bytes]]:
        """(segment, line index, line) of record 1, 2, ..."""
        return [(n, i, line) for n, lines in self.segs.items() for i, line in enumerate(lines)]

    def check(self, segs: Segments, *, anchored: bool = True) -> Report:
        write_segments(self.directory, segs)
        return examine(self.directory, self.keys, anchor=self.anchor if anchored else None)

    def copy(self) -> Segments:
        return {n: list(lines) for n, lines in self.segs.items()}


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Pristine:
    base = tmp_path_factory.mktemp("pristine")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XDG_CONFIG_HOME", str(base / "config"))
        mp.setenv(audit_module.SEGMENT_ENV, str(SEGMENT_BYTES))
        for name in ("MEMVAULT_MASTER_KEY", "MEMVAULT_MASTER_KEY_FILE", "MEMVAULT_HOME"):
            mp.delenv(name, raising=False)
        home = base / "home"
        run_script(home)
        with Vault._open(home, audit_problems=[]) as v:
            keys = v.audit.keys
            anchor = v.audit.store_head()
            assert v.audit.pending() == []  # close anchored everything and cleared the copies
    segs = read_segments(home / "audit")
    scratch = base / "scratch"
    scratch.mkdir()
    return Pristine(scratch, keys, anchor, segs)


@pytest.fixture
def built(home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home whose log is the script's, in small segments, closed (anchor current)."""
    monkeypatch.setenv(audit_module.SEGMENT_ENV, str(SEGMENT_BYTES))
    run_script(home)
    return home


def test_pristine_log_is_intact(pristine: Pristine) -> None:
    """The unmodified log verifies: every record, in order, across at least 3 segments."""
    assert len(pristine.segs) >= 3
    assert [json.loads(line)["seq"] for _, _, line in pristine.flat] == list(range(1, RECORDS + 1))
    assert pristine.anchor == (RECORDS, line_hash(pristine.flat[-1][2]))
    report = pristine.check(pristine.segs)
    assert report.intact, report.problems
    assert (report.records, report.segments, report.last_seq) == (
        RECORDS,
        len(pristine.segs),
        RECORDS,
    )
    assert len({json.loads(line)["user"] for _, _, line in pristine.flat} - {None}) == 2


# -- byte flips ------------------------------------------------------------------------------

_CORRUPT = {
    "its MAC does not match: the record was modified or forged",
    "not a record (no MAC at its end)",
    "an incomplete last line (a torn write, or bytes appended)",
}


@pytest.mark.slow  # a sweep of seconds: outside the fast tier
def test_every_flipped_byte_is_named(pristine: Pristine) -> None:
    """A byte changed anywhere (newline included) is reported at its own segment and line.

    Every byte of three records (the first, the last of a segment, the newest)
    and a seeded sample of 2500 bytes of the others. The record's closing
    ``"}`` is left to :func:`test_the_closing_bytes_of_a_record_are_checked`.
    """
    rng = random.Random(20240611)
    flat = pristine.flat
    last_of_segment = next(
        k for k in range(len(flat) - 1) if flat[k][0] != flat[k + 1][0]
    )  # a record at a segment boundary
    chosen = {0, last_of_segment, len(flat) - 1}

    def covered(k: int) -> list[int]:
        n = len(flat[k][2])
        return [*range(n - 2), n]  # every byte and the newline, but not the closing '"}'

    positions = [(k, i) for k in sorted(chosen) for i in covered(k)]
    others = [k for k in range(len(flat)) if k not in chosen]
    for _ in range(2500):
        k = rng.choice(others)
        positions.append((k, rng.choice(covered(k))))
    write_segments(pristine.directory, pristine.segs)
    checked = 0
    for k, i in positions:
        number, index, line = flat[k]
        raw = line + b"\n"
        flipped = raw[:i] + bytes([(raw[i] + 1 + rng.randrange(255)) % 256]) + raw[i + 1 :]
        lines = pristine.segs[number]
        path = pristine.directory / f"audit-{number:06d}.jsonl"
        path.write_bytes(
            b"".join(x + b"\n" for x in lines[:index])
            + flipped
            + b"".join(x + b"\n" for x in lines[index + 1 :])
        )
        report = examine(pristine.directory, pristine.keys, anchor=pristine.anchor)
        first = report.problems[0] if report.problems else None
        assert first is not None, (k, i)
        assert first.where == f"segment {number}, line {index + 1}", (k, i, str(first))
        assert first.reason in _CORRUPT, (k, i, str(first))
        path.write_bytes(b"".join(x + b"\n" for x in lines))
        checked += 1
    assert checked > 4000


def test_the_closing_bytes_of_a_record_are_checked(pristine: Pristine) -> None:
    """A changed closing quote or brace is reported at its own line, also on the newest record."""
    flat = pristine.flat
    for k in (0, len(flat) - 1):
        number, index, line = flat[k]
        for i in (len(line) - 2, len(line) - 1):
            segs = pristine.copy()
            segs[number][index] = line[:i] + b"0" + line[i + 1 :]
            report = pristine.check(segs, anchored=False)
            assert report.problems, (k, i)
            assert report.problems[0].where == f"segment {number}, line {index + 1}", (k, i)


# -- removed, swapped, duplicated, forged, replayed records -----------------------------------


def test_every_removed_record_is_named(pristine: Pristine) -> None:
    """Removing any record is reported where the next one stands; the newest, by the anchor."""
    flat = pristine.flat
    for k, (number, index, _) in enumerate(flat):
        segs = pristine.copy()
        del segs[number][index]
        report = pristine.check(segs)
        assert not report.intact
        first = report.problems[0]
        seq = k + 1
        if seq < RECORDS:
            where = f"{locate(segs, flat[k + 1][2])} (record {seq + 1})"
            assert (first.where, first.reason, first.seq) == (
                where,
                f"record {seq} is missing (removed)",
                seq + 1,
            )
        else:
            assert str(first) == (
                f"the end of the log: the log ends at record {RECORDS - 1}, but the store "
                f"anchored record {RECORDS}: the newest records were removed"
            )
            # Had the store's anchor not caught up with this read yet (it lags reads by
            # up to 256 records until the vault closes), the cut would not show.
            assert json.loads(flat[k][2])["command"] == "view"
            write_segments(pristine.directory, segs)
            earlier = (RECORDS - 1, line_hash(flat[k - 1][2]))
            assert examine(pristine.directory, pristine.keys, anchor=earlier).intact


def test_every_swapped_pair_is_named(pristine: Pristine) -> None:
    """Swapping any two adjacent records (also across segments) is reported at the first."""
    flat = pristine.flat
    for k in range(len(flat) - 1):
        (n1, i1, a), (n2, i2, b) = flat[k], flat[k + 1]
        segs = pristine.copy()
        segs[n1][i1], segs[n2][i2] = b, a
        report = pristine.check(segs)
        first = report.problems[0]
        assert (first.where, first.reason, first.seq) == (
            f"segment {n1}, line {i1 + 1} (record {k + 2})",
            f"record {k + 1} is missing (removed)",
            k + 2,
        )


def test_every_duplicated_record_is_named(pristine: Pristine) -> None:
    """A record repeated right after itself is reported at the copy."""
    for k, (number, index, line) in enumerate(pristine.flat):
        segs = pristine.copy()
        segs[number].insert(index + 1, line)
        first = pristine.check(segs).problems[0]
        assert (first.where, first.reason, first.seq) == (
            f"segment {number}, line {index + 2} (record {k + 1})",
            f"comes after record {k + 1}: a duplicated or reordered record",
            k + 1,
        )


def _forge(line: bytes, seq: int, prev: str, mac: str) -> bytes:
    record = json.loads(line)
    record.update(seq=seq, prev=prev, mac=mac, outcome="ok", command="delete")
    return json.dumps(record, separators=(",", ":")).encode()


def test_appended_forgeries_are_named(pristine: Pristine) -> None:
    """A well-formed record with a wrong MAC, or an old valid record replayed, at the end."""
    flat = pristine.flat
    last = max(pristine.segs)
    new_line = f"segment {last}, line {len(pristine.segs[last]) + 1}"
    head = line_hash(flat[-1][2])
    other = AuditKeys(Key(b"k" * 32), pristine.keys.vault_id)
    unsigned = _forge(flat[-1][2], RECORDS + 1, head, "")
    body = unsigned[: unsigned.rindex(b',"mac":')] + b"}"
    forgeries = {
        "random MAC": _forge(flat[-1][2], RECORDS + 1, head, "ab" * 32),
        "another key's MAC": _forge(flat[-1][2], RECORDS + 1, head, other.mac(body)),
        "old MAC kept": _forge(flat[-1][2], RECORDS + 1, head, json.loads(flat[-1][2])["mac"]),
    }
    for name, forged in forgeries.items():
        segs = pristine.copy()
        segs[last].append(forged)
        first = pristine.check(segs).problems[0]
        assert str(first) == (
            f"{new_line}: its MAC does not match: the record was modified or forged"
        ), name
    for k in (0, 4, RECORDS - 1):
        segs = pristine.copy()
        segs[last].append(flat[k][2])
        first = pristine.check(segs).problems[0]
        assert (first.where, first.reason, first.seq) == (
            f"{new_line} (record {k + 1})",
            f"comes after record {RECORDS}: a duplicated or reordered record",
            k + 1,
        )


def test_garbage_before_and_after_is_named(pristine: Pristine) -> None:
    """Bytes before the first record or after the last, of any segment, are named."""
    last = max(pristine.segs)
    cases: list[tuple[int, bool, bytes, str]] = [
        (1, True, b"garbage\n", "segment 1, line 1: not a record (no MAC at its end)"),
        (1, True, b"\n", "segment 1, line 1: not a record (no MAC at its end)"),
        (1, True, b"{}", "segment 1, line 1: its MAC does not match: the record was modified "
         "or forged"),
        (2, True, b"x\n", "segment 2, line 1: not a record (no MAC at its end)"),
    ]  # fmt: skip
    n_last = len(pristine.segs[last]) + 1
    cases += [
        (last, False, b"junk", f"segment {last}, line {n_last}: an incomplete last line "
         "(a torn write, or bytes appended)"),
        (last, False, b"junk\n", f"segment {last}, line {n_last}: not a record "
         "(no MAC at its end)"),
        (last, False, b"\n", f"segment {last}, line {n_last}: not a record (no MAC at its end)"),
        (2, False, b'{"v":1}\n', f"segment 2, line {len(pristine.segs[2]) + 1}: not a record "
         "(no MAC at its end)"),
    ]  # fmt: skip
    for number, leading, garbage, expected in cases:
        write_segments(pristine.directory, pristine.segs)
        path = pristine.directory / f"audit-{number:06d}.jsonl"
        data = path.read_bytes()
        path.write_bytes(garbage + data if leading else data + garbage)
        report = examine(pristine.directory, pristine.keys, anchor=pristine.anchor)
        assert str(report.problems[0]) == expected, garbage


def test_removed_and_reordered_segments_are_named(pristine: Pristine) -> None:
    """A missing first, middle or last segment, and segments renamed out of order."""
    numbers = sorted(pristine.segs)
    first_seq = {n: json.loads(pristine.segs[n][0])["seq"] for n in numbers}
    last = numbers[-1]

    def without(n: int) -> Segments:
        segs = pristine.copy()
        del segs[n]
        return segs

    assert str(pristine.check(without(1)).problems[0]) == "before segment 2: segment 1 missing"
    assert str(pristine.check(without(2)).problems[0]) == "before segment 3: segment 2 missing"
    assert str(pristine.check(without(last)).problems[0]) == (
        f"the end of the log: the log ends at record {first_seq[last] - 1}, but the store "
        f"anchored record {RECORDS}: the newest records were removed"
    )
    # Segment 2 renamed past the end: a gap where it was.
    segs = pristine.copy()
    segs[last + 1] = segs.pop(2)
    assert str(pristine.check(segs).problems[0]) == "before segment 3: segment 2 missing"
    # Segments 2 and 3 swap names: segment 2 starts with segment 3's first record.
    segs = pristine.copy()
    segs[2], segs[3] = segs[3], segs[2]
    first = pristine.check(segs).problems[0]
    assert (first.where, first.reason, first.seq) == (
        f"segment 2, line 1 (record {first_seq[3]})",
        f"records {first_seq[2]} to {first_seq[3] - 1} are missing (removed)",
        first_seq[3],
    )
    # A segment file of another name is not part of the log at all.
    segs = pristine.copy()
    write_segments(pristine.directory, segs)
    os.rename(
        pristine.directory / "audit-000002.jsonl", pristine.directory / "audit-000002.jsonl.bak"
    )
    report = examine(pristine.directory, pristine.keys, anchor=pristine.anchor)
    assert str(report.problems[0]) == "before segment 3: segment 2 missing"
    (pristine.directory / "audit-000002.jsonl.bak").unlink()


def test_a_copy_under_a_seven_digit_name_is_not_read(pristine: Pristine) -> None:
    """A copy of segment 2 under a 7-digit name is no segment (only the names the
    appender writes are): it is neither a second segment 2 nor a gap. `audit verify`
    names it as a file it did not read (tests/unit/audit/test_segment_names.py)."""
    write_segments(pristine.directory, pristine.segs)
    shutil.copy(
        pristine.directory / "audit-000002.jsonl", pristine.directory / "audit-0000002.jsonl"
    )
    try:
        report = examine(pristine.directory, pristine.keys, anchor=pristine.anchor)
    finally:
        (pristine.directory / "audit-0000002.jsonl").unlink()
    assert report.problems == []


# -- the same vectors through the CLI: exact stderr, nothing repaired --------------------------


def _mutations(segs: Segments) -> dict[str, tuple[Segments, str]]:
    """A handful of mutations of ``segs`` with the first problem verify must name."""
    flat = [(n, i, line) for n, lines in segs.items() for i, line in enumerate(lines)]
    out: dict[str, tuple[Segments, str]] = {}

    def copy() -> Segments:
        return {n: list(lines) for n, lines in segs.items()}

    m = copy()
    line = m[2][1]
    m[2][1] = line[:100] + bytes([line[100] ^ 0x01]) + line[101:]
    out["flipped"] = (
        m,
        "segment 2, line 2: its MAC does not match: the record was modified or forged",
    )
    m = copy()
    n, i, _ = flat[9]
    del m[n][i]
    out["removed"] = (
        m,
        f"{locate(m, flat[10][2])} (record 11): record 10 is missing (removed)",
    )
    m = copy()
    (n1, i1, a), (n2, i2, b) = flat[14], flat[15]
    m[n1][i1], m[n2][i2] = b, a
    out["swapped"] = (m, f"segment {n1}, line {i1 + 1} (record 16): record 15 is missing (removed)")
    m = copy()
    n, i, dup = flat[5]
    m[n].insert(i + 1, dup)
    out["duplicated"] = (
        m,
        f"segment {n}, line {i + 2} (record 6): comes after record 6: a duplicated or reordered "
        "record",
    )
    m = copy()
    last = max(m)
    m[last].append(flat[3][2])
    out["replayed"] = (
        m,
        f"segment {last}, line {len(m[last])} (record 4): comes after record {len(flat)}: a "
        "duplicated or reordered record",
    )
    m = copy()
    m[last].append(_forge(flat[-1][2], len(flat) + 1, line_hash(flat[-1][2]), "ab" * 32))
    out["forged"] = (
        m,
        f"segment {last}, line {len(m[last])}: its MAC does not match: the record was modified "
        "or forged",
    )
    m = copy()
    m[1].insert(0, b"# leading garbage")
    out["leading garbage"] = (m, "segment 1, line 1: not a record (no MAC at its end)")
    m = copy()
    del m[2]
    out["segment removed"] = (m, "before segment 3: segment 2 missing")
    m = copy()
    del m[last]
    out["last segment removed"] = (
        m,
        f"the end of the log: the log ends at record {json.loads(segs[last][0])['seq'] - 1}, but "
        f"the store anchored record {len(flat)}: the newest records were removed",
    )
    return out


@pytest.mark.sqlite_only("reads or changes the home's audit log files")
def test_cli_names_the_first_bad_place_and_repairs_nothing(built: Path) -> None:
    """`audit verify` exits 1 with the exact first problem on stderr; the log is untouched."""
    segs = read_segments(built / "audit")
    for name, (mutated, expected) in _mutations(segs).items():
        home = built.parent / f"copy-{name.replace(' ', '-')}"
        shutil.copytree(built, home)
        write_segments(home / "audit", mutated)
        before = snapshot(home)
        code, out, err = cli(["--home", str(home), "audit", "verify"])
        assert (code, err) == (1, failed_line(expected) + HINT), name
        assert out.startswith("audit log DAMAGED: "), name
        assert out.splitlines()[1] == f"  {expected}", name
        assert snapshot(home) == before, name
        shutil.rmtree(home)
    # Trailing bytes without a newline: a torn write, or bytes appended.
    path = max((built / "audit").glob("audit-*.jsonl"))
    path.write_bytes(path.read_bytes() + b'{"v":1,"seq":')
    before = snapshot(built)
    code, _, err = cli(["--home", str(built), "audit", "verify"])
    where = f"segment {int(path.name[6:12])}, line {len(segs[max(segs)]) + 1}"
    expected = f"{where}: an incomplete last line (a torn write, or bytes appended)"
    assert (code, err) == (1, failed_line(expected) + HINT)
    assert snapshot(built) == before


@pytest.mark.sqlite_only("reads or changes the home's audit log files")
def test_cli_intact_log(built: Path) -> None:
    """The intact log: exit 0, its count, and one audit.verify record added."""
    code, out, err = cli(["--home", str(built), "audit", "verify"])
    nsegs = len(read_segments(built / "audit"))
    assert (code, err) == (0, "")
    assert out == (
        f"audit log intact: {RECORDS} records in {nsegs} segments, the store's anchor at "
        f"record {RECORDS}\n"
    )
    last = records(built / "audit")[-1]
    assert (last["seq"], last["command"], last["details"]) == (
        RECORDS + 1,
        "audit.verify",
        {"records": RECORDS, "checkpoint": False},
    )
    code, out, _ = cli(["--home", str(built), "audit", "verify", "--json"])
    report = json.loads(out)
    assert (code, report["intact"], report["records"], report["problems"]) == (
        0,
        True,
        RECORDS + 1,
        [],
    )


@pytest.mark.sqlite_only("reads or changes the home's audit log files")
def test_every_line_has_the_schema_field_order(built: Path) -> None:
    """Each line is one JSON object with the documented fields, "mac" last."""
    for line in (b for lines in read_segments(built / "audit").values() for b in lines):
        assert list(json.loads(line)) == [*FIELDS, "mac"]
        assert line.startswith(b'{"v":1,"seq":') and line.endswith(b'"}')


# -- anchoring: truncation, an older store, an older home, checkpoints -------------------------


def _cut(home: Path, count: int) -> None:
    """Remove the newest ``count`` lines of the log."""
    segs = read_segments(home / "audit")
    for _ in range(count):
        last = max(segs)
        segs[last].pop()
        if not segs[last]:
            del segs[last]
    write_segments(home / "audit", segs)


@pytest.mark.sqlite_only("reads or changes the home's audit log files")
def test_truncation_beyond_the_stores_copies_is_caught(built: Path) -> None:
    """The newest records removed after the store synced: verify and Vault.open refuse."""
    with Vault._open(built, audit_problems=[]) as v:
        assert v.audit.store_head()[0] == RECORDS and v.audit.pending() == []
    _cut(built, 3)
    before = snapshot(built / "audit")
    expected = (
        f"the end of the log: the log ends at record {RECORDS - 3}, but the store anchored "
        f"record {RECORDS}: the newest records were removed"
    )
    assert cli(["--home", str(built), "audit", "verify"])[::2] == (1, failed_line(expected) + HINT)
    with pytest.raises(IntegrityError) as caught:
        Vault.open(built)
    assert caught.value.message == (
        f"the audit log and the store disagree: the audit log ends at record {RECORDS - 3}, but "
        f"the store recorded record {RECORDS}: the newest records were removed (or the store is "
        "newer than the log)"
    )
    assert snapshot(built / "audit") == before


@pytest.mark.sqlite_only("reads or changes the home's audit log files")
def test_truncation_beyond_the_anchor_window_is_caught(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without a close: after more than 256 reads the anchor has caught up by itself."""
    monkeypatch.setenv(audit_module.SEGMENT_ENV, "65536")
    v = Vault.open(home)
    tool = v.memory_tool("alice")
    tool.call({"command": "create", "path": "/memories/a.md", "file_text": "a\n"})
    for _ in range(audit_module.ANCHOR_EVERY + 10):
        tool.call({"command": "view", "path": "/memories/a.md"})
    head = v.audit.store_head()[0]
    assert head > audit_module.ANCHOR_EVERY
    # A copy of the home as a crash would leave it (the vault never closed).
    crashed = home.parent / "crashed"
    shutil.copytree(home, crashed)
    v.close()
    total = len(records(crashed / "audit"))
    _cut(crashed, total - head + 1)
    report = _verify_home(crashed)
    assert str(report.problems[0]) == (
        f"the end of the log: the log ends at record {head - 1}, but the store anchored "
        f"record {head}: the newest records were removed"
    )
    with pytest.raises(IntegrityError):
        Vault.open(crashed)


def _verify_home(home: Path, **kwargs: Any) -> Report:
    with Vault._open(home, audit_problems=[]) as v:
        return examine(
            v.audit.directory,
            v.audit.keys,
            anchor=v.audit.store_head(),
            pending=v.audit.pending(),
            **kwargs,
        )


@pytest.mark.sqlite_only("reads or changes the home's audit log files")
def test_lines_the_store_holds_are_reported_then_restored(home: Path) -> None:
    """Records lost from the log but copied in the store: verify names them, open puts them back."""
    v = Vault.open(home)
    tool = v.memory_tool("alice")
    for i in range(4):
        tool.call({"command": "create", "path": f"/memories/{i}.md", "file_text": f"{i}\n"})
    crashed = home.parent / "crashed"
    shutil.copytree(home, crashed)  # as a power loss would leave it: the log is not closed
    v.close()
    with Vault._open(crashed, audit_problems=[]) as ro:
        pending = ro.audit.pending()
    total = len(records(crashed / "audit"))
    assert pending[-2:] == [total - 1, total]
    full = snapshot(crashed / "audit")
    _cut(crashed, 2)
    report = _verify_home(crashed)
    assert str(report.problems[0]) == (
        f"the end of the log: records {total - 1} to {total} are missing from the log, but the "
        "store holds copies of them (a crash lost them, or they were removed); opening the "
        "vault restores them"
    )
    with Vault.open(crashed) as reopened:
        assert reopened.memory_tool("alice").call({"command": "view", "path": "/memories/3.md"})
    restored = snapshot(crashed / "audit")
    name = max(k for k in full if k.endswith(".jsonl"))
    assert restored[name].startswith(full[name])  # then the view's own record
    assert _verify_home(crashed).intact


def _copy_store(src: Path, dst: Path) -> None:
    """Put ``src``'s database files in ``dst`` (whatever of them exist)."""
    dst.mkdir(exist_ok=True)
    for name in ("vault.db", "vault.db-wal", "vault.db-shm"):
        with contextlib.suppress(FileNotFoundError):
            (dst / name).unlink()
        if (src / name).exists():
            shutil.copy2(src / name, dst / name)


def _older_store(home: Path) -> int:
    """Save the store, run three more writes, restore the saved store; returns the anchor."""
    with Vault.open(home) as v:
        v.memory_tool("alice").call(
            {"command": "create", "path": "/memories/a.md", "file_text": "a\n"}
        )
        anchor = v.audit.head()[0]
    _copy_store(home, home.parent / "saved")
    with Vault.open(home) as v:
        tool = v.memory_tool("alice")
        for i in range(3):
            tool.call({"command": "create", "path": f"/memories/n{i}.md", "file_text": "n\n"})
    _copy_store(home.parent / "saved", home)
    return anchor


@pytest.mark.sqlite_only("reads or changes the store's rows with SQLite")
def test_an_older_store_is_caught_by_verify(home: Path) -> None:
    """vault.db restored from an older copy while the log ran on: verify names the records."""
    anchor = _older_store(home)
    before = snapshot(home / "audit")
    code, _, err = cli(["--home", str(home), "audit", "verify"])
    expected = (
        f"the store: records {anchor + 1}, {anchor + 2}, {anchor + 3} changed memories after "
        f"the store's anchor (record {anchor}), but the store does not know them: it was "
        "restored from an older copy while the log ran on"
    )
    assert (code, err) == (1, failed_line(expected) + HINT)
    assert snapshot(home / "audit") == before


@pytest.mark.sqlite_only("works on the home directory's files")
def test_an_older_store_is_refused_at_open(home: Path) -> None:
    """SECURITY.md: opening performs verify's cross-check, so an older store is refused."""
    _older_store(home)
    with pytest.raises(IntegrityError):
        Vault.open(home).close()


@pytest.mark.sqlite_only("reads or changes the home's audit log files")
def test_an_older_home_needs_a_checkpoint(home: Path) -> None:
    """Database and log restored together verify clean; a checkpoint taken later catches it."""
    with Vault.open(home) as v:
        v.memory_tool("alice").call(
            {"command": "create", "path": "/memories/a.md", "file_text": "a\n"}
        )
    saved = home.parent / "saved-home"
    shutil.copytree(home, saved)
    old_total = len(records(home / "audit"))
    with Vault.open(home) as v:
        tool = v.memory_tool("alice")
        for i in range(3):
            tool.call({"command": "create", "path": f"/memories/n{i}.md", "file_text": "n\n"})
    cp = home.parent / "cp.json"
    code, out, err = cli(["--home", str(home), "audit", "checkpoint", "--out", str(cp)])
    size = json.loads(cp.read_text())["size"]
    assert (code, out, err) == (0, f"checkpoint of {size} records written to {cp}\n", "")
    assert size == old_total + 4  # three creates and the checkpoint's own record
    code, out, err = cli(["--home", str(home), "audit", "verify", "--checkpoint", str(cp)])
    assert (code, err) == (0, "")
    assert out.splitlines()[-1].startswith("checkpoint: the log extends the checkpoint of ")
    assert out.splitlines()[-1].endswith(f" ({size} records then, {size} now)")

    shutil.rmtree(home)
    shutil.copytree(saved, home)
    assert cli(["--home", str(home), "audit", "verify"])[0] == 0  # the rollback is invisible
    before = snapshot(home / "audit")
    code, _, err = cli(["--home", str(home), "audit", "verify", "--checkpoint", str(cp)])
    expected = (
        f"the end of the log: the log ends at record {old_total + 1}, but the checkpoint signed "
        f"{size} records: the log was cut back after the checkpoint"
    )
    assert (code, err) == (1, failed_line(expected) + HINT)
    assert snapshot(home / "audit") == before
    # Run on past the checkpoint's size: the record it signed now differs.
    with Vault.open(home) as v:
        tool = v.memory_tool("alice")
        for _ in range(6):
            tool.call({"command": "view", "path": "/memories"})
    code, _, err = cli(["--home", str(home), "audit", "verify", "--checkpoint", str(cp)])
    where = locate(read_segments(home / "audit"), _line_of(home, size))
    assert (code, err) == (
        1,
        failed_line(
            f"{where} (record {size}): differs from the record the checkpoint signed: the log "
            "was rewritten after the checkpoint"
        )
        + HINT,
    )


def _line_of(home: Path, seq: int) -> bytes:
    for lines in read_segments(home / "audit").values():
        for line in lines:
            if json.loads(line)["seq"] == seq:
                return line
    raise AssertionError(seq)


@pytest.mark.sqlite_only("reads or changes the home's audit log files")
def test_bad_checkpoints_are_usage_errors(home: Path, tmp_path: Path) -> None:
    """Another vault's checkpoint, or one with a changed byte, is refused with exit 2."""
    other = tmp_path / "other"
    cp_other = tmp_path / "other.json"
    assert cli(["--home", str(other), "audit", "checkpoint", "--out", str(cp_other)])[0] == 0
    cp = tmp_path / "cp.json"
    assert cli(["--home", str(home), "audit", "checkpoint", "--out", str(cp)])[0] == 0
    with Vault.open(home) as v:
        this = v.vault_id
    body = json.loads(cp.read_text())
    other_body = json.loads(cp_other.read_text())
    head = body["head"]
    changed_head = head[:10] + ("0" if head[10] != "0" else "1") + head[11:]
    signature = body["signature"]
    changed_sig = ("0" if signature[0] != "0" else "1") + signature[1:]
    cases = {
        "other.json": (
            other_body,
            f"is a checkpoint of vault {other_body['vault']}, not {this}",
        ),
        "relabelled.json": (
            {**other_body, "vault": this},
            "was not signed by this vault's checkpoint key (another key signed it)",
        ),
        "head.json": (
            {**body, "head": changed_head},
            ": the signature does not match: the checkpoint was altered",
        ),
        "size.json": (
            {**body, "size": body["size"] + 1},
            ": the signature does not match: the checkpoint was altered",
        ),
        "signature.json": (
            {**body, "signature": changed_sig},
            ": the signature does not match: the checkpoint was altered",
        ),
        "truncated.json": (None, " is not a valid memvault checkpoint (malformed JSON)"),
    }
    before = snapshot(home / "audit")
    for name, (content, reason) in cases.items():
        path = tmp_path / name
        if content is None:
            path.write_text(cp.read_text()[:-20])
        else:
            path.write_text(json.dumps(content, indent=2))
        code, out, err = cli(["--home", str(home), "audit", "verify", "--checkpoint", str(path)])
        sep = "" if reason.startswith((":", " ")) else " "
        assert (code, out, err) == (2, "", f"memvault: error: {path}{sep}{reason}\n"), name
    # A byte flipped in the file as written: whatever the byte, exit 2 and nothing recorded.
    raw = cp.read_bytes()
    rng = random.Random(7)
    for i in rng.sample(range(len(raw)), 40):
        path = tmp_path / f"flip-{i}.json"
        path.write_bytes(raw[:i] + bytes([raw[i] ^ 0x01]) + raw[i + 1 :])
        code, out, err = cli(["--home", str(home), "audit", "verify", "--checkpoint", str(path)])
        assert (code, out) == (2, ""), i
        assert err.startswith(f"memvault: error: {path}") and err.count("\n") == 1, (i, err)
    assert snapshot(home / "audit") == before  # a refused checkpoint adds no record


# -- fail-closed: a full disk, a read-only log, an I/O error ------------------------------------


def _store_dump(home: Path) -> list[str]:
    with contextlib.closing(sqlite3.connect(f"file:{home / 'vault.db'}?mode=ro", uri=True)) as db:
        return list(db.iterdump())


def _mount(target: Path, *args: str) -> None:
    if os.geteuid() != 0:
        pytest.skip("mounting a file system needs root")
    if shutil.which("mount") is None:
        pytest.skip("no mount command here")
    result = subprocess.run(
        ["mount", *args, str(target)], capture_output=True, text=True, check=False
    )
    if result.returncode:
        pytest.skip(f"cannot mount here: {result.stderr.strip()}")


def _umount(target: Path) -> None:
    result = subprocess.run(["umount", str(target)], capture_output=True, check=False)
    if result.returncode:
        subprocess.run(["umount", "-l", str(target)], capture_output=True, check=False)


@contextlib.contextmanager
def tmpfs_audit(home: Path, size: str = "1m") -> Iterator[Path]:
    """``home/audit`` on a small tmpfs, with the log's files copied onto it."""
    directory = home / "audit"
    files = snapshot(directory)
    _mount(directory, "-t", "tmpfs", "-o", f"size={size},mode=0700", "tmpfs")
    try:
        for name, data in files.items():
            path = directory / name
            path.write_bytes(data)
            path.chmod(0o600)
        yield directory
    finally:
        _umount(directory)


def _refused(tool: MemoryTool, command: dict[str, Any], message: str = AUDIT_MESSAGE) -> None:
    with pytest.raises(ToolError) as caught:
        tool.call(command)
    assert caught.value.content == message


SEED = {"command": "create", "path": "/memories/keep.md", "file_text": "kept"}
NEW = {"command": "create", "path": "/memories/new.md", "file_text": "new\n"}
EDIT = {"command": "str_replace", "path": "/memories/keep.md", "old_str": "kept", "new_str": "x"}
VIEW = {"command": "view", "path": "/memories/keep.md"}


def _assert_unchanged_after_reopen(home: Path) -> None:
    """A fresh open: the refused commands left nothing, and the log verifies."""
    with Vault.open(home) as v:
        tool = v.memory_tool("alice")
        assert tool.call(VIEW).endswith("     1\tkept")
        _refused(
            tool,
            {"command": "view", "path": "/memories/new.md"},
            "The path /memories/new.md does not exist. Please provide a valid path.",
        )
    code, out, err = cli(["--home", str(home), "audit", "verify"])
    assert (code, err) == (0, ""), out


@pytest.mark.mounts
@pytest.mark.sqlite_only("mounts a file system under the home")
def test_full_disk_refuses_when_a_new_segment_cannot_be_written(
    home: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A full file system under audit/ (every record starts a segment): commands are refused."""
    monkeypatch.setenv(audit_module.SEGMENT_ENV, str(audit_module.MIN_SEGMENT_BYTES))
    with Vault.open(home) as v:
        v.memory_tool("alice").call(SEED)
    with tmpfs_audit(home) as directory:
        with Vault.open(home) as v:
            tool = v.memory_tool("alice")
            filler = fill(directory)
            log_before, store_before = read_segments(directory), _store_dump(home)
            with caplog.at_level(logging.ERROR, logger="memvault"):
                for command in (NEW, EDIT, VIEW, {"command": "frob"}):
                    _refused(tool, command)
            assert caplog.text.count("(the disk is full)") == 4
            # The segment the first refused record rolled to stays, empty.
            after = read_segments(directory)
            assert after == {**log_before, max(log_before) + 1: []}
            assert _store_dump(home) == store_before
            filler.unlink()
        _assert_unchanged_after_reopen(home)


_REAL_FS = {"truncate": memvault._fs.truncate, "write_all": memvault._fs.write_all}


class _SpyTruncate:
    """``_fs.truncate``, noting each size a partly written line was cut back to."""

    def __init__(self) -> None:
        self.short: list[int] = []

    def __call__(self, fd: int, size: int) -> None:
        self.short.append(size)
        os.ftruncate(fd, size)


@pytest.mark.mounts
@pytest.mark.sqlite_only("mounts a file system under the home")
def test_full_disk_refuses_after_a_short_write(
    home: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A record only partly written (the disk filled mid-line) is cut off and refused."""
    with Vault.open(home) as v:
        v.memory_tool("alice").call(SEED)
    with tmpfs_audit(home) as directory:
        with Vault.open(home) as v:
            tool = v.memory_tool("alice")
            segment = max(directory.glob("audit-*.jsonl"))
            # Pad with reads until the last page has some room, but less than a record.
            for _ in range(40):
                slack = -segment.stat().st_size % 4096
                if 0 < slack < 500:
                    break
                tool.call({"command": "view", "path": "/memories"})
            assert 0 < -segment.stat().st_size % 4096 < 500
            filler = fill(directory)
            before = segment.read_bytes()
            store_before = _store_dump(home)
            spy = _SpyTruncate()
            monkeypatch.setattr(memvault._fs, "truncate", spy)
            with caplog.at_level(logging.ERROR, logger="memvault"):
                _refused(tool, NEW)
            monkeypatch.setattr(memvault._fs, "truncate", _REAL_FS["truncate"])
            assert spy.short == [len(before)]  # the kernel took part of the line, then no more
            assert segment.read_bytes() == before  # and that part was cut off again
            assert "(the disk is full)" in caplog.text
            assert _store_dump(home) == store_before
            filler.unlink()
        with caplog.at_level(logging.WARNING, logger="memvault"):
            _assert_unchanged_after_reopen(home)
        assert "audit_torn_tail_removed" not in caplog.text


@contextlib.contextmanager
def read_only(directory: Path) -> Iterator[None]:
    """A read-only bind mount of ``directory`` over itself."""
    _mount(directory, "--bind", str(directory))
    try:
        result = subprocess.run(
            ["mount", "-o", "remount,bind,ro", str(directory)], capture_output=True, check=False
        )
        if result.returncode:
            pytest.skip("cannot remount read-only here")
        yield
    finally:
        _umount(directory)


@pytest.mark.mounts
@pytest.mark.sqlite_only("mounts a file system under the home")
def test_read_only_log_refuses_to_open(home: Path) -> None:
    """A log on a read-only mount: the vault does not open, and exec says why."""
    with Vault.open(home) as v:
        v.memory_tool("alice").call(SEED)
    store_before = _store_dump(home)
    with read_only(home / "audit"):
        log_before = snapshot(home / "audit")
        with pytest.raises(StorageError) as caught:
            Vault.open(home)
        assert caught.value.message == (
            f"cannot open the audit log in {home / 'audit'}: Read-only file system"
        )
        code, out, err = cli(["--home", str(home), "exec", "--user", "alice"])
        assert (code, out) == (1, "")
        assert err.startswith(f"memvault: error: cannot open the audit log in {home / 'audit'}")
        assert snapshot(home / "audit") == log_before
    assert _store_dump(home) == store_before
    _assert_unchanged_after_reopen(home)


@pytest.mark.mounts
@pytest.mark.sqlite_only("mounts a file system under the home")
def test_read_only_log_refuses_commands(
    home: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The log's directory turned read-only under an open vault: every command is refused.

    Each record starts a new segment here: a file opened for writing before the
    remount stays writable (the kernel checks at open), so only new files fail.
    """
    monkeypatch.setenv(audit_module.SEGMENT_ENV, str(audit_module.MIN_SEGMENT_BYTES))
    with Vault.open(home) as v:
        v.memory_tool("alice").call(SEED)
    with Vault.open(home) as v:
        tool = v.memory_tool("alice")
        store_before = _store_dump(home)
        with read_only(home / "audit"), caplog.at_level(logging.ERROR, logger="memvault"):
            log_before = snapshot(home / "audit")
            for command in (NEW, EDIT, VIEW, {"command": "view", "path": "/etc"}):
                _refused(tool, command)
            assert caplog.text.count("(the file system is read-only)") == 4
            assert snapshot(home / "audit") == log_before
            assert _store_dump(home) == store_before
    _assert_unchanged_after_reopen(home)


class _FailingWrite:
    """``_fs.write_all``, failing as a broken disk does."""

    def __init__(self, err: int) -> None:
        self.err = err
        self.calls = 0

    def __call__(self, fd: int, data: bytes) -> None:
        self.calls += 1
        raise OSError(self.err, os.strerror(self.err))


COMMANDS: dict[str, dict[str, Any]] = {
    "view": VIEW,
    "view of a directory": {"command": "view", "path": "/memories"},
    "view of a missing file": {"command": "view", "path": "/memories/none.md"},
    "create": NEW,
    "str_replace": EDIT,
    "insert": {"command": "insert", "path": "/memories/keep.md", "insert_line": 0,
               "insert_text": "i"},
    "delete": {"command": "delete", "path": "/memories/keep.md"},
    "rename": {"command": "rename", "old_path": "/memories/keep.md",
               "new_path": "/memories/moved.md"},
    "refused path": {"command": "create", "path": "/memories/../etc/x", "file_text": "x"},
    "malformed": {"command": "create", "path": "/memories/z.md"},
    "unknown command": {"command": "frob"},
}  # fmt: skip


@pytest.mark.sqlite_only("reads or changes the home's audit log files")
@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_injected_write_error_refuses_every_command(
    name: str, home: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """An I/O error appending the record: the audit message, and the store and log unchanged."""
    with Vault.open(home) as v:
        tool = v.memory_tool("alice")
        tool.call(SEED)
        store_before, log_before = _store_dump(home), snapshot(home / "audit")
        failing = _FailingWrite(errno.EIO)
        monkeypatch.setattr(memvault._fs, "write_all", failing)
        with caplog.at_level(logging.ERROR, logger="memvault"):
            _refused(tool, COMMANDS[name])
        monkeypatch.setattr(memvault._fs, "write_all", _REAL_FS["write_all"])
        assert failing.calls == 1
        assert _store_dump(home) == store_before
        assert snapshot(home / "audit") == log_before
        events = [json.loads(r.getMessage()) for r in caplog.records if r.name == "memvault"]
        assert [(e["event"], e["detail"]) for e in events] == [
            (
                "audit_failure",
                "the audit log could not be written (an I/O error occurred) while writing the "
                "audit log",
            )
        ]
        assert tool.call(VIEW).endswith("     1\tkept")  # the log works again
    _assert_unchanged_after_reopen(home)


@pytest.mark.sqlite_only("works on the home directory's files")
@pytest.mark.parametrize(
    "err", [errno.ENOSPC, errno.EROFS, errno.EACCES, errno.EDQUOT], ids=errno.errorcode.get
)
def test_injected_errors_of_every_kind_refuse_a_write(
    err: int, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Disk full, read-only, permission, quota: the same refusal, nothing changed."""
    with Vault.open(home) as v:
        tool = v.memory_tool("alice")
        tool.call(SEED)
        store_before = _store_dump(home)
        monkeypatch.setattr(memvault._fs, "write_all", _FailingWrite(err))
        _refused(tool, NEW)
        _refused(tool, EDIT)
        monkeypatch.setattr(memvault._fs, "write_all", _REAL_FS["write_all"])
        assert _store_dump(home) == store_before
    _assert_unchanged_after_reopen(home)


class _FailingCommit:
    """A connection whose next write transaction's COMMIT fails, as a full disk makes
    SQLite's do."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        self.armed = True
        self.writing = False

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
        if sql == "BEGIN IMMEDIATE":
            self.writing = True
        if sql == "COMMIT" and self.armed and self.writing:
            self.armed = False
            raise sqlite3.OperationalError("database or disk is full")
        if sql in ("COMMIT", "ROLLBACK"):
            self.writing = False
        return self.db.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.db, name)


@pytest.mark.sqlite_only("reads or changes the home's audit log files")
def test_a_record_whose_commit_failed_is_marked_not_applied(home: Path) -> None:
    """The record is on disk but the change rolled back: an audit.not_applied record says so."""
    with Vault.open(home) as v:
        tool = v.memory_tool("alice")
        tool.call(SEED)
        store = v._store
        real = store._db
        store._db = _FailingCommit(real)
        try:
            _refused(tool, NEW, UNAVAILABLE_MESSAGE)
        finally:
            store._db = real
    log = records(home / "audit")
    create, marker, failed = log[-3:]
    assert (create["command"], create["outcome"], create["txn"]) == ("create", "ok", True)
    assert (marker["command"], marker["outcome"], marker["error"], marker["ref"]) == (
        "audit.not_applied",
        "not_applied",
        "rolled_back",
        create["seq"],
    )
    assert (failed["command"], failed["outcome"], failed["error"]) == (
        "create",
        "failed",
        "storage",
    )
    code, out, err = cli(["--home", str(home), "audit", "verify"])
    assert (code, err) == (0, "")
    assert (
        f"note: record {create['seq']} was not applied (rolled_back); record {marker['seq']} "
        "says so" in out.splitlines()
    )
    _assert_unchanged_after_reopen(home)


# -- nothing secret in the log ------------------------------------------------------------------

_B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def _github_token(payload: str) -> str:
    import zlib

    crc, tail = zlib.crc32(payload.encode()), ""
    while crc:
        crc, rem = divmod(crc, 62)
        tail = _B62[rem] + tail
    return f"ghp_{payload}{tail.rjust(6, '0')}"


USER = "alice-4711"
AWS = "AKIAQ7XKZ2M4R5T6W3YB"
GITHUB = _github_token("R8d2kQ7vLm3Xp9Tz4Wb6Nc1Hy5Fj0s")
EMAIL = "jane.roe@acme-corp.io"
CARD = "4539148803436467"
NAME = "John Smith"
SECRETS = [AWS, GITHUB, EMAIL, CARD, NAME, USER]
# Plain names of the files and directories the commands use (all sealed in the log).
NAMES = ["ops-notes", "john-smith", "patients", "contacts", "clinic-archive", "jane.roe"]


def _secret_commands() -> list[dict[str, Any]]:
    notes = "/memories/contacts/ops-notes.md"
    text = f"aws {AWS}\ngh {GITHUB}\nmail {EMAIL}\ncard {CARD}\n{NAME} called\n"
    return [
        {"command": "create", "path": notes, "file_text": text},
        {"command": "create", "path": "/memories/patients/john-smith.md", "file_text": NAME},
        {"command": "view", "path": notes},
        {"command": "view", "path": "/memories/patients"},
        {"command": "str_replace", "path": notes, "old_str": "called",
         "new_str": f"called {EMAIL} re {GITHUB}"},
        {"command": "str_replace", "path": notes, "old_str": AWS, "new_str": CARD},
        {"command": "insert", "path": notes, "insert_line": 1, "insert_text": f"card {CARD}"},
        {"command": "rename", "old_path": "/memories/patients/john-smith.md",
         "new_path": "/memories/clinic-archive/john-smith.md"},
        {"command": "rename", "old_path": "/memories/clinic-archive/john-smith.md",
         "new_path": f"/memories/{EMAIL}/john-smith.md"},
        {"command": "create", "path": f"/memories/{EMAIL}/n.md", "file_text": "x"},
        {"command": "create", "path": f"/memories/{AWS}.md", "file_text": "x"},
        {"command": "create", "path": f"/memories/patients/{EMAIL}.md", "file_text": "x"},
        {"command": "view", "path": notes, "secret": AWS, "token": GITHUB},
        {"command": "frob", "secret": EMAIL, NAME: CARD},
        {"command": AWS, "path": notes},
        {"command": "insert", "path": notes, "insert_line": "one", "insert_text": GITHUB},
        {"command": "view", "path": f"/etc/{EMAIL}"},
        {"command": "delete", "path": "/memories/clinic-archive/john-smith.md"},
        {"command": "delete", "path": f"/memories/patients/{EMAIL}.md"},
    ]  # fmt: skip


@pytest.mark.sqlite_only("reads or changes the home's audit log files")
def test_no_secret_reaches_the_log_or_the_operator_log(
    home: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Secrets and personal data through every command, every outcome: none in audit/ or logs."""
    caplog.set_level(logging.DEBUG, logger="memvault")
    with Vault.open(home) as v:
        tool = v.memory_tool(USER, session="conv-1")
        outcomes = set()
        for command in _secret_commands():
            try:
                tool.call(command)
                outcomes.add("ok")
            except ToolError:
                outcomes.add("error")
        assert outcomes == {"ok", "error"}
        # Failures the operator log reports, with secrets in the commands that met them.
        monkeypatch.setattr(memvault._fs, "write_all", _FailingWrite(errno.EIO))
        _refused(tool, {"command": "create", "path": f"/memories/{EMAIL}.md", "file_text": AWS})
        monkeypatch.setattr(memvault._fs, "write_all", _REAL_FS["write_all"])
        store = v._store
        real = store._db
        store._db = _FailingCommit(real)
        try:
            _refused(
                tool,
                {"command": "create", "path": "/memories/contacts/ops-2.md", "file_text": CARD},
                UNAVAILABLE_MESSAGE,
            )
        finally:
            store._db = real
        pseudonym = v.audit.keys.user(USER)
    assert cli(["--home", str(home), "audit", "verify"])[0] == 0
    raw = b"".join(snapshot(home / "audit").values())
    assert pseudonym.encode() in raw
    operator = caplog.text + "".join(r.getMessage() for r in caplog.records)
    assert "audit_failure" in operator and "command_failed" in operator
    for value in SECRETS + NAMES:
        for form in {value, value.lower(), value.upper()}:
            assert form.encode() not in raw, form
            assert form not in operator, form
    # Every record of the user's commands names them only by the pseudonym.
    users = {r["user"] for r in records(home / "audit")} - {None}
    assert users == {pseudonym}


def test_sealed_paths_open_only_with_the_users_key(home: Path) -> None:
    """The review side: a record's sealed paths open, under the user's key, to the guard's
    rendering of the paths (a secret in a refused path stays redacted)."""
    with Vault.open(home) as v:
        tool = v.memory_tool(USER)
        tool.call({"command": "create", "path": "/memories/contacts/ops-notes.md",
                   "file_text": "x"})  # fmt: skip
        _refused(
            tool,
            {"command": "create", "path": f"/memories/{EMAIL}/n.md", "file_text": "x"},
            "Error: The path /memories/[REDACTED:email]/n.md was refused: it contains an email. "
            "File and directory names must not carry secrets or personal data; choose another "
            "name.",
        )
        _, key = v.audit_users()[v.audit.keys.user(USER)]
        log = stores.records(home)
        assert [key.open_paths(r["paths"]) for r in log[-2:]] == [
            ["/memories/contacts/ops-notes.md"],
            ["/memories/[REDACTED:email]/n.md"],
        ]


# -- crypto-erasure -----------------------------------------------------------------------------


@pytest.mark.sqlite_only("reads or changes the store's rows with SQLite")
def test_a_deleted_users_row_is_refused_for_that_user_and_named_by_verify(built: Path) -> None:
    """A user's rows deleted outside memvault (their keys and memories go with them): the
    table no longer holds what the ledger counts, so the user is refused instead of started
    afresh with an empty namespace; the other user is served, and verify names it."""
    with contextlib.closing(sqlite3.connect(built / "vault.db")) as db:
        db.execute("PRAGMA foreign_keys = ON")
        first = db.execute("SELECT min(id) FROM users").fetchone()[0]  # alice: she came first
        db.execute("DELETE FROM users WHERE id = ?", (first,))
        db.commit()
    expected = (
        "the store holds 1 users, but its ledger counts 2: users were deleted or added "
        "outside memvault"
    )
    with Vault.open(built) as v:
        with pytest.raises(IntegrityError) as caught:
            v.memory_tool("alice")
        assert caught.value.message == f"the audit log and the store disagree: {expected}"
        assert v.memory_tool("bob").call({"command": "view", "path": "/memories"})
    code, out, _ = cli(["--home", str(built), "audit", "verify"])
    assert code == 1
    assert f"the store: {expected}" in out
