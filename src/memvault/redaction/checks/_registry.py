"""The validators a policy may name in a custom detector, by name.

The names are part of the policy format (``validator = "luhn"``): a name, once
listed, keeps its meaning.
"""

from __future__ import annotations

from collections.abc import Callable

from . import _national_ids as ids
from ._checksums import luhn, verhoeff
from ._contact import email, ip_address, phone
from ._dates import birth_date, date_parts
from ._financial import card_number, iban
from ._names import person_name
from ._secrets import github_token

VALIDATORS: dict[str, Callable[[str], bool]] = {
    "luhn": luhn,
    "iban": iban,
    "verhoeff": verhoeff,
    "aadhaar": ids.aadhaar,
    "nhs_number": ids.nhs_number,
    "us_ssn": ids.us_ssn,
    "github_token": github_token,
    "card_number": card_number,
    "email": email,
    "ip_address": ip_address,
    "phone": phone,
    "uk_nino": ids.uk_nino,
    "es_dni": ids.es_dni,
    "it_codice_fiscale": ids.it_codice_fiscale,
    "nl_bsn": ids.nl_bsn,
    "fr_nir": ids.fr_nir,
    "de_id_card": ids.de_id_card,
    "de_tax_id": ids.de_tax_id,
    "br_cpf": ids.br_cpf,
    "ru_snils": ids.ru_snils,
    "cn_resident_id": ids.cn_resident_id,
    "jp_my_number": ids.jp_my_number,
    "passport_number": ids.passport_number,
    "th_citizen_id": ids.th_citizen_id,
    "il_teudat_zehut": ids.il_teudat_zehut,
    "gr_amka": ids.gr_amka,
    "ua_rnokpp": ids.ua_rnokpp,
    "fi_hetu": ids.fi_hetu,
    "cz_rodne_cislo": ids.cz_rodne_cislo,
    "ro_cnp": ids.ro_cnp,
    "id_nik": ids.id_nik,
    "date_parts": date_parts,
    "birth_date": birth_date,
    "person_name": person_name,
}
