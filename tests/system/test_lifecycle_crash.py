"""The key lifecycle under SIGKILL: a data-key rotation, a master-key rotation and an
erasure killed anywhere leave a vault that opens, reads every memory, and is finished by
a re-run (or, for the last step of a master-key rotation, by the next open).

As in test_crash.py the work runs in children forked from one long-lived helper that
has already imported ``memvault`` and compiled the redaction policy, so a kill lands
inside the work itself. Kills come two ways: at named points installed in the child
(just before or after the COMMIT of the Nth transaction of a kind, after a key file is
written, around the replacement of the key file), and after random delays.

Every scenario starts from a copy of one seeded home: alice's few thousand small
memories (enough for many batches once the child shrinks ``BATCH_NODES``) and bob's.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import shutil
import signal
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from memvault import MasterKeyError, UsageError, Vault
from memvault import lifecycle as lc
from memvault.cli import main
from tests.support.forking import ForkingHelper
from tests.support.seeding import seed_home

pytestmark = pytest.mark.system

ALICE, BOB = "alice", "bob"
DIRS = 20
ALICE_TEXTS = {
    f"/memories/d{i % DIRS:02d}/n{i:04d}.md": f"note {i} of alice, kept for the rotation\n"
    for i in range(2000)
}
BOB_TEXTS = {f"/memories/b/n{i:03d}.md": f"note {i} of bob\nsecond line {i}\n" for i in range(60)}
ALICE_NODES = len(ALICE_TEXTS) + DIRS  # files and their directories
BATCH = 64  # the children's BATCH_NODES: 32 batches over alice's nodes
BATCHES = -(-ALICE_NODES // BATCH)
_SAMPLE = random.Random(11)  # which memories are also viewed through the tool

# Reads one JSON job per line, forks a child for it, passes on the child's lines, then
# says ``exit <wait status>``.
_HELPER = r"""
import json, os, signal, sys, time, traceback
from contextlib import contextmanager

import memvault._fs
from memvault import Vault
from memvault.lifecycle import _master, _rotate
from memvault.redaction import load
from memvault.store import SqliteStore

load()  # compiled once, here: each child's open then takes milliseconds


def say(text):
    os.write(1, (text + "\n").encode())


def die():
    os.kill(os.getpid(), signal.SIGKILL)


def install_kill_point(point):
    # [where, what, nth]: die at the nth time ``where`` meets ``what``.
    if point is None:
        return
    where, what, nth = point
    seen = [0]

    def hit():
        seen[0] += 1
        return seen[0] == nth

    if where in ("before_commit", "after_commit"):
        real = SqliteStore.transaction

        @contextmanager
        def transaction(self, *, write, action="running a command"):
            armed = write and action == what and hit()
            with real(self, write=write, action=action):
                yield
                if armed and where == "before_commit":
                    die()
            if armed:
                die()

        SqliteStore.transaction = transaction
    elif where == "after_write":
        real_write = memvault._fs.write_new

        def write_new(path, data, **options):
            made = real_write(path, data, **options)
            if str(path).endswith(what) and hit():
                die()
            return made

        memvault._fs.write_new = write_new
    elif where in ("before_replace", "after_replace"):
        real_replace = os.replace

        def replace(src, dst, *args, **kwargs):
            armed = str(src).endswith(what) and hit()
            if armed and where == "before_replace":
                die()
            real_replace(src, dst, *args, **kwargs)
            if armed:
                die()

        os.replace = replace
    else:
        raise ValueError(point)


def job_run(job):
    _rotate.BATCH_NODES = job["batch"]
    _rotate.BATCH_SECONDS = 3600.0  # batches of exactly BATCH_NODES, so kill points count them
    _master.BATCH_USERS = job["batch_users"]
    with Vault.open(job["home"], master_key_file=job["key_file"],
                    durability=job["durability"]) as v:
        install_kill_point(job["kill_at"])
        say("start %d" % os.getpid())
        began = time.perf_counter()
        if job["op"] == "rotate":
            v.rotate_user_key(job["user"], lambda count, size: say("batch %d" % count))
        elif job["op"] == "rotate_master":
            v.rotate_master_key()
        elif job["op"] == "erase":
            v.erase_user(job["user"])
        else:
            raise ValueError(job["op"])
        say("done %f" % (time.perf_counter() - began))
    return 0


JOBS = {"run": job_run}
"""


@pytest.fixture(scope="module")
def helper(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ForkingHelper]:
    h = ForkingHelper(_HELPER, tmp_path_factory.mktemp("helper") / "stderr")
    try:
        yield h
    finally:
        h.close()


@pytest.fixture(scope="module")
def seed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A home with alice's and bob's memories, and its key file: copied by each test."""
    return seed_home(tmp_path_factory.mktemp("seed"), {ALICE: ALICE_TEXTS, BOB: BOB_TEXTS})


