"""The README's fenced code blocks, found by the heading they sit under.

A test that runs an example asks for the blocks of one section (the text between a
heading and the next heading of any level) in one language. A heading that is gone
or appears twice, or a section that does not hold exactly the blocks the test runs,
fails the test: an example is never skipped because the README was reordered, and
one added beside it is not left unrun.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[2] / "README.md"

_HEADING = re.compile(r"#{1,6}\s+(?P<title>.*?)\s*")
_FENCE = re.compile(r"(?P<indent>\s*)(?P<fence>`{3,}|~{3,})(?P<language>[\w+-]*)\s*")


@dataclass(frozen=True, slots=True)
class Block:
    """One fenced block: its language, its text (the fence's indentation removed), and
    the README line its text starts on."""

    language: str
    text: str
    line: int

    def where(self) -> str:
        return f"{README.name}:{self.line}"


def sections(text: str) -> list[tuple[str, list[Block]]]:
    """Each heading and the fenced blocks under it, in order; a line inside a fence
    (a shell comment, say) is never a heading."""
    found: list[tuple[str, list[Block]]] = [("", [])]
    lines = text.splitlines()
    number = 0
    while number < len(lines):
        line = lines[number]
        number += 1
        fence = _FENCE.fullmatch(line)
        if fence is None:
            heading = _HEADING.fullmatch(line)
            if heading is not None:
                found.append((heading["title"], []))
            continue
        start, indent = number, len(fence["indent"])
        while number < len(lines) and lines[number].strip() != fence["fence"]:
            number += 1
        body = [piece[indent:] for piece in lines[start:number]]
        found[-1][1].append(Block(fence["language"], "\n".join(body) + "\n", start + 1))
        number += 1  # the closing fence
    return found


def blocks(heading: str, language: str, count: int) -> list[Block]:
    """The ``count`` blocks in ``language`` under ``heading``, or the test fails saying
    what the README holds instead."""
    matching = [held for title, held in sections(README.read_text("utf-8")) if title == heading]
    if len(matching) != 1:
        pytest.fail(f"{README.name}: {len(matching)} headings {heading!r}, expected one")
    chosen = [b for b in matching[0] if b.language == language]
    if len(chosen) != count:
        pytest.fail(
            f"{README.name}: {len(chosen)} {language} blocks under {heading!r}, expected {count} "
            f"(at lines {[b.line for b in chosen]}): update tests/unit/test_readme.py with it"
        )
    return chosen
