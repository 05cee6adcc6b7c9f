"""Detection rules for names and street addresses, found by the words around them.

A name is personal data only in context: after an honorific ("Dr.", "Frau"), a
label ("Patient:", "Name:", "姓名："), an introduction ("my name is"), a closing
("Best regards,") or before a verb of contact ("Jane Doe called"). Addresses are
matched by their national shapes (number and street, street and number, postal
codes). Each rule is data (see :mod:`vault._rules`).
"""

from __future__ import annotations

from .._rule import Rule
from ..checks import _validators as v
from ._names_data import (
    CLOSINGS,
    HAN_ROLES,
    NOT_A_PERSON,
    STREET_TYPES,
)

# --- street addresses ------------------------------------------------------------------------

_CAP = r"\p{Lu}[\p{L}'’\-]*"
_PL_STREET = (
    _CAP + r"(?: " + _CAP + r"){0,3} \d{1,4}[A-Za-z]?(?:/\d{1,4})?(?: (?:m\.|lok\.) ?\d{1,4})?"
)

_ADDRESS = (
    r"(?:(?m:^)|[^\p{L}\p{N}])(?P<value>"
    # 221B Baker Street, London NW1 6XE; 12 Main St, Springfield, IL 62704
    r"(?:(?:Apt|Apartment|Suite|Unit|Flat)\.? ?#?\d{1,4}[A-Za-z]?, )?"
    r"\d{1,5}[A-Za-z]?,? (?:(?:N|S|E|W|North|South|East|West)\.? )?"
    r"(?:" + _CAP + r"|\d{1,3}(?:st|nd|rd|th))(?: " + _CAP + r"){0,3} "
    r"(?:" + STREET_TYPES + r")\b(?: (?:NW|NE|SW|SE|N|S|E|W)\b)?"
    r"(?:,? (?:Apt|Apartment|Suite|Ste|Unit|Flat|Floor|#)\.? ?#?[\w\-]{1,6})?"
    r"(?:\.?, ?" + _CAP + r"(?: " + _CAP + r"){0,2}(?:, [A-Z]{2} \d{5}(?:-\d{4})?"
    r"|,? [A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}))?"
    # Hauptstraße 12, Berliner Str. 5a, Kalverstraat 92, 1012 AB Amsterdam
    r"|\p{Lu}[\p{Ll}ß]+(?:straße|strasse|str\.|weg|gasse|platz|allee|damm|ufer|chaussee|straat"
    r"|gracht|laan|plein|kade|dijk|singel)"
    r" \d{1,4}[A-Za-z]?(?:-\d{1,4})?(?: (?:hs|huis|bis|bg|I{1,3})\b| / \d{1,2}\. OG\b)?"
    r"(?:, ?(?:\d{5}|\d{4} ?[A-Z]{2}) " + _CAP + r")?"
    r"|\p{Lu}[\p{Ll}ß]+(?:er)? (?:Straße|Strasse|Str\.|Weg|Gasse|Platz|Allee|Damm|Ring|[Aa]llee)"
    r" \d{1,4}[a-z]?(?:, ?\d{5} " + _CAP + r")?"
    # 12 rue de la Paix, 75002 Paris; 143 bis rue des Lilas
    r"|\d{1,4}(?: bis| ter)?(?:,? (?:rue|avenue|boulevard|bd|place|allée|chemin|impasse|quai"
    r"|route|faubourg|Rue|Avenue|Boulevard|Place|Allée|Chemin|Impasse|Quai)"
    r"|, (?:cours|Cours|passage|esplanade|promenade))"
    r" (?:(?:de la|de l'|de|du|des|la|le|les|l'|d')[ ]?)?"
    + _CAP
    + r"(?: (?:(?:de|du|des|la|le|et|sur) )?"
    + _CAP
    + r"){0,3}"
    r"(?:,? \d{5} " + _CAP + r")?"
    # Calle Mayor 5, C/ de Alcalá, 199, Via Roma 10, Rua Augusta, 467, Corso Vittorio Emanuele II 15
    r"|(?:Calle|C/|Avenida|Avda\.|Av\.|Plaza|Paseo|Camino|Carrer|Carretera|Ronda|Rambla"
    r"|Travessa|Travesía|Rua|Praça|Via|Viale|Piazza|Piazzale|Corso|Vicolo|Largo)"
    r" (?:(?:de la|de los|de las|del|de|da|das|do|dos|dei|degli|delle|della|di) )?"
    + _CAP
    + r"(?: (?:(?:de|del|di|da|do|y|e) )?"
    + _CAP
    + r"){0,3},? (?:n\.?º ?)?\d{1,4}[A-Za-z]?"
    r"(?:,? \d{1,2}[º°ª](?: ?(?:\d{1,2}[º°ª]|[A-Z]\b|(?i:izq|izda|dcha|dch|der|centro|ctro)\b\.?))?"
    r"|, (?:bajo|ático|entlo\.|entresuelo|pral\.|principal)\b)?"
    r"(?:,? \d{5} " + _CAP + r")?"
    # Indian: 76, MG Road / 243, Gandhi Marg
    r"|\d{1,4}, (?:(?:" + _CAP + r"|\d{1,2}(?:st|nd|rd|th)) ){1,3}"
    r"(?:Road|Marg|Nagar|Salai|Street|Lane|Block|Layout|Colony|Sector|Cross|Main)\b"
    # Polish: ul. Grunwaldzka 168, os. Jana Pawła II 79, ul. Kwiatowa 175/10
    r"|(?:ul\.|os\.|ulica|aleja|osiedle) "
    + _PL_STREET
    # ул. Садовая, д. 79, кв. 112
    + r"|(?:ул\.|улица|пр-т|проспект|пер\.|переулок|шоссе|наб\.|бульвар|б-р) "
    + _CAP
    + r"(?: "
    + _CAP
    + r")?,? (?:д\.|дом) ?\d{1,4}[а-я]?(?:,? (?:кв\.|корп\.|стр\.) ?\d{1,4})*"
    # 北京市朝阳区建国路88号, 東京都渋谷区神南1-2-3
    r"|\p{Han}{1,4}(?:市|都|道|府|県|省)\p{Han}{1,6}(?:区|市|県|町|村)\p{Han}{1,8}"
    r"(?:\d{1,5}号|\d{1,4}-\d{1,4}(?:-\d{1,4})?|\d{1,3}丁目(?:\d{1,4}番地?(?:\d{1,4}号)?)?)"
    # the building and flat of a Chinese address: 22栋1754室, 3号楼2单元501室
    r"(?:\d{1,4}(?:栋|幢|号楼|座)(?:\d{1,2}单元)?(?:\d{1,5}(?:室|号))?)?"
    # Theodor-Heuss-Ring 100, Konrad-Adenauer-Straße 5
    r"|\p{Lu}[\p{Ll}ß]+(?:-\p{Lu}[\p{Ll}ß]+)+-(?:Straße|Strasse|Str\.|Weg|Gasse|Platz|Allee"
    r"|Damm|Ring|Ufer|Chaussee) \d{1,4}[a-z]?(?:, ?\d{5} " + _CAP + r")?"
    # India: मकान नं. 97, Hill Road, Bandra West; House No. 268, शिवाजी नगर; Flat No 4, Sector 21
    r"|(?:(?:मकान (?:नं\.?|नंबर|संख्या)|(?i:house|flat|plot|h\.) ?(?i:no\.?|number|#))"
    r" ?\d{1,5}[A-Za-z]?(?:[-/]\d{1,5})?|(?:Flat|House|Plot) \d{1,5}[A-Za-z]?(?:[-/]\d{1,5})?,"
    r" (?:\p{Lu}\p{Ll}+ ){1,3}(?:Apartments|Residency|Towers?|Enclave|Heights|Complex|Society))"
    r"(?:,? (?:\p{Lu}[\p{L}]*|\p{Devanagari}+|\d{1,6}\b)"
    r"(?: (?:No\. \d{1,4}\b|\p{Lu}[\p{L}]*|\p{Devanagari}+|\d{1,6}\b)){0,3}){1,3}"
    r")"
)

