"""The store interface's contract, kept by both stores: SqliteStore on a file, PgStore on a
fresh PostgreSQL database. Every method of :class:`memvault.store.Store` is run with real
values and its answer checked exactly. Where the two stores differ for a reason, the test
says which and why.

The blobs are not real ciphertexts (the store never opens them): only their header
matters, the key version in bytes 2-5 that the key lifecycle's queries read.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import psycopg
import pytest

from memvault.errors import IntegrityError, StorageError
from memvault.store import (
    SCHEMA_VERSION,
    NodeRow,
    PgStore,
    SqliteStore,
    StaleRow,
    Store,
    SubtreeRow,
    UserWraps,
)
from tests.support.kms import free_port

MAX_DEPTH = 256  # the bound of every recursive walk, in both stores
THREADS = 16
INCREMENTS = 5


def sealed(version: int, body: bytes = b"x") -> bytes:
    """A stand-in for a sealed blob: format byte, key version (4 bytes, big-endian), body."""
    return b"\x01" + version.to_bytes(4, "big") + body


@pytest.fixture(params=["sqlite", "pg"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    """An initialized, empty store of each kind."""
    made: SqliteStore | PgStore
    if request.param == "sqlite":
        made = SqliteStore(tmp_path / "vault.db")
    else:
        made = PgStore(request.getfixturevalue("pg_dsn"))
        made.migrate_schema()
    with made.transaction(write=True):
        assert made.initialize() == SCHEMA_VERSION
    try:
        yield made
    finally:
        made.close()


@pytest.fixture
def pg(pg_dsn: str) -> Iterator[PgStore]:
    """An initialized PgStore with room for every thread of the concurrency test."""
    made = PgStore(pg_dsn, max_connections=THREADS)
    made.migrate_schema()
    with made.transaction(write=True):
        made.initialize()
    try:
        yield made
    finally:
        made.close()


def _user(store: Store, token: bytes = b"alice") -> int:
    user = store.insert_user(token, sealed(1, b"name-" + token), 1)
    store.insert_data_key(user, 1, b"wrapped-1-" + token)
    return user


# -- schema and metadata ---------------------------------------------------------------


def test_a_new_store_is_empty_and_at_the_current_format(store: Store) -> None:
    """initialize creates the schema once and answers the current version again after."""
    with store.transaction(write=True):
        assert store.initialize() == SCHEMA_VERSION
        store.mark_upgraded()
    with store.transaction(write=False):
        assert store.is_empty() is True
        assert store.counts() == (0, 0, 0)
        assert store.get_meta("schema") == str(SCHEMA_VERSION).encode()


def test_a_newer_schema_version_is_refused(store: Store) -> None:
    """A store written by a newer memvault is refused with a StorageError, not read."""
    with store.transaction(write=True):
        store.set_meta("schema", str(SCHEMA_VERSION + 1).encode())
    with (
        pytest.raises(StorageError, match=f"reads versions up to {SCHEMA_VERSION}"),
        store.transaction(write=True),
    ):
        store.initialize()


def test_a_damaged_schema_version_is_integrity_error(store: Store) -> None:
    """A version that is not a number was written outside memvault."""
    with store.transaction(write=True):
        store.set_meta("schema", b"four")
        if isinstance(store, PgStore):
            store.set_meta("pg_schema", b"two")
    with (
        pytest.raises(IntegrityError, match="schema version is damaged"),
        store.transaction(write=True),
    ):
        store.initialize()


def test_meta_values_are_set_replaced_read_and_deleted(store: Store) -> None:
    """set_meta replaces, get_metas leaves absent keys out, delete_meta removes."""
    with store.transaction(write=True):
        store.set_meta("a", b"1")
        store.set_meta("a", b"2")
        store.set_meta("b", b"\x00\xff")
    with store.transaction(write=False):
        assert store.get_meta("a") == b"2"
        assert store.get_meta("absent") is None
        assert store.get_metas(("a", "b", "absent")) == {"a": b"2", "b": b"\x00\xff"}
    assert store.get_metas(("a",)) == {"a": b"2"}  # outside a transaction too
    with store.transaction(write=True):
        store.delete_meta("a")
    assert store.get_meta("a") is None


# -- users and their keys --------------------------------------------------------------


def test_users_and_their_data_keys(store: Store) -> None:
    """A user is found by token, counted, versioned, listed, with keys oldest first."""
    before = int(time.time())
    with store.transaction(write=True):
        alice = _user(store, b"alice")
        bob = _user(store, b"bob")
        store.insert_data_key(alice, 2, b"wrapped-2")
        store.set_primary_version(alice, 2)
    after = int(time.time())
    with store.transaction(write=False):
        assert store.user_by_lookup(b"alice") == (alice, 2)
        assert store.user_by_lookup(b"carol") is None
        assert store.user_census(b"bob") == (2, True)
        assert store.user_census(b"carol") == (2, False)
        assert store.user_primary_version(bob) == 1
        assert store.user_primary_version(bob + alice + 1) is None
        assert store.data_keys(alice) == [(1, b"wrapped-1-alice"), (2, b"wrapped-2")]
        versions = store.data_key_versions(alice)
        assert [v for v, _ in versions] == [1, 2]
        assert all(created is not None and before <= created <= after for _, created in versions)
        assert store.users() == [
            (alice, b"alice", sealed(1, b"name-alice"), 2),
            (bob, b"bob", sealed(1, b"name-bob"), 1),
        ]
        assert store.is_empty() is False
        assert store.counts() == (2, 0, 0)


def test_a_second_user_with_the_same_token_is_integrity_error(store: Store) -> None:
    """The look-up token is unique: the insert fails as damage, undone in its savepoint, and
    the transaction goes on."""
    with store.transaction(write=True):
        alice = _user(store)
        with (
            pytest.raises(IntegrityError, match="conflicts with its stored rows"),
            store.savepoint(),
        ):
            store.insert_user(b"alice", b"other", 1)
        store.set_meta("after", b"1")
    with store.transaction(write=False):
        assert store.users() == [(alice, b"alice", sealed(1, b"name-alice"), 1)]
        assert store.get_meta("after") == b"1"


def test_a_second_node_with_the_same_token_is_integrity_error(store: Store) -> None:
    """(user, parent, token) is unique; the same token under another parent is not."""
    with store.transaction(write=True):
        user = _user(store)
        first = store.insert_node(user, 0, b"n", b"fid1", sealed(1), 1)
        with (
            pytest.raises(IntegrityError, match="conflicts with its stored rows"),
            store.savepoint(),
        ):
            store.insert_node(user, 0, b"n", b"fid2", sealed(1), 1)
        second = store.insert_node(user, first, b"n", b"fid3", sealed(1), 1)
    with store.transaction(write=False):
        assert store.counts() == (1, 2, 0)
        assert store.child(user, first, b"n") == NodeRow(second, first, b"fid3", sealed(1))


def test_an_error_outside_a_savepoint_ends_a_postgresql_transaction(store: Store) -> None:
    """Differs by design of the servers: after a failed statement, SQLite's transaction
    goes on, while PostgreSQL aborts it and refuses every later statement (StorageError)
    until it ends: callers that go on after an error must use a savepoint (the memory
    layer does)."""
    with pytest.raises((StorageError, IntegrityError)) as raised, store.transaction(write=True):
        _user(store)
        with pytest.raises(IntegrityError):
            store.insert_user(b"alice", b"other", 1)
        store.set_meta("after", b"1")
        raise StorageError("the transaction went on")
    if isinstance(store, PgStore):
        assert "current transaction is aborted" in str(raised.value)
    else:
        assert str(raised.value) == "the transaction went on"
    assert store.is_empty() is True


def test_a_caught_error_without_a_savepoint_is_not_committed_silently(store: Store) -> None:
    """Regression: PostgreSQL answers COMMIT of an aborted transaction with a silent
    ROLLBACK, so a caller that caught a store error and went on without a savepoint would
    believe its writes kept. PgStore refuses to commit then (StorageError, nothing kept);
    SQLite goes on after the failed statement and commits the rest."""
    with contextlib.ExitStack() as outcome:
        if isinstance(store, PgStore):
            outcome.enter_context(pytest.raises(StorageError, match="cannot go on after it"))
        with store.transaction(write=True):
            store.set_meta("before", b"1")
            _user(store)
            with contextlib.suppress(IntegrityError):
                store.insert_user(b"alice", b"other", 1)
    kept = store.get_metas(("before",))
    assert kept == ({} if isinstance(store, PgStore) else {"before": b"1"})


# -- transactions ----------------------------------------------------------------------


def test_a_transaction_that_raises_leaves_nothing(store: Store) -> None:
    """Everything written before the exception is rolled back, and the error passes."""
    with pytest.raises(RuntimeError, match="boom"), store.transaction(write=True):
        user = _user(store)
        store.insert_node(user, 0, b"n", b"fid", sealed(1), 1)
        store.set_meta("k", b"v")
        raise RuntimeError("boom")
    with store.transaction(write=False):
        assert store.is_empty() is True
        assert store.counts() == (0, 0, 0)
        assert store.get_meta("k") is None


def test_a_savepoint_is_undone_alone(store: Store) -> None:
    """A savepoint that raises undoes its own writes; those before it are committed."""
    with store.transaction(write=True):
        user = _user(store)
        with pytest.raises(RuntimeError), store.savepoint():
            store.insert_node(user, 0, b"gone", b"fid1", sealed(1), 1)
            store.set_meta("gone", b"1")
            raise RuntimeError("undo")
        with store.savepoint():
            kept = store.insert_node(user, 0, b"kept", b"fid2", sealed(1), 1)
    with store.transaction(write=False):
        assert store.child(user, 0, b"gone") is None
        assert store.get_meta("gone") is None
        assert store.child(user, 0, b"kept") == NodeRow(kept, 0, b"fid2", sealed(1))


# -- the tree --------------------------------------------------------------------------


def _tree(store: Store, user: int) -> dict[str, int]:
    """/a, /a/b, /a/b/c (file), /a/d (file), /e (file): their node ids by name."""
    ids: dict[str, int] = {}
    ids["a"] = store.insert_node(user, 0, b"a", b"fa", sealed(1, b"ma"), 1)
    ids["b"] = store.insert_node(user, ids["a"], b"b", b"fb", sealed(1, b"mb"), 1)
    ids["c"] = store.insert_node(user, ids["b"], b"c", b"fc", sealed(1, b"mc"), 1, sealed(1))
    ids["d"] = store.insert_node(user, ids["a"], b"d", b"fd", sealed(1, b"md"), 1, sealed(1))
    ids["e"] = store.insert_node(user, 0, b"e", b"fe", sealed(1, b"me"), 1, sealed(1))
    for name in "cde":
        store.insert_content(ids[name], sealed(1, b"text-" + name.encode()))
    return ids


def test_nodes_are_found_walked_and_moved(store: Store) -> None:
    """child by token; subtree with depths, parents first, bounded by max_depth; a move
    carries the node's subtree."""
    with store.transaction(write=True):
        user = _user(store)
        n = _tree(store, user)
    with store.transaction(write=False):
        assert store.child(user, 0, b"a") == NodeRow(n["a"], 0, b"fa", sealed(1, b"ma"))
        assert store.child(user, n["a"], b"c") is None
        assert store.subtree(user, n["a"]) == [
            SubtreeRow(n["b"], n["a"], b"fb", sealed(1, b"mb"), 1),
            SubtreeRow(n["d"], n["a"], b"fd", sealed(1, b"md"), 1),
            SubtreeRow(n["c"], n["b"], b"fc", sealed(1, b"mc"), 2),
        ]
        assert [r.id for r in store.subtree(user, n["a"], max_depth=1)] == [n["b"], n["d"]]
        assert [r.id for r in store.subtree(user, 0)] == [n["a"], n["e"], n["b"], n["d"], n["c"]]
        assert store.subtree(user + 1, n["a"]) == []
    with store.transaction(write=True):
        store.update_node(n["b"], n["e"], b"b2", sealed(2, b"mb2"), 2)
        store.update_node(n["c"], n["b"], b"c", sealed(2, b"mc2"), 2, sealed(2, b"day"))
        store.update_meta(n["d"], sealed(2, b"md2"), 2)
    with store.transaction(write=False):
        assert store.child(user, n["a"], b"b") is None
        assert store.child(user, n["e"], b"b2") == NodeRow(n["b"], n["e"], b"fb", sealed(2, b"mb2"))
        assert store.subtree(user, n["e"]) == [
            SubtreeRow(n["b"], n["e"], b"fb", sealed(2, b"mb2"), 1),
            SubtreeRow(n["c"], n["b"], b"fc", sealed(2, b"mc2"), 2),
        ]
        assert store.child(user, n["a"], b"d") == NodeRow(n["d"], n["a"], b"fd", sealed(2, b"md2"))
        assert store.touched(user, n["b"]) == (b"fb", None)  # None: the day is left alone
        assert store.touched(user, n["c"]) == (b"fc", sealed(2, b"day"))


