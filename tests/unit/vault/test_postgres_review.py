"""A review of the vault on PostgreSQL: each test shows one defect found (and fixed).

Each test has a fresh database of the session's throwaway cluster (``pg_dsn``). The
tampering tests change rows with psycopg directly, as someone with the database's
credentials but not the master key could; the concurrency tests interleave a second
vault (another worker) at the point where the first one's reads could tear.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from memvault import IntegrityError, StorageError, Vault
from memvault.audit import DbAuditLog, chain_of, label, read_checkpoint
from memvault.memory import Tree
from memvault.store import PgStore, chain_range
from tests.support.pg_rows import chain_lines as _chain_lines
from tests.support.pg_rows import migrate as _migrate
from tests.support.pg_rows import rows as _rows

pytestmark = pytest.mark.sqlite_only("a vault on PostgreSQL, on a database of its own")


@pytest.fixture
def db(pg_dsn: str) -> str:
    """A migrated database, with 4 chains."""
    _migrate(pg_dsn, 4)
    return pg_dsn


@pytest.fixture
def pg_vault(db: str) -> Iterator[Vault]:
    with Vault.open(db) as vault:
        yield vault


def _user_in(vault: Vault, chains: int, wanted: set[int], prefix: str = "u") -> str:
    """A user id whose records go to one of the ``wanted`` chains."""
    for n in range(10_000):
        name = f"{prefix}{n}"
        if chain_of(vault.audit.keys.user(name), chains) in wanted:
            return name
    raise AssertionError("no such user")


def _create(vault: Vault, user: str, path: str = "/memories/a.md", text: str = "x") -> None:
    reply = vault.runner(user).run({"command": "create", "path": path, "file_text": text})
    assert not reply.is_error, reply.content


# -- torn reads: audit verify while the fleet writes ------------------------------------


def test_a_write_while_the_store_is_verified_is_not_reported_as_damage(
    pg_vault: Vault, db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The binding check read the log's changes and ledgers in one snapshot, then each
    user's memories in later transactions of their own: a file another worker writes in
    between is newer than the ledger read, and was reported as a rolled-back ledger (and
    as rows inserted outside memvault). Here the other worker writes while the first
    user's memories are read: the second user's are read after it."""
    _create(pg_vault, "alice")
    _create(pg_vault, "bob")
    real = Tree.listing
    done: list[bool] = []

    def interleaved(self: Tree, *args, **kwargs):  # type: ignore[no-untyped-def]
        if not done:
            done.append(True)
            with Vault.open(db) as worker:  # another worker, writing as the fleet does
                for user in ("alice", "bob"):
                    _create(worker, user, "/memories/b.md", "y")
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Tree, "listing", interleaved)
    assert [str(p) for p in pg_vault.verify_store()] == []
    assert done


def test_a_user_created_while_the_store_is_verified_is_not_reported_missing(
    pg_vault: Vault, db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The users (and their audit keys) are read in a transaction before the binding
    check's: a user another worker creates in between is in the log and the store, but
    not among the users checked, and is reported as deleted outside memvault."""
    _create(pg_vault, "alice")
    real = DbAuditLog.bound

    def interleaved(self: DbAuditLog):  # type: ignore[no-untyped-def]
        with Vault.open(db) as worker:  # after the users were read, before the snapshot
            _create(worker, "bob")
        return real(self)

    monkeypatch.setattr(DbAuditLog, "bound", interleaved)
    assert [str(p) for p in pg_vault.verify_store()] == []


# -- the number of chains (meta audit_chains), which nothing seals ------------------------


def _lower_chains(db: str, vault: Vault, *, erase_chain: bool) -> tuple[int, dict[str, object]]:
    """alice in chain 1 or 2, bob in chain 3 or 4 (of 4); a checkpoint of both; then, as
    someone with the database's credentials: bob's rows deleted and the number of chains
    lowered to 2, which leaves bob's chain out of every check (``erase_chain``: bob's
    chain and its ledger deleted too). Returns bob's chain and the checkpoint."""
    alice = _user_in(vault, 4, {1, 2}, "a")
    bob = _user_in(vault, 4, {3, 4}, "b")
    _create(vault, alice)
    _create(vault, bob)
    checkpoint = vault.audit.checkpoint()
    bob_chain = chain_of(vault.audit.keys.user(bob), 4)
    bob_id = vault._store.user_by_lookup(vault._master.user_token(bob))[0]  # type: ignore[attr-defined, index]
    _rows(db, "DELETE FROM users WHERE id = %s", (bob_id,))
    _rows(db, "UPDATE meta SET value = '2' WHERE key = 'audit_chains'")
    if erase_chain:
        low, high = chain_range(bob_chain)
        _rows(db, "DELETE FROM audit_log WHERE seq > %s AND seq < %s", (low, high))
        _rows(db, "DELETE FROM meta WHERE key = %s", (f"ledger.{bob_chain}",))
    return bob_chain, checkpoint


