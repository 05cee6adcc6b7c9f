"""The path guard: what it accepts, what it refuses and why, and that nothing escapes."""

from __future__ import annotations

import itertools
import posixpath
import re
import unicodedata
import urllib.parse
from pathlib import Path

import pytest
from anthropic.lib.tools import ToolError
from hypothesis import given, settings
from hypothesis import strategies as st

from memvault import MemoryTool, PathError, Vault
from memvault._text import show
from memvault.memory import MAX_DEPTH, MAX_NAME_BYTES, MAX_PATH_BYTES, MemoryPath, parse_path

SUFFIX = ". Use /memories or a path below it, such as /memories/notes.md."
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
LOOKALIKES = frozenset("\uff0e\uff0f\u2024\u2025\ufe52\u2215\u2044\u29f8\u3002\uff61\uff05")
EMPTY_ROOT = (
    "Here're the files and directories up to 2 levels deep in /memories, "
    "excluding hidden items and node_modules:\n0B\t/memories"
)


def refusal(path: object) -> str:
    """The message of the PathError that parse raises for ``path``."""
    with pytest.raises(PathError) as exc:
        parse_path(path)
    return str(exc.value)


def refusal_reason(path: str) -> str:
    """The reason in a refusal, after checking the message names the path as ``show`` does."""
    message = refusal(path)
    prefix = f"Error: The path {show(path)} is not allowed: "
    assert message.startswith(prefix)
    assert message.endswith(SUFFIX)
    return message[len(prefix) : -len(SUFFIX)]


def deep_path(depth: int) -> str:
    return "/memories/" + "/".join(f"d{i}" for i in range(depth))


def long_path(size: int) -> str:
    """A path of exactly ``size`` UTF-8 bytes made of 200-byte names."""
    text = "/memories"
    while len(text) + 201 < size:
        text += "/" + "n" * 200
    return text + "/" + "n" * (size - len(text) - 1)


# -- accepted ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "parts", "trailing"),
    [
        ("/memories", (), False),
        ("/memories/", (), True),
        ("/memories/a.txt", ("a.txt",), False),
        ("/memories/dir/", ("dir",), True),
        ("/memories/a/b/c.md", ("a", "b", "c.md"), False),
        ("/memories/projects/2025/q3/", ("projects", "2025", "q3"), True),
        ("/memories/my notes.txt", ("my notes.txt",), False),
        ("/memories/café.md", ("café.md",), False),
        ("/memories/日本語/メモ.txt", ("日本語", "メモ.txt"), False),
        ("/memories/😀.txt", ("😀.txt",), False),
        ("/memories/.hidden", (".hidden",), False),
        ("/memories/.config/x", (".config", "x"), False),
        ("/memories/a..b", ("a..b",), False),
        ("/memories/..a", ("..a",), False),
        ("/memories/a.", ("a.",), False),
        ("/memories/50%off.txt", ("50%off.txt",), False),
        ("/memories/100%", ("100%",), False),
        ("/memories/%zz", ("%zz",), False),
        ("/memories/node_modules", ("node_modules",), False),
    ],
)
def test_accepted_paths(path: str, parts: tuple[str, ...], trailing: bool) -> None:
    """Plain, nested, spaced, unicode, hidden and %-containing names are accepted as given."""
    result = parse_path(path)
    assert result == MemoryPath(path, parts, trailing)
    assert result.is_root == (parts == ())


def test_root_spellings_are_root() -> None:
    """/memories and /memories/ are the root; a trailing slash is recorded, not dropped."""
    assert parse_path("/memories").is_root
    assert not parse_path("/memories").trailing_slash
    assert parse_path("/memories/").is_root
    assert parse_path("/memories/").trailing_slash
    assert not parse_path("/memories/a").is_root
    assert parse_path("/memories/dir/").parts == parse_path("/memories/dir").parts
    assert parse_path("/memories/dir/").trailing_slash
    assert not parse_path("/memories/dir").trailing_slash


