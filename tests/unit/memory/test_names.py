"""Names the guard refuses because of how they look: blank, space-edged or invisible names,
IIS-style escapes, and look-alikes of '.' and '/' (docs/protocol.md §8.2); and the names in
every script that it must keep accepting."""

from __future__ import annotations

import unicodedata

import pytest
from anthropic.lib.tools import ToolError
from hypothesis import given, settings
from hypothesis import strategies as st

from memvault import MemoryTool, PathError
from memvault.memory import parse_path

SUFFIX = ". Use /memories or a path below it, such as /memories/notes.md."
BLANK = "a name in it is blank or made only of invisible characters"
PERCENT = "it contains a percent-encoded sequence (paths are never URL-decoded)"


def reason(path: str) -> str:
    """The reason of the guard's refusal of ``path`` (shown unescaped: no controls in it)."""
    with pytest.raises(PathError) as exc:
        parse_path(path)
    message = str(exc.value)
    prefix = f"Error: The path {path} is not allowed: "
    assert message.startswith(prefix), message
    assert message.endswith(SUFFIX)
    return message[len(prefix) : -len(SUFFIX)]


def described(ch: str) -> str:
    return f"U+{ord(ch):04X} ({unicodedata.name(ch)})"


def lookalike(ch: str) -> str:
    return f"it contains {described(ch)}, a look-alike of '.' or '/'"


def edged(ch: str) -> str:
    return f"a name in it begins or ends with the space or invisible character {described(ch)}"


# -- look-alikes of '.' and '/' ---------------------------------------------------------

# Every one is refused wherever it stands in a path.
LOOKALIKES = [
    "\u2216",  # SET MINUS
    "\u27cb",  # MATHEMATICAL RISING DIAGONAL
    "\u27cd",  # MATHEMATICAL FALLING DIAGONAL
    "\u2044",  # FRACTION SLASH
    "\u2215",  # DIVISION SLASH
    "\u29f8",  # BIG SOLIDUS
    "\u29f9",  # BIG REVERSE SOLIDUS
    "\u2571",  # BOX DRAWINGS LIGHT DIAGONAL UPPER RIGHT TO LOWER LEFT
    "\u2572",  # BOX DRAWINGS LIGHT DIAGONAL UPPER LEFT TO LOWER RIGHT
    "\u1735",  # PHILIPPINE SINGLE PUNCTUATION
    "\u2041",  # CARET INSERTION POINT
    "\u31d3",  # CJK STROKE SP
    "\u31d4",  # CJK STROKE D
    "\u2f02",  # KANGXI RADICAL DOT
    "\u2f03",  # KANGXI RADICAL SLASH
    "\uff0f",  # FULLWIDTH SOLIDUS
    "\uff0e",  # FULLWIDTH FULL STOP
    "\uff3c",  # FULLWIDTH REVERSE SOLIDUS
    "\u3002",  # IDEOGRAPHIC FULL STOP
    "\u2024",  # ONE DOT LEADER
    "\u2025",  # TWO DOT LEADER
    "\u2026",  # HORIZONTAL ELLIPSIS
    "\ufe52",  # SMALL FULL STOP
    "\U00010a50",  # KHAROSHTHI PUNCTUATION DOT
    "\u0337",  # COMBINING SHORT SOLIDUS OVERLAY
    "\u0338",  # COMBINING LONG SOLIDUS OVERLAY
    "\u20e5",  # COMBINING REVERSE SOLIDUS OVERLAY
    "\u20eb",  # COMBINING LONG DOUBLE SOLIDUS OVERLAY
]
# Lisu tone letters read as '.', '..' and '.,' unless they follow a Lisu letter.
LISU_TONES = ["\ua4f8", "\ua4fa", "\ua4fb"]


@pytest.mark.parametrize("ch", LOOKALIKES + LISU_TONES, ids=lambda ch: f"U+{ord(ch):04X}")
def test_lookalikes_are_refused_with_their_name(ch: str) -> None:
    """Each look-alike is refused, named by code point and Unicode name."""
    for path in (f"/memories/{ch}{ch}/x", f"/memories/a{ch}b", f"/memories/x/{ch}"):
        assert reason(path) == lookalike(ch)


