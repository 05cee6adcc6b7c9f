"""CLI transcripts of `memvault keys` and `memvault users erase`: stdout, stderr and exit
code; the `keys list --json` document as the README pins it; what each command changes
(and, when it refuses, that it changed nothing); the progress bar on a terminal."""

from __future__ import annotations

import base64
import dataclasses
import fcntl
import io
import json
import os
import pty
import re
import stat
import struct
import subprocess
import sys
import termios
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

import memvault
from memvault import Vault, keys
from memvault._crypto import Key, passphrase_kdfs
from memvault.cli import main

# alice: two files and the directory of one (3 nodes, 10 bytes of text); bob: one file.
ALICE = {"/memories/notes/a.md": "hello\n", "/memories/b.md": "bee\n"}
BOB = {"/memories/c.md": "sea\n"}
TIME = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"
KEY_ID = r"[0-9a-f]{16}"
PSEUDONYM = r"u:[0-9a-f]{20}"
PROMPT = "Erasing a user destroys their keys and memories for good. Type the user id to confirm: "
NO_SUCH_USER = (
    "memvault: error: there is no such user in this vault\n"
    "memvault: hint: `memvault users list` shows the users (ids are compared in NFC)\n"
)
PASSPHRASE = "correct horse battery staple"
SUMMARY = (  # `keys rotate --user alice`, off a terminal
    r"rotated 1 user\(s\): 3 memories \(0\.0 MB\) re-sealed in \d+\.\d s \(\d+ memories/s\); "
    r"old data keys destroyed\n"
)
# What would force a terminal on rich or refuse one, if the environment had it.
_TERMINAL_OVERRIDES = ("NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE")
_ESCAPE = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")