def test_a_lowered_number_of_chains_does_not_hide_a_chain_the_checkpoint_signed(
    db: str,
) -> None:
    """A checkpoint signs every chain's head; verification walks chains 0 to N with N read
    from the database. With N lowered, a signed chain is never looked at, and the log
    'extends the checkpoint' with a user and their whole history gone."""
    with Vault.open(db) as vault:
        bob_chain, checkpoint = _lower_chains(db, vault, erase_chain=True)
        signed = checkpoint["chains"][str(bob_chain)][0]  # type: ignore[index]
    with Vault._open(db, audit_problems=[]) as vault:
        report = vault.audit.examine(checkpoint)  # type: ignore[union-attr]
        assert vault.verify_store() == []  # the store agrees with what is left of the log
    assert [str(p) for p in report.problems] == [
        f"chain {bob_chain}: the checkpoint signed its record {label(signed)}, but the vault's "
        "log has chains 0 to 2 only: its number of chains was changed outside memvault"
    ]
    assert report.checkpoint is None


def test_records_beyond_the_number_of_chains_are_refused_at_open_and_named_by_verify(
    db: str,
) -> None:
    """Without a checkpoint: the chains beyond the lowered number still hold records and
    ledgers, which neither opening the vault nor verification looked at."""
    with Vault.open(db) as vault:
        bob_chain, _ = _lower_chains(db, vault, erase_chain=False)
    beyond = (
        f"audit chain {bob_chain} holds records, but the vault's log has chains 0 to 2 only: "
        "its number of chains was changed outside memvault"
    )
    with pytest.raises(IntegrityError) as caught:
        Vault.open(db).close()
    assert caught.value.message == f"the audit log and the store disagree: {beyond}"
    with Vault._open(db, audit_problems=[]) as vault:
        problems = [str(p) for p in vault.audit.examine().problems]  # type: ignore[union-attr]
    assert problems == [
        f"the log as a whole: {beyond}",
        f"the log as a whole: audit chain {bob_chain} has a ledger, but the vault's log has "
        "chains 0 to 2 only: its number of chains was changed outside memvault",
    ]


def test_db_migrate_does_not_remake_the_log_of_a_database_whose_version_was_lowered(
    db: str,
) -> None:
    """`pg_schema` set back to 1 by someone with the database's credentials: opening is
    refused until `db migrate` runs, and the migration's step 2 then sets the number of
    chains anew (16, or whatever --chains says) over a log made with 4: the users' records
    go to other chains from then on."""
    with Vault.open(db) as vault:
        _create(vault, "alice")
    _rows(db, "UPDATE meta SET value = '1' WHERE key = 'pg_schema'")
    store = PgStore(db)
    try:
        with pytest.raises(IntegrityError):
            store.migrate_schema()
    finally:
        store.close()
    assert _rows(db, "SELECT value FROM meta WHERE key = 'audit_chains'") == [(b"4",)]


# -- checkpoints of a vault moved from a home: the archive (chain -1) ---------------------


def _moved_from_home(tmp_path: Path, db: str, *, user: bool) -> tuple[Path, dict[str, object]]:
    """A vault made in a home (with alice's memory if ``user``), a checkpoint of its log of
    files (format 1), then moved into the database: the files become the archive."""
    home = tmp_path / "home"
    with Vault.open(home) as vault:
        if user:
            _create(vault, "alice")
        checkpoint = vault.audit.checkpoint()
        assert checkpoint["format"] == "memvault-audit-checkpoint/1"
        vault.move_to(db)
    return home, checkpoint


