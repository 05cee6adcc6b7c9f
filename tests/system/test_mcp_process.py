"""`memvault mcp` as a process that dies or is stopped mid-session: the vault stays whole.

An MCP client stops its server by closing stdin, then SIGTERM, then SIGKILL, and a
client can itself be killed. Whatever the way, the vault opens afterwards, `memvault
audit verify` and `memvault check` pass, and every write the client saw acknowledged is
there; a stop asked for (SIGTERM) also lets the running command end first.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from memvault import Vault
from tests.support.mcp_client import (
    INITIALIZE,
    INITIALIZED,
    made_home,
    receive,
    send,
    spawn,
    tool_call,
)
from tests.unit.cli.test_exec_lines import run

pytestmark = pytest.mark.system

ARGS = ("mcp", "--user", "alice", "--session", "conv-crash")
TEXT = "line of a note that is long enough to be worth a page of its own\n" * 40
STATES = {"create": TEXT, "str_replace": "v2\n", "insert": "v2\nv3\n"}  # after each command


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return made_home(tmp_path)


def _writes(first: int, count: int) -> list[dict[str, Any]]:
    """Creates of fresh notes, each followed by an edit and an insert into it."""
    calls = []
    for n in range(first, first + count):
        path = f"/memories/t{n % 7}/note-{n}.md"
        calls.append({"command": "create", "path": path, "file_text": TEXT})
        calls.append({"command": "str_replace", "path": path, "old_str": TEXT, "new_str": "v2\n"})
        calls.append({"command": "insert", "path": path, "insert_line": 1, "insert_text": "v3"})
    return calls


def _started(home: Path) -> subprocess.Popen[bytes]:
    process = spawn(home, *ARGS)
    send(process, INITIALIZE)
    assert receive(process)["id"] == 0
    send(process, INITIALIZED)
    return process


def _answered(out: bytes) -> dict[int, dict[str, Any]]:
    """The answers on stdout, by request id (a last line cut by the kill is left out)."""
    answers = {}
    for line in out.splitlines(keepends=True):
        if line.endswith(b"\n"):
            message = json.loads(line)
            answers[message["id"]] = message
    return answers


def _shown(path: str, text: str) -> str:
    lines = "\n".join(f"{n:>6}\t{line}" for n, line in enumerate(text.split("\n"), 1))
    return f"Here's the content of {path} with line numbers:\n{lines}"


def _assert_whole(home: Path, calls: list[dict[str, Any]], answered: set[int]) -> None:
    """The vault opens, its log verifies, its check passes, and each file holds what the
    commands sent for it left, up to the last one answered or a later one (a command can
    commit and be killed before its answer is written), never an earlier state."""
    code, out, err = run(["--home", str(home), "audit", "verify"])
    assert (code, err) == (0, ""), out
    code, out, err = run(["--home", str(home), "check"])
    assert (code, err) == (0, ""), out
    states: dict[str, list[str]] = {}
    last_answered: dict[str, int] = {}
    for number, command in enumerate(calls, 1):
        path = command["path"]
        states.setdefault(path, []).append(STATES[command["command"]])
        if number in answered:
            last_answered[path] = len(states[path]) - 1
    with Vault.open(home) as vault:
        runner = vault.runner("alice")
        for path, texts in states.items():
            reply = runner.run({"command": "view", "path": path})
            allowed = {_shown(path, t) for t in texts[last_answered.get(path, 0) :]}
            if path not in last_answered:
                allowed.add(f"The path {path} does not exist. Please provide a valid path.")
            assert reply.content in allowed, path


@pytest.mark.parametrize("seed", range(4))
def test_sigkill_mid_session_leaves_a_vault_that_opens_and_verifies(home: Path, seed: int) -> None:
    """SIGKILL at a random moment while the client streams writes: afterwards the vault
    opens, audit verify and check pass, and every write answered before the kill is stored."""
    rng = random.Random(seed)
    calls = _writes(0, 200)
    process = _started(home)
    send(process, *[tool_call(n, c) for n, c in enumerate(calls, 1)])
    time.sleep(rng.uniform(0.05, 0.6))
    process.send_signal(signal.SIGKILL)
    out, _ = process.communicate(timeout=30)
    assert process.returncode == -signal.SIGKILL
    answers = _answered(out)
    assert all(not a["result"]["isError"] for a in answers.values())
    _assert_whole(home, calls, set(answers))
    # and a new server serves it
    process = _started(home)
    send(process, tool_call(1, {"command": "view", "path": "/memories"}))
    assert receive(process)["result"]["isError"] is False
    process.stdin.close()  # type: ignore[union-attr]
    assert process.wait(timeout=30) == 0


def test_sigterm_lets_the_running_command_end_then_exits_0(home: Path) -> None:
    """SIGTERM while commands run: the running command ends, the queued ones are answered
    "Connection closed" and never run, the vault is closed and the server exits 0; every
    answered write is stored, and the log has no record of a change left unapplied."""
    calls = _writes(0, 100)
    process = _started(home)
    send(process, *[tool_call(n, c) for n, c in enumerate(calls, 1)])
    time.sleep(0.3)
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 0, err
    assert err.decode().endswith("memvault: mcp: stopped (SIGTERM); the vault is closed\n")
    answers = _answered(out)
    results = {n for n, a in answers.items() if "result" in a}
    assert results and all(not answers[n]["result"]["isError"] for n in results)
    assert {a["error"]["message"] for a in answers.values() if "error" in a} <= {
        "Connection closed"
    }
    records = _all_records(home)
    assert "audit.not_applied" not in {r["command"] for r in records}
    ran = [r for r in records if r["session"] == "conv-crash"]
    # one command at a time: at most the one running when the signal came ran unanswered
    assert len(results) <= len(ran) <= len(results) + 1
    _assert_whole(home, calls, results)


def _all_records(home: Path) -> list[dict[str, Any]]:
    code, out, err = run(["--home", str(home), "audit", "show", "--json"])
    assert (code, err) == (0, "")
    return [json.loads(line) for line in out.splitlines()]


_CLIENT = """
import os, signal, sys, anyio
from mcp import Client, StdioServerParameters, stdio_client

