"""Detection rules for names in records: fields and elements of JSON, XML, CSV and
forms, labels and roles in many languages, lists, chat quotes and table cells.

They run after those of :mod:`vault._rules_names_intl`, so that ties between findings
resolve as before these rules were added.
"""

from __future__ import annotations

import re

from .._rule import Rule
from ._names import _FAMILY_GIVEN, _NAME_END, _TWO_WORDS, _person
from ._names_data import (
    CALL_BACK,
    FIELD_KEYS,
    FULL_NAME_LABELS,
    LIST_LABELS,
    NAME_COLUMNS,
    NOTE_LABELS,
    ROLE_WORDS,
    THANKS,
)

# --- what a name is, in any script these rules read ------------------------------------------
#
# Scripts with case (Latin, Greek, Cyrillic) are told by their capitals; Hebrew and Thai
# have none, so a name there is exactly two words of the script where a label or key
# stands before it. "Last, First" and "LAST, First" are kept whole; a Japanese given
# name may be written in kana ("田中 さくら").

_HEBREW_WORD = r"\p{Hebrew}[\p{Hebrew}׳״'\-]*"
_THAI_WORD = r"\p{Thai}+"
_ANY_NAME = (
    r"(?:"
    + _FAMILY_GIVEN
    + r"|"
    + _TWO_WORDS
    + r"|"
    + _HEBREW_WORD
    + r" "
    + _HEBREW_WORD
    + r"|"
    + _THAI_WORD
    + r",? "
    + _THAI_WORD
    + r"|[\p{Han}々]{1,3}[ 　](?:[\p{Han}々]{1,3}|[\p{Hiragana}\p{Katakana}ー]{2,4})"
    r"|[\p{Han}々]{2,4}|\p{Hangul}{2,4})"
)
# Where a name in a record ends: a quote, a bracket, punctuation or the end of the line.
_END = r"(?:[\"'<)）\]},;:!。，、]|\\\"|[ \t]*(?:[—–(（]|\r?(?m:$))|\.(?:[ \t]|\r?(?m:$)))"


_PARTICLES = frozenset(
    [
        "van",
        "der",
        "den",
        "de",
        "la",
        "von",
        "du",
        "da",
        "di",
        "del",
        "della",
        "dos",
        "das",
        "do",
        "bin",
        "ibn",
        "al",
        "el",
        "zu",
    ]
)


def _names(value: str) -> bool:
    """Every name of a list (or the one name) passes the check of a name by shape: no
    word but a particle starts in lower case, and no word is a label's."""
    parts = [p.strip() for p in re.split(r"[;、，]|, (?=\S+ )|\band\b", value)]
    words = value.replace(",", " ").replace(";", " ").split()
    return all(w[0].islower() is False or w in _PARTICLES or w == "and" for w in words) and all(
        _person(p) for p in parts if p
    )


# {"holder": "Jane Doe"}, \"beneficiary\":\"Doe, Jane\", <fullName>Jane Doe</fullName>,
# owner_name = "田中 さくら" (TOML, YAML),
# crm.lookup({"query": "Jane Doe"})
_FIELD = (
    r"(?:\\?[\"'](?i:" + FIELD_KEYS + r")\\?[\"'][ \t]*[:=][ \t]*\\?[\"']"
    r"|(?m:^)[ \t]*(?i:" + FIELD_KEYS + r")[ \t]*[:=][ \t]*[\"']"
    r"|<(?:[\w\-]+:)?(?i:" + FIELD_KEYS + r")(?:[ \t][^<>]*)?>"
    r"|(?i:crm|customers?|contacts?|persons?|people|patients?|clients?|members?)"
    r"[._](?i:lookup|search|find)\w*\([ \t]*\{[ \t]*\"query\"[ \t]*:[ \t]*\")"
    r"[ \t]*(?P<value>" + _ANY_NAME + r")[ \t]*(?:\\?[\"']|</)"
)

# "Nama lengkap : Jane Doe", "- שם מלא = ...", "customer Doe, Jane", "πελάτης: ...",
# "Poznámka: pan/paní Jane Doe", "(as shown on your income tax return):  Jane Doe"
_HONORIFIC = r"(?:(?i:pan/paní|pan|paní|pani|bapak|ibu|pak|bu|κ\.|κος|κα) |คุณ)?"
_LABELLED = (
    r"(?:(?m:^)|[^\p{L}])(?:(?i:" + FULL_NAME_LABELS + r")[ \t]*(?:[:：=]|\.{3,})"
    r"|(?i:"
    + ROLE_WORDS
    + r")[ \t]*[:：])[ \t]*"
    + _HONORIFIC
    + r"(?P<value>"
    + _ANY_NAME
    + r")(?:"
    + _END
    + r"|[ \t]+\p{Ll})"
)
# Without a colon a role word is as often running text ("לקוח חדש נרשם."), so the name
# must end at a comma, a dash, a bracket or the line, or before a lower-case word.
_ROLE_BARE = (
    r"(?:(?m:^)|[^\p{L}])(?i:"
    + ROLE_WORDS
    + r")[ \t]+(?:[—–\-][ \t]+)?"
    + _HONORIFIC
    + r"(?P<value>"
    + _ANY_NAME
    + r")(?:[ \t]*(?:[,，—–(（]|\r?(?m:$))|[ \t]+\p{Ll})"
)

