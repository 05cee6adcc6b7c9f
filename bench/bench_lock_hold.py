"""How long each memory command holds the store's write lock on the largest allowed file.

Run by hand; it prints figures and asserts nothing about them::

    .venv/bin/python bench/bench_lock_hold.py [--repeat N] [--durability full|normal]
        [--case NAME ...] [--dir DIR] [--json FILE]

A command that may write runs in one SQLite ``BEGIN IMMEDIATE`` transaction:
while it is open, every other process that writes to the vault waits, and
gives up with "database is locked" after the busy timeout. So no command may
keep that transaction open for long, whatever the model sends.

In a fresh temporary directory (deleted at the end, with the throwaway master
key and key directory it sets for itself) the bench opens a vault with the
default file size limit (``DEFAULT_MAX_FILE_BYTES``, 1 MiB) and runs each
worst case below ``--repeat`` times through ``Runner.run``, the call every
adapter makes. For each run it measures:

* **lock**: from the end of ``BEGIN IMMEDIATE`` to the end of ``COMMIT`` (or
  ``ROLLBACK``): the store's ``transaction`` is wrapped, for the bench's vault
  only, with a clock. For ``view`` it is the span of its read transaction,
  which takes no write lock (shown for comparison);
* **call**: the whole ``Runner.run`` call (parsing, the path guard, the
  transaction, the audit record);
* **reply**: the length of the result or error the model gets, in characters.

Each case's file is put in place before the measured call, outside it. The
cases, on a file of exactly the size limit unless said otherwise:

=====================  ================================================================
``create``             a new 1 MiB file of ordinary note lines
``view``               the whole 1 MiB file
``str_replace unique`` a one-character ``old_str`` found once, in the middle
``insert``             a line into the middle of a file 16 bytes under the limit
``replace 1/line``     a one-character ``old_str`` on every one of 524,288 lines
``replace 1 line``     a one-character ``old_str`` 1,048,576 times on one line
``replace periodic``   ``"x\\n" * 1000`` on ``"x\\n" * 524288``: overlapping occurrences
``replace no match``   a 1 MiB ``old_str`` that does not occur (it is screened)
``replace 5 MiB old``  a 5 MiB ``old_str``, over the input bound
``create 5 MiB``       a 5 MiB ``file_text``, over the input bound
=====================  ================================================================

It prints, per case, the median and the largest lock span and call time in
milliseconds, and the reply's length and first words. Compare figures from one
machine only. Each case prints as soon as it is done, so a slow one shows the
others first; ``--case`` runs only the cases named.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from bench_commands import isolated_environment  # run from bench/: a sibling script

from memvault import Vault
from memvault.memory import DEFAULT_MAX_FILE_BYTES, Runner

LIMIT = DEFAULT_MAX_FILE_BYTES
PATH = "/memories/big.md"
NOTE_LINE = "- 2026-03-14 standup: release plan reviewed, item 42 of 97 moved to QA\n"


def note_text(size: int) -> str:
    """Ordinary note lines, cut to exactly ``size`` characters (ASCII, so bytes)."""
    text = NOTE_LINE * (size // len(NOTE_LINE) + 1)
    return text[: size - 1] + "\n"


def lines_x(size: int) -> str:
    return "x\n" * (size // 2)


def with_middle(text: str, char: str) -> str:
    middle = len(text) // 2 & ~1  # the start of a line of "x\n"
    return text[:middle] + char + text[middle + 1 :]


@dataclass
class Case:
    name: str
    file: str | None  # the file in place before the call (None: no file)
    command: dict[str, Any]


def cases() -> list[Case]:
    lines = lines_x(LIMIT)
    return [
        Case("create", None, {"command": "create", "path": PATH, "file_text": note_text(LIMIT)}),
        Case("view", note_text(LIMIT), {"command": "view", "path": PATH}),
        Case(
            "str_replace unique",
            with_middle(lines, "y"),
            {"command": "str_replace", "path": PATH, "old_str": "y", "new_str": "z"},
        ),
        Case(
            "insert",
            lines_x(LIMIT - 16),
            {
                "command": "insert",
                "path": PATH,
                "insert_line": (LIMIT - 16) // 4,
                "insert_text": "inserted line",
            },
        ),
        Case(
            "replace 1/line",
            lines,
            {"command": "str_replace", "path": PATH, "old_str": "x", "new_str": "y"},
        ),
        Case(
            "replace 1 line",
            "x" * LIMIT,
            {"command": "str_replace", "path": PATH, "old_str": "x", "new_str": "y"},
        ),
        Case(
            "replace periodic",
            lines,
            {"command": "str_replace", "path": PATH, "old_str": "x\n" * 1000, "new_str": "y"},
        ),
        Case(
            "replace no match",
            lines,
            {"command": "str_replace", "path": PATH, "old_str": "y" * LIMIT, "new_str": "z"},
        ),
        Case(
            "replace 5 MiB old",
            lines,
            {"command": "str_replace", "path": PATH, "old_str": "x" * 5 * LIMIT, "new_str": "z"},
        ),
        Case(
            "create 5 MiB",
            None,
            {"command": "create", "path": PATH, "file_text": note_text(5 * LIMIT)},
        ),
    ]


@dataclass
class Figures:
    case: str
    lock_ms: list[float] = field(default_factory=list)
    call_ms: list[float] = field(default_factory=list)
    reply_chars: int = 0
    reply_start: str = ""
    is_error: bool = False


class LockClock:
    """Wraps one vault's store so that each transaction's span is recorded."""

    def __init__(self, vault: Vault) -> None:
        store = vault._store  # the bench's own vault; nothing else sees the wrapper
        original = store.transaction
        self.spans: list[tuple[bool, float]] = []

        @contextmanager
        def timed(*, write: bool, action: str = "running a command") -> Iterator[None]:
            started: list[float] = []
            try:
                with original(write=write, action=action):
                    started.append(time.perf_counter())  # BEGIN has returned
                    yield
            finally:  # COMMIT or ROLLBACK has returned
                if started:
                    self.spans.append((write, time.perf_counter() - started[0]))

        store.transaction = timed  # type: ignore[method-assign]

    def take(self) -> list[tuple[bool, float]]:
        spans, self.spans = self.spans, []
        return spans


def place(runner: Runner, text: str | None) -> None:
    """The case's file, as it must be before the measured call."""
    runner.run({"command": "delete", "path": PATH})
    if text is not None:
        reply = runner.run({"command": "create", "path": PATH, "file_text": text})
        if reply.is_error:
            raise SystemExit(f"setup failed: {reply.content[:200]}")


