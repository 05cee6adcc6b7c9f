"""Moving a vault between a home (SQLite) and a PostgreSQL database (``memvault migrate``).

Nothing is decrypted: every row is copied as it is stored (ciphertexts, keyed tokens,
wrapped keys) with its id, so the target holds the same vault, under the same master
key, byte for byte. The audit log goes with it, unchanged:

* from a home, the log's files become the target's *archive* (chain -1 of a log in the
  database: the same lines, the same numbers, checked by the same rules), and its ledger
  the archive's ledger; the nodes' stamps name those records still;
* from a database, its chains are copied as they are (a vault moved into a home keeps
  its log in the home's database from then on).

The target's log then goes on with a ``vault.move`` record that names the last record
copied and its hash (continuity), and the source's with one saying where the vault went.

**Resumable.** The source is marked first (``meta`` ``moved``: where to, and whether the
move is done): from then on it opens only to finish the move, so no new process writes
to it. Each batch is copied in one target transaction together with how far the copy
got (``meta`` ``move``), so a run killed at any point resumes where it stopped when the
same command is run again. A process that had the source open before the move began
and wrote to it meanwhile is caught at the end (the counts and the log's head no longer
match): the target is emptied, and the next run starts over.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from ..audit import AuditLog, ChainLedger, ChainState, DbAuditLog, Event, line_hash, segments
from ..errors import IntegrityError, UsageError
from ..keys import VaultSecrets
from ..store import ARCHIVE, LogStore
from ._parts import Parts, operator

MARK = "moved"  # in the source: {"to": where, "state": "moving" | "moved"}
PROGRESS = "move"  # in the target while copying: {"from": vault id, "step": n, "after": key}
BATCH = 2000
# meta rows that belong to a store, not to the vault it holds: never copied.
_OWN_META = frozenset({"schema", "pg_schema", "audit_chains", "audit_synced", "ledger"})
# The copy's steps, in order: users (with their keys), nodes (with their contents), log.
_STEPS = ("users", "nodes", "audit_log")


@dataclass(frozen=True)
class Move:
    """What ``memvault migrate`` did."""

    source: str
    target: str
    users: int
    memories: int
    data_keys: int
    records: int  # audit records copied
    resumed: bool
    seconds: float


def source_mark(parts: Parts) -> dict[str, str] | None:
    """The source's mark, if a move began."""
    with parts.store.transaction(write=False, action="reading the vault's move"):
        raw = parts.store.get_meta(MARK)
    return None if raw is None else read_mark(raw)


def read_mark(raw: bytes) -> dict[str, str]:
    """A store's move mark, as :func:`_set_mark` wrote it; IntegrityError if it is not."""
    try:
        mark = json.loads(raw)
    except ValueError:  # not UTF-8, or not JSON
        mark = None
    if not isinstance(mark, dict) or not all(isinstance(mark.get(k), str) for k in ("to", "state")):
        raise IntegrityError(
            "the vault's move mark (meta 'moved') is damaged: it was modified outside memvault",
            hint="restore the database (or home) from a backup",
        )
    return {str(k): str(v) for k, v in mark.items()}


def move(
    parts: Parts,
    source_where: str,
    target: LogStore,
    target_where: str,
    chains: int,
    progress: Callable[[str, int], None] | None = None,
) -> Move:
    """Copy the open vault of ``parts`` into the empty store ``target`` (or finish an
    earlier run), then mark the source moved. ``chains``: the target's number of chains
    when it is a home (a database's is its schema's). The caller has verified the source."""
    began = time.monotonic()
    vault_id = parts.master.vault_id
    mark = source_mark(parts)
    if mark is not None and mark.get("to") != target_where:
        raise UsageError(
            f"this vault is being moved to {mark.get('to')}, not to {target_where}",
            hint="finish that move first: run memvault migrate again with that target",
        )
    state = _target_state(target, vault_id)
    resumed = mark is not None
    if mark is None:
        _check_chains(parts, target, target_where)
        _set_mark(parts, target_where, "moving")
    if state != "done":
        before = _fingerprint(parts.store)
        at = state if isinstance(state, dict) else {"step": 0, "after": 0}
        _copy(parts, target, vault_id, chains, at, progress)
        if _fingerprint(parts.store) != before:
            _empty(target)
            raise UsageError(
                "the vault changed while it was being moved: a process that had it open "
                "before the move began wrote to it; the target was emptied",
                hint="stop every process that uses the vault, then run the same command again",
            )
        _finish(parts, target, vault_id, source_where)
        problems = _compare(parts, target)
        if problems:
            _empty(target)
            raise IntegrityError(
                f"the moved vault does not match its source: {problems[0]}; the target was emptied",
                hint="stop every process that uses the vault, then run the same command again",
            )
    _set_mark(parts, target_where, "moved")
    counts = _counts(target)
    return Move(
        source_where,
        target_where,
        counts["users"],
        counts["nodes"],
        counts["data_keys"],
        counts["audit_log"],
        resumed,
        time.monotonic() - began,
    )


