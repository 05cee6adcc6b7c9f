"""Detection rules for street addresses, in the national forms of many countries and
as the values of address labels and keys.

An address is personal data wherever it stands, so most rules need no cue word: the
shape of a street, its type and a house number is the cue (``_address_shapes``
holds the shapes). The rules are listed in the order the filter breaks ties in: where
two find the same span, the first listed names the finding.
"""

from __future__ import annotations

import re

from .._rule import Rule
from . import _address_shapes as shapes

# A house number stands alone ("12", "12a", "580/5", "328号"); an address holds no
# dotted run of numbers (an IP address, a version) and no port or scheme.
_HOUSE_NUMBER = re.compile(r"(?:^|[\s,])\d{1,5}(?:[A-Za-z]|/\d{1,4}[a-z]?)?(?:[\s,]|$)|\d号|\d番")
_NOT_ADDRESS = re.compile(r"\d+\.\d+\.\d+|://|@|0x|[{}$<>=]|:\d")


def _address_value(value: str) -> bool:
    """A street address, not a host, a link, a version or an id: words and a house number."""
    return (
        sum(c.isalpha() for c in value) >= 4
        and _HOUSE_NUMBER.search(value) is not None
        and _NOT_ADDRESS.search(value) is None
    )


RULES: tuple[Rule, ...] = (
    Rule(
        name="street_address",
        kind="street_address",
        category="personal",
        pattern=shapes.STREET,
        priority=4,
        gate="names",
        description="street addresses in US, UK, German, Dutch, French, Spanish, Italian, "
        "Portuguese, Indian, Russian, Chinese and Japanese forms, with postal codes",
    ),
    Rule(
        name="street_address_pl",
        kind="street_address",
        category="personal",
        pattern=shapes.PL_STREET_PREFIXED,
        priority=4,
        gate="cues",
        cue=r"(?:al|pl)\. \p{Lu}",
        description="Polish avenues and squares ('al. Jana Pawła II 13 m. 60', 'pl. Wolności 5')",
    ),
    Rule(
        name="street_address_preposition",
        kind="street_address",
        category="personal",
        pattern=shapes.PREPOSITION_STREET,
        priority=4,
        gate="cues",
        cue=r"(?:Am|An|Auf|Im|In|Zum|Zur|Unter|Hinter|Vor) [A-Z\xc4\xd6\xdc]",
        description="German streets named by a preposition ('Am Anger 23a', 'An der Alster 4')",
    ),
    Rule(
        name="street_address_nordic",
        kind="street_address",
        category="personal",
        pattern=shapes.NORDIC_STREET,
        priority=4,
        gate="cues",
        cue=r"\p{Ll}(?:gatan|gata|gaten|gade|vägen|veien|vegen|vej|vei|stigen|gränd|torget"
        r"|backen|allén|leden|plan|stråket) \d",
        description="Swedish, Norwegian and Danish streets ('Kungsgatan 59', 'Tallstigen 30, "
        "lgh 1102', 'Vestergade 12')",
    ),
    Rule(
        name="street_address_tr",
        kind="street_address",
        category="personal",
        pattern=shapes.TR_STREET,
        priority=4,
        gate="cues",
        cue=r"(?:" + shapes.TR_STREET_TYPES + r") No ?:",
        description="Turkish streets with a door number ('İstiklal Cad. No:29/3')",
    ),
    Rule(
        name="street_address_ru",
        kind="street_address",
        category="personal",
        pattern=shapes.RU_STREET,
        priority=4,
        gate="cues",
        cue=r",? (?:д\.|дом) ?\d",
        description="Russian streets with a house number ('Невский пр., дом 124, кв. 181')",
    ),
    Rule(
        name="street_address_ar",
        kind="street_address",
        category="personal",
        pattern=shapes.AR_STREET,
        priority=4,
        gate="cues",
        cue=r"(?:شارع|طريق) \p{Arabic}",
        description="Arabic streets with a number ('شارع الشيخ زايد 497، مبنى 4')",
    ),
    Rule(
        name="street_address_vi",
        kind="street_address",
        category="personal",
        pattern=shapes.VI_STREET,
        priority=4,
        gate="cues",
        cue=r", (?:Phường|Quận|Xã|Huyện|Thị trấn) ",
        description="Vietnamese streets with their ward or district ('61 Trần Hưng Đạo, Phường 7')",
    ),
    Rule(
        name="street_address_ko",
        kind="street_address",
        category="personal",
        pattern=shapes.KO_STREET,
        priority=4,
        gate="cues",
        cue=r"\p{Hangul}(?:로|길) \d",
        description="Korean road-name addresses ('서울특별시 강남구 테헤란로 285')",
    ),
    Rule(
        name="street_address_labelled",
        kind="street_address",
        category="personal",
        pattern=shapes.ADDRESS_LABELLED,
        validator=_address_value,
        priority=4,
        gate="cues",
        cue=r"(?i:" + shapes.ADDRESS_LABELS + r")(?:\*\*)?[ \t]*[:：]",
        description="addresses on a line that opens with an address label ('Adresse: ...', "
        "'Alamat:' and the next line)",
    ),
    Rule(
        name="street_address_suffix",
        kind="street_address",
        category="personal",
        pattern=shapes.SUFFIX_STREET,
        priority=4,
        gate="cues",
        cue=r"\p{L}\.? (?:" + shapes.SUFFIX_STREET_TYPES + r") \d",
        description="Hungarian, Baltic and South Slavic streets ('Kossuth Lajos utca 12', "
        "'Brīvības iela 40', 'Gedimino pr. 9')",
    ),
    Rule(
        name="street_address_ro",
        kind="street_address",
        category="personal",
        pattern=shapes.RO_STREET,
        priority=4,
        gate="cues",
        cue=r" nr\. ?\d",
        description="Romanian streets ('Str. Victoriei nr. 25, bl. A6, ap. 57')",
    ),
    Rule(
        name="street_address_id",
        kind="street_address",
        category="personal",
        pattern=shapes.ID_STREET,
        priority=4,
        gate="cues",
        cue=r"(?:Jl\.|Jln\.|Jalan|Gg\.|Gang) \p{Lu}",
        description="Indonesian streets ('Jl. Diponegoro No. 34, RT 11/RW 04')",
    ),
    Rule(
        name="street_address_ua",
        kind="street_address",
        category="personal",
        pattern=shapes.UA_STREET,
        priority=4,
        gate="cues",
        cue=r"(?:вул|вулиця|просп|проспект|пров|провулок|бульв|бульвар|пл|площа|наб|ул|пр-т|пр)"
        r"\.? \p{Lu}",
        description="Ukrainian and Russian streets with the number after the name "
        "('вул. Сумська, 34, кв. 28')",
    ),
    Rule(
        name="street_address_gr",
        kind="street_address",
        category="personal",
        pattern=shapes.GR_STREET,
        priority=4,
        gate="cues",
        cue=r"(?:Οδός|Οδ\.|Λεωφ\.|Λεωφόρος|Πλατεία|Πλ\.) \p{Lu}",
        description="Greek streets ('Οδός Ερμού 131, Πάτρα')",
    ),
    Rule(
        name="street_address_he",
        kind="street_address",
        category="personal",
        pattern=shapes.HE_STREET,
        priority=4,
        gate="cues",
        cue=r"(?:רחוב|רח׳|רח\'|שדרות|שד׳|שד\'|דרך|סמטת) \p{Hebrew}",
        description="Hebrew streets ('רחוב בן יהודה 66, חיפה')",
    ),
    Rule(
        name="street_address_fi",
        kind="street_address",
        category="personal",
        pattern=shapes.FI_STREET,
        priority=4,
        gate="cues",
        cue=r"\p{Ll}(?:katu|tie|kuja|polku|väylä|kaari|raitti|tori) \d",
        description="Finnish streets ('Kauppakatu 1 C 17', 'Puistotie 24')",
    ),
    Rule(
        name="street_address_cz",
        kind="street_address",
        category="personal",
        pattern=shapes.CZ_STREET,
        priority=4,
        gate="cues",
        cue=r"\p{Ll} \d{1,5}/\d",
        description="Czech streets with house and orientation numbers ('Vinohradská 2977/70')",
    ),
    Rule(
        name="street_address_cz_resident",
        kind="street_address",
        category="personal",
        pattern=shapes.CZ_RESIDENT,
        priority=4,
        gate="cues",
        cue=r"(?i:bytem|bydliště) \p{Lu}",
        description="Czech streets after 'bytem' (resident at)",
    ),
    Rule(
        name="street_address_pt",
        kind="street_address",
        category="personal",
        pattern=shapes.PT_STREET,
        priority=4,
        gate="cues",
        cue=r"(?:Rua|Avenida|Av\.|Estrada|Travessa|Alameda|Praça|Rodovia|Largo) \p{L}",
        description="Portuguese and Brazilian streets with a flat ('Estrada X, 628 - apto 13')",
    ),
    Rule(
        name="street_address_th",
        kind="street_address",
        category="personal",
        pattern=shapes.TH_STREET,
        priority=4,
        gate="cues",
        cue=r"\d (?:หมู่ ?\d{1,2} )?(?:ถนน|ถ\.|ซอย|ซ\.)\p{Thai}",
        description="Thai streets ('138/65 ถนนรัชดาภิเษก แขวงลาดยาว')",
    ),
    Rule(
        name="street_address_cjk",
        kind="street_address",
        category="personal",
        pattern=shapes.CJK_STREET,
        priority=4,
        gate="cues",
        cue=r"(?:地址|住所|所在地|居住地)",
        description="Chinese and Japanese addresses after the word for address "
        "('新地址广州市天河区...')",
    ),
    Rule(
        name="street_address_de_compound",
        kind="street_address",
        category="personal",
        pattern=shapes.DE_STREET,
        priority=4,
        gate="cues",
        cue=r"\p{Ll}(?:stieg|steig|pfad|markt|graben|hof|feld|brücke) \d"
        r"|(?:Zur|Zum|Am|An|Auf|Im|In|Unter|Hinter) \p{Ll}+ \p{Lu}",
        description="German streets named by a compound or an adjective ('Lindenstieg 4', "
        "'Zur alten Post 58c')",
    ),
    Rule(
        name="street_address_field",
        kind="street_address",
        category="personal",
        pattern=shapes.ADDRESS_FIELD,
        validator=_address_value,
        priority=4,
        gate="cues",
        cue=r"(?i:" + shapes.ADDRESS_KEYS + r")(?:\\?[\"']?[ \t]*:|>)",
        description="values of address keys in JSON ('street', 'postalAddress', 'Adresse')",
    ),
)
