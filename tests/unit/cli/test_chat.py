"""`memvault chat`: scripted conversations through stdin against the scripted endpoint, the
requests they make, and what an operator sees."""

from __future__ import annotations

import io
import json
import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from memvault import Vault
from memvault.agent import (
    CONTEXT_MANAGEMENT_BETA,
    MEMORY_PROTOCOL,
    MEMORY_TOOL,
    ScriptedEndpoint,
    Turn,
    error,
    ok,
)
from memvault.audit import parse_filters
from memvault.cli import main
from memvault.store import describe_dsn, is_dsn

VIEW = {"command": "view", "path": "/memories"}


def chat(
    home: Path, endpoint: ScriptedEndpoint | None, lines: str, *flags: str
) -> tuple[int, str, str]:
    argv = ["--home", str(home), "chat", "--user", "alice", *flags]
    if endpoint is not None:
        argv += ["--api-base", endpoint.url]
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdin=io.BytesIO(lines.encode()), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test")
    monkeypatch.delenv("ANTHROPIC_BASE_URL", raising=False)


@pytest.mark.sqlite_only("works on the home directory's files")
def test_without_a_key_chat_exits_2_and_says_why(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No ANTHROPIC_API_KEY (or an empty one): exit 2, this message, no vault made."""
    monkeypatch.setenv("ANTHROPIC_API_KEY", " ")
    code, out, err = chat(home, None, "hello\n")
    assert (code, out) == (2, "")
    assert err == (
        "memvault: error: ANTHROPIC_API_KEY is not set: memvault chat talks to Claude through "
        "the Anthropic API\n"
        "memvault: hint: export ANTHROPIC_API_KEY=<your key>, or run `memvault demo`, which "
        "needs none\n"
    )
    assert not home.exists()


def test_a_scripted_conversation_through_stdin(home: Path) -> None:
    """Each line is a message; Claude's words go to stdout, each memory command to stderr as
    one line; what Claude writes is stored filtered, under the session's id; /exit ends it."""
    turns = [
        Turn(text="Let me look.", calls=(VIEW,), user="hello"),
        Turn(text="Nothing yet. Hello!", results=(ok("0B\t/memories"),)),
        Turn(
            calls=(
                {"command": "create", "path": "/memories/prefs.md", "file_text": "bob@corp.com"},
                {"command": "view", "path": "/etc/passwd"},
            ),
            user="remember",
        ),
        Turn(text="Noted.", results=(ok("File created"), error("is not allowed"))),
    ]
    with ScriptedEndpoint(turns) as endpoint:
        code, out, err = chat(
            home, endpoint, "hello\n\nremember: write to bob@corp.com\n/exit\nnever sent\n",
            "--session", "conv-81",
        )  # fmt: skip
    assert code == 0, err
    assert endpoint.finished and endpoint.failures == []
    assert out == "Let me look.\nNothing yet. Hello!\nNoted.\n"
    lines = err.splitlines()
    shown = describe_dsn(home) if is_dsn(home) else home  # a URI's password is never shown
    assert lines[0].startswith(f"memvault chat: alice's memories in {shown}, claude-sonnet-5-5 at ")
    assert lines[0].endswith(", session conv-81")
    assert lines[1] == (
        "context editing: tool results cleared past 100,000 input tokens, the newest 3 kept, "
        "memory's never cleared"
    )
    assert lines[3:] == [
        "  memory view /memories",
        "  memory create /memories/prefs.md  (filtered out: 1 email)",
        "  memory view: Error: The path /etc/passwd is not allowed: it is not /memories or below "
        "it. Use /memories or a path below it, such as /memories/notes.md.",
        "session conv-81 ended: 3 memory commands; memvault audit show --session conv-81",
    ]
    with Vault.open(home) as vault:
        stored = vault.memory_tool("alice").call({"command": "view", "path": "/memories/prefs.md"})
        records = list(vault_scan(vault, "conv-81"))
    assert stored.endswith("1\t[REDACTED:email]")
    assert [r.command for r in records] == ["view", "create", "view"]


def vault_scan(vault: Vault, session: str) -> Any:
    from memvault.audit import Scan

    return Scan(vault, parse_filters(session=session))


def test_requests_carry_the_protocol_prompt_the_tool_the_beta_and_context_editing(
    home: Path,
) -> None:
    """The documented memory protocol is the system prompt, word for word; the memory tool is
    declared; the context-management beta is on; memory is excluded from clearing."""
    with ScriptedEndpoint([Turn(text="hi")]) as endpoint:
        assert chat(home, endpoint, "hello\n")[0] == 0
    (request,) = endpoint.requests
    assert request.system == MEMORY_PROTOCOL
    assert MEMORY_PROTOCOL.startswith(
        "IMPORTANT: ALWAYS VIEW YOUR MEMORY DIRECTORY BEFORE DOING ANYTHING ELSE.\n"
    )
    assert request.tools == [MEMORY_TOOL]
    assert CONTEXT_MANAGEMENT_BETA in request.betas
    assert request.body is not None
    assert request.body["context_management"] == {
        "edits": [
            {
                "type": "clear_tool_uses_20250919",
                "trigger": {"type": "input_tokens", "value": 100000},
                "keep": {"type": "tool_uses", "value": 3},
                "exclude_tools": ["memory"],
            }
        ]
    }
    assert request.body["model"] == "claude-sonnet-5-5"
    assert request.body["max_tokens"] == 4096


@pytest.mark.parametrize(
    ("flags", "edits"),
    [
        (
            ["--clear-at-tokens", "5000", "--keep-tool-uses", "0", "--model", "claude-opus-5-5"],
            [{"type": "clear_tool_uses_20250919",
              "trigger": {"type": "input_tokens", "value": 5000},
              "keep": {"type": "tool_uses", "value": 0}, "exclude_tools": ["memory"]}],
        ),
        (
            ["--clear-memory-results"],
            [{"type": "clear_tool_uses_20250919",
              "trigger": {"type": "input_tokens", "value": 100000},
              "keep": {"type": "tool_uses", "value": 3}}],
        ),
        (["--no-context-editing"], None),
    ],
)  # fmt: skip
def test_context_editing_flags(home: Path, flags: list[str], edits: object) -> None:
    """The flags shape (or leave out) the request's context_management."""
    with ScriptedEndpoint([Turn(text="hi")]) as endpoint:
        code, _, err = chat(home, endpoint, "hello\n", *flags)
    assert code == 0, err
    body = endpoint.requests[0].body
    assert body is not None
    assert body.get("context_management") == (None if edits is None else {"edits": edits})
    if "--no-context-editing" in flags:
        assert "context editing: off" in err
    if "--model" in flags:
        assert body["model"] == "claude-opus-5-5"


@pytest.mark.sqlite_only("works on the home directory's files")
@pytest.mark.parametrize(
    "flags", [["--keep-tool-uses", "-1"], ["--clear-at-tokens", "0"], ["--max-tokens", "many"]]
)
def test_bad_flag_values_are_usage_errors(home: Path, flags: list[str]) -> None:
    """A count out of range or not a number: exit 2 before anything is sent or made."""
    code, out, err = chat(home, None, "hello\n", *flags)
    assert (code, out) == (2, "")
    assert err.startswith(f"memvault: error: argument {flags[0]}: ")
    assert not home.exists()


def test_the_base_url_comes_from_the_environment(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without --api-base, $ANTHROPIC_BASE_URL is where the conversation goes."""
    with ScriptedEndpoint([Turn(text="from the environment")]) as endpoint:
        monkeypatch.setenv("ANTHROPIC_BASE_URL", endpoint.url)
        code, out, _ = chat(home, None, "hello\n")
    assert (code, out) == (0, "from the environment\n")


def test_a_refused_request_ends_the_chat_with_exit_1(home: Path) -> None:
    """An API error (here the endpoint's refusal) ends the chat: exit 1, the API's words."""
    with ScriptedEndpoint([Turn(text="hi", user="good morning")]) as endpoint:
        code, out, err = chat(home, endpoint, "good evening\n")
    assert (code, out) == (1, "")
    assert (
        f"memvault: error: the Messages API at {endpoint.url} answered 400 "
        "(invalid_request_error): scripted endpoint: request 1: messages.0: the user's message "
        "does not contain 'good morning'\n"
    ) in err


def test_an_unreachable_api_ends_the_chat_with_exit_1(home: Path) -> None:
    """Nothing listening at the base URL: exit 1, naming it, with a hint."""
    code, _, err = chat(home, None, "hello\n", "--api-base", "http://127.0.0.1:9")
    assert code == 1
    assert "memvault: error: could not reach the Messages API at http://127.0.0.1:9\n" in err
    assert "memvault: hint: check the network connection, or --api-base" in err


# Inputs a model could send that no command accepts: wrong types, missing fields, unknown
# commands, huge values, not an object at all.
BAD_INPUTS: list[tuple[Any, str]] = [
    ({"command": 5}, "Unknown command an integer."),
    ({"command": "view"}, "requires the `path` parameter"),
    ({"command": "frobnicate", "path": "/memories"}, "Unknown command frobnicate."),
    ({"command": "view", "path": ["/memories"]}, "`path` must be a string, got a list"),
    ({"command": "view", "path": "/memories", "view_range": "1-2"}, "`view_range` must be"),
    ({"command": "create", "path": "/memories/big.md", "file_text": "x" * (2 << 20)},
     "over the limit of 1,048,576 bytes"),
    ({"command": "create", "path": "/memories/huge.md", "file_text": "x" * (5 << 20)},
     "over the input limit of 4,194,304 characters"),
    ({"command": "create", "path": "/memories/" + "a" * 5000, "file_text": "x"}, "not allowed"),
    ({"command": "insert", "path": "/memories/a.md", "insert_line": "two", "insert_text": "x"},
     "`insert_line` must be an integer"),
    ({"command": "str_replace", "path": "/memories/a.md"}, "requires the `old_str` parameter"),
    ({"command": "rename", "old_path": "/memories/a", "new_path": 7}, "`new_path` must be a"),
    ({}, "has no `command` field"),
    ([], "must be an object with a `command` field, got a list"),
    ("view /memories", "must be an object with a `command` field, got a string"),
    (None, "got null"),
]  # fmt: skip


@pytest.mark.filterwarnings("ignore::UserWarning")  # the SDK warns as it re-serializes non-objects
def test_every_bad_input_is_an_error_result_and_the_chat_goes_on(home: Path) -> None:
    """Each bad input comes back to the model as an is_error tool result, shown as one
    line; nothing of it is stored, and the conversation goes on to a write that works."""
    after = {"command": "create", "path": "/memories/after.md", "file_text": "still here\n"}
    turns = [
        Turn(calls=tuple(raw for raw, _ in BAD_INPUTS), user="go"),
        Turn(calls=(after,), results=tuple(error(words) for _, words in BAD_INPUTS)),
        Turn(text="Done.", results=(ok("File created successfully at: /memories/after.md"),)),
        Turn(text="Still here.", user="again"),
    ]
    with ScriptedEndpoint(turns) as endpoint:
        code, out, err = chat(home, endpoint, "go\nagain\n")
    assert code == 0, err
    assert endpoint.finished and endpoint.failures == []
    assert out == "Done.\nStill here.\n"
    shown = [line for line in err.splitlines() if line.startswith("  memory ")]
    assert len(shown) == len(BAD_INPUTS) + 1
    assert all(": Error: " in line for line in shown[:-1])
    assert shown[-1] == "  memory create /memories/after.md"
    assert max(len(line) for line in shown) < 1000  # a huge input is never echoed whole
    with Vault.open(home) as vault:
        listing = vault.memory_tool("alice").call(VIEW)
    assert listing.splitlines()[1:] == ["11B\t/memories", "11B\t/memories/after.md"]


def test_a_view_past_the_cap_is_paged_and_the_model_reads_on(home: Path) -> None:
    """A file past the view cap (a megabyte of notes, 100,000 characters by default) comes
    back as a first page and a note, not an error; the range the note names reads on."""
    text = "\n".join(f"{n:05} " + "w" * 95 for n in range(10_000))
    with Vault.open(home) as vault:
        vault.memory_tool("alice").call(
            {"command": "create", "path": "/memories/big.md", "file_text": text}
        )
    view = {"command": "view", "path": "/memories/big.md"}
    turns = [
        Turn(calls=(view,), user="read it"),
        Turn(
            calls=({**view, "view_range": [914, -1]},),
            results=(ok('lines 1-913 of 10,000 are shown. To read on, view the file again with '
                        '"view_range": [914, -1].'),),
        ),
        Turn(text="Read.", results=(ok("   914\t00913 www"),)),
    ]  # fmt: skip
    with ScriptedEndpoint(turns) as endpoint:
        code, out, err = chat(home, endpoint, "read it\n")
    assert (code, out) == (0, "Read.\n"), err
    assert endpoint.finished and endpoint.failures == []
    pages = [m["content"][0]["content"] for m in endpoint.requests[-1].messages[2::2]]
    assert all(len(page) <= 100_000 for page in pages)


def test_tool_results_go_back_to_the_endpoint_in_full(home: Path) -> None:
    """What the endpoint received for a view is the vault's result string, unchanged."""
    turns = [Turn(calls=(VIEW,)), Turn(text="ok")]
    with ScriptedEndpoint(turns) as endpoint:
        assert chat(home, endpoint, "hello\n")[0] == 0
    last = endpoint.requests[-1].messages[-1]
    assert json.loads(json.dumps(last))["content"][0]["content"] == (
        "Here're the files and directories up to 2 levels deep in /memories, excluding hidden "
        "items and node_modules:\n0B\t/memories"
    )


def _read_until(fd: int, marker: bytes, seen: bytearray, timeout: float = 30) -> None:
    """Read the terminal's output into ``seen`` until ``marker`` has appeared once more."""
    wanted = seen.count(marker) + 1
    deadline = time.monotonic() + timeout
    while seen.count(marker) < wanted:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            raise AssertionError(f"no {marker!r} on the terminal; it showed {bytes(seen)!r}")
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # the other end closed
            chunk = b""
        if not chunk:
            raise AssertionError(f"the terminal closed before {marker!r}: {bytes(seen)!r}")
        seen.extend(chunk)


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_on_a_terminal_chat_prompts_and_dims_the_tool_lines(home: Path) -> None:
    """On a pseudo-terminal: a `you> ` prompt, Claude's answer under a label, each memory
    command as a dim line; Ctrl-D at the prompt ends the chat with exit 0."""
    turns = [Turn(calls=(VIEW,), user="hello"), Turn(text="Your memory is empty.")]
    with ScriptedEndpoint(turns) as endpoint:
        leader, follower = pty.openpty()
        env = {**os.environ, "ANTHROPIC_API_KEY": "sk-test", "TERM": "xterm", "COLUMNS": "100"}
        env.pop("NO_COLOR", None)
        argv = ["--home", str(home), "chat", "--user", "alice", "--api-base", endpoint.url]
        proc = subprocess.Popen(
            [sys.executable, "-m", "memvault", *argv],
            stdin=follower, stdout=follower, stderr=follower, env=env, close_fds=True,
        )  # fmt: skip
        os.close(follower)
        seen = bytearray()
        try:
            _read_until(leader, b"you> ", seen)
            os.write(leader, b"hello\n")
            _read_until(leader, b"you> ", seen)
            os.write(leader, b"\x04")
            assert proc.wait(timeout=30) == 0
        finally:
            if proc.poll() is None:
                proc.kill()
            os.close(leader)
    assert endpoint.finished and endpoint.failures == []
    text = bytes(seen).decode()
    assert "\x1b[2m  memory view /memories\x1b[0m" in text
    assert "claude\x1b[0m Your memory is empty." in text
