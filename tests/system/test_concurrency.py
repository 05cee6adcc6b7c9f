"""Several processes, or threads, on one home never lose an update.

Each child is a separate interpreter started with ``sys.executable -c``. The
children say ``ready`` and then wait for ``go`` on stdin, so their work
starts at the same moment however long their imports took.
"""

from __future__ import annotations

import collections
import json
import os
import queue
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from memvault import MemoryTool, Vault

pytestmark = pytest.mark.system

N_PROCS = 4
_WAIT = 90.0  # seconds before a silent child counts as hung

_CHILD = r"""
import json, sys

from memvault import Vault


def say(obj):
    print(json.dumps(obj), flush=True)


def wait_go():
    if sys.stdin.readline().strip() != "go":
        raise SystemExit("stdin closed before go")


mode, home, me, n = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])

if mode == "mixed":
    with Vault.open(home) as v:
        tool = v.memory_tool("team")
        say("ready")
        wait_go()
        for j in range(30):
            tool.call({
                "command": "create",
                "path": f"/memories/p{me}/f{j:02d}.txt",
                "file_text": f"p{me} f{j:02d}\n",
            })
            tool.call({
                "command": "insert",
                "path": "/memories/shared.txt",
                "insert_line": 0,
                "insert_text": f"[p{me}:{j:02d}]",
            })
            if j % 3 == 2:
                tool.call({
                    "command": "str_replace",
                    "path": "/memories/shared.txt",
                    "old_str": f"[p{me}:{j - 1:02d}]",
                    "new_str": f"[p{me}:{j - 1:02d}] edited",
                })
        say("done")

elif mode == "first_open":
    say("ready")
    wait_go()
    with Vault.open(home) as v:
        tool = v.memory_tool("team")
        tool.call({"command": "create", "path": f"/memories/p{me}.txt", "file_text": f"p{me}"})
        say(v.vault_id)
        wait_go()
        say([tool.call({"command": "view", "path": f"/memories/p{k}.txt"}) for k in range(n)])

elif mode == "same_user":
    with Vault.open(home) as v:
        say("ready")
        wait_go()
        tool = v.memory_tool("newcomer")
        tool.call({"command": "create", "path": f"/memories/p{me}.txt", "file_text": f"p{me}"})
        say("done")

else:
    raise SystemExit(f"unknown mode {mode}")
"""


