"""Reviewing the audit log: filters, show, stats and export over a known session.

One vault per test, filled by the same script: two users (alice, bob) in three
sessions, with refusals, a blocked write, an invalid command and redactions.
The log holds no names, paths or text; the review opens them with the keys.
"""

from __future__ import annotations

import base64
import contextlib
import io
import json
import os
import sqlite3
import stat
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from anthropic.lib.tools import ToolError

from memvault import UsageError, Vault
from memvault.audit import (
    SEALED,
    Filters,
    Scan,
    count,
    export,
    parse_filters,
    segments,
    show,
    stats,
    to_ecs,
    to_ocsf,
)
from tests.support import stores

PHONE = "+1 415 823 4132"
SECRET = "Tr0ub4dor-and-3x"
PRIVATE_KEY = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----"
# A database numbers its records per chain (``memvault.audit.label``), not 1, 2, 3...
NUMBERED = "asserts the record numbers of a log of files"
TEXTS = ("Reach me at", "Call again", "bob's private list", "MIIEowIBAAKCAQEA")

# (user, session, tool input), run in this order by the `home` fixture.
SCRIPT: list[tuple[str, str, dict[str, Any]]] = [
    (
        "alice",
        "s-a1",
        {
            "command": "create",
            "path": "/memories/notes/contact.md",
            "file_text": f"Reach me at {PHONE}\n",
        },
    ),
    (
        "alice",
        "s-a1",
        {"command": "create", "path": "/memories/keys.md", "file_text": f"db password={SECRET}"},
    ),
    ("alice", "s-a1", {"command": "view", "path": "/memories/notes/contact.md"}),
    ("alice", "s-a1", {"command": "view", "path": "/memories/../etc"}),
    ("alice", "s-a1", {"command": "create", "path": "/memories/k2.md", "file_text": PRIVATE_KEY}),
    (
        "alice",
        "s-a2",
        {
            "command": "str_replace",
            "path": "/memories/notes/contact.md",
            "old_str": "Reach me at",
            "new_str": f"Call again, password={SECRET}, at",
        },
    ),
    (
        "alice",
        "s-a2",
        {"command": "rename", "old_path": "/memories/keys.md", "new_path": "/memories/old/keys.md"},
    ),
    (
        "bob",
        "s-b1",
        {"command": "create", "path": "/memories/todo.md", "file_text": "bob's private list"},
    ),
    ("bob", "s-b1", {"command": "view", "path": "/memories/missing.md"}),
    ("bob", "s-b1", {"command": "delete", "path": "/memories/todo.md"}),
    ("bob", "s-b1", {"command": "bogus", "path": "/memories/x"}),
]
# (seq, user, command, outcome) of the records it leaves, after the vault's own two.
EXPECTED = [
    (1, None, "vault.create", "ok"),
    (2, None, "policy.change", "ok"),
    (3, "alice", "user.create", "ok"),
    (4, "bob", "user.create", "ok"),
    (5, "alice", "create", "ok"),
    (6, "alice", "create", "ok"),
    (7, "alice", "view", "ok"),
    (8, "alice", "view", "refused"),
    (9, "alice", "create", "blocked"),
    (10, "alice", "str_replace", "ok"),
    (11, "alice", "rename", "ok"),
    (12, "bob", "create", "ok"),
    (13, "bob", "view", "error"),
    (14, "bob", "delete", "ok"),
    (15, "bob", "invalid", "invalid"),
]


