"""Retention: memories unused for longer than a period are deleted (``memvault expire``).

A file's last-used day (``memory.touch``) becomes today when it is created, written,
renamed or viewed. :func:`expire` deletes, for one user or for all, every file last
used more than ``period`` days ago: a file last used on day D is kept through day
D + period and expires from day D + period + 1 on.

* Bounded: one read transaction per user finds the candidates; then each expiry is a
  store write transaction of its own, so agents keep working between them. A file
  used since it was found (viewed, written, renamed) or no longer where it was found
  is kept: the day is read again in the transaction that deletes.
* Audited like a delete: each expiry appends a :data:`EXPIRE_RECORD` record in its
  transaction (the user's pseudonym, the sealed path, the keyed digest of the text
  removed), which advances the store's ledger by the nodes removed, so ``memvault
  audit verify`` stays clean. The run ends with one operator record, :data:`RUN_RECORD`,
  also when it fails part way (outcome ``failed``, with what it did until then).
* Directories an expiry leaves empty go with the file, in its transaction and record,
  up to but not including ``/memories``; directories that were empty already stay.
* A file without a day (written before store format 3) is never expired unseen: the
  first run stamps today on it, so it expires ``period`` days later if still unused.
* ``dry_run``: the same report, and nothing is deleted or stamped.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from .._text import clean_text
from ..audit import Event, UserAuditKey
from ..errors import AuditError, IntegrityError, StorageError, UsageError, VaultError
from ..memory import MAX_DEPTH, Entry, Node, Tree, touch
from ..redaction import MAX_IDLE_DAYS
from ._parts import Parts

EXPIRE_RECORD = "memory.expire"
RUN_RECORD = "retention.expire"
STAMP_BATCH = 64  # files stamped per write transaction
_PERIOD = re.compile(r"([0-9]{1,6})([dw])")


def check_period(days: object) -> int:
    """A retention period in days: a whole number from 1 to :data:`MAX_IDLE_DAYS`."""
    if isinstance(days, bool) or not isinstance(days, int) or not 1 <= days <= MAX_IDLE_DAYS:
        raise UsageError(f"a retention period is a whole number of days from 1 to {MAX_IDLE_DAYS}")
    return days


def parse_period(text: str) -> int:
    """``90d`` or ``12w`` as a number of days; anything else is refused."""
    found = _PERIOD.fullmatch(text)
    if found is None:
        raise UsageError(
            f"--older-than takes a number of days or weeks, such as 90d or 12w, not "
            f"{clean_text(text)!r}",
            hint="months and years differ in length: give them in days (six months: 183d)",
        )
    return check_period(int(found[1]) * (7 if found[2] == "w" else 1))


# -- what a run did ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Expired:
    """A file an expiry deleted (in a dry run: would delete)."""

    user: str
    path: str
    last_used: int  # the day
    idle_days: int

    def to_json(self) -> dict[str, Any]:
        return {
            "user": self.user,
            "path": self.path,
            "last_used": touch.as_date(self.last_used),
            "idle_days": self.idle_days,
        }


@dataclass(frozen=True, slots=True)
class Found:
    """A directory removed with the expiry that left it empty, or a file stamped."""

    user: str
    path: str

    def to_json(self) -> dict[str, Any]:
        return {"user": self.user, "path": self.path}


@dataclass(slots=True)
class Expiry:
    """What a run of :func:`expire` did (with ``dry_run``: would do)."""

    period_days: int
    today: int
    dry_run: bool
    users: int = 0
    expired: list[Expired] = field(default_factory=list)
    directories: list[Found] = field(default_factory=list)  # left empty, removed
    stamped: list[Found] = field(default_factory=list)  # had no day: today is theirs now
    kept: int = 0  # files used within the period (or since they were found)

    def details(self, source: str) -> dict[str, Any]:
        """The run record's details: counts and settings, never a name or a path."""
        return {
            "period_days": self.period_days,
            "source": source,
            "dry_run": self.dry_run,
            "users": self.users,
            "expired": len(self.expired),
            "directories": len(self.directories),
            "stamped": len(self.stamped),
            "kept": self.kept,
        }

    def to_json(self) -> dict[str, Any]:
        """The report as ``memvault expire --json`` prints it."""
        return {
            "dry_run": self.dry_run,
            "period_days": self.period_days,
            "today": touch.as_date(self.today),
            "users": self.users,
            "expired": [e.to_json() for e in self.expired],
            "directories": [d.to_json() for d in self.directories],
            "stamped": [s.to_json() for s in self.stamped],
            "kept": self.kept,
        }


