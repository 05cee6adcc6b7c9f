"""Marker-shaped text in the input gets no trust for its shape.

The filter leaves alone only the inside of a marker exactly as it writes one; any
other marker-shaped text is read like any other text, a finding that reaches into or
around a marker is a finding, and inserting a marker into a value defeats neither
redaction nor ``block``. What is stored passes the filter unchanged.
"""

from __future__ import annotations

import secrets
import string
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from memvault import BlockedError
from memvault.redaction import Redactor, load
from tests.corpus import generate
from tests.unit.redaction.test_quality import covered, pseudonym, unblocked

DEFAULT = load().redactor
B64 = string.ascii_letters + string.digits + "+/"


def redact(text: str, redactor: Redactor = DEFAULT) -> str:
    return redactor.apply(text, lambda kind, value: "0123456789").text


def pem(*inserted: str) -> str:
    """A PEM private key with ``inserted`` lines put between its body lines."""
    body = ["".join(secrets.choice(B64) for _ in range(64)) for _ in range(4)]
    lines = [body[0], *inserted, *body[1:]]
    return "-----BEGIN PRIVATE KEY-----\n" + "\n".join(lines) + "\n-----END PRIVATE KEY-----\n"


@pytest.fixture(scope="module")
def all_block(tmp_path_factory: pytest.TempPathFactory) -> Redactor:
    """A policy that blocks every kind of data."""
    path = tmp_path_factory.mktemp("policy") / "all-block.toml"
    path.write_text('version = 1\n\n[actions]\nsecret = "block"\npersonal = "block"\n')
    return load(path).redactor


# --- what marker-shaped text used to get past -------------------------------------------------


@pytest.mark.parametrize(
    ("text", "stored"),
    [
        ("[MASKED:x:4539148803436467]", "[MASKED:x:[MASKED:card_number:6467]]"),
        (
            "card [MASKED:card_number:4539148803436467]",
            "card [MASKED:card_number:[MASKED:card_number:6467]]",
        ),
        ("[REDACTED:jane.doe@corp.io]", "[REDACTED:[REDACTED:email]]"),
        ("[PSEUDONYM:x:123-45-6789]", "[PSEUDONYM:x:[REDACTED:ssn]]"),
        (
            "Attendees: Jane Doe, [REDACTED:x], John Smith",
            "Attendees: [REDACTED:person_name]",
        ),
        (
            "password: hunter2[REDACTED:password]",
            "password: [REDACTED:password][REDACTED:password]",
        ),
        (
            "password: [REDACTED:password]hunter2",
            "password: [REDACTED:password][REDACTED:password]",
        ),
        ("password: hunter2[REDACTED:x]", "password: [REDACTED:password]"),
        ("password: [MASKED:x:hunter2]", "password: [REDACTED:password]"),
    ],
)
def test_marker_shaped_text_hides_no_value(text: str, stored: str) -> None:
    """A value inside marker-shaped text, or glued to a marker, is found: a marker that is
    not exactly one the filter writes (an unknown kind, a mask that keeps a whole card
    number) is plain text, and a real one shields nothing outside itself."""
    assert redact(text) == stored


@pytest.mark.parametrize(
    "inserted",
    [
        ["[REDACTED:x]"],
        ["[REDACTED:private_key]"],
        ["[MASKED:private_key:]", "[PSEUDONYM:private_key:0123456789]"],
        ["note [REDACTED:email] here"],
    ],
)
def test_a_marker_line_inside_a_private_key_does_not_unblock_it(inserted: list[str]) -> None:
    """The default policy blocks private keys, and a marker line inside one, which the
    key loads without once the line is taken out, changes nothing."""
    with pytest.raises(BlockedError):
        redact(pem(*inserted))


@pytest.mark.parametrize(
    "text",
    [
        "[MASKED:x:4539148803436467]",
        "card [MASKED:card_number:4539148803436467]",
        "Attendees: Jane Doe, [REDACTED:x], John Smith",
        "password: hunter2[REDACTED:password]",
        "mail [REDACTED:email]jane.doe@corp.io",
    ],
)
def test_an_all_block_policy_cannot_be_talked_round(all_block: Redactor, text: str) -> None:
    """Under a policy that blocks everything, marker-shaped text lets nothing through."""
    with pytest.raises(BlockedError):
        redact(text, all_block)


def test_an_all_block_policy_stores_its_own_markers(all_block: Redactor) -> None:
    """The inside of markers the filter writes is no value, under any policy."""
    text = "mail [REDACTED:email], card [MASKED:card_number:1111], [REDACTED:password]"
    assert redact(text, all_block) == text


# --- what the filter wrote stays as it is --------------------------------------------------------

STORED = """Card: [MASKED:card_number:1111]
Mail: [REDACTED:email], phone: [REDACTED:phone]
Patient: [PSEUDONYM:person_name:0123456789]
password: [REDACTED:password]
SSN [REDACTED:ssn] / IBAN [REDACTED:iban] / DOB: [REDACTED:date_of_birth]
jdbc:mysql://db:3306/shop?user=shop&password=[REDACTED:credential]&useSSL=false
git clone https://x-access-token:[REDACTED:api_key]@github.com/o/r
-OAUTH_TOKEN=op://Prod/db/password
+OAUTH_TOKEN=[REDACTED:jwt]
Server=db;Database=Payroll;User Id=sa;Password=[REDACTED:password];Encrypt=True;
"""


