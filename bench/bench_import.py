"""Import throughput: a reference backend's plaintext directory brought into a vault.

Run by hand; it prints figures and asserts nothing about them::

    .venv/bin/python bench/bench_import.py [--quick] [--json FILE] [--dir DIR]

In a fresh temporary directory (deleted at the end, with the key directory and
the master key it sets for itself) it writes the directory the SDK's
``BetaLocalFilesystemMemoryTool`` would leave: 10,000 notes of 2 KB (``--quick``:
1,000) in 100 topic directories, one note in ten carrying secrets and personal
data (an AWS key, a card number, an e-mail address, a phone number) for the
redaction filter to remove. Then it times ``Vault.import_memories`` on it, each
time into a fresh vault under the default policy:

* a dry run (the walk, the reads, the guard, the filter; nothing stored);
* the import in durability ``full`` (one fsync per memory) and ``normal``.

Only the call is timed. It prints files/s and MB/s (10^6 bytes of the source's
files), checks that every file was imported and the right ones redacted, and
puts two figures beside them: the disk's floor for a durable write, and the
filter alone (``Screen.text`` on every note, no I/O), the part of the work
that no import can skip.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path
from typing import Any

from bench_commands import (
    NOTE_BYTES,
    Summary,
    environment,
    isolated_environment,
    note_text,
    sync_latency,
)

from memvault import Vault

TOPICS = 100
USER = "imported-user"
SECRET_EVERY = 10  # one note in ten carries secrets
SECRET_KINDS = {"api_key", "card_number", "email", "phone"}
BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"  # the alphabet of AWS access key ids


@dataclass(frozen=True)
class Plan:
    files: int
    sync_probes: int


FULL = Plan(files=10_000, sync_probes=300)
QUICK = Plan(files=1_000, sync_probes=50)


@dataclass(frozen=True)
class Row:
    name: str
    seconds: float
    files: int
    source_bytes: int

    @property
    def files_per_s(self) -> float:
        return self.files / self.seconds

    @property
    def mb_per_s(self) -> float:
        return self.source_bytes / 1e6 / self.seconds


def secret_note(seed: int) -> str:
    """A 2 KB note whose first lines hold a secret and personal data of several kinds."""
    suffix = "".join(BASE32[seed >> shift & 31] for shift in (15, 10, 5, 0))
    head = (
        f"# ticket {seed}\n"
        f"aws_access_key_id = AKIAQ3EGRT5XJ7KL{suffix}\n"
        "card on file: 4111 1111 1111 1111\n"
        f"reach the customer at dana.{seed}@fastmail.com or +1 650 253 {seed % 10_000:04d}\n"
    )
    return (head + note_text(seed))[:NOTE_BYTES]


def build_source(base: Path, files: int) -> int:
    """The reference backend's layout under ``base``; returns the bytes written."""
    total = 0
    memories = base / "memories"
    for topic in range(TOPICS):
        (memories / f"topic-{topic:03d}").mkdir(parents=True)
    for n in range(files):
        text = secret_note(n) if n % SECRET_EVERY == 0 else note_text(n)
        data = text.encode()
        (memories / f"topic-{n % TOPICS:03d}" / f"note-{n:05d}.md").write_bytes(data)
        total += len(data)
    return total


def time_import(root: Path, base: Path, name: str, **open_args: Any) -> tuple[float, Any]:
    home = root / f"vault-{name}"
    with Vault.open(home, **open_args) as vault:
        vault.runner("someone-else")  # the vault's first user, made outside the timing
        start = time.perf_counter()
        report = vault.import_memories(base, USER, dry_run=name == "dry run")
        seconds = time.perf_counter() - start
    shutil.rmtree(home)
    return seconds, report


def check(report: Any, files: int) -> None:
    """Every file imported (or importable), the secret ones redacted, of the kinds planted."""
    redacted = -(-files // SECRET_EVERY)
    if (report.imported, report.refused, report.redacted) != (files, 0, redacted):
        raise SystemExit(
            f"unexpected result: {report.imported} imported, {report.refused} refused, "
            f"{report.redacted} redacted (expected {files}, 0, {redacted})"
        )
    missing = SECRET_KINDS - set(report.findings())
    if missing:
        raise SystemExit(f"the filter found no {', '.join(sorted(missing))}")


def filter_alone(root: Path, base: Path) -> float:
    """Seconds the vault's filter (``Screen.text``) takes over every note, in memory."""
    texts = [p.read_text(encoding="utf-8") for p in sorted((base / "memories").rglob("*.md"))]
    with Vault.open(root / "vault-filter") as vault:
        screen = vault._handlers.screen  # the bench reads the vault's own filter
        pseudonym = partial(vault._master.pseudonym, vault._master.user_token(USER))
        start = time.perf_counter()
        for text in texts:
            screen.text(text, pseudonym)
        return time.perf_counter() - start


def print_rows(rows: list[Row], sync: Summary, filter_seconds: float, source_bytes: int) -> None:
    print(
        f"\ndisk floor (4 KB pwrite + fdatasync): median {sync.median_us:.0f} µs, "
        f"p99 {sync.p99_us:.0f} µs"
    )
    print(f"{'':<22}{'seconds':>9}{'files/s':>10}{'MB/s':>8}")
    for row in rows:
        print(f"{row.name:<22}{row.seconds:>9.2f}{row.files_per_s:>10,.0f}{row.mb_per_s:>8.2f}")
    files = rows[0].files
    print(
        f"{'filter alone':<22}{filter_seconds:>9.2f}{files / filter_seconds:>10,.0f}"
        f"{source_bytes / 1e6 / filter_seconds:>8.2f}"
    )


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1,000 files instead of 10,000")
    parser.add_argument("--json", metavar="FILE", type=Path, help="write the figures here")
    parser.add_argument(
        "--dir",
        metavar="DIR",
        type=Path,
        help="where to make the temporary directory (default: the system's); "
        "pick a real disk, not a tmpfs",
    )
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    plan = QUICK if args.quick else FULL
    root = Path(tempfile.mkdtemp(prefix="memvault-bench-", dir=args.dir))
    started = time.monotonic()
    try:
        env = environment(root)
        print(f"memvault from {env['memvault']}; data in {root}: {env['filesystem']}")
        with isolated_environment(root):
            base = root / "source"
            source_bytes = build_source(base, plan.files)
            print(
                f"source: {plan.files:,} notes of {NOTE_BYTES:,} B in {TOPICS} directories, "
                f"one in {SECRET_EVERY} with secrets ({source_bytes / 1e6:.1f} MB)",
                flush=True,
            )
            sync = sync_latency(root, plan.sync_probes)
            rows = []
            for name, options in (
                ("dry run", {}),
                ("import, full", {"durability": "full"}),
                ("import, normal", {"durability": "normal"}),
            ):
                seconds, report = time_import(root, base, name, **options)
                check(report, plan.files)
                rows.append(Row(name, seconds, plan.files, source_bytes))
                print(f"  {name}: {seconds:.1f} s", flush=True)
            filter_seconds = filter_alone(root, base)
            print_rows(rows, sync, filter_seconds, source_bytes)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(f"\ntotal {time.monotonic() - started:.0f} s")
    if args.json is not None:
        figures = {
            "environment": env,
            "plan": asdict(plan),
            "sync_probe_us": asdict(sync),
            "rows": [
                {**asdict(row), "files_per_s": row.files_per_s, "mb_per_s": row.mb_per_s}
                for row in rows
            ],
            "filter_alone_seconds": filter_seconds,
        }
        args.json.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
        print(f"figures written to {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