class Home:
    """A copy of the seeded home and key file, and a copy of the key as it was."""

    def __init__(self, seed: tuple[Path, Path], where: Path) -> None:
        self.home = where / "home"
        self.key_file = where / "keys" / "vault.key"
        self.old_key = where / "old" / "vault.key"  # kept aside, as a stolen backup would be
        shutil.copytree(seed[0], self.home)
        for target in (self.key_file, self.old_key):
            target.parent.mkdir(mode=0o700)
            shutil.copy2(seed[1], target)

    def job(self, op: str, kill_at: list[Any] | None = None, **options: Any) -> dict[str, Any]:
        return {
            "kind": "run",
            "op": op,
            "home": str(self.home),
            "key_file": str(self.key_file),
            "user": ALICE,
            "kill_at": kill_at,
            "batch": BATCH,
            "batch_users": 200,
            "durability": "normal",
            **options,
        }

    def open(self) -> Vault:
        return Vault.open(self.home, master_key_file=self.key_file, durability="normal")

    def key_files(self) -> list[str]:
        return sorted(p.name for p in self.key_file.parent.iterdir())

    def rows(self, sql: str, *args: Any) -> list[Any]:
        with contextlib.closing(sqlite3.connect(self.home / "vault.db")) as db:
            return db.execute(sql, args).fetchall()

    def audit_verifies(self) -> None:
        """``memvault audit verify`` passes: every record in its place in the chain, every
        MAC good, the store bound to the log."""
        out, err = io.StringIO(), io.StringIO()
        argv = ["--home", str(self.home), "--master-key-file", str(self.key_file)]
        code = main([*argv, "audit", "verify"], out=out, err=err)
        assert (code, err.getvalue()) == (0, ""), out.getvalue()
        assert out.getvalue().startswith("audit log intact: "), out.getvalue()


def _killed(status: int) -> bool:
    return os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL


def _read(vault: Vault, user: str, texts: dict[str, str]) -> None:
    """The user's memories are exactly ``texts``: all of them read in one export (the
    tool's own decryption and checks, in one snapshot), and a sample through the tool."""
    out = vault.home.parent / "export.json"
    vault.export_memories(user, out, overwrite=True)
    document = json.loads(out.read_text(encoding="utf-8"))
    assert {m["path"]: m["text"] for m in document["memories"]} == texts, user
    runner = vault.runner(user)
    for path in _SAMPLE.sample(sorted(texts), 20):
        reply = runner.run({"command": "view", "path": path})
        assert not reply.is_error, (user, path, reply.content)
        head, _, body = reply.content.partition("\n")
        assert head == f"Here's the content of {path} with line numbers:", reply.content
        shown = "\n".join(row.split("\t", 1)[1] for row in body.split("\n"))
        assert shown == texts[path], (user, path)


def _versions(vault: Vault, user: str) -> dict[int, int]:
    """The user's data-key versions in ``keys list``, each with its memories."""
    entry = next(u for u in vault.key_report()["users"] if u["user"] == user)
    return {v["version"]: v["memories"] for v in entry["versions"]}


def _header_versions(h: Home, user_id: int) -> set[int]:
    """Every key version the user's nodes name: the column, and each ciphertext's header
    (format byte 1, then the version as 4 bytes big-endian)."""
    found: set[int] = set()
    rows = h.rows(
        "SELECT n.key_version, n.meta, n.touched, c.blob FROM nodes AS n"
        " LEFT JOIN contents AS c ON c.node_id = n.id WHERE n.user_id = ?",
        user_id,
    )
    for version, *blobs in rows:
        found.add(version)
        for blob in blobs:
            if blob is not None:
                assert blob[0] == 1, blob[:5]
                found.add(int.from_bytes(blob[1:5], "big"))
    return found


# -- a user's data-key rotation ------------------------------------------------------------


def _check_rotated(h: Home, vault: Vault, user_id: int, version: int) -> None:
    """One version holds all of alice's memories; the older ones are gone from the store
    and from every ciphertext; bob's keys were not touched; the store matches its log."""
    assert _versions(vault, ALICE) == {version: ALICE_NODES}
    assert _versions(vault, BOB) == {1: len(BOB_TEXTS) + 1}
    assert h.rows("SELECT version FROM data_keys WHERE user_id = ?", user_id) == [(version,)]
    assert _header_versions(h, user_id) == {version}


