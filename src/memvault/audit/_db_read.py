"""Reading a PostgreSQL vault's audit log back: a chain in order, every chain merged by
time (for review), and what ``audit verify`` compares the store's memories with.

Inside a transaction, every page of a chain is read in its snapshot; outside one, each
page is a statement of its own (records are only ever added, so paging by number misses
none that were there when the read began).
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator

from ..errors import IntegrityError
from ..store import ARCHIVE, CHAIN_BITS, LogStore, chain_of_seq, chain_range
from ._chains import ChainLedger, ChainState
from ._ledger import Bound, LedgerState, changes_in, counts_against

PAGE = 2000  # records per statement
_TIME = b',"time":"'


def chain_lines(store: LogStore, chain: int) -> Iterator[tuple[int, bytes]]:
    """(number, line) of every record of ``chain``, in order."""
    after = 0
    while True:
        rows = store.log_lines(chain, after, PAGE)
        yield from rows
        if len(rows) < PAGE:
            return
        after = rows[-1][0]


def merged_lines(store: LogStore, chains: int) -> Iterator[bytes]:
    """Every record of every chain, merged by time (each chain's records are in time
    order: they are stamped under the chain's lock), ties by chain."""
    streams = [
        ((_time_of(line), seq, line) for seq, line in chain_lines(store, chain))
        for chain in range(ARCHIVE, chains + 1)
    ]
    for _, _, line in heapq.merge(*streams):
        yield line


def _time_of(line: bytes) -> bytes:
    at = line.find(_TIME)
    return line[at + len(_TIME) : at + len(_TIME) + 27] if at >= 0 else b""


def bound(
    store: LogStore, chains: int, states: dict[int, ChainState | None], problems: list[str]
) -> Bound:
    """Inside a read transaction: every committed change of every chain, each chain's
    newest change as its ledger says, and ``problems`` (the chains' heads against their
    ledgers) with the ledgers' counts against the rows. ``states``: each chain's opened
    ledger (None: it failed to open, which ``problems`` says)."""
    opened = {c: s for c, s in states.items() if s is not None}
    total = LedgerState(
        0, sum(s.users for s in opened.values()), sum(s.nodes for s in opened.values())
    )
    if len(opened) == len(states):
        problems = problems + counts_against(store, total)
    lines = (line for chain in range(ARCHIVE, chains + 1) for _, line in chain_lines(store, chain))
    written = {chain_range(c)[0] >> CHAIN_BITS: s.written for c, s in opened.items()}
    return Bound(changes_in(lines), written, problems)


def stray_problems(store: LogStore, chains: int) -> list[str]:
    """Records or ledger rows outside the vault's chains (-1 to ``chains``): the number of
    chains (``meta`` ``audit_chains``, which nothing seals) was lowered to leave chains out
    of every check, or a decoy ledger row was added. Empty when there are none."""
    last, ledgers = store.log_extent()
    problems = []
    if last is not None and chain_of_seq(last) > chains:
        problems.append(
            f"audit chain {chain_of_seq(last)} holds records, but the vault's log has chains 0 "
            f"to {chains} only: its number of chains was changed outside memvault"
        )
    known = {f"ledger.{chain}" for chain in range(ARCHIVE, chains + 1)}
    for key in sorted(set(ledgers) - known):
        suffix = key[len("ledger.") :]
        if suffix.isdigit() and str(int(suffix)) == suffix:
            problems.append(
                f"audit chain {suffix} has a ledger, but the vault's log has chains 0 to "
                f"{chains} only: its number of chains was changed outside memvault"
            )
        else:
            problems.append(
                f"the database holds a ledger row {key[:40]!r} of no audit chain: it was "
                "added outside memvault"
            )
    return problems


def open_states(
    sealer: ChainLedger, blobs: dict[int, bytes], chains: int
) -> dict[int, ChainState | None]:
    """Each chain's ledger, opened; None where it fails to."""
    out: dict[int, ChainState | None] = {}
    for chain in range(ARCHIVE, chains + 1):
        try:
            out[chain] = sealer.open(chain, blobs.get(chain))
        except IntegrityError:
            out[chain] = None
    return out
