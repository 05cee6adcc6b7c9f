"""Detection rules for names and street addresses in Swedish, Turkish, Russian, Arabic,
Vietnamese and Korean forms and addresses, and names in mentions, vCards and iCal.

They run after those of :mod:`vault._rules_names` (whose fragments and checks they
share), so that ties between findings resolve as before the rules were split.
"""

from __future__ import annotations

from .._rule import Rule
from ._names import (
    _CAP,
    _FAMILY_GIVEN,
    _LATIN_WORD,
    _NAME,
    _NAME_END,
    _PARTICLE,
    _TWO_WORDS,
    _person,
)
from ._names_data import (
    FORM_LABELS,
    KOREAN_LABELS,
    NAME_AFTER,
    RU_STREET_TYPES,
    TR_STREET_TYPES,
)

# --- forms and addresses of Swedish, Turkish, Russian, Arabic, Vietnamese and Korean ---------

# "Anställd: Lindqvist, Gustav", "Müşteri: Çelik, Mehmet", "ФИО: ...", "Họ tên: Đỗ Bích Ngọc",
# "الموظف: نورة السويدي", "Patient: KINGSBURY, Fiona", "환자명: 최도윤", "받는 사람 장하은".
_FORM_LABEL = (
    r"(?:(?m:^)|[^\p{L}])(?:(?i:" + FORM_LABELS + r")[ \t]*[:：]"
    r"|(?:" + KOREAN_LABELS + r")(?:[ \t]*[:：]|[ \t]))[ \t]*"
)
# One Latin or Arabic word after a label is as often an answer ("Sürücü: Yok") as a name.
_FORM_NAME = (
    _FORM_LABEL + r"(?P<value>" + _FAMILY_GIVEN + r"|" + _TWO_WORDS + r"|\p{Hangul}{2,}?"
    r"|\p{Arabic}+(?: \p{Arabic}+){1,3})" + _NAME_END
)
# "review with Jane Doe", "escalate to Jane Doe", "спросить у Светлана Шубин", a letter's
# "От Константин Чернышёв," and mentions: "@Jane Doe", Jira's "[~Jane Doe]".
_NAME_AFTER_PHRASE = (
    r"(?:(?:(?m:^)|[^\p{L}])(?i:" + NAME_AFTER + r")|(?m:^)От)[ \t]+"
    r"(?P<value>" + _TWO_WORDS + r")" + _NAME_END
)
_MENTION = (
    r"(?:(?m:^)|[\s(])(?:@|\[~)(?P<value>"
    + _LATIN_WORD
    + r" (?:"
    + _PARTICLE
    + r" )?"
    + _LATIN_WORD
    + r")(?:\]|"
    + _NAME_END
    + r")"
)
# vCard and iCalendar: "FN:Jane Doe", "N:DOE, Jane;;;", "N:Doe;Jane;;;", "ORGANIZER;CN=Jane Doe:"
_VCARD_NAME = (
    r"(?:(?m:^)(?:FN|N)(?:;[^:\r\n]*)?:|;CN=\"?)(?P<value>"
    + _FAMILY_GIVEN
    + r"|"
    + _LATIN_WORD
    + r";"
    + _LATIN_WORD
    + r"|\p{Lu}{2,};"
    + _LATIN_WORD
    + r"|"
    + _NAME
    + r")"
    r"(?:[\"';:,\r\n]|$)"
)

# Kungsgatan 59, Björkvägen 65 A, Tallstigen 30, lgh 1102; Storgata 5, Vestergade 12
_NORDIC_STREET = (
    r"(?:(?m:^)|[^\p{L}\p{N}])(?P<value>\p{Lu}\p{Ll}+(?:gatan|gata|gaten|gade|vägen|veien"
    r"|vegen|vej|vei|stigen|gränd|torget|backen|allén|leden|plan|stråket) \d{1,4}(?: ?[A-Z]\b)?"
    r"(?:, (?:lgh|Lgh) \d{3,4})?)(?:[^\p{L}\p{N}]|$)"
)
# İstiklal Cad. No:29/3, Bağdat Caddesi No:32 D:4, İstiklal Cad. No:142 Daire 12
_TR_STREET = (
    r"(?:(?m:^)|[^\p{L}\p{N}])(?P<value>"
    + _CAP
    + r"(?: "
    + _CAP
    + r"){0,2} (?:"
    + TR_STREET_TYPES
    + r") No ?: ?\d{1,5}[A-Z]?(?:/\d{1,4})?"
    r"(?: (?:D|Daire|Kat) ?:? ?\d{1,4})*)"
)
# Невский пр., дом 124, корп. 2, кв. 181; ш. Энтузиастов, дом 129, кв. 41
_RU_STREET = (
    r"(?:(?m:^)|[^\p{L}\p{N}])(?P<value>(?:(?:"
    + RU_STREET_TYPES
    + r") "
    + _CAP
    + r"(?: "
    + _CAP
    + r")?|"
    + _CAP
    + r"(?: "
    + _CAP
    + r")? (?:"
    + RU_STREET_TYPES
    + r"))"
    r",? (?:д\.|дом) ?\d{1,4}[а-я]?(?:,? (?:кв\.|корп\.|стр\.|к\.) ?\d{1,4})*)"
)
# شارع الشيخ زايد 497، مبنى 4
_AR_STREET = (
    r"(?P<value>(?:شارع|طريق) \p{Arabic}+(?: \p{Arabic}+){0,3} \d{1,5}"
    r"(?:[،,] ?(?:مبنى|بناية|عمارة|شقة|فيلا) \d{1,4})*)"
)
# 177/12 Điện Biên Phủ, Phường Bến Nghé; 61 Trần Hưng Đạo, Phường 7; 316/12 Phố Huế, Quận 3
_VI_STREET = (
    r"(?:(?m:^)|[^\p{L}\p{N}])(?P<value>\d{1,4}[A-Z]?(?:/\d{1,4}[A-Z]?){0,2} "
    + _CAP
    + r"(?: (?:"
    + _CAP
    + r"|\d{1,4})){0,4}, (?:Phường|Quận|Xã|Huyện|Thị trấn) (?:\d{1,2}\b|"
    + _CAP
    + r"(?: "
    + _CAP
    + r"){0,3}))"
)
# 경기도 성남시 분당구 판교역로 89, 101동 1203호; 서울특별시 강남구 테헤란로 285; ... 105 5층
_KO_STREET = (
    r"(?P<value>(?:\p{Hangul}+(?:도|시) )?\p{Hangul}+(?:시|군|구)(?: \p{Hangul}+(?:구|읍|면))?"
    r" \p{Hangul}+\d{0,3}(?:로|길)(?: \d{1,3}(?:번)?길)? \d{1,5}(?:-\d{1,4})?"
    r"(?:,? \d{1,4}동(?: \d{1,5}호)?|,? \d{1,5}호| \d{1,3}층)?)"
)


