"""The memory tool works unchanged in the SDK's tool runner, against a real HTTP endpoint.

A small Messages API endpoint runs on loopback and plays the model's side: it
answers the first request with memory tool calls and checks the tool results
the runner sends back. The anthropic client talks to it over real HTTP.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import anthropic
import pytest

from memvault import Vault

MODEL = "claude-sonnet-5-5"

# The model's turns: each is the list of tool calls it makes, then a final text turn.
TURNS: list[list[dict[str, Any]]] = [
    [
        {"command": "view", "path": "/memories"},
        {
            "command": "create",
            "path": "/memories/customer/preferences.md",
            "file_text": "- prefers email\n- timezone: CET\n",
        },
    ],
    [
        {
            "command": "str_replace",
            "path": "/memories/customer/preferences.md",
            "old_str": "CET",
            "new_str": "EET",
        },
        {"command": "view", "path": "/memories/../etc/passwd"},
        {"command": "view", "path": "/memories/customer/preferences.md"},
    ],
]


def _message(content: list[dict[str, Any]], stop_reason: str, n: int) -> dict[str, Any]:
    return {
        "id": f"msg_{n:04d}",
        "type": "message",
        "role": "assistant",
        "model": MODEL,
        "content": content,
        "stop_reason": stop_reason,
        "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 10},
    }


class _Endpoint(BaseHTTPRequestHandler):
    requests: list[dict[str, Any]]

    def log_message(self, format: str, *args: object) -> None:  # keep test output clean
        pass

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        requests = self.server.requests  # type: ignore[attr-defined]
        turn = len(requests)  # the runner may send only the new messages of a thread
        requests.append({"path": self.path, "body": body})
        if turn < len(TURNS):
            blocks = [
                {"type": "tool_use", "id": f"toolu_{turn}_{i}", "name": "memory", "input": call}
                for i, call in enumerate(TURNS[turn])
            ]
            reply = _message(blocks, "tool_use", turn)
        else:
            reply = _message([{"type": "text", "text": "Noted."}], "end_turn", turn)
        data = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


@pytest.fixture
def endpoint() -> Iterator[ThreadingHTTPServer]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Endpoint)
    server.requests = []  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def _tool_results(request: dict[str, Any]) -> list[dict[str, Any]]:
    last = request["body"]["messages"][-1]
    assert last["role"] == "user"
    return [block for block in last["content"] if block["type"] == "tool_result"]


@pytest.mark.sync_tool_only("the sync runner takes sync tools; the async runner is below")
def test_tool_runner_round_trip(endpoint: ThreadingHTTPServer, home: Path) -> None:
    """tool_runner sends memvault's results, errors flagged is_error, back to the endpoint."""
    host, port = endpoint.server_address[:2]
    client = anthropic.Anthropic(
        api_key="test-key", base_url=f"http://{host!s}:{port}", max_retries=0
    )
    with Vault.open(home) as vault:
        tool = vault.memory_tool(user="alice")
        runner = client.beta.messages.tool_runner(
            model=MODEL,
            max_tokens=256,
            messages=[{"role": "user", "content": "Remember my preferences."}],
            tools=[tool],
            max_iterations=5,
        )
        final = runner.until_done()
    assert final.content[0].type == "text"
    _check_requests(endpoint.requests)  # type: ignore[attr-defined]


def test_async_tool_runner_round_trip(endpoint: ThreadingHTTPServer, home: Path) -> None:
    """The async client's tool_runner, with the async tool, sends the same results back."""
    host, port = endpoint.server_address[:2]

    async def conversation(vault: Vault) -> anthropic.types.beta.BetaMessage:
        client = anthropic.AsyncAnthropic(
            api_key="test-key", base_url=f"http://{host!s}:{port}", max_retries=0
        )
        runner = client.beta.messages.tool_runner(
            model=MODEL,
            max_tokens=256,
            messages=[{"role": "user", "content": "Remember my preferences."}],
            tools=[vault.async_memory_tool(user="alice")],
            max_iterations=5,
        )
        return await runner.until_done()

    with Vault.open(home) as vault:
        final = asyncio.run(conversation(vault))
    assert final.content[0].type == "text"
    _check_requests(endpoint.requests)  # type: ignore[attr-defined]


def _check_requests(requests: list[dict[str, Any]]) -> None:
    """The endpoint's three requests: the tool declared, then each turn's results."""
    assert len(requests) == 3
    assert requests[0]["body"]["tools"] == [{"type": "memory_20250818", "name": "memory"}]

    first = _tool_results(requests[1])
    assert [r["tool_use_id"] for r in first] == ["toolu_0_0", "toolu_0_1"]
    assert _text(first[0]) == (
        "Here're the files and directories up to 2 levels deep in /memories, "
        "excluding hidden items and node_modules:\n0B\t/memories"
    )
    assert not first[0].get("is_error")
    assert _text(first[1]) == "File created successfully at: /memories/customer/preferences.md"

    second = _tool_results(requests[2])
    assert _text(second[0]).startswith("The memory file has been edited.")
    assert not second[0].get("is_error")
    assert second[1]["is_error"] is True
    assert _text(second[1]).startswith(
        "Error: The path /memories/../etc/passwd is not allowed: it contains a '..' segment."
    )
    assert _text(second[2]) == (
        "Here's the content of /memories/customer/preferences.md with line numbers:\n"
        "     1\t- prefers email\n     2\t- timezone: EET\n     3\t"
    )


def _text(result: dict[str, Any]) -> str:
    content = result["content"]
    if isinstance(content, str):
        return content
    return "".join(block["text"] for block in content if block["type"] == "text")
