"""Crash atomicity: a process killed with SIGKILL never leaves a command half applied.

The children are forked from one long-lived helper process that has already
imported ``vault`` (importing the SDK costs about a second, forking costs
nothing), so a kill lands inside the work itself and many kills fit in a few
seconds. Every child is a separate process: it opens its own database
connection, and nothing it holds survives the kill.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import random
import re
import signal
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from memvault import Vault
from tests.support.forking import ForkingHelper

pytestmark = pytest.mark.system

USER = "crash-test"
_HOME_FILES = {"vault.db", "vault.db-wal", "vault.db-shm"}
_AUDIT_FILE = re.compile(r"audit(/\.lock|/\.reserve|/audit-\d{6}\.jsonl)?")
_ENV_KEY = base64.b64encode(b"memvault-crash-test-key-32-bytes").decode()

# The helper: reads one JSON job per line, forks a child for it, reports the
# child's lines as they come and then ``exit <wait status>``.
_HELPER = r"""
import json, os, signal, sys, time, traceback

from anthropic.lib.tools import ToolError

import memvault._fs
import memvault._vault
from memvault import Vault
from memvault.store import SqliteStore


def say(text):
    os.write(1, (text + "\n").encode())


def die():
    os.kill(os.getpid(), signal.SIGKILL)


def install_kill_point(point):
    if point is None:
        return
    if point == "before_key_link":
        def link(src, dst, *args, **kwargs):
            die()
        os.link = link
    elif point == "after_key_link":
        real_link = os.link
        def link(src, dst, *args, **kwargs):
            real_link(src, dst, *args, **kwargs)
            die()
        os.link = link
    elif point == "after_key_file":
        real_write = memvault._fs.write_new
        def write(path, data, **options):
            real_write(path, data, **options)
            die()
        memvault._fs.write_new = write
    elif point == "before_commit":
        real_set = SqliteStore.set_meta
        def set_meta(self, key, value):
            real_set(self, key, value)
            if key == "key_check":
                die()
        SqliteStore.set_meta = set_meta
    elif point == "after_commit":
        real_open = memvault._vault.open_keys
        def open_keys(store, home, chosen):
            unlocked = real_open(store, home, chosen)
            say("opened " + unlocked.master.vault_id)
            die()
        memvault._vault.open_keys = open_keys
    else:
        raise ValueError(point)


def job_exec(job):
    with open(job["commands"], encoding="utf-8") as fh:
        commands = json.load(fh)
    say("start %d" % os.getpid())
    with Vault.open(job["home"], durability=job["durability"]) as v:
        tool = v.memory_tool(job["user"])
        for i in range(job["start"], len(commands)):
            try:
                tool.call(commands[i])
            except ToolError as exc:
                say("err %d %s" % (i, json.dumps(exc.content)))
                return 3
            say("ok %d" % i)
    say("done")
    return 0


def job_first_open(job):
    install_kill_point(job.get("kill_at"))
    say("start %d" % os.getpid())
    began = time.perf_counter()
    with Vault.open(job["home"]) as v:
        say("opened " + v.vault_id)
        v.memory_tool(job["user"]).call(
            {"command": "create", "path": "/memories/hello.txt", "file_text": "hello\n"}
        )
        say("wrote")
    say("done %f" % (time.perf_counter() - began))
    return 0