RULES: tuple[Rule, ...] = (
    Rule(
        name="person_name_form",
        kind="person_name",
        category="personal",
        pattern=_FORM_NAME,
        validator=_person,
        priority=3,
        gate="cues",
        cue=r"(?i:" + FORM_LABELS + r")[ \t]*[:：]|(?:" + KOREAN_LABELS + r")[ \t:：]",
        description="names after form labels in Swedish, Turkish, Russian, Vietnamese, Arabic "
        "and Korean ('Anställd: Lindqvist, Gustav', 'Müşteri:', 'Họ tên:', 'الموظف:', '환자명:')",
    ),
    Rule(
        name="person_name_after_phrase",
        kind="person_name",
        category="personal",
        pattern=_NAME_AFTER_PHRASE,
        validator=_person,
        priority=3,
        gate="cues",
        cue=r"(?i:" + NAME_AFTER + r")[ \t]+\p{Lu}|(?m:^)От \p{Lu}",
        description="two-word names after 'review with', 'escalate to', 'спросить у', 'avisar a'",
    ),
    Rule(
        name="person_name_mention",
        kind="person_name",
        category="personal",
        pattern=_MENTION,
        validator=_person,
        priority=3,
        gate="cues",
        cue=r"(?:@|\[~)\p{Lu}\p{Ll}+ \p{Lu}",
        description="two-word mentions ('@Jane Doe', Jira's '[~Jane Doe]')",
    ),
    Rule(
        name="person_name_vcard",
        kind="person_name",
        category="personal",
        pattern=_VCARD_NAME,
        validator=_person,
        priority=3,
        gate="cues",
        cue=r"(?m:^)(?:FN|N)[;:]|;CN=",
        description="names in vCard FN and N lines and iCalendar CN parameters",
    ),
    Rule(
        name="street_address_nordic",
        kind="street_address",
        category="personal",
        pattern=_NORDIC_STREET,
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
        pattern=_TR_STREET,
        priority=4,
        gate="cues",
        cue=r"(?:" + TR_STREET_TYPES + r") No ?:",
        description="Turkish streets with a door number ('İstiklal Cad. No:29/3')",
    ),
    Rule(
        name="street_address_ru",
        kind="street_address",
        category="personal",
        pattern=_RU_STREET,
        priority=4,
        gate="cues",
        cue=r",? (?:д\.|дом) ?\d",
        description="Russian streets with a house number ('Невский пр., дом 124, кв. 181')",
    ),
    Rule(
        name="street_address_ar",
        kind="street_address",
        category="personal",
        pattern=_AR_STREET,
        priority=4,
        gate="cues",
        cue=r"(?:شارع|طريق) \p{Arabic}",
        description="Arabic streets with a number ('شارع الشيخ زايد 497، مبنى 4')",
    ),
    Rule(
        name="street_address_vi",
        kind="street_address",
        category="personal",
        pattern=_VI_STREET,
        priority=4,
        gate="cues",
        cue=r", (?:Phường|Quận|Xã|Huyện|Thị trấn) ",
        description="Vietnamese streets with their ward or district ('61 Trần Hưng Đạo, Phường 7')",
    ),
    Rule(
        name="street_address_ko",
        kind="street_address",
        category="personal",
        pattern=_KO_STREET,
        priority=4,
        gate="cues",
        cue=r"\p{Hangul}(?:로|길) \d",
        description="Korean road-name addresses ('서울특별시 강남구 테헤란로 285')",
    ),
)
