"""The text as the rules read it: compatibility forms folded, invisible characters dropped,
every digit in ASCII; and each finding replacing the span of the text as written."""

from __future__ import annotations

import re
import sys
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memvault.redaction import BUILTIN, Configured, Redactor, Rule, load, normalized

REDACTOR = load().redactor


def redact(text: str) -> str:
    return REDACTOR.apply(text, lambda kind, value: "0123456789").text


def spans(pattern: str, text: str) -> list[tuple[int, int]]:
    """Where one rule with ``pattern`` finds its values in ``text``, as written."""
    rule = Rule(name="probe", kind="secret", category="secret", pattern=pattern)
    return [(f.start, f.end) for f in Redactor([Configured(rule, "redact", 4)]).scan(text)]


# --- the view and its way back ------------------------------------------------------------


def test_ascii_text_is_its_own_view() -> None:
    """Pure ASCII, the common case, is read as written, with no work beyond one check."""
    text = "mail jane@corp.io"
    assert normalized(text) is text


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("ja\u200bne", "jane"),  # zero-width space
        ("ja\u200c\u200dne", "jane"),  # zero-width non-joiner and joiner
        ("ja\u2060ne\ufeff", "jane"),  # word joiner, byte order mark
        ("12\u00ad34", "1234"),  # soft hyphen
        ("a\u202eb\u2066c", "abc"),  # bidirectional controls
        ("x\ufe0fy\U000e0041z", "xyz"),  # a variation selector, a tag
        ("ｊａｎｅ＠ｃｏｒｐ．ｉｏ", "jane@corp.io"),  # full-width forms
        ("۰۹۱۲ ٣٤٥ ০১২ ०१२ ๐๑๒", "0912 345 012 012 012"),  # Persian, Arabic-Indic, ...
        ("𝟒𝟓 𝟫𝟬 ４５", "45 90 45"),  # mathematical and full-width digits
        ("A\u212aIA", "AKIA"),  # KELVIN SIGN
        ("ﬁnance\u00a0team", "finance team"),  # a ligature, a no-break space
        ("Jose\u0301", "José"),  # a letter and its combining mark
        ("姓名：王伟，男", "姓名：王伟，男"),  # the full-width colon and comma stay
        ("Паспорт №: ㈱ ™", "Паспорт №: ㈱ ™"),  # symbols that stand for words stay
    ],
)
def test_the_view_reads(text: str, read: str) -> None:
    """Each form reads as the rules expect it."""
    assert normalized(text) == read


def test_spans_map_back_to_the_text_as_written() -> None:
    """A finding covers every character its value came from: invisible ones inside it,
    the combining marks and the letters that folded into it; not what stands beside it."""
    assert spans("jane", "x ja\u200bne y") == [(2, 7)]
    assert spans("jane", "x \u200b\u2060jane\u200b y") == [(4, 8)]
    assert spans("José", "a Jose\u0301 b") == [(2, 7)]
    assert spans("fix", "ﬁx") == [(0, 2)]
    assert spans("ix", "ﬁx") == [(0, 2)]
    assert spans("0912", "tel ۰۹۱۲.") == [(4, 8)]


def _every(category: str) -> list[str]:
    return [chr(c) for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c)) == category]


def test_every_format_character_is_dropped() -> None:
    """Every character of Unicode category Cf (zero-width, bidirectional, tags ...) reads
    as nothing, in this Python's Unicode version."""
    assert [hex(ord(c)) for c in _every("Cf") if normalized(f"a{c}b") != "ab"] == []


def test_every_decimal_digit_reads_as_ascii() -> None:
    """Every decimal digit of every script (Unicode category Nd) reads as its ASCII digit."""
    wrong = [c for c in _every("Nd") if normalized(c) != str(unicodedata.decimal(c))]
    assert [hex(ord(c)) for c in wrong] == []


def test_built_in_rules_are_written_as_the_view_reads() -> None:
    """No built-in pattern, cue, keyword or context word holds a character the view never
    has: such a rule part could never match (``（`` reads as ``(``, Thai ``ำ`` as ``ํา``)."""
    unreadable = sorted(
        (rule.name, char)
        for rule in BUILTIN.values()
        for part in (rule.pattern, rule.cue, *rule.keywords, *rule.context)
        for char in set(part)
        if not char.isascii() and normalized(char) != char
    )
    assert unreadable == []