@pytest.fixture(autouse=True)
def _no_key_settings_from_outside(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in (
        "MEMVAULT_KEY_PROVIDER",
        "MEMVAULT_PASSPHRASE",
        "MEMVAULT_NEW_PASSPHRASE",
        "MEMVAULT_NEW_MASTER_KEY",
    ):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def two_users(home: Path) -> Path:
    """A vault (key file in its default place) where alice and bob have memories."""
    with Vault.open(home) as vault:
        for user, texts in (("alice", ALICE), ("bob", BOB)):
            runner = vault.runner(user)
            for path, text in texts.items():
                reply = runner.run({"command": "create", "path": path, "file_text": text})
                assert not reply.is_error, reply.content
    return home


def _cli(home: Path, *argv: str, stdin: io.BytesIO | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["--home", str(home), *argv], stdin=stdin or io.BytesIO(), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def _key_list(home: Path, *argv: str) -> dict[str, Any]:
    code, out, err = _cli(home, *argv, "keys", "list", "--json")
    assert (code, err) == (0, ""), err
    doc: dict[str, Any] = json.loads(out)
    return doc


def _key_file(home: Path) -> Path:
    """The vault's one key file, in the test's configuration directory (named by vault id)."""
    [found] = (home.parent / "config" / "memvault" / "keys").glob("*.key*")
    return found


def _fingerprint(key_file: Path, vault_id: str | None = None) -> str:
    """The public id of the key in ``key_file`` (of the vault it is named after, by
    default), as records and listings name it."""
    key = Key(base64.b64decode(key_file.read_text()))
    return keys.key_id(key, vault_id or key_file.stem)


def _snapshot(home: Path) -> dict[str, bytes]:
    """Every byte of the home and of the key directory."""
    roots = (home, home.parent / "config")
    return {
        str(p): p.read_bytes() for root in roots for p in sorted(root.rglob("*")) if p.is_file()
    }


def _shape(value: Any) -> Any:
    """A JSON value's keys (in order) and types, without its values."""
    if isinstance(value, dict):
        return [(name, _shape(item)) for name, item in value.items()]
    if isinstance(value, list):
        return [_shape(item) for item in value]
    return type(value).__name__


def _readme_key_list() -> Any:
    """The `keys list --json` example the README documents."""
    readme = (Path(__file__).parents[3] / "README.md").read_text(encoding="utf-8")
    after = readme.split("`keys list --json` prints one document of this stable shape:", 1)[1]
    block = re.search(r"```json\n(.*?)```", after, re.DOTALL)
    assert block is not None
    return json.loads(block.group(1))


def _user(doc: dict[str, Any], name: str) -> dict[str, Any]:
    [entry] = [u for u in doc["users"] if u["user"] == name]
    return entry


def _interrupted_after_the_first_batch(*counts: int) -> None:
    """A progress callback standing for Ctrl-C once a batch has been committed."""
    raise KeyboardInterrupt


# -- keys list


@pytest.mark.sqlite_only("works on the home directory's files")
def test_keys_list_of_a_vault_without_users(home: Path) -> None:
    """A new vault lists its master key, then says it has no users."""
    assert _cli(home, "init")[0] == 0
    code, out, err = _cli(home, "keys", "list")
    assert (code, err) == (0, "")
    key_file = _key_file(home)
    assert re.fullmatch(
        f"master key {_fingerprint(key_file)}: generation 1, provider file "
        f"\\({re.escape(str(key_file))}\\), created {TIME}, 0 days old\nno users\n",
        out,
    ), out


@pytest.mark.sqlite_only("works on the home directory's files")
def test_keys_list_text_names_the_master_key_then_each_users_versions(two_users: Path) -> None:
    """One line for the master key, then each user with each version and its count."""
    code, out, err = _cli(two_users, "keys", "list")
    assert (code, err) == (0, "")
    key_file = _key_file(two_users)
    assert re.fullmatch(
        f"master key {_fingerprint(key_file)}: generation 1, provider file "
        f"\\({re.escape(str(key_file))}\\), created {TIME}, 0 days old\n"
        f"user alice:\n  version 1 \\(primary\\): 3 memories, created {TIME}\n"
        f"user bob:\n  version 1 \\(primary\\): 1 memories, created {TIME}\n",
        out,
    ), out


@pytest.mark.sqlite_only("works on the home directory's files")
def test_keys_list_json_has_the_shape_the_readme_documents(two_users: Path) -> None:
    """`keys list --json`: the README's keys, in its order, with its types; the values are
    the vault's (a version's count covers files and directories)."""
    doc, documented = _key_list(two_users), _readme_key_list()
    assert _shape(doc) == _shape(
        {"users": [documented["users"][0]] * 2, "master": documented["master"]}
    )
    key_file = _key_file(two_users)
    created = doc["master"]["created"]
    assert re.fullmatch(TIME, created)
    assert doc["master"] == {
        "key_id": _fingerprint(key_file),
        "provider": "file",
        "source": str(key_file),
        "generation": 1,
        "created": created,
        "age_days": 0,
        "costs": None,
        "rotation": None,
    }
    stamps = [u["versions"][0]["created"] for u in doc["users"]]
    assert all(re.fullmatch(TIME, stamp) for stamp in stamps)
    assert doc["users"] == [
        {
            "user": "alice",
            "primary": 1,
            "versions": [{"version": 1, "memories": 3, "created": stamps[0]}],
        },
        {
            "user": "bob",
            "primary": 1,
            "versions": [{"version": 1, "memories": 1, "created": stamps[1]}],
        },
    ]


def test_keys_list_counts_the_master_keys_age_in_whole_days(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A master key made 30 days and 23 hours ago is 30 days old."""
    made = datetime.now(UTC) - timedelta(days=30, hours=23)
    stamp = made.replace(microsecond=0).isoformat().replace("+00:00", "Z")
    mint = keys.MasterRecord.new

    def backdated(*args: Any) -> keys.MasterRecord:
        return dataclasses.replace(mint(*args), created=stamp)

    with monkeypatch.context() as patch:
        patch.setattr(keys.MasterRecord, "new", backdated)
        assert _cli(home, "init")[0] == 0
    master = _key_list(home)["master"]
    assert (master["created"], master["age_days"]) == (stamp, 30)
    code, out, _ = _cli(home, "keys", "list")
    assert code == 0 and out.splitlines()[0].endswith(f", created {stamp}, 30 days old")


# -- keys rotate


def test_rotating_alice_changes_her_key_and_leaves_bob_alone(two_users: Path) -> None:
    """`keys rotate --user alice`: one summary line, no progress off a terminal; alice's
    memories move to version 2 and version 1 is gone; bob and the master key stay."""
    before = _key_list(two_users)
    code, out, err = _cli(two_users, "keys", "rotate", "--user", "alice")
    assert (code, err) == (0, "")
    assert re.fullmatch(SUMMARY, out), out
    after = _key_list(two_users)
    alice = _user(after, "alice")
    assert re.fullmatch(TIME, alice["versions"][0]["created"])
    assert alice == {
        "user": "alice",
        "primary": 2,
        "versions": [{"version": 2, "memories": 3, "created": alice["versions"][0]["created"]}],
    }
    assert _user(after, "bob") == _user(before, "bob")
    assert after["master"] == before["master"]


def test_keys_rotate_json_reports_each_user(two_users: Path) -> None:
    """`--json`: one line naming the user, their pseudonym, the versions and the counts."""
    code, out, err = _cli(two_users, "keys", "rotate", "--user", "alice", "--json")
    assert (code, err) == (0, "")
    assert len(out.splitlines()) == 1
    doc = json.loads(out)
    assert type(doc["seconds"]) is float and doc["seconds"] >= 0
    [entry] = doc["users"]
    assert re.fullmatch(PSEUDONYM, entry["pseudonym"])
    assert doc == {
        "users": [
            {
                "user": "alice",
                "pseudonym": entry["pseudonym"],
                "from": [1],
                "to": 2,
                "memories": 3,
                "bytes": 10,
                "resumed": False,
            }
        ],
        "seconds": doc["seconds"],
    }


def test_keys_rotate_all_rotates_every_user(two_users: Path) -> None:
    """`--all`: every user, counted together in the summary; each is at version 2 after."""
    code, out, err = _cli(two_users, "keys", "rotate", "--all")
    assert (code, err) == (0, "")
    assert re.fullmatch(
        r"rotated 2 user\(s\): 4 memories \(0\.0 MB\) re-sealed in \d+\.\d s "
        r"\(\d+ memories/s\); old data keys destroyed\n",
        out,
    ), out
    doc = _key_list(two_users)
    assert [
        (u["user"], u["primary"], [(v["version"], v["memories"]) for v in u["versions"]])
        for u in doc["users"]
    ] == [
        ("alice", 2, [(2, 3)]),
        ("bob", 2, [(2, 1)]),
    ]


@pytest.mark.sqlite_only("works on the home directory's files")
def test_rotating_an_unknown_user_is_refused_and_changes_nothing(two_users: Path) -> None:
    """An unknown user: exit 2, the error and its hint on stderr, not a byte changed."""
    before = _snapshot(two_users)
    code, out, err = _cli(two_users, "keys", "rotate", "--user", "nobody")
    assert (code, out, err) == (2, "", NO_SUCH_USER)
    assert _snapshot(two_users) == before


@pytest.mark.sqlite_only("works on the home directory's files")
@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([], "one of the arguments --user --all is required"),
        (["--user", "alice", "--all"], "argument --all: not allowed with argument --user"),
    ],
)
def test_keys_rotate_needs_one_of_user_and_all(
    two_users: Path, argv: list[str], message: str
) -> None:
    """Neither or both of --user and --all is a usage error (exit 2) naming them."""
    before = _snapshot(two_users)
    code, out, err = _cli(two_users, "keys", "rotate", *argv)
    assert (code, out) == (2, "")
    assert err == (
        f"memvault: error: {message}\nmemvault: hint: run 'memvault keys rotate --help' for usage\n"
    )
    assert _snapshot(two_users) == before


def test_an_interrupted_rotation_is_listed_and_a_re_run_finishes_it(
    two_users: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Interrupted after its batch of re-sealing, before the old key is destroyed: `keys
    list` shows both versions (the old one protecting nothing), and a re-run finishes the
    rotation as `resumed`."""
    rotate = Vault.rotate_user_key

    def interrupted(vault: Vault, user: str, progress: object = None) -> object:
        return rotate(vault, user, _interrupted_after_the_first_batch)

    with monkeypatch.context() as patch:
        patch.setattr(Vault, "rotate_user_key", interrupted)
        code, out, err = _cli(two_users, "keys", "rotate", "--user", "alice")
    assert (code, out, err) == (130, "", "memvault: interrupted\n")
    versions = _user(_key_list(two_users), "alice")["versions"]
    # A batch ends after 24 memories or 0.7 ms of work: how many it took depends on the
    # store's speed, but it took some, and the rest are left under version 1.
    done = versions[0]["memories"]
    assert 1 <= done <= 3
    assert [(v["version"], v["memories"]) for v in versions] == [(2, done), (1, 3 - done)]
    code, out, _ = _cli(two_users, "keys", "list")
    assert code == 0 and re.search(
        f"\nuser alice:\n  version 2 \\(primary\\): {done} memor(y|ies), created {TIME}\n"
        f"  version 1: {3 - done} memor(y|ies), created {TIME}\nuser bob:\n",
        out,
    ), out
    code, out, err = _cli(two_users, "keys", "rotate", "--user", "alice", "--json")
    assert (code, err) == (0, "")
    [entry] = json.loads(out)["users"]
    assert (entry["from"], entry["to"], entry["memories"], entry["resumed"]) == (
        [1],
        2,
        3 - done,
        True,
    )
    alice = _user(_key_list(two_users), "alice")
    assert (alice["primary"], [v["version"] for v in alice["versions"]]) == (2, [2])


# -- keys rotate-master


@pytest.mark.sqlite_only("works on the home directory's files")
def test_rotate_master_replaces_the_key_file(two_users: Path, tmp_path: Path) -> None:
    """The key file gets a new key; the old key no longer opens the vault, the new one does,
    and `keys list` names it; no data key changes."""
    key_file = _key_file(two_users)
    old_text, old_id = key_file.read_text(), _fingerprint(key_file)
    before = _key_list(two_users)
    code, out, err = _cli(two_users, "keys", "rotate-master")
    assert (code, err) == (0, "")
    new_id = _fingerprint(key_file)
    assert new_id != old_id and key_file.read_text() != old_text
    assert out == (
        f"master key {old_id} (generation 1) replaced by {new_id} (generation 2, file "
        f"{key_file}); 2 user(s) re-wrapped\n"
    )
    assert sorted(key_file.parent.iterdir()) == [key_file]  # no <file>.next left behind
    old_copy = tmp_path / "old.key"
    old_copy.write_text(old_text)
    old_copy.chmod(0o600)
    code, out, err = _cli(two_users, "--master-key-file", str(old_copy), "keys", "list")
    assert (code, out) == (1, "")
    assert err.splitlines()[0] == (
        f"memvault: error: the master key from {old_copy} does not open vault {key_file.stem}"
    )
    after = _key_list(two_users)
    assert after["master"]["key_id"] == new_id and after["master"]["generation"] == 2
    assert after["users"] == before["users"]


@pytest.mark.sqlite_only("works on the home directory's files")
def test_rotate_master_json(two_users: Path) -> None:
    """`--json`: one line with both key ids and generations, the provider, the users
    re-wrapped and why."""
    old_id = _fingerprint(_key_file(two_users))
    code, out, err = _cli(two_users, "keys", "rotate-master", "--json")
    assert (code, err) == (0, "")
    assert len(out.splitlines()) == 1
    assert json.loads(out) == {
        "from_key_id": old_id,
        "to_key_id": _fingerprint(_key_file(two_users)),
        "from_generation": 1,
        "to_generation": 2,
        "provider": "file",
        "users": 2,
        "resumed": False,
        "reason": "rotate",
        "key_file": str(_key_file(two_users)),
    }


@pytest.mark.sqlite_only("works on the home directory's files")
def test_rotate_master_can_move_the_key_to_another_file(two_users: Path, tmp_path: Path) -> None:
    """--new-master-key-file F: the new key is written to F (mode 0600) and the old file is
    removed; the vault then opens with --master-key-file F."""
    key_file = _key_file(two_users)
    target = tmp_path / "elsewhere" / "vault.key"
    target.parent.mkdir()
    code, out, err = _cli(
        two_users, "keys", "rotate-master", "--to", "file", "--new-master-key-file", str(target)
    )
    assert (code, err) == (0, "")
    assert out.endswith(
        f" {_fingerprint(target, key_file.stem)} (generation 2, file {target}); 2 user(s) "
        f"re-wrapped\nthe master key is now in {target}: give --master-key-file {target} "
        "(or $MEMVAULT_MASTER_KEY_FILE) from now on\n"
    )
    assert not key_file.exists() and stat.S_IMODE(target.stat().st_mode) == 0o600
    doc = _key_list(two_users, "--master-key-file", str(target))
    assert (doc["master"]["source"], doc["master"]["generation"]) == (str(target), 2)


@pytest.mark.sqlite_only("works on the home directory's files")
@pytest.mark.parametrize("kind", ["env", "passphrase", "kms"])
def test_new_master_key_file_goes_only_with_to_file(
    two_users: Path, tmp_path: Path, kind: str
) -> None:
    """--new-master-key-file with another provider is a usage error; nothing is written."""
    before = _snapshot(two_users)
    target = tmp_path / "new.key"
    argv = ["keys", "rotate-master", "--to", kind, "--new-master-key-file", str(target)]
    code, out, err = _cli(two_users, *argv)
    assert (code, out) == (2, "")
    assert err == "memvault: error: --new-master-key-file goes with --to file\n"
    assert _snapshot(two_users) == before and not target.exists()


@pytest.mark.sqlite_only("works on the home directory's files")
def test_rotate_master_to_a_passphrase(two_users: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """--to passphrase takes the new one from $MEMVAULT_NEW_PASSPHRASE (a short one is
    refused first, changing nothing); the key file goes; the vault then opens with the
    passphrase, and only with the right one."""
    key_file = _key_file(two_users)
    old_id, vault_id = _fingerprint(key_file), key_file.stem
    before = _snapshot(two_users)
    monkeypatch.setenv("MEMVAULT_NEW_PASSPHRASE", "too short")
    code, out, err = _cli(two_users, "keys", "rotate-master", "--to", "passphrase")
    assert (code, out) == (1, "")
    assert err.splitlines()[0] == (
        "memvault: error: the new passphrase is too short: a vault's passphrase must be at "
        "least 12 characters long"
    )
    assert _snapshot(two_users) == before

    monkeypatch.setenv("MEMVAULT_NEW_PASSPHRASE", PASSPHRASE)
    code, out, err = _cli(two_users, "keys", "rotate-master", "--to", "passphrase")
    assert (code, err) == (0, "")
    found = re.fullmatch(
        f"master key {old_id} \\(generation 1\\) replaced by ({KEY_ID}) \\(generation 2, "
        "passphrase\\); 2 user\\(s\\) re-wrapped\n",
        out,
    )
    assert found, out
    assert not key_file.exists()
    monkeypatch.delenv("MEMVAULT_NEW_PASSPHRASE")

    kdf = passphrase_kdfs()[0]
    monkeypatch.setenv("MEMVAULT_PASSPHRASE", "wrong horse battery staple")
    code, out, err = _cli(two_users, "--key-provider", "passphrase", "keys", "list")
    assert (code, out) == (1, "")
    assert err.splitlines()[0] == (
        f"memvault: error: the master key from passphrase ({kdf}) does not open vault {vault_id}"
    )
    monkeypatch.setenv("MEMVAULT_PASSPHRASE", PASSPHRASE)
    doc = _key_list(two_users, "--key-provider", "passphrase")
    assert {k: doc["master"][k] for k in ("key_id", "provider", "source", "generation")} == {
        "key_id": found.group(1),
        "provider": "passphrase",
        "source": f"passphrase ({kdf})",
        "generation": 2,
    }
    assert [(u["user"], u["versions"][0]["memories"]) for u in doc["users"]] == [
        ("alice", 3),
        ("bob", 1),
    ]


# -- users erase


class _Terminal(io.BytesIO):
    """Standard input that says it is a terminal, holding what the operator types."""

    def isatty(self) -> bool:
        return True


@pytest.mark.sqlite_only("works on the home directory's files")
def test_erase_off_a_terminal_without_yes_is_refused(two_users: Path) -> None:
    """Without --yes and no terminal to ask on, erase refuses (even with the id piped in)."""
    before = _snapshot(two_users)
    code, out, err = _cli(two_users, "users", "erase", "alice", stdin=io.BytesIO(b"alice\n"))
    assert (code, out) == (2, "")
    assert err == (
        "memvault: error: erasing a user cannot be undone: confirm with --yes\n"
        "memvault: hint: nothing was changed\n"
    )
    assert _snapshot(two_users) == before


@pytest.mark.sqlite_only("reads or changes the home's audit log files")
def test_erase_with_yes_removes_the_user_and_only_them(two_users: Path) -> None:
    """--yes: one summary line; the user is gone from both listings, bob's memory still
    reads, the master key is replaced, and the audit log verifies with the erasure in it."""
    old_id = _fingerprint(_key_file(two_users))
    bob_keys = _user(_key_list(two_users), "bob")
    code, out, err = _cli(two_users, "users", "erase", "alice", "--yes")
    assert (code, err) == (0, "")
    new_id = _fingerprint(_key_file(two_users))
    assert re.fullmatch(
        f"erased user {PSEUDONYM} \\(3 memories\\); master key {old_id} retired, now "
        f"{new_id}; 1 other user\\(s\\) re-wrapped\n",
        out,
    ), out
    code, out, _ = _cli(two_users, "users", "list", "--json")
    assert code == 0 and [u["user"] for u in json.loads(out)["users"]] == ["bob"]
    doc = _key_list(two_users)
    assert doc["users"] == [bob_keys]
    assert (doc["master"]["key_id"], doc["master"]["generation"]) == (new_id, 2)
    view = json.dumps({"command": "view", "path": "/memories/c.md"}).encode() + b"\n"
    code, out, _ = _cli(two_users, "exec", "--user", "bob", stdin=io.BytesIO(view))
    assert (code, json.loads(out)["content"]) == (
        0,
        "Here's the content of /memories/c.md with line numbers:\n     1\tsea\n     2\t",
    )
    code, out, err = _cli(two_users, "audit", "verify")
    assert (code, err) == (0, "") and out.startswith("audit log intact: ")
    code, out, _ = _cli(two_users, "audit", "show", "--json")
    commands = [json.loads(line)["command"] for line in out.splitlines()]
    assert commands.index("users.erase") < commands.index("keys.rotate_master")


@pytest.mark.parametrize("typed", [b"alice\n", b"alice\r\n", b"alice"])
def test_erase_on_a_terminal_goes_ahead_when_the_id_is_typed(two_users: Path, typed: bytes) -> None:
    """At a terminal, erase asks on stderr for the user id and goes ahead when it is typed."""
    code, out, err = _cli(two_users, "users", "erase", "alice", stdin=_Terminal(typed))
    assert (code, err) == (0, PROMPT)
    assert out.startswith("erased user u:")
    assert [u["user"] for u in _key_list(two_users)["users"]] == ["bob"]


@pytest.mark.sqlite_only("works on the home directory's files")
@pytest.mark.parametrize(
    "typed", [b"Alice\n", b"alice \n", b" alice\n", b"bob\n", b"y\n", b"\n", b""]
)
def test_erase_on_a_terminal_refuses_anything_but_the_exact_id(
    two_users: Path, typed: bytes
) -> None:
    """Any other answer (another case, a space, another user, yes, nothing) erases nothing."""
    before = _snapshot(two_users)
    code, out, err = _cli(two_users, "users", "erase", "alice", stdin=_Terminal(typed))
    assert (code, out) == (2, "")
    assert err == PROMPT + "memvault: error: the id typed does not match; nothing was erased\n"
    assert _snapshot(two_users) == before


@pytest.mark.sqlite_only("works on the home directory's files")
def test_erasing_an_unknown_user_is_refused_and_changes_nothing(two_users: Path) -> None:
    """An unknown user: exit 2 with the error and its hint; no key is minted or replaced."""
    before = _snapshot(two_users)
    code, out, err = _cli(two_users, "users", "erase", "nobody", "--yes")
    assert (code, out, err) == (2, "", NO_SUCH_USER)
    assert _snapshot(two_users) == before


@pytest.mark.sqlite_only("works on the home directory's files")
def test_an_interrupted_erasure_is_listed_and_a_re_run_finishes_it(
    two_users: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Interrupted after the deletion, while other users' keys are re-wrapped: `keys list`
    shows the master-key rotation it owes (due to the erasure), in JSON and in text; a
    re-run of the erase finishes it."""
    key_file = _key_file(two_users)
    old_id = _fingerprint(key_file)
    erase = Vault.erase_user

    def interrupted(vault: Vault, user: str, new: Any = None, progress: object = None) -> object:
        return erase(vault, user, new, _interrupted_after_the_first_batch)

    with monkeypatch.context() as patch:
        patch.setattr(Vault, "erase_user", interrupted)
        code, out, err = _cli(two_users, "users", "erase", "alice", "--yes")
    assert (code, out, err) == (130, "", "memvault: interrupted\n")
    assert sorted(key_file.parent.iterdir()) == [key_file, key_file.with_suffix(".key.next")]
    doc = _key_list(two_users)
    assert [u["user"] for u in doc["users"]] == ["bob"]
    rotation = doc["master"]["rotation"]
    assert re.fullmatch(KEY_ID, rotation["to_key_id"])
    assert rotation == {"to_key_id": rotation["to_key_id"], "to_generation": 2, "due_to": "erase"}
    assert (doc["master"]["key_id"], doc["master"]["generation"]) == (old_id, 1)
    code, out, _ = _cli(two_users, "keys", "list")
    assert code == 0 and out.splitlines()[1] == (
        "  a master-key rotation is under way (due to an erasure): run `memvault keys "
        "rotate-master` to finish it"
    )
    code, out, err = _cli(two_users, "users", "erase", "alice", "--yes")
    assert (code, err) == (0, "")
    assert out == f"finished an interrupted erasure; master key is now {rotation['to_key_id']}\n"
    master = _key_list(two_users)["master"]
    assert (master["key_id"], master["generation"], master["rotation"]) == (
        rotation["to_key_id"],
        2,
        None,
    )
    assert _fingerprint(_key_file(two_users)) == rotation["to_key_id"]


# -- as a program, on a terminal


def _child_env() -> dict[str, str]:
    """This process's environment, with this checkout's memvault first on the path and a
    plain colour terminal of known width (nothing forcing or refusing one)."""
    env = {k: v for k, v in os.environ.items() if k not in _TERMINAL_OVERRIDES}
    src = str(Path(memvault.__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [src, env.get("PYTHONPATH")]))
    env.update(TERM="xterm-256color", COLUMNS="120", LINES="24")
    return env


def _drain(fd: int, into: bytearray) -> None:
    while True:
        try:
            chunk = os.read(fd, 4096)
        except OSError:  # EIO: every copy of the terminal's other end is closed
            return
        if not chunk:
            return
        into += chunk


def _on_terminal(home: Path, *argv: str, typed: bytes | None = None) -> tuple[int, str, str]:
    """Run memvault as a program, stderr on a pseudo-terminal (and stdin too if ``typed``
    is given, which is then typed at it), stdout on a pipe: (exit code, stdout, what the
    terminal showed with its escape sequences removed)."""
    controller, terminal = pty.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 120, 0, 0))
    try:
        proc = subprocess.Popen(
            [sys.executable, "-m", "memvault", "--home", str(home), *argv],
            stdin=subprocess.DEVNULL if typed is None else terminal,
            stdout=subprocess.PIPE,
            stderr=terminal,
            env=_child_env(),
        )
    finally:
        os.close(terminal)
    shown = bytearray()
    reader = threading.Thread(target=_drain, args=(controller, shown), daemon=True)
    reader.start()
    try:
        if typed:
            os.write(controller, typed)
        out, _ = proc.communicate(timeout=120)
        reader.join(timeout=30)
    finally:
        proc.kill()
        os.close(controller)
    return proc.returncode, out.decode(), _ESCAPE.sub("", shown.decode("utf-8", "replace"))


def test_rotate_draws_a_progress_bar_on_a_terminal(two_users: Path) -> None:
    """With stderr a terminal, a bar of memories runs from 0 to all of them on it; the
    summary still goes to stdout."""
    code, out, shown = _on_terminal(two_users, "keys", "rotate", "--user", "alice")
    assert code == 0 and re.fullmatch(SUMMARY, out), (out, shown)
    assert re.search(r"re-sealing ━+ +0/3 memories +0%", shown), shown
    assert re.search(r"re-sealing ━+ +3/3 memories 0\.0 MB 100%", shown), shown
    assert "rotated" not in shown


def test_rotate_json_draws_no_bar_on_a_terminal(two_users: Path) -> None:
    """With --json, nothing is drawn on the terminal: the document alone, on stdout."""
    code, out, shown = _on_terminal(two_users, "keys", "rotate", "--user", "alice", "--json")
    assert (code, shown) == (0, "")
    assert json.loads(out)["users"][0]["memories"] == 3


def test_rotate_off_a_terminal_writes_nothing_to_stderr(two_users: Path) -> None:
    """With stderr a pipe, no bar and nothing else on it: the summary line only."""
    argv = ["--home", str(two_users), "keys", "rotate", "--user", "alice"]
    proc = subprocess.run(
        [sys.executable, "-m", "memvault", *argv],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        env=_child_env(),
        timeout=120,
        check=False,
    )
    assert (proc.returncode, proc.stderr) == (0, b"")
    assert re.fullmatch(SUMMARY, proc.stdout.decode())


def test_erase_at_a_real_terminal_takes_the_typed_id(two_users: Path) -> None:
    """On a pseudo-terminal, the prompt shows, the typed id is read, and the user is erased."""
    code, out, shown = _on_terminal(two_users, "users", "erase", "alice", typed=b"alice\n")
    assert code == 0, shown
    assert PROMPT in shown
    assert out.startswith("erased user u:")
    assert [u["user"] for u in _key_list(two_users)["users"]] == ["bob"]
