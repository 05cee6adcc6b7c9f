"""Checks of contact details: e-mail addresses, IP addresses and phone numbers.

Phone numbers are checked with libphonenumber's metadata. Nothing here keeps a value
once it has answered: the filter's own per-write verdicts spare it a second look at
the same value, and a cache across writes would hold numbers from memory text.
"""

from __future__ import annotations

import ipaddress
import re
import unicodedata

from .._words import word_set
from ._checksums import digits

# Name endings that make an address@host a file or a package, not a mailbox.
FILE_EXTENSIONS = word_set("file_extensions.txt")


def email(value: str) -> bool:
    """A mailbox shape: a sane local part, and a domain that is not a file name."""
    local, _, domain = value.rpartition("@")
    if not local or local[0] == "." or local[-1] == "." or ".." in local or ".." in domain:
        return False
    if local.lower() == "git":
        return False  # git@github.com: an SSH remote, not a mailbox
    return domain.rsplit(".", 1)[-1].lower() not in FILE_EXTENSIONS


_GLOBAL_UNICAST = ipaddress.IPv6Network("2000::/3")
# Well-known public resolvers: configuration, not a person's or a host's address.
_RESOLVERS = frozenset(ipaddress.ip_address(a) for a in word_set("public_resolvers.txt"))


def ip_address(value: str) -> bool:
    """A public address: not private, loopback, link-local, reserved or documentation, and
    not a well-known public DNS resolver (8.8.8.8, 1.1.1.1, 9.9.9.9, 208.67.222.222)."""
    if "." in value and ":" not in value:
        parts = value.split(".")
        if len(parts) != 4 or any(len(p) > 1 and p[0] == "0" for p in parts):
            return False
    try:
        address = ipaddress.ip_address(value)
    except ValueError:
        return False
    if address.version == 6 and address not in _GLOBAL_UNICAST:
        return False
    return address.is_global and not address.is_multicast and address not in _RESOLVERS


_DATE_SHAPE = re.compile(r"\d{1,4}[./-]\d{1,2}[./-]\d{2,4}")

# Regions tried for a number written without its country code, most used first.
_PHONE_REGIONS = ("US", "GB", "DE", "FR", "ES", "IT", "IN", "BR", "JP", "CN", "RU", "NL", "AU")


# Numbers set aside for fiction, which films, books and examples print, so that they
# reach no one: NANP 555-0100 to 555-0199 in every area code, and Ofcom's drama ranges
# (020 7946 0xxx, 0113 496 0xxx, 07700 900xxx, ...), as national significant numbers.
_FICTIONAL_NANP = re.compile(r"1?\d{3}55501\d{2}")
_FICTIONAL_GB = re.compile(
    r"(?:2079460|11[3-8]4960|1[2-69]14960|2896496|2920180|1632960|7700900|8081570|9098790"
    r"|3069990)\d{3}"
)


def fictional_phone(number: str) -> bool:
    """The digits of a number from a range reserved for drama and examples."""
    if _FICTIONAL_NANP.fullmatch(number):
        return True
    national = number[2:] if number.startswith("44") else number
    return bool(_FICTIONAL_GB.fullmatch(national.removeprefix("0")))


def phone(value: str) -> bool:
    """A phone number libphonenumber accepts: possible with its +country code, else valid
    in one of the common regions (US-style 3-3-4 numbers by their NANP shape)."""
    import phonenumbers  # loaded on the first candidate only: its metadata is large

    # Full-width digits and dashes (０９０－１２３４－５６７８) are the same number.
    value = unicodedata.normalize("NFKC", value).replace("ー", "-").replace("−", "-")
    if value.startswith("(+"):
        value = value[1:].replace(")", "", 1)  # (+34) 91 375 95 71
    number = digits(value)
    if not 7 <= len(number) <= 15 or len(set(number)) < 3 or fictional_phone(number):
        return False
    try:
        if value.startswith("+"):
            parsed = phonenumbers.parse(value, None)
            return bool(phonenumbers.is_possible_number(parsed))
        if len(number) < 9 or _DATE_SHAPE.fullmatch(value):
            return False  # 05-12-2023, 01.02.2023: dates, not national numbers
        if len(number) == 11 and value[0] == "1" and value[1] in "-. ":
            value = value[2:]  # 1-415-555-0132: the NANP country code written without +
            number = number[1:]
        if (
            len(number) == 10
            and number[0] in "23456789"
            and number[3] not in "01"
            and (value.startswith("(") or value[3] in "-. ")
        ):
            return number[1:3] != "11"  # NANP: no N11 service code as area code
    except phonenumbers.NumberParseException:
        return False
    return any(phone_in_region(value, region) for region in _PHONE_REGIONS)


def phone_in_region(value: str, region: str) -> bool:
    """A number libphonenumber takes as valid when dialled in ``region``."""
    import phonenumbers

    try:
        return bool(phonenumbers.is_valid_number(phonenumbers.parse(value, region)))
    except phonenumbers.NumberParseException:
        return False