def measure(runner: Runner, clock: LockClock, case: Case, repeat: int) -> Figures:
    figures = Figures(case.name)
    for _ in range(repeat):
        place(runner, case.file)
        clock.take()
        started = time.perf_counter()
        reply = runner.run(case.command)
        figures.call_ms.append((time.perf_counter() - started) * 1000)
        spans = clock.take()
        # The command's own transaction: the write one if it took one, else its read.
        writes = [span for is_write, span in spans if is_write]
        figures.lock_ms.append(max(writes or [span for _, span in spans] or [0.0]) * 1000)
        figures.reply_chars = len(reply.content)
        figures.reply_start = " ".join(reply.content[:90].split())
        figures.is_error = reply.is_error
    return figures


def report(figures: Figures) -> None:
    lock, call = figures.lock_ms, figures.call_ms
    print(
        f"{figures.case:<20} {statistics.median(lock):>10.1f} {max(lock):>10.1f} "
        f"{statistics.median(call):>10.1f} {figures.reply_chars:>12,}  "
        f"{'error: ' if figures.is_error else ''}{figures.reply_start[:60]}",
        flush=True,
    )


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per case (default 3)")
    parser.add_argument("--durability", choices=("full", "normal"), default="full")
    parser.add_argument("--case", action="append", help="run only this case (repeatable)")
    parser.add_argument("--dir", type=Path, help="put the temporary data under DIR")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the figures here")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    chosen = [case for case in cases() if not args.case or case.name in args.case]
    unknown = set(args.case or ()) - {case.name for case in cases()}
    if unknown:
        raise SystemExit(f"unknown case(s): {', '.join(sorted(unknown))}")
    root = Path(tempfile.mkdtemp(prefix="memvault-lock-", dir=args.dir))
    results: list[Figures] = []
    try:
        with isolated_environment(root), Vault.open(root / "home", durability=args.durability) as v:
            clock = LockClock(v)
            runner = v.runner("bench")
            print(f"memvault from {Path(sys.modules['memvault'].__file__ or '?').parent}")
            print(f"max_file_bytes {LIMIT:,}, durability {args.durability}, {args.repeat} runs")
            print(
                f"{'case':<20} {'lock med':>10} {'lock max':>10} {'call med':>10} "
                f"{'reply chars':>12}  reply   (times in ms)"
            )
            for case in chosen:
                figures = measure(runner, clock, case, args.repeat)
                results.append(figures)
                report(figures)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    if args.json:
        args.json.write_text(json.dumps([asdict(f) for f in results], indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