home, errpath = sys.argv[1], sys.argv[2]
env = {k: os.environ[k] for k in ("PYTHONPATH", "XDG_CONFIG_HOME") if k in os.environ}
args = ["-m", "memvault", "--home", home, "mcp", "--user", "alice"]

async def writer(client, k):
    for i in range(100_000):
        await client.call_tool("memory", {
            "command": "create", "path": f"/memories/w{k}/{i}.md", "file_text": "x" * 300})

async def main():
    params = StdioServerParameters(command=sys.executable, args=args, env=env)
    with open(errpath, "a") as errlog:
        async with Client(stdio_client(params, errlog=errlog), mode="legacy") as client:
            async with anyio.create_task_group() as tasks:
                for k in range(4):
                    tasks.start_soon(writer, client, k)
                await anyio.sleep(float(sys.argv[3]))
                print("dying", flush=True)
                os.kill(os.getpid(), signal.SIGKILL)

anyio.run(main)
"""


def _servers_of(home: Path) -> list[int]:
    """The pids of processes whose command line names ``home``."""
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                argv = (entry / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if str(home).encode() in argv and b"mcp" in argv:
                pids.append(int(entry.name))
    return pids


@pytest.mark.parametrize("delay", [0.4, 1.2])
def test_a_client_killed_mid_session_leaves_the_vault_unlocked(
    home: Path, tmp_path: Path, delay: float
) -> None:
    """The client is SIGKILLed while four of its tasks write: the server sees its pipes
    close, lets the running command end and exits within seconds, saying why; nothing is
    left holding the vault (another process writes at once), and it verifies."""
    errfile = tmp_path / "server-stderr.txt"
    client = subprocess.run(
        [sys.executable, "-c", _CLIENT, str(home), str(errfile), str(delay)],
        capture_output=True,
        env={**os.environ},
        timeout=60,
        check=False,
    )
    assert client.returncode == -signal.SIGKILL and client.stdout == b"dying\n", client.stderr
    deadline = time.monotonic() + 15
    while _servers_of(home) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _servers_of(home) == [], "the server outlived its client"
    err = errfile.read_text()
    assert "memvault: error" not in err
    assert err.splitlines()[-1] in {
        "memvault: mcp: stopped (the client went away); the vault is closed",
        "memvault: mcp: stopped (end of input); the vault is closed",
    }
    started = time.monotonic()
    line = json.dumps({"command": "create", "path": "/memories/after.md", "file_text": "y"})
    code, out, _ = run(["--home", str(home), "exec", "--user", "alice"], line.encode() + b"\n")
    assert code == 0 and json.loads(out)["is_error"] is False
    assert time.monotonic() - started < 5  # no lock waited out
    code, out, _ = run(["--home", str(home), "audit", "verify"])
    assert code == 0, out
