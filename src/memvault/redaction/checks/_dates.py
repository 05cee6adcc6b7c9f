"""Checks of dates: numbers in range, and a year someone alive could be born in."""

from __future__ import annotations

import datetime
import re


def date_parts(value: str) -> bool:
    """A numeric date whose day and month are in range, in either order."""
    fields = [int(f) for f in "".join(c if c.isdigit() else " " for c in value).split()]
    if len(fields) != 3:
        return True  # dates with month names are shaped by the pattern itself
    if fields[0] > 31:
        fields = [fields[2], fields[1], fields[0]]
    day, month = fields[0], fields[1]
    return (1 <= day <= 31 and 1 <= month <= 12) or (1 <= month <= 31 and 1 <= day <= 12)


_YEAR_IN_DATE = re.compile(r"(?:^|\D)((?:1[89]|20)\d\d)(?:\D|$)")


def birth_date(value: str) -> bool:
    """A date with a four-digit year someone alive could be born in: no later than this
    year, so an expiry or a deadline in a row of personal data is not taken for one."""
    year = _YEAR_IN_DATE.search(value)
    if year is None or not 1900 <= int(year.group(1)) <= datetime.date.today().year:
        return False
    return date_parts(value)


def compact_birth_date(value: str) -> bool:
    """A YYYYMMDD date, as HL7 writes it, that someone alive could be born on."""
    try:
        born = datetime.date(int(value[:4]), int(value[4:6]), int(value[6:8]))
    except ValueError:
        return False
    return born.year >= 1900 and born <= datetime.date.today()


_FOUR_DIGITS = re.compile(r"(?<!\d)\d{4}(?!\d)")


def written_birth_date(value: str) -> bool:
    """A date someone alive was born on: YYYYMMDD, or a written date whose year (counted
    in the Buddhist era from 2400) is from 1900 to this year and whose numbers are in
    range."""
    if value.isdigit():
        return compact_birth_date(value)
    year = _FOUR_DIGITS.search(value)
    if year is not None:
        number = int(year.group())
        number = number - 543 if number >= 2400 else number
        if not 1900 <= number <= datetime.date.today().year:
            return False
    return date_parts(value)
