"""`memvault mcp` as a client starts it: a subprocess over stdio, driven with the `mcp` SDK.

The server gets the client library's minimal environment (HOME, PATH and a few more) plus
what a client's config would add in its ``env``: here the per-test key directory and,
so that the child imports this tree's memvault, PYTHONPATH.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import IO, Any, TypeVar

import anyio
from mcp import Client, StdioServerParameters, stdio_client
from mcp.types import CallToolResult, TextContent

from memvault import Vault

T = TypeVar("T")

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 0,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "memvault-tests", "version": "1"},
    },
}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


def server_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The variables a client config's ``env`` would hold for these tests."""
    env = {"XDG_CONFIG_HOME": os.environ["XDG_CONFIG_HOME"]}
    if "PYTHONPATH" in os.environ:
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    env.update(extra or {})
    return env


def made_home(tmp_path: Path) -> Path:
    """A vault made beforehand, as the README has it made in a terminal: a server serves
    a vault that exists and never makes one."""
    made = tmp_path / "home"
    Vault.open(made).close()
    return made


def server_argv(home: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "memvault", "--home", str(home), *args]


@asynccontextmanager
async def connect(
    home: Path,
    args: Sequence[str],
    errlog: IO[str],
    *,
    env: Mapping[str, str] | None = None,
    mode: str = "legacy",
) -> AsyncIterator[Client]:
    """A client session with ``memvault --home HOME ARGS`` (``mode``: "legacy" is the
    initialize handshake Claude's clients use; "auto" lets a 2026 client negotiate)."""
    command, *rest = server_argv(home, *args)
    params = StdioServerParameters(command=command, args=rest, env=server_env(env))
    async with Client(stdio_client(params, errlog=errlog), mode=mode) as client:
        yield client


def in_session(
    home: Path,
    args: Sequence[str],
    body: Callable[[Client], Awaitable[T]],
    errfile: Path,
    *,
    env: Mapping[str, str] | None = None,
    mode: str = "legacy",
) -> T:
    """Run ``body`` in one session; the server's stderr goes to ``errfile``."""

    async def session() -> T:
        with errfile.open("a", encoding="utf-8") as errlog:
            async with connect(home, args, errlog, env=env, mode=mode) as client:
                return await body(client)

    return anyio.run(session)


async def call(client: Client, arguments: dict[str, Any]) -> tuple[str, bool]:
    """One memory command: (the result's text, isError)."""
    result = await client.call_tool("memory", arguments)
    return text_of(result), result.is_error


def text_of(result: CallToolResult) -> str:
    (block,) = result.content
    assert isinstance(block, TextContent)
    return block.text


def spawn(home: Path, *args: str, env: Mapping[str, str] | None = None) -> subprocess.Popen[bytes]:
    """The server as a raw process, for tests that write bytes to it or kill it."""
    base = {k: os.environ[k] for k in ("HOME", "PATH") if k in os.environ}
    return subprocess.Popen(
        server_argv(home, *args),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**base, **server_env(env)},
    )


def send(process: subprocess.Popen[bytes], *messages: object) -> None:
    """Write each message as one line (bytes and str as they are, anything else as JSON)."""
    assert process.stdin is not None
    for message in messages:
        if isinstance(message, bytes):
            line = message
        elif isinstance(message, str):
            line = message.encode()
        else:
            line = json.dumps(message).encode()
        process.stdin.write(line + b"\n")
    process.stdin.flush()


def receive(process: subprocess.Popen[bytes]) -> dict[str, Any]:
    """The next line on the server's stdout, which must be one JSON-RPC message."""
    assert process.stdout is not None
    line = process.stdout.readline()
    assert line.endswith(b"\n"), line
    message = json.loads(line)
    assert isinstance(message, dict) and message.get("jsonrpc") == "2.0", message
    return message


def tool_call(number: int, arguments: dict[str, Any]) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": number,
        "method": "tools/call",
        "params": {"name": "memory", "arguments": arguments},
    }