_ROTATE_POINTS = {
    # point: alice's versions and their memories just after the kill
    ("after_commit", "starting the key rotation", 1): {2: 0, 1: ALICE_NODES},
    ("before_commit", "running a command", 1): {2: 0, 1: ALICE_NODES},
    ("after_commit", "running a command", 1): {2: BATCH, 1: ALICE_NODES - BATCH},
    ("before_commit", "running a command", 17): {2: 16 * BATCH, 1: ALICE_NODES - 16 * BATCH},
    ("after_commit", "running a command", 17): {2: 17 * BATCH, 1: ALICE_NODES - 17 * BATCH},
    ("after_commit", "running a command", BATCHES): {2: ALICE_NODES, 1: 0},
    ("before_commit", "finishing the key rotation", 1): {2: ALICE_NODES, 1: 0},
    ("after_commit", "finishing the key rotation", 1): {2: ALICE_NODES},
}
# With fsync at every commit the kills land in other parts of the work: a few of the points.
_FULL_POINTS = [
    ("after_commit", "starting the key rotation", 1),
    ("after_commit", "running a command", 17),
    ("before_commit", "finishing the key rotation", 1),
]


@pytest.mark.parametrize("durability", ["normal", "full"])
def test_a_rotation_killed_at_each_step_is_finished_by_a_re_run(
    helper: ForkingHelper, seed: tuple[Path, Path], tmp_path: Path, durability: str
) -> None:
    """Killed after its start, before and after a batch's COMMIT (first, middle, last) and
    around its finish: every memory reads back, under the versions the kill left; a re-run
    finishes with one version holding everything and nothing left under the old one."""
    points = list(_ROTATE_POINTS) if durability == "normal" else _FULL_POINTS
    for n, point in enumerate(points):
        expected = _ROTATE_POINTS[point]
        h = Home(seed, tmp_path / str(n))
        lines, status = helper.run(h.job("rotate", list(point), durability=durability))
        assert _killed(status), (point, status, lines, helper.new_stderr())
        with h.open() as vault:
            assert _versions(vault, ALICE) == expected, point
            _read(vault, ALICE, ALICE_TEXTS)
            _read(vault, BOB, BOB_TEXTS)
            user_id, _ = lc.find_user(vault._parts(), ALICE)
            if len(expected) == 2:
                result = vault.rotate_user_key(ALICE)
                assert (result.version, result.resumed) == (2, True), point
            _check_rotated(h, vault, user_id, 2)
            _read(vault, ALICE, ALICE_TEXTS)
        h.audit_verifies()
    assert helper.new_stderr() == ""


def test_a_resumed_rotation_killed_again_is_finished_by_the_next_run(
    helper: ForkingHelper, seed: tuple[Path, Path], tmp_path: Path
) -> None:
    """A re-run killed in its turn picks up where the first run stopped, and the third
    run finishes: one new version, not a version per attempt."""
    h = Home(seed, tmp_path)
    for batches in (5, 5):
        kill = ["after_commit", "running a command", batches]
        lines, status = helper.run(h.job("rotate", kill))
        assert _killed(status), (status, lines, helper.new_stderr())
    with h.open() as vault:
        assert _versions(vault, ALICE) == {2: 10 * BATCH, 1: ALICE_NODES - 10 * BATCH}
        _read(vault, ALICE, ALICE_TEXTS)
    lines, status = helper.run(h.job("rotate"))
    assert status == 0, (lines, helper.new_stderr())
    assert len([line for line in lines if line.startswith("batch ")]) == BATCHES - 10
    with h.open() as vault:
        _check_rotated(h, vault, lc.find_user(vault._parts(), ALICE)[0], 2)
        _read(vault, ALICE, ALICE_TEXTS)
    h.audit_verifies()


def test_rotations_killed_at_random_instants_are_finished_by_re_runs(
    helper: ForkingHelper, seed: tuple[Path, Path], tmp_path: Path
) -> None:
    """Rotation after rotation of the same home, each killed after a random delay and
    finished by a re-run: every memory reads back after each kill, and each re-run leaves
    one version holding everything."""
    h = Home(seed, tmp_path)
    lines, status = helper.run(h.job("rotate", durability="full"))  # to time one
    assert status == 0 and lines[-1].startswith("done "), (lines, helper.new_stderr())
    duration = float(lines[-1].split()[1])
    rng = random.Random(2031)
    version, mid_way = 2, 0
    with h.open() as vault:
        user_id, _ = lc.find_user(vault._parts(), ALICE)
    for kill in range(14):
        job = h.job("rotate", durability="full" if kill % 2 else "normal")
        lines, status = helper.run(job, kill=(0, rng.uniform(0, 1.1 * duration)))
        assert _killed(status) or status == 0, (status, lines, helper.new_stderr())
        with h.open() as vault:
            found = _versions(vault, ALICE)
            assert set(found) <= {version, version + 1}, found
            assert sum(found.values()) == ALICE_NODES, found  # each node under one version
            if len(found) == 2 and all(found.values()):
                mid_way += 1
            _read(vault, ALICE, ALICE_TEXTS)
            if found != {version + 1: ALICE_NODES}:  # not finished before the kill
                vault.rotate_user_key(ALICE)
            version += 1
            _check_rotated(h, vault, user_id, version)
        h.audit_verifies()
    assert mid_way >= 4, "too few kills landed between two batches"
    with h.open() as vault:
        _read(vault, ALICE, ALICE_TEXTS)
        _read(vault, BOB, BOB_TEXTS)
    assert helper.new_stderr() == ""