def test_limits_are_inclusive() -> None:
    """A 255-byte name, a 1024-byte path and 32 levels are accepted: the limits themselves."""
    assert parse_path("/memories/" + "a" * MAX_NAME_BYTES).parts == ("a" * MAX_NAME_BYTES,)
    name = "é" * 127 + "a"
    assert len(name.encode()) == MAX_NAME_BYTES
    assert parse_path("/memories/" + name).parts == (name,)
    text = long_path(MAX_PATH_BYTES)
    assert len(text.encode()) == MAX_PATH_BYTES
    assert parse_path(text).parts == tuple(text.split("/")[2:])
    assert len(parse_path(deep_path(MAX_DEPTH)).parts) == MAX_DEPTH
    assert len(parse_path(deep_path(MAX_DEPTH) + "/").parts) == MAX_DEPTH


def test_nfc_spellings_are_the_same_path() -> None:
    """A name typed with a combining accent parses to its precomposed (NFC) spelling."""
    decomposed = parse_path("/memories/cafe\u0301/notes")
    precomposed = parse_path("/memories/caf\u00e9/notes")
    assert decomposed.parts == precomposed.parts == ("caf\u00e9", "notes")
    assert decomposed.text == "/memories/cafe\u0301/notes"


def test_nfc_spellings_reach_the_same_file(tool: MemoryTool) -> None:
    """A file created under one spelling is read, refused as existing and listed once."""
    assert tool.call(
        {"command": "create", "path": "/memories/cafe\u0301.md", "file_text": "espresso"}
    ) == ("File created successfully at: /memories/cafe\u0301.md")
    assert tool.call({"command": "view", "path": "/memories/caf\u00e9.md"}) == (
        "Here's the content of /memories/caf\u00e9.md with line numbers:\n     1\tespresso"
    )
    with pytest.raises(ToolError) as exc:
        tool.call({"command": "create", "path": "/memories/caf\u00e9.md", "file_text": "x"})
    assert exc.value.content == "Error: File /memories/caf\u00e9.md already exists"
    listing = tool.call({"command": "view", "path": "/memories"})
    assert listing.splitlines()[1:] == ["8B\t/memories", "8B\t/memories/caf\u00e9.md"]


# -- refused -------------------------------------------------------------------------

DOTS = "it contains a '..' segment"
DOT = "it contains a '.' segment"
BACKSLASH = "it contains a backslash"
PERCENT = "it contains a percent-encoded sequence (paths are never URL-decoded)"
OUTSIDE = "it is not /memories or below it"
EMPTY_SEGMENT = "it contains an empty segment ('//')"


def invisible(ch: str) -> str:
    name = unicodedata.name(ch, "")
    described = f"U+{ord(ch):04X} ({name})" if name else f"U+{ord(ch):04X}"
    return f"it contains the control or invisible character {described}"


def lookalike(ch: str) -> str:
    return f"it contains U+{ord(ch):04X} ({unicodedata.name(ch)}), a look-alike of '.' or '/'"