def test_a_walk_around_a_tampered_loop_stops_at_the_bound(store: Store) -> None:
    """Two nodes made each other's parent: subtree and delete_subtree stop after
    MAX_DEPTH levels instead of looping."""
    with store.transaction(write=True):
        user = _user(store)
        x = store.insert_node(user, 0, b"x", b"fx", sealed(1), 1)
        y = store.insert_node(user, x, b"y", b"fy", sealed(1), 1)
        store.update_node(x, y, b"x", sealed(1), 1)  # x under y under x
    with store.transaction(write=False):
        rows = store.subtree(user, x)
    assert [r.depth for r in rows] == list(range(1, MAX_DEPTH + 1))
    assert [r.id for r in rows[:4]] == [y, x, y, x]
    with store.transaction(write=True):
        assert store.delete_subtree(user, x) == (2, 0)
    assert store.counts() == (1, 0, 0)


def test_contents_and_the_root_tally(store: Store) -> None:
    """A file's text is inserted, read and replaced; replacing a missing one is damage."""
    with store.transaction(write=True):
        user = _user(store)
        n = _tree(store, user)
        assert store.user_state(user) == (1, None)
        store.set_root_tally(user, sealed(1, b"tally"))
        store.replace_content(n["c"], sealed(1, b"new"))
    with store.transaction(write=False):
        assert store.user_state(user) == (1, sealed(1, b"tally"))
        assert store.user_state(user + 1) is None
        assert store.content(n["c"]) == sealed(1, b"new")
        assert store.content(n["d"]) == sealed(1, b"text-d")
        assert store.content(n["a"]) is None
    with (
        pytest.raises(IntegrityError, match=f"no text for file node {n['a']}"),
        store.transaction(write=True),
    ):
        store.replace_content(n["a"], sealed(1))