def test_a_checkpoint_of_a_moved_vault_can_be_read_back(tmp_path: Path, db: str) -> None:
    """A log in chains signs every chain's head, the archive's (chain -1) too; reading a
    checkpoint back takes only chains that are digits, so no checkpoint of a vault moved
    from a home is ever accepted by audit verify ("malformed JSON")."""
    _moved_from_home(tmp_path, db, user=True)
    with Vault.open(db) as vault:
        checkpoint = vault.audit.checkpoint()
        assert "-1" in checkpoint["chains"]
        again = read_checkpoint(json.dumps(checkpoint), vault.audit.keys, "cp.json")
        assert again == checkpoint
        report = vault.audit.examine(again)  # type: ignore[union-attr]
    assert report.problems == [] and report.checkpoint is not None


def test_a_checkpoint_of_the_log_of_files_is_checked_against_the_archive(
    tmp_path: Path, db: str
) -> None:
    """A checkpoint of format 1 (taken while the vault was in its home) signs the log of
    files' size and head, which became the archive. Fed to the vault in the database, it
    is not compared with anything, and the log 'extends the checkpoint' with the whole
    archive deleted."""
    _, checkpoint = _moved_from_home(tmp_path, db, user=False)
    low, high = chain_range(-1)
    _rows(db, "DELETE FROM audit_log WHERE seq > %s AND seq < %s", (low, high))
    _rows(db, "DELETE FROM meta WHERE key = 'ledger.-1'")
    with Vault._open(db, audit_problems=[]) as vault:
        parsed = read_checkpoint(json.dumps(checkpoint), vault.audit.keys, "cp.json")
        report = vault.audit.examine(parsed)  # type: ignore[union-attr]
    assert (
        f"chain -1: it is empty, but the checkpoint signed record {checkpoint['size']}: the "
        "chain was cut back after the checkpoint"
    ) in [str(p) for p in report.problems]
    assert report.checkpoint is None


def test_the_archive_removed_whole_is_caught_by_the_move_record_without_a_checkpoint(
    tmp_path: Path, db: str
) -> None:
    """The database's first operator record, ``vault.move``, names the last record copied
    (the archive's newest) and its hash, "continuity"; nothing checks it, so the records
    of the vault's time in its home can be deleted whole, with their ledger."""
    _moved_from_home(tmp_path, db, user=False)
    newest = _chain_lines(db, -1)[-1][0]
    low, high = chain_range(-1)
    _rows(db, "DELETE FROM audit_log WHERE seq > %s AND seq < %s", (low, high))
    _rows(db, "DELETE FROM meta WHERE key = 'ledger.-1'")
    with Vault._open(db, audit_problems=[]) as vault:
        problems = [str(p) for p in vault.audit.examine().problems]  # type: ignore[union-attr]
    assert problems == [
        f"chain 0, record 0.1: the vault moved here with record {newest} as the last one "
        "copied, which the log no longer holds as it was: the records of before the move were "
        "removed or rewritten"
    ]


# -- the DSN's password ----------------------------------------------------------------