@pytest.mark.parametrize(
    ("path", "reason"),
    [
        ("/memories/../x", DOTS),
        ("/memories/a/../../x", DOTS),
        ("/memories/..", DOTS),
        ("/memories/../", DOTS),
        ("/memories/a/..", DOTS),
        ("/memories/./x", DOT),
        ("/memories/a/.", DOT),
        ("/memories/.", DOT),
        ("/memories/...", "it contains a '...' segment"),
        ("/memories/" + "." * 20, "it contains a '........…' segment"),
        ("/memories\\..\\x", BACKSLASH),
        ("/memories/a\\b", BACKSLASH),
        ("/memories/..\\..\\etc", BACKSLASH),
        ("/memories/%2e%2e%2fetc", PERCENT),
        ("/memories/%2E%2E/x", PERCENT),
        ("/memories/%252e%252e%252f", PERCENT),
        ("/memories/a%2fb", PERCENT),
        ("/memories/a%2Fb", PERCENT),
        ("/memories/a%00", PERCENT),
        ("/memories/%5c", PERCENT),
        ("%2e%2e%2f", PERCENT),
        ("/memoriesX", OUTSIDE),
        ("/memories-evil/x", OUTSIDE),
        ("/memories.txt", OUTSIDE),
        ("/Memories/x", OUTSIDE),
        ("memories/x", OUTSIDE),
        ("memories", OUTSIDE),
        ("/x", OUTSIDE),
        ("/", OUTSIDE),
        ("//memories", OUTSIDE),
        ("/etc/passwd", OUTSIDE),
        (" /memories", OUTSIDE),
        ("/memories//x", EMPTY_SEGMENT),
        ("/memories/a//b", EMPTY_SEGMENT),
        ("/memories/a//", EMPTY_SEGMENT),
    ],
)
def test_refused_paths(path: str, reason: str) -> None:
    """Traversal, backslashes, percent-encoding and foreign prefixes are refused, with why."""
    assert refusal_reason(path) == reason


@pytest.mark.parametrize(
    "ch",
    [
        "\x00",
        "\n",
        "\r",
        "\t",
        "\x7f",
        "\x1b",
        "\x85",
        "\u200b",
        "\u200d",
        "\u202e",
        "\u2066",
        "\ufeff",
        "\ud800",
        "\udfff",
        "\u2028",
        "\u2029",
        "\U000e0041",
    ],
    ids=lambda ch: f"U+{ord(ch):04X}",
)
def test_control_and_invisible_characters_are_refused(ch: str) -> None:
    """Controls, format characters, lone surrogates and line separators are refused anywhere."""
    for path in (f"/memories/a{ch}b", f"/memories/{ch}", f"{ch}/memories", f"/memories{ch}"):
        assert refusal_reason(path) == invisible(ch)


@pytest.mark.parametrize(
    "ch",
    [
        "\uff0e",  # FULLWIDTH FULL STOP
        "\uff0f",  # FULLWIDTH SOLIDUS
        "\u2024",  # ONE DOT LEADER
        "\u2025",  # TWO DOT LEADER
        "\ufe52",  # SMALL FULL STOP
        "\u2215",  # DIVISION SLASH
        "\u2044",  # FRACTION SLASH
        "\u29f8",  # BIG SOLIDUS
        "\u3002",  # IDEOGRAPHIC FULL STOP
        "\uff61",  # HALFWIDTH IDEOGRAPHIC FULL STOP
        "\uff05",  # FULLWIDTH PERCENT SIGN
        "\ufe6a",  # SMALL PERCENT SIGN
        "\uff3c",  # FULLWIDTH REVERSE SOLIDUS
        "\u2100",  # ACCOUNT OF (NFKC: a/c)
    ],
    ids=lambda ch: f"U+{ord(ch):04X}",
)
def test_lookalikes_of_dot_slash_and_percent_are_refused(ch: str) -> None:
    """Characters that read or normalize as '.', '/', '\\' or '%' are refused."""
    for path in (f"/memories/{ch}{ch}/x", f"/memories/a{ch}b", f"/memories{ch}x"):
        assert refusal_reason(path) == lookalike(ch)


@pytest.mark.parametrize(
    ("name", "size"),
    [("a" * 256, 256), ("é" * 128, 256), ("日" * 86, 258), ("😀" * 64, 256)],
    ids=["ascii", "two-byte", "three-byte", "four-byte"],
)
def test_names_over_255_bytes_are_refused(name: str, size: int) -> None:
    """A name is measured in UTF-8 bytes, not characters: 128 x 'é' is too long."""
    assert len(name.encode()) == size
    reason = f"a name in it is {size} bytes long; the limit is 255"
    assert refusal_reason(f"/memories/{name}") == reason
    assert refusal_reason(f"/memories/dir/{name}/x") == reason