def test_nodes_and_subtrees_are_deleted_with_their_contents(store: Store) -> None:
    """delete_node counts the node it removed (0 if none, or another user's);
    delete_subtree counts nodes and the files among them."""
    with store.transaction(write=True):
        user = _user(store)
        other = _user(store, b"bob")
        n = _tree(store, user)
        assert store.delete_node(other, n["e"]) == 0
        assert store.delete_node(user, n["e"]) == 1
        assert store.delete_node(user, n["e"]) == 0
        assert store.delete_subtree(user, n["b"]) == (2, 1)
    with store.transaction(write=False):
        assert store.content(n["e"]) is None
        assert store.content(n["c"]) is None
        assert store.counts() == (2, 2, 0)
    with store.transaction(write=True):
        assert store.delete_subtree(user, n["a"]) == (2, 1)
        assert store.delete_subtree(user, n["a"]) == (0, 0)
    assert store.counts() == (2, 0, 0)


# -- audit keys and the anchor ---------------------------------------------------------


def test_audit_keys_and_pending_records(store: Store) -> None:
    """Audit keys per user; pending copies replaced by number, the newest is the anchor,
    cleared up to a number; the sync mark."""
    with store.transaction(write=True):
        alice = _user(store)
        bob = _user(store, b"bob")
        store.insert_audit_key(alice, b"audit-a")
        assert store.audit_coverage() == (0, 0)
        store.add_pending([(1, b"l1"), (2, b"l2"), (3, b"l3")])
        store.add_pending([(2, b"l2b")])
        store.set_audit_synced(1)
    with store.transaction(write=False):
        assert store.audit_key(alice) == b"audit-a"
        assert store.audit_key(bob) is None
        assert store.audit_keys() == [(b"alice", sealed(1, b"name-alice"), b"audit-a")]
        assert store.users_without_audit_key() == [(bob, b"bob")]
        assert store.pending_records() == [(1, b"l1"), (2, b"l2b"), (3, b"l3")]
        assert store.newest_record() == (3, b"l3")
        assert store.audit_coverage() == (1, 3)
        assert store.counts() == (2, 0, 1)
    with store.transaction(write=True):
        store.clear_pending(2)
    assert store.pending_records() == [(3, b"l3")]
    with store.transaction(write=True):
        store.clear_pending(3)
    assert store.newest_record() is None
    with pytest.raises(IntegrityError), store.transaction(write=True):
        store.insert_audit_key(alice, b"again")


