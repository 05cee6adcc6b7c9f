"""``memvault`` on a vault in PostgreSQL, as transcripts: ``db migrate`` and ``db status``,
``init`` and ``exec`` by URI (``--home`` or ``$MEMVAULT_HOME``), and the audit commands
on a log in chains.

Every run checks that no password in the URI it was given, in its userinfo or as a
``password`` parameter, appears on stdout or stderr.
"""

from __future__ import annotations

import io
import json
import os
from pathlib import Path
from urllib.parse import parse_qs, quote, unquote, urlsplit

import pytest

from memvault.cli import main
from memvault.store import chain_of_seq, describe_dsn, is_dsn

CREATED = "schema created to version 2"
FOUR_CHAINS = "audit log: 4 chains of users' records, and the operator's"
NO_FORWARD = (
    "memvault: error: forward security is for a log of files; the log of a vault on "
    "PostgreSQL is in its database, bound by its chains' ledgers and checked against your "
    "checkpoints\n"
)


def _passwords(dsn: str) -> list[str]:
    parts = urlsplit(dsn)
    found = [unquote(parts.password)] if parts.password else []
    found += parse_qs(parts.query).get("password", [])
    return [form for password in found for form in {password, quote(password, safe="")}]


def run(argv: list[str], stdin: bytes = b"") -> tuple[int, str, str]:
    """The CLI in-process: (exit code, stdout, stderr); no password of a URI it was given
    (or of ``$MEMVAULT_HOME``) is in either."""
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdin=io.BytesIO(stdin), out=out, err=err)
    homes = [*argv, os.environ.get("MEMVAULT_HOME", "")]
    secrets = [p for home in homes if is_dsn(home) for p in _passwords(home)]
    for secret in secrets:
        assert secret not in out.getvalue() + err.getvalue()
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def dsn(pg_dsn: str) -> str:
    """The test database with its schema (4 chains) and a vault (``init``)."""
    assert run(["--home", pg_dsn, "db", "migrate", "--chains", "4"])[0] == 0
    assert run(["--home", pg_dsn, "init"])[0] == 0
    return pg_dsn


def _by_param(dsn: str) -> str:
    """The same database, its password given as a ``password`` parameter instead."""
    parts = urlsplit(dsn)
    assert parts.password, "the test cluster's URIs carry a password"
    netloc = f"{parts.username}@{parts.hostname}:{parts.port}"
    return f"postgresql://{netloc}{parts.path}?application_name=mv&password={parts.password}"


def test_migrate_creates_then_does_nothing_and_keeps_its_chains(pg_dsn: str) -> None:
    where = describe_dsn(pg_dsn)
    assert run(["--home", pg_dsn, "db", "migrate", "--chains", "4"]) == (
        0,
        f"{where}: {CREATED}\n{FOUR_CHAINS}\n",
        "",
    )
    again = (0, f"{where}: the schema is at version 2 already; nothing to do\n{FOUR_CHAINS}\n", "")
    assert run(["--home", pg_dsn, "db", "migrate"]) == again
    assert run(["--home", pg_dsn, "db", "migrate", "--chains", "4"]) == again
    assert run(["--home", pg_dsn, "db", "migrate", "--chains", "16"]) == (
        2,
        "",
        "memvault: error: the audit log already has 4 chains; their number is fixed when "
        "the log is made\n",
    )
    for wrong in ("0", "1025"):
        assert run(["--home", pg_dsn, "db", "migrate", "--chains", wrong]) == (
            2,
            "",
            "memvault: error: the number of audit chains must be 1 to 1024\n",
        )


def test_migrate_with_the_default_chains(pg_dsn: str) -> None:
    assert run(["--home", pg_dsn, "db", "migrate"]) == (
        0,
        f"{describe_dsn(pg_dsn)}: {CREATED}\n"
        "audit log: 16 chains of users' records, and the operator's\n",
        "",
    )


def test_status_before_and_after_the_migration_and_the_first_open(pg_dsn: str) -> None:
    where = describe_dsn(pg_dsn)
    assert run(["--home", pg_dsn, "db", "status"]) == (
        1,
        f"{where}: schema version 0 (this memvault's: 2)\n"
        "vault: not made yet (the first open makes it)\n",
        "memvault: the schema needs attention: run `memvault db migrate`\n",
    )
    assert run(["--home", pg_dsn, "db", "migrate", "--chains", "4"])[0] == 0
    status = f"{where}: schema version 2 (this memvault's: 2)\n{FOUR_CHAINS}\n"
    assert run(["--home", pg_dsn, "db", "status"]) == (
        0,
        status + "vault: not made yet (the first open makes it)\n",
        "",
    )
    assert run(["--home", pg_dsn, "init"])[0] == 0
    assert run(["--home", pg_dsn, "db", "status"]) == (0, status + "vault: made\n", "")


