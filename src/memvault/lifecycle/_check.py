"""The store's full check (``memvault check``): what opening a vault does not do, because
it reads every row.

Opening a vault costs the same whatever it holds; every memory is authenticated when
it is read, and a listing compares each directory with its tally. What only a pass
over everything finds is checked here, in one read snapshot:

1. SQLite's own integrity check: every page, and every index against its table;
2. the store's ledger against its rows: how many users, memories and audit keys;
3. every user: their sealed id opens, their data and audit keys unwrap, every
   directory and file opens (and so is authenticated), every tally matches the rows
   below it, every file's text opens, every last-used day opens;
4. memories that no user's ``/memories`` reaches.

It changes nothing. The run is recorded (``vault.check``) with what it counted and
how many problems it found. ``memvault audit verify`` checks the log and its binding
to the store; the two together are the full check of a home.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..audit import Event
from ..errors import IntegrityError, VaultError
from ..memory import MAX_DEPTH, Tree
from ._parts import Parts
from ._retention import record_operation
from ._rotate import Progress

CHECK_RECORD = "vault.check"
_PROGRESS_EVERY = 256  # memories read between two updates of a progress bar


@dataclass
class CheckReport:
    """What a check read and what it found wrong (nothing: ``problems`` is empty)."""

    users: int = 0
    directories: int = 0
    files: int = 0
    bytes: int = 0
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)

    @property
    def intact(self) -> bool:
        return not self.problems

    def to_json(self) -> dict[str, Any]:
        """As ``memvault check --json`` prints it."""
        return {
            "intact": self.intact,
            "users": self.users,
            "directories": self.directories,
            "files": self.files,
            "bytes": self.bytes,
            "seconds": round(self.seconds, 3),
            "problems": list(self.problems),
        }


def check_vault(
    parts: Parts, progress: Progress | None = None, sized: Callable[[int], None] | None = None
) -> CheckReport:
    """Check every page, count and memory of the store (module docstring); ``progress``
    is told of the memories (count, bytes of text) as they are read, and ``sized`` of how
    many there are, once counted."""
    report = CheckReport()
    began = time.monotonic()
    store = parts.store
    with parts.lock, store.transaction(write=False, action="checking the vault"):
        stored = store.counts()[1]
        if sized is not None:
            sized(stored)
        report.problems += [f"pages: {problem}" for problem in store.check_structure()]
        ledger = parts.audit.ledger
        if ledger is not None:
            report.problems += [f"ledger: {problem}" for problem in ledger.count_problems()]
        reached = 0
        for user_id, token, sealed, _ in store.users():
            report.users += 1
            try:
                name = parts.master.open_user_name(sealed, token)
            except VaultError as exc:
                report.problems.append(f"user row {user_id}: {exc.message}")
                continue
            try:
                reached += _check_user(parts, user_id, token, report, progress, name)
            except VaultError as exc:
                report.problems.append(f"user {name!r}: {exc.message}")
    if reached != stored and not report.problems:
        report.problems.append(
            f"{stored - reached} of the {stored} memories (files and directories) are not "
            "reachable from their user's /memories: rows were moved or inserted outside memvault"
        )
    report.seconds = time.monotonic() - began
    details = {k: v for k, v in report.to_json().items() if k not in ("problems", "seconds")}
    details["problems"] = len(report.problems)
    record_operation(parts, Event(CHECK_RECORD, details=details))
    return report


def _check_user(
    parts: Parts,
    user_id: int,
    token: bytes,
    report: CheckReport,
    progress: Progress | None,
    name: str,
) -> int:
    """Read one user's keys and every memory; returns how many nodes were reached."""
    tree = Tree(parts.store, parts.master, user_id, token)
    tree.join()  # unwraps every data key of the user
    wrapped = parts.store.audit_key(user_id)
    if wrapped is None:
        raise IntegrityError("their audit key is missing from the store")
    parts.master.unwrap_audit_key(wrapped, token)
    miscounted: list[str] = []
    _, entries = tree.listing(MAX_DEPTH + 1, miscounted)
    report.problems += [f"user {name!r}: {problem}" for problem in miscounted]
    tree.last_used_of(entries)
    done = nbytes = 0
    for entry in entries:
        done += 1
        if entry.node.is_dir:
            report.directories += 1
        else:
            size = len(tree.read(entry.node).raw)
            report.files += 1
            report.bytes += size
            nbytes += size
        if progress is not None and (done == _PROGRESS_EVERY or entry is entries[-1]):
            progress(done, nbytes)
            done = nbytes = 0
    return len(entries)