# -- the run -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Account:
    name: str
    tree: Tree
    key: UserAuditKey


def expire(
    parts: Parts,
    period: int | None,
    policy_period: int | None = None,
    *,
    user: str | None = None,
    dry_run: bool = False,
) -> Expiry:
    """Delete the files of ``user`` (None: every user) unused for more than ``period``
    days, or when ``period`` is None, ``policy_period`` days (the redaction policy's
    ``[retention] max_idle_days``); a usage error if neither is given. See the module
    docstring for what is kept and recorded."""
    source = "option" if period is not None else "policy"
    period = period if period is not None else policy_period
    if period is None:
        raise UsageError(
            "no retention period: none was given and the redaction policy sets none",
            hint="give one (`memvault expire --older-than 90d`), or set max_idle_days in a "
            "[retention] table of the redaction policy",
        )
    report = Expiry(check_period(period), touch.today(), dry_run)
    run_key: UserAuditKey | None = None
    try:
        accounts = _accounts(parts, user)
        if user is not None:
            run_key = accounts[0].key
        for account in accounts:
            report.users += 1
            _expire_user(parts, account, report)
    except AuditError:
        raise
    except (IntegrityError, StorageError) as exc:
        error = "integrity" if isinstance(exc, IntegrityError) else "storage"
        failed = Event(RUN_RECORD, user=run_key, outcome="failed", error=error)
        failed.details = report.details(source)
        record_operation(parts, failed, quiet=True)
        raise
    record_operation(parts, Event(RUN_RECORD, user=run_key, details=report.details(source)))
    return report


def _accounts(parts: Parts, user: str | None) -> list[_Account]:
    """The users a run covers, with their names and audit keys (``user``: that one only;
    a user the vault does not have is a usage error)."""
    with parts.lock, parts.store.transaction(write=False, action="reading the users"):
        if user is None:
            rows = [
                (user_id, token, parts.master.open_user_name(sealed, token))
                for user_id, token, sealed, _ in parts.store.users()
            ]
        else:
            token = parts.master.user_token(user)
            found = parts.store.user_by_lookup(token)
            if found is None:
                raise UsageError(
                    f"the vault has no user {clean_text(user)!r}",
                    hint="`memvault users list` shows the vault's users",
                )
            rows = [(found[0], token, user)]
        accounts = []
        for user_id, token, name in rows:
            wrapped = parts.store.audit_key(user_id)
            if wrapped is None:
                raise IntegrityError("a user's audit key is missing from the store")
            key = UserAuditKey(
                parts.master.unwrap_audit_key(wrapped, token), parts.audit.keys.user(name)
            )
            accounts.append(_Account(name, Tree(parts.store, parts.master, user_id, token), key))
    return accounts