def test_the_db_commands_refuse_a_directory_home(tmp_path: Path) -> None:
    home = tmp_path / "home"
    for action in ("migrate", "status"):
        assert run(["--home", str(home), "db", action]) == (
            2,
            "",
            f"memvault: error: `memvault db` works on a PostgreSQL database, and the home is "
            f"a directory ({home})\n"
            "memvault: hint: give the database's URI: --home postgresql://user@host/db (or "
            "$MEMVAULT_HOME)\n",
        )
    assert not home.exists()


def test_init_shows_where_without_the_password(pg_dsn: str, tmp_path: Path) -> None:
    """The cluster's URIs carry a password in their userinfo; the same database is given
    here with it as a ``password`` parameter too: neither is shown."""
    by_param = _by_param(pg_dsn)
    assert _passwords(by_param) == _passwords(pg_dsn) != []  # what run() looks for
    assert run(["--home", by_param, "db", "migrate"])[1].startswith(
        f"{describe_dsn(pg_dsn)}?application_name=mv: {CREATED}\n"
    )
    code, out, err = run(["--home", by_param, "init"])
    assert (code, err) == (0, "")
    first, second = out.splitlines()
    vault_id = first.split()[1]
    assert first == f"vault {vault_id} is ready at {describe_dsn(pg_dsn)}?application_name=mv"
    key = tmp_path / "config" / "memvault" / "keys" / f"{vault_id}.key"
    assert second == f"master key: {key} (back it up apart from the home)"
    assert run(["--home", pg_dsn, "init"]) == (
        0,
        f"vault {vault_id} is ready at {describe_dsn(pg_dsn)}\n{second}\n",
        "",
    )
    wrong = by_param.replace("password=", "password=not-", 1)
    code, out, err = run(["--home", wrong, "init"])
    assert (code, out) == (1, "")
    assert 'password authentication failed for user "postgres"' in err


def test_memvault_home_names_the_database(pg_dsn: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMVAULT_HOME", pg_dsn)
    where = describe_dsn(pg_dsn)
    assert run(["db", "migrate", "--chains", "4"]) == (
        0,
        f"{where}: {CREATED}\n{FOUR_CHAINS}\n",
        "",
    )
    code, out, _ = run(["init"])
    assert code == 0 and out.splitlines()[0].endswith(f" is ready at {where}")
    line = b'{"command": "create", "path": "/memories/a.md", "file_text": "a"}\n'
    assert run(["exec", "--user", "alice"], line) == (
        0,
        '{"is_error": false, "content": "File created successfully at: /memories/a.md"}\n',
        "",
    )
    assert run(["db", "status"])[1].endswith("vault: made\n")


def test_exec_transcript(dsn: str) -> None:
    lines = [
        {"command": "create", "path": "/memories/a.md", "file_text": "one\ntwo"},
        {"command": "str_replace", "path": "/memories/a.md", "old_str": "two", "new_str": "2"},
        {"command": "view", "path": "/memories/a.md"},
        {"command": "rename", "old_path": "/memories/a.md", "new_path": "/memories/b/a.md"},
        {"command": "delete", "path": "/memories/a.md"},
    ]
    stdin = "".join(json.dumps(line) + "\n" for line in lines).encode() + b"not json\n"
    code, out, err = run(["--home", dsn, "exec", "--user", "alice"], stdin)
    assert (code, err) == (0, "")
    assert [json.loads(line) for line in out.splitlines()] == [
        {"is_error": False, "content": "File created successfully at: /memories/a.md"},
        {
            "is_error": False,
            "content": "The memory file has been edited. Here is the snippet showing the change "
            "(with line numbers):\n     1\tone\n     2\t2",
        },
        {
            "is_error": False,
            "content": "Here's the content of /memories/a.md with line numbers:\n     1\tone\n"
            "     2\t2",
        },
        {"is_error": False, "content": "Successfully renamed /memories/a.md to /memories/b/a.md"},
        {"is_error": True, "content": "Error: The path /memories/a.md does not exist"},
        {
            "is_error": True,
            "content": "Error: line 6 is not valid JSON (Expecting value at column 1); "
            "send one JSON object per line.",
        },
    ]


def _alice_writes(dsn: str) -> None:
    create = {"command": "create", "path": "/memories/a.md", "file_text": "mail jane.doe@acme.io"}
    lines = json.dumps(create) + '\n{"command": "view", "path": "/memories/a.md"}\n'
    assert run(["--home", dsn, "exec", "--user", "alice"], lines.encode())[0] == 0


def test_verify_counts_the_records_in_chains(dsn: str) -> None:
    """vault.create, policy.change; user.create, create, view: 5 records, in the
    operator's chain and 4 of users'. Each verification is recorded after it ran."""
    _alice_writes(dsn)
    intact = "audit log intact: {} records in 5 chains (the operator's and 4 of users')\n"
    assert run(["--home", dsn, "audit", "verify"]) == (0, intact.format(5), "")
    assert run(["--home", dsn, "audit", "verify", "--jobs", "2"]) == (0, intact.format(6), "")
    code, out, err = run(["--home", dsn, "audit", "verify", "--json"])
    assert (code, err) == (0, "")
    assert json.loads(out) == {
        "intact": True,
        "records": 7,
        "segments": 0,
        "chains": 5,
        "last_seq": 7,
        "anchor": None,
        "problems": [],
        "notes": [],
        "checkpoint": None,
    }


def test_a_checkpoint_then_verify_against_it(dsn: str, tmp_path: Path) -> None:
    _alice_writes(dsn)
    chain = _alice_chain(dsn)  # recorded: 6 records
    point = tmp_path / "cp.json"
    assert run(["--home", dsn, "audit", "checkpoint", "--out", str(point)]) == (
        0,
        f"checkpoint of 7 records written to {point}\n",  # with its own record
        "",
    )
    body = json.loads(point.read_text())
    assert (body["format"], body["size"], sorted(body["chains"])) == (
        "memvault-audit-checkpoint/2",
        7,
        ["0", str(chain)],
    )
    code, out, err = run(["--home", dsn, "audit", "verify", "--checkpoint", str(point)])
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "audit log intact: 7 records in 5 chains (the operator's and 4 of users')",
        f"checkpoint: the log extends the checkpoint of {body['time']} (7 records then, 7 now)",
    ]
    code, _, err = run(["--home", dsn, "audit", "checkpoint", "--out", str(point)])
    assert (code, err.splitlines()[0]) == (2, f"memvault: error: {point} already exists")


