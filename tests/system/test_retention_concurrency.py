"""`memvault expire` while an agent works: the agent sees no errors, and no memory it read
is expired as idle.

The home holds old files (last used 200 days ago) of the agent and of another user.
An agent process works on fresh files and views old ones in random order while
another process runs `memvault expire --older-than 90d` over and over. Every view of
an old file either shows it (then it was the file's use: it must outlive every
expiry) or finds it gone (expired first); everything else succeeds; the store stays
bound to its log.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from memvault import Vault, memory
from memvault.cli import main

pytestmark = pytest.mark.system

OLD = 40  # old files per user
_WAIT = 120.0

_AGENT = r"""
import json, random, sys

from memvault import Vault

home, n = sys.argv[1], int(sys.argv[2])
shown, gone, failures = [], [], []
with Vault.open(home) as vault:
    runner = vault.runner("agent")
    print("ready", flush=True)
    if sys.stdin.readline().strip() != "go":
        raise SystemExit("no go")
    old = [f"/memories/old/f{i:02d}.md" for i in range(n)]
    random.shuffle(old)
    for j, path in enumerate(old):
        reply = runner.run({"command": "view", "path": path})
        if not reply.is_error:
            shown.append(path)
        elif reply.content == f"The path {path} does not exist. Please provide a valid path.":
            gone.append(path)
        else:
            failures.append(reply.content)
        steps = [
            {"command": "create", "path": f"/memories/new/n{j:02d}.md", "file_text": f"n{j}\n"},
            {"command": "str_replace", "path": f"/memories/new/n{j:02d}.md",
             "old_str": f"n{j}", "new_str": f"n{j} edited"},
            {"command": "view", "path": "/memories"},
        ]
        for step in steps:
            reply = runner.run(step)
            if reply.is_error:
                failures.append(reply.content)
print(json.dumps({"shown": shown, "gone": gone, "failures": failures}), flush=True)
"""

_EXPIRE = r"""
import io, json, sys, time

from memvault.cli import main
from memvault.redaction import load

home, seconds = sys.argv[1], float(sys.argv[2])
load()  # compiled once, before the race: each run's open then takes milliseconds
print("ready", flush=True)
if sys.stdin.readline().strip() != "go":
    raise SystemExit("no go")
runs, expired, codes = 0, 0, []
deadline = time.monotonic() + seconds
while True:
    out, err = io.StringIO(), io.StringIO()
    code = main(["--home", home, "expire", "--older-than", "90d", "--json"], out=out, err=err)
    codes.append(code)
    if code == 0:
        expired += len(json.loads(out.getvalue())["expired"])
    else:
        print(err.getvalue(), file=sys.stderr)
    runs += 1
    if time.monotonic() > deadline and runs >= 2:
        break
print(json.dumps({"runs": runs, "expired": expired, "codes": sorted(set(codes))}), flush=True)
"""


def _start(source: str, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", source, *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _seed(home: Path) -> None:
    """Old files of the agent and of bob, last used 200 days ago."""
    long_ago = memory.touch.today() - 200
    with pytest.MonkeyPatch.context() as patch, Vault.open(home) as vault:
        patch.setattr(memory.touch, "today", lambda: long_ago)
        for user in ("agent", "bob"):
            runner = vault.runner(user)
            for i in range(OLD):
                path = f"/memories/old/f{i:02d}.md"
                reply = runner.run({"command": "create", "path": path, "file_text": f"old {i}\n"})
                assert not reply.is_error, reply.content


def test_an_agent_working_during_expire_sees_no_errors(home: Path) -> None:
    """No failure reaches the agent; each old file it was shown survives every expiry; the
    others (and all of bob's) are expired; audit verify is clean."""
    _seed(home)
    agent = _start(_AGENT, str(home), str(OLD))
    expirer = _start(_EXPIRE, str(home), "2.0")
    children = (agent, expirer)
    try:
        for child in children:
            assert child.stdout is not None
            assert child.stdout.readline().strip() == "ready"
        for child in children:
            assert child.stdin is not None
            child.stdin.write("go\n")
            child.stdin.flush()
        outputs = [child.communicate(timeout=_WAIT) for child in children]
    finally:
        for child in children:
            if child.poll() is None:
                child.kill()
    (agent_out, agent_err), (expire_out, expire_err) = outputs
    assert (agent.returncode, agent_err) == (0, "")
    assert (expirer.returncode, expire_err) == (0, "")
    work = json.loads(agent_out)
    runs = json.loads(expire_out)
    assert work["failures"] == []
    assert len(work["shown"]) + len(work["gone"]) == OLD
    assert runs["codes"] == [0]
    assert runs["expired"] == 2 * OLD - len(work["shown"])  # bob's, and the agent's not shown
    with Vault.open(home) as vault:
        runner = vault.runner("agent")
        for path in work["shown"]:
            assert not runner.run({"command": "view", "path": path}).is_error, path
        listing = vault.runner("bob").run({"command": "view", "path": "/memories"}).content
        assert listing.endswith("\n0B\t/memories")
        assert vault.verify_store() == []
    assert main(["--home", str(home), "audit", "verify"], out=io.StringIO()) == 0
