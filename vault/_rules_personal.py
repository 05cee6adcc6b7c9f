"""Detection rules for personal data: contact details, identifiers, names in context.

Each rule is data (see :mod:`vault._rules`). Numbers are kept only if their
check digits hold; names and dates only next to the words that make them
personal ("patient", "Name:", "born").
"""

from __future__ import annotations

from . import _validators as v
from ._rules import Rule

RULES: tuple[Rule, ...] = (
    Rule(
        name="email",
        kind="email",
        category="personal",
        pattern=r"(?i)\b(?P<value>[a-z0-9._%+-]+@(?:[a-z0-9-]+\.)+[a-z]{2,24})\b",
        keywords=("@",),
        priority=10,
        description="e-mail addresses (reserved example domains are kept)",
    ),
    Rule(
        name="card_number",
        kind="card_number",
        category="personal",
        pattern=r"\b(?P<value>[2-6]\d{3}(?:[ -]?\d{4}){2}[ -]?\d{1,7})\b",
        validator=v.luhn,
        priority=15,
        description="payment card numbers, plain, spaced or dashed (Luhn)",
    ),
    Rule(
        name="us_ssn",
        kind="ssn",
        category="personal",
        pattern=r"\b(?P<value>\d{3}-\d{2}-\d{4})\b",
        validator=v.us_ssn,
        priority=12,
        description="US social security numbers",
    ),
    Rule(
        name="iban",
        kind="iban",
        category="personal",
        pattern=r"\b(?P<value>[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?)\b",
        validator=v.iban,
        priority=14,
        description="IBANs (mod-97)",
    ),
)