def test_paths_over_the_byte_limit_are_refused() -> None:
    """A path one byte over MAX_PATH_BYTES is refused, whatever its names."""
    text = long_path(MAX_PATH_BYTES + 1)
    assert refusal_reason(text) == "it is 1025 bytes long; the limit is 1024"
    assert refusal_reason("/memories/" + "é" * 600) == "it is 1210 bytes long; the limit is 1024"


def test_paths_deeper_than_the_limit_are_refused() -> None:
    """One segment more than MAX_DEPTH is refused, with or without a trailing slash."""
    assert (
        refusal_reason(deep_path(MAX_DEPTH + 1)) == "it is nested 33 levels deep; the limit is 32"
    )
    assert refusal_reason(deep_path(MAX_DEPTH + 1) + "/") == (
        "it is nested 33 levels deep; the limit is 32"
    )


@pytest.mark.parametrize(
    ("value", "type_name"),
    [(None, "null"), (5, "an integer"), (b"/memories", "bytes"), (["/memories"], "a list")],
)
def test_non_strings_are_refused(value: object, type_name: str) -> None:
    """A path that is not a string is refused, naming the field it came in."""
    assert refusal(value) == f"Error: `path` must be a string, got {type_name}."
    with pytest.raises(PathError) as exc:
        parse_path(value, "new_path")
    assert str(exc.value) == f"Error: `new_path` must be a string, got {type_name}."


def test_empty_path_is_refused() -> None:
    """The empty string is refused with its own message."""
    assert refusal("") == "Error: `path` is empty. Use /memories or a path below it."


def test_refusal_messages_exactly() -> None:
    """A few refusals pinned word for word: the path as shown, the reason, what to use instead."""
    assert refusal("/memories/../etc/passwd") == (
        "Error: The path /memories/../etc/passwd is not allowed: it contains a '..' segment. "
        "Use /memories or a path below it, such as /memories/notes.md."
    )
    assert refusal("/memories/a\x00b") == (
        "Error: The path /memories/a\\x00b is not allowed: it contains the control or invisible "
        "character U+0000. Use /memories or a path below it, such as /memories/notes.md."
    )
    assert refusal("/memories/\uff0e\uff0e/x") == (
        "Error: The path /memories/\uff0e\uff0e/x is not allowed: it contains U+FF0E (FULLWIDTH "
        "FULL STOP), a look-alike of '.' or '/'. Use /memories or a path below it, such as "
        "/memories/notes.md."
    )
    assert refusal("/memories/%2e%2e%2fetc") == (
        "Error: The path /memories/%2e%2e%2fetc is not allowed: it contains a percent-encoded "
        "sequence (paths are never URL-decoded). Use /memories or a path below it, such as "
        "/memories/notes.md."
    )
    assert refusal("/memoriesX") == (
        "Error: The path /memoriesX is not allowed: it is not /memories or below it. "
        "Use /memories or a path below it, such as /memories/notes.md."
    )


def test_refusal_reaches_the_model_unchanged(tool: MemoryTool) -> None:
    """Through the tool, a refused path is a ToolError carrying the guard's message."""
    with pytest.raises(ToolError) as exc:
        tool.call({"command": "view", "path": "/memories/../etc/passwd"})
    assert exc.value.content == refusal("/memories/../etc/passwd")
    with pytest.raises(ToolError) as exc:
        tool.call({"command": "rename", "old_path": "/memories", "new_path": "/tmp/x"})
    assert exc.value.content == refusal("/tmp/x")


# -- show ----------------------------------------------------------------------------