@pytest.fixture
def home(home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The conftest's home (a directory, or a database in a ``[pg]`` run), filled."""
    monkeypatch.setenv("MEMVAULT_MASTER_KEY", base64.b64encode(os.urandom(32)).decode())
    with Vault.open(home) as vault:
        vault.runner("alice")  # records 3 and 4: the users' creation
        vault.runner("bob")
        for user, session, command in SCRIPT:
            tool = vault.memory_tool(user, session=session)
            with contextlib.suppress(ToolError):
                tool.call(command)
    return home


@pytest.fixture
def vault(home: Path) -> Iterator[Vault]:
    with Vault.open(home) as v:
        yield v


def records(vault: Vault, **options: Any) -> list[dict[str, Any]]:
    out = io.StringIO()
    show(vault, parse_filters(**options), out, json=True)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def seqs(vault: Vault, **options: Any) -> list[int]:
    """The places (from 1) in the whole log of the records the filters pick: in a log of
    files, their numbers; a database numbers its records per chain."""
    place = {r["seq"]: n for n, r in enumerate(records(vault), 1)}
    return [place[r["seq"]] for r in records(vault, **options)]


# -- show ------------------------------------------------------------------------------


@pytest.mark.sqlite_only(NUMBERED)
def test_show_json_resolves_every_record(vault: Vault) -> None:
    """show --json gives each record once, in order, with names and opened paths."""
    rows = records(vault)
    assert [(r["seq"], r["user"], r["command"], r["outcome"]) for r in rows] == EXPECTED
    by_seq = {r["seq"]: r for r in rows}
    assert by_seq[5]["paths"] == ["/memories/notes/contact.md"]
    assert by_seq[5]["findings"] == {"phone": 1}
    assert by_seq[5]["session"] == "s-a1"
    assert by_seq[8]["paths"] == ["/memories/../etc"] and by_seq[8]["error"] == "path"
    assert by_seq[11]["paths"] == ["/memories/keys.md", "/memories/old/keys.md"]
    assert by_seq[13]["error"] == "not_found"
    assert by_seq[15]["error"] == "input"
    assert by_seq[1]["user"] is None and by_seq[1]["details"] == {"vault": vault.vault_id}
    assert by_seq[5]["pseudonym"] == vault.audit.keys.user("alice")
    assert all(r["paths_sealed"] is False for r in rows)
    assert all("mac" not in r and "prev" not in r for r in rows)


@pytest.mark.sqlite_only(NUMBERED)
def test_show_plain_is_one_aligned_line_per_record(vault: Vault) -> None:
    """Off a terminal and without --json: one plain line per record, no escape codes."""
    out = io.StringIO()
    totals = show(vault, parse_filters(), out)
    lines = out.getvalue().splitlines()
    assert (totals.records, totals.skipped, len(lines)) == (15, 0, 15)
    assert "\x1b" not in out.getvalue()
    assert lines[4].split() == [
        "5",
        lines[4].split()[1],
        "alice",
        "s-a1",
        "create",
        "ok",
        "-",
        "/memories/notes/contact.md",
        "redacted:",
        "phone=1",
    ]
    assert lines[10].endswith("/memories/keys.md -> /memories/old/keys.md")
    assert lines[0].split()[2:5] == ["operator", "-", "vault.create"]
    assert lines[0].endswith(f"vault={vault.vault_id}")
    assert len({line.index(" alice ") for line in lines[4:11]}) == 1  # columns line up


def test_show_table_on_a_terminal(vault: Vault, monkeypatch: pytest.MonkeyPatch) -> None:
    """On a terminal: a table with a header row, not paged when it fits the screen."""
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setenv("LINES", "100")
    paged: list[str] = []
    monkeypatch.setattr("pydoc.pager", paged.append)
    out = io.StringIO()
    show(vault, parse_filters(user="bob"), out, terminal=True, color=False)
    text = out.getvalue()
    assert paged == []
    assert "paths / details" in text and "/memories/todo.md" in text
    assert "alice" not in text and "\x1b" not in text


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_show_pages_a_long_table_only_on_a_terminal(
    vault: Vault, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table taller than a real terminal goes to the pager; other output never does."""
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setenv("LINES", "6")
    paged: list[str] = []
    monkeypatch.setattr("pydoc.pager", paged.append)
    screen = Terminal()
    show(vault, parse_filters(), screen, color=False)
    assert len(paged) == 1 and "/memories/old/keys.md" in paged[0]
    assert screen.getvalue() == ""
    show(vault, parse_filters(user="bob", command="view"), screen, color=False)
    assert len(paged) == 1 and "/memories/missing.md" in screen.getvalue()  # it fits
    forced = io.StringIO()
    show(vault, parse_filters(), forced, terminal=True, color=False)  # a table, not a TTY
    assert len(paged) == 1 and "/memories/old/keys.md" in forced.getvalue()
    show(vault, parse_filters(), io.StringIO(), terminal=False)
    assert len(paged) == 1


def test_show_escapes_control_characters_from_the_log(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A refused path carrying terminal escapes is shown escaped, never sent raw."""
    with Vault.open(home) as vault:
        with pytest.raises(ToolError):
            vault.memory_tool("alice").call({"command": "view", "path": "/memories/\x1b[2Jx"})
        out = io.StringIO()
        show(vault, parse_filters(outcome="refused"), out)
        table = io.StringIO()
        monkeypatch.setenv("COLUMNS", "200")
        monkeypatch.setenv("LINES", "100")
        show(vault, parse_filters(outcome="refused"), table, terminal=True, color=False)
    assert "\x1b" not in out.getvalue() and "/memories/\\x1b[2Jx" in out.getvalue()
    assert "\x1b" not in table.getvalue() and "\\x1b[2Jx" in table.getvalue()


# -- filters ---------------------------------------------------------------------------


def test_filter_by_user_and_session(vault: Vault) -> None:
    """--user matches by pseudonym (also given as one); --session exactly."""
    assert seqs(vault, user="alice") == [3, 5, 6, 7, 8, 9, 10, 11]
    assert seqs(vault, user=["bob"]) == [4, 12, 13, 14, 15]
    assert seqs(vault, user=vault.audit.keys.user("bob")) == [4, 12, 13, 14, 15]
    assert seqs(vault, user="carol") == []
    assert seqs(vault, session="s-a2") == [10, 11]
    assert seqs(vault, session=["s-a2", "s-b1"]) == [10, 11, 12, 13, 14, 15]
    assert seqs(vault, user="bob", session="s-a2") == []


def test_filter_by_path_exact_prefix_and_glob(vault: Vault) -> None:
    """--path P is exact, P/ takes P and what is under it, * and ? are globs."""
    assert seqs(vault, path="/memories/notes/contact.md") == [5, 7, 10]
    assert seqs(vault, path="/memories/notes") == []
    assert seqs(vault, path="/memories/notes/") == [5, 7, 10]
    assert seqs(vault, path="/memories/old/") == [11]  # a rename matches by either path
    assert seqs(vault, path="/memories/keys.md") == [6, 11]
    assert seqs(vault, path="*/k?.md") == [9]
    assert seqs(vault, path="/memories/*.md") == [5, 6, 7, 9, 10, 11, 12, 13, 14]
    assert seqs(vault, path=["/memories/todo.md", "/memories/x"]) == [12, 14, 15]
    assert seqs(vault, path="/memories/") == [5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]


def test_filter_by_command_outcome_and_redaction(vault: Vault) -> None:
    """--command/--outcome take lists or commas, --command globs; --redacted-only findings."""
    assert seqs(vault, command="create,delete") == [5, 6, 9, 12, 14]
    assert seqs(vault, command=["rename", "invalid"]) == [11, 15]
    assert seqs(vault, command="vault.*") == [1]
    assert seqs(vault, command="policy.change") == [2]
    assert seqs(vault, outcome="refused, blocked") == [8, 9]
    assert seqs(vault, outcome="ok", user="bob") == [4, 12, 14]
    assert seqs(vault, redacted_only=True) == [5, 6, 10]
    assert seqs(vault, redacted_only=True, path="/memories/keys.md") == [6]


def test_filter_by_period(vault: Vault) -> None:
    """--since/--until take RFC 3339, dates and ages; the bounds are as documented."""
    rows = records(vault)
    fifth = rows[4]["time"]
    assert seqs(vault, since=fifth) == list(range(5, 16))
    assert seqs(vault, until=fifth) == [1, 2, 3, 4, 5]  # a full time is inclusive
    assert seqs(vault, since=fifth, until=fifth) == [5]
    assert seqs(vault, since="1h") == list(range(1, 16))
    assert seqs(vault, until="1h") == []
    today = rows[0]["time"][:10]
    assert seqs(vault, since=today, until=today) == list(range(1, 16))  # the whole day
    assert seqs(vault, since=f"{today}T00:00:00+14:00", until="2999-01-01") == list(range(1, 16))


def test_parse_filters_reads_the_time_forms() -> None:
    """Ages count back from now; dates start at midnight UTC; until a date ends the day."""
    now = datetime(2025, 3, 10, 12, 0, tzinfo=UTC)
    f = parse_filters(since="15m", until="2025-03-10", now=now)
    assert f.since == now - timedelta(minutes=15)
    assert f.until == datetime(2025, 3, 11, tzinfo=UTC)
    f = parse_filters(since="2025-02-01T10:00:00+02:00", until="1W", now=now)
    assert f.since == datetime(2025, 2, 1, 8, 0, tzinfo=UTC)
    assert f.until == now - timedelta(weeks=1)
    assert parse_filters(since="2025-03-01 08:00:00").since == datetime(2025, 3, 1, 8, tzinfo=UTC)
    assert parse_filters() == Filters()


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"since": "yesterday"}, "--since 'yesterday' is not a time"),
        ({"until": "2025-02-30"}, "--until '2025-02-30' is not a time"),
        ({"since": "99999999d"}, "--since '99999999d' is not a time"),
        ({"since": "2025-03-02", "until": "2025-03-01"}, "--since is not before --until"),
        ({"outcome": "okay"}, "--outcome 'okay' is not an outcome"),
        ({"command": "creat"}, "--command 'creat' names no command"),
        ({"command": "create,,view"}, "--command needs a value"),
        ({"user": ""}, "--user needs a value"),
        ({"path": [""]}, "--path needs a value"),
    ],
)
def test_parse_filters_refuses_bad_values(options: dict[str, Any], message: str) -> None:
    """A bad filter value is a UsageError that names the option and says what to use."""
    with pytest.raises(UsageError) as caught:
        parse_filters(**options)
    assert str(caught.value).startswith(message)
    assert caught.value.hint


