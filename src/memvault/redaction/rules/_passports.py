"""Detection rules for passport numbers, next to the word for a passport.

A passport number has no check digit in most countries and the shape of many other
numbers, so it counts only next to the word ("passport", "Reisepass", "паспорт",
"护照", ...) or in a column a header names so.
"""

from __future__ import annotations

from .. import checks
from .._rule import Rule
from ._fragments import CUE_ENDS, FIELD_END, FIELD_START

# The word for a passport (or a travel document) in the languages the filter reads.
_PASSPORT_WORDS = (
    *(f"passport{end}" for end in CUE_ENDS),
    "passports", "pasaporte", "passeport", "passaporte", "passaporto", "reisepass",
    "паспорт", "护照", "旅券", "パスポート", "पासपोर्ट", "passnummer", "pass-nr", "travel document",
    "document de voyage", "documento de viaje", "n° de passeport", "paspoort", "paszport",
    "pasaport", "hộ chiếu", "جواز السفر", "여권", "passnr",
    "דרכון", "หนังสือเดินทาง", "pașaport", "paşaport", "id_doc:", "id_doc\"", "id_doc=",
)  # fmt: skip
# The shapes passport numbers take: US nine digits, and the letter-and-digit forms of
# other countries.
_PASSPORT_SHAPES = (
    r"\d{8,9}|[A-Z]{1,3}\d{6,9}|\d{2}[A-Z]{2}\d{5}|[A-Z0-9]{9}|\d{2} \d{7}|[A-Z]{2}\d[A-Z0-9]{6}"
)


RULES: tuple[Rule, ...] = (
    Rule(
        name="passport",
        kind="passport",
        category="personal",
        pattern=r"\b(?P<value>" + _PASSPORT_SHAPES + r")\b",
        keywords=_PASSPORT_WORDS,
        context=_PASSPORT_WORDS,
        window=24,
        validator=checks.passport_number,
        priority=16,
        description="passport numbers (US 9 digits, and other countries' shapes) next to the "
        "word 'passport' in several languages",
    ),
    Rule(
        name="passport_qualified",
        kind="passport",
        category="personal",
        # A qualifier in brackets between the word and the number, which puts the word
        # beyond the plain rule's window: "Reisepass (für das Visum): C01X00T47".
        pattern=(
            r"(?i:passport|reisepass|pasaporte|passeport|passaporte|passaporto|паспорт|\bpass)"
            r"[^\n(]{0,12}\([^()\n]{1,40}\)[ \t]*[:：#]?[ \t]*(?P<value>"
            + _PASSPORT_SHAPES
            + r")\b"
        ),
        keywords=(*_PASSPORT_WORDS, "pass ("),  # Swedish: "Pass (för resan): 73928462"
        gate="keywords",
        validator=checks.passport_number,
        priority=16,
        description="passport numbers after the word and a bracketed qualifier",
    ),
    Rule(
        name="passport_field",
        kind="passport",
        category="personal",
        pattern=FIELD_START + r"(?P<value>" + _PASSPORT_SHAPES + r")" + FIELD_END,
        keywords=_PASSPORT_WORDS,
        gate="keywords",
        context=_PASSPORT_WORDS,
        window=320,
        validator=checks.passport_number,
        priority=16,
        description="passport numbers as fields of CSV rows, SQL tuples and tables with a "
        "passport column",
    ),
)