def test_show_escapes_invisible_characters() -> None:
    """show() writes control, format and separator characters and backslashes as escapes."""
    assert show("/memories/a\x00b") == "/memories/a\\x00b"
    assert show("a\nb\rc\td") == "a\\nb\\rc\\td"
    assert show("\x1b[31m") == "\\x1b[31m"
    assert show("a\u202eb") == "a\\u202eb"
    assert show("a\u200bb\ufeff") == "a\\u200bb\\ufeff"
    assert show("\ud800") == "\\ud800"
    assert show("\u2028\u2029") == "\\u2028\\u2029"
    assert show("a\\b") == "a\\\\b"
    assert show("/memories/café 😀") == "/memories/café 😀"


def test_show_truncates_long_paths() -> None:
    """show() cuts after ``limit`` characters and marks the cut with an ellipsis."""
    text = "/memories/" + "a" * 200
    assert show(text) == text[:120] + "…"
    assert show(text[:120]) == text[:120]
    assert show("abcdefghij", limit=4) == "abcd…"
    assert show("\x00" * 10, limit=8) == "\\x00\\x00…"


def test_refusals_never_carry_raw_control_characters() -> None:
    """A refusal message for a path full of controls is printable and bounded in length."""
    hostile = "/memories/" + "\x00\x1b[2J\r\n\u202e\ud800" * 50
    message = refusal(hostile)
    assert not [ch for ch in message if unicodedata.category(ch) in REFUSED_CATEGORIES]
    assert len(message) < 400
    message.encode()  # no lone surrogate survives into the message


# -- properties ----------------------------------------------------------------------


def _nfc_stable(ch: str) -> bool:
    # Characters that NFC rewrites on their own (U+0387, U+1D15E, ...) have their own
    # tests below; keeping them out here keeps these properties deterministic.
    return unicodedata.normalize("NFC", ch) == ch


ANY_CHAR = st.characters(exclude_categories=()).filter(_nfc_stable)
BENIGN = ["a", "b.txt", "é", "e\u0301", "日本", "😀", " ", ".hidden", "a..b", "50%off", "-evil"]
HOSTILE_BITS = [
    "/",
    "//",
    "..",
    ".",
    "...",
    "/..",
    "../",
    "%2e",
    "%2E",
    "%2f",
    "%252e",
    "%25",
    "\\",
    "\x00",
    "\n",
    "\x7f",
    "\u200b",
    "\u202e",
    "\ud800",
    "\u2028",
    "\uff0e",
    "\uff0f",
    "\u2024",
    "\u2215",
    "\u2044",
    "\u3002",
    "\uff05",
    "/memories",
    "X",
    "-evil",
]
FRAGMENTS = BENIGN + HOSTILE_BITS
NAMES = st.lists(st.sampled_from(BENIGN), min_size=1, max_size=3).map("".join)


def _with_one_bit(names: list[str], bit: str, at: int) -> str:
    text = "/memories/" + "/".join(names)
    at = min(at, len(text))
    return text[:at] + bit + text[at:]


# A valid path with one hostile fragment put anywhere, prefix included: every single
# check of the guard is on its own the only thing standing between it and acceptance.
ONE_BIT = st.builds(
    _with_one_bit,
    st.lists(NAMES, max_size=4),
    st.sampled_from(HOSTILE_BITS),
    st.one_of(st.sampled_from([0, 1, 9, 10]), st.integers(0, 60)),
)
ONE_SEGMENT = st.builds(
    lambda names, bit, at: "/memories/" + "/".join([*names[:at], bit, *names[at:]]),
    st.lists(NAMES, max_size=3),
    st.sampled_from(HOSTILE_BITS),
    st.integers(0, 3),
)
NEAR_ROOT = st.builds(
    str.__add__,
    st.sampled_from(["/memoriesX", "/memories-evil", "memories", "/memories.", "//memories", ""]),
    st.sampled_from(["", "/", "/a", "a", "/a/b.txt", "/../a"]),
)
LONG_NAMES = st.builds(
    lambda ch, n, tail: f"/memories/{ch * n}{tail}",
    st.sampled_from("aé日😀"),
    st.integers(60, 260),
    st.text("aé日😀", max_size=3),
)
HOSTILE = st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=14).map("".join)
UNDER_ROOT = st.lists(
    st.one_of(st.text(ANY_CHAR, max_size=12), st.sampled_from(FRAGMENTS)), max_size=6
).map(lambda xs: "/memories/" + "/".join(xs))
PATHS = st.one_of(
    ONE_BIT,
    ONE_SEGMENT,
    NEAR_ROOT,
    LONG_NAMES,
    HOSTILE,
    HOSTILE.map(lambda s: "/memories/" + s),
    UNDER_ROOT,
    st.text(ANY_CHAR, max_size=40),
)