def test_parse_filters_normalises_names() -> None:
    """Commands and outcomes are case-blind and deduplicated."""
    f = parse_filters(command=["Create", "create", "audit.*"], outcome="OK,ok")
    assert (f.commands, f.outcomes) == (("create", "audit.*"), ("ok",))


# -- stats -----------------------------------------------------------------------------


def test_stats_counts_the_filtered_records(vault: Vault) -> None:
    """stats counts by user, command, outcome and redaction type."""
    out = io.StringIO()
    stats(vault, parse_filters(), out, json=True)
    result = json.loads(out.getvalue())
    assert result["records"] == 15 and result["unparseable"] == 0
    assert result["operator_actions"] == 2
    assert result["users"] == {"alice": 8, "bob": 5}
    assert result["commands"] == {
        "create": 4,
        "view": 3,
        "delete": 1,
        "invalid": 1,
        "policy.change": 1,
        "rename": 1,
        "str_replace": 1,
        "user.create": 2,
        "vault.create": 1,
    }
    assert result["outcomes"] == {"ok": 11, "blocked": 1, "error": 1, "invalid": 1, "refused": 1}
    assert result["redactions"] == {"password": 2, "phone": 1}
    assert result["redacted_records"] == 3
    assert result["first"] <= result["last"]
    bob = count(vault, parse_filters(user="bob", outcome="ok"))
    assert (bob.records, dict(bob.commands), bob.operator) == (
        3,
        {"user.create": 1, "create": 1, "delete": 1},
        0,
    )


