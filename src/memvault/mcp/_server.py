"""The memory tool over MCP's stdio transport: a thin shell over the runner.

Built on the ``mcp`` SDK's low-level ``Server`` (mcp 2.x, whose handlers are constructor
arguments; 1.x registered them with decorators, and its high-level ``FastMCP`` is
``MCPServer`` in 2.x). The high-level class is not used on purpose: it derives the input
schema from a function's signature, checks the arguments against it before a handler
runs (a refusal the audit log would never see, in the SDK's words rather than the
protocol's) and words tool errors itself. Here the schema is written out
(``_protocol.py``), every call goes to :meth:`Runner.run` as it came, and its
:class:`Reply` goes back as a ``CallToolResult``: the protocol's string as the text,
``isError`` set on errors.

Stdout carries protocol messages only: the SDK's stdio transport points file descriptor
1 at stderr while it serves (and 0 at the null device), so a stray write anywhere lands
on stderr; logs go to stderr.
"""

from __future__ import annotations

import contextlib
import io
import os
import signal
import sys
import threading
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from types import TracebackType
from typing import IO, Any, Self, cast

import anyio
import anyio.from_thread
import anyio.lowlevel
import anyio.to_thread
import mcp.types as types
from anyio import CancelScope
from anyio.streams.memory import MemoryObjectReceiveStream
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError
from mcp.shared.message import SessionMessage
from pydantic import ValidationError

from .._log import log as _log
from ..memory import Reply, Runner
from ._protocol import ANNOTATIONS, DESCRIPTION, INPUT_SCHEMA, INSTRUCTIONS, TOOL_NAME, TOOL_TITLE

SERVER_NAME = "memvault"
EOF = "end of input"
GONE = "the client went away"
_SIGNALS = {signal.SIGTERM: "SIGTERM", signal.SIGINT: "SIGINT"}
# How long a closed input waits for the answers to requests already read: a command can
# wait up to 30 s for another process's write lock.
_DRAIN_SECONDS = 60.0
_CANCELLED = "notifications/cancelled"
_CHUNK = 1 << 16


def result_of(reply: Reply) -> types.CallToolResult:
    """The runner's reply as MCP's tool result: the same string, ``isError`` on errors."""
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=reply.content)], is_error=reply.is_error
    )