# -- the key lifecycle -----------------------------------------------------------------


def test_stale_nodes_are_found_resealed_and_old_keys_destroyed(store: Store) -> None:
    """A node is stale if its key_version, its text's or its day's header is older; after
    re-sealing none is, and the old data key can go."""
    with store.transaction(write=True):
        user = _user(store)
        store.insert_data_key(user, 2, b"wrapped-2")
        fresh = store.insert_node(user, 0, b"f", b"ff", sealed(2), 2, sealed(2))
        store.insert_content(fresh, sealed(2))
        by_meta = store.insert_node(user, 0, b"m", b"fm", sealed(1), 1)
        by_text = store.insert_node(user, by_meta, b"t", b"ft", sealed(2), 2, sealed(2))
        store.insert_content(by_text, sealed(1, b"old text"))
        by_day = store.insert_node(user, 0, b"d", b"fd", sealed(2), 2, sealed(1, b"old day"))
    with store.transaction(write=False):
        assert store.count_stale(user, 2) == 3
        assert store.version_counts(user) == {1: 3, 2: 3}
        assert store.stale_nodes(user, 2, 0, 10) == [
            StaleRow(by_meta, None, b"fm", sealed(1), None, None),
            StaleRow(by_text, b"fm", b"ft", sealed(2), sealed(1, b"old text"), sealed(2)),
            StaleRow(by_day, None, b"fd", sealed(2), None, sealed(1, b"old day")),
        ]
        assert [r.id for r in store.stale_nodes(user, 2, by_meta, 1)] == [by_text]
    with store.transaction(write=True):
        store.reseal_node(by_meta, b"m2", sealed(2, b"m"), None, None, 2)
        store.reseal_node(by_text, b"t", sealed(2), sealed(2, b"new text"), sealed(2), 2)
        store.reseal_node(by_day, b"d", sealed(2), None, sealed(2, b"new day"), 2)
        assert store.delete_data_keys_below(user, 2) == 1
        assert store.delete_data_keys_below(user, 2) == 0
    with store.transaction(write=False):
        assert store.count_stale(user, 2) == 0
        assert store.stale_nodes(user, 2, 0, 10) == []
        assert store.version_counts(user) == {2: 4}
        assert store.child(user, 0, b"m2") == NodeRow(by_meta, 0, b"fm", sealed(2, b"m"))
        assert store.content(by_text) == sealed(2, b"new text")
        assert store.data_keys(user) == [(2, b"wrapped-2")]


