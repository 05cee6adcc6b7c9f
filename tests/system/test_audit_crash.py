"""The audit log under SIGKILL and under several processes at once.

As in test_crash.py, the processes are forked from one long-lived helper that
has already imported ``vault``, so a kill lands inside the work itself. Each
forked child opens its own vault; nothing it holds survives the kill.
"""

from __future__ import annotations

import collections
import contextlib
import io
import itertools
import json
import os
import random
import re
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from anthropic.lib.tools import ToolError

from memvault import Vault
from memvault.audit import FIELDS, examine
from memvault.cli import main
from tests.support.forking import ForkingHelper

pytestmark = pytest.mark.system

USER = "crash-user"

# Reads one JSON job per line, forks a child for it, passes on the child's lines,
# then says ``exit <wait status>``.
_HELPER = r"""
import json, os, random, signal, sys, time, traceback
from contextlib import contextmanager

from anthropic.lib.tools import ToolError

from memvault import Vault
from memvault.store import SqliteStore


def say(text):
    os.write(1, (text + "\n").encode())


def job_stream(job):
    commands = job["commands"]
    with Vault.open(job["home"]) as v:
        tool = v.memory_tool(job["user"])
        say("start %d" % os.getpid())
        for i in range(job["start"], len(commands)):
            try:
                tool.call(commands[i])
            except ToolError as exc:
                say("err %d %s" % (i, json.dumps(exc.content)))
                return 3
            say("ok %d" % i)
    say("done")
    return 0


def job_kill_before_commit(job):
    real = SqliteStore.transaction
    armed = []

    @contextmanager
    def transaction(self, *, write, action="running a command"):
        with real(self, write=write, action=action):
            yield
            if write and armed:
                os.kill(os.getpid(), signal.SIGKILL)  # the record is written, COMMIT is next

    SqliteStore.transaction = transaction
    with Vault.open(job["home"]) as v:
        tool = v.memory_tool(job["user"])
        say("start %d" % os.getpid())
        tool.call(job["before"])
        say("ok")
        armed.append(True)
        tool.call(job["killed"])
    say("survived")
    return 0


def work(tool, me, n, halfway=lambda: None):
    ran = 0
    for j in range(n):
        if j == n // 2:
            halfway()
        step = j % 4
        if step == 0:
            cmd = {"command": "create", "path": f"/memories/p{me}/f{j}.md", "file_text": f"{j}\n"}
        elif step == 1:
            cmd = {"command": "view", "path": f"/memories/p{me}/f{j - 1}.md"}
        elif step == 2:
            cmd = {"command": "insert", "path": "/memories/shared.md", "insert_line": 0,
                   "insert_text": f"p{me}:{j}"}
        else:
            cmd = {"command": "view", "path": "/memories/shared.md"}
        tool.call(cmd)
        ran += 1
        # A pause, as a real client makes between calls: without one, the process that
        # just released the locks takes them again before a waiting one wakes.
        time.sleep(random.random() * 0.002)
    return ran


def job_workers(job):
    say("start %d" % os.getpid())
    go_r, go_w = os.pipe()
    # A second barrier halfway: every worker waits there until all have reached it, so the
    # log shows them interleaved whatever the scheduler does with the first half.
    mid_r, mid_w = os.pipe()
    on_r, on_w = os.pipe()
    pids = []
    for me in range(job["procs"]):
        pid = os.fork()
        if pid == 0:
            os.close(go_w)
            os.close(on_w)
            os.close(mid_r)

            def halfway():
                os.write(mid_w, b"x")
                os.close(mid_w)  # a worker that dies instead closes it too: no one hangs
                os.read(on_r, 1)  # EOF once the parent closes the write end

            code = 0
            try:
                with Vault.open(job["home"]) as v:
                    tool = v.memory_tool(job["user"])
                    os.read(go_r, 1)  # EOF once every copy of the write end is closed: go
                    ran = work(tool, me, job["n"], halfway)
                say("ran %d %d" % (os.getpid(), ran))
            except BaseException:
                traceback.print_exc()
                code = 1
            sys.stderr.flush()
            os._exit(code)
        pids.append(pid)
    os.close(go_r)
    os.close(go_w)
    os.close(mid_w)
    os.close(on_r)
    arrived = 0
    while arrived < job["procs"]:
        got = os.read(mid_r, job["procs"])
        if not got:
            break  # a worker died before halfway: the waits below report it
        arrived += len(got)
    os.close(on_w)
    os.close(mid_r)
    failed = 0
    for pid in pids:
        _, status = os.waitpid(pid, 0)
        failed += status != 0
    return 1 if failed else 0


JOBS = {"stream": job_stream, "kill_before_commit": job_kill_before_commit,
        "workers": job_workers}
"""