# -- a master-key rotation with a key file -------------------------------------------------


def _check_master_done(h: Home, vault: Vault, generation: int) -> None:
    report = vault.key_report()["master"]
    assert (report["generation"], report["rotation"]) == (generation, None)
    assert h.key_files() == ["vault.key"]
    assert h.key_file.read_bytes() != h.old_key.read_bytes()


def _old_key_is_refused(h: Home) -> None:
    """The key file as it was before: it no longer opens the vault."""
    with pytest.raises(MasterKeyError, match="does not open vault"):
        Vault.open(h.home, master_key_file=h.old_key)


_MASTER_POINTS = {
    # point: (a rotation recorded as under way at the next open, settled by that open)
    ("after_write", ".next", 1): (False, False),
    ("after_commit", "starting the master-key rotation", 1): (True, False),
    ("after_commit", "re-wrapping keys", 1): (True, False),
    ("before_commit", "committing the master-key rotation", 1): (True, False),
    ("after_commit", "committing the master-key rotation", 1): (False, True),
    ("before_replace", ".next", 1): (False, True),
    ("after_replace", ".next", 1): (False, False),
}


def test_a_master_rotation_killed_at_each_step_is_finished(
    helper: ForkingHelper, seed: tuple[Path, Path], tmp_path: Path
) -> None:
    """Killed after ``<file>.next`` is written, after the rotation is recorded, between two
    users' re-wraps, before and after its COMMIT, and around the replacement of the key
    file: the vault opens with the key file and reads everything; a re-run (or the open,
    for the last step) finishes; one key file is left; the old key opens nothing."""
    for n, (point, (pending, settled_by_open)) in enumerate(_MASTER_POINTS.items()):
        h = Home(seed, tmp_path / str(n))
        job = h.job("rotate_master", list(point), batch_users=1, durability="full")
        lines, status = helper.run(job)
        assert _killed(status), (point, status, lines, helper.new_stderr())
        assert (h.key_file.with_name("vault.key.next").exists()) == (point[0] != "after_replace"), (
            point
        )
        with h.open() as vault:
            rotation = vault.key_report()["master"]["rotation"]
            assert (rotation is not None) == pending, (point, rotation)
            if settled_by_open:
                assert h.key_files() == ["vault.key"], point
            _read(vault, ALICE, ALICE_TEXTS)
            _read(vault, BOB, BOB_TEXTS)
            if h.key_files() != ["vault.key"] or rotation is not None:
                result = vault.rotate_master_key()
                assert (result.to_generation, result.resumed) == (2, pending), point
            _check_master_done(h, vault, 2)
        with h.open() as vault:
            _read(vault, BOB, BOB_TEXTS)
        _old_key_is_refused(h)
        h.audit_verifies()
    assert helper.new_stderr() == ""


def test_master_rotations_killed_at_random_instants_are_finished(
    helper: ForkingHelper, seed: tuple[Path, Path], tmp_path: Path
) -> None:
    """The same, killed after random delays: whatever step the kill lands in, the vault
    opens and reads everything, and a re-run leaves one key file and locks out the old."""
    h = Home(seed, tmp_path / "timing")
    lines, status = helper.run(h.job("rotate_master", durability="full", batch_users=1))
    assert status == 0 and lines[-1].startswith("done "), (lines, helper.new_stderr())
    duration = float(lines[-1].split()[1])
    rng = random.Random(77)
    outcomes: set[str] = set()
    for kill in range(14):
        h = Home(seed, tmp_path / str(kill))
        job = h.job("rotate_master", durability="full", batch_users=1)
        lines, status = helper.run(job, kill=(0, rng.uniform(0, 1.2 * duration)))
        assert _killed(status) or status == 0, (status, lines, helper.new_stderr())
        next_file = h.key_file.with_name("vault.key.next").exists()
        with h.open() as vault:
            report = vault.key_report()["master"]
            outcomes.add(
                "under way"
                if report["rotation"] is not None
                else f"generation {report['generation']}, next file {next_file}"
            )
            _read(vault, ALICE, ALICE_TEXTS)
            _read(vault, BOB, BOB_TEXTS)
            if report["generation"] == 1 or h.key_files() != ["vault.key"]:
                vault.rotate_master_key()  # killed before its commit, or before it began
            _check_master_done(h, vault, 2)
        _old_key_is_refused(h)
        h.audit_verifies()
    # Not before it began, not only after it ended: some kills landed inside the work.
    assert outcomes - {"generation 1, next file False", "generation 2, next file False"}, outcomes
    assert helper.new_stderr() == ""


