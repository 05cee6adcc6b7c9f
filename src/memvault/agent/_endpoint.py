"""A scripted Messages API endpoint: a real HTTP server on loopback that plays the model.

``memvault demo``, the tests and the benches point the ``anthropic`` client at it
(``base_url=endpoint.url``, any key) and drive the memory tool through the SDK's
own tool runner, over real HTTP, with no model and no network. It speaks the part
of the API a tool loop uses: ``POST /v1/messages`` (beta headers accepted),
non-streaming JSON replies with ``tool_use`` blocks and ``stop_reason:
"tool_use"``, then text with ``"end_turn"``; and message threads (``thread:
{"type": "create" | "continue"}``), which the SDK's tool runner uses by default,
so each request is checked against the whole conversation either way.

Every request is recorded (:attr:`ScriptedEndpoint.requests`). A request that
is not what the script expects (a tool result missing, the memory tool not
declared, the script over) is answered as the API answers a malformed request,
HTTP 400 ``invalid_request_error`` naming what differs, and kept in
:attr:`ScriptedEndpoint.failures`; the client raises it as ``BadRequestError``.
"""

from __future__ import annotations

import json
import secrets
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any

from ._script import Mismatch, Turn, check_request, check_turn

MAX_BODY = 64 << 20  # far above any request a tool loop sends; a larger one is refused unread
_HIDDEN_HEADERS = ("x-api-key", "authorization")  # recorded as present, never by value


@dataclass(slots=True)
class ScriptedRequest:
    """One request the endpoint received.

    ``messages`` is the whole conversation the request continues (a thread's
    ``continue`` sends only the new messages; the endpoint puts the rest back),
    ``system`` and ``tools`` are the conversation's, ``turn`` the script's turn it
    was answered with, or None and ``failure`` saying why it was refused.
    """

    number: int
    path: str
    headers: dict[str, str]
    body: dict[str, Any] | None = None
    messages: list[dict[str, Any]] = field(default_factory=list)
    system: Any = None
    tools: Any = None
    thread: dict[str, Any] | None = None
    turn: int | None = None
    failure: str | None = None

    @property
    def betas(self) -> list[str]:
        raw = self.headers.get("anthropic-beta", "")
        return [b.strip() for b in raw.split(",") if b.strip()]


class _Refusal(Exception):
    def __init__(self, status: int, kind: str, message: str, **details: str) -> None:
        super().__init__(message)
        self.status, self.kind, self.message, self.details = status, kind, message, details