# A note, then a name the note is about: "Muistiinpano: Jane Doe (hetu ...)",
# "Нотатка: Jane Doe, РНОКПП ...", "备注：梁志强（身份证号", "メモ：清水 彩花様（".
_NOTE = (
    r"(?:(?m:^)|[^\p{L}])(?i:" + NOTE_LABELS + r")[ \t]*[:：][ \t]*"
    r"(?:(?i:pan/paní|pan|paní|pani|pelanggan|klien|asiakas) |คุณ)?"
    r"(?P<value>" + _ANY_NAME + r")"
    r"(?:[ \t]*[(（][^)）\r\n]{0,16}\d[\d \-/.]{5,}|, ?\p{Lu}{2,}\.?[ \t]*\d|様|さん"
    r"|[ \t]+\p{Thai})"
)

# "Attendees: Jane Doe, Doe, John" and the like: the whole list is one finding.
_LIST = (
    r"(?:(?m:^)|[^\p{L}])(?i:" + LIST_LABELS + r")[ \t]*[:：][ \t]*"
    r"(?P<value>" + _ANY_NAME + r"(?:(?:[ \t]*[,;、，][ \t]*| and )[^\r\n]{1,240}?)?)"
    r"[ \t]*\.?\r?(?m:$)"
)

# iCalendar: "SUMMARY:1:1 Jane Doe", "SUMMARY:Lunch with Jane Doe". A call or meeting
# "with" names a company as often as a person, so only the personal kinds count.
_ICAL_SUMMARY = (
    r"(?m:^)SUMMARY(?:;[^:\r\n]*)?:(?:1:1|1-on-1|1on1|(?i:one-on-one|1:1 with|lunch with"
    r"|coffee with|interview with))[ \t]*(?:[:\-–][ \t]*)?"
    r"(?P<value>" + _ANY_NAME + r")[ \t]*\r?(?m:$)"
)

# "jane@example.org (Jane Doe)", "the contractor (Jane Doe)", "(pasted by Jane Doe!)"
_BESIDE = (
    r"(?:@[\w\-]+(?:\.[\w\-]+)*\.\p{L}{2,}[ \t]*\(|(?i:contractor|consultant|freelancer"
    r"|intern|candidate|tenant|landlord|patient|customer|client|on-call|on call)[ \t]*\("
    r"|(?i:pasted|sent|shared|posted|forwarded|submitted|signed|written) by[ \t]+)"
    r"(?P<value>" + _ANY_NAME + r")(?:[)!]|" + _NAME_END + r")"
)

# "> **Jane Doe** wrote:", "> **Doe, Jane** wrote:"
_BOLD_WROTE = (
    r"(?:(?m:^)|[\s>])\*\*(?P<value>" + _ANY_NAME + r")\*\*[ \t]+(?:wrote|schreef|schrieb"
    r"|a écrit|escribió|ha scritto|escreveu|napisał|napisała|написала?|написав|napsal"
    r"|napsala|έγραψε|כתב|כתבה|menulis|kirjoitti|a scris|เขียน)[ \t]*:"
)

# "follow up with Jane Doe:", "dar seguimiento a", "зв'язатися з", "nachfassen bei"
_FOLLOW_UP = (
    r"(?:(?m:^)|[^\p{L}])(?i:follow up with|follow-up with|dar seguimiento a|hacer seguimiento a"
    r"|зв['’]язатися з|связаться с|nachfassen bei|relancer|ricontattare|entrar em contato com"
    r"|skontaktować się z|ota yhteyttä|kontaktovat|contactați|hubungi|フォロー[：:]|跟进[：:]?)"
    r"[ \t]*(?P<value>" + _ANY_NAME + r")[ \t]*[:：,.(]"
)

