"""Checks of payment identifiers: card numbers and IBANs."""

from __future__ import annotations

from ._checksums import digits, luhn

# ISO 13616 lengths from the SWIFT IBAN registry; a country not listed has no IBAN.
# fmt: off
_IBAN_LENGTHS = {
    "AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22,
    "BI": 27, "BR": 29, "BY": 28, "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DJ": 27,
    "DK": 18, "DO": 28, "EE": 20, "EG": 29, "ES": 24, "FI": 18, "FK": 18, "FO": 18, "FR": 27,
    "GB": 22, "GE": 22, "GI": 23, "GL": 18, "GR": 27, "GT": 28, "HN": 28, "HR": 21, "HU": 28,
    "IE": 22, "IL": 23, "IQ": 23, "IS": 26, "IT": 27, "JO": 30, "KW": 30, "KZ": 20, "LB": 28,
    "LC": 32, "LI": 21, "LT": 20, "LU": 20, "LV": 21, "LY": 25, "MC": 27, "MD": 24, "ME": 22,
    "MK": 19, "MN": 20, "MR": 27, "MT": 31, "MU": 30, "NI": 28, "NL": 18, "NO": 15, "OM": 23,
    "PK": 24, "PL": 28, "PS": 29, "PT": 25, "QA": 29, "RO": 24, "RS": 22, "RU": 33, "SA": 24,
    "SC": 31, "SD": 18, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "SO": 23, "ST": 25, "SV": 28,
    "TL": 23, "TN": 24, "TR": 26, "UA": 29, "VA": 22, "VG": 24, "XK": 20, "YE": 30,
}
# fmt: on


def iban(value: str) -> bool:
    """ISO 13616 mod-97 check of an IBAN (spaces allowed), at its country's length."""
    compact = value.replace(" ", "").replace("-", "").upper()
    if _IBAN_LENGTHS.get(compact[:2]) != len(compact) or not compact[2:4].isdigit():
        return False
    rearranged = compact[4:] + compact[:4]
    try:
        number = int("".join(str(int(ch, 36)) for ch in rearranged))
    except ValueError:
        return False
    return number % 97 == 1


def card_number(value: str) -> bool:
    """A payment card: Luhn, and a length its brand's prefix allows."""
    number = digits(value)
    if not luhn(number):
        return False
    n, p2, p4, p6 = len(number), int(number[:2]), int(number[:4]), int(number[:6])
    return (
        (number[0] == "4" and n in (13, 16, 19))  # Visa
        or ((51 <= p2 <= 55 or 2221 <= p4 <= 2720) and n == 16)  # Mastercard
        or (p2 in (34, 37) and n == 15)  # American Express
        or ((p4 == 6011 or 644 <= p4 // 10 <= 649 or p2 == 65) and 16 <= n <= 19)  # Discover
        or ((300 <= p4 // 10 <= 305 or p2 in (36, 38, 39) or p4 == 3095) and 14 <= n <= 19)
        or (3528 <= p4 <= 3589 and 16 <= n <= 19)  # JCB
        or ((p2 in (62, 81) or 622126 <= p6 <= 622925) and 16 <= n <= 19)  # UnionPay
        or (2200 <= p4 <= 2204 and 16 <= n <= 19)  # Mir
        or ((p4 in _MAESTRO or p2 in (50, 56, 57, 58, 63, 67)) and 12 <= n <= 19)  # Maestro
    )


_MAESTRO = frozenset({5018, 5020, 5038, 5893, 6304, 6759, 6761, 6762, 6763})
