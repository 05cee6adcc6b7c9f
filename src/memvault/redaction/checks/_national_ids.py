"""Check digits and shapes of national identifiers and passports.

Each validator takes the matched value and returns True if it is plausibly
real; ``_registry`` names them for policies.
"""

from __future__ import annotations

from collections import Counter

from ._checksums import digits, luhn_digits, verhoeff, weighted


def uk_nino(value: str) -> bool:
    """UK National Insurance number: the prefixes HMRC never issues are excluded."""
    compact = value.replace(" ", "").upper()
    if len(compact) != 9 or compact[-1] not in "ABCD" or not compact[2:8].isdigit():
        return False
    first, second = compact[0], compact[1]
    return (
        first not in "DFIQUV"
        and second not in "DFIOQUV"
        and compact[:2] not in ("BG", "GB", "KN", "NK", "NT", "TN", "ZZ")
    )


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


def aadhaar(value: str) -> bool:
    """Indian Aadhaar number: 12 digits, not from 0 or 1, Verhoeff check digit."""
    number = digits(value)
    return len(number) == 12 and number[0] not in "01" and verhoeff(number)


_DNI_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE"


def es_dni(value: str) -> bool:
    """Spanish DNI (8 digits and a letter) or NIE (X/Y/Z, 7 digits, letter): mod-23 letter."""
    compact = value.replace("-", "").replace(" ", "").upper()
    if compact[:1] in ("X", "Y", "Z"):
        compact = str("XYZ".index(compact[0])) + compact[1:]
    if len(compact) != 9 or not compact[:8].isdigit():
        return False
    return _DNI_LETTERS[int(compact[:8]) % 23] == compact[8]


_CF_ODD = dict(zip("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ", [
    1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3,
    6, 8, 12, 14, 16, 10, 22, 25, 24, 23,
], strict=True))  # fmt: skip


def it_codice_fiscale(value: str) -> bool:
    """Italian codice fiscale: 16 characters, the last a check letter over the first 15."""
    code = value.upper()
    if len(code) != 16 or not code.isalnum():
        return False
    total = 0
    for i, ch in enumerate(code[:15]):
        total += _CF_ODD[ch] if i % 2 == 0 else (int(ch) if ch.isdigit() else ord(ch) - 65)
    return chr(65 + total % 26) == code[15]


def nl_bsn(value: str) -> bool:
    """Dutch BSN: 9 digits passing the eleven-test (weights 9..2, and -1 for the last)."""
    number = digits(value)
    if len(number) != 9 or number == "000000000":
        return False
    total = sum(int(d) * w for d, w in zip(number, (9, 8, 7, 6, 5, 4, 3, 2, -1), strict=True))
    return total % 11 == 0


def fr_nir(value: str) -> bool:
    """French NIR (INSEE number): 13 characters and a key of 97 - (number mod 97)."""
    compact = value.replace(" ", "").upper()
    if len(compact) != 15 or compact[0] not in "1278":
        return False
    body = compact[:13].replace("2A", "19").replace("2B", "18")
    if not body.isdigit() or not compact[13:].isdigit():
        return False
    return 97 - int(body) % 97 == int(compact[13:])


def _icao_digit(chars: str) -> int:
    total = 0
    for i, ch in enumerate(chars):
        total += (int(ch) if ch.isdigit() else ord(ch) - 55) * (7, 3, 1)[i % 3]
    return total % 10


def de_id_card(value: str) -> bool:
    """German identity card or passport number; a tenth character is its ICAO check digit."""
    code = value.upper()
    if len(code) == 10:
        return code[9].isdigit() and _icao_digit(code[:9]) == int(code[9])
    return len(code) == 9 and sum(ch.isdigit() for ch in code) >= 3


def de_tax_id(value: str) -> bool:
    """German Steuer-ID: 11 digits, ISO 7064 MOD 11,10 check, one digit repeated in the first 10."""
    number = digits(value)
    if len(number) != 11 or number[0] == "0":
        return False
    counts = Counter(number[:10])
    if max(counts.values()) > 3 or len(counts) < 8:
        return False
    product = 10
    for ch in number[:10]:
        total = (int(ch) + product) % 10 or 10
        product = total * 2 % 11
    return (11 - product) % 10 == int(number[10])


def br_cpf(value: str) -> bool:
    """Brazilian CPF: 11 digits, two mod-11 check digits."""
    number = [int(d) for d in digits(value)]
    if len(number) != 11 or len(set(number)) == 1:
        return False
    for size in (9, 10):
        total = sum(d * w for d, w in zip(number[:size], range(size + 1, 1, -1), strict=True))
        if total * 10 % 11 % 10 != number[size]:
            return False
    return True


