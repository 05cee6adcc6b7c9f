"""Detection rules for person names found by the shape of their line: chat speakers,
e-mail display names, keys and columns of data, FHIR and HL7 records, quoted replies,
closings, table rows and cells, and role labels.

They run right after those of :mod:`vault._rules_names` (whose fragments and checks
they share), so that ties between findings resolve in the same order as when both
were one table.
"""

from __future__ import annotations

from .._rule import Rule
from ._names import (
    _LATIN_WORD,
    _NAME,
    _NAME_END,
    _TWO_WORDS,
    _han_name,
    _hl7_name,
    _person,
)
from ._names_data import (
    CLOSINGS,
)

# --- names by the shape of the line: chats, e-mail headers, data, tables ------------------------
#
# These rules run only where a literal cue occurs (a clock time, "<user@", a key and
# its "=" or ":", a table's header), so text without one skips them at the price of
# one light pass. A name here is two words or more in Latin script: one capitalized
# word before a colon or a time is as often a label ("Status:", "Deploy 10:00").

_SPEAKER = (
    r"(?:" + _TWO_WORDS + r"|[\p{Han}々]{2,4}(?:[ 　][\p{Han}々]{1,3})?"
    r"|\p{Katakana}[\p{Katakana}ー・]+|\p{Hangul}{2,4}|\p{Devanagari}+(?: \p{Devanagari}+){1,2}"
    r"|\p{Cyrillic}+ \p{Cyrillic}+)"
)
_CLOCK = r"\d{1,2}:\d\d(?::\d\d)?(?:[ \t]?[AaPp]\.?[Mm]\.?)?"
# [09:12] Name: / [12/3/25, 18:41] Name: / 03:40 - Name, 9/12/1974
_SPEAKER_AFTER_TIME = (
    r"(?:(?m:^)[ \t]*\[[^\]\n]{0,20}" + _CLOCK + r"\][ \t]*(?:[-–][ \t]*)?"
    r"|" + _CLOCK + r"[ \t]+[-–—][ \t]+)"
    r"(?P<value>" + _SPEAKER + r")[ \t]*[:：,]"
)
# Teams: "[Gestern 16:05] Jane Doe" / "[9:14 AM] Jane Doe" as a header line of its own
_SPEAKER_HEADER = (
    r"(?m:^)[ \t]*\[[^\]\n]{0,20}" + _CLOCK + r"\][ \t]*(?P<value>" + _SPEAKER + r")"
    r"[ \t]*\r?(?m:$)"
)
# Slack's "Name  10:14 AM" on a line of its own; "- Name (14:02) :"
_SPEAKER_BEFORE_TIME = (
    r"(?m:^)[ \t]*(?:[-*•][ \t]*|@)?(?P<value>" + _SPEAKER + r")"
    r"(?:[ \t]+" + _CLOCK + r"[ \t]*\r?(?m:$)|[ \t]*[(\[]" + _CLOCK + r"[)\]][ \t]*[:：]"
    r"|,[ \t]*\[[\d./\-]{6,10},? " + _CLOCK + r"\][ \t]*\r?(?m:$))"
)
# A chat line with no time: "Name Surname: text" at the start of a line. Labels of two
# capitalized words ("Action Items:", "Root Cause:") are told apart by their words.
_SPEAKER_LINE = (
    r"(?m:^)[ \t]*(?P<value>" + _TWO_WORDS + r"|[\p{Han}々]{1,3}[ 　][\p{Han}々]{1,3})"
    r"(?::[ \t]+|：[ \t]*)\S"
)
# "Jane Doe" <jane@example.org>, From: Jane Doe <jane@...>: an RFC 5322 display name
_DISPLAY_NAME = r"(?:(?m:^)|[\s:：,;(\"'])\"?(?P<value>" + _SPEAKER + r")\"?[ \t]*<[^<>@\s]+@"
# {"name": "Jane Doe"}, name = "Jane Doe", owner: Jane Doe, tags = { Owner = "Jane Doe" }
_DATA_KEYS = (
    r"(?i:name|full_?name|display_?name|owner|holder|account_?holder|card_?holder|customer"
    r"|client|patient|contact|employee|assignee|author|reporter|requester|recipient|sender"
    r"|approver|reviewer|signatory|user_?name)"
)
_DATA_VALUE = (
    r"(?:(?m:^)|[\s{,;(\[\"'])[\"']?" + _DATA_KEYS + r"[\"']?[ \t]*[:=][ \t]*[\"']?"
    r"(?P<value>" + _SPEAKER + r"|" + _LATIN_WORD + r", " + _LATIN_WORD + r")"
    r"(?:[\"',;)}\]]|\.?[ \t]*\r?(?m:$)|[ \t]+\()"
)
# FHIR: "name": [{"use": "official", "text": "Jane Doe"}] (or "family"/"given" in the same object)
_FHIR_NAME = (
    r'"name"[ \t]*:[ \t]*\[[ \t\r\n]*\{[^{}\]]{0,120}"text"[ \t]*:[ \t]*"'
    r"(?P<value>" + _SPEAKER + r')"'
)
# HL7 v2: the patient's name is PID-5, a next of kin's NK1-2, a guarantor's GT1-3,
# written FAMILY^GIVEN^MIDDLE: "PID|1||884215^^^NGH^MR||RANSOME^COLIN||19980504|F"
_HL7_PART = r"\p{Lu}[\p{L}'’\-]*(?: \p{Lu}[\p{L}'’\-]*)?"
_HL7_NAME = (
    r"(?m:^)(?:PID(?:\|[^|\r\n]*){4}|NK1\|[^|\r\n]*|GT1(?:\|[^|\r\n]*){2})\|"
    r"(?P<value>" + _HL7_PART + r"\^" + _HL7_PART + r"(?:\^" + _HL7_PART + r")?)[|^]"
)
# Quoted e-mail: "> On Wed, Jane Doe wrote:", "> 2025/03/21 清水杏 wrote:", "Op ... schreef X Y:"
_WROTE = (
    r"(?:(?m:^)|[\s,>])(?P<value>" + _SPEAKER + r")[ \t]+(?:wrote|schreef|schrieb|a écrit"
    r"|escribió|ha scritto|escreveu|napisał|napisała|написала?)[ \t]*:"
)
# Introductions over the phone: "Hi, it's Jane Doe from Riverside Dental", "this is Jane Doe at"
_ITS = (
    r"(?i:\bit's|\bit’s|\bit is|\bthis is)[ \t]+(?P<value>" + _TWO_WORDS + r")"
    r"[ \t]+(?:from|at|with|of|here|calling)\b"
)
# A name, then the person's id or birth: "Ewa Wójcik, PESEL 97020889117", "Jane Doe, born 1980"
_NAME_THEN_ID = (
    r"(?:(?m:^)|[^\p{L}\p{N}])(?P<value>" + _TWO_WORDS + r"), (?:PESEL|NIP|DNI|NIE|NIF|BSN|SSN"
    r"|CPF|NINO|Codice [Ff]iscale|C\.F\.|(?i:born|geb\.|geboren|ur\.|urodzon[ay]|née?|nato|nata"
    r"|nacid[oa]|DOB|date of birth))\b"
)
# Same-line closings: "Kind regards, Jane Doe", "Groet, Anouk Meijer" at the end of a line
_CLOSING = (
    r"(?m:^)[ \t]*(?i:" + CLOSINGS + r")[ \t]*,[ \t]*(?P<value>" + _TWO_WORDS + r")"
    r"[ \t]*\.?\r?(?m:$)"
)
# Japanese and Chinese honorifics after a name: "木村大和様", "石川 凛さん、", "清水殿".
# Two to four Han characters open the line, so "皆様" and "お客様" are not names.
_HONORIFIC_AFTER = (
    r"(?m:^)[ \t]*(?P<value>[\p{Han}々]{2,4}|[\p{Han}々]{1,3}[ 　][\p{Han}々]{1,3})"
    r"(?:様|さん|殿|先生|くん|ちゃん|女士)"
)

