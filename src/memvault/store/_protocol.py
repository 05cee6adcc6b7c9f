"""What the vault needs of a store, and what every store promises.

The layers above see only this interface. A store holds ciphertexts, keyed
look-up tokens, random identifiers and structure (which node sits under
which): it never sees a memory's text, a name, a user id or a key in the
clear, and it does not need to (``docs/architecture.md``).

Promises every implementation keeps:

* **One transaction per command.** Everything done between entering
  :meth:`Store.transaction` and leaving it is applied whole or not at all,
  across crashes (SIGKILL, power loss with ``durability="full"``) and across
  processes sharing the store. A write transaction excludes other writers
  for its duration; a read transaction sees one consistent snapshot.
* **Errors are the vault's.** A driver's errors never leave the store: damage
  (a corrupted page, a value of the wrong type in a column) is
  :class:`~memvault.errors.IntegrityError`; anything else that keeps an
  operation from completing (locks, I/O, a full disk) is
  :class:`~memvault.errors.StorageError`, and nothing was changed.
* **Deleted means overwritten** where the medium allows: removed ciphertexts
  and wrapped keys do not linger in free pages.
* **Bounded walks.** Recursive queries over parent pointers stop at a fixed
  depth, so a tampered pointer cannot send a query around a loop.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Any, Literal, NamedTuple, Protocol

Durability = Literal["full", "normal"]


class NodeRow(NamedTuple):
    """A node as stored: ``meta`` is sealed (kind, size, content id, name)."""

    id: int
    parent_id: int
    fid: bytes
    meta: bytes


class SubtreeRow(NamedTuple):
    """A node below a directory, with its depth (1: a child of the directory)."""

    id: int
    parent_id: int
    fid: bytes
    meta: bytes
    depth: int


class StaleRow(NamedTuple):
    """A node with a part sealed under an old data key: what re-sealing it needs."""

    id: int
    parent_fid: bytes | None  # None: the node sits in the user's /memories
    fid: bytes
    meta: bytes
    content: bytes | None  # a file's sealed text
    touched: bytes | None  # the sealed day it was last used


class UserWraps(NamedTuple):
    """A user's sealed name and every key of theirs, wrapped under a master key's KEK."""

    id: int
    lookup: bytes
    name: bytes
    data_keys: list[tuple[int, bytes]]  # (version, wrapped)
    audit_key: bytes | None


class Store(Protocol):
    """A vault's rows: metadata, users and their wrapped keys, the tree of each user's
    memories, and the audit log's anchor."""

    # -- transactions ------------------------------------------------------------------

    def transaction(
        self, *, write: bool, action: str = "running a command"
    ) -> AbstractContextManager[None]:
        """One command, applied whole or not at all; ``action`` names it in errors."""
        ...

    def partition(self, key: int | None, *, flush: bool = True) -> AbstractContextManager[None]:
        """Write transactions the calling thread begins inside this lock partition ``key``
        only: they run alongside those of other partitions, one at a time within theirs
        (``key=None``: the whole vault, alone). Their writes must stay within what the
        partition owns. ``flush=False``: their commits may return before the rows are on
        disk (a crash of the server may lose them, never part of one). A store with one
        writer at a time (SQLite) locks the whole vault either way."""
        ...

    def purge_wal(self, wait_seconds: float = 0.0) -> bool:
        """Outside any transaction: checkpoint the write-ahead log now and empty it, waiting
        up to ``wait_seconds`` for other connections, so that no copy of rows just deleted
        stays in it. True if it was emptied."""
        ...

    def pause_for_writers(self) -> None:
        """Between the batches of a long job (a key rotation, an expiry): give a command
        waiting to write the chance to take the lock before the next batch."""
        ...

    def savepoint(self) -> AbstractContextManager[None]:
        """A nested step inside the current transaction, undone alone if it raises."""
        ...

    def close(self) -> None: ...

    # -- schema and metadata -----------------------------------------------------------

    def initialize(self) -> int:
        """Create the schema if absent (in a write transaction); return the stored format
        version; refuse a newer one."""
        ...

    def mark_upgraded(self) -> None:
        """Record that the store is now of the current format (after the vault upgraded it)."""
        ...

    def counts(self) -> tuple[int, int, int]:
        """How many users, nodes and audit keys the store holds."""
        ...

    def check_structure(self) -> list[str]:
        """The store's own full check of its pages and indexes (it reads everything, for
        ``memvault check``): what it found wrong, naming no stored value; empty if
        nothing."""
        ...

    def is_empty(self) -> bool:
        """True if no user (and so no key and no memory) was ever stored."""
        ...

    def get_meta(self, key: str) -> bytes | None: ...

    def set_meta(self, key: str, value: bytes) -> None: ...

    def get_metas(self, keys: tuple[str, ...]) -> dict[str, bytes]:
        """Several metadata values read at once, from one snapshot (absent ones left out)."""
        ...

    # -- users and their keys ----------------------------------------------------------

    def user_by_lookup(self, lookup: bytes) -> tuple[int, int] | None:
        """(user id, primary key version) of the user with this keyed look-up token."""
        ...

    def user_census(self, lookup: bytes) -> tuple[int, bool]:
        """(how many users, whether one has this look-up token), read without the indexes
        :meth:`user_by_lookup` uses: before a user is created, a user the look-up missed
        is told from a new one."""
        ...

    def user_primary_version(self, user_id: int) -> int | None:
        """The user's current data key version; None if the user no longer exists."""
        ...

    def insert_user(self, lookup: bytes, name: bytes, primary_version: int) -> int:
        """A new user (``name`` sealed); returns its id. The look-up token is unique."""
        ...

    def data_keys(self, user_id: int) -> list[tuple[int, bytes]]:
        """(version, wrapped key) of every data key the user has, oldest first."""
        ...

    def insert_data_key(self, user_id: int, version: int, wrapped: bytes) -> None: ...

    # -- the tree of one user's memories -----------------------------------------------

    def child(self, user_id: int, parent_id: int, lookup: bytes) -> NodeRow | None:
        """The node under ``parent_id`` (0: the user's root) with this look-up token."""
        ...

    def subtree(self, user_id: int, node_id: int, max_depth: int = ...) -> list[SubtreeRow]:
        """Every node below ``node_id`` down to ``max_depth`` levels (1: its children; by
        default the bound of every walk), parents before children."""
        ...

    def user_state(self, user_id: int) -> tuple[int, bytes | None] | None:
        """(current data key version, sealed tally of ``/memories`` or None if none is kept
        yet) of the user; None if the user no longer exists."""
        ...

    def set_root_tally(self, user_id: int, blob: bytes) -> None: ...

    def insert_node(
        self,
        user_id: int,
        parent_id: int,
        lookup: bytes,
        fid: bytes,
        meta: bytes,
        version: int,
        touched: bytes | None = None,
    ) -> int:
        """A new node (with its sealed last-used day, for a file); returns its id.
        (user, parent, look-up token) is unique."""
        ...

    def update_node(
        self,
        node_id: int,
        parent_id: int,
        lookup: bytes,
        meta: bytes,
        version: int,
        touched: bytes | None = None,
    ) -> None:
        """Move a node (with everything below it) under a new parent and token, and set
        its sealed last-used day if ``touched`` is given."""
        ...

    def update_meta(self, node_id: int, meta: bytes, version: int) -> None:
        """New sealed metadata for a node that stays where it is."""
        ...

    def content(self, node_id: int) -> bytes | None: ...

    def insert_content(self, node_id: int, blob: bytes) -> None: ...

    def replace_content(self, node_id: int, blob: bytes) -> None:
        """Overwrite a file's sealed text; IntegrityError if the file has none."""
        ...

    def delete_node(self, user_id: int, node_id: int) -> int:
        """Delete a node with nothing below it (a file, with its text); returns how many
        nodes went (0 or 1)."""
        ...

    def delete_subtree(self, user_id: int, node_id: int) -> tuple[int, int]:
        """Delete a node and everything below it; returns how many nodes went, and how
        many of them were files (nodes with a text)."""
        ...

    # -- audit keys and the audit log's anchor -----------------------------------------

    def audit_key(self, user_id: int) -> bytes | None:
        """The user's wrapped audit key."""
        ...

    def insert_audit_key(self, user_id: int, wrapped: bytes) -> None: ...

    def audit_keys(self) -> list[tuple[bytes, bytes, bytes]]:
        """(user look-up token, sealed user name, wrapped audit key) of every user."""
        ...

    def users_without_audit_key(self) -> list[tuple[int, bytes]]:
        """(user id, look-up token) of users that have no audit key (store format 1)."""
        ...

    def pending_records(self) -> list[tuple[int, bytes]]:
        """The audit lines the store holds copies of, by sequence number."""
        ...

    def newest_record(self) -> tuple[int, bytes] | None:
        """The newest audit line the store holds: the log's anchor."""
        ...

    def audit_coverage(self) -> tuple[int, int]:
        """(seq the log file was last synced through, newest line the store holds a copy of)."""
        ...

    def set_audit_synced(self, seq: int) -> None:
        """Record that the log file is synced through record ``seq``."""
        ...

    def add_pending(self, records: list[tuple[int, bytes]]) -> None:
        """Keep copies of these audit lines (replacing any with the same numbers)."""
        ...

    def clear_pending(self, through: int) -> None:
        """Forget the copies up to ``through`` (the caller then stores a newer anchor)."""
        ...

    # -- the key lifecycle -------------------------------------------------------------

    def delete_meta(self, key: str) -> None: ...

    def set_primary_version(self, user_id: int, version: int) -> None: ...

    def data_key_versions(self, user_id: int) -> list[tuple[int, int | None]]:
        """(version, Unix time it was made or None) of every data key the user has."""
        ...

    def delete_data_keys_below(self, user_id: int, version: int) -> int:
        """Destroy the user's data keys older than ``version``; returns how many."""
        ...

    def stale_nodes(self, user_id: int, version: int, after_id: int, limit: int) -> list[StaleRow]:
        """The user's nodes with a part sealed under a version below ``version``."""
        ...

    def count_stale(self, user_id: int, version: int) -> int: ...

    def reseal_node(
        self,
        node_id: int,
        lookup: bytes,
        meta: bytes,
        content: bytes | None,
        touched: bytes | None,
        version: int,
    ) -> None: ...

    def version_counts(self, user_id: int) -> dict[int, int]:
        """How many of the user's nodes each data-key version still protects."""
        ...

    def users(self) -> list[tuple[int, bytes, bytes, int]]:
        """(id, look-up token, sealed name, primary version) of every user."""
        ...

    def user_wraps(self, after_id: int, limit: int) -> list[UserWraps]: ...

    def rewrap_user(self, wraps: UserWraps) -> None: ...

    def delete_user(self, user_id: int) -> int:
        """Delete a user and everything of theirs; returns how many nodes went."""
        ...

    # -- retention ---------------------------------------------------------------------

    def touched(self, user_id: int, node_id: int) -> tuple[bytes, bytes | None] | None:
        """(identity, sealed last-used day) of the user's node ``node_id``; the day is None
        when the node has none (written before store format 3). None: no such node."""
        ...

    def set_touched(self, node_id: int, touched: bytes) -> None:
        """Store a node's sealed last-used day (nothing else of the node changes)."""
        ...

    def touched_days(self, user_id: int) -> dict[int, bytes | None]:
        """The sealed last-used day (or None) of every node of the user, by node id."""
        ...

    def has_children(self, user_id: int, node_id: int) -> bool:
        """Whether any node of the user sits directly under ``node_id``."""
        ...


