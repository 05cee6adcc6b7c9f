"""Text for a person at a terminal: colour when the stream is one, plain text on a pipe.

``demo`` and ``chat`` print through :class:`Show`; every string that came from
outside (a model's words, a path, a tool result) is printed as plain text, never
parsed as markup, and with its control characters shown as escapes.
"""

from __future__ import annotations

import textwrap
from typing import IO, TYPE_CHECKING

from rich.console import Console
from rich.text import Text

from .._text import clean_text

if TYPE_CHECKING:
    from ..agent import ToolCall


PIPE_WIDTH = 100  # text blocks are wrapped here on a pipe, to the window on a terminal


def _is_terminal(stream: IO[str]) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class Show:
    """Lines on ``stream``, styled on a terminal (rich honours ``NO_COLOR``)."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream
        self.terminal = _is_terminal(stream)
        self._console = Console(
            file=stream,
            force_terminal=self.terminal,
            no_color=None if self.terminal else True,  # None: rich reads $NO_COLOR
            markup=False,
            highlight=False,
            emoji=False,
        )

    def line(self, *parts: tuple[str, str] | str) -> None:
        """One line of ``parts``: plain strings, or (text, style) pairs."""
        text = Text()
        for part in parts:
            if isinstance(part, str):
                text.append(clean_text(part))
            else:
                text.append(clean_text(part[0]), style=part[1])
        self._console.print(text, soft_wrap=True)
        self.stream.flush()

    def blank(self) -> None:
        self._console.print(soft_wrap=True)

    def heading(self, text: str) -> None:
        self.blank()
        self.line((text, "bold"))

    def block(self, label: str, text: str, style: str = "bold") -> None:
        """``text`` beside a label, wrapped, its later lines indented to line up."""
        width = max(30, (self._console.width if self.terminal else PIPE_WIDTH) - len(label) - 4)
        rows = [
            piece
            for row in text.split("\n")
            for piece in textwrap.wrap(clean_text(row), width, break_on_hyphens=False) or [""]
        ]
        for index, row in enumerate(rows):
            head = (label, style) if index == 0 else " " * len(label)
            self.line("   ", head, " ", row)


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def findings_text(findings: tuple[tuple[str, int], ...]) -> str:
    """``(("api_key", 1), ("email", 2))`` as ``1 api key, 2 emails``."""
    return ", ".join(plural(n, clean_text(kind).replace("_", " ")) for kind, n in findings)


def describe_call(call: ToolCall) -> str:
    """One line for one memory command: what it did to which path, what was filtered out."""
    command = call.command or "(not a command)"
    if call.is_error:
        return f"{command}: {call.message}"
    text = " ".join([command, " -> ".join(call.paths)]).rstrip()
    if call.findings:
        text += f"  (filtered out: {findings_text(call.findings)})"
    return text