# al. Jana Pawła II 13 m. 60, pl. Wolności 5: "al." and "pl." only where an address starts
# (a line, a comma, "przy"), so a citation's "et al. Nature 521" is no street.
_PL_ADDRESS = (
    r"(?:(?m:^)[ \t]*|[,:;(][ \t]*|(?i:przy|adres)[ \t]+)(?P<value>(?:al|pl)\. " + _PL_STREET + ")"
)

# Am Anger 23a, An der Alster 4, Im Winkel 7: a preposition names the street. The number
# must end the phrase, so "Im Jahr 2024" (four digits) and "Am Freitag 15 Uhr" stay.
_PREPOSITION_STREET = (
    r"(?:(?m:^)|[^\p{L}\p{N}])(?P<value>(?:Am|An der|An den|Auf der|Auf dem|Im|In der|In den"
    r"|Zum|Zur|Unter den|Hinter der|Vor dem) \p{Lu}[\p{Ll}ß]+ \d{1,3}[a-z]?)"
    r"(?:[,;)]|\.?\r?(?m:$)|,? \d{5} )"
)

# --- person names --------------------------------------------------------------------------

_LOWER = r"(?:\p{Ll}|\\u00[e-f][0-9a-f])"  # JSON writes "é" as \u00e9
_LATIN_WORD = r"\p{Lu}(?:[\p{Ll}'’]*\p{Lu})?" + _LOWER + r"+(?:-\p{Lu}?" + _LOWER + r"+)?"
_UPPER_WORD = r"\p{Lu}{2,}(?:-\p{Lu}{2,})?"
_NAME_WORD = r"(?:" + _LATIN_WORD + r"|\p{Lu}\.|" + _UPPER_WORD + r")"
# "Lindqvist, Gustav" and "KINGSBURY, Fiona": a family name, a comma, a given name.
_FAMILY_GIVEN = r"(?:" + _LATIN_WORD + r"|" + _UPPER_WORD + r"), " + _LATIN_WORD
_PARTICLE = r"(?:van der|van den|de la|van|von|der|den|de|da|di|del|della|du|la|le|bin|ibn|al|el|zu|dos|das|do)"  # noqa: E501
_NAME = (
    r"(?:" + _NAME_WORD + r"(?: (?:" + _PARTICLE + r" )?" + _NAME_WORD + r"){0,3}"
    r"|[\p{Han}々]+[ 　][\p{Han}々]+|[\p{Han}々]{2,}?|[\p{Han}々]+\p{Hiragana}+?"
    r"|\p{Katakana}[\p{Katakana}ー・]+|\p{Hangul}{2,}?"
    r"|\p{Arabic}+(?: \p{Arabic}+){0,3}|\p{Devanagari}+(?: \p{Devanagari}+)?)"
)
# Where a name ends: not inside a word, not a label ("Jane Doe Email:"), or before the
# words that follow a name in CJK, Korean and Hindi sentences.
_NAME_END = (
    r"(?:$|[^\p{L}\p{N}:：@_\-]|[.\-][^\p{L}\p{N}]|입니다|이에요|예요|씨|님|です|と申します|さん|様"
    r"|今年|是|的|，| (?:है|हूँ|हूं|हैं|जी|ने|का|की|के|को|से|और))"
)
_HONORIFIC = (
    r"(?:(?m:^)|[^\p{L}\p{N}.])(?:(?:Mr|Mrs|Ms|Mx|Dr|Dra|Prof|Sr|Sra|Srta|Sig|Dott|Avv|Ing|Rev|Mevr"
    r"|Dhr|Smt|Shri|Sri)\.?|Miss|Sir|Dame|Herr|Frau|Hr\.|Fr\.|M\.|Mme|Mlle|Sig\.ra|Dott\.ssa"
    r"|Signora|Signor|Señora?|Senhora?|[Гг]-(?:н|жа)|[Гг]осподина?|[Гг]оспожа|السيدة?|श्रीमती|श्री"
    r"|सुश्री|डॉ\.)(?: (?:Prof|Dr)\.?)? "
)
_LABEL = (
    r"(?:(?m:^)|[^\p{L}])(?i:full name|first name|last name|given names?|family name|surname"
    r"|maiden name|patient(?: name)?|customer(?: name)?|client(?: name)?|contact(?: name| person)?"
    r"|employee(?: name)?|applicant|tenant|guest|passenger|cardholder|account holder|beneficiary"
    r"|policyholder|insured|attendee|candidate|prénom|nom complet|nom de famille|patiente?"
    r"|kunde|kundin|patientin|mitarbeiter(?:in)?|vorname|nachname|nombre completo|apellidos?"
    r"|paciente|cliente|emplead[oa]|nome completo|cognome|paziente|klant|patiënt|naam"
    r"|имя|фамилия|фио|пациент(?:ка)?|клиент|сотрудник|контакт|ansprechpartner(?:in)?|mandant(?:in)?"
    r"|bewerber(?:in)?|candidat(?:e)?|solicitante|interlocut(?:or|eur|rice)|imię i nazwisko"
    r"|nazwisko|klient(?:ka)?|pacjent(?:ka)?|nabywca|odbiorca|sprzedawca|najemca|wynajmujący"
    r"|claimant|insured party|emergency contact|next of kin|policy holder)"
    r"(?:[ \t]*[:：]|[ \t]+\.{3,})[ \t]*"
    # a bare "Name:" only where a label starts, so "File name:" is not a cue
    r"|(?:(?m:^)[ \t]*(?:[-*•>|#]+[ \t]*)?|[,;(|:][ \t]*)(?:\*\*)?"
    r"(?i:name|nom|nombre|nome|imię|isim)(?:[ \t]*[:：]|[ \t]+\.{3,})"
    r"(?:\*\*)?[ \t]*"
    r"|(?:姓名|氏名|名前|お名前|お客様|患者|患者名|客户|顾客|顧客|联系人|负责人|收货人|收件人|寄件人"
    r"|申请人|经办人|担当者|이름|성명|환자|고객"
    r"|الاسم|المريض|العميل|नाम|मरीज़?|रोगी|ग्राहक|कर्मचारी)(?:[ \t]*[:：][ \t]*|[ \t]+)"
    r"|(?i:\b(?:patient|customer|client|employee|applicant|candidate|spoke with|talked to"
    r"|met with|gespräch mit|kundin|kunde|mandant(?:in)?|bewerber(?:in)?"
    r"|entretien avec|candidat(?:e)?|hablé con|solicitante|falei com)|звонила?|позвонила?"
    r"|клиент(?:ка)?|пациент(?:ка)?)"
    r"[ \t]+"
    # configuration keys: owner_name = "Jane Doe", "contact_name": "Jane Doe"
    r"|(?i:\b(?:owner|contact|full|first|last|given|family|customer|client|patient|employee"
    r"|author|assignee|reporter|requester|manager|sender|recipient|holder|display)[_\-]?name)"
    r"[\"']?[ \t]*[:=][ \t]*[\"']?"
)
_INTRO = (
    r"(?i:my name is|my name's|i am called|i'm called|call me|je m'appelle|je m’appelle"
    r"|mon nom est|ich heiße|ich heisse|mein name ist|me llamo|mi nombre es|mi chiamo"
    r"|il mio nome è|mijn naam is|ik heet|meu nome é|me chamo|меня зовут|мо[её] имя"
    r"|nazywam się|(?:a|one|some|my)\s+(?:guy|man|woman|person|friend|colleague|coworker|girl"
    r"|boy|lady|patient|customer|client|neighbou?r|contractor)\s+(?:called|named)"
    r"|(?:someone|somebody|is|was|he's|she's)\s+(?:called|named))[ \t]+"
    r"|我叫|我的名字是|我的名字叫|私の名前は|わたしの名前は|제 이름은|저는 |اسمي |मेरा नाम "
)
_SIGNATURE = r"(?m:^)[ \t]*(?:(?i:" + CLOSINGS + r")[ \t]*[,!.]?|--[ \t]?)[ \t]*\r?\n[ \t]*"
_PERSON = (
    r"(?:" + _HONORIFIC + r"|" + _LABEL + r"|" + _INTRO + r"|" + _SIGNATURE + r")"
    r"(?P<value>" + _NAME + r")" + _NAME_END
)