def assert_canonical(result: MemoryPath, text: str) -> None:
    assert result.text == text
    assert text == "/memories" or text.startswith("/memories/")
    assert len(result.parts) <= MAX_DEPTH
    for part in result.parts:
        assert part
        assert part.strip(".")
        assert not {"/", "\\", "\x00"} & set(part)
        assert not LOOKALIKES & set(part)
        assert not [ch for ch in part if unicodedata.category(ch) in REFUSED_CATEGORIES]
        assert unicodedata.is_normalized("NFC", part)
        assert len(part.encode()) <= MAX_NAME_BYTES
    again = parse_path("/memories/" + "/".join(result.parts))
    assert again.parts == result.parts


@settings(max_examples=300, deadline=None)
@given(PATHS)
def test_parse_refuses_or_returns_canonical_parts(text: str) -> None:
    """Any text is refused with PathError or split into clean NFC names that reparse the same."""
    try:
        result = parse_path(text)
    except PathError as exc:
        assert str(exc).startswith("Error: ")
        assert not [ch for ch in str(exc) if unicodedata.category(ch) in REFUSED_CATEGORIES]
        return
    assert_canonical(result, text)


def _inside(text: str) -> bool:
    normal = posixpath.normpath(text)
    return normal == "/memories" or normal.startswith("/memories/")


ASCII_PATHS = st.one_of(
    PATHS,
    st.lists(st.text(st.sampled_from(" ..-_aZ0~%"), max_size=6), max_size=4).map(
        lambda names: "/memories/" + "/".join(names)
    ),
    st.text(st.characters(min_codepoint=0, max_codepoint=127), max_size=40).map(
        lambda tail: "/memories/" + tail
    ),
)


def _outcome(text: str) -> MemoryPath | str:
    try:
        return parse_path(text)
    except PathError as exc:
        return str(exc)


@settings(max_examples=400, deadline=None)
@given(ASCII_PATHS)
def test_the_printable_ascii_shortcut_decides_as_the_full_checks(text: str) -> None:
    """Names of printable ASCII skip the per-character checks: the same paths are accepted,
    split the same, and refused with the same message as with every check run."""
    fast = _outcome(text)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("memvault.memory._guard._PRINTABLE_ASCII", re.compile(r"(?!)"))
        full = _outcome(text)
    assert fast == full


@settings(max_examples=300, deadline=None)
@given(PATHS)
def test_accepted_paths_never_escape(text: str) -> None:
    """An accepted path stays below /memories even if normalized, URL-decoded or NFKC-folded."""
    try:
        result = parse_path(text)
    except PathError:
        return
    assert _inside("/memories/" + "/".join(result.parts))
    once = urllib.parse.unquote(text)
    assert once == text  # nothing in an accepted path is a percent escape
    twice = urllib.parse.unquote(once)
    for variant in (text, once, twice):
        for form in (variant, unicodedata.normalize("NFKC", variant)):
            segments = form.replace("\\", "/").split("/")
            assert len(segments) == len(text.split("/"))
            assert ".." not in segments
            assert "." not in segments
            assert _inside(form)