def test_users_are_rewrapped_and_deleted_whole(store: Store) -> None:
    """user_wraps pages through users with every wrap; rewrap_user stores new ones;
    delete_user removes the user with keys, nodes and texts."""
    with store.transaction(write=True):
        alice = _user(store)
        bob = _user(store, b"bob")
        store.insert_audit_key(alice, b"audit-a")
        store.insert_data_key(alice, 2, b"wrapped-2")
        _tree(store, alice)
        store.insert_node(bob, 0, b"x", b"fx", sealed(1), 1)
    with store.transaction(write=False):
        wraps = store.user_wraps(0, 10)
        assert wraps == [
            UserWraps(
                alice,
                b"alice",
                sealed(1, b"name-alice"),
                [(1, b"wrapped-1-alice"), (2, b"wrapped-2")],
                b"audit-a",
            ),
            UserWraps(bob, b"bob", sealed(1, b"name-bob"), [(1, b"wrapped-1-bob")], None),
        ]
        assert store.user_wraps(alice, 10) == wraps[1:]
        assert store.user_wraps(0, 1) == wraps[:1]
    with store.transaction(write=True):
        store.rewrap_user(UserWraps(alice, b"alice", b"N", [(1, b"W1"), (2, b"W2")], b"A"))
    with store.transaction(write=False):
        assert store.user_wraps(0, 1) == [
            UserWraps(alice, b"alice", b"N", [(1, b"W1"), (2, b"W2")], b"A")
        ]
    with store.transaction(write=True):
        assert store.delete_user(alice) == 5
        assert store.delete_user(alice) == 0
    with store.transaction(write=False):
        assert store.counts() == (1, 1, 0)
        assert store.data_keys(alice) == []
        assert store.audit_key(alice) is None
        assert store.users() == [(bob, b"bob", sealed(1, b"name-bob"), 1)]


