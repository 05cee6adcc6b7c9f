"""Verifying a PostgreSQL vault's audit log: each chain on its own, in one snapshot.

Each chain is checked as a log file's records are (``_chain.check_line``): every MAC
under the vault's audit key, every number one more than the last from the chain's first,
every ``prev`` the hash of the record before, from the chain's own genesis. Then what a
chain adds: each record's user belongs to the chain (so a record moved between chains
is caught even where the links would hold), the chain ends exactly at the record its
sealed ledger names (so a record removed from the end is caught, however recent), and,
given a checkpoint, every chain still holds the record the checkpoint signed as its
head, with the same hash.

Everything is read in one REPEATABLE READ snapshot: a fleet may go on writing while a
verification runs, and the chains and ledgers it sees are those of one instant.
"""

from __future__ import annotations

import hmac
import json
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from ..store import ARCHIVE, LogStore, PgStore, chain_of_seq, chain_range
from ._chain import Problem, Report, State, check_line
from ._chains import ChainLedger, chain_genesis, chain_of, label
from ._checkpoint import heads_in_chains
from ._db_read import chain_lines, open_states, stray_problems
from ._keys import AuditKeys
from ._record import MAC_SUFFIX_LEN
from ._segments import genesis, line_hash

_USER = b',"user":'
_MOVE = b',"command":"vault.move",'


def examine_chains(
    store: LogStore,
    keys: AuditKeys,
    sealer: ChainLedger,
    chains: int,
    checkpoint: dict[str, Any] | None = None,
    jobs: int = 1,
) -> Report:
    """Check every chain and report every problem found (never raises for damage).
    ``jobs`` > 1: that many processes walk the chains at once, in the same snapshot (a
    PostgreSQL store; another store is walked by this process alone)."""
    report = Report(chains=chains + 1)  # the archive, if any, is not counted as a chain
    signed = heads_in_chains(checkpoint) if checkpoint is not None else None
    every = list(range(ARCHIVE, chains + 1))
    with store.transaction(write=False, action="verifying the audit log"):
        blobs = store.log_ledgers()
        states = open_states(sealer, blobs, chains)
        strays = stray_problems(store, chains)
        moves = _move_problems(store, keys)
        if jobs > 1 and isinstance(store, PgStore):
            walked = _in_parallel(store, keys, chains, signed, every, jobs)
        else:
            walked = [(c, *_walk_alone(store, keys, chains, c, signed)) for c in every]
    report.problems += [Problem("the log as a whole", stray) for stray in strays] + moves
    for chain in sorted(set(signed or ()) - set(every)):
        assert signed is not None
        report.add(
            Problem(
                f"chain {chain}",
                f"the checkpoint signed its record {label(signed[chain][0])}, but the vault's "
                f"log has chains 0 to {chains} only: its number of chains was changed outside "
                "memvault",
            )
        )
    for chain, found, newest in sorted(walked):
        report.problems += found.problems
        report.notes += found.notes
        report.records += found.records
        state = states[chain]
        if state is None:
            report.add(Problem(f"chain {chain}", "its ledger fails its integrity check"))
        elif newest and chain not in blobs:
            report.add(Problem(f"chain {chain}", "it has records but no ledger: it was removed"))
        elif state.newest != newest:
            report.add(_ledger_problem(chain, newest, state.newest))
    if checkpoint is not None and not report.problems:
        report.checkpoint = (
            f"the log extends the checkpoint of {checkpoint.get('time', '?')} "
            f"({checkpoint['size']} records then, {report.records} now)"
        )
    report.last_seq = report.records
    return report


def _walk_alone(
    store: LogStore,
    keys: AuditKeys,
    chains: int,
    chain: int,
    signed: dict[int, tuple[int, str]] | None,
) -> tuple[Report, int]:
    found = Report()
    return found, _walk(store, keys, chains, chain, found, signed)


# What a forked walker inherits (never pickled: the keys stay in memory, in the fork).
_FORKED: tuple[PgStore, AuditKeys, int, dict[int, tuple[int, str]] | None, str] | None = None


def _in_parallel(
    store: PgStore,
    keys: AuditKeys,
    chains: int,
    signed: dict[int, tuple[int, str]] | None,
    every: list[int],
    jobs: int,
) -> list[tuple[int, Report, int]]:
    """The chains walked by ``jobs`` forked processes, each on a connection of its own,
    all in the snapshot this (open) transaction exports."""
    global _FORKED
    _FORKED = (store, keys, chains, signed, store.export_snapshot())
    groups = [every[n::jobs] for n in range(jobs) if every[n::jobs]]
    try:
        context = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(max_workers=len(groups), mp_context=context) as pool:
            return [walked for part in pool.map(_walk_group, groups) for walked in part]
    finally:
        _FORKED = None


