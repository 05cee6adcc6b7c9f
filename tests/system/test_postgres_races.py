"""Races on one PostgreSQL vault: many processes, each with its own ``Vault.open(dsn)``.

A helper process imports memvault once and forks a child per job, all at once
(``tests/support/forking.py``'s :class:`PlanHelper`), under one master key
(``$MEMVAULT_MASTER_KEY``). Children say what they do (``opened``, ``holding``,
``done`` ...); a gated child waits, once its vault is open, until the test says
``go``. A child that meets an error reply, or sees a torn tree, fails with a traceback
on stderr, which fails the test.

Afterwards every acknowledged write is there exactly, the log holds exactly one record
per command issued, in the process that issued it, it verifies chain by chain, the
store verifies against it, and ``check`` finds nothing.
"""

from __future__ import annotations

import base64
import collections
import json
import os
import random
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from memvault import Vault
from memvault.audit import DbAuditLog, Scan, chain_of
from memvault.store import PgStore
from tests.support.forking import PlanHelper

pytestmark = pytest.mark.system

USERS = [f"user-{n}" for n in range(6)]
SHARED = "/memories/shared.md"
WRITERS, ROUNDS = 16, 10
FILES = 2_000
MADE = ("vault.create", "policy.change")  # by whichever writer opened the vault first
WAIT = 60.0  # seconds before a wait counts as hung: a guard, never a measure

_SOURCE = r"""
import json, os, re, sys, time, traceback  # json, sys, traceback: for PLAN_LOOP
from memvault import Vault

TOKEN = re.compile(r"[\[<]p\d\d-i\d\d[\]>]")
NAMES = ("/memories/big", "/memories/moved")

def say(text):
    os.write(1, (text + "\n").encode())

def ok(reply):
    assert not reply.is_error, reply.content
    return reply.content

def writer(vault, job):
    for step in job["steps"]:
        if "operation" in step:
            vault.record_operation(step["operation"], details={"by": job["name"]})
        elif "new_user" in step:
            vault.runner(step["new_user"])
        elif "list" in step:
            assert {"user-0", "user-5"} <= {u.user for u in vault.users()}
        else:
            shown = ok(vault.runner(step["user"]).run(step["command"]))
            if step["command"]["command"] == "view":  # never a torn file
                rows = [row.split("\t", 1)[1] for row in shown.splitlines()[1:]]
                assert (rows[0], rows[-1]) == ("top", "") and len(set(rows)) == len(rows), rows
                assert all(TOKEN.fullmatch(row) for row in rows[1:-1]), rows

def checker(vault, job):  # all in one snapshot each, until the writers are done
    n = 0
    while n == 0 or not os.path.exists(job["stop"]):
        for found in (vault.check().problems, vault.verify_store(), vault.audit.examine().problems):
            assert found == [], [str(problem) for problem in found]
        n += 1
    say(f"checked {n}")

def renamer(vault, job):
    runner, done = vault.runner("big"), 0
    while not os.path.exists(job["stop"]):
        ok(runner.run({"command": "rename", "old_path": NAMES[done % 2],
                       "new_path": NAMES[(done + 1) % 2]}))
        done += 1
    say(f"renamed {done}")

def viewer(vault, job):  # under the user's lock, until it saw each name twice
    runner, seen = vault.runner("big"), [0, 0]
    while min(seen) < 2 and sum(seen) < 400:
        shown = ok(runner.run({"command": "view", "path": "/memories"}))
        assert shown in job["listings"], shown[:300]
        seen[job["listings"].index(shown)] += 1
    say(f"seen {seen[0]} {seen[1]}")

def exporter(vault, job):  # a snapshot, no lock, until it saw each name once
    seen = [0, 0]
    while min(seen) < 1 and sum(seen) < 60:
        vault.export_memories("big", job["out"], overwrite=True)
        paths = sorted(m["path"] for m in json.loads(open(job["out"]).read())["memories"])
        assert paths in job["paths"], paths[:3] + paths[-3:]
        seen[job["paths"].index(paths)] += 1
    say(f"exported {seen[0]} {seen[1]}")

def victim(vault, job):  # stops for good in its last command, its record appended
    runner, audit = vault.runner(job["user"]), vault.audit
    real = audit.record

    def holding(event, **kw):
        real(event, **kw)
        say("holding")
        time.sleep(3600)

    for n, step in enumerate(job["steps"]):
        if n == len(job["steps"]) - 1:
            audit.record = holding
        ok(runner.run(step))

def run(job):
    with Vault.open(job["dsn"]) as vault:
        say(f"opened {job['name']} {vault.vault_id}")
        if job.get("gated"):
            wait_gate()
        globals()[job["kind"]](vault, job)
    say(f"done {job['name']}")

JOBS = {kind: run for kind in ("writer", "checker", "renamer", "viewer", "exporter", "victim")}
"""