# -- retention -------------------------------------------------------------------------


def test_last_used_days(store: Store) -> None:
    """touched and touched_days read the sealed day (None if none); set_touched sets it;
    has_children tells a directory with children."""
    with store.transaction(write=True):
        user = _user(store)
        n = _tree(store, user)
        store.set_touched(n["a"], sealed(1, b"day-a"))
    with store.transaction(write=False):
        assert store.touched(user, n["a"]) == (b"fa", sealed(1, b"day-a"))
        assert store.touched(user, n["b"]) == (b"fb", None)
        assert store.touched(user + 1, n["a"]) is None
        assert store.touched_days(user) == {
            n["a"]: sealed(1, b"day-a"),
            n["b"]: None,
            n["c"]: sealed(1),
            n["d"]: sealed(1),
            n["e"]: sealed(1),
        }
        assert store.touched_days(user + 1) == {}
        assert store.has_children(user, n["a"]) is True
        assert store.has_children(user, n["c"]) is False
        assert store.has_children(user, 0) is True
        assert store.has_children(user + 1, 0) is False


# -- upkeep ----------------------------------------------------------------------------


def test_a_sound_store_passes_its_check_and_its_purge(store: Store) -> None:
    """check_structure finds nothing in a sound store; purge_wal after deletes succeeds
    (SQLite: the WAL emptied; PostgreSQL: VACUUM ran)."""
    with store.transaction(write=True):
        user = _user(store)
        n = _tree(store, user)
        store.delete_subtree(user, n["a"])
    assert store.purge_wal() is True
    with store.transaction(write=False):
        assert store.check_structure() == []
    store.pause_for_writers()
    if isinstance(store, PgStore):  # the check was amcheck's (the test role may create it)
        assert store._one("SELECT count(*) FROM pg_extension WHERE extname = 'amcheck'") == (1,)


def test_purge_inside_a_transaction_is_refused(store: Store) -> None:
    """Outside any transaction only: inside one, neither store purges (False)."""
    with store.transaction(write=True):
        _user(store)
        assert store.purge_wal() is False


# -- PostgreSQL only -------------------------------------------------------------------