# Rows of CSV or SQL values whose header names a person column (the rule's keywords):
# a field that is exactly a name, after at most three fields without spaces (ids).
_ROW_FIELD = (
    r"(?m:^)[ \t]*\(?(?:[\"']?[^,\s\"']*[\"']?,[ \t]*){0,3}[\"']?(?P<value>" + _SPEAKER + r")"
    r"[\"']?[ \t]*,"
)
# A markdown table row: a cell that is a name, in a row that also holds an e-mail or phone.
_TABLE_CELL = r"\|[ \t]*(?P<value>" + _SPEAKER + r")[ \t]*\|[^\n]*(?:@|\d[\d ()/.\-]{6,}\d)"
# Labels of a person's role, then the name: "Owner: Jane Doe", "Salarié : Jean Dupont",
# "Passenger: Doe, Jane", "社員：池田　彩花", "お客様（松本 康弘 様）", "先方担当：山口和也 部長".
_ROLE_LABEL = (
    r"(?:(?m:^)|[^\p{L}])(?:(?i:name|owner|lead|colleague|colaborador|colaboradora|salarié"
    r"|salariée|employé|employée|empleado|empleada|funcionário|funcionária|pt|passenger"
    r"|guest name|primary contact|point of contact|poc|approved by|signed by|passager|passagère"
    r"|passeggero|passeggera|pasajero|pasajera|contraente|assicurat[oa]|asegurad[oa](?:/a)?"
    r"|tomador|titular|bill to|ship to|sold to|aan|cognome e nome|nome e cognome"
    r"|(?:name|nachname), vorname|apellidos y nombre|nom et prénom)[ \t]*[:：]"
    r"|(?:员工|職員|职员|社員|従業員|用户|利用者|(?:先方)?担当者?|お客様|患者様?)"
    r"(?:[ \t]*[:：（(][ \t]*|[ \t]+))[ \t]*"
    r"(?P<value>" + _LATIN_WORD + r", " + _LATIN_WORD + r"|" + _NAME + r")" + _NAME_END
)
_ROLE_CUE = (
    r"(?i:name|owner|lead|colleague|colaborador|salari\p{L}*|employ\p{L}*|empleado|funcion\p{L}*|pt|passenger"
    r"|contact|poc|approved by|signed by|passag\p{L}*|passegger[oa]|pasajer[oa]|contraente"
    r"|assicurat[oa]|asegurad[oa](?:/a)?|tomador|titular|to|aan|nome|vorname|nombre|prénom)"
    r"[ \t]*[:：]|员工|職員|职员|社員|従業員|用户|利用者"
    r"|担当|お客様|患者"
)
# Running text: "el cliente Ana Pérez", "approved by Jane Doe", "Hi Jane Doe,"
_ROLE_WORD = (
    r"(?:(?m:^)|[^\p{L}])(?:(?i:cliente|paciente|usuario|usuaria|usuário|usuária|utente"
    r"|colaborador|colaboradora|approved by|signed by|signed off by|reviewed by|requested by"
    r"|visited by|seen by"
    r"|reported by|assigned to|escalated to|office manager|account manager|name on the "
    r"(?:order|account|card|booking|reservation|ticket|invoice) is|hi|hello|dear|hey|hola"
    r"|bonjour|hallo|olá|oi|ciao|estimado|estimada|querido|querida|fiche client"
    r"|client file|patient file|klient|klientka|pacjent|pacjentka|onboarding|offboarding"
    r"|alta de emplead[oa]|baja de emplead[oa]|arrivée de|départ de)[ \t]+(?:[-–—][ \t]+)?)"
    r"(?P<value>" + _TWO_WORDS + r")" + _NAME_END
)
_ROLE_WORD_CUE = (
    r"(?i:cliente|paciente|usuari[oa]|usuári[oa]|utente|colaborador|ed by|off by|to|manager|is"
    r"|hi|hello|dear|hey|hola|bonjour|hallo|olá|oi|ciao|estimad[oa]|querid[oa]|client|patient"
    r"|colaboradora|klient|klientka|pacjent|pacjentka|onboarding|offboarding|emplead[oa]"
    r"|arrivée de|départ de) "
)


