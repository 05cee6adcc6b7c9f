"""No oracle in str_replace's errors: a miss never shows the pseudonym (or the masked
tail) of the model's guess, only ``[REDACTED:kind]`` (docs/protocol.md §1.2, §4)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from anthropic.lib.tools import ToolError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memvault import MemoryTool, Vault

FILE = "/memories/contacts.md"
STORED = "jane.doe@acme-health.io"
PSEUDONYM = re.compile(r"\[PSEUDONYM:email:[0-9a-f]{10}\]")


@pytest.fixture
def pseudonymizing(home: Path, tmp_path: Path) -> Iterator[MemoryTool]:
    policy = tmp_path / "policy.toml"
    policy.write_text('version = 1\n[detectors]\nemail = "pseudonymize"\n')
    with Vault.open(home, policy=policy, durability="normal") as v:
        tool = v.memory_tool("alice")
        tool.call({"command": "create", "path": FILE, "file_text": f"contact {STORED}\n"})
        yield tool


def refused(tool: MemoryTool, old_str: str) -> str:
    with pytest.raises(ToolError) as exc:
        tool.call({"command": "str_replace", "path": FILE, "old_str": old_str, "new_str": "x"})
    return str(exc.value.content)


def test_a_missed_guess_does_not_echo_its_pseudonym(pseudonymizing: MemoryTool) -> None:
    """The guess is echoed as [REDACTED:email], never as a token to compare with the file."""
    assert refused(pseudonymizing, "john.roe@acme-health.io") == (
        "No replacement was performed, old_str `[REDACTED:email]` did not appear verbatim "
        "in /memories/contacts.md."
    )
    assert refused(pseudonymizing, "write to john.roe@acme-health.io") == (
        "No replacement was performed, old_str `write to [REDACTED:email]` did not appear "
        "verbatim in /memories/contacts.md."
    )


def test_several_matches_do_not_echo_the_pseudonym(pseudonymizing: MemoryTool) -> None:
    """The "Multiple occurrences" error shows the kind only, too."""
    pseudonymizing.call(
        {"command": "insert", "path": FILE, "insert_line": 1, "insert_text": f"cc {STORED}"}
    )
    assert refused(pseudonymizing, STORED) == (
        "No replacement was performed. Multiple occurrences of old_str `[REDACTED:email]` "
        "in lines: 1, 2. Please ensure it is unique"
    )


def test_a_masked_tail_is_not_echoed_either(tool: MemoryTool) -> None:
    """Under the default policy a card is masked when stored; a miss shows the kind alone."""
    tool.call({"command": "create", "path": FILE, "file_text": "card 4111 1111 1111 1111\n"})
    with pytest.raises(ToolError) as exc:
        tool.call(
            {
                "command": "str_replace",
                "path": FILE,
                "old_str": "5555 5555 5555 4444",
                "new_str": "x",
            }
        )
    assert exc.value.content == (
        "No replacement was performed, old_str `[REDACTED:card_number]` did not appear "
        "verbatim in /memories/contacts.md."
    )


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.from_regex(r"[a-z]{1,8}\.[a-z]{1,8}@[a-z]{2,8}\.(com|org|io)", fullmatch=True))
def test_no_miss_ever_shows_a_pseudonym(pseudonymizing: MemoryTool, guess: str) -> None:
    """Whatever address is guessed, the error holds no pseudonym, and nothing is changed."""
    if guess == STORED:
        return
    message = refused(pseudonymizing, guess)
    assert not PSEUDONYM.search(message)
    assert "[REDACTED:email]" in message
    view = pseudonymizing.call({"command": "view", "path": FILE})
    assert PSEUDONYM.search(view)  # the file keeps its pseudonym, which view shows