def build_server(runner: Runner, *, version: str) -> Server[Any]:
    """An MCP server with one tool, ``memory``, whose every call ``runner`` runs."""
    tool = types.Tool(
        name=TOOL_NAME,
        title=TOOL_TITLE,
        description=DESCRIPTION,
        input_schema=INPUT_SCHEMA,
        annotations=types.ToolAnnotations(**ANNOTATIONS),
    )

    in_order = anyio.Lock()

    async def list_tools(
        ctx: Any, params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[tool])

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        if params.name != TOOL_NAME:
            # Not a memory command: a protocol error, as MCP asks for an unknown tool.
            raise MCPError(
                code=types.INVALID_PARAMS, message=f"Unknown tool: this server has one, {TOOL_NAME}"
            )
        command = params.arguments if params.arguments is not None else {}
        # One at a time, in the order they were read (the lock is first come, first
        # served): the SDK runs requests concurrently, and a create sent before an edit
        # of the same file must run first, as in `memvault exec` or the SDK tool. In a
        # worker thread, so that a slow command (an fsync, a wait for another process's
        # write) holds up no other message. Cancelling the request, or stopping the
        # server, waits for the command to end: its transaction and its audit record are
        # never cut short (the thread is not abandoned).
        async with in_order:
            reply = await anyio.to_thread.run_sync(runner.run, command)
        return result_of(reply)

    return Server(
        SERVER_NAME,
        version=version,
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


def serve(
    runner: Runner,
    *,
    version: str,
    stdin: IO[bytes] | None = None,
    stdout: IO[str] | None = None,
) -> str:
    """Serve ``runner`` over stdio until the client closes its end or the process is told to
    stop (SIGTERM, SIGINT); returns why it stopped (:data:`EOF`, :data:`GONE`, ``"SIGTERM"``,
    ``"SIGINT"``)
    once no command is running. ``stdin``/``stdout`` default to the process's own."""
    server = build_server(runner, version=version)
    try:
        return anyio.run(_serve, server, stdin, stdout)
    except* (BrokenPipeError, ConnectionResetError):
        # The client went away without closing its end first (killed): its answers have
        # nowhere to go. The commands it sent have run to their end, as on a stop.
        pass
    return GONE


async def _serve(server: Server[Any], stdin: IO[bytes] | None, stdout: IO[str] | None) -> str:
    stopped = [EOF]
    async with _transport(stdin, stdout) as (read, write), anyio.create_task_group() as tasks:
        if threading.current_thread() is threading.main_thread():
            await tasks.start(_stop_on_signal, tasks.cancel_scope, stopped)
        wire = _Wire(read, write)
        tasks.start_soon(wire.pump)
        await server.run(wire.messages, wire, server.create_initialization_options())
        tasks.cancel_scope.cancel()
    return stopped[0]


@asynccontextmanager
async def _transport(stdin: IO[bytes] | None, stdout: IO[str] | None) -> AsyncIterator[Any]:
    """The SDK's stdio transport, reading its lines from :class:`_Lines`; with ``stdout``
    None it points file descriptor 1 at stderr while it serves and writes to a copy."""
    lines = _Lines(stdin if stdin is not None else sys.stdin.buffer)
    lines.start()
    out = anyio.wrap_file(stdout) if stdout is not None else None
    async with stdio_server(stdin=cast(Any, lines), stdout=out) as streams:
        try:
            yield streams
        finally:
            lines.close()


class _Lines:
    """The client's lines, read in a daemon thread of their own.

    The SDK reads stdin in one of the event loop's worker threads, which nothing can stop
    while it waits in ``readline``: a server told to stop (SIGTERM) would then wait for the
    client to write or close. This thread is left waiting instead, and the process ends.
    It reads a descriptor of its own with ``os.read``, never ``sys.stdin``: a daemon thread
    holding a buffered file's lock at exit aborts the interpreter.
    """

    def __init__(self, source: IO[bytes]) -> None:
        self._source = source
        self._send, self._receive = anyio.create_memory_object_stream[str](0)

    def start(self) -> None:
        token = anyio.lowlevel.current_token()
        threading.Thread(target=self._read, args=(token,), name="mcp-stdin", daemon=True).start()

    def _read(self, token: anyio.lowlevel.EventLoopToken) -> None:
        try:
            for line in _lines_of(self._source):
                text = line.decode("utf-8", errors="replace")
                anyio.from_thread.run(self._send.send, text, token=token)
        except Exception:  # noqa: S110 - closed by a stop, or stdin failed: the end either way
            pass
        with contextlib.suppress(Exception):
            anyio.from_thread.run_sync(self._send.close, token=token)

    def close(self) -> None:
        self._send.close()

    def __aiter__(self) -> MemoryObjectReceiveStream[str]:
        return self._receive


def _lines_of(source: IO[bytes]) -> Iterator[bytes]:
    """The lines of ``source``: from a copy of its descriptor when it has one."""
    try:
        fd = os.dup(source.fileno())
    except (OSError, ValueError, io.UnsupportedOperation):
        yield from iter(source.readline, b"")
        return
    try:
        pending = b""
        while chunk := os.read(fd, _CHUNK):
            *lines, pending = (pending + chunk).split(b"\n")
            for line in lines:
                yield line + b"\n"
        if pending:
            yield pending
    finally:
        os.close(fd)


async def _stop_on_signal(scope: CancelScope, stopped: list[str], *, task_status: Any) -> None:
    with anyio.open_signal_receiver(*_SIGNALS) as received:
        task_status.started()
        async for number in received:
            stopped[0] = _SIGNALS[signal.Signals(number)]
            scope.cancel()
            return


class _Wire:
    """The transport as the server sees it: the client's messages, and the way back.

    Two things the SDK's loop does not do are done here. A line that is not a JSON-RPC
    message is answered with a JSON-RPC error with a null id (the loop drops it without a
    word); nothing of the line is echoed or logged, and blank lines are skipped. And when
    the client closes its end, the loop is told only once every request already read has
    been answered (or cancelled by the client): the loop would cancel them, and a client
    that writes its requests and closes (a script, a pipe) would get "Connection closed"
    for commands that ran.
    """

    def __init__(self, read: Any, write: Any) -> None:
        """``read``/``write``: the transport's streams (the SDK's stream protocols, which
        it keeps in a private module)."""
        self._read = read
        self._write = write
        self._unanswered: set[types.RequestId] = set()
        self._forward, self.messages = anyio.create_memory_object_stream[SessionMessage](0)

    async def pump(self) -> None:
        async with self._forward:
            async for item in self._read:
                if isinstance(item, Exception):
                    await self._refuse(item)
                    continue
                self._note(item.message)
                await self._forward.send(item)
            deadline = anyio.current_time() + _DRAIN_SECONDS
            while self._unanswered and anyio.current_time() < deadline:
                await anyio.sleep(0.005)

    def _note(self, message: types.JSONRPCMessage) -> None:
        """Count a request as unanswered; a request the client cancelled never will be."""
        if isinstance(message, types.JSONRPCRequest):
            self._unanswered.add(message.id)
        elif isinstance(message, types.JSONRPCNotification) and message.method == _CANCELLED:
            self._unanswered.discard((message.params or {}).get("requestId"))

    async def _refuse(self, exc: Exception) -> None:
        error = _unreadable(exc)
        if error is not None:
            _log.warning("mcp_unreadable_message", code=error.code)
            await self._write.send(
                SessionMessage(types.JSONRPCError(jsonrpc="2.0", id=None, error=error))
            )

    async def send(self, item: SessionMessage, /) -> None:
        await self._write.send(item)
        message = item.message
        if isinstance(message, types.JSONRPCResponse | types.JSONRPCError):
            self._unanswered.discard(message.id)  # once handed on: the loop may end now

    async def aclose(self) -> None:
        await self._write.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc_val: BaseException | None,
        exc_tb: TracebackType | None,
    ) -> bool | None:
        await self.aclose()
        return None


def _unreadable(exc: Exception) -> types.ErrorData | None:
    """The error to answer a line that is not a JSON-RPC message with; None for a blank line."""
    if isinstance(exc, ValidationError):
        problems = exc.errors()
        if problems and problems[0]["type"] == "json_invalid":
            given = problems[0].get("input")
            if isinstance(given, str) and not given.strip():
                return None
            return types.ErrorData(code=types.PARSE_ERROR, message="Parse error: not JSON")
    return types.ErrorData(
        code=types.INVALID_REQUEST, message="Invalid Request: not a JSON-RPC 2.0 message"
    )