RULES: tuple[Rule, ...] = (
    Rule(
        name="person_name_speaker",
        kind="person_name",
        category="personal",
        pattern=_SPEAKER_AFTER_TIME,
        validator=_person,
        priority=3,
        gate="cues",
        cue=r"\d:\d\d",
        description="speakers in chat transcripts after a time ('[09:12] Jane Doe:', "
        "'[12/3/25, 18:41] Jane Doe:') and names after a logged time ('03:40 - Jane Doe,')",
    ),
    Rule(
        name="person_name_speaker_time",
        kind="person_name",
        category="personal",
        pattern=_SPEAKER_BEFORE_TIME,
        validator=_person,
        priority=3,
        gate="cues",
        cue=r"\d:\d\d",
        description="speakers before a time: Slack's 'Jane Doe  10:14 AM', '- Jane Doe (14:02) :'",
    ),
    Rule(
        name="person_name_speaker_header",
        kind="person_name",
        category="personal",
        pattern=_SPEAKER_HEADER,
        validator=_person,
        priority=3,
        gate="cues",
        cue=r"\d:\d\d[^\]\n]{0,6}\] ?\S",
        description="speakers on a header line after a bracketed time (Teams: "
        "'[Gestern 16:05] Jane Doe', '[9:14 AM] Jane Doe')",
    ),
    Rule(
        name="person_name_speaker_line",
        kind="person_name",
        category="personal",
        pattern=_SPEAKER_LINE,
        validator=_person,
        priority=3,
        gate="cues",
        cue=r"(?::[ \t]+|：[ \t]*)\S",
        description="two or more capitalized words opening a line before a colon "
        "('Jane Doe: hi'), unless a word is a label's ('Action Items:')",
    ),
    Rule(
        name="person_name_display",
        kind="person_name",
        category="personal",
        pattern=_DISPLAY_NAME,
        validator=_person,
        priority=3,
        gate="cues",
        cue=r"<[^<>@\s]+@",
        description="display names before an e-mail address ('From: Jane Doe <jane@...>')",
    ),
    Rule(
        name="person_name_data",
        kind="person_name",
        category="personal",
        pattern=_DATA_VALUE,
        validator=_person,
        priority=3,
        gate="cues",
        cue=r"(?i:name|owner|holder|customer|client|patient|contact|employee|assignee|author"
        r"|reporter|requester|recipient|sender|approver|reviewer|signatory)[\"']?[ \t]*[:=]",
        description="names as values of person keys in JSON, YAML, TOML, HCL and SQL "
        "('\"name\": \"Jane Doe\"', 'owner: Jane Doe', \"holder = 'Jane Doe'\")",
    ),
    Rule(
        name="person_name_fhir",
        kind="person_name",
        category="personal",
        pattern=_FHIR_NAME,
        validator=_person,
        priority=3,
        gate="cues",
        cue=r'"name"[ \t]*:[ \t]*\[',
        description='names in FHIR HumanName objects (\'"name": [{"text": "Jane Doe"}]\')',
    ),
    Rule(
        name="person_name_hl7",
        kind="person_name",
        category="personal",
        pattern=_HL7_NAME,
        keywords=("pid|", "nk1|", "gt1|"),
        validator=_hl7_name,
        priority=3,
        gate="keywords",
        description="names in HL7 v2 PID-5, NK1-2 and GT1-3 fields ('PID|1||884215||DOE^JANE||')",
    ),
    Rule(
        name="person_name_wrote",
        kind="person_name",
        category="personal",
        pattern=_WROTE,
        validator=_person,
        priority=3,
        gate="cues",
        cue=r"(?:wrote|schreef|schrieb|écrit|escribió|scritto|escreveu|napisała?|написала?)[ \t]*:",
        description="authors of quoted mail ('On Wed, Jane Doe wrote:', "
        "'2025/03/21 清水杏 wrote:')",
    ),
    Rule(
        name="person_name_id",
        kind="person_name",
        category="personal",
        pattern=_NAME_THEN_ID,
        validator=_person,
        priority=3,
        gate="cues",
        cue=r"\p{Ll}, (?:PESEL|NIP|DNI|NIE|NIF|BSN|SSN|CPF|NINO|Codice|C\.F\."
        r"|(?i:born|geb|ur\.|urodzon|née?|nat[oa]|nacid|dob|date of birth))",
        description="names before the person's id or birth ('Ewa Wójcik, PESEL 97020889117')",
    ),
    Rule(
        name="person_name_its",
        kind="person_name",
        category="personal",
        pattern=_ITS,
        validator=_person,
        priority=3,
        gate="cues",
        cue=r"(?i:it's|it’s|it is|this is) \p{Lu}",
        description="callers who name themselves ('Hi, it's Jane Doe from Riverside Dental')",
    ),
    Rule(
        name="person_name_closing",
        kind="person_name",
        category="personal",
        pattern=_CLOSING,
        validator=_person,
        priority=3,
        gate="cues",
        cue=r"(?i:regards|wishes|cheers|thanks|sincerely|truly|best|groet|groeten|grüße|gruß"
        r"|cordialement|saludos?|atentamente|saluti|pozdrawiam|poważaniem|atenciosamente|abraços)"
        r"[ \t]*,[ \t]*\p{Lu}",
        description="names after a closing on the same line ('Kind regards, Jane Doe')",
    ),
    Rule(
        name="person_name_honorific_after",
        kind="person_name",
        category="personal",
        pattern=_HONORIFIC_AFTER,
        validator=_han_name,
        priority=3,
        gate="cues",
        cue=r"\p{Han}(?:様|さん|殿|先生|くん|ちゃん|女士)",
        description="Japanese and Chinese names opening a line before an honorific "
        "('木村大和様', '石川 凛さん', '李明女士')",
    ),
    Rule(
        name="person_name_row",
        kind="person_name",
        category="personal",
        pattern=_ROW_FIELD,
        keywords=(
            ",name",
            "name,",
            ",customer",
            "customer,",
            ",client",
            "client,",
            ",patient",
            "patient,",
            ",contact",
            "contact,",
            ",employee,",
            ", name",
            ", customer",
            ", client",
            ", patient",
            ",holder",
            "holder,",
            "name`,",
            "name`)",
            'name",',
        ),
        validator=_person,
        priority=3,
        gate="keywords",
        description="names as fields of CSV rows and SQL values under a person column",
    ),
    Rule(
        name="person_name_table",
        kind="person_name",
        category="personal",
        pattern=_TABLE_CELL,
        keywords=("|---", "| ---", "|:--", "| :--"),
        validator=_person,
        priority=3,
        gate="keywords",
        description="names in markdown table cells, in rows that hold an e-mail or a phone",
    ),
    Rule(
        name="person_name_role",
        kind="person_name",
        category="personal",
        pattern=_ROLE_LABEL,
        validator=_person,
        priority=3,
        gate="cues",
        cue=_ROLE_CUE,
        description="names after a role label ('Owner:', 'Salarié :', 'Passenger: Doe, "
        "Jane', '社員：', 'お客様（', '先方担当：')",
    ),
    Rule(
        name="person_name_addressed",
        kind="person_name",
        category="personal",
        pattern=_ROLE_WORD,
        validator=_person,
        priority=3,
        gate="cues",
        cue=_ROLE_WORD_CUE,
        description="two-word names after a role or greeting in running text ('el cliente "
        "Ana Pérez', 'approved by Jane Doe', 'Hi Jane Doe,')",
    ),
)
