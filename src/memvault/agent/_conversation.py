"""A conversation with Claude over one user's memories, through the SDK's tool runner.

:class:`Conversation` holds a message thread (``client.beta.messages.thread``)
whose one tool is the user's memory tool; :meth:`Conversation.ask` sends a user
message and runs the SDK's tool runner until Claude stops calling tools. Every
memory command is reported to ``on_call`` as a :class:`ToolCall`: what an
operator may be shown of it (the command, its paths when they were accepted,
what the redaction filter removed), never the text the model wrote.

The SDK's exceptions stop here: each becomes a :class:`ModelError` that names
the API's answer.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import anthropic
from anthropic.lib.tools import ToolError

from .._log import log as _log
from .._text import clean_text
from ..errors import ModelError
from ..memory import COMMANDS, Reply, Runner
from ..tool import MemoryTool
from ._settings import CONTEXT_MANAGEMENT_BETA, Settings

_PATH_FIELDS = ("path", "old_path", "new_path")
_MESSAGE_CHARS = 300  # of an API error's message, in ours


@dataclass(frozen=True, slots=True)
class ToolCall:
    """One memory command the model made, as an operator may see it.

    ``paths`` are the command's paths when it succeeded (the guard and the screen
    of names accepted them); a refused command shows ``message`` instead, the
    first line of the error the model got, which echoes nothing the filter found.
    """

    command: str | None
    paths: tuple[str, ...]
    is_error: bool
    error: str | None
    findings: tuple[tuple[str, int], ...]
    message: str

    @classmethod
    def of(cls, tool_input: object, reply: Reply) -> ToolCall:
        fields = tool_input if isinstance(tool_input, dict) else {}
        command = fields.get("command")
        paths = (
            ()
            if reply.is_error
            else tuple(
                clean_text(fields[name])
                for name in _PATH_FIELDS
                if isinstance(fields.get(name), str)
            )
        )
        return cls(
            command=command if command in COMMANDS else None,
            paths=paths,
            is_error=reply.is_error,
            error=reply.error,
            findings=reply.findings,
            message=clean_text(reply.content.split("\n", 1)[0]) if reply.is_error else "",
        )


class WatchedMemoryTool(MemoryTool):
    """The vault's memory tool, telling ``watch`` about every command it runs."""

    def __init__(self, runner: Runner, watch: Callable[[ToolCall], None]) -> None:
        super().__init__(runner)
        self._watched = runner
        self._watch = watch

    def call(self, input: object) -> str:
        reply = self._watched.run(input)
        try:
            self._watch(ToolCall.of(input, reply))
        except Exception as exc:
            # What the operator is shown never changes what the model is told.
            _log.warning("tool_call_display_failed", kind=type(exc).__name__)
        if reply.is_error:
            raise ToolError(reply.content)
        return reply.content


class Conversation:
    """Claude, with one user's memory tool, over ``base_url`` (None: the SDK's default,
    or ``$ANTHROPIC_BASE_URL``).

    ``on_text`` gets the text of each assistant message as it arrives (the words
    before a tool call as well as the answer); ``on_call`` each memory command.
    ``calls`` keeps them all.
    """

    def __init__(
        self,
        runner: Runner,
        *,
        api_key: str,
        base_url: str | None = None,
        settings: Settings | None = None,
        on_call: Callable[[ToolCall], None] | None = None,
        on_text: Callable[[str], None] | None = None,
        max_retries: int = 2,
    ) -> None:
        self.settings = settings = settings or Settings()
        self.calls: list[ToolCall] = []
        self._on_call = on_call
        self._on_text = on_text
        self._client = anthropic.Anthropic(
            api_key=api_key, base_url=base_url, max_retries=max_retries
        )
        options: dict[str, Any] = {}
        if settings.context_editing is not None:
            options["context_management"] = settings.context_editing.param()
        self.tool = WatchedMemoryTool(runner, self._called)
        self._thread = self._client.beta.messages.thread(
            model=settings.model,
            max_tokens=settings.max_tokens,
            tools=[self.tool],
            system=settings.system,
            betas=[CONTEXT_MANAGEMENT_BETA],
            # A server that cannot hold this conversation as a thread gets it whole each time.
            unsupported_request_behavior="continue_unthreaded",
            **options,
        )

    @property
    def base_url(self) -> str:
        return str(self._client.base_url).rstrip("/")

    def ask(self, text: str) -> str:
        """Send the user's ``text``; run the tool loop until Claude answers; return the
        answer's text. Raises :class:`ModelError` when the API fails or refuses."""
        self._thread.append({"role": "user", "content": text})
        runner = self._thread.tool_runner(max_iterations=self.settings.max_requests)
        answer, stop = "", None
        try:
            for message in runner:
                said = "".join(b.text for b in message.content if b.type == "text")
                if said and self._on_text is not None:
                    self._on_text(said)
                answer, stop = said, message.stop_reason
        except anthropic.AnthropicError as exc:
            raise self._failure(exc) from None
        if stop == "tool_use":
            raise ModelError(
                f"Claude was still calling tools after {self.settings.max_requests} requests "
                "for one message; the conversation was stopped there",
                hint="ask for less in one message",
            )
        return answer

    def close(self) -> None:
        self._client.close()

    def __enter__(self) -> Conversation:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _called(self, call: ToolCall) -> None:
        self.calls.append(call)
        if self._on_call is not None:
            self._on_call(call)

    def _failure(self, exc: anthropic.AnthropicError) -> ModelError:
        """The SDK's exception as ours: the status, the error type and the API's words."""
        if isinstance(exc, anthropic.APIStatusError):
            kind, said = _error_body(exc.body)
            message = f"the Messages API at {self.base_url} answered {exc.status_code} ({kind})"
            hint = "check ANTHROPIC_API_KEY" if exc.status_code in (401, 403) else None
            return ModelError(f"{message}: {said}" if said else message, hint=hint)
        if isinstance(exc, anthropic.APIConnectionError):
            return ModelError(
                f"could not reach the Messages API at {self.base_url}",
                hint="check the network connection, or --api-base / $ANTHROPIC_BASE_URL",
            )
        return ModelError(f"the conversation could not go on ({type(exc).__name__})")


def _error_body(body: object) -> tuple[str, str]:
    """The error's type and message from an API error body, cut and made printable."""
    error = body.get("error") if isinstance(body, dict) else None
    if not isinstance(error, dict):
        return "error", ""
    kind = error.get("type")
    said = error.get("message")
    text = clean_text(said) if isinstance(said, str) else ""
    if len(text) > _MESSAGE_CHARS:
        text = text[:_MESSAGE_CHARS] + "…"
    return (clean_text(kind) if isinstance(kind, str) else "error"), text
