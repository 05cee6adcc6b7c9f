"""The scripted Messages API endpoint: a real HTTP server that plays a script and checks
what the anthropic client sends it, threaded or not."""

from __future__ import annotations

import http.client
import json
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import anthropic
import pytest

from memvault import Vault
from memvault.agent import MEMORY_TOOL, ScriptedEndpoint, Turn, error, ok, result_text

MODEL = "claude-sonnet-5-5"
VIEW = {"command": "view", "path": "/memories"}


def client(endpoint: ScriptedEndpoint) -> anthropic.Anthropic:
    return anthropic.Anthropic(api_key="scripted", base_url=endpoint.url, max_retries=0)


def post(
    endpoint: ScriptedEndpoint, body: object, *, key: bool = True
) -> tuple[int, dict[str, Any]]:
    """A raw request, without the SDK (which would never send these mistakes)."""
    headers = {"anthropic-version": "2023-06-01", "content-type": "application/json"}
    if key:
        headers["x-api-key"] = "k"
    url = endpoint.url + "/v1/messages"
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers)  # noqa: S310
    try:
        with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310 (loopback)
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def first_request() -> dict[str, Any]:
    return {
        "model": MODEL,
        "max_tokens": 64,
        "tools": [MEMORY_TOOL],
        "messages": [{"role": "user", "content": "hello"}],
    }


@pytest.mark.parametrize("threaded", [True, False])
@pytest.mark.sync_tool_only("the sync client's tool runner takes sync tools")
def test_the_tool_runner_plays_the_script_to_the_end(home: Path, threaded: bool) -> None:
    """The SDK's tool runner, threaded (its default) or sending the whole history each
    time, gets every turn; each request is checked against the whole conversation."""
    turns = [
        Turn(text="Let me look.", calls=(VIEW,), user="hello"),
        Turn(
            calls=({"command": "view", "path": "/memories/none"},), results=(ok("0B\t/memories"),)
        ),
        Turn(text="Nothing there.", results=(error("does not exist"),)),
    ]
    with ScriptedEndpoint(turns) as endpoint, Vault.open(home) as vault:
        options: dict[str, Any] = {} if threaded else {"thread": False}
        runner = client(endpoint).beta.messages.tool_runner(
            model=MODEL,
            max_tokens=64,
            messages=[{"role": "user", "content": "hello"}],
            tools=[vault.memory_tool("alice")],
            **options,
        )
        final = runner.until_done()
    assert final.content[0].type == "text" and final.content[0].text == "Nothing there."
    assert endpoint.finished and endpoint.failures == []
    requests = endpoint.requests
    assert [len(r.messages) for r in requests] == [1, 3, 5]
    assert all(r.tools == [MEMORY_TOOL] for r in requests)
    kinds = [(r.thread or {}).get("type") for r in requests]
    assert kinds == (["create", "continue", "continue"] if threaded else [None, None, None])
    headers = requests[0].headers
    assert "(present)" in (headers.get("x-api-key"), headers.get("authorization"))
    assert not any("scripted" in value for value in headers.values())  # the key, never by value


def test_a_request_missing_the_tool_results_is_refused_clearly() -> None:
    """A request that does not answer the previous turn's tool calls gets HTTP 400 with the
    API's wording, naming the missing id; the failure is recorded and the turn not played."""
    turns = [Turn(calls=(VIEW, VIEW)), Turn(text="done")]
    with ScriptedEndpoint(turns) as endpoint:
        status, _ = post(endpoint, first_request())
        assert status == 200
        body = first_request()
        body["messages"] += [
            {"role": "assistant", "content": turns[0].content(0)},
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "toolu_00_00", "content": "x"}],
            },
        ]
        status, answer = post(endpoint, body)
    assert status == 400
    assert answer["error"]["type"] == "invalid_request_error"
    assert answer["error"]["message"] == (
        "scripted endpoint: request 2: messages.2: `tool_use` ids were found without "
        "`tool_result` blocks immediately after: toolu_00_01. Each `tool_use` block must have "
        "a corresponding `tool_result` block in the next message."
    )
    assert endpoint.failures == [answer["error"]["message"]]
    assert endpoint.played == 1 and not endpoint.finished


def test_the_sdk_raises_the_refusal_as_a_bad_request() -> None:
    """Through the SDK, a refusal is a BadRequestError carrying the endpoint's words."""
    turns = [Turn(text="hi", user="good morning")]
    with ScriptedEndpoint(turns) as endpoint, pytest.raises(anthropic.BadRequestError) as exc:
        client(endpoint).beta.messages.create(
            model=MODEL,
            max_tokens=64,
            messages=[{"role": "user", "content": "good evening"}],
            tools=[MEMORY_TOOL],  # type: ignore[list-item]
        )
    assert "the user's message does not contain 'good morning'" in str(exc.value)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"tools": []}, "tools: the memory tool is not declared as"),
        ({"tools": [{"type": "memory_20250818", "name": "notes"}]}, "memory tool is not declared"),
        ({"model": ""}, "model: a model name is required"),
        ({"max_tokens": 0}, "max_tokens: a positive integer is required"),
        ({"messages": []}, "messages: at least one message is required"),
        ({"stream": True}, "stream: the scripted endpoint answers non-streaming requests only"),
        ({"thread": {"type": "fork"}}, "thread: the type must be create or continue"),
    ],
)
def test_malformed_requests_are_refused(change: dict[str, Any], message: str) -> None:
    """Each malformed request is refused with a 400 naming the field."""
    with ScriptedEndpoint([Turn(text="hi")]) as endpoint:
        status, answer = post(endpoint, {**first_request(), **change})
    assert status == 400 and message in answer["error"]["message"]
    assert endpoint.played == 0