def test_stats_as_text_and_table(vault: Vault, monkeypatch: pytest.MonkeyPatch) -> None:
    """stats prints plain lines off a terminal and tables on one."""
    out = io.StringIO()
    stats(vault, parse_filters(user="alice"), out)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("8 records, ")
    assert lines[1].split() == ["user", "alice", "8"]
    assert ["redaction", "type", "password", "2"] in [line.split() for line in lines]
    monkeypatch.setenv("COLUMNS", "120")
    table = io.StringIO()
    stats(vault, parse_filters(), table, terminal=True, color=False)
    assert "redaction type" in table.getvalue() and "(operator)" in table.getvalue()


# -- export ----------------------------------------------------------------------------


@pytest.mark.sqlite_only(NUMBERED)
def test_ecs_mapping_of_a_known_record(vault: Vault) -> None:
    """A redacted create maps to ECS file/creation/success with the user and first path."""
    entry = next(iter(Scan(vault, parse_filters(command="create", redacted_only=True))))
    doc = to_ecs(entry, vault.vault_id)
    assert doc["@timestamp"] == entry.time
    assert doc["ecs"] == {"version": "8.11.0"}
    assert doc["event"] == {
        "kind": "event",
        "module": "memvault",
        "dataset": "memvault.audit",
        "provider": "memvault",
        "id": f"{vault.vault_id}-5",
        "sequence": 5,
        "action": "create",
        "category": ["file"],
        "type": ["creation"],
        "outcome": "success",
    }
    assert doc["user"] == {"id": vault.audit.keys.user("alice"), "name": "alice"}
    assert doc["file"] == {"path": "/memories/notes/contact.md"}
    assert doc["process"] == {"pid": entry.pid, "user": {"id": str(os.getuid())}}
    assert doc["host"] == {"hostname": entry.host}
    assert doc["memvault"] == {
        "schema": 1,
        "outcome": "ok",
        "session": "s-a1",
        "paths": ["/memories/notes/contact.md"],
        "findings": {"phone": 1},
        "after": entry.after,
        "key_version": 1,
        "txn": True,
    }
    assert "error" not in doc


