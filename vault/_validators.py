"""Check digits and shape tests that tell real identifiers from look-alikes.

Each validator takes the matched value and returns True if it is plausibly
real. They are pure functions; policies name them in custom detectors.
"""

from __future__ import annotations

import math
import zlib
from collections import Counter
from collections.abc import Callable

_BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def digits(value: str) -> str:
    return "".join(ch for ch in value if ch.isdigit())


def luhn(value: str) -> bool:
    """The Luhn (mod 10) check used by payment cards."""
    number = digits(value)
    if len(number) < 12:
        return False
    total = 0
    for i, ch in enumerate(reversed(number)):
        d = int(ch)
        if i % 2 == 1:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


def iban(value: str) -> bool:
    """ISO 13616 mod-97 check of an IBAN (spaces allowed)."""
    compact = value.replace(" ", "").replace("-", "").upper()
    if not 15 <= len(compact) <= 34 or not compact[:2].isalpha() or not compact[2:4].isdigit():
        return False
    rearranged = compact[4:] + compact[:4]
    try:
        number = int("".join(str(int(ch, 36)) for ch in rearranged))
    except ValueError:
        return False
    return number % 97 == 1


_VERHOEFF_D = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    [1, 2, 3, 4, 0, 6, 7, 8, 9, 5],
    [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
    [3, 4, 0, 1, 2, 8, 9, 5, 6, 7],
    [4, 0, 1, 2, 3, 9, 5, 6, 7, 8],
    [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
    [6, 5, 9, 8, 7, 1, 0, 4, 3, 2],
    [7, 6, 5, 9, 8, 2, 1, 0, 4, 3],
    [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
    [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
]
_VERHOEFF_P = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    [1, 5, 7, 6, 2, 8, 3, 0, 9, 4],
    [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
    [8, 9, 1, 6, 0, 4, 3, 5, 2, 7],
    [9, 4, 5, 3, 1, 2, 6, 8, 7, 0],
    [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
    [2, 7, 9, 3, 8, 0, 6, 4, 1, 5],
    [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
]


def verhoeff(value: str) -> bool:
    """The Verhoeff check (Indian Aadhaar numbers)."""
    number = digits(value)
    if not number:
        return False
    check = 0
    for i, ch in enumerate(reversed(number)):
        check = _VERHOEFF_D[check][_VERHOEFF_P[i % 8][int(ch)]]
    return check == 0


def aadhaar(value: str) -> bool:
    number = digits(value)
    return len(number) == 12 and number[0] not in "01" and verhoeff(number)


def nhs_number(value: str) -> bool:
    """UK NHS number: 10 digits, mod-11 check digit."""
    number = digits(value)
    if len(number) != 10:
        return False
    total = sum(int(d) * w for d, w in zip(number[:9], range(10, 1, -1), strict=True))
    check = 11 - total % 11
    if check == 11:
        check = 0
    return check != 10 and check == int(number[9])


def us_ssn(value: str) -> bool:
    """US SSN area/group/serial rules (no 000, 666, 9xx area; no 00 group; no 0000 serial)."""
    number = digits(value)
    if len(number) != 9:
        return False
    area, group, serial = number[:3], number[3:5], number[5:]
    return area not in ("000", "666") and area[0] != "9" and group != "00" and serial != "0000"


def github_token(value: str) -> bool:
    """GitHub's classic tokens end in a base62 CRC32 of the random part."""
    _, _, body = value.partition("_")
    if len(body) != 36:
        return False
    payload, checksum = body[:30], body[30:]
    crc = zlib.crc32(payload.encode())
    encoded = ""
    while crc:
        crc, rem = divmod(crc, 62)
        encoded = _BASE62[rem] + encoded
    return encoded.rjust(6, "0") == checksum


def shannon_entropy(value: str) -> float:
    """Bits per character of the value's own character distribution."""
    if not value:
        return 0.0
    counts = Counter(value)
    n = len(value)
    return -sum(c / n * math.log2(c / n) for c in counts.values())


# Names policies may use in custom detectors.
VALIDATORS: dict[str, Callable[[str], bool]] = {
    "luhn": luhn,
    "iban": iban,
    "verhoeff": verhoeff,
    "aadhaar": aadhaar,
    "nhs_number": nhs_number,
    "us_ssn": us_ssn,
    "github_token": github_token,
}