def _expire_user(parts: Parts, account: _Account, report: Expiry) -> None:
    tree = account.tree
    with parts.lock, tree.transaction(write=False):
        _, entries = tree.listing(MAX_DEPTH + 1)
        days = tree.last_used_of(entries)
    idle: list[tuple[Entry, int]] = []
    unknown: list[Entry] = []
    for entry in entries:
        if entry.node.is_dir:
            continue
        day = days[entry.node.id]
        if day is None:
            unknown.append(entry)
        elif report.today - day > report.period_days:
            idle.append((entry, day))
        else:
            report.kept += 1
    if report.dry_run:
        for entry, day in idle:
            idle_days = report.today - day
            report.expired.append(Expired(account.name, _path(entry.parts), day, idle_days))
        emptied = _would_empty(entries, {entry.parts for entry, _ in idle})
        report.directories += [Found(account.name, _path(d)) for d in emptied]
        report.stamped += [Found(account.name, _path(e.parts)) for e in unknown]
        return
    removed: list[Found] = []
    for entry, _ in idle:
        parts.store.pause_for_writers()
        done = _expire_one(parts, account, entry, report)
        if done is None:
            report.kept += 1
        else:
            report.expired.append(done[0])
            removed += [Found(account.name, _path(d)) for d in done[1]]
    report.directories += sorted(removed, key=lambda d: d.path)
    for batch in _batches(unknown, STAMP_BATCH):
        parts.store.pause_for_writers()
        with parts.lock, tree.transaction(write=True):
            for entry in batch:
                if tree.touch(entry.node.id, entry.node.fid):
                    report.stamped.append(Found(account.name, _path(entry.parts)))


def _expire_one(
    parts: Parts, account: _Account, entry: Entry, report: Expiry
) -> tuple[Expired, list[tuple[str, ...]]] | None:
    """One file's expiry, in a write transaction of its own with its record: what was
    deleted and the directories that went with it; None if the file was used since it
    was found, or is no longer there."""
    tree, found = account.tree, entry.node
    with parts.lock, parts.audit.holding(account.key.pseudonym), tree.transaction(write=True):
        chain = tree.walk(entry.parts)
        node = chain[-1]
        if len(chain) != len(entry.parts) + 1 or (node.id, node.fid) != (found.id, found.fid):
            return None
        day = tree.last_used(node)
        if day is None or report.today - day <= report.period_days:
            return None
        tree.begin_write(parts.audit.next_seq())
        stored = tree.read(node)
        tree.delete(chain)
        emptied = _remove_emptied(tree, chain, entry.parts)
        idle = report.today - day
        event = Event(
            EXPIRE_RECORD,
            user=account.key,
            paths=[_path(entry.parts)],
            before=account.key.digest(stored.fid, stored.raw),
            key_version=tree.key_version,
            details={"idle_days": idle, "directories": len(emptied)},
        )
        parts.audit.record(event, txn=True, change=(0, tree.added))
    return Expired(account.name, _path(entry.parts), day, idle), emptied


def _remove_emptied(tree: Tree, chain: list[Node], parts: tuple[str, ...]) -> list[tuple[str, ...]]:
    """After a file was deleted: its directories that are now empty, removed from the
    nearest up (``chain[0]`` is ``/memories``, which stays)."""
    emptied = []
    for depth in range(len(parts) - 1, 0, -1):
        directory = chain[depth]
        if tree.has_children(directory):
            break
        tree.delete(chain[: depth + 1])
        emptied.append(parts[:depth])
    return emptied


def _would_empty(entries: list[Entry], expired: set[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """For a dry run: the directories the expiry of ``expired`` would leave empty."""
    children: dict[tuple[str, ...], list[tuple[str, ...]]] = {}
    for entry in entries:
        children.setdefault(entry.parts[:-1], []).append(entry.parts)
    gone = set(expired)
    emptied = []
    for entry in sorted(entries, key=lambda e: len(e.parts), reverse=True):
        kids = children.get(entry.parts, [])
        if entry.node.is_dir and kids and all(kid in gone for kid in kids):
            gone.add(entry.parts)
            emptied.append(entry.parts)
    return sorted(emptied)


def record_operation(parts: Parts, event: Event, *, quiet: bool = False) -> None:
    """Append an operator record in a write transaction of its own (``quiet``: a record
    that cannot be written is let go, for a run that is failing already)."""
    try:
        with (
            parts.lock,
            parts.audit.holding(),
            parts.store.transaction(write=True, action="recording an operation"),
        ):
            parts.audit.record(event, txn=True)
    except VaultError:
        if not quiet:
            raise


def _path(parts: tuple[str, ...]) -> str:
    return "/".join(("/memories", *parts))


def _batches(items: list[Entry], size: int) -> Iterator[list[Entry]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]