@pytest.mark.parametrize(
    "dsn",
    [
        # libpq quotes the token it could not decode: here, the password
        "postgresql://worker:S3cretPw%ZZ@127.0.0.1:1/db",
        # libpq quotes the whole URI: the password with it
        "postgresql://worker:S3cretPw@[::1/db",
    ],
)
def test_a_malformed_uri_does_not_show_its_password(
    dsn: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from memvault.cli import main

    with pytest.raises(StorageError) as caught:
        Vault.open(dsn)
    assert "S3cretPw" not in caught.value.message + str(caught.value.hint)
    assert "S3cretPw" not in str(caught.value)
    code = main(["--home", dsn, "db", "status"])
    out = capsys.readouterr()
    assert code != 0
    assert "S3cretPw" not in out.out + out.err


# -- ledger rows by name ---------------------------------------------------------------


def test_a_decoy_ledger_row_is_not_taken_for_a_chain_s_ledger(db: str) -> None:
    """Verification read every ``ledger.*`` row whose suffix is a number as that chain's
    ledger: ``ledger.02`` (an older genuine ledger of chain 2, under a name memvault never
    writes) stood in for a removed ``ledger.2``, and the chain, cut back to match, was
    reported intact; while opening the vault reads ``ledger.2`` only."""
    with Vault.open(db) as vault:
        alice = _user_in(vault, 4, {2}, "a")
        _create(vault, alice)
        old = _rows(db, "SELECT value FROM meta WHERE key = 'ledger.2'")[0][0]
        vault.runner(alice).run({"command": "view", "path": "/memories"})
    newest = _chain_lines(db, 2)[-1][0]
    _rows(db, "DELETE FROM audit_log WHERE seq = %s", (newest,))
    _rows(db, "DELETE FROM meta WHERE key = 'ledger.2'")
    _rows(db, "INSERT INTO meta (key, value) VALUES ('ledger.02', %s)", (old,))
    with Vault._open(db, audit_problems=[]) as vault:
        problems = [str(p) for p in vault.audit.examine().problems]  # type: ignore[union-attr]
    assert problems == [
        "the log as a whole: the database holds a ledger row 'ledger.02' of no audit chain: "
        "it was added outside memvault",
        "chain 2: it has records but no ledger: it was removed",
    ]


# -- a move mark that is not what memvault wrote ------------------------------------------


def test_a_damaged_move_mark_is_named_not_an_internal_error(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``meta`` ``moved`` is read as JSON at every open: bytes that are not UTF-8 JSON (put
    there with the database's credentials) fail every open, `audit verify` included, with
    an internal error (UnicodeDecodeError) instead of naming the damage."""
    from memvault.cli import main

    with Vault.open(db) as vault:
        _create(vault, "alice")
    _rows(db, "INSERT INTO meta (key, value) VALUES ('moved', %s)", (b"\xff{",))
    with pytest.raises(IntegrityError) as caught:
        Vault.open(db)
    assert caught.value.message == (
        "the vault's move mark (meta 'moved') is damaged: it was modified outside memvault"
    )
    assert main(["--home", db, "audit", "verify"]) != 0
    assert "internal error" not in capsys.readouterr().err


# -- not fixed here: a design limit, sharper with chains ---------------------------------


@pytest.mark.xfail(
    strict=True,
    reason="design: a chain deleted whole (records and ledger) with its users' rows is a "
    "chain 'cut back with an older ledger' (the one before its first record); only a "
    "checkpoint shows it. Proposed: a vault-wide census of users created and erased, "
    "sealed and advanced under the exclusive lock those operations hold already",
)
def test_a_user_deleted_with_their_whole_chain_is_caught_without_a_checkpoint(db: str) -> None:
    """With a log of files, deleting a user's rows needs the one ledger of the whole vault
    rolled back, which every later write of every user then contradicts. With chains, a
    user alone in their chain (likely: 16 chains) goes with their chain and its ledger,
    and every other chain, every ledger count and every memory still agree."""
    with Vault.open(db) as vault:
        others = [_user_in(vault, 4, {1}, "a"), _user_in(vault, 4, {2}, "b")]
        lone = _user_in(vault, 4, {3}, "c")
        for user in (*others, lone):
            _create(vault, user)
        lone_id = vault._store.user_by_lookup(vault._master.user_token(lone))[0]  # type: ignore[attr-defined, index]
        for user in others:  # the rest of the fleet goes on writing afterwards
            _create(vault, user, "/memories/later.md", "z")
    low, high = chain_range(3)
    _rows(db, "DELETE FROM users WHERE id = %s", (lone_id,))
    _rows(db, "DELETE FROM audit_log WHERE seq > %s AND seq < %s", (low, high))
    _rows(db, "DELETE FROM meta WHERE key = 'ledger.3'")
    with Vault._open(db, audit_problems=[]) as vault:
        problems = [str(p) for p in vault.audit.examine().problems]  # type: ignore[union-attr]
        problems += [str(p) for p in vault.verify_store()]
    assert problems != []
