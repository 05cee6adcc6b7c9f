"""The memory tool works unchanged in the SDK's tool runner, against a real HTTP endpoint.

The scripted Messages API endpoint (``memvault.agent.ScriptedEndpoint``) runs on
loopback and plays the model's side: it answers the first request with memory
tool calls and checks the tool results the runner sends back. The anthropic
client talks to it over real HTTP.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import anthropic
import pytest

from memvault import Vault
from memvault.agent import MEMORY_TOOL, ScriptedEndpoint, ScriptedRequest, Turn, result_text

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


def _tool_results(request: ScriptedRequest) -> list[dict[str, Any]]:
    last = request.messages[-1]
    assert last["role"] == "user"
    return [block for block in last["content"] if block["type"] == "tool_result"]


def _turns() -> list[Turn]:
    return [*(Turn(calls=tuple(calls)) for calls in TURNS), Turn(text="Noted.")]


@pytest.mark.sync_tool_only("the sync runner takes sync tools; the async runner is below")
def test_tool_runner_round_trip(home: Path) -> None:
    """tool_runner sends memvault's results, errors flagged is_error, back to the endpoint."""
    with ScriptedEndpoint(_turns()) as endpoint, Vault.open(home) as vault:
        client = anthropic.Anthropic(api_key="test-key", base_url=endpoint.url, max_retries=0)
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
    _check(endpoint)


def test_async_tool_runner_round_trip(home: Path) -> None:
    """The async client's tool_runner, with the async tool, sends the same results back."""

    async def conversation(vault: Vault, url: str) -> Any:
        client = anthropic.AsyncAnthropic(api_key="test-key", base_url=url, max_retries=0)
        runner = client.beta.messages.tool_runner(
            model=MODEL,
            max_tokens=256,
            messages=[{"role": "user", "content": "Remember my preferences."}],
            tools=[vault.async_memory_tool(user="alice")],
            max_iterations=5,
        )
        return await runner.until_done()

    with ScriptedEndpoint(_turns()) as endpoint, Vault.open(home) as vault:
        final = asyncio.run(conversation(vault, endpoint.url))
    assert final.content[0].type == "text"
    _check(endpoint)


def _check(endpoint: ScriptedEndpoint) -> None:
    """The endpoint's three requests: the tool declared, then each turn's results."""
    assert endpoint.finished and endpoint.failures == []
    requests = endpoint.requests
    assert len(requests) == 3
    assert requests[0].tools == [MEMORY_TOOL]

    first = _tool_results(requests[1])
    assert [r["tool_use_id"] for r in first] == ["toolu_00_00", "toolu_00_01"]
    assert result_text(first[0]) == (
        "Here're the files and directories up to 2 levels deep in /memories, "
        "excluding hidden items and node_modules:\n0B\t/memories"
    )
    assert not first[0].get("is_error")
    assert (
        result_text(first[1]) == "File created successfully at: /memories/customer/preferences.md"
    )

    second = _tool_results(requests[2])
    assert result_text(second[0]).startswith("The memory file has been edited.")
    assert not second[0].get("is_error")
    assert second[1]["is_error"] is True
    assert result_text(second[1]).startswith(
        "Error: The path /memories/../etc/passwd is not allowed: it contains a '..' segment."
    )
    assert result_text(second[2]) == (
        "Here's the content of /memories/customer/preferences.md with line numbers:\n"
        "     1\t- prefers email\n     2\t- timezone: EET\n     3\t"
    )