# --- values that spelling does not hide -------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "stored"),
    [
        ("card 4539\u200b1488\u200b0343\u200b6467.", "card [MASKED:card_number:6467]."),
        ("mail j\u200bane.doe\u2060@corp.io today", "mail [REDACTED:email] today"),
        ("mail jane.doe＠corp.io", "mail [REDACTED:email]"),
        ("mail ｊａｎｅ．ｄｏｅ＠ｃｏｒｐ．ｉｏ", "mail [REDACTED:email]"),
        ("ssn 123-45-67\u00ad89", "ssn [REDACTED:ssn]"),
        ("ssn ١٢٣-٤٥-٦٧٨٩", "ssn [REDACTED:ssn]"),
        ("key AKIA\u200dZX7Q3LM4N5P6R2ST here", "key [REDACTED:api_key] here"),
        ("key A\u212aIAZX7Q3LM4N5P6R2ST here", "key [REDACTED:api_key] here"),
        ("token ghp_\u200b" + "a1B2c3D4e5" * 3 + "abcdef", "token [REDACTED:api_key]"),
        ("تلفن: ۰۹۱۲ ۳۴۵ ۶۷۸۹", "تلفن: [REDACTED:phone]"),
        ("mobile +۹۸ ۹۱۲ ۳۴۵ ۶۷۸۹", "mobile [REDACTED:phone]"),
        ("ফোন: +৮৮০ ১৭১১ ২৩৪৫৬৭", "ফোন: [REDACTED:phone]"),
        ("โทร +๖๖ ๘๑ ๒๓๔ ๕๖๗๘", "โทร [REDACTED:phone]"),
        ("card ४५३९ १४८८ ०३४३ ६४६७", "card [MASKED:card_number:6467]"),
        ("card 𝟒𝟓𝟑𝟗 𝟏𝟒𝟖𝟖 𝟎𝟑𝟒𝟑 𝟔𝟒𝟔𝟕", "card [MASKED:card_number:6467]"),
        ("IBAN DE89\u200b3704\u200b0044\u200b0532\u200b0130\u200b00", "IBAN [REDACTED:iban]"),
        ("ＩＰ：８１．２．６９．１６０", "ＩＰ：[REDACTED:ip_address]"),
    ],
)
def test_spelling_hides_no_value(text: str, stored: str) -> None:
    """Invisible characters inside a value, full-width forms and digits of other scripts
    neither hide the value nor stay inside its span."""
    assert redact(text) == stored


def test_invisible_characters_inside_a_value_go_with_it() -> None:
    """The invisible characters inside a value are replaced with it, none left around its
    marker; those beside it are no part of it and stay, as any text beside it does."""
    assert redact("x j\u200ba\u2060ne@corp.io y") == "x [REDACTED:email] y"
    assert redact("x \u200bjane@corp.io\u2060 y") == "x \u200b[REDACTED:email]\u2060 y"
    two = redact("mail a@corp.io\u200b, b@c\u200dorp.io")
    assert two == "mail [REDACTED:email]\u200b, [REDACTED:email]"


@pytest.mark.parametrize(
    ("text", "stored"),
    [
        ("ref 12DE89370400440532013000", "ref 12[REDACTED:iban]"),
        ("ref 12DE89 3704 0044 0532 0130 00.", "ref 12[REDACTED:iban]."),
        ("Konto1GB82WEST12345698765432", "Konto1[REDACTED:iban]"),
    ],
)
def test_an_iban_right_after_a_digit_is_found(text: str, stored: str) -> None:
    """A digit straight before an IBAN is no part of it, and no reason to miss it."""
    assert redact(text) == stored


_TRICKS = st.sampled_from(["\u200b", "\u200d", "\u2060", "\u00ad", "\ufeff", "\u202e", ""])
_NEEDLES = st.sampled_from(
    [
        "4539 1488 0343 6467",
        "jane.doe@corp.io",
        "123-45-6789",
        "AKIAZX7Q3LM4N5P6R2ST",
        "DE89 3704 0044 0532 0130 00",
        "+44 20 7183 0958",
    ]
)
_WIDE = str.maketrans("0123456789@.", "０１２３４５６７８９＠．")


@settings(max_examples=200, deadline=None)
@given(
    needle=_NEEDLES,
    trick=_TRICKS,
    at=st.lists(st.integers(1, 30), max_size=4),
    wide=st.booleans(),
)
def test_a_value_spelt_any_way_is_caught(
    needle: str, trick: str, at: list[int], wide: bool
) -> None:
    """Any value, with invisible characters put anywhere inside it and written full-width
    or not, is found whole and nothing of it is stored."""
    value = needle.translate(_WIDE) if wide else needle
    for point in sorted({min(p, len(value) - 1) for p in at}, reverse=True):
        value = value[:point] + trick + value[point:]
    stored = redact(f"note: {value} end")
    assert re.fullmatch(r"note: \[(?:REDACTED:[a-z_]+|MASKED:card_number:6467)\] end", stored)
