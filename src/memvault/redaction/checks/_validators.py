"""Check digits and shape tests that tell real identifiers from look-alikes.

Each validator takes the matched value and returns True if it is plausibly
real. They are pure functions; policies name them in custom detectors.
"""

from __future__ import annotations

import datetime
import functools
import ipaddress
import math
import re
import unicodedata
import zlib
from collections import Counter
from collections.abc import Callable

from . import _national_ids as _id_checks
from ._national_ids import digits

_BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

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


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Name endings that make an address@host a file or a package, not a mailbox.
FILE_EXTENSIONS = _FILE_TLDS = _words(
    "png jpg jpeg gif svg webp ico bmp js mjs ts tsx jsx css scss map json yaml yml toml lock "
    "py rb go rs java kt php html htm md txt csv log xml pdf zip gz tar exe dll so"
)


def email(value: str) -> bool:
    """A mailbox shape: a sane local part, and a domain that is not a file name."""
    local, _, domain = value.rpartition("@")
    if not local or local[0] == "." or local[-1] == "." or ".." in local or ".." in domain:
        return False
    if local.lower() == "git":
        return False  # git@github.com: an SSH remote, not a mailbox
    return domain.rsplit(".", 1)[-1].lower() not in _FILE_TLDS


_GLOBAL_UNICAST = ipaddress.IPv6Network("2000::/3")


def ip_address(value: str) -> bool:
    """A public address: not private, loopback, link-local, reserved or documentation."""
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
    return address.is_global and not address.is_multicast


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


@functools.lru_cache(maxsize=4096)
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


# Words that follow a cue ("Customer:", "Dr.", "Thanks,") without being anyone's name.
_NOT_NAMES = _words(
    """
    a an the this that these those it its he she we they i you me my our your their his her
    and or but so if then than when where what which who why how here there yes no not none
    n/a na nil null unknown anonymous tbd tba pending stable unstable critical fair good
    ok okay all everyone team staff admin support sales service services success care data
    id number record records info information details account accounts portal experience
    satisfaction feedback relations management journey name names email phone address
    also note please thanks thank hi hello dear see let next new old first last other
    today tomorrow yesterday monday tuesday wednesday thursday friday saturday sunday
    january february march april may june july august september october november december
    engineer developer manager director analyst designer architect consultant lead senior
    junior vice president officer head chief staff software product project program
    sr jr mr mrs ms dr prof someone somebody nobody everybody anyone user users function
    method class service client server customer patient
    """
)
_ORGANIZATION = _words(
    """
    inc inc. corp corp. corporation co co. company ltd ltd. llc llp plc gmbh ag kg sa sas sarl
    sl spa srl bv nv ab oy as pty group holding holdings bank university hospital clinic labs
    systems technologies solutions services partners foundation association institute
    """
)
# Chinese and Japanese words that follow 患者 or 客户 and are not names.
_NOT_HAN_NAMES = ("病情", "稳定", "情况", "未知", "匿名", "不详", "本人", "待定", "暂无", "其他")


def person_name(value: str) -> bool:
    """A plausible personal name: not a common word, an acronym or an organization."""
    words = value.replace("\u3000", " ").split()
    if not words:
        return False
    first = words[0].rstrip(".,'’").lower()
    if first in _NOT_NAMES or any(w.lower().rstrip(".,") in _ORGANIZATION for w in words[1:]):
        return False
    if len(words) == 1 and len(value) > 1 and value.isupper() and value.isascii():
        return False  # "ACME", "API": acronyms, not people
    return not value.startswith(_NOT_HAN_NAMES)


# Names policies may use in custom detectors.
VALIDATORS: dict[str, Callable[[str], bool]] = {
    "luhn": luhn,
    "iban": iban,
    "verhoeff": verhoeff,
    "aadhaar": aadhaar,
    "nhs_number": nhs_number,
    "us_ssn": us_ssn,
    "github_token": github_token,
    "card_number": card_number,
    "email": email,
    "ip_address": ip_address,
    "phone": phone,
    "uk_nino": _id_checks.uk_nino,
    "es_dni": _id_checks.es_dni,
    "it_codice_fiscale": _id_checks.it_codice_fiscale,
    "nl_bsn": _id_checks.nl_bsn,
    "fr_nir": _id_checks.fr_nir,
    "de_id_card": _id_checks.de_id_card,
    "de_tax_id": _id_checks.de_tax_id,
    "br_cpf": _id_checks.br_cpf,
    "ru_snils": _id_checks.ru_snils,
    "cn_resident_id": _id_checks.cn_resident_id,
    "jp_my_number": _id_checks.jp_my_number,
    "passport_number": _id_checks.passport_number,
    "th_citizen_id": _id_checks.th_citizen_id,
    "il_teudat_zehut": _id_checks.il_teudat_zehut,
    "gr_amka": _id_checks.gr_amka,
    "ua_rnokpp": _id_checks.ua_rnokpp,
    "fi_hetu": _id_checks.fi_hetu,
    "cz_rodne_cislo": _id_checks.cz_rodne_cislo,
    "ro_cnp": _id_checks.ro_cnp,
    "id_nik": _id_checks.id_nik,
    "date_parts": date_parts,
    "birth_date": birth_date,
    "person_name": person_name,
}