def _target_state(target: LogStore, vault_id: str) -> str | dict[str, int]:
    """ "empty", "done" (a run before finished the copy), or how far a copy got."""
    with target.transaction(write=True, action="opening the move's target"):
        target.initialize()
        held = target.get_meta("vault_id")
        raw = target.get_meta(PROGRESS)
        empty = target.is_empty()
    if raw is not None:
        found = json.loads(raw)
        if found.get("from") != vault_id:
            raise UsageError(
                f"the target holds part of another vault's move (vault {found.get('from')})"
            )
        return {"step": int(found["step"]), "after": int(found["after"])}
    if held is None:
        if not empty:
            raise UsageError("the target holds users or memories but no vault: it is not empty")
        return "empty"
    if held.decode() != vault_id:
        raise UsageError(f"the target holds another vault ({held.decode()})")
    return "done"


def _check_chains(parts: Parts, target: LogStore, target_where: str) -> None:
    """A log in chains keeps its number of chains: a database made with another number
    cannot take it."""
    if not isinstance(parts.audit, DbAuditLog):
        return
    with target.transaction(write=False, action="opening the move's target"):
        theirs = target.log_chains()
    if theirs and theirs != parts.audit.chains:
        raise UsageError(
            f"the vault's audit log has {parts.audit.chains} chains, and {target_where} was "
            f"made with {theirs}",
            hint=f"make the database with memvault db migrate --chains {parts.audit.chains}",
        )


def _set_mark(parts: Parts, target_where: str, state: str) -> None:
    """Mark the source, with a record of it in the source's log."""
    raw = json.dumps({"to": target_where, "state": state}).encode()
    details = {"to": target_where, "state": state, "operator": operator()}
    with (
        parts.lock,
        parts.audit.holding(),
        parts.store.transaction(write=True, action="marking the vault moved"),
    ):
        if parts.store.get_meta(MARK) == raw:
            return
        parts.store.set_meta(MARK, raw)
        parts.audit.record(Event("vault.move", details=details), txn=True)


def _fingerprint(store: LogStore) -> tuple[object, ...]:
    """What a write to the source changes: its counts and its newest rows."""
    with store.transaction(write=False, action="reading the vault"):
        counts = store.table_counts()
        meta = store.get_metas(("ledger",))
        heads = store.log_heads(store.log_chains())
    return (sorted(counts.items()), sorted(meta.items()), sorted(heads.items()))


def _copy(
    parts: Parts,
    target: LogStore,
    vault_id: str,
    chains: int,
    at: dict[str, int],
    progress: Callable[[str, int], None] | None,
) -> None:
    if at["step"] == 0 and at["after"] == 0 and not target.log_chains():
        with target.transaction(write=True, action="starting the move"):
            target.set_meta("audit_chains", str(_chains_of(parts, chains)).encode())
    for step in range(at["step"], len(_STEPS)):
        after = at["after"] if step == at["step"] else 0
        for batch, last in _batches(parts, _STEPS[step], after):
            with target.transaction(write=True, action="copying the vault"):
                for table, rows in batch:
                    target.put_rows(table, rows)
                mark = {"from": vault_id, "step": step, "after": last}
                target.set_meta(PROGRESS, json.dumps(mark).encode())
            if progress is not None:
                progress(_STEPS[step], len(batch[0][1]))


def _chains_of(parts: Parts, chains: int) -> int:
    return parts.audit.chains if isinstance(parts.audit, DbAuditLog) else chains


Batch = list[tuple[str, list[Any]]]


def _batches(parts: Parts, step: str, after: int) -> Iterator[tuple[Batch, int]]:
    """The source's rows of one step, in batches: (tables and their rows, the last key)."""
    if step == "audit_log" and isinstance(parts.audit, AuditLog):
        yield from _file_lines(parts.audit, after)
        return
    store = parts.store
    first, *following = {
        "users": ("users", "data_keys", "audit_keys"),
        "nodes": ("nodes", "contents"),
        "audit_log": ("audit_log",),
    }[step]
    while True:
        with store.transaction(write=False, action="reading the vault to move it"):
            rows = store.copy_rows(first, after, None, BATCH)
            if not rows:
                return
            last = int(rows[-1][0])
            batch: Batch = [(first, rows)]
            for table in following:
                batch.append((table, store.copy_rows(table, after, last, 1 << 62)))
        yield batch, last
        after = last


