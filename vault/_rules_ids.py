"""Detection rules for national identifiers: numbers a state gives its people.

Each is kept only if its check digits hold (and, for the weaker formats, next to
the words that name it), so that order, ticket and account numbers of the same
shape stay. The rules run after those of :mod:`vault._rules_personal`.
"""

from __future__ import annotations

from . import _id_checks as ids
from . import _validators as v
from ._rules import Rule
from ._rules_personal import IBAN_RUN

# Labels for any national identifier: a key or column named for it is context enough for
# numbers whose check digits hold.
_NATIONAL_ID_WORDS = (
    "national_id", "national id", "national-id", "nationalid", "national identi", "citizen_id",
    "citizen id", "personal_id", "personal id", "id_number",
)  # fmt: skip

RULES: tuple[Rule, ...] = (
    Rule(
        name="uk_nino",
        kind="national_id",
        category="personal",
        pattern=r"\b(?P<value>[A-Z]{2}(?: ?\d{2}){3} ?[A-D])\b",
        validator=ids.uk_nino,
        priority=16,
        description="UK National Insurance numbers (with HMRC's excluded prefixes)",
    ),
    Rule(
        name="nhs_number",
        kind="national_id",
        category="personal",
        pattern=r"\b(?P<value>\d{3}[ \-]?\d{3}[ \-]?\d{4})\b",
        keywords=("nhs",),
        context=("nhs",),
        validator=v.nhs_number,
        priority=16,
        description="UK NHS numbers (mod-11) next to 'NHS'",
    ),
    Rule(
        name="aadhaar",
        kind="national_id",
        category="personal",
        pattern=(
            IBAN_RUN + r"|\b\d{4}(?:[ \-]\d{4}){3,}|\b(?P<value>[2-9]\d{3}[ \-]\d{4}[ \-]\d{4})\b"
        ),
        validator=v.aadhaar,
        priority=16,
        description="Indian Aadhaar numbers in groups of four (Verhoeff)",
    ),
    Rule(
        name="aadhaar_plain",
        kind="national_id",
        category="personal",
        pattern=r"\b(?P<value>[2-9]\d{11})\b",
        keywords=("aadhaar", "aadhar", "uidai", "आधार", *_NATIONAL_ID_WORDS),
        context=("aadhaar", "aadhar", "uidai", "आधार", *_NATIONAL_ID_WORDS),
        validator=v.aadhaar,
        priority=16,
        description="Indian Aadhaar numbers without spaces, next to 'Aadhaar'",
    ),
    Rule(
        name="de_id_card",
        kind="national_id",
        category="personal",
        pattern=r"\b(?P<value>[CFGHJKLMNPRTVWXYZ][0-9CFGHJKLMNPRTVWXYZ]{8}\d?)\b",
        keywords=("ausweis", "id card", "identity card", "id-karte"),
        context=("ausweis", "id card", "identity card", "id-karte"),
        validator=ids.de_id_card,
        priority=16,
        description="German identity card numbers next to 'Personalausweis' (ICAO check digit)",
    ),
    Rule(
        name="de_tax_id",
        kind="national_id",
        category="personal",
        pattern=r"\b(?P<value>\d{11}|\d{2} \d{3} \d{3} \d{3})\b",
        keywords=(
            "steuer",
            "tax id",
            "idnr",
            "identifikationsnummer",
            "tax_id",
            "taxid",
            *_NATIONAL_ID_WORDS,
        ),
        context=(
            "steuer",
            "tax id",
            "idnr",
            "identifikationsnummer",
            "tax_id",
            "taxid",
            *_NATIONAL_ID_WORDS,
        ),
        validator=ids.de_tax_id,
        priority=16,
        description="German tax identification numbers (Steuer-ID, ISO 7064 check digit)",
    ),
    Rule(
        name="fr_nir",
        kind="national_id",
        category="personal",
        pattern=(r"\b(?P<value>[1278] ?\d{2} ?\d{2} ?(?:\d{2}|2[AB]) ?\d{3} ?\d{3} ?\d{2})\b"),
        validator=ids.fr_nir,
        priority=16,
        description="French social security (INSEE/NIR) numbers with their key",
    ),
    Rule(
        name="es_dni",
        kind="national_id",
        category="personal",
        pattern=r"\b(?P<value>\d{8}[\- ]?[A-Z]|[XYZ][\- ]?\d{7}[\- ]?[A-Z])\b",
        keywords=("dni", "nie", "nif", "d.n.i", "documento", "identidad"),
        context=("dni", "nie", "nif", "d.n.i", "documento", "identidad"),
        window=64,
        validator=ids.es_dni,
        priority=16,
        description="Spanish DNI/NIF and NIE numbers (mod-23 letter) next to 'DNI', 'NIE', 'NIF'",
    ),
    Rule(
        name="it_codice_fiscale",
        kind="national_id",
        category="personal",
        pattern=(
            r"\b(?P<value>[A-Z]{6}[0-9LMNPQRSTUV]{2}[ABCDEHLMPRST][0-9LMNPQRSTUV]{2}[A-Z]"
            r"[0-9LMNPQRSTUV]{3}[A-Z])\b"
        ),
        validator=ids.it_codice_fiscale,
        priority=16,
        description="Italian codice fiscale (check letter)",
    ),
    Rule(
        name="nl_bsn",
        kind="national_id",
        category="personal",
        pattern=r"\b(?P<value>\d{9}|\d{4}\.\d{2}\.\d{3}|\d{3}[ .]\d{3}[ .]\d{3})\b",
        keywords=("bsn", "burgerservicenummer", "sofinummer", "sofi-nummer", *_NATIONAL_ID_WORDS),
        context=("bsn", "burgerservicenummer", "sofinummer", "sofi-nummer", *_NATIONAL_ID_WORDS),
        validator=ids.nl_bsn,
        priority=16,
        description="Dutch citizen service numbers (BSN, eleven-test) next to 'BSN'",
    ),
    Rule(
        name="br_cpf",
        kind="national_id",
        category="personal",
        pattern=r"\b(?P<value>\d{3}\.\d{3}\.\d{3}-\d{2}|\d{11})\b",
        keywords=("cpf", *_NATIONAL_ID_WORDS),
        context=("cpf", *_NATIONAL_ID_WORDS),
        validator=ids.br_cpf,
        priority=16,
        description="Brazilian CPF numbers (two check digits) next to 'CPF'",
    ),
    Rule(
        name="ru_snils",
        kind="national_id",
        category="personal",
        pattern=r"\b(?P<value>\d{3}-\d{3}-\d{3}[ \-]\d{2})\b",
        validator=ids.ru_snils,
        priority=16,
        description="Russian SNILS numbers (checksum)",
    ),
    Rule(
        name="cn_resident_id",
        kind="national_id",
        category="personal",
        pattern=r"\b(?P<value>[1-9]\d{5}(?:19|20)\d{2}[01]\d[0-3]\d{4}[\dXx])\b",
        validator=ids.cn_resident_id,
        priority=17,
        description="Chinese resident identity numbers (ISO 7064 check character)",
    ),
    Rule(
        name="pl_pesel",
        kind="national_id",
        category="personal",
        pattern=r"\b(?P<value>\d{11})\b",
        keywords=("pesel",),
        context=("pesel",),
        validator=ids.pl_pesel,
        priority=16,
        description="Polish PESEL numbers (birth date and check digit) next to 'PESEL'",
    ),
    Rule(
        name="jp_my_number",
        kind="national_id",
        category="personal",
        pattern=r"\b(?P<value>\d{12}|\d{4} \d{4} \d{4})\b",
        keywords=("マイナンバー", "個人番号", "my number", *_NATIONAL_ID_WORDS),
        context=("マイナンバー", "個人番号", "my number", *_NATIONAL_ID_WORDS),
        validator=ids.jp_my_number,
        priority=17,
        description="Japanese My Number (individual number) next to 'マイナンバー'",
    ),
)