def test_stored_markers_pass_unchanged() -> None:
    """Markers as the filter writes them, after their labels and inside the settings and
    URLs a narrower rule redacted them from, are stored text the next write scans again:
    nothing is found in it and nothing changes."""
    assert DEFAULT.scan(STORED) == []
    assert redact(STORED) == STORED


# --- properties ---------------------------------------------------------------------------------

# Marker-shaped text: the forms the filter writes (for kinds the policy has), and forms
# it never writes (unknown kinds, tails too long, wrong case, unclosed).
_MARKERS = st.sampled_from(
    [
        "[REDACTED:email]",
        "[REDACTED:private_key]",
        "[MASKED:card_number:1111]",
        "[PSEUDONYM:person_name:0123456789]",
        "[REDACTED:x]",
        "[MASKED:x:4539148803436467]",
        "[MASKED:card_number:12345678901234]",
        "[PSEUDONYM:x:fffffffff]",
        "[REDACTED:Email]",
        "[REDACTED:",
        "]",
    ]
)
_SEPARATORS = st.sampled_from([" ", "\n", " - ", "; ", "\t"])
PROPERTY = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# Values a rule knows by their shape alone, wherever they stand.
SHAPES = (
    "api_key", "private_key", "jwt", "email", "phone", "ssn", "card_number", "iban",
    "ip_address", "national_id", "street_address",
)  # fmt: skip
# Value-shaped text that marker-shaped text wraps, or is glued to.
_WRAPS = st.sampled_from(
    [
        "[MASKED:x:{}]",
        "[REDACTED:{}]",
        "[MASKED:card_number:{}]",
        "[PSEUDONYM:person_name:{}]",
        "[REDACTED:x]{}",
        "{}[REDACTED:x]",
        "[REDACTED:email]{}[MASKED:phone:1234]",
    ]
)


def _needle(kind: str, seed: int) -> tuple[str, str, int]:
    """A needle in its snippet, in a note: (text, value, where the value starts)."""
    snippet, value = generate.needle(kind, seed)
    text = f"notes: {snippet} end"
    return text, value, text.index(snippet) + snippet.index(value)


@PROPERTY
@given(
    kind=st.sampled_from(generate.KINDS),
    seed=st.integers(0, 2**32 - 1),
    before=st.tuples(_MARKERS, _SEPARATORS),
    after=st.tuples(_SEPARATORS, _MARKERS),
)
def test_markers_around_a_value_never_hide_it(
    kind: str, seed: int, before: tuple[str, str], after: tuple[str, str]
) -> None:
    """Every kind of value, with marker-shaped text before and after it, is covered."""
    text, value, start = _needle(kind, seed)
    assume(covered(unblocked().scan(text), start, start + len(value)))
    lead = before[0] + before[1]
    text = lead + text + after[0] + after[1]
    start += len(lead)
    assert covered(unblocked().scan(text), start, start + len(value)), (kind, text)


@PROPERTY
@given(kind=st.sampled_from(SHAPES), seed=st.integers(0, 2**32 - 1), wrap=_WRAPS)
def test_markers_wrapped_round_a_value_never_hide_it(kind: str, seed: int, wrap: str) -> None:
    """A value known by its shape, inside marker-shaped text or glued to it, is covered."""
    text, value, start = _needle(kind, seed)
    assume(covered(unblocked().scan(text), start, start + len(value)))
    wrapped = wrap.format(value)
    text = text[:start] + wrapped + text[start + len(value) :]
    start += wrapped.index(value)
    assert covered(unblocked().scan(text), start, start + len(value)), (kind, text)


@PROPERTY
@given(
    marker=_MARKERS,
    at=st.integers(0, 5),
    inside=st.booleans(),
    policy=st.sampled_from(["default", "all-block"]),
)
def test_a_marker_inside_a_blocked_value_still_blocks(
    all_block: Redactor, marker: str, at: int, inside: bool, policy: str
) -> None:
    """Marker-shaped text put anywhere in a private key's body, as a line of its own or
    within a line, leaves the key blocked."""
    key = pem()
    lines = key.split("\n")
    row = 1 + at % 4
    if inside:
        middle = len(lines[row]) // 2
        lines[row] = lines[row][:middle] + marker + lines[row][middle:]
    else:
        lines.insert(row, marker)
    with pytest.raises(BlockedError):
        redact("\n".join(lines), DEFAULT if policy == "default" else all_block)


_PIECES = st.one_of(
    _MARKERS,
    st.sampled_from(["\u200b", "\u2060", "\u00ad", "＠", "４", "۴", " ", "\n", "&", ";", "=", ":"]),
    st.text(alphabet=string.ascii_letters + string.digits + " .,:;-_@=&\n", max_size=12),
    st.tuples(st.sampled_from(generate.KINDS), st.integers(0, 2**32 - 1)).map(
        lambda t: generate.needle(*t)[0]
    ),
)


@PROPERTY
@given(st.lists(_PIECES, max_size=10))
def test_stored_text_is_a_fixed_point(parts: list[str]) -> None:
    """Whatever mix of values, marker-shaped text and invisible or full-width characters
    is written, what is stored is found clean by a second scan and stays as it is."""
    once = unblocked().apply("".join(parts), pseudonym).text
    assert unblocked().scan(once) == []
    assert unblocked().apply(once, pseudonym).text == once


def test_policy_file_helper_is_a_real_policy(tmp_path: Path) -> None:
    """The all-block policy used above is a valid policy that blocks every detector."""
    path = tmp_path / "p.toml"
    path.write_text('version = 1\n\n[actions]\nsecret = "block"\npersonal = "block"\n')
    assert {c.action for c in load(path).redactor.rules} == {"block"}