class _Children:
    """N child processes on one home, stepped together."""

    def __init__(self, mode: str, home: Path, logs: Path, n: int = N_PROCS) -> None:
        self.procs: list[subprocess.Popen[bytes]] = []
        self.stderr_paths = [logs / f"{mode}-{i}.stderr" for i in range(n)]
        self._queues: list[queue.Queue[str | None]] = []
        env = os.environ.copy()
        for i in range(n):
            with self.stderr_paths[i].open("wb") as err:
                proc = subprocess.Popen(
                    [sys.executable, "-c", _CHILD, mode, str(home), str(i), str(n)],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=err,
                    env=env,
                )
            lines: queue.Queue[str | None] = queue.Queue()
            threading.Thread(target=self._pump, args=(proc, lines), daemon=True).start()
            self.procs.append(proc)
            self._queues.append(lines)

    @staticmethod
    def _pump(proc: subprocess.Popen[bytes], lines: queue.Queue[str | None]) -> None:
        assert proc.stdout is not None
        for raw in proc.stdout:
            lines.put(raw.decode())
        lines.put(None)

    def _stderr(self, i: int) -> str:
        return self.stderr_paths[i].read_text(errors="replace")

    def expect(self) -> list[Any]:
        """The next message of every child, in child order."""
        messages = []
        for i, lines in enumerate(self._queues):
            try:
                line = lines.get(timeout=_WAIT)
            except queue.Empty:
                pytest.fail(f"child {i} said nothing for {_WAIT} s; stderr: {self._stderr(i)}")
            if line is None:
                pytest.fail(f"child {i} exited early; stderr: {self._stderr(i)}")
            messages.append(json.loads(line))
        return messages

    def go(self) -> None:
        for proc in self.procs:
            assert proc.stdin is not None
            proc.stdin.write(b"go\n")
            proc.stdin.flush()

    def finish(self) -> None:
        """Every child exits 0 and wrote nothing on stderr."""
        for i, proc in enumerate(self.procs):
            assert proc.stdin is not None
            proc.stdin.close()
            assert proc.wait(timeout=_WAIT) == 0, self._stderr(i)
            assert self._stderr(i) == ""

    def kill(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()


@pytest.fixture
def start(tmp_path: Path) -> Iterator[Callable[[str, Path], _Children]]:
    """Starts N children in a mode on a home; any still running at the end are killed."""
    started: list[_Children] = []
    logs = tmp_path / "logs"
    logs.mkdir()

    def start_children(mode: str, home: Path) -> _Children:
        started.append(_Children(mode, home, logs))
        return started[-1]

    yield start_children
    for group in started:
        group.kill()


def _text(tool: MemoryTool, path: str) -> str:
    """A file's text, read back through view."""
    shown = tool.call({"command": "view", "path": path}).split("\n")
    assert shown[0] == f"Here's the content of {path} with line numbers:"
    return "\n".join(row.split("\t", 1)[1] for row in shown[1:])


def _listing(tool: MemoryTool, path: str) -> dict[str, str]:
    """path -> size of every entry a directory view shows (the directory itself left out)."""
    rows = tool.call({"command": "view", "path": path}).split("\n")[2:]
    return {row.split("\t")[1]: row.split("\t")[0] for row in rows}


def _expected_shared_lines(workers: list[str]) -> collections.Counter[str]:
    lines: collections.Counter[str] = collections.Counter({"# shared": 1})
    for w in workers:
        for j in range(30):
            edited = j % 3 == 1  # the line before every third insert is edited once
            lines[f"[{w}:{j:02d}]" + (" edited" if edited else "")] += 1
    return lines


def test_processes_writing_one_home_lose_no_update(
    home: Path, start: Callable[[str, Path], _Children]
) -> None:
    """4 processes creating, inserting into one shared file and editing it lose nothing."""
    with Vault.open(home) as v:
        v.memory_tool("team").call(
            {"command": "create", "path": "/memories/shared.txt", "file_text": "# shared\n"}
        )
    group = start("mixed", home)
    assert group.expect() == ["ready"] * N_PROCS
    group.go()
    assert group.expect() == ["done"] * N_PROCS
    group.finish()

    with Vault.open(home) as v:
        tool = v.memory_tool("team")
        text = _text(tool, "/memories/shared.txt")
        assert text.endswith("\n")
        lines = collections.Counter(text.split("\n")[:-1])
        assert lines == _expected_shared_lines([f"p{i}" for i in range(N_PROCS)])
        assert text.split("\n")[-2] == "# shared"  # every insert went above the first line
        for i in range(N_PROCS):
            for j in range(30):
                assert _text(tool, f"/memories/p{i}/f{j:02d}.txt") == f"p{i} f{j:02d}\n"
        top = _listing(tool, "/memories")
        expected = {"/memories/shared.txt"} | {f"/memories/p{i}/" for i in range(N_PROCS)}
        expected |= {f"/memories/p{i}/f{j:02d}.txt" for i in range(N_PROCS) for j in range(30)}
        assert set(top) == expected
        for i in range(N_PROCS):
            own = _listing(tool, f"/memories/p{i}")
            assert own == {f"/memories/p{i}/f{j:02d}.txt": "7B" for j in range(30)}
            assert top[f"/memories/p{i}/"] == "210B"
            assert {k: v for k, v in top.items() if k.startswith(f"/memories/p{i}/f")} == own
        report = v.check()  # every tally, count and page, after writers raced on them
        assert report.intact, report.problems
        assert (report.files, report.directories) == (1 + 30 * N_PROCS, N_PROCS)


def test_concurrent_first_open_makes_one_vault(
    home: Path, tmp_path: Path, start: Callable[[str, Path], _Children]
) -> None:
    """4 processes opening a fresh home at once share one vault id, one key file, all writes."""
    group = start("first_open", home)
    assert group.expect() == ["ready"] * N_PROCS
    group.go()
    ids = group.expect()
    assert len(set(ids)) == 1, ids
    group.go()
    for seen in group.expect():
        assert seen == [
            f"Here's the content of /memories/p{k}.txt with line numbers:\n     1\tp{k}"
            for k in range(N_PROCS)
        ]
    group.finish()
    keys = tmp_path / "config" / "memvault" / "keys"
    assert sorted(p.name for p in keys.iterdir()) == [f"{ids[0]}.key"]
    with Vault.open(home) as v:
        assert v.vault_id == ids[0]


def test_concurrent_creation_of_one_user_ends_on_one_user(
    home: Path, start: Callable[[str, Path], _Children]
) -> None:
    """4 processes creating the same new user at once all write into that one user's memories."""
    Vault.open(home).close()
    group = start("same_user", home)
    assert group.expect() == ["ready"] * N_PROCS
    group.go()
    assert group.expect() == ["done"] * N_PROCS
    group.finish()
    with Vault.open(home) as v:
        listing = _listing(v.memory_tool("newcomer"), "/memories")
    assert listing == {f"/memories/p{i}.txt": "2B" for i in range(N_PROCS)}


def test_threads_sharing_one_vault_lose_no_update(vault: Vault) -> None:
    """Two threads, each with its own tool on one Vault, run interleaved commands without loss."""
    setup = vault.memory_tool("team")
    setup.call({"command": "create", "path": "/memories/shared.txt", "file_text": "# shared\n"})
    barrier = threading.Barrier(2)
    errors: list[BaseException] = []

    def work(name: str) -> None:
        try:
            tool = vault.memory_tool("team")
            barrier.wait(timeout=_WAIT)
            for j in range(30):
                tool.call(
                    {
                        "command": "create",
                        "path": f"/memories/{name}/f{j:02d}.txt",
                        "file_text": f"{name} f{j:02d}\n",
                    }
                )
                tool.call(
                    {
                        "command": "insert",
                        "path": "/memories/shared.txt",
                        "insert_line": 0,
                        "insert_text": f"[{name}:{j:02d}]",
                    }
                )
                if j % 3 == 2:
                    tool.call(
                        {
                            "command": "str_replace",
                            "path": "/memories/shared.txt",
                            "old_str": f"[{name}:{j - 1:02d}]",
                            "new_str": f"[{name}:{j - 1:02d}] edited",
                        }
                    )
                tool.call({"command": "view", "path": "/memories"})
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(f"t{i}",)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=_WAIT)
    assert not any(t.is_alive() for t in threads)
    assert errors == []
    text = _text(setup, "/memories/shared.txt")
    assert collections.Counter(text.split("\n")[:-1]) == _expected_shared_lines(["t0", "t1"])
    for name in ("t0", "t1"):
        assert _listing(setup, f"/memories/{name}") == {
            f"/memories/{name}/f{j:02d}.txt": "7B" for j in range(30)
        }
        for j in range(30):
            assert _text(setup, f"/memories/{name}/f{j:02d}.txt") == f"{name} f{j:02d}\n"