def test_ecs_mapping_of_refusals_and_operator_actions(vault: Vault) -> None:
    """Refusals are failures with an error code; operator actions are configuration."""
    # By place in the log (from 1): in a log of files, the record's number.
    by_place = {n: to_ecs(e, vault.vault_id) for n, e in enumerate(Scan(vault), 1)}
    assert by_place[8]["event"]["outcome"] == "failure"
    assert by_place[8]["event"]["type"] == ["info"]
    assert by_place[8]["error"] == {"code": "path"}
    assert by_place[14]["event"]["type"] == ["deletion"]
    assert by_place[1]["event"]["category"] == ["configuration"]
    assert by_place[1]["event"]["type"] == ["creation"]
    assert by_place[2]["event"]["type"] == ["change"]
    assert "user" not in by_place[1]


@pytest.mark.sqlite_only(NUMBERED)
def test_ocsf_mapping_of_a_known_record(vault: Vault) -> None:
    """A redacted create maps to OCSF API Activity: Create, with actor, api and metadata."""
    entry = next(iter(Scan(vault, parse_filters(command="create", redacted_only=True))))
    event = to_ocsf(entry, vault.vault_id)
    stamp = datetime.strptime(entry.time, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)
    expected = {
        "activity_id": 1,
        "activity_name": "Create",
        "category_uid": 6,
        "category_name": "Application Activity",
        "class_uid": 6003,
        "class_name": "API Activity",
        "type_uid": 600301,
        "type_name": "API Activity: Create",
        "time": int(stamp.timestamp() * 1000),
        "severity_id": 1,
        "severity": "Informational",
        "status_id": 1,
        "status": "Success",
        "status_code": "ok",
        "actor": {
            "user": {"uid": vault.audit.keys.user("alice"), "name": "alice"},
            "session": {"uid": "s-a1"},
            "process": {"pid": entry.pid, "user": {"uid": str(os.getuid())}},
        },
        "api": {"operation": "create", "service": {"name": "memvault"}},
        "src_endpoint": {"hostname": entry.host},
        "resources": [{"name": "/memories/notes/contact.md", "type": "memory"}],
        "unmapped": {
            "seq": 5,
            "findings": {"phone": 1},
            "after": entry.after,
            "key_version": 1,
            "txn": True,
        },
    }
    metadata = event.pop("metadata")
    assert event == expected
    assert metadata["version"] == "1.1.0"
    assert metadata["product"]["name"] == metadata["product"]["vendor_name"] == "memvault"
    assert metadata["uid"] == f"{vault.vault_id}-5"
    assert metadata["original_time"] == entry.time