def _walk_group(group: list[int]) -> list[tuple[int, Report, int]]:
    """In a forked process: walk these chains."""
    assert _FORKED is not None
    parent, keys, chains, signed, snapshot = _FORKED
    store = parent.clone()
    try:
        with store.transaction(write=False, action="verifying the audit log", snapshot=snapshot):
            return [(c, *_walk_alone(store, keys, chains, c, signed)) for c in group]
    finally:
        store.close()


def _walk(
    store: LogStore,
    keys: AuditKeys,
    chains: int,
    chain: int,
    report: Report,
    signed: dict[int, tuple[int, str]] | None,
) -> int:
    """Check one chain; returns the number of its last record (0 if it has none)."""
    # The archive is a log of files' records, chained from that log's genesis.
    first = genesis(keys.vault_id) if chain == ARCHIVE else chain_genesis(keys.vault_id, chain)
    state = State(chain_range(chain)[0] + 1, first)
    want = signed.get(chain) if signed is not None else None
    seen = want is None
    last = 0  # none yet
    for seq, line in chain_lines(store, chain):
        where = f"chain {chain}, record {label(seq)}"
        found = check_line(line, where, keys.mac_bytes, state, report, label=label)
        if found is None:
            continue
        last = found
        if chain != ARCHIVE and chain_of(_user_of(line), chains) != chain:
            report.add(Problem(where, "its user's records belong to another chain: it was moved"))
        if want is not None and found == want[0]:
            seen = True
            if line_hash(line) != want[1]:
                report.add(
                    Problem(
                        where,
                        "differs from the record the checkpoint signed: the log was rewritten "
                        "after the checkpoint",
                        found,
                    )
                )
    if not seen and want is not None:
        report.add(
            Problem(
                f"chain {chain}",
                f"{f'it ends at record {label(last)}' if last else 'it is empty'}, but the "
                f"checkpoint signed record {label(want[0])}: the chain was cut back after the "
                "checkpoint",
            )
        )
    return last


def _move_problems(store: LogStore, keys: AuditKeys) -> list[Problem]:
    """Each ``vault.move`` record of the operator's chain that names the last record copied
    into this store (``last``, ``last_hash``: the continuity ``lifecycle/_move.py``
    promises) against the log: that record must still be there, as it was. Without this,
    the records of before a move (the archive of a log of files, or the chains copied)
    could be removed whole, with their ledger, and every chain would still verify."""
    problems = []
    for seq, line in chain_lines(store, 0):
        if _MOVE not in line or not _authentic(keys, line):
            continue  # the walk reports a record that is not authentic
        try:
            details = json.loads(line).get("details") or {}
            last, digest = details.get("last"), details.get("last_hash")
        except (ValueError, AttributeError):
            continue
        if type(last) is not int or not isinstance(digest, str) or last < 1:
            continue
        found = store.log_lines(chain_of_seq(last), last - 1, 1)
        if not found or found[0][0] != last or line_hash(found[0][1]) != digest:
            problems.append(
                Problem(
                    f"chain 0, record {label(seq)}",
                    f"the vault moved here with record {label(last)} as the last one copied, "
                    f"which the log no longer holds as it was: the records of before the move "
                    "were removed or rewritten",
                    seq,
                )
            )
    return problems


def _authentic(keys: AuditKeys, line: bytes) -> bool:
    body = line[:-MAC_SUFFIX_LEN] + b"}"
    stated = line[-MAC_SUFFIX_LEN + len(',"mac":"') : -2]
    return hmac.compare_digest(keys.mac(body).encode(), stated)


def _user_of(line: bytes) -> str | None:
    at = line.find(_USER)
    if at < 0 or line[at + len(_USER) : at + len(_USER) + 1] != b'"':
        return None
    start = at + len(_USER) + 1
    return line[start : line.find(b'"', start)].decode("ascii", "replace")


def _ledger_problem(chain: int, newest: int, named: int) -> Problem:
    if named > newest:
        end = f"it ends at record {label(newest)}" if newest else "it is empty"
        reason = (
            f"{end}, but its ledger names record {label(named)}: the newest records were removed"
        )
    else:
        named_text = f"record {label(named)}" if named else "no record"
        reason = (
            f"its ledger names {named_text}, but it runs on to record "
            f"{label(newest)}: records were added outside memvault, or the ledger was put "
            "back from an older copy"
        )
    return Problem(f"chain {chain}", reason, named)
