"""How a conversation asks for Claude: the model, the documented memory prompt, context editing.

The system prompt is the memory protocol Anthropic's memory tool documentation
gives ("Prompting guidance"), word for word. Context editing is the documented
``clear_tool_uses_20250919`` edit, sent as ``context_management`` with the
``context-management-2025-06-27`` beta (the beta the memory tool needs too).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..memory import MEMORY_PROTOCOL_PROMPT

DEFAULT_MODEL = "claude-sonnet-5-5"
DEFAULT_MAX_TOKENS = 4096
CONTEXT_MANAGEMENT_BETA = "context-management-2025-06-27"

# The prompt that makes Claude look at its memory first and record progress as it goes.
MEMORY_PROTOCOL = MEMORY_PROTOCOL_PROMPT


@dataclass(frozen=True, slots=True)
class ContextEditing:
    """``clear_tool_uses_20250919``: once a request's input passes ``clear_at_tokens``,
    the API clears the oldest tool results, keeping the newest ``keep_tool_uses``.
    The memory tool's own uses are left alone unless ``clear_memory`` is set (the
    documentation's advice: Claude keeps its recent memory operations in view)."""

    clear_at_tokens: int = 100_000
    keep_tool_uses: int = 3
    clear_memory: bool = False

    def __post_init__(self) -> None:
        if self.clear_at_tokens < 1 or self.keep_tool_uses < 0:
            raise ValueError("clear_at_tokens must be positive and keep_tool_uses not negative")

    def param(self) -> dict[str, Any]:
        """The request's ``context_management`` field."""
        edit: dict[str, Any] = {
            "type": "clear_tool_uses_20250919",
            "trigger": {"type": "input_tokens", "value": self.clear_at_tokens},
            "keep": {"type": "tool_uses", "value": self.keep_tool_uses},
        }
        if not self.clear_memory:
            edit["exclude_tools"] = ["memory"]
        return {"edits": [edit]}


@dataclass(frozen=True, slots=True)
class Settings:
    """What every request of a conversation carries besides its messages."""

    model: str = DEFAULT_MODEL
    max_tokens: int = DEFAULT_MAX_TOKENS
    system: str = MEMORY_PROTOCOL
    context_editing: ContextEditing | None = field(default_factory=ContextEditing)
    max_requests: int = 50  # per user message: a model that never stops calling tools is cut off
