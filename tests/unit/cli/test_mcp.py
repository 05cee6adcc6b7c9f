"""`memvault mcp`: the memory tool served over MCP's stdio transport, driven as a client does.

Each test starts the server as a subprocess with the `mcp` client library (the
client's minimal environment, and the key directory in its ``env``) and checks what
crosses the wire: the one tool and its schema, the protocol's exact strings with
``isError``, and what the vault and its audit log hold afterwards.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, MCPError

from memvault import Vault
from memvault.mcp import ANNOTATIONS, INPUT_SCHEMA, INSTRUCTIONS
from tests.support.mcp_client import (
    INITIALIZE,
    INITIALIZED,
    call,
    in_session,
    made_home,
    receive,
    send,
    server_argv,
    server_env,
    spawn,
    tool_call,
)
from tests.unit.cli.test_exec_lines import command_records, run

SESSION = ["mcp", "--user", "alice", "--session", "conv-42"]
DOCUMENTED_PROMPT = (
    "IMPORTANT: ALWAYS VIEW YOUR MEMORY DIRECTORY BEFORE DOING ANYTHING ELSE.\n"
    "MEMORY PROTOCOL:\n"
    "1. Use the `view` command of your `memory` tool to check for earlier progress.\n"
    "2. ... (work on the task) ...\n"
    "     - As you make progress, record status / progress / thoughts etc in your memory.\n"
    "ASSUME INTERRUPTION: Your context window might be reset at any moment, so you risk "
    "losing any progress that is not recorded in your memory directory."
)
TODO = "/memories/notes/todo.md"
# Every command, the way a session would use them; each answer is a success.
SCRIPT: list[dict[str, Any]] = [
    {"command": "view", "path": "/memories"},
    {"command": "create", "path": TODO, "file_text": "- buy milk\n- call bob\n"},
    {"command": "view", "path": TODO},
    {"command": "view", "path": TODO, "view_range": [2, -1]},
    {"command": "str_replace", "path": TODO, "old_str": "buy milk", "new_str": "buy oat milk"},
    {"command": "insert", "path": TODO, "insert_line": 0, "insert_text": "# Todo\n"},
    {"command": "view", "path": "/memories"},
    {"command": "rename", "old_path": "/memories/notes", "new_path": "/memories/archive"},
    {"command": "view", "path": "/memories/archive/todo.md"},
    {"command": "delete", "path": "/memories/archive"},
    {"command": "view", "path": "/memories"},
]
# The documented error of each command, exactly (SPEC §2), on a vault holding /memories/a.md
# ("x\nx\n") and /memories/b.md.
ERRORS: list[tuple[dict[str, Any], str]] = [
    (
        {"command": "view", "path": "/memories/nope"},
        "The path /memories/nope does not exist. Please provide a valid path.",
    ),
    (
        {"command": "create", "path": "/memories/a.md", "file_text": "y"},
        "Error: File /memories/a.md already exists",
    ),
    (
        {"command": "str_replace", "path": "/memories/a.md", "old_str": "zz", "new_str": "y"},
        "No replacement was performed, old_str `zz` did not appear verbatim in /memories/a.md.",
    ),
    (
        {"command": "str_replace", "path": "/memories/nope", "old_str": "x", "new_str": "y"},
        "Error: The path /memories/nope does not exist. Please provide a valid path.",
    ),
    (
        {"command": "insert", "path": "/memories/a.md", "insert_line": 9, "insert_text": "y"},
        "Error: Invalid `insert_line` parameter: 9. It should be within the range of lines "
        "of the file: [0, 2]",
    ),
    (
        {"command": "insert", "path": "/memories/nope", "insert_line": 0, "insert_text": "y"},
        "Error: The path /memories/nope does not exist",
    ),
    (
        {"command": "delete", "path": "/memories/nope"},
        "Error: The path /memories/nope does not exist",
    ),
    (
        {"command": "rename", "old_path": "/memories/nope", "new_path": "/memories/c.md"},
        "Error: The path /memories/nope does not exist",
    ),
    (
        {"command": "rename", "old_path": "/memories/a.md", "new_path": "/memories/b.md"},
        "Error: The destination /memories/b.md already exists",
    ),
    (
        {"command": "create", "path": "/memories/c.md"},
        "Error: The `create` command requires the `file_text` parameter.",
    ),
]


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return made_home(tmp_path)


def _errfile(tmp_path: Path) -> Path:
    return tmp_path / "server-stderr.txt"


def test_lists_one_tool_memory_with_its_schema_and_the_memory_protocol_as_instructions(
    home: Path, tmp_path: Path
) -> None:
    """tools/list: one tool, memory, whose schema is the command union, flat (no top-level
    oneOf/anyOf/allOf, which the Messages API refuses); the instructions are the
    documented memory-protocol prompt, word for word."""

    async def body(client: Client) -> Any:
        return client.server_info, client.instructions, (await client.list_tools()).tools

    server, instructions, tools = in_session(home, SESSION, body, _errfile(tmp_path))
    assert server is not None and server.name == "memvault"
    assert instructions == INSTRUCTIONS == DOCUMENTED_PROMPT
    (tool,) = tools
    assert tool.name == "memory"
    assert tool.input_schema == INPUT_SCHEMA
    assert tool.input_schema["type"] == "object"
    assert tool.input_schema["required"] == ["command"]
    assert tool.input_schema["properties"]["command"]["enum"] == [
        "view", "create", "str_replace", "insert", "delete", "rename",
    ]  # fmt: skip
    assert not {"oneOf", "anyOf", "allOf"} & set(tool.input_schema)
    assert tool.annotations is not None
    assert tool.annotations.model_dump(exclude_none=True) == ANNOTATIONS


def test_every_command_answers_with_the_sync_tools_exact_strings(
    home: Path, tmp_path: Path
) -> None:
    """Each command's result over MCP is the runner's string, byte for byte (the same
    script run in-process on another vault), with isError false."""

    async def body(client: Client) -> list[tuple[str, bool]]:
        return [await call(client, command) for command in SCRIPT]

    answers = in_session(home, SESSION, body, _errfile(tmp_path))
    with Vault.open(tmp_path / "twin") as twin:
        runner = twin.runner("alice")
        expected = [(r.content, r.is_error) for r in map(runner.run, SCRIPT)]
    assert answers == expected
    texts = [text for text, _ in answers]
    assert texts[1] == f"File created successfully at: {TODO}"
    assert texts[2] == (
        f"Here's the content of {TODO} with line numbers:\n"
        "     1\t- buy milk\n     2\t- call bob\n     3\t"
    )
    assert texts[4].startswith("The memory file has been edited.")
    assert texts[5] == f"The file {TODO} has been edited."
    assert texts[7] == "Successfully renamed /memories/notes to /memories/archive"
    assert texts[9] == "Successfully deleted /memories/archive"
    assert texts[10] == (
        "Here're the files and directories up to 2 levels deep in /memories, "
        "excluding hidden items and node_modules:\n0B\t/memories"
    )


def test_errors_carry_the_documented_strings_with_is_error(home: Path, tmp_path: Path) -> None:
    """Every documented error comes back as the tool result's text, exactly, with
    isError true: not a JSON-RPC error, and not reworded by the SDK."""
    with Vault.open(home) as vault:
        runner = vault.runner("alice")
        for path, text in (("/memories/a.md", "x\nx\n"), ("/memories/b.md", "b")):
            assert not runner.run({"command": "create", "path": path, "file_text": text}).is_error

    async def body(client: Client) -> list[tuple[str, bool]]:
        many = {"command": "str_replace", "path": "/memories/a.md", "old_str": "x", "new_str": "y"}
        return [await call(client, command) for command, _ in ERRORS] + [await call(client, many)]

    answers = in_session(home, SESSION, body, _errfile(tmp_path))
    assert answers[:-1] == [(message, True) for _, message in ERRORS]
    assert answers[-1] == (
        "No replacement was performed. Multiple occurrences of old_str `x` in lines: 1, 2. "
        "Please ensure it is unique",
        True,
    )


def test_hostile_paths_are_refused_and_recorded(home: Path, tmp_path: Path) -> None:
    """Traversal, encoded traversal and a path outside /memories are refused by the guard
    (isError), nothing is created, and each leaves a refused record."""
    hostile = ["/memories/../etc/passwd", "/memories/%2e%2e/secrets", "/etc/passwd"]

    async def body(client: Client) -> list[tuple[str, bool]]:
        answers = [
            await call(client, {"command": "create", "path": path, "file_text": "x"})
            for path in hostile
        ]
        return [*answers, await call(client, {"command": "view", "path": "/memories"})]

    *refused, listing = in_session(home, SESSION, body, _errfile(tmp_path))
    assert all(is_error and text.startswith("Error: The path ") for text, is_error in refused)
    assert listing == (
        "Here're the files and directories up to 2 levels deep in /memories, "
        "excluding hidden items and node_modules:\n0B\t/memories",
        False,
    )
    records = command_records(home)
    assert [(r["command"], r["outcome"]) for r in records[:3]] == [("create", "refused")] * 3


def test_an_api_key_written_over_mcp_is_stored_redacted(home: Path, tmp_path: Path) -> None:
    """The redaction filter runs as for the SDK tool: the key never reaches the store, the
    result says so, and the audit record counts the finding."""
    key = "AKIAQ3EGRT5XJ7KLMN2P"
    text = f"deploy with {key} tomorrow\n"

    async def body(client: Client) -> list[tuple[str, bool]]:
        create = {"command": "create", "path": "/memories/deploy.md", "file_text": text}
        return [
            await call(client, create),
            await call(client, {"command": "view", "path": "/memories/deploy.md"}),
        ]

    (created, created_error), (shown, shown_error) = in_session(
        home, SESSION, body, _errfile(tmp_path)
    )
    assert not created_error and not shown_error
    assert created.startswith("File created successfully at: /memories/deploy.md\n\nNote: ")
    assert "redacted" in created
    assert key not in shown and "[REDACTED:" in shown
    for path in home.rglob("*"):
        if path.is_file():
            assert key.encode() not in path.read_bytes(), path
    (record,) = [r for r in command_records(home) if r["command"] == "create"]
    assert record["findings"] and record["outcome"] == "ok"


def test_audit_records_carry_the_session_and_verify(home: Path, tmp_path: Path) -> None:
    """--session is written into every record of the session's commands, the user and
    session can come from $MEMVAULT_USER / $MEMVAULT_SESSION, and without either the
    server makes one (mcp- and 8 hex digits); the log verifies."""
    view = {"command": "view", "path": "/memories"}

    async def one_view(client: Client) -> tuple[str, bool]:
        return await call(client, view)

    errfile = _errfile(tmp_path)
    in_session(home, SESSION, one_view, errfile)
    env = {"MEMVAULT_USER": "bob", "MEMVAULT_SESSION": "conv-from-env"}
    in_session(home, ["mcp"], one_view, errfile, env=env)
    in_session(home, ["mcp", "--user", "carol"], one_view, errfile)
    records = [r for r in command_records(home) if r["command"] == "view"]
    assert [(r["user"], r["session"]) for r in records[:2]] == [
        ("alice", "conv-42"),
        ("bob", "conv-from-env"),
    ]
    made = records[2]["session"]
    assert made.startswith("mcp-") and len(made) == 12 and int(made[4:], 16) >= 0
    assert f"(session {made})" in errfile.read_text()
    assert run(["--home", str(home), "audit", "verify"])[0] == 0


def test_a_client_of_the_2026_protocol_is_served_too(home: Path, tmp_path: Path) -> None:
    """A client that negotiates the 2026-07-28 protocol (no initialize handshake) sees the
    same tool and gets the same strings."""

    async def body(client: Client) -> Any:
        tools = (await client.list_tools()).tools
        return [t.name for t in tools], await call(client, {"command": "view", "path": "/x"})

    names, answer = in_session(home, SESSION, body, _errfile(tmp_path), mode="auto")
    with Vault.open(tmp_path / "twin") as twin:
        expected = twin.runner("alice").run({"command": "view", "path": "/x"})
    assert names == ["memory"]
    assert answer == (expected.content, True)
    assert answer[0].startswith("Error: The path /x ")


def test_an_unknown_tool_is_a_protocol_error(home: Path, tmp_path: Path) -> None:
    """A call to a tool the server does not have is a JSON-RPC error (-32602), not a result."""

    async def body(client: Client) -> MCPError:
        with pytest.raises(MCPError) as raised:
            await client.call_tool("remember", {"command": "view", "path": "/memories"})
        return raised.value

    error = in_session(home, SESSION, body, _errfile(tmp_path))
    assert error.error.code == -32602
    assert command_records(home) == []


def test_lines_that_are_not_json_rpc_are_answered_and_the_session_goes_on(home: Path) -> None:
    """Not JSON, and JSON that is not a JSON-RPC message, each get an error with a null id
    (nothing of the line echoed); a blank line gets nothing; the next request is answered,
    stdout holds only JSON-RPC messages, and nothing is recorded for the bad lines."""
    marker = "Kestrel-Marker-5521"
    process = spawn(home, *SESSION)
    try:
        send(process, INITIALIZE)
        assert receive(process)["id"] == 0
        send(process, INITIALIZED, f"remember {marker}", "", f'["{marker}"]')
        parse_error, invalid = receive(process), receive(process)
        send(process, tool_call(7, {"command": "view", "path": "/memories"}))
        answer = receive(process)
    finally:
        out, err = process.communicate(timeout=30)
    assert parse_error == {"jsonrpc": "2.0", "id": None, "error": parse_error["error"]}
    assert parse_error["error"]["code"] == -32700
    assert invalid["id"] is None and invalid["error"]["code"] == -32600
    assert marker not in json.dumps([parse_error, invalid]) and marker.encode() not in err
    assert answer["id"] == 7 and answer["result"]["isError"] is False
    assert (process.returncode, out) == (0, b"")  # everything it wrote was read above
    assert [r["command"] for r in command_records(home)] == ["view"]


def test_requests_sent_at_once_run_in_order_and_are_all_answered_before_exit(
    home: Path, tmp_path: Path
) -> None:
    """A client that writes all its requests and closes stdin (a script) gets every answer,
    each what the commands give run one by one in the order sent (an edit right after the
    create of its file finds it); then the server exits 0, says why, and the vault verifies."""
    script = [*SCRIPT[1:6], {"command": "view", "path": TODO}]
    lines = [INITIALIZE, INITIALIZED, *(tool_call(n, c) for n, c in enumerate(script, 1))]
    done = subprocess.run(
        server_argv(home, *SESSION),
        input=b"".join(json.dumps(m).encode() + b"\n" for m in lines),
        capture_output=True,
        env={**{k: os.environ[k] for k in ("HOME", "PATH")}, **server_env()},
        timeout=60,
        check=False,
    )
    answers = {a["id"]: a for a in map(json.loads, done.stdout.splitlines())}
    assert sorted(answers) == list(range(len(script) + 1))
    with Vault.open(tmp_path / "twin") as twin:
        runner = twin.runner("alice")
        expected = [{"content": [{"text": r.content, "type": "text"}], "isError": r.is_error}
                    for r in map(runner.run, script)]  # fmt: skip
    assert [answers[n]["result"] for n in range(1, len(script) + 1)] == expected
    assert done.returncode == 0
    assert done.stderr.decode().endswith(
        "memvault: mcp: stopped (end of input); the vault is closed\n"
    )
    assert run(["--home", str(home), "audit", "verify"])[0] == 0


def _started_as_a_client(home: Path) -> subprocess.CompletedProcess[bytes]:
    """The server started as a client starts it (a minimal environment, stdin a pipe that
    sends the handshake and closes), run to its end."""
    return subprocess.run(
        server_argv(home, *SESSION),
        input=json.dumps(INITIALIZE).encode() + b"\n",
        capture_output=True,
        env={**{k: os.environ[k] for k in ("HOME", "PATH")}, **server_env()},
        timeout=60,
        check=False,
    )


def test_a_passphrase_with_no_terminal_is_refused_before_serving(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A passphrase vault started as a client starts it (stdin a pipe, no passphrase in
    its env) exits 1 before serving: the error and a hint naming the client's env on
    stderr, nothing on stdout."""
    home = tmp_path / "home"
    monkeypatch.setenv("MEMVAULT_PASSPHRASE", "correct horse battery staple")
    with Vault.open(home, key_provider="passphrase"):
        pass
    monkeypatch.delenv("MEMVAULT_PASSPHRASE")
    done = _started_as_a_client(home)
    err = done.stderr.decode()
    assert (done.returncode, done.stdout) == (1, b"")
    assert err.startswith("memvault: error: no passphrase for vault ")
    assert "memvault: hint: " in err and "MEMVAULT_PASSPHRASE" in err and "env" in err


