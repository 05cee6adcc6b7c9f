"""Building the vaults of ``bench_commands.py --scale``: N memories, fast, and consistent.

A million memories written through the tool one command at a time would take
hours, so the notes are written through the library's own tree layer, in large
transactions, the way a command writes them:

* each user is created through ``Vault.runner(user)``: their keys, their audit key
  and their ``user.create`` record, as on first use;
* then, in one store write transaction per user, taken as a command takes it
  (the vault's lock, the audit log held, ``BEGIN IMMEDIATE``), the user's ``Tree``
  makes 10 topic directories (``Tree.mkdirs``) and 100 notes in each
  (``Tree.create_file``): every node sealed under the user's data key, bound to its
  parent, stamped with the record the transaction appends, every directory's tally
  kept as a command keeps it;
* that record is a real one, ``bench.build`` (the user's pseudonym, what it made),
  appended with the change it made: the store's ledger advances to it and to the
  true count of nodes in the same transaction, as a command's does.

So ``memvault check`` finds the vault consistent (pages, ledger counts, every key,
tally, text and day). ``memvault audit verify`` does not: it flags every node, each
stamped by a ``bench.build`` record, which is not one of the change records it holds
a node against.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench_commands import NOTE_BYTES, note_text

from memvault import Vault
from memvault.audit import Event

TOPICS = 10
NOTES_PER_TOPIC = 100
NOTES_PER_USER = TOPICS * NOTES_PER_TOPIC
MEASURED_USER = "measured"
BUILD_RECORD = "bench.build"


def topic_name(topic: int) -> str:
    return f"topic-{topic}"


def note_name(note: int) -> str:
    return f"note-{note:03d}.md"


def note_path(topic: int, note: int) -> str:
    return f"/memories/{topic_name(topic)}/{note_name(note)}"


def user_names(memories: int) -> list[str]:
    """The users of a vault of ``memories`` notes, in the order they are built: the
    measured user in the middle, so its rows are neither the first nor the last."""
    if memories < NOTES_PER_USER or memories % NOTES_PER_USER:
        raise SystemExit(f"a scale size must be a multiple of {NOTES_PER_USER}: {memories}")
    others = [f"user-{i:05d}" for i in range(memories // NOTES_PER_USER - 1)]
    middle = len(others) // 2
    return [*others[:middle], MEASURED_USER, *others[middle:]]


@dataclass(frozen=True)
class Built:
    memories: int  # notes (files)
    users: int
    nodes: int  # files and directories, as the ledger counts them
    seconds: float
    db_bytes: int  # vault.db after the build (closed: no WAL left)
    audit_bytes: int

    @property
    def rate(self) -> float:
        return self.memories / self.seconds if self.seconds else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "memories": self.memories,
            "users": self.users,
            "nodes": self.nodes,
            "seconds": self.seconds,
            "memories_per_second": self.rate,
            "db_bytes": self.db_bytes,
            "audit_bytes": self.audit_bytes,
        }


def build_vault(home: Path, memories: int, *, progress: bool = True) -> Built:
    """A vault at ``home`` holding ``memories`` notes of NOTE_BYTES bytes, 1,000 a user."""
    texts = [note_text(n) for n in range(NOTES_PER_USER)]
    names = user_names(memories)
    started = time.monotonic()
    last_report = started
    # "normal": no fsync per commit, to build faster; each measurement reopens the vault.
    with Vault.open(home, durability="normal") as vault:
        for done, name in enumerate(names, 1):
            _fill_user(vault, name, texts)
            now = time.monotonic()
            if progress and (now - last_report > 30 or done == len(names)):
                last_report = now
                rate = done * NOTES_PER_USER / (now - started)
                print(f"    {done * NOTES_PER_USER:>9,} memories, {rate:,.0f}/s", flush=True)
        ledger = vault.audit.ledger
        assert ledger is not None
        with vault._store.transaction(write=False, action="counting"):
            state = ledger.load()
            users, nodes, _ = vault._store.counts()
        assert state is not None and (state.users, state.nodes) == (users, nodes), (state, users)
    seconds = time.monotonic() - started
    return Built(
        memories,
        users,
        nodes,
        seconds,
        (home / "vault.db").stat().st_size,
        _tree_bytes(home / "audit"),
    )


def _fill_user(vault: Vault, name: str, texts: list[str]) -> None:
    runner = vault.runner(name)  # creates the user: keys, audit key, user.create record
    tree = runner._tree
    audit = vault.audit
    with (
        vault._lock,
        audit.holding(),
        vault._store.transaction(write=True, action="building the bench vault"),
    ):
        tree.join()
        tree.begin_write(audit.next_seq())
        for topic in range(TOPICS):
            chain = tree.mkdirs(tree.walk(()), (topic_name(topic),))
            for note in range(NOTES_PER_TOPIC):
                tree.create_file(chain, note_name(note), texts[topic * NOTES_PER_TOPIC + note])
        event = Event(
            BUILD_RECORD,
            user=runner._audit_key,
            details={"directories": TOPICS, "files": NOTES_PER_USER, "note_bytes": NOTE_BYTES},
        )
        audit.record(event, txn=True, change=(0, tree.added))


def _tree_bytes(directory: Path) -> int:
    return sum(p.stat().st_size for p in directory.rglob("*") if p.is_file())


@dataclass(frozen=True)
class Checked:
    seconds: float  # wall time of the CLI, from start to exit
    report: dict[str, Any]  # what ``memvault check --json`` printed

    @property
    def intact(self) -> bool:
        return bool(self.report.get("intact"))


def check_vault(home: Path) -> Checked:
    """``memvault --home HOME check --json``, run as a separate process with the memvault
    this bench imports (its PYTHONPATH), and the throwaway key in the environment."""
    src = str(Path(sys.modules["memvault"].__file__ or "").parent.parent)
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [src, os.environ.get("PYTHONPATH")])),
    }
    command = [sys.executable, "-m", "memvault", "--home", str(home), "check", "--json"]
    started = time.monotonic()
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    seconds = time.monotonic() - started
    try:
        report = json.loads(done.stdout)
    except ValueError:
        report = {"intact": False, "problems": [done.stdout[-2000:], done.stderr[-2000:]]}
    return Checked(seconds, report)