# "call back: Jane Doe (050 ...)", "rappeler Jane Doe (+33 ...)": a name before a phone
_CALL_BACK = (
    r"(?:(?m:^)|[^\p{L}])(?i:" + CALL_BACK + r")[ \t]*[:：]?[ \t]*(?P<value>" + _ANY_NAME + r")"
    r"[ \t]*[(,:][ \t]*\+?\d"
)

# "Thanks Jane Doe — refund ...", "Merci Doe, Jane!"
_THANKS = (
    r"(?:(?m:^)|[^\p{L}])(?i:" + THANKS + r")[ \t]+(?P<value>" + _ANY_NAME + r")"
    r"[ \t]*(?:[—–!,.]|\r?(?m:$))"
)

# A list item that opens with a name and a verb: "2. Jane Doe shared the creds in chat"
_ITEM_SUBJECT = (
    r"(?m:^)[ \t]*(?:\d{1,2}[.)]|[-*•])[ \t]+(?P<value>" + _ANY_NAME + r")[ \t]+(?:shared"
    r"|sent|posted|pasted|asked|said|reported|approved|signed|called|emailed|wrote|uploaded"
    r"|forwarded|requested|confirmed|agreed)\b"
)

# Rows of CSV: a quoted name as one of the first fields, in a row that holds an e-mail
# address, or in a file whose header names a name column (the rule's keywords).
_CSV_QUOTED = r"(?m:^)(?:[^\"\r\n,;\t]*[,;\t]){0,4}\"(?P<value>" + _ANY_NAME + r")\"[,;\t]"
_CSV_WITH_EMAIL = _CSV_QUOTED + r"[^\r\n]*@[\w\-]+\."
# psql output: " id | full_name | dob" over "----+-----", a cell in a row with an e-mail,
# a phone or a date.
_PSQL_CELL = r"\|[ \t]*(?P<value>" + _ANY_NAME + r")[ \t]*\|[^\r\n]*(?:@|\d[\d ()/.\-]{5,}\d|\d年)"

# "[10:02] Doe, Jane: hey" -- a chat speaker written family name first
_SPEAKER_FAMILY = (
    r"(?m:^)[ \t]*\[[^\]\r\n]{0,20}\d{1,2}:\d\d[^\]\r\n]{0,6}\][ \t]*"
    r"(?P<value>" + _FAMILY_GIVEN + r"):"
)

# title: onboarding — Jane Doe
_ONBOARDING = r"(?i:onboarding|offboarding)[ \t]*[—–\-:][ \t]*(?P<value>" + _ANY_NAME + r")" + _END


