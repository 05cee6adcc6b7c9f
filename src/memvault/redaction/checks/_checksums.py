"""Check-digit algorithms that several identifiers share: Luhn, Verhoeff, weighted sums.

Each takes the value as written (spaces, dashes and dots allowed where noted) and
returns whether its check digits hold.
"""

from __future__ import annotations


def digits(value: str) -> str:
    """The digits of ``value``, in order, without separators."""
    return "".join(ch for ch in value if ch.isdigit())


def luhn(value: str) -> bool:
    """The Luhn (mod 10) check used by payment cards, on 12 digits or more."""
    number = digits(value)
    if len(number) < 12:
        return False
    return luhn_digits(number)


def luhn_digits(number: str) -> bool:
    """The Luhn check over a string of digits, whatever its length."""
    total = 0
    for i, ch in enumerate(reversed(number)):
        d = int(ch) * (2 if i % 2 else 1)
        total += d - 9 if d > 9 else d
    return total % 10 == 0


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


def weighted(number: str, weights: tuple[int, ...]) -> int:
    """The sum of the digits times their weights, as far as both go."""
    return sum(int(d) * w for d, w in zip(number, weights, strict=False))