def ru_snils(value: str) -> bool:
    """Russian SNILS: 9 digits and a 2-digit checksum (weights 9..1, mod 101)."""
    number = digits(value)
    if len(number) != 11:
        return False
    total = sum(int(d) * w for d, w in zip(number[:9], range(9, 0, -1), strict=True))
    check = total % 101 % 100
    return check == int(number[9:])


def cn_resident_id(value: str) -> bool:
    """Chinese resident identity number: 17 digits, ISO 7064 MOD 11-2 check character."""
    code = value.upper()
    if len(code) != 18 or not code[:17].isdigit():
        return False
    weights = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
    total = sum(int(d) * w for d, w in zip(code[:17], weights, strict=True))
    month, day = int(code[10:12]), int(code[12:14])
    return 1 <= month <= 12 and 1 <= day <= 31 and "10X98765432"[total % 11] == code[17]


def jp_my_number(value: str) -> bool:
    """Japanese My Number: 11 digits and a mod-11 check digit."""
    number = digits(value)
    if len(number) != 12:
        return False
    total = 0
    for n, ch in enumerate(reversed(number[:11]), start=1):
        total += int(ch) * (n + 1 if n <= 6 else n - 5)
    rest = total % 11
    return (0 if rest <= 1 else 11 - rest) == int(number[11])


def pl_pesel(value: str) -> bool:
    """Polish PESEL: a birth date (the month carries the century) and a weighted check digit."""
    number = digits(value)
    if len(number) != 11:
        return False
    check = sum(int(ch) * w for ch, w in zip(number, (1, 3, 7, 9, 1, 3, 7, 9, 1, 3), strict=False))
    if (10 - check % 10) % 10 != int(number[10]):
        return False
    month = int(number[2:4]) % 20
    return 1 <= month <= 12 and 1 <= int(number[4:6]) <= 31


def passport_number(value: str) -> bool:
    """A passport number next to the word: mostly digits, or a 9-character ICAO code."""
    code = value.replace(" ", "").upper()
    count = sum(ch.isdigit() for ch in code)
    return count >= 5 or (len(code) == 9 and code.isalnum())


def ru_inn(value: str) -> bool:
    """Russian INN: 10 digits (organisations) or 12 (people), weighted mod-11 check digits."""
    n = [int(c) for c in digits(value)]

    def check(weights: tuple[int, ...]) -> int:
        return sum(w * d for w, d in zip(weights, n, strict=False)) % 11 % 10

    if len(n) == 10:
        return check((2, 4, 10, 3, 5, 9, 4, 6, 8)) == n[9]
    w11 = (7, 2, 4, 10, 3, 5, 9, 4, 6, 8)
    return len(n) == 12 and check(w11) == n[10] and check((3, *w11)) == n[11]


def se_personnummer(value: str) -> bool:
    """Swedish personnummer (YYMMDD-NNNC or with the century): Luhn over the last ten."""
    n = digits(value)[-10:]
    if len(digits(value)) not in (10, 12) or len(n) != 10:
        return False
    day = int(n[4:6]) % 60  # samordningsnummer add 60 to the day
    return 1 <= int(n[2:4]) <= 12 and 1 <= day <= 31 and luhn_digits(n)


def tr_tc_kimlik(value: str) -> bool:
    """Turkish TC Kimlik No: 11 digits, no leading zero, two check digits."""
    n = [int(c) for c in digits(value)]
    if len(n) != 11 or n[0] == 0:
        return False
    tenth = (sum(n[0:9:2]) * 7 - sum(n[1:8:2])) % 10
    return tenth == n[9] and sum(n[:10]) % 10 == n[10]


def kr_rrn(value: str) -> bool:
    """Korean resident registration number: a birth date and a sex/century digit (numbers
    issued since October 2020 carry no check digit, so none is required)."""
    n = digits(value)
    return len(n) == 13 and 1 <= int(n[2:4]) <= 12 and 1 <= int(n[4:6]) <= 31 and n[6] in "12345678"


def gulf_id(value: str) -> bool:
    """Saudi national id or iqama (10 digits from 1 or 2) and Emirates ID (15 digits from
    784): Luhn."""
    n = digits(value)
    if len(n) == 15:
        return n.startswith("784") and luhn_digits(n)
    return len(n) == 10 and n[0] in "12" and luhn_digits(n)