def test_the_script_over_and_unknown_threads_and_routes() -> None:
    """Past the last turn, an unknown thread, a missing key or another route: each refused."""
    with ScriptedEndpoint([Turn(text="hi")]) as endpoint:
        assert post(endpoint, first_request())[0] == 200
        status, answer = post(endpoint, first_request())
        assert (
            status == 400
            and "the script has no turn 1; its last turn was 0" in answer["error"]["message"]
        )
        body = {**first_request(), "thread": {"type": "continue", "previous_message_id": "m"}}
        del body["tools"]
        status, answer = post(endpoint, body)
        assert status == 404
        assert answer["error"]["details"] == {"error_code": "thread_not_found"}
        status, answer = post(endpoint, first_request(), key=False)
        assert (status, answer["error"]["type"]) == (401, "authentication_error")
        request = urllib.request.Request(endpoint.url + "/v1/models", method="GET")  # noqa: S310
        with pytest.raises(urllib.error.HTTPError) as exc:
            urllib.request.urlopen(request, timeout=10)  # noqa: S310 (loopback)
        assert exc.value.code == 405


def test_answers_on_a_kept_alive_connection_are_not_held_back() -> None:
    """On a connection kept alive, as the SDK's client keeps it, an answer's body is not
    held back by Nagle's algorithm until the client's delayed ACK (40 ms a request on Linux)."""
    count = 6
    headers = {"anthropic-version": "2023-06-01", "content-type": "application/json"}
    body = json.dumps(first_request()).encode()
    elapsed = []
    with ScriptedEndpoint([Turn(text="hi")] * count) as endpoint:
        host, port = endpoint.url.removeprefix("http://").split(":")
        connection = http.client.HTTPConnection(host, int(port), timeout=10)
        try:
            for _ in range(count):
                start = time.perf_counter()
                connection.request("POST", "/v1/messages", body, {**headers, "x-api-key": "k"})
                answer = connection.getresponse()
                assert answer.status == 200, answer.read()
                answer.read()
                elapsed.append(time.perf_counter() - start)
        finally:
            connection.close()
    # The first request opens the connection; the least of the others is robust to load.
    assert min(elapsed[1:]) < 0.03, elapsed


def test_a_continue_may_not_repeat_system_or_tools() -> None:
    """A thread's continue that sends tools again is refused, as the API refuses it."""
    turns = [Turn(calls=(VIEW,)), Turn(text="done")]
    with ScriptedEndpoint(turns) as endpoint:
        status, first = post(endpoint, {**first_request(), "thread": {"type": "create"}})
        assert status == 200
        body = {
            **first_request(),
            "thread": {"type": "continue", "previous_message_id": first["id"]},
            "messages": [
                {
                    "role": "user",
                    "content": [
                        {"type": "tool_result", "tool_use_id": "toolu_00_00", "content": ""}
                    ],
                }
            ],
        }
        status, answer = post(endpoint, body)
        assert status == 400
        assert (
            "tools: a thread's continue takes tools from the create" in answer["error"]["message"]
        )
        del body["tools"]
        status, answer = post(endpoint, body)
    assert status == 200 and answer["content"] == [{"type": "text", "text": "done"}]


@pytest.mark.sync_tool_only("the sync client's tool runner takes sync tools")
def test_results_are_checked_against_the_script(home: Path) -> None:
    """A result that is an error where the script expects none stops the run, with both shown."""
    turns = [Turn(calls=({"command": "view", "path": "/memories/x"},)), Turn(results=(ok(),))]
    with ScriptedEndpoint(turns) as endpoint, Vault.open(home) as vault:
        runner = client(endpoint).beta.messages.tool_runner(
            model=MODEL,
            max_tokens=64,
            messages=[{"role": "user", "content": "hello"}],
            tools=[vault.memory_tool("alice")],
        )
        with pytest.raises(anthropic.BadRequestError) as exc:
            runner.until_done()
    assert "the result of toolu_00_00 is an error, unlike the script's" in str(exc.value)
    assert "does not exist" in str(exc.value)
    (failure,) = endpoint.failures
    assert failure.startswith("scripted endpoint: request 2: the result of toolu_00_00")


def test_replies_are_messages_the_sdk_reads(home: Path) -> None:
    """A reply carries the usual fields; context_management is answered when it was asked."""
    turns = [Turn(text="hi")]
    with ScriptedEndpoint(turns) as endpoint:
        message = client(endpoint).beta.messages.create(
            model=MODEL,
            max_tokens=64,
            messages=[{"role": "user", "content": "hello"}],
            tools=[MEMORY_TOOL],  # type: ignore[list-item]
            betas=["context-management-2025-06-27"],
            context_management={"edits": [{"type": "clear_tool_uses_20250919"}]},
        )
    assert message.stop_reason == "end_turn" and message.model == MODEL
    assert message.usage.input_tokens > 0 and message.usage.output_tokens > 0
    assert message.context_management is not None
    assert message.context_management.applied_edits == []
    (request,) = endpoint.requests
    assert request.betas == ["context-management-2025-06-27"]
    assert (
        result_text({"content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]})
        == "ab"
    )
