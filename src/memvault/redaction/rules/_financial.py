"""Detection rules for payment identifiers: card numbers and IBANs.

Each is kept only if its check digits hold and its length fits its brand or country
(``checks._financial``), so order and account numbers of the same shape stay.
"""

from __future__ import annotations

from .. import checks
from .._rule import Rule
from ._fragments import IBAN_RUN

# A card number in groups of four (a run of more groups is an IBAN, consumed without a
# value group), in the 4-6-5 and 4-6-4 groups of American Express and Diners, or plain.
_CARD = (
    IBAN_RUN + r"|\b(?P<value>"
    r"\d{4}(?: \d{4}){3}(?: \d{1,3})?|\d{4}(?:-\d{4}){3}(?:-\d{1,3})?"  # 4-4-4-4(-3)
    r"|3[47]\d{2}[ \-]\d{6}[ \-]\d{5}"  # American Express 4-6-5
    r"|3\d{3}[ \-]\d{6}[ \-]\d{4}"  # Diners Club 4-6-4
    r"|\d{12,19}"
    r")\b"
)
# An IBAN may follow a digit straight on ("ref 12DE89370400440532013000"): the digit is
# no part of it, but ``\b`` alone would not let it start there.
_IBAN = r"(?:\b|\d)(?P<value>[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?)\b"


RULES: tuple[Rule, ...] = (
    Rule(
        name="card_number",
        kind="card_number",
        category="personal",
        pattern=_CARD,
        validator=checks.card_number,
        priority=15,
        description="payment cards of every major brand, plain, spaced or dashed "
        "(Luhn, and a length the brand's prefix allows)",
    ),
    Rule(
        name="iban",
        kind="iban",
        category="personal",
        pattern=_IBAN,
        validator=checks.iban,
        priority=14,
        description="IBANs, compact or in groups of four (country length and mod-97)",
    ),
)