@pytest.fixture(scope="module")
def helper(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ForkingHelper]:
    h = ForkingHelper(_HELPER, tmp_path_factory.mktemp("audit-helper") / "stderr")
    try:
        yield h
    finally:
        h.close()


def _killed(status: int) -> bool:
    return os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL


def cli(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def log_lines(home: Path) -> list[bytes]:
    """Every line of the log, checked to be a whole line."""
    out = []
    for path in sorted((home / "audit").glob("audit-*.jsonl")):
        data = path.read_bytes()
        assert data.endswith(b"\n"), path
        out += data.split(b"\n")[:-1]
    return out


def log_records(home: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log_lines(home)]


# -- a script of writes, each leaving a state no other step leaves ------------------------

State = dict[str, str]


def _script(seed: int, steps: int) -> tuple[list[dict[str, Any]], list[State]]:
    """Commands (a read after each write) and the state after each number of writes."""
    rng = random.Random(seed)
    state: State = {}
    states: list[State] = [{}]
    commands: list[dict[str, Any]] = []
    for step in range(steps):
        files = sorted(state)
        op = "create" if len(files) < 3 else rng.choice(
            ["create", "str_replace", "insert", "rename", "delete"]
        )  # fmt: skip
        target = rng.choice(files) if files else ""
        if op == "create":
            path = f"/memories/f{step}.md"
            cmd = {"command": "create", "path": path, "file_text": f"<v{step}>\n"}
            state[path] = cmd["file_text"]
        elif op == "str_replace":
            marker = state[target][state[target].index("<v") :].split(">")[0] + ">"
            cmd = {"command": "str_replace", "path": target, "old_str": marker,
                   "new_str": f"<v{step}>"}  # fmt: skip
            state[target] = state[target].replace(marker, f"<v{step}>")
        elif op == "insert":
            cmd = {"command": "insert", "path": target, "insert_line": 0,
                   "insert_text": f"i{step}"}  # fmt: skip
            state[target] = f"i{step}\n" + state[target]
        elif op == "rename":
            path = f"/memories/r{step}.md"
            cmd = {"command": "rename", "old_path": target, "new_path": path}
            state[path] = state.pop(target)
        else:
            cmd = {"command": "delete", "path": target}
            del state[target]
        commands.append(cmd)
        states.append(dict(state))
        commands.append({"command": "view", "path": "/memories"})
    return commands, states


def _read_state(tool: Any) -> State:
    listing = tool.call({"command": "view", "path": "/memories"}).split("\n")[1:]
    paths = [line.split("\t", 1)[1] for line in listing]
    state = {}
    for path in paths:
        if path == "/memories":
            continue
        shown = tool.call({"command": "view", "path": path}).split("\n")[1:]
        state[path] = "\n".join(line.split("\t", 1)[1] for line in shown)
    return state


def _paths(command: dict[str, Any]) -> list[str]:
    return [command[f] for f in ("path", "old_path", "new_path") if f in command]


def test_sigkill_at_random_points_leaves_a_verifiable_log(
    helper: ForkingHelper, home: Path
) -> None:
    """Kill a stream of commands anywhere, several times: verify passes (with notes at most),
    and the log's applied write records are exactly the changes the vault holds."""
    rng = random.Random(4711)
    commands, states = _script(seed=99, steps=120)
    writes_before = [(i + 1) // 2 for i in range(len(commands) + 1)]  # writes in commands[:i]
    with Vault.open(home) as v:
        v.memory_tool(USER)
    start, kills, applied, notes = 0, 0, 0, []
    for _ in range(8):
        job = {"kind": "stream", "home": str(home), "user": USER, "commands": commands}
        helper.send({**job, "start": start})
        first = helper.line()
        assert first.startswith("start "), (first, helper.new_stderr())
        oks: list[int] = []
        wanted = rng.randint(1, 10)
        while len(oks) < wanted:
            line = helper.line()
            assert line.startswith("ok "), (line, helper.new_stderr())
            oks.append(int(line.split()[1]))
        time.sleep(rng.random() * 0.004)
        with contextlib.suppress(ProcessLookupError):
            os.kill(int(first.split()[1]), signal.SIGKILL)
        while not (line := helper.line()).startswith("exit "):
            assert line.startswith("ok "), (line, helper.new_stderr())
            oks.append(int(line.split()[1]))
        assert _killed(int(line.split()[1])), helper.new_stderr()
        kills += 1

        before = {p.name: p.read_bytes() for p in (home / "audit").glob("audit-*.jsonl")}
        with Vault._open(home, audit_problems=[]) as ro:
            report = examine(
                ro.audit.directory,
                ro.audit.keys,
                anchor=ro.audit.store_head(),
                pending=ro.audit.pending(),
            )
        assert report.intact, report.problems
        notes += report.notes
        assert {p.name: p.read_bytes() for p in (home / "audit").glob("audit-*.jsonl")} == before
        code, out, err = cli(["--home", str(home), "audit", "verify"])
        assert (code, err) == (0, ""), out

        with Vault.open(home) as v:
            found = _read_state(v.memory_tool(USER))
        # Every write the child confirmed is applied, and at most the one in flight after it.
        confirmed = writes_before[oks[-1] + 1]
        matches = [w for w in (confirmed, confirmed + 1) if states[w] == found]
        assert len(matches) == 1, (confirmed, found)
        applied = matches[0]
        start = 2 * applied  # the next write (each write is followed by one read)
        if start >= len(commands) - 2:
            break
    assert kills >= 5
    # The applied write records, in order, are the script's writes the vault holds.
    with Vault.open(home) as v:
        pseudonym = v.audit.keys.user(USER)
        key = v.audit_users()[pseudonym][1]
        log = log_records(home)
        undone = {r["ref"] for r in log if r["command"] == "audit.not_applied"}
        applied_records = [
            r
            for r in log
            if r["user"] == pseudonym
            and r["txn"]
            and r["outcome"] == "ok"
            and r["command"] != "user.create"
            and r["seq"] not in undone
        ]
        script_writes = commands[0 : 2 * applied : 2]
        assert [(r["command"], key.open_paths(r["paths"])) for r in applied_records] == [
            (c["command"], _paths(c)) for c in script_writes
        ]
        for r in log:
            if r["command"] == "audit.not_applied":
                assert (r["outcome"], r["error"]) == ("not_applied", "interrupted")
    code, out, err = cli(["--home", str(home), "audit", "verify"])
    assert (code, err) == (0, ""), out
    for note in notes:  # an interrupted command, before or after its not_applied record
        assert note.endswith(
            ") was interrupted before its change was committed: the change does not exist "
            "(the next command records that)"
        ) or re.fullmatch(r"record \d+ was not applied \(interrupted\); record \d+ says so", note)


def test_killed_between_append_and_commit_is_marked_not_applied(
    helper: ForkingHelper, home: Path
) -> None:
    """A process dies after its record and before COMMIT: verify explains it, and the next
    open appends an audit.not_applied record naming it; the change does not exist."""
    with Vault.open(home) as v:
        v.memory_tool(USER).call(
            {"command": "create", "path": "/memories/keep.md", "file_text": "kept"}
        )
        pseudonym = v.audit.keys.user(USER)
    killed = {"command": "create", "path": "/memories/never.md", "file_text": "never"}
    lines, status = helper.run(
        {
            "kind": "kill_before_commit",
            "home": str(home),
            "user": USER,
            "before": {"command": "view", "path": "/memories/keep.md"},
            "killed": killed,
        }
    )
    assert _killed(status), helper.new_stderr()
    assert lines == ["ok"]
    log = log_records(home)
    interrupted = log[-1]
    seq = interrupted["seq"]
    assert (interrupted["command"], interrupted["outcome"], interrupted["txn"]) == (
        "create",
        "ok",
        True,
    )
    with Vault._open(home, audit_problems=[]) as ro:
        report = examine(
            ro.audit.directory, ro.audit.keys, anchor=ro.audit.store_head(), pending=[]
        )
        assert ro.audit.store_head()[0] < seq
    assert report.intact, report.problems
    assert report.notes == [
        f"record {seq} (create by {pseudonym}) was interrupted before its change was "
        "committed: the change does not exist (the next command records that)"
    ]
    with Vault.open(home) as v:
        tool = v.memory_tool(USER)
        with pytest.raises(ToolError) as caught:
            tool.call({"command": "view", "path": "/memories/never.md"})
        assert caught.value.content == (
            "The path /memories/never.md does not exist. Please provide a valid path."
        )
        key = v.audit_users()[pseudonym][1]
        assert key.open_paths(interrupted["paths"]) == ["/memories/never.md"]
    marker = log_records(home)[seq]  # the record right after it
    assert (marker["seq"], marker["command"], marker["outcome"], marker["error"]) == (
        seq + 1,
        "audit.not_applied",
        "not_applied",
        "interrupted",
    )
    assert marker["ref"] == seq and marker["user"] is None and marker["txn"] is False
    code, out, err = cli(["--home", str(home), "audit", "verify"])
    assert (code, err) == (0, "")
    assert f"note: record {seq} was not applied (interrupted); record {seq + 1} says so" in (
        out.splitlines()
    )


N_PROCS = 4
N_COMMANDS = 40


def test_concurrent_processes_make_one_gap_free_chain(helper: ForkingHelper, home: Path) -> None:
    """4 processes, reads and writes on one vault: one chain 1..total, whole lines only, and
    each process's records counted exactly."""
    with Vault.open(home) as v:
        v.memory_tool("team").call(
            {"command": "create", "path": "/memories/shared.md", "file_text": "top\n"}
        )
    lines, status = helper.run(
        {
            "kind": "workers",
            "home": str(home),
            "user": "team",
            "procs": N_PROCS,
            "n": N_COMMANDS,
        }
    )
    assert status == 0, helper.new_stderr()
    ran = {
        int(pid): int(n)
        for _, pid, n in (line.split() for line in lines if line.startswith("ran "))
    }
    assert len(ran) == N_PROCS and set(ran.values()) == {N_COMMANDS}
    raw = log_lines(home)
    log = [json.loads(line) for line in raw]
    for line, record in zip(raw, log, strict=True):
        assert list(record) == [*FIELDS, "mac"]
        assert line.count(b'{"v":1,') == 1 and line.endswith(b'"}')
    # vault.create, policy.change, user.create, the first create
    total = 4 + N_PROCS * N_COMMANDS
    assert [r["seq"] for r in log] == list(range(1, total + 1))
    per_pid = collections.Counter(r["pid"] for r in log)
    assert per_pid == {os.getpid(): 4, **ran}
    # The processes really interleaved: no one ran all its commands in one stretch.
    runs = sum(1 for a, b in itertools.pairwise(log) if a["pid"] != b["pid"])
    assert runs > N_PROCS, runs
    code, out, err = cli(["--home", str(home), "audit", "verify"])
    assert (code, err) == (0, "")
    assert out.startswith(f"audit log intact: {total} records in 1 segment, ")
    with Vault.open(home) as v:
        shared = v.memory_tool("team").call({"command": "view", "path": "/memories/shared.md"})
    assert shared.count("\tp") == N_PROCS * N_COMMANDS // 4