def vn_cccd(value: str) -> bool:
    """Vietnamese citizen identity card (CCCD): a province code 001-096, a sex/century
    digit and the two-digit birth year, then six digits."""
    n = digits(value)
    return len(n) == 12 and 1 <= int(n[:3]) <= 96 and n[3] in "0123"


def _day_month(day: int, month: int) -> bool:
    return 1 <= day <= 31 and 1 <= month <= 12


def th_citizen_id(value: str) -> bool:
    """Thai citizen id: 13 digits (the first a category 1-8), a mod-11 check digit."""
    n = digits(value)
    if len(n) != 13 or n[0] not in "12345678":
        return False
    return (11 - weighted(n, tuple(range(13, 1, -1))) % 11) % 10 == int(n[12])


def il_teudat_zehut(value: str) -> bool:
    """Israeli identity number (Teudat Zehut): nine digits (leading zeros written), the
    last a Luhn check digit."""
    n = digits(value)
    return len(n) == 9 and len(set(n)) >= 3 and luhn_digits(n)


def gr_amka(value: str) -> bool:
    """Greek social security number (AMKA): a DDMMYY birth date, four digits and a Luhn
    check digit."""
    n = digits(value)
    return len(n) == 11 and _day_month(int(n[:2]), int(n[2:4])) and luhn_digits(n)


def ua_rnokpp(value: str) -> bool:
    """Ukrainian taxpayer number of a person (РНОКПП, ІПН): ten digits, the first five the
    days since 31 December 1899, the last a weighted mod-11 check digit."""
    n = digits(value)
    if len(n) != 10 or len(set(n)) < 3:
        return False
    return weighted(n, (-1, 5, 7, 9, 4, 6, 10, 5, 7)) % 11 % 10 == int(n[9])


_HETU_CHECK = "0123456789ABCDEFHJKLMNPRSTUVWXY"


def fi_hetu(value: str) -> bool:
    """Finnish personal identity code (henkilötunnus): DDMMYY, a century sign, three digits
    and a mod-31 check character."""
    code = value.upper()
    if len(code) != 11 or code[6] not in "+-ABCDEFUVWXY" or not code[:6].isdigit():
        return False
    body = code[:6] + code[7:10]
    if not body.isdigit() or not _day_month(int(code[:2]), int(code[2:4])):
        return False
    return _HETU_CHECK[int(body) % 31] == code[10]


def cz_rodne_cislo(value: str) -> bool:
    """Czech and Slovak birth number (rodné číslo): YYMMDD/NNNN, the month plus 50 for
    women (plus 20 or 70 in overflow series), the ten digits divisible by 11."""
    n = digits(value)
    if len(n) != 10:
        return False
    month = int(n[2:4]) % 50
    month = month - 20 if month > 20 else month
    if not _day_month(int(n[4:6]), month):
        return False
    return int(n) % 11 == 0 or (int(n[:9]) % 11 == 10 and n[9] == "0")


def ro_cnp(value: str) -> bool:
    """Romanian personal numeric code (CNP): sex/century digit, YYMMDD, county, serial and
    a weighted mod-11 check digit."""
    n = digits(value)
    if len(n) != 13 or n[0] == "0" or not _day_month(int(n[5:7]), int(n[3:5])):
        return False
    if not (1 <= int(n[7:9]) <= 52 or n[7:9] == "70"):
        return False
    check = weighted(n, (2, 7, 9, 1, 4, 6, 3, 5, 8, 2, 7, 9)) % 11
    return (1 if check == 10 else check) == int(n[12])


def id_nik(value: str) -> bool:
    """Indonesian population number (NIK): a region code, the birth date as DDMMYY (day
    plus 40 for women) and a serial; it has no check digit."""
    n = digits(value)
    if len(n) != 16 or not 11 <= int(n[:2]) <= 94 or n[12:] == "0000":
        return False
    day = int(n[6:8])
    return _day_month(day - 40 if day > 40 else day, int(n[8:10]))


def tax_field_id(value: str) -> bool:
    """A person's national id in a tax-id field, told apart by its shape and check digits:
    Spanish DNI/NIE, Brazilian CPF, Ukrainian RNOKPP, Thai citizen id, Romanian CNP."""
    number = digits(value)
    if not value[-1].isdigit():
        return es_dni(value)
    if len(number) == 11:
        return br_cpf(value)
    if len(number) == 10:
        return ua_rnokpp(value)
    return len(number) == 13 and (th_citizen_id(value) or ro_cnp(value))