JOBS = {"exec": job_exec, "first_open": job_first_open}
"""


@pytest.fixture(scope="module")
def helper(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ForkingHelper]:
    h = ForkingHelper(_HELPER, tmp_path_factory.mktemp("helper") / "stderr")
    try:
        yield h
    finally:
        h.close()


def _killed(status: int) -> bool:
    return os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL


def _assert_home_clean(home: Path, *, killed: bool = False) -> None:
    """Only the database and its WAL files: no temp files, no stray directories.

    Right after a kill SQLite's own rollback journal may be there too: a new
    database is switched to WAL mode through it. The next open rolls it back.
    """
    allowed = _HOME_FILES | ({"vault.db-journal"} if killed else set())
    found = sorted(
        name for p in home.rglob("*") if not _AUDIT_FILE.fullmatch(name := str(p.relative_to(home)))
    )
    assert set(found) <= allowed, found


def _integrity_ok(home: Path) -> None:
    with contextlib.closing(sqlite3.connect(f"file:{home / 'vault.db'}?mode=ro", uri=True)) as db:
        assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    with Vault.open(home) as vault:  # every tally and count, after the kills
        report = vault.check()
        assert report.intact, report.problems


# -- a deterministic script of writes and the state after each step --------------

State = dict[str, str | None]  # path -> file text, or None for a directory


def _parents(path: str) -> list[str]:
    parts = path.split("/")[2:-1]
    return ["/memories/" + "/".join(parts[: i + 1]) for i in range(len(parts))]


def _depth(path: str) -> int:
    return path.count("/") - 1


def _under(path: str, top: str) -> bool:
    return path == top or path.startswith(top + "/")


def _apply(state: State, cmd: dict[str, Any]) -> None:
    """The memory commands' effect, as the protocol describes it."""
    name = cmd["command"]
    if name == "create":
        for d in _parents(cmd["path"]):
            state.setdefault(d, None)
        state[cmd["path"]] = cmd["file_text"]
    elif name == "str_replace":
        text = state[cmd["path"]]
        assert text is not None and text.count(cmd["old_str"]) == 1
        state[cmd["path"]] = text.replace(cmd["old_str"], cmd["new_str"])
    elif name == "insert":
        text = state[cmd["path"]]
        assert text is not None and text.endswith("\n")
        lines = text.split("\n")[:-1]
        offset = sum(len(s) + 1 for s in lines[: cmd["insert_line"]])
        state[cmd["path"]] = text[:offset] + cmd["insert_text"] + "\n" + text[offset:]
    elif name == "rename":
        old, new = cmd["old_path"], cmd["new_path"]
        for d in _parents(new):
            state.setdefault(d, None)
        for path in sorted(p for p in state if _under(p, old)):
            state[new + path[len(old) :]] = state.pop(path)
    elif name == "delete":
        for path in [p for p in state if _under(p, cmd["path"])]:
            del state[path]
    else:
        raise AssertionError(name)


def _place(rng: random.Random, dirs: list[str], step: int, leaf: str) -> str:
    """A path for a new file: at the top, in an existing directory or in a new one."""
    parent = rng.choice(["/memories"] + [d for d in dirs if _depth(d) <= 2])
    if rng.random() < 0.2 and _depth(parent) < 2:
        parent = f"{parent}/d{step}"
    return f"{parent}/{leaf}"


def _script(seed: int, steps: int) -> tuple[list[dict[str, Any]], list[State]]:
    """Commands whose every step leaves a different, recognisable state.

    A file's first line is ``<v{step}>``, the step that created or last
    replaced it; inserted lines and new names carry their step number too.
    """
    rng = random.Random(seed)
    state: State = {}
    states: list[State] = [{}]
    commands: list[dict[str, Any]] = []
    for step in range(steps):
        files = sorted(p for p, v in state.items() if v is not None)
        dirs = sorted(p for p, v in state.items() if v is None)

        weights = {
            "create": 30 if len(files) < 40 else 5,
            "str_replace": 20 if files else 0,
            "insert": 20 if files else 0,
            "rename_file": 10 if files else 0,
            "rename_dir": 8 if dirs else 0,
            "delete_file": (7 if len(files) < 30 else 25) if files else 0,
            "delete_dir": 3 if dirs else 0,
        }
        op = rng.choices(list(weights), weights=list(weights.values()))[0]
        if op == "create":
            pad = "".join(f"pad {step} {i:03d} {'x' * 40}\n" for i in range(rng.randint(0, 30)))
            cmd: dict[str, Any] = {
                "command": "create",
                "path": _place(rng, dirs, step, f"f{step}.txt"),
                "file_text": f"<v{step}>\n{pad}",
            }
        elif op == "str_replace":
            path = rng.choice(files)
            text = state[path]
            assert text is not None
            header = text[: text.index(">") + 1]
            cmd = {"command": "str_replace", "path": path, "old_str": header}
            cmd["new_str"] = f"<v{step}>"
        elif op == "insert":
            path = rng.choice(files)
            text = state[path]
            assert text is not None
            cmd = {
                "command": "insert",
                "path": path,
                "insert_line": rng.randint(0, text.count("\n")),
                "insert_text": f"ins {step}",
            }
        elif op == "rename_file":
            path = rng.choice(files)
            cmd = {
                "command": "rename",
                "old_path": path,
                "new_path": _place(rng, dirs, step, f"r{step}.txt"),
            }
        elif op == "rename_dir":
            path = rng.choice(dirs)
            height = max(_depth(p) for p in state if _under(p, path)) - _depth(path)
            options = ["/memories"] + [
                d for d in dirs if not _under(d, path) and _depth(d) + height < 3
            ]
            cmd = {
                "command": "rename",
                "old_path": path,
                "new_path": f"{rng.choice(options)}/D{step}",
            }
        elif op == "delete_file":
            cmd = {"command": "delete", "path": rng.choice(files)}
        else:
            cmd = {"command": "delete", "path": rng.choice(dirs)}
        _apply(state, cmd)
        assert state != states[-1]
        commands.append(cmd)
        states.append(dict(state))
    return commands, states