# -- erasure -------------------------------------------------------------------------------


def _check_erased(h: Home, vault: Vault) -> None:
    assert vault.user_ids() == [BOB]
    assert h.rows("SELECT count(*) FROM users") == [(1,)]
    assert h.rows("SELECT count(*) FROM nodes") == [(len(BOB_TEXTS) + 1,)]
    _check_master_done(h, vault, 2)
    _read(vault, BOB, BOB_TEXTS)


def _erased_or_whole(vault: Vault) -> bool:
    """Alice is either whole (every memory reads back: True) or gone (False)."""
    users = vault.user_ids()
    assert BOB in users
    if ALICE in users:
        _read(vault, ALICE, ALICE_TEXTS)
        return True
    return False


def _finish_erasure(vault: Vault, present: bool) -> None:
    """Re-run the erasure; with alice gone and no rotation left to do it has nothing to
    finish, and says so."""
    if present or vault.key_report()["master"]["rotation"] is not None:
        result = vault.erase_user(ALICE)
        assert result.finished_only == (not present)
        assert result.memories == (ALICE_NODES if present else 0)
    else:
        with pytest.raises(UsageError, match="there is no such user"):
            vault.erase_user(ALICE)


_ERASE_POINTS = {
    # point: alice still there at the next open
    ("after_write", ".next", 1): True,
    ("after_commit", "starting the master-key rotation", 1): True,
    ("before_commit", "erasing the user", 1): True,
    ("after_commit", "erasing the user", 1): False,
    ("after_commit", "re-wrapping keys", 1): False,
    ("before_commit", "committing the master-key rotation", 1): False,
    ("after_commit", "committing the master-key rotation", 1): False,
    ("before_replace", ".next", 1): False,
}


def test_an_erasure_killed_at_each_step_is_finished_by_a_re_run(
    helper: ForkingHelper, seed: tuple[Path, Path], tmp_path: Path
) -> None:
    """Killed at each step: alice is whole or gone, never half; a re-run erases her for
    good (one key file, the old key opens nothing); bob's memories are all intact."""
    for n, (point, present) in enumerate(_ERASE_POINTS.items()):
        h = Home(seed, tmp_path / str(n))
        lines, status = helper.run(h.job("erase", list(point), batch_users=1))
        assert _killed(status), (point, status, lines, helper.new_stderr())
        with h.open() as vault:
            assert _erased_or_whole(vault) == present, point
            _read(vault, BOB, BOB_TEXTS)
            _finish_erasure(vault, present)
            _check_erased(h, vault)
        _old_key_is_refused(h)
        h.audit_verifies()
    assert helper.new_stderr() == ""


def test_erasures_killed_at_random_instants_are_finished_by_a_re_run(
    helper: ForkingHelper, seed: tuple[Path, Path], tmp_path: Path
) -> None:
    """The same, killed after random delays."""
    h = Home(seed, tmp_path / "timing")
    lines, status = helper.run(h.job("erase", durability="full", batch_users=1))
    assert status == 0 and lines[-1].startswith("done "), (lines, helper.new_stderr())
    duration = float(lines[-1].split()[1])
    rng = random.Random(5)
    seen: set[bool] = set()
    for kill in range(14):
        h = Home(seed, tmp_path / str(kill))
        job = h.job("erase", durability="full", batch_users=1)
        lines, status = helper.run(job, kill=(0, rng.uniform(0, duration)))
        assert _killed(status) or status == 0, (status, lines, helper.new_stderr())
        with h.open() as vault:
            present = _erased_or_whole(vault)
            seen.add(present)
            _read(vault, BOB, BOB_TEXTS)
            _finish_erasure(vault, present)
            _check_erased(h, vault)
        _old_key_is_refused(h)
        h.audit_verifies()
    assert seen == {True, False}, "the kills all landed on one side of the deletion"
    assert helper.new_stderr() == ""
