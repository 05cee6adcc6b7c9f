"""CLI transcripts: stdout, stderr and exit code of `memvault`, in-process and as a program."""

from __future__ import annotations

import base64
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from anthropic.lib.tools import ToolError

from memvault import Vault
from memvault.cli import main


def run(
    argv: list[str], stdin: bytes = b"", monkeypatch: pytest.MonkeyPatch | None = None
) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    if monkeypatch is not None:
        fake = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
        monkeypatch.setattr(sys, "stdin", fake)
    code = main(argv, out=out, err=err)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.sqlite_only("works on the home directory's files")
def test_init_is_idempotent(home: Path) -> None:
    """init creates the vault once; a second init reports the same vault id."""
    code1, out1, err1 = run(["--home", str(home), "init"])
    code2, out2, err2 = run(["--home", str(home), "init"])
    assert (code1, code2, err1, err2) == (0, 0, "", "")
    assert out1 == out2
    first, second = out1.splitlines()
    assert first.startswith("vault ") and first.endswith(f" is ready at {home}")
    vault_id = first.split()[1]
    key = home.parent / "config" / "memvault" / "keys" / f"{vault_id}.key"
    assert second == f"master key: {key} (back it up apart from the home)"


def test_home_defaults_to_env_then_dot_memvault(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without --home, $MEMVAULT_HOME is used, else ./.memvault."""
    monkeypatch.chdir(tmp_path)
    assert run(["init"])[0] == 0
    assert (tmp_path / ".memvault" / "vault.db").exists()
    monkeypatch.setenv("MEMVAULT_HOME", str(tmp_path / "from-env"))
    assert run(["init"])[0] == 0
    assert (tmp_path / "from-env" / "vault.db").exists()


def test_exec_transcript(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """exec answers each JSON line with one JSON result line; bad lines get an error line."""
    lines = [
        json.dumps({"command": "create", "path": "/memories/a.md", "file_text": "one\ntwo"}),
        "this is not json",
        json.dumps(["not", "an", "object"]),
        "",
        json.dumps({"command": "view", "path": "/memories/a.md", "view_range": [2, -1]}),
        json.dumps({"command": "delete", "path": "/memories/missing"}),
    ]
    stdin = (
        ("\n".join(lines) + "\n").encode()
        + b"\xff\xfe\n"
        + b'{"command": "view", "path": "/memories"}\n'
    )
    code, out, err = run(["--home", str(home), "exec", "--user", "alice"], stdin, monkeypatch)
    assert (code, err) == (0, "")
    results = [json.loads(line) for line in out.splitlines()]
    assert results == [
        {"is_error": False, "content": "File created successfully at: /memories/a.md"},
        {
            "is_error": True,
            "content": "Error: line 2 is not valid JSON (Expecting value at column 1); "
            "send one JSON object per line.",
        },
        {
            "is_error": True,
            "content": "Error: The tool input must be an object with a `command` field, "
            "got a list.",
        },
        {
            "is_error": False,
            "content": "Here's the content of /memories/a.md with line numbers:\n     2\ttwo",
        },
        {"is_error": True, "content": "Error: The path /memories/missing does not exist"},
        {
            "is_error": True,
            "content": "Error: line 7 is not valid UTF-8 (byte 0); send UTF-8 JSON.",
        },
        {
            "is_error": False,
            "content": "Here're the files and directories up to 2 levels deep in /memories, "
            "excluding hidden items and node_modules:\n7B\t/memories\n7B\t/memories/a.md",
        },
    ]


def test_exec_requires_user(home: Path) -> None:
    """exec without --user is a usage error (exit 2) with a hint, not a traceback."""
    code, out, err = run(["--home", str(home), "exec"])
    assert code == 2 and out == ""
    assert err == (
        "memvault: error: the following arguments are required: --user\n"
        "memvault: hint: run 'memvault exec --help' for usage\n"
    )


def test_bad_user_is_a_usage_error(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A user id with a control character is refused with exit 2."""
    code, out, err = run(["--home", str(home), "exec", "--user", "a\tb"], b"", monkeypatch)
    assert code == 2 and out == ""
    assert err == "memvault: error: a user id must not contain control or invisible characters\n"


@pytest.mark.sqlite_only("reads or changes the store's rows with SQLite")
def test_wrong_master_key_is_a_clear_error(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Opening with another vault's key exits 1 with an error and a hint; nothing changes."""
    assert run(["--home", str(home), "init"])[0] == 0
    before = (home / "vault.db").read_bytes()
    monkeypatch.setenv("MEMVAULT_MASTER_KEY", base64.b64encode(b"k" * 32).decode())
    code, out, err = run(["--home", str(home), "init"])
    assert code == 1 and out == ""
    lines = err.splitlines()
    assert lines[0].startswith(
        "memvault: error: the master key from $MEMVAULT_MASTER_KEY does not open vault "
    )
    assert lines[1].startswith("memvault: hint: ")
    assert (home / "vault.db").read_bytes() == before


def test_missing_key_file_names_the_path(home: Path, tmp_path: Path) -> None:
    """A vault whose key file is gone fails at open, naming where the key was expected."""
    with Vault.open(home) as v:
        vault_id = v.vault_id
    key = tmp_path / "config" / "memvault" / "keys" / f"{vault_id}.key"
    key.rename(tmp_path / "elsewhere.key")
    code, out, err = run(["--home", str(home), "init"])
    assert code == 1 and out == ""
    assert err.splitlines()[0] == (
        f"memvault: error: no master key for vault {vault_id}: {key} does not exist"
    )


@pytest.mark.parametrize("argv", [[], ["init"], ["exec"], ["demo"], ["chat"]])
def test_help_everywhere(argv: list[str]) -> None:
    """--help works for the program and every command, exit 0."""
    code, out, err = run([*argv, "--help"])
    assert code == 0 and err == ""
    assert out.startswith("usage: memvault")


def test_no_command_is_a_usage_error() -> None:
    """Running memvault with no command exits 2 and says what is missing."""
    code, out, err = run([])
    assert code == 2 and out == ""
    assert err.startswith("memvault: error: the following arguments are required: COMMAND")


def test_python_dash_m_vault_runs_as_a_program(home: Path) -> None:
    """`python -m vault exec` works as a real process, stdin to stdout."""
    env = {**os.environ}
    command = json.dumps({"command": "create", "path": "/memories/x", "file_text": "y"}) + "\n"
    proc = subprocess.run(
        [sys.executable, "-m", "memvault", "--home", str(home), "exec", "--user", "bob"],
        input=command.encode(),
        capture_output=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {
        "is_error": False,
        "content": "File created successfully at: /memories/x",
    }


def _session(home: Path) -> None:
    with Vault.open(home) as v:
        tool = v.memory_tool("alice", session="conv-7")
        tool.call({"command": "create", "path": "/memories/a.md", "file_text": "mail bob@corp.com"})
        tool.call({"command": "view", "path": "/memories"})
        with pytest.raises(ToolError):
            tool.call({"command": "view", "path": "/etc/passwd"})


@pytest.mark.sqlite_only("reads or changes the home's audit log files")
def test_audit_show_json_has_the_pinned_fields(home: Path) -> None:
    """audit show --json: one object per record with seq, time, user, command, outcome."""
    _session(home)
    code, out, err = run(["--home", str(home), "audit", "show", "--json"])
    assert (code, err) == (0, "")
    rows = [json.loads(line) for line in out.splitlines()]
    assert [(r["seq"], r["user"], r["command"], r["outcome"]) for r in rows] == [
        (1, None, "vault.create", "ok"),
        (2, None, "policy.change", "ok"),
        (3, "alice", "user.create", "ok"),
        (4, "alice", "create", "ok"),
        (5, "alice", "view", "ok"),
        (6, "alice", "view", "refused"),
        (7, None, "audit.show", "ok"),  # recorded before anything is shown
    ]
    assert all(r["time"].endswith("Z") and len(r["time"]) == 27 for r in rows)
    assert rows[3]["findings"] == {"email": 1} and rows[3]["session"] == "conv-7"
    assert rows[5]["paths"] == ["/etc/passwd"] and rows[5]["error"] == "path"


@pytest.mark.sqlite_only("reads or changes the home's audit log files")
def test_audit_show_filters_and_stats(home: Path) -> None:
    """Filters narrow show; stats counts; a bad filter is a usage error with a hint."""
    _session(home)
    code, out, _ = run(
        ["--home", str(home), "audit", "show", "--json", "--command", "view", "--outcome", "ok"]
    )
    assert code == 0 and [json.loads(line)["seq"] for line in out.splitlines()] == [5]
    code, out, _ = run(["--home", str(home), "audit", "stats", "--json", "--user", "alice"])
    counts = json.loads(out)
    assert code == 0 and counts["records"] == 4 and counts["redactions"] == {"email": 1}
    code, out, err = run(["--home", str(home), "audit", "show", "--since", "yesterday"])
    assert code == 2 and out == ""
    assert err.startswith("memvault: error: --since 'yesterday' is not a time\n")


def test_audit_export_writes_and_is_recorded(home: Path, tmp_path: Path) -> None:
    """export writes the mapped records and records itself; it never overwrites silently."""
    _session(home)
    target = tmp_path / "siem.jsonl"
    code, out, err = run(
        ["--home", str(home), "audit", "export", "--format", "ecs", "--out", str(target)]
    )
    assert (code, err) == (0, "")
    assert out == f"7 records written to {target} (ecs)\n"
    docs = [json.loads(line) for line in target.read_text().splitlines()]
    assert docs[-1]["event"]["action"] == "audit.export"
    code, _, err = run(
        ["--home", str(home), "audit", "export", "--format", "ecs", "--out", str(target)]
    )
    assert code == 2 and "already exists" in err and "--overwrite" in err