def test_show_escapes_every_refused_category() -> None:
    """show() output is printable for every refused category, one character at a time."""
    for cp in [*range(0x20), *range(0x7F, 0xA0), 0x200B, 0x202E, 0xD800, 0xDFFF, 0x2028, 0xFEFF]:
        shown = show(f"a{chr(cp)}b")
        assert not [ch for ch in shown if unicodedata.category(ch) in REFUSED_CATEGORIES]
        assert shown.startswith("a\\")


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(exclude_categories=()), max_size=300), st.integers(1, 200))
def test_show_is_printable_and_bounded(text: str, limit: int) -> None:
    """show() never returns a refused character and never exceeds limit + 1 characters."""
    shown = show(text, limit)
    assert not [ch for ch in shown if unicodedata.category(ch) in REFUSED_CATEGORIES]
    assert len(shown) <= limit + 1
    shown.encode()


def test_hostile_creates_stay_in_the_users_namespace(home: Path) -> None:
    """A create on a hostile path fails, or lands at its canonical path in its user's space only."""
    with Vault.open(home, durability="normal") as v:
        bob = v.memory_tool(user="bob")
        users = itertools.count()

        @settings(max_examples=100, deadline=None)
        @given(text=st.one_of(ONE_BIT, ONE_SEGMENT, NEAR_ROOT, HOSTILE, UNDER_ROOT))
        def create_as_a_new_user(text: str) -> None:
            alice = v.memory_tool(user=f"alice-{next(users)}")
            try:
                alice.call({"command": "create", "path": text, "file_text": "x"})
            except ToolError as exc:
                assert isinstance(exc.content, str)
                assert exc.content.startswith("Error: ")
                assert "memory store could not" not in exc.content
            else:
                canonical = "/memories/" + "/".join(parse_path(text).parts)
                assert alice.call({"command": "view", "path": canonical}).endswith("\n     1\tx")
                rows = alice.call({"command": "view", "path": "/memories"}).splitlines()[1:]
                assert rows[0] == "1B\t/memories"
                for row in rows[1:]:
                    assert (canonical + "/").startswith(row.split("\t")[1].rstrip("/") + "/")
            assert bob.call({"command": "view", "path": "/memories"}) == EMPTY_ROOT

        create_as_a_new_user()
        assert next(users) > 0


# -- known defects -------------------------------------------------------------------


def test_double_slash_after_root_is_refused() -> None:
    """'/memories//' has an empty segment and is refused like '/memories//x'."""
    assert refusal_reason("/memories//") == EMPTY_SEGMENT


def test_nfc_cannot_push_a_name_over_the_limit() -> None:
    """A name NFC expands (U+1D15E is 4 bytes, its NFC 8) is refused or stays within 255 bytes."""
    text = "/memories/" + "\U0001d15e" * 63
    try:
        result = parse_path(text)
    except PathError:
        return
    assert_canonical(result, text)


def test_accepted_path_reparses_after_nfc() -> None:
    """A name NFC maps onto a refused look-alike (U+0387 to U+00B7) is refused up front."""
    text = "/memories/a\u0387b"
    try:
        result = parse_path(text)
    except PathError:
        return
    assert_canonical(result, text)


def test_listed_paths_can_be_opened(tool: MemoryTool) -> None:
    """A name whose NFC form is a look-alike is refused, so no listing shows an unopenable path."""
    with pytest.raises(ToolError) as err:
        tool.call({"command": "create", "path": "/memories/a\u0387b.md", "file_text": "x"})
    assert "U+00B7 (MIDDLE DOT), a look-alike of '.' or '/'" in str(err.value.content)
    tool.call({"command": "create", "path": "/memories/cafe\u0301.md", "file_text": "x"})
    listing = tool.call({"command": "view", "path": "/memories"})
    listed = [row.split("\t", 1)[1] for row in listing.splitlines()[2:]]
    assert listed == ["/memories/caf\u00e9.md"]
    for path in listed:
        assert tool.call({"command": "view", "path": path}).endswith("\n     1\tx")