def test_lookalike_refusals_exactly() -> None:
    """The look-alikes of '..' the review named, pinned word for word."""
    with pytest.raises(PathError) as exc:
        parse_path("/memories/\ua4f8\ua4f8/secrets")
    assert str(exc.value) == (
        "Error: The path /memories/\ua4f8\ua4f8/secrets is not allowed: it contains U+A4F8 "
        "(LISU LETTER TONE MYA TI), a look-alike of '.' or '/'. Use /memories or a path "
        "below it, such as /memories/notes.md."
    )
    assert reason("/memories/\u0660\u0660/x") == (
        "it contains a '\u0660\u0660' segment, a look-alike of '..'"
    )
    assert reason("/memories/.\u06f0") == "it contains a '.\u06f0' segment, a look-alike of '..'"
    assert reason("/memories/\u0660") == "it contains a '\u0660' segment, a look-alike of '.'"
    assert reason("/memories/a\u2216b") == (
        "it contains U+2216 (SET MINUS), a look-alike of '.' or '/'"
    )
    assert reason("/memories/a\u0338b") == (
        "it contains U+0338 (COMBINING LONG SOLIDUS OVERLAY), a look-alike of '.' or '/'"
    )


def _plain(ch: str) -> bool:
    """A letter or digit the guard accepts anywhere in a name, and NFC keeps as it is."""
    if unicodedata.normalize("NFC", ch) != ch or ch in "\u0660\u06f0":
        return False
    try:
        parse_path(f"/memories/x{ch}")
    except PathError:
        return False  # a look-alike (a Lisu tone letter, NFKC '1.') or a Hangul filler
    return True


NAME_CHARS = st.characters(categories=["L", "N"], max_codepoint=0xFFFF).filter(_plain)
PLAIN_NAMES = st.text(NAME_CHARS, min_size=1, max_size=8)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(PLAIN_NAMES, min_size=1, max_size=3),
    st.sampled_from(LOOKALIKES),
    st.integers(0, 40),
)
def test_every_lookalike_is_refused_wherever_it_stands(names: list[str], ch: str, at: int) -> None:
    """A look-alike of '.' or '/' put anywhere below /memories is refused as one."""
    text = "/memories/" + "/".join(names)
    at = min(len("/memories/") + at, len(text))
    path = text[:at] + ch + text[at:]
    with pytest.raises(PathError) as exc:
        parse_path(path)
    assert "a look-alike of '.' or '/'" in str(exc.value)


@settings(max_examples=100, deadline=None)
@given(st.text(st.sampled_from(".\u0660\u06f0"), min_size=1, max_size=6))
def test_segments_of_dots_and_dot_digits_only_are_refused(segment: str) -> None:
    """A name of dots and dot-like zeros only is refused, whatever the mix."""
    with pytest.raises(PathError) as exc:
        parse_path(f"/memories/{segment}/x")
    assert f"it contains a '{segment[:8]}" in str(exc.value)


# -- percent escapes ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    ["/memories/%u002e%u002e/x", "/memories/a%u2215b", "/memories/%U002F", "/memories/x%uFF0E"],
)
def test_iis_percent_u_escapes_are_refused(path: str) -> None:
    """%uXXXX (IIS) is a percent escape like %2e: refused, never decoded."""
    assert reason(path) == PERCENT


def test_percent_signs_that_escape_nothing_are_kept() -> None:
    """A '%u' without four hex digits after it is plain text."""
    for name in ("%u", "%uzzzz", "%u12", "50%use.md", "100%"):
        assert parse_path(f"/memories/{name}").parts == (name,)


# -- blank, space-edged, invisible --------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [" ", "   ", "\u00a0", "\u3000", "\u2003\u2003", "\ufe0f", "\u034f", "\u180b", " \ufe0f"],
    ids=repr,
)
def test_blank_and_invisible_names_are_refused(name: str) -> None:
    """A name of spaces (of any kind) or invisible marks only is refused."""
    assert reason(f"/memories/{name}") == BLANK
    assert reason(f"/memories/{name}/x") == BLANK
    assert reason(f"/memories/a/{name}/") == BLANK


@pytest.mark.parametrize(
    ("name", "ch"),
    [
        (" notes.md", " "),
        ("notes.md ", " "),
        ("notes.md\u00a0", "\u00a0"),
        ("\u3000メモ", "\u3000"),
        ("notes\u2009", "\u2009"),
        ("\u202fx", "\u202f"),
        ("\ufe0fnotes", "\ufe0f"),
        ("notes.md\ufe0f", "\ufe0f"),
        ("notes\u034f", "\u034f"),
        ("a\u180b", "\u180b"),
    ],
    ids=repr,
)
def test_space_edged_names_are_refused(name: str, ch: str) -> None:
    """A name that begins or ends with a space, or an invisible mark, names the character."""
    assert reason(f"/memories/{name}") == edged(ch)
    assert reason(f"/memories/{name}/x") == edged(ch)


