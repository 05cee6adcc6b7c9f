"""`memvault users list`: each user's memories, directories, bytes and last activity, in a
stable JSON shape, recorded before it is shown."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from memvault import Vault
from memvault.audit import segments
from memvault.cli import main
from tests.unit.lifecycle.helpers import DAY, Clock, create, db, run, view


def _cli(home: Path, *argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["--home", str(home), *argv], out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def _session(home: Path, clock: Clock) -> None:
    with Vault.open(home) as vault:
        run(vault, create("/memories/a.md", "12345"), create("/memories/p/q/b.md", "héllo"))
        run(vault, view("/memories"), user="bob")
        clock.day = DAY + 52
        run(vault, create("/memories/zed.md", "z"), user="zoë")
        run(vault, view("/memories/a.md"))


def test_users_are_listed_with_their_counts_and_last_activity(home: Path, clock: Clock) -> None:
    """Memories are files, directories are counted apart, bytes are the files' UTF-8 bytes,
    last activity is the newest day a file was used (None: no file has a day)."""
    _session(home, clock)
    with Vault.open(home) as vault:
        users = [user.to_json() for user in vault.users()]
    assert users == [
        {
            "user": "alice",
            "memories": 2,
            "directories": 2,
            "bytes": 11,
            "last_activity": "2024-11-25",
        },
        {"user": "bob", "memories": 0, "directories": 0, "bytes": 0, "last_activity": None},
        {"user": "zoë", "memories": 1, "directories": 0, "bytes": 1, "last_activity": "2024-11-25"},
    ]


def test_users_list_json_is_one_stable_object(home: Path, clock: Clock) -> None:
    """`--json` prints {"users": [...]} with exactly these keys, sorted by user, in ASCII."""
    _session(home, clock)
    code, out, err = _cli(home, "users", "list", "--json")
    assert (code, err) == (0, "")
    assert out == (
        '{"users": [{"user": "alice", "memories": 2, "directories": 2, "bytes": 11, '
        '"last_activity": "2024-11-25"}, {"user": "bob", "memories": 0, "directories": 0, '
        '"bytes": 0, "last_activity": null}, {"user": "zo\\u00eb", "memories": 1, '
        '"directories": 0, "bytes": 1, "last_activity": "2024-11-25"}]}\n'
    )


def test_users_list_prints_a_table(home: Path, clock: Clock) -> None:
    """Without --json: a table, numbers aligned right, `-` for an unknown last activity."""
    _session(home, clock)
    code, out, err = _cli(home, "users", "list")
    assert (code, err) == (0, "")
    assert out == (
        "user   memories  directories  bytes  last activity\n"
        "alice         2            2     11  2024-11-25\n"
        "bob           0            0      0  -\n"
        "zoë           1            0      1  2024-11-25\n"
    )


def test_a_vault_without_users_says_so(home: Path) -> None:
    code, out, err = _cli(home, "users", "list")
    assert (code, out, err) == (0, "the vault has no users\n", "")
    code, out, err = _cli(home, "users", "list", "--json")
    assert (code, out, err) == (0, '{"users": []}\n', "")


def test_files_without_a_day_give_no_last_activity(home: Path, clock: Clock) -> None:
    """Files written before days were kept do not count as activity: unknown, not old."""
    with Vault.open(home) as vault:
        run(vault, create("/memories/a.md"))
    with db(home) as conn:
        conn.execute("UPDATE nodes SET touched = NULL")
    with Vault.open(home) as vault:
        (user,) = vault.users()
    assert (user.memories, user.last_activity) == (1, None)


@pytest.mark.sqlite_only("reads the home's audit log files")
def test_the_list_is_recorded_before_it_is_shown(home: Path, clock: Clock) -> None:
    """A `users.list` operator record with the count, and no user name, is appended."""
    _session(home, clock)
    assert _cli(home, "users", "list")[0] == 0
    (*_, last) = (
        line for _, path in segments(home / "audit") for line in path.read_bytes().splitlines()
    )
    record = json.loads(last)
    assert (record["command"], record["user"], record["details"]) == (
        "users.list",
        None,
        {"users": 3},
    )
    assert b"alice" not in last and "zoë".encode() not in last