def _snapshot(home: Path) -> State:
    """Everything the user can see in the vault, read through the memory tool."""
    state: State = {}
    with Vault.open(home) as v:
        tool = v.memory_tool(USER)
        todo = ["/memories"]
        viewed: set[str] = set()
        while todo:
            directory = todo.pop()
            viewed.add(directory)
            listing = tool.call({"command": "view", "path": directory}).split("\n")
            assert listing[0].startswith("Here're the files and directories")
            for row in listing[2:]:
                path = row.split("\t", 1)[1]
                if path.endswith("/"):
                    path = path[:-1]
                    state[path] = None
                    if path not in viewed:
                        todo.append(path)
                else:
                    state[path] = ""
        for path in [p for p, v in state.items() if v is not None]:
            shown = tool.call({"command": "view", "path": path}).split("\n")
            assert shown[0] == f"Here's the content of {path} with line numbers:"
            state[path] = "\n".join(row.split("\t", 1)[1] for row in shown[1:])
    return state


def test_sigkill_never_tears_a_command(
    helper: ForkingHelper, home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After SIGKILL at random moments the vault holds exactly the state after a whole step."""
    monkeypatch.setenv("MEMVAULT_MASTER_KEY", _ENV_KEY)
    commands, states = _script(seed=1808, steps=3000)
    script = tmp_path / "commands.json"
    script.write_text(json.dumps(commands), encoding="utf-8")
    Vault.open(home).close()
    rng = random.Random(4242)
    applied = 0  # steps the vault is known to hold
    for kill in range(22):
        # Some kills land while the vault is being opened, the others anywhere in the
        # commands that follow a random number of confirmed ones.
        when = (
            (0, rng.uniform(0, 0.01))
            if kill % 4 == 0
            else (rng.randint(1, 120), rng.uniform(0, 0.004))
        )
        job = {
            "kind": "exec",
            "home": str(home),
            "user": USER,
            "commands": str(script),
            # Without fsync at commit the kills land in other parts of a command.
            "durability": "full" if kill % 2 else "normal",
        }
        lines, status = helper.run({**job, "start": applied}, kill=when)
        assert _killed(status), (kill, status, lines[-3:], helper.new_stderr())
        confirmed = applied
        for line in lines:
            assert line.startswith("ok "), line
            assert int(line.split()[1]) == confirmed
            confirmed += 1
        _assert_home_clean(home, killed=True)
        observed = _snapshot(home)
        if observed == states[confirmed]:
            applied = confirmed
        else:
            # The command running at the kill may have committed before it was confirmed.
            assert confirmed + 1 < len(states)
            assert observed == states[confirmed + 1], (
                f"kill {kill}: the vault is in no state between step {confirmed} and the next; "
                f"next command: {commands[confirmed]}; "
                f"unexpected: {sorted(set(observed.items()) ^ set(states[confirmed].items()))}"
            )
            applied = confirmed + 1
    assert applied >= 100, "the kills came too early to exercise the commands"
    assert helper.new_stderr() == ""
    _integrity_ok(home)
    _assert_home_clean(home)


def test_sigkill_during_first_open_leaves_a_usable_home(
    helper: ForkingHelper, tmp_path: Path
) -> None:
    """A first open killed at a random moment leaves a home that opens, with any vault it made."""
    keys = tmp_path / "config" / "memvault" / "keys"
    lines, status = helper.run(
        {"kind": "first_open", "home": str(tmp_path / "calibrate"), "user": USER}
    )
    assert status == 0 and lines[-1].startswith("done "), (lines, helper.new_stderr())
    duration = float(lines[-1].split()[1])
    rng = random.Random(99)
    for kill in range(16):
        home = tmp_path / f"home{kill}"
        job = {"kind": "first_open", "home": str(home), "user": USER}
        lines, status = helper.run(job, kill=(0, rng.uniform(0, 1.3 * duration)))
        assert _killed(status) or status == 0, (status, lines, helper.new_stderr())
        _assert_home_clean(home, killed=True)
        created = [line.split()[1] for line in lines if line.startswith("opened ")]
        with Vault.open(home) as v:
            if created:
                assert v.vault_id == created[0]
            assert (keys / f"{v.vault_id}.key").is_file()
            tool = v.memory_tool(USER)
            if "wrote" in lines:
                assert tool.call({"command": "view", "path": "/memories/hello.txt"}).endswith(
                    "     1\thello\n     2\t"
                )
            tool.call({"command": "create", "path": "/memories/after.txt", "file_text": "x"})
        with Vault.open(home) as v:
            assert v.memory_tool(USER).call({"command": "view", "path": "/memories/after.txt"})
        _integrity_ok(home)
        _assert_home_clean(home)
    assert helper.new_stderr() == ""


@pytest.mark.parametrize(
    ("point", "key_mode"),
    [
        ("before_key_link", "default"),
        ("after_key_link", "default"),
        ("after_key_file", "default"),
        ("before_commit", "default"),
        ("after_commit", "default"),
        ("before_key_link", "explicit"),
        ("after_key_link", "explicit"),
        ("after_key_file", "explicit"),
        ("before_commit", "explicit"),
        ("after_commit", "explicit"),
        ("before_commit", "environment"),
        ("after_commit", "environment"),
    ],
)
def test_sigkill_at_each_step_of_vault_creation(
    helper: ForkingHelper,
    home: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    point: str,
    key_mode: str,
) -> None:
    """A first open killed at each step of creating the vault and its key leaves a usable home."""
    if key_mode == "explicit":
        key_file = tmp_path / "keys" / "master.key"
        monkeypatch.setenv("MEMVAULT_MASTER_KEY_FILE", str(key_file))
    elif key_mode == "environment":
        monkeypatch.setenv("MEMVAULT_MASTER_KEY", _ENV_KEY)
    lines, status = helper.run(
        {"kind": "first_open", "home": str(home), "user": USER, "kill_at": point}
    )
    assert _killed(status), (status, lines, helper.new_stderr())
    assert helper.new_stderr() == ""
    _assert_home_clean(home, killed=True)
    created = [line.split()[1] for line in lines if line.startswith("opened ")]
    assert bool(created) == (point == "after_commit")
    with Vault.open(home) as v:
        if created:
            assert v.vault_id == created[0]
        if key_mode == "explicit":
            assert key_file.is_file()
        elif key_mode == "default":
            assert (tmp_path / "config" / "memvault" / "keys" / f"{v.vault_id}.key").is_file()
        tool = v.memory_tool(USER)
        tool.call({"command": "create", "path": "/memories/a.txt", "file_text": "a\n"})
    with Vault.open(home) as v:
        assert v.memory_tool(USER).call({"command": "view", "path": "/memories/a.txt"})
    _integrity_ok(home)
    _assert_home_clean(home)