def test_a_home_without_a_vault_is_refused_and_left_empty(tmp_path: Path) -> None:
    """A mistyped home in a client's config: exit 1 naming it, before serving; nothing is
    made there (no vault, no key), so no empty vault stands in for the real one."""
    home = tmp_path / "typo"
    done = _started_as_a_client(home)
    assert (done.returncode, done.stdout) == (1, b"")
    assert done.stderr.decode() == (
        f"memvault: error: no vault at {home}: an MCP server serves an existing vault and never "
        f"makes one\nmemvault: hint: check the home in the client's configuration, or make the "
        f"vault first, in a terminal: memvault --home {home} init (with the same key "
        "settings)\n"
    )
    assert not home.exists()
    assert not list((tmp_path / "config").rglob("*.key"))


def test_no_user_is_a_usage_error(home: Path) -> None:
    """Without --user or $MEMVAULT_USER the server does not start (exit 2)."""
    code, out, err = run(["--home", str(home), "mcp"])
    assert (code, out) == (2, "")
    assert err.startswith("memvault: error: no user: give --user U, or set $MEMVAULT_USER")


def test_exec_does_not_import_the_mcp_sdk(home: Path) -> None:
    """`memvault exec`'s cold start pays nothing for the mcp command: the SDK is imported
    by that command alone."""
    code = (
        "import io, sys\n"
        "from memvault.cli import main\n"
        f"main(['--home', {str(home)!r}, 'exec', '--user', 'a'], stdin=io.BytesIO(b''),"
        " out=io.StringIO(), err=io.StringIO())\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'mcp', 'mcp_types', 'anthropic'}))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert (done.returncode, done.stdout.strip()) == (0, "[]"), done.stderr


def test_main_serves_in_process_on_the_streams_it_is_given(home: Path) -> None:
    """`main(argv, stdin=..., out=...)` serves on those streams, as every command runs
    in-process: the answers on ``out``, the start and stop lines on ``err``."""
    lines = [INITIALIZE, INITIALIZED, tool_call(1, {"command": "view", "path": "/memories"})]
    code, out, err = run(
        ["--home", str(home), *SESSION], b"".join(json.dumps(m).encode() + b"\n" for m in lines)
    )
    answers = [json.loads(line) for line in out.splitlines()]
    assert code == 0
    assert [a["id"] for a in answers] == [0, 1]
    assert answers[1]["result"]["content"][0]["text"].startswith("Here're the files")
    assert err.startswith("memvault: mcp: serving the memories of alice from vault ")
    assert err.endswith("memvault: mcp: stopped (end of input); the vault is closed\n")