def test_ocsf_activities_and_statuses(vault: Vault) -> None:
    """view reads, str_replace/rename update, delete deletes; failures carry the error."""
    # By place in the log (from 1): in a log of files, the record's number.
    by_place = {n: to_ocsf(e, vault.vault_id) for n, e in enumerate(Scan(vault), 1)}
    ids = {n: (e["activity_id"], e["type_uid"]) for n, e in by_place.items()}
    assert ids[7] == (2, 600302)
    assert ids[10] == ids[11] == (3, 600303)
    assert ids[14] == (4, 600304)
    assert ids[15] == (0, 600300)
    assert (by_place[1]["activity_id"], by_place[1]["activity_name"]) == (99, "vault.create")
    assert by_place[1]["type_name"] == "API Activity: Other"
    assert "user" not in by_place[1]["actor"]
    blocked = by_place[9]
    assert (blocked["status_id"], blocked["status"], blocked["severity_id"]) == (2, "Failure", 3)
    assert blocked["api"]["response"] == {"error": "blocked"}
    assert blocked["status_detail"] == "blocked"


@pytest.mark.parametrize("fmt", ["ecs", "ocsf", "jsonl"])
def test_export_writes_a_private_file_and_never_overwrites(
    vault: Vault, tmp_path: Path, fmt: str
) -> None:
    """export writes mode 0600 JSON Lines, refuses an existing file, overwrites on request."""
    target = tmp_path / f"out.{fmt}.jsonl"
    assert export(vault, parse_filters(user="bob"), fmt, target) == 5
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    lines = [json.loads(line) for line in target.read_text().splitlines()]
    assert len(lines) == 5
    before = target.read_bytes()
    with pytest.raises(UsageError, match="already exists; it was left as it is"):
        export(vault, parse_filters(), fmt, target)
    assert target.read_bytes() == before
    assert export(vault, parse_filters(), fmt, target, overwrite=True) == 15
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


def test_export_jsonl_matches_show_json(vault: Vault, tmp_path: Path) -> None:
    """The jsonl export is exactly what show --json prints."""
    out = io.StringIO()
    show(vault, parse_filters(session="s-a2"), out, json=True)
    export(vault, parse_filters(session="s-a2"), "jsonl", tmp_path / "x.jsonl")
    assert (tmp_path / "x.jsonl").read_text() == out.getvalue()


@pytest.mark.sqlite_only("refuses targets among the home directory's files")
def test_export_refuses_bad_targets(vault: Vault, tmp_path: Path) -> None:
    """Unknown formats, the vault's own home and missing directories are refused."""
    with pytest.raises(UsageError, match="'csv' is not an export format"):
        export(vault, Filters(), "csv", tmp_path / "a")
    for inside in (vault.home / "audit" / "audit-000002.jsonl", vault.home / "vault.db"):
        with pytest.raises(UsageError, match="inside the vault's home"):
            export(vault, Filters(), "ecs", inside, overwrite=True)
    with pytest.raises(UsageError, match="cannot write"):
        export(vault, Filters(), "ecs", tmp_path / "missing" / "a.jsonl")
    link = tmp_path / "link"
    link.symlink_to(tmp_path / "nowhere")
    with pytest.raises(UsageError, match="already exists"):
        export(vault, Filters(), "ecs", link)
    assert not (tmp_path / "nowhere").exists()


# -- what the log holds, and what erasure leaves -------------------------------------


