"""What messages echo of the model's input: redacted whole before it is escaped or cut,
screened again after, and screened in the NFC form names are kept in
(docs/protocol.md §1.2, §8.1, §8.3)."""

from __future__ import annotations

import pytest
from anthropic.lib.tools import ToolError
from hypothesis import given, settings
from hypothesis import strategies as st

from memvault import CommandError, MemoryTool, PathError
from memvault.memory import Screen, parse_command
from memvault.redaction import load

COMMANDS = "Use one of: view, create, str_replace, insert, delete, rename."
SUFFIX = ". Use /memories or a path below it, such as /memories/notes.md."
EMAIL = "jane.doe@acme-health.io"
AWS_ID = "AKIAQ3EGRT5XJ7KLMN2P"
KELVIN_ID = "A\u212aIAQ3EGRT5XJ7KLMN2P"  # U+212A KELVIN SIGN: NFC makes it AWS_ID
SCREEN = Screen(load("default").redactor)


def refused(raw: object) -> str:
    with pytest.raises(CommandError) as exc:
        parse_command(raw, SCREEN)
    return exc.value.message


def passes_the_filter(text: str) -> bool:
    return SCREEN.redactor.scan(text) == []


# -- an unknown command's name --------------------------------------------------------


def test_an_unknown_command_is_redacted_before_it_is_cut() -> None:
    """Cut first at 40 characters, the address would lose its '.io' and pass unrecognized."""
    name = f"please run this for {EMAIL}"
    assert len(name) > 40
    assert refused({"command": name, "path": "/memories"}) == (
        f"Error: Unknown command please run this for [REDACTED:email]. {COMMANDS}"
    )


def test_a_long_command_name_is_still_cut_after_redaction() -> None:
    """Redaction first, then the cut at 40 characters, which an ellipsis marks."""
    name = f"{EMAIL} " + "x" * 60
    assert refused({"command": name, "path": "/memories"}) == (
        f"Error: Unknown command [REDACTED:email] {'x' * 23}…. {COMMANDS}"
    )


def test_no_cut_shows_part_of_a_value_the_whole_holds() -> None:
    """Wherever the cut falls, a value found in the whole never shows, not even in part."""
    name = f"please run this for {EMAIL} and {AWS_ID}, thanks"
    for limit in range(1, len(name) + 2):
        shown = SCREEN.echo(name, limit)
        assert "jane" not in shown
        assert "AKIA" not in shown
        assert passes_the_filter(shown)


def test_what_the_cut_makes_is_screened_again() -> None:
    """A cut can make a value the whole did not hold; the shown text is screened again."""
    name = "abcdefghijklmnopqrstuvwxyz01" + AWS_ID
    assert passes_the_filter(name)
    assert not passes_the_filter(name[:40])
    assert SCREEN.echo(name, 40) == "[REDACTED:api_key]…"


def test_escapes_do_not_undo_redaction() -> None:
    """Invisible characters around a value are escaped after it is redacted."""
    assert SCREEN.echo(f"\x00{EMAIL}\u202e\\", 120) == "\\x00[REDACTED:email]\\u202e\\\\"


# -- paths that do not encode ---------------------------------------------------------


def test_a_path_with_an_unpaired_surrogate_is_screened() -> None:
    """The surrogate's refusal shows the path redacted, the surrogate escaped."""
    message = refused({"command": "view", "path": f"/memories/{EMAIL}\ud800"})
    assert message == (
        "Error: The path /memories/[REDACTED:email]\\ud800 is not allowed: it contains the "
        f"control or invisible character U+D800{SUFFIX}"
    )
    message.encode()


def test_a_surrogate_inside_a_value_does_not_hide_it() -> None:
    """A surrogate is scanned as one replacement character: the value around it is found."""
    message = refused(
        {"command": "create", "path": f"/memories/{EMAIL}/\udc80{AWS_ID}", "file_text": "x"}
    )
    assert message == (
        "Error: The path /memories/[REDACTED:email]/\\udc80[REDACTED:api_key] is not allowed: "
        f"it contains the control or invisible character U+DC80{SUFFIX}"
    )


def test_render_never_returns_an_unpaired_surrogate() -> None:
    """What a record or a message may carry whole encodes as UTF-8."""
    assert SCREEN.render(f"/memories/{EMAIL}\ud800") == "/memories/[REDACTED:email]\ufffd"


# -- names in the form they are stored ------------------------------------------------


def test_a_name_is_screened_in_nfc() -> None:
    """KELVIN SIGN K is K in NFC: the AWS key id that NFC spells out is refused."""
    assert refused(
        {"command": "create", "path": f"/memories/{KELVIN_ID}.md", "file_text": "x"}
    ) == (
        "Error: The path /memories/[REDACTED:api_key].md was refused: it contains an api key. "
        "File and directory names must not carry secrets or personal data; choose another name."
    )
    assert refused(
        {"command": "rename", "old_path": "/memories/a", "new_path": f"/memories/d/{KELVIN_ID}"}
    ).startswith("Error: The path /memories/d/[REDACTED:api_key] was refused: it contains")


def test_an_existing_name_found_in_nfc_is_echoed_redacted() -> None:
    """A path that names something that exists is reached, and echoed in NFC, redacted."""
    command = parse_command({"command": "view", "path": f"/memories/{KELVIN_ID}.md"}, SCREEN)
    assert command.path.text == "/memories/[REDACTED:api_key].md"  # type: ignore[union-attr]
    assert command.path.parts == (f"{AWS_ID}.md",)  # type: ignore[union-attr]


def test_a_guard_refusal_of_a_name_found_in_nfc_is_redacted() -> None:
    """The guard's own refusal shows the path as the screen does, never the NFC value."""
    with pytest.raises(PathError) as exc:
        parse_command({"command": "view", "path": f"/memories/{KELVIN_ID}/../x"}, SCREEN)
    assert exc.value.message == (
        "Error: The path /memories/[REDACTED:api_key]/../x is not allowed: "
        f"it contains a '..' segment{SUFFIX}"
    )


def test_a_smuggled_key_never_reaches_a_listing(tool: MemoryTool) -> None:
    """Through the tool: the create is refused, and the listing stays empty."""
    with pytest.raises(ToolError) as exc:
        tool.call({"command": "create", "path": f"/memories/{KELVIN_ID}.md", "file_text": "x"})
    assert "[REDACTED:api_key]" in str(exc.value.content)
    listing = tool.call({"command": "view", "path": "/memories"})
    assert AWS_ID not in listing
    assert listing.endswith("\n0B\t/memories")


# -- properties -------------------------------------------------------------------------

VALUES = [EMAIL, AWS_ID, "4111 1111 1111 1111", "078-05-1120"]
NOISE = st.text(
    st.sampled_from([*"ab .-@/_\\x0", "\x00", "\u200b", "\ud800", "\u212a", "é"]),
    max_size=30,
)


@settings(max_examples=300, deadline=None)
@given(NOISE, st.sampled_from(VALUES), NOISE, st.integers(1, 80))
def test_every_echo_passes_the_filter(before: str, value: str, after: str, limit: int) -> None:
    """Whatever surrounds a value and wherever the cut falls, the echo is screened text."""
    shown = SCREEN.echo(f"{before} {value} {after}", limit)
    shown.encode()
    assert passes_the_filter(shown)
