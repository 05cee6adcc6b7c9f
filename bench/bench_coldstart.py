"""Cold start: a new process answering one memory command, and where its import time goes.

Run by hand; it prints figures and asserts nothing about them::

    .venv/bin/python bench/bench_coldstart.py [--runs N] [--dir DIR]

In a fresh temporary directory (deleted at the end, with the key directory and
the master key it sets for itself) it makes a vault holding one user with 100
notes, then times, as new processes, taking turns in a shuffled order at every
round so that the page cache and the machine's noise fall on each alike:

* ``memvault exec``: ``python -m memvault --home H exec --user U`` answering one
  ``view`` of a note on stdin (the target: at most 0.6 s);
* ``python -c pass``: the interpreter alone, the floor under every row;
* ``import anthropic``: what an integration that builds a tool pays on top of
  the interpreter, which ``memvault exec`` does not import.

Then it runs ``memvault exec`` once under ``python -X importtime`` and prints the
packages whose imports took longest (cumulative, in ms).
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

NOTES = 100
TARGET_SECONDS = 0.6
VIEW = {"command": "view", "path": "/memories/topic/note-007.md"}


def _environment(root: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["XDG_CONFIG_HOME"] = str(root / "config")
    env["MEMVAULT_MASTER_KEY"] = base64.b64encode(os.urandom(32)).decode()
    return env


def _build(home: Path, env: dict[str, str]) -> None:
    lines = [
        json.dumps(
            {
                "command": "create",
                "path": f"/memories/topic/note-{i:03d}.md",
                "file_text": f"note {i}: " + "words of an ordinary note. " * 70,
            }
        )
        for i in range(NOTES)
    ]
    _exec(home, env, "\n".join(lines) + "\n")


def _exec(home: Path, env: dict[str, str], stdin: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "memvault", "--home", str(home), "exec", "--user", "alice"],
        input=stdin.encode(),
        env=env,
        capture_output=True,
        check=True,
    )
    return done.stdout.decode()


def _timed(argv: list[str], env: dict[str, str], stdin: bytes) -> float:
    began = time.perf_counter()
    subprocess.run(argv, input=stdin, env=env, capture_output=True, check=True)
    return time.perf_counter() - began


def _p99(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, round(0.99 * len(ordered)) - 1))]


def _import_times(home: Path, env: dict[str, str]) -> list[tuple[float, str]]:
    """(cumulative ms, package) of the top-level packages ``memvault exec`` imports."""
    argv = [sys.executable, "-X", "importtime", "-m", "memvault", "--home", str(home)]
    done = subprocess.run(
        [*argv, "exec", "--user", "alice"],
        input=(json.dumps(VIEW) + "\n").encode(),
        env=env,
        capture_output=True,
        check=True,
    )
    totals: dict[str, float] = {}
    for line in done.stderr.decode().splitlines():
        if not line.startswith("import time:") or "|" not in line:
            continue
        _, cumulative, name = (part.strip() for part in line[len("import time:") :].split("|"))
        if cumulative.isdigit() and not name.startswith(" ") and "." not in name.strip():
            totals[name.strip()] = max(totals.get(name.strip(), 0.0), int(cumulative) / 1000)
    return sorted(((ms, name) for name, ms in totals.items()), reverse=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--runs", type=int, default=30, help="rounds (default 30)")
    parser.add_argument("--dir", help="where to put the temporary vault")
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="memvault-coldstart-", dir=args.dir))
    try:
        env = _environment(root)
        home = root / "home"
        _build(home, env)
        assert '"is_error": false' in _exec(home, env, json.dumps(VIEW) + "\n")
        rows = {
            "memvault exec (one view)": (
                [sys.executable, "-m", "memvault", "--home", str(home), "exec", "--user", "alice"],
                (json.dumps(VIEW) + "\n").encode(),
            ),
            "python -c pass": ([sys.executable, "-c", "pass"], b""),
            "import anthropic": ([sys.executable, "-c", "import anthropic"], b""),
        }
        samples: dict[str, list[float]] = {name: [] for name in rows}
        for round_ in range(args.runs + 2):
            order = list(rows)
            random.shuffle(order)
            for name in order:
                seconds = _timed(*rows[name][:1], env, rows[name][1])
                if round_ >= 2:  # the first rounds warm the page cache
                    samples[name].append(seconds)
        print(f"python {sys.version.split()[0]}, {args.runs} rounds, order shuffled each round")
        print(f"{'':28} {'median s':>9} {'p99 s':>7}")
        for name, values in samples.items():
            line = f"{name:28} {statistics.median(values):9.3f} {_p99(values):7.3f}"
            if name.startswith("memvault"):
                ok = statistics.median(values) <= TARGET_SECONDS
                line += f"   target <= {TARGET_SECONDS} s: {'OK' if ok else 'OVER'}"
            print(line)
        print("\nimports of `memvault exec`, cumulative ms (python -X importtime, one run):")
        for ms, name in _import_times(home, env)[:12]:
            print(f"  {ms:8.1f}  {name}")
        return 0
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