def test_raw_log_holds_no_text_names_or_paths_while_show_opens_them(
    home: Path, vault: Vault
) -> None:
    """The log (its segments, or its rows) holds no memory text, secret, user name or path;
    show displays the paths."""
    raw = b"".join(stores.log_lines(home))
    for needle in (*TEXTS, PHONE, SECRET, "alice", "bob", "contact", "/memories", "todo"):
        assert needle.encode() not in raw, needle
    out = io.StringIO()
    show(vault, parse_filters(), out)
    for path in ("/memories/notes/contact.md", "/memories/todo.md", "/memories/old/keys.md"):
        assert path in out.getvalue()
    for text in (*TEXTS, PHONE, SECRET):
        assert text not in out.getvalue()


@pytest.mark.sqlite_only("changes the store's rows with SQLite")
def test_erased_user_shows_pseudonym_and_sealed_paths(home: Path) -> None:
    """Without the user's audit key, records keep the pseudonym and show [sealed] paths."""
    with Vault.open(home) as vault:
        alice = vault.audit.keys.user("alice")
    db = sqlite3.connect(home / "vault.db")
    with db:
        (user_id,) = db.execute("SELECT min(id) FROM users").fetchone()
        db.execute("DELETE FROM audit_keys WHERE user_id = ?", (user_id,))
    db.close()
    # Opened for review only, as `audit show` does: the missing key is what erasure leaves.
    with Vault._open(home, audit_problems=[]) as vault:
        rows = records(vault, user="alice")
        # the name still finds them
        assert [r["seq"] for r in rows] == [3, 5, 6, 7, 8, 9, 10, 11]
        assert all(r["user"] == r["pseudonym"] == alice for r in rows)
        assert all(r["paths"] is None and r["paths_sealed"] for r in rows[1:])
        assert seqs(vault, path="/memories/notes/contact.md") == []
        out = io.StringIO()
        show(vault, parse_filters(), out)
        lines = out.getvalue().splitlines()
        assert all(alice in line and f"  {SEALED}" in line for line in lines[4:11])
        assert "alice" not in out.getvalue().replace(alice, "")
        assert "/memories/todo.md" in lines[11]  # bob's key is still there
        scan = Scan(vault, parse_filters(user="alice", command="create"))
        ecs = to_ecs(next(iter(scan)), vault.vault_id)
        assert ecs["user"] == {"id": alice} and "file" not in ecs
        assert ecs["memvault"]["paths_sealed"] is True


@pytest.mark.sqlite_only("writes into the log's segment files")
def test_unparseable_lines_are_skipped_and_counted(home: Path) -> None:
    """Lines that are not records are skipped, counted, and named in the note."""
    (_, segment), *_ = segments(home / "audit")
    lines = segment.read_bytes().splitlines(keepends=True)
    lines[3:3] = [b"not json\n", b'["a list"]\n', b'{"seq": "4"}\n', b"x" * (2 << 20) + b"\n"]
    segment.write_bytes(b"".join(lines))
    with Vault.open(home) as vault:
        totals = show(vault, parse_filters(), io.StringIO(), json=True)
        assert (totals.records, totals.skipped) == (15, 4)
        assert totals.note() == (
            "4 lines of the audit log could not be read as records and were skipped; "
            "run `memvault audit verify`"
        )
        assert count(vault).skipped == 4


@pytest.mark.sqlite_only("writes into the log's segment files")
def test_the_newest_line_while_it_is_written_is_not_a_record(home: Path) -> None:
    """A partial line at the end of the newest segment is neither shown nor counted."""
    (_, segment), *_ = segments(home / "audit")
    with Vault.open(home) as vault:
        with segment.open("ab") as handle:
            handle.write(b'{"v":1,"seq":99,')
        totals = show(vault, parse_filters(), io.StringIO(), json=True)
        assert (totals.records, totals.skipped, totals.note()) == (15, 0, None)
        with segment.open("r+b") as handle:
            handle.truncate(segment.stat().st_size - len(b'{"v":1,"seq":99,'))