@pytest.fixture
def launch(tmp_path: Path) -> Iterator[Any]:
    """Starts a helper on a plan of jobs on a database; any helper still running at the
    end is killed with its children."""
    started: list[PlanHelper] = []

    def start(dsn: str, plan: list[dict[str, Any]]) -> PlanHelper:
        jobs = [{**job, "dsn": dsn} for job in plan]
        started.append(PlanHelper(_SOURCE, jobs, tmp_path / f"helper-{len(started)}"))
        return started[-1]

    yield start
    for helper in started:
        helper.kill()


@pytest.fixture
def db(pg_dsn: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """A migrated database with 4 chains (users share chains) and no vault yet; the
    fleet's master key in the environment."""
    monkeypatch.setenv("MEMVAULT_MASTER_KEY", base64.b64encode(os.urandom(32)).decode())
    store = PgStore(pg_dsn)
    try:
        store.migrate_schema(4)
    finally:
        store.close()
    return pg_dsn


def _ok(reply: Any) -> str:
    assert not reply.is_error, reply.content
    return str(reply.content)


def _assert_intact(vault: Vault, records: int | None = None) -> None:
    report = vault.audit.examine()  # type: ignore[union-attr]
    assert (report.problems, report.notes) == ([], [])
    if records is not None:
        assert report.records == records
    assert vault.verify_store() == []
    checked = vault.check()
    assert (checked.intact, checked.problems) == (True, [])


def _step(user: str, command: str, path: str = SHARED, **fields: Any) -> dict[str, Any]:
    return {"user": user, "command": {"command": command, "path": path, **fields}}


def _writer_steps(me: int) -> list[dict[str, Any]]:
    """Writer ``me``'s steps, from its seed: unique tokens inserted into (and some edited
    in) the shared files of random users, files of its own created, views; writers 0-3
    also create users and record operator actions in between."""
    rng, steps = random.Random(me), []
    for i in range(ROUNDS):
        user, token = rng.choice(USERS), f"[p{me:02d}-i{i:02d}]"
        steps.append(_step(user, "insert", insert_line=1, insert_text=token))
        if i % 2:
            edited = token.replace("[", "<").replace("]", ">")
            steps.append(_step(user, "str_replace", old_str=token, new_str=edited))
        own = f"/memories/p{me:02d}/f{i:02d}.md"
        steps.append(_step(rng.choice(USERS), "create", own, file_text=f"{token} own\n"))
        steps.append(_step(rng.choice(USERS), "view"))
        if me < 4 and i % 3 == 0:
            steps += [{"new_user": f"new-{me:02d}-{i}"}, {"operation": "test.race"}, {"list": 1}]
    return steps


def _expected(plans: dict[str, list[dict[str, Any]]]) -> tuple[dict[str, Any], Any]:
    """What the plans leave: each user's shared lines and files; each child's records."""
    shared: dict[str, list[str]] = {u: [] for u in USERS}
    files: dict[str, dict[str, str]] = {u: {} for u in USERS}
    records: dict[str, collections.Counter[str]] = {}
    for name, steps in plans.items():
        records[name] = collections.Counter()
        for step in steps:
            if "user" not in step:
                kind = "test.race" if "operation" in step else "users.list"
                records[name]["user.create" if "new_user" in step else kind] += 1
                continue
            command, user = step["command"], step["user"]
            records[name][command["command"]] += 1
            if command["command"] == "insert":
                shared[user].append(command["insert_text"])
            elif command["command"] == "str_replace":
                lines = shared[user]
                lines[lines.index(command["old_str"])] = command["new_str"]
            elif command["command"] == "create":
                files[user][command["path"]] = command["file_text"]
    return {"shared": shared, "files": files}, records


def _export(vault: Vault, user: str, where: Path) -> dict[str, str]:
    vault.export_memories(user, where, overwrite=True)
    document = json.loads(where.read_text())
    return {m["path"]: m["text"] for m in document["memories"]}


def test_sixteen_writers_on_overlapping_users_lose_nothing(
    db: str, launch: Any, tmp_path: Path
) -> None:
    """16 processes open the fresh vault at once (one vault is made), then insert, edit,
    create and view on 6 users' memories, some also creating users, listing them and
    recording operator actions in between: no error, no lost update, no torn file. A
    17th checks the vault, the store against the log, and the log, over and over
    meanwhile, and finds nothing: each reads one snapshot."""
    plans = {f"w{me:02d}": _writer_steps(me) for me in range(WRITERS)}
    jobs = [{"name": n, "kind": "writer", "gated": True, "steps": s} for n, s in plans.items()]
    stop = tmp_path / "stop"
    jobs.append({"name": "checker", "kind": "checker", "gated": True, "stop": str(stop)})
    helper = launch(db, jobs)
    assert len({w[2] for w in helper.expect("opened", WRITERS + 1)}) == 1
    with Vault.open(db) as vault:
        for user in USERS:
            _ok(vault.runner(user).run({"command": "create", "path": SHARED, "file_text": "top\n"}))
        helper.go()
        helper.expect("done", WRITERS)
        stop.touch()
        assert set(helper.finish(WRITERS + 1).values()) == {0}
        expected, by_child = _expected(plans)
        checked = int(next(w[1] for w in helper.said if w[0] == "checked"))
        by_child["checker"] = collections.Counter({"vault.check": checked})
        entries = list(Scan(vault))
        assert {e.outcome for e in entries} == {"ok"}
        for name, counts in by_child.items():
            pid = helper.pid(name)
            mine = [e.command for e in entries if e.pid == pid and e.command not in MADE]
            assert collections.Counter(mine) == counts
        total = sum(map(sum, map(dict.values, by_child.values())))
        assert sorted(e.command for e in entries if e.command in MADE) == sorted(MADE)
        assert len(entries) == total + 2 + 2 * len(USERS)  # + the users and their files
        _assert_intact(vault, len(entries))
        for user in USERS:
            found = _export(vault, user, tmp_path / f"{user}.json")
            lines = found.pop(SHARED).splitlines()
            assert lines[0] == "top"
            assert collections.Counter(lines[1:]) == collections.Counter(expected["shared"][user])
            assert found == expected["files"][user]


def _big_vault(db: str, home: Path) -> float:
    """The vault with user big's directory of FILES files, made the fast way: created in
    a home (SQLite, durability normal), then moved into the database; its seconds."""
    began = time.monotonic()
    with Vault.open(home, durability="normal") as vault:
        runner = vault.runner("big")
        _ok(runner.run({"command": "create", "path": "/memories/other.md", "file_text": "o"}))
        for n in range(FILES):
            path = f"/memories/big/f{n:04d}.md"
            _ok(runner.run({"command": "create", "path": path, "file_text": "x"}))
        vault.move_to(db)
    return time.monotonic() - began


def test_a_directory_of_two_thousand_files_moves_whole(
    db: str, launch: Any, tmp_path: Path
) -> None:
    """One process renames a directory of 2,000 files back and forth while three view
    the listing (under the user's lock) and one exports the user's memories (a snapshot,
    no lock): each sees all the files under one name or all under the other, always."""
    made_in = _big_vault(db, tmp_path / "home")
    names = ("/memories/big", "/memories/moved")
    with Vault.open(db) as vault:
        runner = vault.runner("big")
        listings = []
        for n in range(2):
            listings.append(_ok(runner.run({"command": "view", "path": "/memories"})))
            _ok(runner.run({"command": "rename", "old_path": names[n], "new_path": names[1 - n]}))
    paths = [
        sorted([f"{name}/f{n:04d}.md" for n in range(FILES)] + ["/memories/other.md"])
        for name in names
    ]
    assert [len(listing.splitlines()) for listing in listings] == [FILES + 4] * 2
    stop = tmp_path / "stop"
    jobs = [{"name": "renamer", "kind": "renamer", "stop": str(stop)}]
    jobs += [{"name": f"v{n}", "kind": "viewer", "listings": listings} for n in range(3)]
    jobs += [{"name": "x", "kind": "exporter", "paths": paths, "out": str(tmp_path / "x.json")}]
    helper = launch(db, jobs)
    helper.go()
    helper.expect("done", 4)  # the readers: the renamer goes on until it is stopped
    stop.touch()
    assert set(helper.finish(len(jobs)).values()) == {0}
    renamed = int(next(w[1] for w in helper.said if w[0] == "renamed"))
    views = [list(map(int, w[1:])) for w in helper.said if w[0] == "seen"]
    exported = [list(map(int, w[1:])) for w in helper.said if w[0] == "exported"]
    assert len(views) == 3 and all(min(v) >= 2 for v in views), views
    assert len(exported) == 1 and min(exported[0]) >= 1, exported
    with Vault.open(db) as vault:
        shown = _ok(vault.runner("big").run({"command": "view", "path": "/memories"}))
        assert shown == listings[renamed % 2]
        commands = collections.Counter(e.command for e in Scan(vault) if e.outcome == "ok")
        assert commands["rename"] == 2 + renamed
        assert commands["view"] == 3 + sum(map(sum, views))
        assert commands["users.export"] == sum(exported[0])
        _assert_intact(vault)
    print(f"2,000 files made and moved in {made_in:.1f} s; {renamed} renames")


def _advisory(db: str) -> list[tuple[bool, str]]:
    """(granted, the holder's session state) of each advisory lock asked for in ``db``."""
    with psycopg.connect(db, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT l.granted, a.state FROM pg_locks l JOIN pg_stat_activity a USING (pid)"
            " WHERE l.locktype = 'advisory' AND l.database = (SELECT oid FROM pg_database"
            " WHERE datname = current_database()) ORDER BY 1, 2"
        ).fetchall()
    return [(bool(granted), str(state)) for granted, state in rows]


def _until(what: Any, expected: Any) -> None:
    """Wait until ``what()`` returns ``expected`` (a guard against a hang, not a measure)."""
    deadline = time.monotonic() + WAIT
    while (found := what()) != expected:
        assert time.monotonic() < deadline, found
        time.sleep(0.02)


def _line(text: str) -> dict[str, Any]:
    return {"insert_line": 1, "insert_text": text}


def _waiter(name: str, steps: list[dict[str, Any]]) -> dict[str, Any]:
    return {"name": name, "kind": "writer", "gated": True, "steps": steps}


def _rows(vault: Vault, user: str, command: dict[str, Any] | None = None) -> list[str]:
    """The user's shared file, line by line, after ``command`` if one is given."""
    runner = vault.runner(user)
    if command is not None:
        _ok(runner.run(command))
    shown = _ok(runner.run({"command": "view", "path": SHARED}))
    return [row.split("\t", 1)[1] for row in shown.splitlines()[1:]]


def _three_users(vault: Vault) -> tuple[str, str, str]:
    """A user, another in the same chain, and one in another chain."""
    audit = vault.audit
    assert isinstance(audit, DbAuditLog)
    chain = {f"u{n}": chain_of(audit.keys.user(f"u{n}"), audit.chains) for n in range(64)}
    same = [u for u in chain if chain[u] == chain["u0"]]
    other = next(u for u in chain if chain[u] != chain["u0"])
    return "u0", same[1], other


def test_a_writer_killed_holding_its_chain_blocks_others_only_until_it_dies(
    db: str, launch: Any
) -> None:
    """A writer stops inside its transaction, its record appended, its chain's lock held:
    a user of another chain writes meanwhile; a user of its chain, and an operator
    action (the whole vault's lock), wait. SIGKILL: the server ends the dead client's
    session and its transaction, the waiters go on, the log holds together, and the
    killed command left nothing."""
    with Vault.open(db) as vault:
        victim, same, other = _three_users(vault)
        for user in (victim, same, other):
            _ok(vault.runner(user).run({"command": "create", "path": SHARED, "file_text": "top"}))
        waiters = launch(
            db,
            [
                _waiter("same", [_step(same, "insert", **_line("[s]"))]),
                _waiter("operator", [{"operation": "test.race"}, {"new_user": "late"}]),
            ],
        )
        waiters.expect("opened", 2)
        inserts = [{"command": "insert", "path": SHARED, **_line(f"[v{n}]")} for n in range(6)]
        killed = launch(
            db, [{"name": "victim", "kind": "victim", "user": victim, "steps": inserts}]
        )
        killed.expect("holding", 1)
        assert _advisory(db) == [(True, "idle in transaction")] * 2  # the vault's, the chain's
        assert _rows(vault, other, inserts[0]) == ["top", "[v0]", ""]
        waiters.go()
        _until(lambda: [granted for granted, _ in _advisory(db)].count(False), 2)
        assert [w for w in waiters.said if w[0] == "done"] == []
        os.kill(killed.pid("victim"), signal.SIGKILL)
        assert killed.finish(1) == {"victim": signal.SIGKILL}
        assert waiters.finish(2) == {"same": 0, "operator": 0}
        assert _advisory(db) == []
        assert _rows(vault, victim) == ["top", "[v4]", "[v3]", "[v2]", "[v1]", "[v0]", ""]
        assert _rows(vault, same) == ["top", "[s]", ""]
        entries = list(Scan(vault))
        by_victim = [e.command for e in entries if e.pid == killed.pid("victim")]
        assert by_victim == ["insert"] * 5
        _assert_intact(vault, len(entries))