# "Jane Doe called about the invoice": the verb after the name is the cue.
_SUBJECT = (
    r"(?:(?m:^)|[^\p{L}\p{N}])(?P<value>" + _NAME + r") (?:(?:called|phoned|rang|emailed|ligou"
    r"|hat (?:wegen|angerufen|uns)|rief)\b|llamó|a (?:appelé|téléphoné)|звонила?|позвонила?|ने )"
)

# Two to four capitalised Latin words, particles between: the shape most rules call a name.
_TWO_WORDS = _LATIN_WORD + r"(?: (?:" + _PARTICLE + r" )?" + _LATIN_WORD + r"){1,3}"


def _person(value: str) -> bool:
    """A name by shape alone: a plausible name none of whose words is a label's."""
    return v.person_name(value) and not any(
        word.strip(".,'’\"").lower() in NOT_A_PERSON for word in value.split()
    )


def _han_name(value: str) -> bool:
    """A Han name before an honorific: not a role that takes one ("担当者様")."""
    return value.replace("\u3000", " ").replace(" ", "") not in HAN_ROLES and v.person_name(value)


def _hl7_name(value: str) -> bool:
    """An HL7 FAMILY^GIVEN name, judged as the words it is made of."""
    return _person(value.replace("^", " ").title())


RULES: tuple[Rule, ...] = (
    Rule(
        name="street_address",
        kind="street_address",
        category="personal",
        pattern=_ADDRESS,
        priority=4,
        gate="names",
        description="street addresses in US, UK, German, Dutch, French, Spanish, Italian, "
        "Portuguese, Indian, Russian, Chinese and Japanese forms, with postal codes",
    ),
    Rule(
        name="street_address_pl",
        kind="street_address",
        category="personal",
        pattern=_PL_ADDRESS,
        priority=4,
        gate="cues",
        cue=r"(?:al|pl)\. \p{Lu}",
        description="Polish avenues and squares ('al. Jana Pawła II 13 m. 60', 'pl. Wolności 5')",
    ),
    Rule(
        name="street_address_preposition",
        kind="street_address",
        category="personal",
        pattern=_PREPOSITION_STREET,
        priority=4,
        gate="cues",
        cue=r"(?:Am|An|Auf|Im|In|Zum|Zur|Unter|Hinter|Vor) [A-Z\xc4\xd6\xdc]",
        description="German streets named by a preposition ('Am Anger 23a', 'An der Alster 4')",
    ),
    Rule(
        name="person_name",
        kind="person_name",
        category="personal",
        pattern=_PERSON,
        validator=v.person_name,
        priority=3,
        gate="names",
        description="names after an honorific (Mr, Dr, Frau, Mme, Sr., г-н), a label "
        "('Patient:', 'Name:', '姓名：'), an introduction ('my name is') or a closing "
        "('Best regards,'), in Latin, Cyrillic, CJK, Hangul, Arabic and Devanagari script",
    ),
    Rule(
        name="person_name_subject",
        kind="person_name",
        category="personal",
        pattern=_SUBJECT,
        validator=v.person_name,
        priority=3,
        gate="names",
        description="names followed by a verb of contact ('Jane Doe called', 'X llamó', "
        "'X hat wegen', 'X ने')",
    ),
)
