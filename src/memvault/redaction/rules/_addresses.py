"""Detection rules for street addresses in records and in the address forms of further
countries: Romanian, Indonesian, Ukrainian, Greek, Hebrew, Finnish, Czech, Portuguese,
Thai, Chinese and Japanese, German compounds, Hungarian, Baltic and South Slavic
street types, and the values of address keys and labels.

They run after those of :mod:`vault._rules_names_fields`, so that ties between findings
resolve as before these rules were split off.
"""

from __future__ import annotations

import re

from .._rule import Rule
from ._names import _CAP
from ._names_data import ADDRESS_KEYS, ADDRESS_LABELS, SUFFIX_STREET_TYPES

# --- street addresses ------------------------------------------------------------------------

_CAPS = _CAP + r"(?: " + _CAP + r"){0,3}"
_STARTS = r"(?:(?m:^)|[^\p{L}\p{N}])"

# Romanian: Str. Victoriei nr. 25, bl. A6, sc. 2, ap. 57; Bd. Unirii nr. 3
_RO_STREET = (
    _STARTS + r"(?P<value>(?:Str\.|Strada|Bd\.|Bdul\.|B-dul|Bulevardul|Calea|Șos\.|Şos\."
    r"|Șoseaua|Aleea|Splaiul|Piața) " + _CAPS + r",? nr\. ?\d{1,4}[A-Za-z]?"
    r"(?:, ?(?:bl|sc|et|ap)\. ?[\p{L}\d]{1,4})*)"
)
# Indonesian: Jl. Diponegoro No. 34, RT 11/RW 04; Jalan Sudirman No. 112
_ID_STREET = (
    _STARTS + r"(?P<value>(?:Jl\.|Jln\.|Jalan|Gg\.|Gang) " + _CAPS + r",? No\.? ?\d{1,4}[A-Za-z]?"
    r"(?:,? RT\.? ?\d{1,3} ?/ ?RW\.? ?\d{1,3})?)"
)
# Ukrainian and Russian with the number straight after the street: вул. Сумська, 34, кв. 28
_UA_STREET = (
    _STARTS + r"(?P<value>(?:вул\.|вулиця|просп\.|проспект|пров\.|провулок|бульв\.|бульвар"
    r"|пл\.|площа|наб\.|ул\.|пр-т|пр\.) " + _CAP + r"(?: " + _CAP + r")?,? (?:буд\. ?)?"
    r"\d{1,4}[а-яієї]?(?:/\d{1,3})?(?:,? (?:кв\.|корп\.|к\.) ?\d{1,4})*)"
)
# Greek: Οδός Ερμού 131, Πάτρα; Λεωφ. Σταδίου 64, 105 64 Αθήνα
_GR_STREET = (
    _STARTS
    + r"(?P<value>(?:Οδός|Οδ\.|Λεωφ\.|Λεωφόρος|Πλατεία|Πλ\.) "
    + _CAPS
    + r",? \d{1,4}[Α-Ωα-ω]?(?:, ?(?:\d{3} ?\d{2} )?"
    + _CAP
    + r"(?: "
    + _CAP
    + r")?)?)"
)
# Hebrew: רחוב בן יהודה 66, חיפה; שדרות רוטשילד 12, תל אביב
_HE_WORD = r"\p{Hebrew}[\p{Hebrew}׳'\"\-]*"
_HE_STREET = (
    r"(?P<value>(?:רחוב|רח׳|רח'|שדרות|שד׳|שד'|דרך|סמטת) "
    + _HE_WORD
    + r"(?: "
    + _HE_WORD
    + r"){0,2} \d{1,4}(?:, ?"
    + _HE_WORD
    + r"(?: "
    + _HE_WORD
    + r")?)?)"
)
# Finnish: Kauppakatu 1 C 17, Puistotie 24 C 13, Koivukuja 3 as 5
_FI_STREET = (
    _STARTS + r"(?P<value>\p{Lu}\p{Ll}+(?:katu|tie|kuja|polku|väylä|kaari|raitti|tori)"
    r" \d{1,4}(?: ?[A-Z](?: ?\d{1,3})?| as\.? \d{1,3})?)(?:[^\p{L}\p{N}]|$)"
)
# Czech: a street adjective and its house/orientation numbers (Korunní 580/5,
# Vinohradská 2977/70), or any street after "bytem" (resident at).
_CZ_STREET = (
    _STARTS + r"(?P<value>(?:náměstí |nábřeží |třída )?\p{Lu}\p{Ll}{2,}(?:ská|cká|ní|ova|ého|ovo)"
    r"(?: \p{Lu}?\p{Ll}+)? \d{1,5}/\d{1,4}[a-z]?)(?:[^\p{L}\p{N}/]|$)"
)
_CZ_RESIDENT = (
    r"(?:(?m:^)|[^\p{L}])(?i:bytem|bydliště:?|trvale bytem) (?P<value>"
    + _CAPS
    + r" \d{1,5}(?:/\d{1,4}[a-z]?)?)(?:[^\p{L}\p{N}/]|$)"
)
# Portuguese: Estrada Haddock Lobo, 628 - apto 13; Rua Santos, 1074 - apto 34
_PT_STREET = (
    _STARTS + r"(?P<value>(?:Rua|Avenida|Av\.|Estrada|Travessa|Alameda|Praça|Rodovia|Largo)"
    r" (?:(?:da|do|das|dos|de) )?"
    + _CAP
    + r"(?: (?:(?:da|do|das|dos|de|e) )?"
    + _CAP
    + r"){0,3},? (?:n[º°]\.? ?)?\d{1,5}(?:[ \t]*[-–,][ \t]*(?:apto\.?|apt\.?|ap\.|apartamento"
    r"|casa|bloco|sala|conj\.?) ?\d{1,5}[A-Z]?)?)"
)
# Thai: 138/65 ถนนรัชดาภิเษก แขวงลาดยาว เขตจตุจักร
_TH_STREET = (
    r"(?P<value>\d{1,4}(?:/\d{1,4})? (?:หมู่ ?\d{1,2} )?(?:ถนน|ถ\.|ซอย|ซ\.)\p{Thai}+"
    r"(?: (?:ถนน|ถ\.)\p{Thai}+)?(?: (?:แขวง|ตำบล|ต\.)\p{Thai}+)?(?: (?:เขต|อำเภอ|อ\.)\p{Thai}+)?)"
)
# Chinese and Japanese addresses after the word for address: 新地址广州市天河区珞喻路328号6栋1096室,
# 新住所は京都府京都市左京区下鴨9丁目3番11号
_CJK_STREET = (
    r"(?:地址|住所|所在地|居住地)[ \t]*(?:[:：は为是][ \t]*)?"
    r"(?P<value>\p{Han}{1,4}(?:市|都|道|府|県|省)"
    r"\p{Han}{1,6}(?:区|市|県|町|村)\p{Han}{1,8}(?:\d{1,5}号|\d{1,4}-\d{1,4}(?:-\d{1,4})?"
    r"|\d{1,3}丁目(?:\d{1,4}番地?(?:\d{1,4}号)?)?)"
    r"(?:\d{1,4}(?:栋|幢|号楼|座)(?:\d{1,2}单元)?(?:\d{1,5}(?:室|号))?)?)"
)
# German compounds of a street word: Lindenstieg 4, Schlossgraben 12 and "Zur alten
# Post 58c" (a preposition, an adjective, a noun). Endings that English words share
# ("-ring", "-tor", "-wall": "Monitoring 2", "Editor 3", "Firewall 2") are left out, and
# a house number has at most three digits ("Heidelberg 2025" is an event).
_DE_STREET = (
    _STARTS + r"(?P<value>\p{Lu}[\p{Ll}ß]+(?:stieg|steig|pfad|markt|graben|hof|feld|brücke)"
    r" \d{1,3}[a-z]?"
    r"|(?:Zur|Zum|Am|An der|Auf der|Im|In der|Unter den|Hinter der) \p{Ll}+(?:en|er|es|e)"
    r" \p{Lu}[\p{Ll}ß]+ \d{1,3}[a-z]?)(?:[^\p{L}\p{N}]|$)"
)
# Values of address keys in JSON and XML: "street": "...", <postalAddress>...</postalAddress>
_ADDRESS_FIELD = (
    r"(?:\\?[\"'](?i:" + ADDRESS_KEYS + r")\\?[\"'][ \t]*:[ \t]*\\?[\"']"
    r"|<(?:[\w\-]+:)?(?i:" + ADDRESS_KEYS + r")>)"
    r"(?P<value>[\p{L}\d][^\"\\<>\r\n]{2,78}[\p{L}\d.])(?:\\?[\"']|</)"
)
# A line that opens with an address label, the address on it or indented on the next:
# "Adresse: Lindenallee 5, 10115 Berlin", "Alamat:\n    Jl. ...".
_ADDRESS_LABELLED = (
    r"(?m:^)[ \t]*(?:[-*•][ \t]*)?(?:\*\*)?(?i:" + ADDRESS_LABELS + r")(?:\*\*)?[ \t]*[:：]"
    r"(?:\*\*)?[ \t]*(?:\r?\n[ \t]+)?(?P<value>[\p{L}\d][^\r\n]{4,98}[\p{L}\d])[ \t]*\.?\r?(?m:$)"
)
# Kossuth Lajos utca 12, Brīvības iela 40, Gedimino pr. 9, Pärnu mnt 12, Slovenska cesta 3
_SUFFIX_STREET = (
    _STARTS + r"(?P<value>" + _CAP + r"(?: " + _CAP + r"){0,2} (?:" + SUFFIX_STREET_TYPES + r")"
    r" \d{1,4}[A-Za-z]?(?:[/\-]\d{1,4})?(?:[,.] ?\d{1,2}\. ?(?:em|emelet|ajtó)\.?)?)"
    r"(?:[^\p{L}\p{N}]|$)"
)


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
        name="street_address_labelled",
        kind="street_address",
        category="personal",
        pattern=_ADDRESS_LABELLED,
        validator=_address_value,
        priority=4,
        gate="cues",
        cue=r"(?i:" + ADDRESS_LABELS + r")(?:\*\*)?[ \t]*[:：]",
        description="addresses on a line that opens with an address label ('Adresse: ...', "
        "'Alamat:' and the next line)",
    ),
    Rule(
        name="street_address_suffix",
        kind="street_address",
        category="personal",
        pattern=_SUFFIX_STREET,
        priority=4,
        gate="cues",
        cue=r"\p{L}\.? (?:" + SUFFIX_STREET_TYPES + r") \d",
        description="Hungarian, Baltic and South Slavic streets ('Kossuth Lajos utca 12', "
        "'Brīvības iela 40', 'Gedimino pr. 9')",
    ),
    Rule(
        name="street_address_ro",
        kind="street_address",
        category="personal",
        pattern=_RO_STREET,
        priority=4,
        gate="cues",
        cue=r" nr\. ?\d",
        description="Romanian streets ('Str. Victoriei nr. 25, bl. A6, ap. 57')",
    ),
    Rule(
        name="street_address_id",
        kind="street_address",
        category="personal",
        pattern=_ID_STREET,
        priority=4,
        gate="cues",
        cue=r"(?:Jl\.|Jln\.|Jalan|Gg\.|Gang) \p{Lu}",
        description="Indonesian streets ('Jl. Diponegoro No. 34, RT 11/RW 04')",
    ),
    Rule(
        name="street_address_ua",
        kind="street_address",
        category="personal",
        pattern=_UA_STREET,
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
        pattern=_GR_STREET,
        priority=4,
        gate="cues",
        cue=r"(?:Οδός|Οδ\.|Λεωφ\.|Λεωφόρος|Πλατεία|Πλ\.) \p{Lu}",
        description="Greek streets ('Οδός Ερμού 131, Πάτρα')",
    ),
    Rule(
        name="street_address_he",
        kind="street_address",
        category="personal",
        pattern=_HE_STREET,
        priority=4,
        gate="cues",
        cue=r"(?:רחוב|רח׳|רח\'|שדרות|שד׳|שד\'|דרך|סמטת) \p{Hebrew}",
        description="Hebrew streets ('רחוב בן יהודה 66, חיפה')",
    ),
    Rule(
        name="street_address_fi",
        kind="street_address",
        category="personal",
        pattern=_FI_STREET,
        priority=4,
        gate="cues",
        cue=r"\p{Ll}(?:katu|tie|kuja|polku|väylä|kaari|raitti|tori) \d",
        description="Finnish streets ('Kauppakatu 1 C 17', 'Puistotie 24')",
    ),
    Rule(
        name="street_address_cz",
        kind="street_address",
        category="personal",
        pattern=_CZ_STREET,
        priority=4,
        gate="cues",
        cue=r"\p{Ll} \d{1,5}/\d",
        description="Czech streets with house and orientation numbers ('Vinohradská 2977/70')",
    ),
    Rule(
        name="street_address_cz_resident",
        kind="street_address",
        category="personal",
        pattern=_CZ_RESIDENT,
        priority=4,
        gate="cues",
        cue=r"(?i:bytem|bydliště) \p{Lu}",
        description="Czech streets after 'bytem' (resident at)",
    ),
    Rule(
        name="street_address_pt",
        kind="street_address",
        category="personal",
        pattern=_PT_STREET,
        priority=4,
        gate="cues",
        cue=r"(?:Rua|Avenida|Av\.|Estrada|Travessa|Alameda|Praça|Rodovia|Largo) \p{L}",
        description="Portuguese and Brazilian streets with a flat ('Estrada X, 628 - apto 13')",
    ),
    Rule(
        name="street_address_th",
        kind="street_address",
        category="personal",
        pattern=_TH_STREET,
        priority=4,
        gate="cues",
        cue=r"\d (?:หมู่ ?\d{1,2} )?(?:ถนน|ถ\.|ซอย|ซ\.)\p{Thai}",
        description="Thai streets ('138/65 ถนนรัชดาภิเษก แขวงลาดยาว')",
    ),
    Rule(
        name="street_address_cjk",
        kind="street_address",
        category="personal",
        pattern=_CJK_STREET,
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
        pattern=_DE_STREET,
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
        pattern=_ADDRESS_FIELD,
        validator=_address_value,
        priority=4,
        gate="cues",
        cue=r"(?i:" + ADDRESS_KEYS + r")(?:\\?[\"']?[ \t]*:|>)",
        description="values of address keys in JSON ('street', 'postalAddress', 'Adresse')",
    ),
)
