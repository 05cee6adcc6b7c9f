"""A script for the scripted endpoint: the model's turns, as data, with what each must be asked.

A :class:`Turn` is one canned assistant message: some text, tool calls, or both. The
request that asks for a turn is checked against the turn before it: every tool call
must have come back as a ``tool_result`` block of the next user message, and
``results`` says what each result must hold (:func:`ok`, :func:`error`). A turn that
follows a finished one (``end_turn``) is asked by a new user message, which ``user``
may require to contain some text.

The checks raise :class:`Mismatch`; the endpoint answers it as the API answers a
malformed request (HTTP 400, ``invalid_request_error``) and records it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

MEMORY_TOOL = {"type": "memory_20250818", "name": "memory"}


class Mismatch(Exception):
    """A request is not what the script expected; the message says what differs."""


@dataclass(frozen=True, slots=True)
class Expect:
    """What one tool result must be: an error or not, holding ``contains``."""

    contains: str = ""
    is_error: bool = False


def ok(contains: str = "") -> Expect:
    """A tool result that is no error and holds ``contains``."""
    return Expect(contains, is_error=False)


def error(contains: str = "") -> Expect:
    """A tool result flagged ``is_error`` that holds ``contains``."""
    return Expect(contains, is_error=True)


@dataclass(frozen=True, slots=True)
class Turn:
    """One assistant message the endpoint plays, and what the request for it must carry.

    ``calls`` are the inputs of the ``tool_use`` blocks (any JSON value: a model may
    send anything); ``results``, if given, one :class:`Expect` per call of the turn
    before; ``user``, text the new user message must contain.
    """

    text: str | None = None
    calls: tuple[Any, ...] = ()
    results: tuple[Expect, ...] | None = None
    user: str | None = None
    tool: str = "memory"
    stop_reason: str = field(default="")

    def __post_init__(self) -> None:
        if not self.stop_reason:
            object.__setattr__(self, "stop_reason", "tool_use" if self.calls else "end_turn")

    def content(self, number: int) -> list[dict[str, Any]]:
        """The message's content blocks; tool call ids are ``toolu_<turn>_<call>``."""
        blocks: list[dict[str, Any]] = []
        if self.text is not None:
            blocks.append({"type": "text", "text": self.text})
        for index, call in enumerate(self.calls):
            blocks.append(
                {"type": "tool_use", "id": call_id(number, index), "name": self.tool, "input": call}
            )
        return blocks


def call_id(turn: int, index: int) -> str:
    return f"toolu_{turn:02d}_{index:02d}"


def check_request(body: Mapping[str, Any], *, require_memory_tool: bool) -> None:
    """The fields every Messages API request needs, and the memory tool's declaration."""
    if not isinstance(body.get("model"), str) or not body["model"]:
        raise Mismatch("model: a model name is required")
    if not isinstance(body.get("max_tokens"), int) or body["max_tokens"] < 1:
        raise Mismatch("max_tokens: a positive integer is required")
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        raise Mismatch("messages: at least one message is required")
    for number, message in enumerate(messages):
        if not isinstance(message, dict) or message.get("role") not in ("user", "assistant"):
            raise Mismatch(f"messages.{number}: a message needs a role, user or assistant")
    if messages[-1]["role"] != "user":
        raise Mismatch("messages: the last message must be the user's")
    tools = body.get("tools")
    if require_memory_tool and (not isinstance(tools, list) or MEMORY_TOOL not in tools):
        raise Mismatch(
            f"tools: the memory tool is not declared as {MEMORY_TOOL} (got {tools!r:.200})"
        )


def check_turn(
    messages: Sequence[Mapping[str, Any]], previous: Turn | None, number: int, turn: Turn
) -> None:
    """That the request for turn ``number`` answers the turn before it, as ``turn`` expects."""
    last = messages[-1]
    if previous is not None and previous.calls:
        results = _tool_results(messages, previous, number - 1)
        if turn.results is not None:
            _check_results(results, turn.results, number - 1)
        return
    blocks = _blocks(last)
    if any(b.get("type") == "tool_result" for b in blocks):
        raise Mismatch(f"messages.{len(messages) - 1}: tool results answer no tool call")
    said = "".join(b.get("text", "") for b in blocks if b.get("type") == "text")
    if turn.user is not None and turn.user not in said:
        raise Mismatch(
            f"messages.{len(messages) - 1}: the user's message does not contain {turn.user!r}"
        )


def _tool_results(
    messages: Sequence[Mapping[str, Any]], previous: Turn, number: int
) -> list[Mapping[str, Any]]:
    """The results of the previous turn's calls, checked to be there, in order."""
    if len(messages) < 2 or messages[-2].get("role") != "assistant":
        raise Mismatch("messages: the assistant's tool calls are missing before their results")
    asked = [b.get("id") for b in _blocks(messages[-2]) if b.get("type") == "tool_use"]
    expected = [call_id(number, i) for i in range(len(previous.calls))]
    if asked != expected:
        raise Mismatch(
            f"messages.{len(messages) - 2}: the assistant's tool calls {asked} are not the ones "
            f"the endpoint sent ({expected})"
        )
    results = [b for b in _blocks(messages[-1]) if b.get("type") == "tool_result"]
    answered = [r.get("tool_use_id") for r in results]
    missing = [i for i in expected if i not in answered]
    if missing:
        # The API's own words for this mistake.
        raise Mismatch(
            f"messages.{len(messages) - 1}: `tool_use` ids were found without `tool_result` "
            f"blocks immediately after: {', '.join(missing)}. Each `tool_use` block must have "
            "a corresponding `tool_result` block in the next message."
        )
    if answered != expected:
        raise Mismatch(
            f"messages.{len(messages) - 1}: tool results {answered} do not answer {expected}"
        )
    return results


def _check_results(results: Sequence[Mapping[str, Any]], wanted: Sequence[Expect], n: int) -> None:
    if len(wanted) != len(results):
        raise Mismatch(f"the script expects {len(wanted)} results of turn {n}, not {len(results)}")
    for index, (result, expect) in enumerate(zip(results, wanted, strict=True)):
        text = result_text(result)
        flagged = result.get("is_error") is True
        where = f"the result of {call_id(n, index)}"
        if flagged != expect.is_error:
            state = "an error" if flagged else "no error"
            raise Mismatch(f"{where} is {state}, unlike the script's: {text[:300]!r}")
        if expect.contains not in text:
            raise Mismatch(f"{where} does not contain {expect.contains!r}: {text[:300]!r}")


def result_text(result: Mapping[str, Any]) -> str:
    """A tool result's text, whether sent as a string or as text blocks."""
    content = result.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(b.get("text", "") for b in content if isinstance(b, dict))
    return ""


def _blocks(message: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    content = message.get("content")
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    if isinstance(content, list):
        return [b for b in content if isinstance(b, dict)]
    return []