RULES: tuple[Rule, ...] = (
    Rule(
        name="person_name_field",
        kind="person_name",
        category="personal",
        pattern=_FIELD,
        validator=_person,
        priority=3,
        gate="cues",
        cue=r"(?i:" + FIELD_KEYS + r")\\?[\"']?[ \t]*[:=>]|(?i:lookup|search|find)\w*\(",
        description="names as values of person keys and elements in JSON and XML, escaped "
        "JSON and CRM look-ups ('\"holder\": \"Doe, Jane\"', '<fullName>Jane Doe</fullName>')",
    ),
    Rule(
        name="person_name_labelled",
        kind="person_name",
        category="personal",
        pattern=_LABELLED,
        validator=_person,
        priority=3,
        gate="cues",
        cue=r"(?i:" + FULL_NAME_LABELS + r"|" + ROLE_WORDS + r")[ \t]*[:：=.]",
        description="names after full-name labels and role words in many languages, "
        "'Last, First' forms and Hebrew, Thai and CJK names ('Nama lengkap :', 'שם מלא =', "
        "'customer Doe, Jane', 'πελάτης:')",
    ),
    Rule(
        name="person_name_role_bare",
        kind="person_name",
        category="personal",
        pattern=_ROLE_BARE,
        validator=_person,
        priority=3,
        gate="cues",
        cue=r"(?i:" + ROLE_WORDS + r")[ \t]",
        description="names after a role word without a colon ('customer Doe, Jane', "
        "'zákazník Jane Doe', 'מטופל ...,')",
    ),
    Rule(
        name="person_name_note",
        kind="person_name",
        category="personal",
        pattern=_NOTE,
        validator=_person,
        priority=3,
        gate="cues",
        cue=r"(?i:" + NOTE_LABELS + r")[ \t]*[:：]",
        description="names a note is about, before the person's id or an honorific "
        "('Muistiinpano: Jane Doe (hetu ...)', '备注：梁志强（')",
    ),
    Rule(
        name="person_name_list",
        kind="person_name",
        category="personal",
        pattern=_LIST,
        validator=_names,
        priority=3,
        gate="cues",
        cue=r"(?i:" + LIST_LABELS + r")[ \t]*[:：]",
        description="lists of names after 'Attendees:', 'Teilnehmer:', '参加者：'",
    ),
    Rule(
        name="person_name_ical_summary",
        kind="person_name",
        category="personal",
        pattern=_ICAL_SUMMARY,
        validator=_person,
        priority=3,
        gate="cues",
        cue=r"(?m:^)SUMMARY[;:]",
        description="names in iCalendar summaries of one-to-one meetings ('SUMMARY:1:1 Jane Doe')",
    ),
    Rule(
        name="person_name_beside",
        kind="person_name",
        category="personal",
        pattern=_BESIDE,
        validator=_person,
        priority=3,
        gate="cues",
        cue=r"\.\p{L}{2,}[ \t]*\(|(?i:contractor|consultant|freelancer|intern|candidate|tenant|call"
        r"|landlord|patient|customer|client)[ \t]*\(|(?i:ed|en) by[ \t]",
        description="names in parentheses after an e-mail address or a role, and after "
        "'pasted by' ('jane@example.org (Jane Doe)', 'contractor (Jane Doe)')",
    ),
    Rule(
        name="person_name_bold_wrote",
        kind="person_name",
        category="personal",
        pattern=_BOLD_WROTE,
        validator=_person,
        priority=3,
        gate="cues",
        cue=r"\*\*[ \t]+\S",
        description="authors of quoted mail in markdown bold ('> **Jane Doe** wrote:')",
    ),
    Rule(
        name="person_name_follow_up",
        kind="person_name",
        category="personal",
        pattern=_FOLLOW_UP,
        validator=_person,
        priority=3,
        gate="cues",
        cue=r"(?i:follow.up with|seguimiento a|язатися з|связаться с|nachfassen bei|relancer"
        r"|ricontattare|contato com|się z|ota yhteyttä|kontaktovat|contactați|hubungi)"
        r"|フォロー|跟进",
        description="names after 'follow up with' and its translations",
    ),
    Rule(
        name="person_name_speaker_family",
        kind="person_name",
        category="personal",
        pattern=_SPEAKER_FAMILY,
        validator=_person,
        priority=3,
        gate="cues",
        cue=r"\d:\d\d[^\]\n]{0,6}\] ?\p{Lu}",
        description="chat speakers written family name first ('[10:02] Doe, Jane:')",
    ),
    Rule(
        name="person_name_onboarding",
        kind="person_name",
        category="personal",
        pattern=_ONBOARDING,
        validator=_person,
        priority=3,
        gate="cues",
        cue=r"(?i:onboarding|offboarding)[ \t]*[—–\-:]",
        description="names of people joining or leaving ('onboarding — Jane Doe')",
    ),
    Rule(
        name="person_name_call_back",
        kind="person_name",
        category="personal",
        pattern=_CALL_BACK,
        validator=_person,
        priority=3,
        gate="cues",
        cue=r"(?i:" + CALL_BACK + r")",
        description="names before a phone number to call back ('call back: Jane Doe (050 ...)')",
    ),
    Rule(
        name="person_name_thanks",
        kind="person_name",
        category="personal",
        pattern=_THANKS,
        validator=_person,
        priority=3,
        gate="cues",
        cue=r"(?i:" + THANKS + r") ",
        description="names thanked ahead of a dash or a mark ('Thanks Jane Doe — refund ...')",
    ),
    Rule(
        name="person_name_item_subject",
        kind="person_name",
        category="personal",
        pattern=_ITEM_SUBJECT,
        validator=_person,
        priority=3,
        gate="cues",
        cue=r"(?m:^)[ \t]*(?:\d{1,2}[.)]|[-*•])[ \t]+\S",
        description="names opening a list item before a verb ('2. Jane Doe shared the creds')",
    ),
    Rule(
        name="person_name_csv_email",
        kind="person_name",
        category="personal",
        pattern=_CSV_WITH_EMAIL,
        validator=_person,
        priority=3,
        gate="cues",
        cue=r"\"[,;\t][^\r\n]*@",
        description="quoted names as fields of CSV rows that hold an e-mail address",
    ),
    Rule(
        name="person_name_csv_quoted",
        kind="person_name",
        category="personal",
        pattern=_CSV_QUOTED,
        keywords=NAME_COLUMNS,
        validator=_person,
        priority=3,
        gate="keywords",
        description="quoted names as fields of CSV rows under a name column",
    ),
    Rule(
        name="person_name_psql",
        kind="person_name",
        category="personal",
        pattern=_PSQL_CELL,
        keywords=("-+-",),
        validator=_person,
        priority=3,
        gate="keywords",
        description="names in cells of psql result tables, in rows with an e-mail, phone or date",
    ),
)