def _alice_chain(dsn: str) -> int:
    code, out, _ = run(["--home", dsn, "audit", "show", "--json", "--user", "alice"])
    assert code == 0
    return int(json.loads(out.splitlines()[0])["chain"])


def test_show_names_each_record_by_chain_and_place(dsn: str) -> None:
    _alice_writes(dsn)
    code, out, err = run(["--home", dsn, "audit", "show", "--json"])
    assert (code, err) == (0, "")
    shown = [json.loads(line) for line in out.splitlines()]
    chain = shown[2]["chain"]
    assert 1 <= chain <= 4
    assert [(r["command"], r["user"], r["chain"], r["place"]) for r in shown] == [
        ("vault.create", None, 0, 1),
        ("policy.change", None, 0, 2),
        ("user.create", "alice", chain, 1),
        ("create", "alice", chain, 2),
        ("view", "alice", chain, 3),
        ("audit.show", None, 0, 3),  # recorded before it shows anything
    ]
    assert [chain_of_seq(r["seq"]) for r in shown] == [0, 0, chain, chain, chain, 0]
    assert shown[3]["findings"] == {"email": 1} and shown[3]["paths"] == ["/memories/a.md"]


def test_stats_and_export(dsn: str, tmp_path: Path) -> None:
    _alice_writes(dsn)
    code, out, err = run(["--home", dsn, "audit", "stats", "--json"])
    assert (code, err) == (0, "")
    counted = json.loads(out)
    assert (counted["records"], counted["users"], counted["operator_actions"]) == (
        5,  # counted before its own record
        {"alice": 3},
        2,
    )
    assert counted["commands"] == {
        "create": 1,
        "policy.change": 1,
        "user.create": 1,
        "vault.create": 1,
        "view": 1,
    }
    code, out, err = run(["--home", dsn, "audit", "stats"])
    assert (code, err, out.splitlines()[0].split(",")[0]) == (0, "", "6 records")
    target = tmp_path / "log.jsonl"
    assert run(["--home", dsn, "audit", "export", "--format", "jsonl", "--out", str(target)]) == (
        0,
        f"8 records written to {target} (jsonl)\n",
        "",
    )
    exported = [json.loads(line) for line in target.read_text().splitlines()]
    assert [(r["command"], r["chain"], r["place"]) for r in exported][-1] == ("audit.export", 0, 5)
    assert [r["command"] for r in exported if r["user"] == "alice"] == [
        "user.create",
        "create",
        "view",
    ]


def test_forward_security_is_refused_for_a_log_in_chains(dsn: str, tmp_path: Path) -> None:
    key = tmp_path / "forward.key"
    assert run(["--home", dsn, "audit", "forward-secure", "--out", str(key)]) == (
        2,
        "",
        NO_FORWARD,
    )
    assert not key.exists()
    key.write_text("{}")
    assert run(["--home", dsn, "audit", "verify", "--forward-key", str(key)]) == (
        2,
        "",
        NO_FORWARD,
    )