class ScriptedEndpoint:
    """Plays ``turns`` in order, one per request, on ``http://127.0.0.1:<port>``.

    Use it as a context manager (or :meth:`start` and :meth:`close`)::

        with ScriptedEndpoint([Turn(calls=({"command": "view", "path": "/memories"},)),
                               Turn(text="Done.", results=(ok("/memories"),))]) as endpoint:
            client = anthropic.Anthropic(api_key="scripted", base_url=endpoint.url)
            ...
        assert endpoint.finished and not endpoint.failures
    """

    def __init__(
        self, turns: Sequence[Turn], *, require_memory_tool: bool = True, host: str = "127.0.0.1"
    ) -> None:
        self.turns = tuple(turns)
        self.require_memory_tool = require_memory_tool
        self._host = host
        self._lock = threading.Lock()
        self._requests: list[ScriptedRequest] = []
        self._played = 0
        self._conversations: dict[str, tuple[list[dict[str, Any]], dict[str, Any]]] = {}
        self._token = secrets.token_hex(4)
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self._url: str | None = None

    # -- the server ----------------------------------------------------------------------

    def start(self) -> ScriptedEndpoint:
        server = ThreadingHTTPServer((self._host, 0), _Handler)
        server.daemon_threads = True
        server.endpoint = self  # type: ignore[attr-defined]
        self._server = server
        host, port = server.server_address[:2]
        self._url = f"http://{host!s}:{port}"
        self._thread = threading.Thread(
            target=server.serve_forever,
            kwargs={"poll_interval": 0.02},  # how soon close() returns
            name="scripted-endpoint",
            daemon=True,
        )
        self._thread.start()
        return self

    def close(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> ScriptedEndpoint:
        return self.start()

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    @property
    def url(self) -> str:
        """``http://127.0.0.1:<port>``, the client's ``base_url`` (kept after :meth:`close`)."""
        if self._url is None:
            raise RuntimeError("the scripted endpoint is not started")
        return self._url

    # -- what happened -------------------------------------------------------------------

    @property
    def requests(self) -> list[ScriptedRequest]:
        with self._lock:
            return list(self._requests)

    @property
    def failures(self) -> list[str]:
        with self._lock:
            return [r.failure for r in self._requests if r.failure is not None]

    @property
    def played(self) -> int:
        """How many turns were answered."""
        with self._lock:
            return self._played

    @property
    def finished(self) -> bool:
        """Whether every turn of the script was played."""
        return self.played == len(self.turns)

    # -- one request ---------------------------------------------------------------------

    def answer(self, path: str, headers: Mapping[str, str], raw: bytes) -> tuple[int, bytes]:
        """The status and JSON body for one request (the handler's thread calls this)."""
        with self._lock:
            request = ScriptedRequest(
                number=len(self._requests) + 1,
                path=path,
                headers={
                    k.lower(): ("(present)" if k.lower() in _HIDDEN_HEADERS else v)
                    for k, v in headers.items()
                },
            )
            self._requests.append(request)
            try:
                reply = self._play(request, raw)
            except Mismatch as exc:
                reply = self._refuse(request, _Refusal(400, "invalid_request_error", str(exc)))
            except _Refusal as exc:
                reply = self._refuse(request, exc)
            return reply

    def _play(self, request: ScriptedRequest, raw: bytes) -> tuple[int, bytes]:
        body = _read_body(request, raw)
        messages, fields = self._conversation(body)
        request.messages = messages
        request.system, request.tools = fields.get("system"), fields.get("tools")
        whole = {**fields, "messages": messages}
        check_request(whole, require_memory_tool=self.require_memory_tool)
        if body.get("stream"):
            raise Mismatch("stream: the scripted endpoint answers non-streaming requests only")
        number = self._played
        if number >= len(self.turns):
            raise Mismatch(
                f"the script has no turn {number}; its last turn was {len(self.turns) - 1}"
            )
        turn = self.turns[number]
        check_turn(messages, self.turns[number - 1] if number else None, number, turn)
        reply = self._message(number, turn, whole)
        self._conversations[reply["id"]] = (
            [*messages, {"role": "assistant", "content": reply["content"]}],
            fields,
        )
        self._played += 1
        request.turn = number
        return 200, json.dumps(reply).encode()

    def _conversation(self, body: dict[str, Any]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """The whole conversation and its fields: a thread's ``continue`` resolved."""
        fields = {k: v for k, v in body.items() if k not in ("messages", "thread")}
        messages = body.get("messages")
        thread = body.get("thread")
        if thread is None:
            return (messages if isinstance(messages, list) else []), fields
        kind = thread.get("type") if isinstance(thread, dict) else None
        if kind == "create":
            return (messages if isinstance(messages, list) else []), fields
        if kind != "continue":
            raise Mismatch("thread: the type must be create or continue")
        for name in ("system", "tools"):
            if name in body:
                raise Mismatch(f"{name}: a thread's continue takes {name} from the create; omit it")
        stored = self._conversations.get(str(thread.get("previous_message_id")))
        if stored is None:
            raise _Refusal(
                404, "not_found_error", "thread not found", error_code="thread_not_found"
            )
        earlier, created = stored
        return [*earlier, *(messages if isinstance(messages, list) else [])], {**created, **fields}

    def _message(self, number: int, turn: Turn, whole: dict[str, Any]) -> dict[str, Any]:
        """The reply to ``whole``, the request with its thread's conversation and fields."""
        content = turn.content(number)
        message: dict[str, Any] = {
            "id": f"msg_scripted_{self._token}_{number:04d}",
            "type": "message",
            "role": "assistant",
            "model": whole.get("model"),
            "content": content,
            "stop_reason": turn.stop_reason,
            "stop_sequence": None,
            # About four bytes a token: enough for code that reads usage to see it grow.
            "usage": {
                "input_tokens": max(1, len(json.dumps(whole)) // 4),
                "output_tokens": max(1, len(json.dumps(content)) // 4),
            },
        }
        if whole.get("context_management") is not None:
            message["context_management"] = {"applied_edits": []}
        return message

    def _refuse(self, request: ScriptedRequest, refusal: _Refusal) -> tuple[int, bytes]:
        where = f"scripted endpoint: request {request.number}"
        request.failure = f"{where}: {refusal.message}"
        return refusal.status, _error_body(refusal.kind, request.failure, refusal.details)


def _read_body(request: ScriptedRequest, raw: bytes) -> dict[str, Any]:
    route = request.path.split("?", 1)[0]
    if route != "/v1/messages":
        raise _Refusal(404, "not_found_error", f"no route {route}: only POST /v1/messages")
    if request.headers.get("x-api-key") is None and request.headers.get("authorization") is None:
        raise _Refusal(401, "authentication_error", "x-api-key header is required")
    if "anthropic-version" not in request.headers:
        raise Mismatch("anthropic-version: the header is required")
    try:
        body = json.loads(raw)
    except (ValueError, RecursionError):
        raise Mismatch("the body is not JSON") from None
    if not isinstance(body, dict):
        raise Mismatch("the body is not a JSON object")
    request.body = body
    request.thread = body.get("thread") if isinstance(body.get("thread"), dict) else None
    return body


def _error_body(kind: str, message: str, details: Mapping[str, str] | None = None) -> bytes:
    """An error as the API sends one."""
    error: dict[str, Any] = {"type": kind, "message": message}
    if details:
        error["details"] = dict(details)
    return json.dumps({"type": "error", "error": error}).encode()


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "memvault-scripted/1"
    # An answer goes out in two writes, the headers then the body. On a connection kept
    # alive (the SDK keeps them), Nagle's algorithm holds the body until the client ACKs
    # the headers, and the client delays that ACK: 40 ms a request on Linux.
    disable_nagle_algorithm = True

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: the endpoint's record is :attr:`ScriptedEndpoint.requests`."""

    def do_POST(self) -> None:
        endpoint: ScriptedEndpoint = self.server.endpoint  # type: ignore[attr-defined]
        try:
            length = int(self.headers.get("Content-Length", "0"))
        except ValueError:
            length = -1
        if not 0 <= length <= MAX_BODY:
            self._send(413, _error_body("request_too_large", f"the body is over {MAX_BODY} bytes"))
            self.close_connection = True
            return
        raw = self.rfile.read(length)
        status, data = endpoint.answer(self.path, dict(self.headers.items()), raw)
        self._send(status, data)

    def do_GET(self) -> None:
        self._send(405, _error_body("not_found_error", "only POST /v1/messages"))

    def _send(self, status: int, data: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("request-id", f"req_scripted_{secrets.token_hex(6)}")
        self.end_headers()
        self.wfile.write(data)
