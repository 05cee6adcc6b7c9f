"""A helper process that forks a fresh child for each job, for crash and concurrency tests.

The helper imports ``vault`` once (importing the SDK costs about a second; forking
costs milliseconds), then reads jobs as JSON lines on stdin. Each job runs in a
forked child with the test's environment, prints lines on stdout as it goes
(``start <pid>`` first), and ends with the helper's ``exit <wait status>`` line,
so a test can SIGKILL the child at a chosen point and see how it ended.

A test module provides the helper's source: its imports, a ``say(text)``
function, its job functions and a ``JOBS`` dict, followed by :data:`FORK_LOOP`.

:class:`PlanHelper` runs the jobs of a plan *at once* instead, for races: the helper
forks one child per job of the plan (a JSON file), says ``start <name> <pid>`` for
each, and ``exit <name> <wait status>`` as each ends. A child calls ``wait_gate()``
to wait until the test says :meth:`PlanHelper.go` (every child is let go at once).
The source is the same as for :data:`FORK_LOOP`, followed by :data:`PLAN_LOOP`;
``JOBS[job["kind"]](job)`` runs a job, and lines it says are split into words.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

ENV_KEYS = ("XDG_CONFIG_HOME", "MEMVAULT_MASTER_KEY", "MEMVAULT_MASTER_KEY_FILE", "MEMVAULT_HOME")
WAIT = 60.0  # seconds before a silent helper counts as hung

FORK_LOOP = r"""
for line in sys.stdin:
    job = json.loads(line)
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            for key, value in job["env"].items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value
            code = JOBS[job["kind"]](job)
        except BaseException:
            traceback.print_exc()
            code = 1
        sys.stderr.flush()
        os._exit(code)
    _, status = os.waitpid(pid, 0)
    say("exit %d" % status)
"""


PLAN_LOOP = r"""
gate_r, gate_w = os.pipe()


def wait_gate():
    os.read(gate_r, 1)  # the end of the pipe, when the helper closes it on "go"


children = {}
for job in json.loads(open(sys.argv[1]).read()):
    pid = os.fork()
    if pid == 0:
        os.close(gate_w)
        code = 0
        try:
            JOBS[job["kind"]](job)
        except BaseException:
            traceback.print_exc()
            code = 1
        sys.stderr.flush()
        os._exit(code)
    children[pid] = job["name"]
    say("start %s %d" % (job["name"], pid))
os.close(gate_r)
sys.stdin.readline()  # "go", or the end of stdin
os.close(gate_w)
while children:
    pid, status = os.wait()
    say("exit %s %d" % (children.pop(pid), status))
"""


class ForkingHelper:
    """The forking helper process, and the lines its children print."""

    def __init__(self, source: str, stderr_path: Path) -> None:
        self.stderr_path = stderr_path
        self._stderr = stderr_path.open("wb")
        self.proc = subprocess.Popen(
            [sys.executable, "-c", source + FORK_LOOP],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
        )
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._seen_stderr = 0
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for raw in self.proc.stdout:
            self._lines.put(raw.decode().rstrip("\n"))
        self._lines.put(None)

    def line(self) -> str:
        """The next line a child printed; fails the test if the helper hangs or dies."""
        try:
            line = self._lines.get(timeout=WAIT)
        except queue.Empty:
            pytest.fail(f"the helper said nothing for {WAIT} s; stderr: {self.new_stderr()}")
        if line is None:
            pytest.fail(f"the helper exited; stderr: {self.new_stderr()}")
        return line

    def send(self, job: dict[str, Any]) -> None:
        """Start a job in a fresh child, with this process's vault environment."""
        job = {**job, "env": {key: os.environ.get(key) for key in ENV_KEYS}}
        assert self.proc.stdin is not None
        self.proc.stdin.write((json.dumps(job) + "\n").encode())
        self.proc.stdin.flush()

    def run(
        self, job: dict[str, Any], kill: tuple[int, float] | None = None
    ) -> tuple[list[str], int]:
        """Run a job to its end: its lines (without ``start``) and its wait status.

        ``kill=(n, delay)``: SIGKILL the child ``delay`` seconds after it has printed
        ``n`` lines past ``start``.
        """
        self.send(job)
        first = self.line()
        if first.startswith("exit "):
            pytest.fail(f"the child failed before starting; stderr: {self.new_stderr()}")
        assert first.startswith("start "), first
        lines: list[str] = []
        if kill is not None:
            while len(lines) < kill[0]:
                line = self.line()
                if line.startswith("exit "):
                    return lines, int(line.split()[1])
                lines.append(line)
            time.sleep(kill[1])
            with contextlib.suppress(ProcessLookupError):
                os.kill(int(first.split()[1]), signal.SIGKILL)
        while not (line := self.line()).startswith("exit "):
            lines.append(line)
        return lines, int(line.split()[1])

    def new_stderr(self) -> str:
        """What the children wrote on stderr since the last call."""
        self._stderr.flush()
        text = self.stderr_path.read_bytes()[self._seen_stderr :].decode(errors="replace")
        self._seen_stderr += len(text.encode())
        return text

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=WAIT)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self._stderr.close()


class PlanHelper:
    """The helper running one plan's jobs at once, and the lines its children said (as
    words, in :attr:`said`). A child's ``say`` must write each line in one ``write``
    (``os.write``), so that lines of children saying at once do not mix."""

    def __init__(self, source: str, plan: list[dict[str, Any]], where: Path) -> None:
        where.mkdir(parents=True, exist_ok=True)
        (where / "plan.json").write_text(json.dumps(plan))
        self.stderr_path = where / "stderr"
        with self.stderr_path.open("wb") as err:
            self.proc = subprocess.Popen(
                [sys.executable, "-c", source + PLAN_LOOP, str(where / "plan.json")],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=err,
                env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
                start_new_session=True,  # kill() ends the helper and its children
            )
        self.said: list[list[str]] = []
        self._lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for raw in self.proc.stdout:
            self._lines.put(raw.decode().rstrip("\n"))
        self._lines.put(None)

    def expect(self, word: str, count: int) -> list[list[str]]:
        """The lines whose first word is ``word``, once there are ``count`` of them; a
        child that exits with a status other than 0 or SIGKILL fails the test."""
        while len(found := [w for w in self.said if w[0] == word]) < count:
            try:
                line = self._lines.get(timeout=WAIT)
            except queue.Empty:
                pytest.fail(f"the helper said nothing for {WAIT} s: {self.stderr()}")
            if line is None:
                pytest.fail(f"the helper exited: {self.stderr()}")
            self.said.append(line.split(" "))
            if line.startswith("exit ") and line.split()[2] not in ("0", str(signal.SIGKILL)):
                pytest.fail(f"{line}: {self.stderr()}")
        return found

    def pid(self, name: str) -> int:
        return next(int(w[2]) for w in self.said if w[:2] == ["start", name])

    def go(self) -> None:
        """Let every child waiting in ``wait_gate()`` go."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"go\n")
        self.proc.stdin.flush()

    def finish(self, jobs: int) -> dict[str, int]:
        """Each child's wait status, by name, once all ``jobs`` have exited; the helper
        exits 0 and nothing was written on stderr."""
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        statuses = {w[1]: int(w[2]) for w in self.expect("exit", jobs)}
        assert self.proc.wait(timeout=WAIT) == 0
        assert self.stderr() == ""
        return statuses

    def stderr(self) -> str:
        return self.stderr_path.read_text(errors="replace")

    def kill(self) -> None:
        """SIGKILL the helper and its children, if it still runs."""
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
