"""`memvault demo`: the documentation's customer-service example through the SDK's tool runner
and a scripted endpoint, end to end; and `--live`, which needs a key."""

from __future__ import annotations

import io
import re
import tempfile
import time
from pathlib import Path

import pytest

from memvault import Vault
from memvault.agent import DEFAULT_MODEL, ScriptedEndpoint, Turn, ok
from memvault.cli import main

SECRETS = (
    b"jane.doe@acme-health.io",
    b"4111 1111 1111 1111",
    b"4111111111111111",
    b"AKIAQ3EGRT5XJ7KLMN2P",
)
SECTIONS = (
    "1. A fresh vault, holding the support team's guidelines",
    "2. Claude answers a support ticket",
    "3. What the vault stored: filtered before it was encrypted",
    "4. The conversation's audit trail (memvault audit show --session demo-ticket-4711)",
    "5. The log verifies (memvault audit verify)",
    "6. On disk: ciphertext only",
)


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, out=out, err=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(autouse=True)
def _no_key(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.delenv("ANTHROPIC_BASE_URL", raising=False)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # the demo's home lands here


def test_demo_plays_the_ticket_and_shows_each_section() -> None:
    """The demo exits 0 in under 10 s, on a pipe with no colour, with its six sections in
    order, the tool calls Claude made, and every check passing."""
    started = time.monotonic()
    code, out, err = run(["demo"])
    elapsed = time.monotonic() - started
    assert (code, err) == (0, "")
    assert elapsed < 10, elapsed
    assert "\x1b[" not in out
    places = [out.index(s) for s in SECTIONS]
    assert places == sorted(places)
    assert re.search(r"a scripted Messages API at http://127\.0\.0\.1:\d+ \(--live: Claude\)", out)
    for line in (
        "   memory view /memories\n",
        "   memory view /memories/customer_service_guidelines.xml\n",
        "   memory view /memories/refund_policies.xml\n",
        "   memory create /memories/tickets/4711.md  "
        "(filtered out: 1 api key, 1 card number, 1 email)\n",
        "   4 requests, each checked by the endpoint: the memory tool declared, every tool "
        "result sent back and as expected\n",
        "   the ticket's e-mail address, card number and API key: none is in what was stored\n",
        "   none found\n",
    ):
        assert line in out
    assert "   claude Here is a reply you can send:" in out
    assert re.search(r"\n   audit log intact: \d+ records in 1 segment", out)
    stored = out[out.index(SECTIONS[2]) : out.index(SECTIONS[3])]
    assert "- contact: [REDACTED:email]" in stored
    assert "- card: [MASKED:card_number:1111]" in stored
    assert "- integration key: [REDACTED:api_key]" in stored
    assert re.search(r"Done in \d+\.\d s\.", out)


def test_demo_keeps_no_secret_anywhere_and_its_log_verifies(tmp_path: Path) -> None:
    """With --keep, the home is left: no byte of it holds the ticket's secrets, the note
    holds the redacted text, and `memvault audit verify` passes on it."""
    code, out, _ = run(["demo", "--keep"])
    assert code == 0
    found = re.search(r"Kept: home (\S+), master key (\S+)\n", out)
    assert found is not None
    home, key = Path(found[1]), Path(found[2])
    assert home.is_relative_to(tmp_path) and key.is_relative_to(tmp_path)
    for path in home.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            assert not [s for s in SECRETS if s in data], path
    with Vault.open(home, master_key_file=key) as vault:
        note = vault.memory_tool("support-desk").call(
            {"command": "view", "path": "/memories/tickets/4711.md"}
        )
    assert "[REDACTED:email]" in note and "[REDACTED:api_key]" in note
    assert not [s for s in SECRETS if s.decode() in note]
    code, out, err = run(["--home", str(home), "--master-key-file", str(key), "audit", "verify"])
    assert (code, err) == (0, "") and out.startswith("audit log intact: ")


def test_without_keep_the_demo_leaves_nothing(tmp_path: Path) -> None:
    """The temporary home and key are removed afterwards."""
    assert run(["demo"])[0] == 0
    assert list(tmp_path.glob("memvault-demo-*")) == []


def test_live_without_a_key_is_a_usage_error(tmp_path: Path) -> None:
    """--live without ANTHROPIC_API_KEY: exit 2, the reason and what to do, nothing made."""
    code, out, err = run(["demo", "--live"])
    assert (code, out) == (2, "")
    assert err == (
        "memvault: error: --live needs ANTHROPIC_API_KEY: the demo talks to Claude through the "
        "Anthropic API\n"
        "memvault: hint: export ANTHROPIC_API_KEY, or leave out --live to play the scripted "
        "conversation\n"
    )
    assert list(tmp_path.glob("memvault-demo-*")) == []


def test_live_talks_to_the_api_the_environment_names(monkeypatch: pytest.MonkeyPatch) -> None:
    """--live sends the conversation to $ANTHROPIC_BASE_URL with the key from the
    environment (here a scripted endpoint standing in for Claude), with --model."""
    turns = [
        Turn(calls=({"command": "view", "path": "/memories"},), user="Ticket #4711"),
        Turn(text="Nothing to note.", results=(ok("refund_policies.xml"),)),
    ]
    with ScriptedEndpoint(turns) as endpoint:
        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test")
        monkeypatch.setenv("ANTHROPIC_BASE_URL", endpoint.url)
        code, out, err = run(["demo", "--live", "--model", "claude-haiku-5-5"])
    assert (code, err) == (0, ""), err
    assert endpoint.finished and endpoint.failures == []
    assert endpoint.requests[0].body is not None
    assert endpoint.requests[0].body["model"] == "claude-haiku-5-5" != DEFAULT_MODEL
    assert "over HTTP to the Messages API (--live)" in out
    assert "   Claude wrote no memory in this conversation.\n" in out
