"""Proving, memory by memory, that the store holds what the audit log says was committed.

Run by ``memvault audit verify`` (which holds the keys) after the log itself
checked out. Each node's sealed metadata names the record that last wrote it
(its *stamp*, ``_tree.py``), and each committed write record carries keyed
digests of what it acted on (``before``/``after``: a file's text, or a node's
identity for a rename or a deleted directory). From those:

* every node's stamp is a committed change by the node's own user, whose
  ``after`` is what the node holds now (a directory made on the way to a
  created or moved file is exempt: that record names the file);
* no committed change later than a node's stamp acted on the node as it is
  now: if one did, the node's rows are older than the log (restored from an
  older copy, or a deleted memory put back);
* no node is newer than the store's ledger, and the ledger's newest change is
  the log's newest committed change: store and log were not rolled back apart;
* every user the log saw created is still in the store, and every node is
  reachable from its user's ``/memories``.

What this cannot see: the store *and* the log rolled back together to an
earlier state they both held (a whole-home restore). Only a checkpoint kept
elsewhere (``audit verify --checkpoint``) shows that.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..audit import Change, Log, Problem, UserAuditKey
from ..errors import IntegrityError
from ..keys import MasterKeys
from ..store import CHAIN_BITS, Store
from ._guard import MAX_DEPTH
from ._tree import Tree

_WHERE = "the store"


@dataclass(slots=True)
class _Held:
    """A node as the store holds it, reduced to what the log can be compared with."""

    user: str
    stamp: int
    is_dir: bool
    ident: str  # keyed digest of its identity
    text: str | None  # keyed digest of a file's text


@dataclass(slots=True)
class _Index:
    by_digest: dict[str, _Held] = field(default_factory=dict)
    by_stamp: dict[int, list[_Held]] = field(default_factory=dict)
    users: set[str] = field(default_factory=set)
    nodes: int = 0
    miscounted: list[str] = field(default_factory=list)  # directories whose tally is wrong


def verify_store(
    store: Store,
    master: MasterKeys,
    audit: Log,
    users: Callable[[], dict[str, tuple[str, UserAuditKey]]],
) -> list[Problem]:
    """Everything the store and the log disagree on, for ``audit verify``: the anchor, the
    ledger's counts, and every memory against the records that wrote it (``users``, called
    inside the read transaction: the vault's users by pseudonym, with their names and
    audit keys).

    The log's changes, the ledgers, the users and every node are read in one read
    transaction: in one snapshot, a write committed meanwhile is seen with its record and
    ledger, or not at all (read apart, a node written after the ledger was read would
    look newer than the ledger, a user created after the users were read would look
    deleted)."""
    with store.transaction(write=False, action="verifying the store"):
        try:
            bound = audit.bound()
        except IntegrityError as exc:
            return [Problem(_WHERE, exc.message)]
        found = [Problem(_WHERE, problem) for problem in bound.problems]
        stored_nodes = store.counts()[1]
        trees = []
        for name, key in users().values():
            token = master.user_token(name)
            row = store.user_by_lookup(token)
            if row is not None:
                trees.append((Tree(store, master, row[0], token), key))
        changes = bound.changes
        upgraded_at = next((c.seq for c in changes if c.command == "vault.upgrade"), 0)
        try:
            index = held_nodes(trees, upgraded_at)
        except IntegrityError as exc:
            return [*found, Problem(_WHERE, f"a memory fails to open: {exc.message}")]
    return found + check(index, changes, bound.written, stored_nodes, audit.label)


def held_nodes(users: list[tuple[Tree, UserAuditKey]], upgraded_at: int) -> _Index:
    """Every node of every user, opened (and so authenticated), with its digests, inside
    the caller's read transaction. A node sealed before stamps existed counts as written
    by the store's upgrade."""
    index = _Index()
    for tree, key in users:
        index.users.add(key.pseudonym)
        tree.join()
        _, entries = tree.listing(MAX_DEPTH + 1, index.miscounted)
        tree.last_used_of(entries)  # a day moved onto another file fails to open here
        for entry in entries:
            node = entry.node
            text = None if node.is_dir else key.digest(node.fid, tree.read(node).raw)
            held = _Held(
                key.pseudonym,
                node.written if node.written is not None else upgraded_at,
                node.is_dir,
                key.digest(node.fid, b"") or "",
                text,
            )
            index.nodes += 1
            index.by_stamp.setdefault(held.stamp, []).append(held)
            for digest in (held.ident, held.text):
                if digest:
                    index.by_digest[digest] = held
    return index