class LogStore(Store, Protocol):
    """A store that keeps an audit log in chains (``_rows_log.py``): every PostgreSQL
    store, and a SQLite store once a vault moved into it from one."""

    def log_chains(self) -> int:
        """The number of chains of users' records; 0 if the store keeps no log."""
        ...

    def log_head(self, chain: int) -> tuple[int | None, bytes | None, bytes | None]:
        """(key, line) of the chain's newest record and its ledger, in one snapshot."""
        ...

    def log_heads(self, chains: int) -> dict[int, tuple[int | None, bytes | None, bytes | None]]:
        """:meth:`log_head` of the archive (-1) and of chains 0 to ``chains``."""
        ...

    def log_append(self, seq: int, line: bytes, chain: int, ledger: bytes) -> None:
        """Add a record and set its chain's ledger."""
        ...

    def log_ledgers(self) -> dict[int, bytes]:
        """Every chain's ledger, by chain."""
        ...

    def log_lines(self, chain: int, after: int, limit: int) -> list[tuple[int, bytes]]:
        """Up to ``limit`` records of the chain with keys above ``after``, in order."""
        ...

    def log_extent(self) -> tuple[int | None, list[str]]:
        """The highest record key of any chain, and the names of every ledger row."""
        ...

    # -- a vault's rows, as ``memvault migrate`` copies them (``_rows_copy.py``) ----------

    def copy_rows(self, table: str, after: int, upto: int | None, limit: int) -> list[Any]:
        """Whole rows of a copied table, by key, in batches."""
        ...

    def put_rows(self, table: str, rows: list[Any]) -> None:
        """Insert whole rows (their ids too) of a copied table."""
        ...

    def follow_ids(self) -> None:
        """After a copy: ids made from now on follow the copied ones."""
        ...

    def empty_copy(self) -> None:
        """Delete every copied row, and the vault's rows of ``meta``."""
        ...

    def all_meta(self) -> dict[str, bytes]:
        """Every ``meta`` row."""
        ...

    def table_counts(self) -> dict[str, int]:
        """How many rows each copied table holds."""
        ...