def _file_lines(log: AuditLog, after: int) -> Iterator[tuple[Batch, int]]:
    """A log of files' records with numbers above ``after``, in batches (the archive)."""
    rows: list[tuple[int, bytes]] = []
    for _, path in segments(log.directory):
        with open(path, "rb") as handle:
            for raw in handle:
                line = raw.rstrip(b"\n")
                seq = json.loads(line)["seq"]
                if seq > after:
                    rows.append((seq, line))
                if len(rows) >= BATCH:
                    yield [("audit_log", rows)], rows[-1][0]
                    rows = []
    if rows:
        yield [("audit_log", rows)], rows[-1][0]


def _finish(parts: Parts, target: LogStore, vault_id: str, source_where: str) -> None:
    """In one transaction: the vault's own rows of ``meta``, the archive's ledger, the
    next ids, and the target log's ``vault.move`` record naming what was copied."""
    with parts.store.transaction(write=False, action="reading the vault to move it"):
        meta = parts.store.all_meta()
        archive = _archive_state(parts)
    secrets: VaultSecrets = parts.master.secrets
    log = DbAuditLog(parts.audit.keys, target, secrets)
    with log.holding(), target.transaction(write=True, action="finishing the move"):
        for key, value in sorted(meta.items()):
            if key not in _OWN_META and key not in (MARK, PROGRESS):
                target.set_meta(key, value)
        if archive is not None:
            sealed = ChainLedger(secrets, vault_id).seal(ARCHIVE, archive)
            target.set_meta(f"ledger.{ARCHIVE}", sealed)
        target.follow_ids()
        target.delete_meta(PROGRESS)
        newest = _newest_copied(target)
        details: dict[str, Any] = {"from": source_where, "operator": operator()}
        if newest is not None:
            details.update(last=newest[0], last_hash=line_hash(newest[1]))
        log.record(Event("vault.move", details=details), txn=True)


def _archive_state(parts: Parts) -> ChainState | None:
    """The archive's ledger, from a log of files' ledger and its newest record."""
    if not isinstance(parts.audit, AuditLog) or parts.audit.ledger is None:
        return None
    state = parts.audit.ledger.load()
    newest, _ = parts.audit.head()
    if state is None:
        return ChainState(newest, 0, 0, 0)
    return ChainState(newest, state.written, state.users, state.nodes)


def _newest_copied(target: LogStore) -> tuple[int, bytes] | None:
    """The copied record with the highest number (of the archive, or of any chain)."""
    found = None
    for seq, line, _ in target.log_heads(target.log_chains()).values():
        if seq is not None and line is not None and (found is None or seq > found[0]):
            found = (seq, line)
    return found


def _compare(parts: Parts, target: LogStore) -> list[str]:
    """What the target holds that its source does not: the rows of each table (one more
    record, the target's own ``vault.move``), and the source's newest record at the end of
    what was copied, with the same hash."""
    source, copied = _counts(parts.store), _counts(target)
    problems = [
        f"the source's {table} table holds {source[table]:,} rows, the target's {copied[table]:,}"
        for table in ("users", "data_keys", "audit_keys", "nodes", "contents")
        if source[table] != copied[table]
    ]
    problems += _key_versions(parts.store, target)
    if isinstance(parts.audit, AuditLog):
        newest, digest = parts.audit.head()
        with target.transaction(write=False, action="reading the moved log"):
            seq, line, _ = target.log_head(ARCHIVE)
        if seq != newest or line is None or line_hash(line) != digest:
            problems.append(f"the log's newest record ({newest}) is not the archive's newest")
    elif copied["audit_log"] != source["audit_log"] + 1:
        problems.append(
            f"the source's log holds {source['audit_log']:,} records, the target's "
            f"{copied['audit_log'] - 1:,} besides its own"
        )
    return problems


def _key_versions(source: LogStore, target: LogStore) -> list[str]:
    """Each user's data key versions, and which is primary, on both sides."""
    found = []
    for store in (source, target):
        with store.transaction(write=False, action="reading the key versions"):
            keys = {(r[0], r[1]) for r in store.copy_rows("data_keys", 0, None, 1 << 62)}
            primary = {(r[0], r[3]) for r in store.copy_rows("users", 0, None, 1 << 62)}
        found.append((keys, primary))
    if found[0] != found[1]:
        return ["the users' data key versions differ"]
    return []


def _counts(store: LogStore) -> dict[str, int]:
    with store.transaction(write=False, action="counting the moved vault"):
        return store.table_counts()


def _empty(target: LogStore) -> None:
    """Remove a copy that can no longer be finished (the source changed under it)."""
    with target.transaction(write=True, action="emptying the move's target"):
        target.empty_copy()