def test_space_edged_refusal_exactly() -> None:
    """The message, word for word, for a trailing space."""
    with pytest.raises(PathError) as exc:
        parse_path("/memories/notes.md ")
    assert str(exc.value) == (
        "Error: The path /memories/notes.md  is not allowed: a name in it begins or ends with "
        "the space or invisible character U+0020 (SPACE). Use /memories or a path below it, "
        "such as /memories/notes.md."
    )


@pytest.mark.parametrize("ch", ["\u3164", "\u115f", "\u1160", "\uffa0", "\u2800", "\u17b4"])
def test_characters_that_draw_nothing_are_refused_anywhere(ch: str) -> None:
    """Hangul fillers and the blank Braille pattern are refused like zero-width characters."""
    expected = f"it contains the control or invisible character {described(ch)}"
    for path in (f"/memories/{ch}", f"/memories/a{ch}b", f"/memories/notes{ch}.md"):
        assert reason(path) == expected


@settings(max_examples=200, deadline=None)
@given(
    PLAIN_NAMES,
    st.sampled_from([" ", "\u00a0", "\u2000", "\u2007", "\u3000", "\u205f", "\u1680"]),
    st.booleans(),
)
def test_any_space_at_either_edge_is_refused(name: str, space: str, front: bool) -> None:
    """Whatever the space and whatever the name, a space at its edge is refused; the
    reason names it as the NFC form has it (U+2000 EN QUAD is U+2002 EN SPACE)."""
    edged_name = space + name if front else name + space
    assert reason(f"/memories/{edged_name}") == edged(unicodedata.normalize("NFC", space))


# -- names that must keep working ---------------------------------------------------------

ACCEPTED = [
    "my notes.md",
    "meeting notes 2025-06.md",
    "会議メモ.md",
    "プロジェクト メモ",
    "ملاحظات ٢٠٢٥.md",
    "تقرير ۱۴۰۳",
    "टिप्पणी.md",
    "हिंदी नोट्स",
    "한국어 메모.txt",
    "บันทึก.md",
    "הערות.md",
    "Заметки.md",
    "σημειώσεις.md",
    "笔记.txt",
    "❤\ufe0f.md",
    "I \u2764\ufe0f",
    "\ua4e1\ua4f2\ua4f8",  # a Lisu word ending with a tone letter
    "café.md",
    "cafe\u0301.md",
    "x\u0307",  # a combining dot above, composed by NFC where it can be
    "a..b",
    "..a",
    "a.",
    "50%off.txt",
    "≠.md",
]


@pytest.mark.parametrize("name", ACCEPTED)
def test_names_in_every_script_are_accepted(name: str) -> None:
    """Text names in many scripts, with spaces inside, emoji and accents, pass as before."""
    expected = unicodedata.normalize("NFC", name)
    assert parse_path(f"/memories/{name}").parts == (expected,)
    assert parse_path(f"/memories/dir/{name}/").parts == ("dir", expected)


def test_accepted_names_round_trip_through_the_tool(tool: MemoryTool) -> None:
    """Each accepted name is created, listed and read back under its own path."""
    for i, name in enumerate(ACCEPTED):
        path = f"/memories/{i}/{name}"
        tool.call({"command": "create", "path": path, "file_text": "x"})
        assert tool.call({"command": "view", "path": path}).endswith("\n     1\tx")
    listing = tool.call({"command": "view", "path": "/memories"})
    assert f"/memories/0/{ACCEPTED[0]}" in listing


def test_refused_names_reach_the_model_as_the_guard_says(tool: MemoryTool) -> None:
    """Through the tool, a space-edged or look-alike name is refused and nothing is made."""
    for path in ("/memories/notes.md ", "/memories/\u0660\u0660/x", "/memories/a%u002fb"):
        with pytest.raises(ToolError) as exc:
            tool.call({"command": "create", "path": path, "file_text": "x"})
        assert str(exc.value.content).startswith(f"Error: The path {path} is not allowed: ")
    assert tool.call({"command": "view", "path": "/memories"}).endswith("\n0B\t/memories")
