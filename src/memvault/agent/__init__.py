"""Claude at the other end of the memory tool.

A :class:`Conversation` talks to the Messages API through the ``anthropic`` SDK's
tool runner, with one user's memory tool, the documented memory prompt and
context editing (``memvault chat``, ``memvault demo --live``). A
:class:`ScriptedEndpoint` is a Messages API on loopback that plays a script of
:class:`Turn` s and checks what it is sent (``memvault demo``, the tests, the
benches). With ``tool``, the one layer that imports the SDK.

Only the settings are imported with the package; the rest (the SDK, an HTTP
server) on first use, so the CLI's other commands start without them.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from ._settings import (
    CONTEXT_MANAGEMENT_BETA,
    DEFAULT_MAX_TOKENS,
    DEFAULT_MODEL,
    MEMORY_PROTOCOL,
    ContextEditing,
    Settings,
)

if TYPE_CHECKING:
    from ._conversation import Conversation, ToolCall, WatchedMemoryTool
    from ._endpoint import ScriptedEndpoint, ScriptedRequest
    from ._script import MEMORY_TOOL, Expect, Turn, error, ok, result_text

__all__ = [
    "CONTEXT_MANAGEMENT_BETA",
    "DEFAULT_MAX_TOKENS",
    "DEFAULT_MODEL",
    "MEMORY_PROTOCOL",
    "MEMORY_TOOL",
    "ContextEditing",
    "Conversation",
    "Expect",
    "ScriptedEndpoint",
    "ScriptedRequest",
    "Settings",
    "ToolCall",
    "Turn",
    "WatchedMemoryTool",
    "error",
    "ok",
    "result_text",
]

_LAZY = {
    "Conversation": "_conversation",
    "ToolCall": "_conversation",
    "WatchedMemoryTool": "_conversation",
    "ScriptedEndpoint": "_endpoint",
    "ScriptedRequest": "_endpoint",
    "MEMORY_TOOL": "_script",
    "Expect": "_script",
    "Turn": "_script",
    "error": "_script",
    "ok": "_script",
    "result_text": "_script",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value