def check(
    index: _Index,
    changes: list[Change],
    written: dict[int, int] | None,
    stored_nodes: int,
    label: Callable[[int], str] = str,
) -> list[Problem]:
    """What the store and the log disagree on; empty if they agree. ``written``: each
    chain's newest change as its ledger says (None: no ledger); ``label`` shows a
    record's number."""
    problems: list[Problem] = []
    by_seq = {change.seq: change for change in changes}
    erased = {c.user: c.seq for c in changes if c.command == "users.erase"}  # the last one
    for change in changes:
        held = index.by_digest.get(change.before or "")
        if held is not None and change.seq > held.stamp:
            problems.append(
                Problem(
                    _WHERE,
                    f"a memory of user {held.user} was last written by record "
                    f"{label(held.stamp)}, but record {label(change.seq)} ({change.command}) "
                    "changed or removed it since: "
                    "its rows were restored from an older copy, or put back after deletion",
                    change.seq,
                )
            )
        if (
            change.command == "user.create"
            and change.user not in index.users
            and erased.get(change.user, 0) < change.seq
        ):
            problems.append(
                Problem(
                    _WHERE,
                    f"user {change.user}, created by record {label(change.seq)}, is missing: their "
                    "rows were deleted outside memvault",
                    change.seq,
                )
            )
    for stamp, held_list in sorted(index.by_stamp.items()):
        for held in held_list:
            problem = _check_stamp(held, by_seq.get(stamp), written, label)
            if problem is not None:
                problems.append(Problem(_WHERE, problem, stamp))
    problems += _check_ledgers(written, changes, label)
    if index.nodes != stored_nodes:
        problems.append(
            Problem(
                _WHERE,
                f"{stored_nodes - index.nodes} of its {stored_nodes} memories (files and "
                "directories) are not reachable from their user's /memories: rows were "
                "moved or inserted outside memvault",
            )
        )
    problems += [Problem(_WHERE, f"a directory's tally is wrong: {m}") for m in index.miscounted]
    return problems


def _check_stamp(
    held: _Held, change: Change | None, written: dict[int, int] | None, label: Callable[[int], str]
) -> str | None:
    what = f"a {'directory' if held.is_dir else 'file'} of user {held.user}"
    newest = None if written is None else written.get(held.stamp >> CHAIN_BITS, 0)
    if newest is not None and held.stamp > newest:
        return (
            f"{what} was written by record {label(held.stamp)}, after the store's ledger "
            f"(record {label(newest)}): the ledger or the anchor was rolled back"
        )
    if held.stamp == 0:
        return f"{what} names no record that wrote it: it was inserted outside memvault"
    if change is None:
        return (
            f"{what} names record {label(held.stamp)} as its last write, which the log does "
            "not hold as a committed change: the log was cut, or the rows come from elsewhere"
        )
    if change.user is not None and change.user != held.user:
        return f"{what} names record {label(held.stamp)}, a change by another user"
    # A directory made on the way to a created or moved file is stamped with that record,
    # which names the file.
    made = held.is_dir and change.command in ("create", "rename")
    exempt = change.command == "vault.upgrade" or made
    if not exempt and change.after not in (held.text, held.ident):
        return (
            f"{what} is not what record {label(held.stamp)} ({change.command}) wrote: its rows "
            "were replaced with an older copy"
        )
    return None


def _check_ledgers(
    written: dict[int, int] | None, changes: list[Change], label: Callable[[int], str]
) -> list[Problem]:
    """Each chain's newest committed change against its ledger (a log of files is one
    chain, 0)."""
    newest: dict[int, int] = {}
    for change in changes:
        newest[change.seq >> CHAIN_BITS] = change.seq
    if written is None:
        return [Problem(_WHERE, "it has no ledger: it was removed")] if newest else []
    problems = []
    for chain in sorted(set(written) | set(newest)):
        problems += _check_ledger(written.get(chain, 0), newest.get(chain, 0), label)
    return problems


def _check_ledger(written: int, newest: int, label: Callable[[int], str]) -> list[Problem]:
    if written < newest:
        return [
            Problem(
                _WHERE,
                f"the log records committed changes up to record {label(newest)}, but the "
                f"store's ledger stops at record {label(written)}: the store was restored "
                "from an older copy, or its ledger rolled back",
                newest,
            )
        ]
    if written > newest:
        return [
            Problem(
                _WHERE,
                f"its ledger names record {label(written)} as the newest change, which the "
                "log does not hold: the log was cut back",
                written,
            )
        ]
    return []