def test_concurrent_writers_lose_no_update(pg: PgStore) -> None:
    """16 threads each add 1 to a counter in meta five times, reading and writing it in one
    write transaction: the writers' lock serializes them, so the count is exact."""
    with pg.transaction(write=True):
        pg.set_meta("counter", b"0")
    start = threading.Barrier(THREADS, timeout=30)
    failures: list[BaseException] = []

    def bump() -> None:
        try:
            start.wait()
            for _ in range(INCREMENTS):
                with pg.transaction(write=True):
                    value = int(pg.get_meta("counter") or b"0")
                    time.sleep(0.001)  # widen the window a lost update would need
                    pg.set_meta("counter", str(value + 1).encode())
        except BaseException as exc:
            failures.append(exc)

    threads = [threading.Thread(target=bump) for _ in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert pg.get_meta("counter") == str(THREADS * INCREMENTS).encode()


def test_a_read_sees_one_snapshot(pg: PgStore) -> None:
    """A read transaction does not see a write committed after its first statement."""
    with pg.transaction(write=True):
        pg.set_meta("k", b"before")
    seen: list[bytes | None] = []
    with pg.transaction(write=False):
        seen.append(pg.get_meta("k"))
        writer = threading.Thread(target=_write_meta, args=(pg, "k", b"after"))
        writer.start()
        writer.join()
        seen.append(pg.get_meta("k"))
    assert seen == [b"before", b"before"]
    assert pg.get_meta("k") == b"after"


def _write_meta(store: Store, key: str, value: bytes) -> None:
    with store.transaction(write=True):
        store.set_meta(key, value)


def test_durability_sets_synchronous_commit(pg_dsn: str) -> None:
    """ "full" is synchronous_commit on, "normal" off, for the pool's sessions."""
    for durability, expected in (("full", "on"), ("normal", "off")):
        made = PgStore(pg_dsn, durability=durability)  # type: ignore[arg-type]
        try:
            with made.transaction(write=False):
                conn = made._current()
                assert conn is not None
                row = conn.execute("SHOW synchronous_commit").fetchone()
            assert row == (expected,)
        finally:
            made.close()


def test_an_unreachable_server_is_storage_error_without_the_password() -> None:
    """Nothing listens on the port: a StorageError naming the server's reason, and not
    the password from the DSN."""
    dsn = f"postgresql://memvault:hunter2@127.0.0.1:{free_port()}/vault"
    with pytest.raises(StorageError) as raised:
        PgStore(dsn)
    message = str(raised.value)
    assert "while opening the database" in message
    assert "refused" in message.lower()
    assert "hunter2" not in message + str(raised.value.hint)


def test_a_dropped_table_is_integrity_error(pg_dsn: str, pg: PgStore) -> None:
    """A store with a schema version but a table missing was changed outside memvault."""
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        conn.execute("DROP TABLE audit_pending")
    with (
        pytest.raises(IntegrityError, match="lacks its audit_pending table"),
        pg.transaction(write=True),
    ):
        pg.initialize()


def test_import_memvault_does_not_need_psycopg() -> None:
    """With psycopg and psycopg_pool unimportable, memvault and its store still import."""
    code = (
        "import sys; sys.modules['psycopg'] = None; sys.modules['psycopg_pool'] = None\n"
        "import memvault, memvault.store\n"
        "print(memvault.store.PgStore.__name__)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
        check=False,
        timeout=60,
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "PgStore\n", "")


def test_without_amcheck_the_check_reads_every_row(pg_dsn: str) -> None:
    """A role that may not create the amcheck extension (not a superuser) gets the
    fallback check, reading every row of every table: nothing found in a sound store."""
    role = f"memvault_r_{uuid.uuid4().hex[:12]}"
    password = uuid.uuid4().hex  # the cluster asks every role for its password
    at = urlsplit(pg_dsn)
    database = at.path.lstrip("/")
    with psycopg.connect(pg_dsn, autocommit=True) as admin:
        admin.execute(f"CREATE ROLE {role} LOGIN NOSUPERUSER PASSWORD '{password}'")
        admin.execute(f"ALTER DATABASE {database} OWNER TO {role}")
        admin.execute(f"ALTER SCHEMA public OWNER TO {role}")
        try:
            made = PgStore(f"postgresql://{role}:{password}@{at.hostname}:{at.port}/{database}")
            try:
                made.migrate_schema()
                with made.transaction(write=True):
                    made.initialize()
                    _tree(made, _user(made))
                assert made.check_structure() == []
                assert made._one("SELECT count(*) FROM pg_extension WHERE extname = 'amcheck'") == (
                    0,
                )
            finally:
                made.close()
        finally:
            admin.execute(f"REASSIGN OWNED BY {role} TO postgres")
            admin.execute(f"DROP OWNED BY {role}")
            admin.execute(f"DROP ROLE {role}")


# -- the shared statements: SQLite's marks carried to PostgreSQL, orders both keep ---------


def test_numbered_marks_take_their_arguments_by_number(store: Store) -> None:
    """``?2, ?1, ?2`` reads the second argument twice, in both dialects (PostgreSQL's
    statements are SQLite's, translated once per text)."""
    assert store._one("SELECT ?2, ?1, ?2", (10, 20)) == (20, 10, 20)


def test_a_level_of_a_subtree_is_listed_in_id_order(store: Store) -> None:
    """Nodes of one depth come in id order, not in the order of their look-up tokens (the
    unique index SQLite's walk follows): both stores list the same rows alike."""
    with store.transaction(write=True):
        user = _user(store)
        top = [store.insert_node(user, 0, token, b"f", sealed(1), 1) for token in (b"z", b"y")]
        low = [store.insert_node(user, top[0], token, b"f", sealed(1), 1) for token in (b"b", b"a")]
        low.append(store.insert_node(user, top[1], b"c", b"f", sealed(1), 1))
    with store.transaction(write=False):
        rows = store.subtree(user, 0)
    assert [(r.id, r.depth) for r in rows] == [(n, 1) for n in top] + [(n, 2) for n in low]


@pytest.mark.parametrize("sql", ["SELECT '%'", "SELECT '?'", "SELECT ?1, ?"])
def test_a_statement_the_translation_cannot_carry_is_refused(pg: PgStore, sql: str) -> None:
    """A ``%`` (psycopg's own mark), a ``?`` inside a literal, or plain and numbered marks
    mixed would reach PostgreSQL wrong: such a statement is refused as a bug."""
    with pytest.raises(StorageError, match="a bug in memvault"):
        pg._q(sql, (1, 2))
