"""A helper process that forks a fresh child for each job, for crash and concurrency tests.

The helper imports ``vault`` once (importing the SDK costs about a second; forking
costs milliseconds), then reads jobs as JSON lines on stdin. Each job runs in a
forked child with the test's environment, prints lines on stdout as it goes
(``start <pid>`` first), and ends with the helper's ``exit <wait status>`` line,
so a test can SIGKILL the child at a chosen point and see how it ended.

A test module provides the helper's source: its imports, a ``say(text)``
function, its job functions and a ``JOBS`` dict, followed by :data:`FORK_LOOP`.
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
