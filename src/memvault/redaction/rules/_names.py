"""Detection rules for person names in running text, found by the words around them.

A name is personal data only in context: after an honorific ("Dr.", "Frau"), a
label ("Patient:", "Name:", "姓名："), an introduction ("my name is"), a closing
("Best regards,"), a greeting or a role ("Hi Jane Doe,", "approved by"), a phrase
("review with", "follow up with", "call back:"), before a verb of contact ("Jane
Doe called") or the person's id ("Ewa Wójcik, PESEL ..."). A candidate is kept only
if it reads as a name, not a label or an organisation (``checks._names``).
"""

from __future__ import annotations

from .. import checks
from .._rule import Rule
from ._fragments import ANY_NAME, CLOSINGS, NAME, NAME_END, RECORD_END, TWO_WORDS

# The cues of the first rule: an honorific, a label, an introduction, or a closing (or a
# signature's "--") with the name on the next line.
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
    r"(?P<value>" + NAME + r")" + NAME_END
)
# "Jane Doe called about the invoice": the verb after the name is the cue.
_SUBJECT = (
    r"(?:(?m:^)|[^\p{L}\p{N}])(?P<value>" + NAME + r") (?:(?:called|phoned|rang|emailed|ligou"
    r"|hat (?:wegen|angerufen|uns)|rief)\b|llamó|a (?:appelé|téléphoné)|звонила?|позвонила?|ने )"
)
# Introductions over the phone: "Hi, it's Jane Doe from Riverside Dental", "this is Jane Doe at"
_ITS = (
    r"(?i:\bit's|\bit’s|\bit is|\bthis is)[ \t]+(?P<value>" + TWO_WORDS + r")"
    r"[ \t]+(?:from|at|with|of|here|calling)\b"
)
# A name, then the person's id or birth: "Ewa Wójcik, PESEL 97020889117", "Jane Doe, born 1980"
_NAME_THEN_ID = (
    r"(?:(?m:^)|[^\p{L}\p{N}])(?P<value>" + TWO_WORDS + r"), (?:PESEL|NIP|DNI|NIE|NIF|BSN|SSN"
    r"|CPF|NINO|Codice [Ff]iscale|C\.F\.|(?i:born|geb\.|geboren|ur\.|urodzon[ay]|née?|nato|nata"
    r"|nacid[oa]|DOB|date of birth))\b"
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
    r"(?P<value>" + TWO_WORDS + r")" + NAME_END
)
_ROLE_WORD_CUE = (
    r"(?i:cliente|paciente|usuari[oa]|usuári[oa]|utente|colaborador|ed by|off by|to|manager|is"
    r"|hi|hello|dear|hey|hola|bonjour|hallo|olá|oi|ciao|estimad[oa]|querid[oa]|client|patient"
    r"|colaboradora|klient|klientka|pacjent|pacjentka|onboarding|offboarding|emplead[oa]"
    r"|arrivée de|départ de) "
)
# Phrases of running text before a name: "review with Jane Doe", "escalate to Jane Doe",
# "avisar a", "Yedek sorumlusu", "спросить у".
_NAME_AFTER = (
    r"review with|meeting with|call with|sync with|1:1 with|lunch with|interview with"
    r"|escalate to|reach out to|avisar a|contactar (?:a|con)|preguntar a|hablar con"
    r"|sorumlusu|спросить у|уточнить у|узнать у|обратиться к|согласовать с"
)
# "review with Jane Doe", "escalate to Jane Doe", "спросить у Светлана Шубин", and a
# letter's "От Константин Чернышёв,".
_NAME_AFTER_PHRASE = (
    r"(?:(?:(?m:^)|[^\p{L}])(?i:" + _NAME_AFTER + r")|(?m:^)От)[ \t]+"
    r"(?P<value>" + TWO_WORDS + r")" + NAME_END
)
# "jane@example.org (Jane Doe)", "the contractor (Jane Doe)", "(pasted by Jane Doe!)"
_BESIDE = (
    r"(?:@[\w\-]+(?:\.[\w\-]+)*\.\p{L}{2,}[ \t]*\(|(?i:contractor|consultant|freelancer"
    r"|intern|candidate|tenant|landlord|patient|customer|client|on-call|on call)[ \t]*\("
    r"|(?i:pasted|sent|shared|posted|forwarded|submitted|signed|written) by[ \t]+)"
    r"(?P<value>" + ANY_NAME + r")(?:[)!]|" + NAME_END + r")"
)
# "follow up with Jane Doe:", "dar seguimiento a", "зв'язатися з", "nachfassen bei"
_FOLLOW_UP = (
    r"(?:(?m:^)|[^\p{L}])(?i:follow up with|follow-up with|dar seguimiento a|hacer seguimiento a"
    r"|зв['’]язатися з|связаться с|nachfassen bei|relancer|ricontattare|entrar em contato com"
    r"|skontaktować się z|ota yhteyttä|kontaktovat|contactați|hubungi|フォロー[：:]|跟进[：:]?)"
    r"[ \t]*(?P<value>" + ANY_NAME + r")[ \t]*[:：,.(]"
)
# Phrases before a name and the phone number to call it on: "call back: Jane Doe (050 ...)".
_CALL_BACK_WORDS = (
    r"call back|callback|soita takaisin|soita|rappeler|zurückrufen|rückruf an|devolver llamada a"
    r"|llamar a|ligar para|richiamare|terugbellen|oddzwonić do|zavolat|sunați|telepon"
    r"|перезвонити|передзвонити|перезвонить|לחזור אל|לחזור ל|התקשר ל|โทรกลับ|回电|回電|折り返し"
)
# "call back: Jane Doe (050 ...)", "rappeler Jane Doe (+33 ...)": a name before a phone
_CALL_BACK = (
    r"(?:(?m:^)|[^\p{L}])(?i:"
    + _CALL_BACK_WORDS
    + r")[ \t]*[:：]?[ \t]*(?P<value>"
    + ANY_NAME
    + r")"
    r"[ \t]*[(,:][ \t]*\+?\d"
)
# Thanks before a name: "Thanks Jane Doe — ...".
_THANKS_WORDS = (
    r"thanks|thank you|thx|danke|merci|gracias|obrigad[oa]|grazie|kiitos|děkuji|mulțumesc"
)
# "Thanks Jane Doe — refund ...", "Merci Doe, Jane!"
_THANKS = (
    r"(?:(?m:^)|[^\p{L}])(?i:" + _THANKS_WORDS + r")[ \t]+(?P<value>" + ANY_NAME + r")"
    r"[ \t]*(?:[—–!,.]|\r?(?m:$))"
)
# A list item that opens with a name and a verb: "2. Jane Doe shared the creds in chat"
_ITEM_SUBJECT = (
    r"(?m:^)[ \t]*(?:\d{1,2}[.)]|[-*•])[ \t]+(?P<value>" + ANY_NAME + r")[ \t]+(?:shared"
    r"|sent|posted|pasted|asked|said|reported|approved|signed|called|emailed|wrote|uploaded"
    r"|forwarded|requested|confirmed|agreed)\b"
)
# title: onboarding — Jane Doe
_ONBOARDING = (
    r"(?i:onboarding|offboarding)[ \t]*[—–\-:][ \t]*(?P<value>" + ANY_NAME + r")" + RECORD_END
)


RULES: tuple[Rule, ...] = (
    Rule(
        name="person_name",
        kind="person_name",
        category="personal",
        pattern=_PERSON,
        validator=checks.person_name,
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
        validator=checks.person_name,
        priority=3,
        gate="names",
        description="names followed by a verb of contact ('Jane Doe called', 'X llamó', "
        "'X hat wegen', 'X ने')",
    ),
    Rule(
        name="person_name_its",
        kind="person_name",
        category="personal",
        pattern=_ITS,
        validator=checks.name_by_shape,
        priority=3,
        gate="cues",
        cue=r"(?i:it's|it’s|it is|this is) \p{Lu}",
        description="callers who name themselves ('Hi, it's Jane Doe from Riverside Dental')",
    ),
    Rule(
        name="person_name_addressed",
        kind="person_name",
        category="personal",
        pattern=_ROLE_WORD,
        validator=checks.name_by_shape,
        priority=3,
        gate="cues",
        cue=_ROLE_WORD_CUE,
        description="two-word names after a role or greeting in running text ('el cliente "
        "Ana Pérez', 'approved by Jane Doe', 'Hi Jane Doe,')",
    ),
    Rule(
        name="person_name_after_phrase",
        kind="person_name",
        category="personal",
        pattern=_NAME_AFTER_PHRASE,
        validator=checks.name_by_shape,
        priority=3,
        gate="cues",
        cue=r"(?i:" + _NAME_AFTER + r")[ \t]+\p{Lu}|(?m:^)От \p{Lu}",
        description="two-word names after 'review with', 'escalate to', 'спросить у', 'avisar a'",
    ),
    Rule(
        name="person_name_beside",
        kind="person_name",
        category="personal",
        pattern=_BESIDE,
        validator=checks.name_by_shape,
        priority=3,
        gate="cues",
        cue=r"\.\p{L}{2,}[ \t]*\(|(?i:contractor|consultant|freelancer|intern|candidate|tenant|call"
        r"|landlord|patient|customer|client)[ \t]*\(|(?i:ed|en) by[ \t]",
        description="names in parentheses after an e-mail address or a role, and after "
        "'pasted by' ('jane@example.org (Jane Doe)', 'contractor (Jane Doe)')",
    ),
    Rule(
        name="person_name_follow_up",
        kind="person_name",
        category="personal",
        pattern=_FOLLOW_UP,
        validator=checks.name_by_shape,
        priority=3,
        gate="cues",
        cue=r"(?i:follow.up with|seguimiento a|язатися з|связаться с|nachfassen bei|relancer"
        r"|ricontattare|contato com|się z|ota yhteyttä|kontaktovat|contactați|hubungi)"
        r"|フォロー|跟进",
        description="names after 'follow up with' and its translations",
    ),
    Rule(
        name="person_name_call_back",
        kind="person_name",
        category="personal",
        pattern=_CALL_BACK,
        validator=checks.name_by_shape,
        priority=3,
        gate="cues",
        cue=r"(?i:" + _CALL_BACK_WORDS + r")",
        description="names before a phone number to call back ('call back: Jane Doe (050 ...)')",
    ),
    Rule(
        name="person_name_thanks",
        kind="person_name",
        category="personal",
        pattern=_THANKS,
        validator=checks.name_by_shape,
        priority=3,
        gate="cues",
        cue=r"(?i:" + _THANKS_WORDS + r") ",
        description="names thanked ahead of a dash or a mark ('Thanks Jane Doe — refund ...')",
    ),
    Rule(
        name="person_name_item_subject",
        kind="person_name",
        category="personal",
        pattern=_ITEM_SUBJECT,
        validator=checks.name_by_shape,
        priority=3,
        gate="cues",
        cue=r"(?m:^)[ \t]*(?:\d{1,2}[.)]|[-*•])[ \t]+\S",
        description="names opening a list item before a verb ('2. Jane Doe shared the creds')",
    ),
    Rule(
        name="person_name_onboarding",
        kind="person_name",
        category="personal",
        pattern=_ONBOARDING,
        validator=checks.name_by_shape,
        priority=3,
        gate="cues",
        cue=r"(?i:onboarding|offboarding)[ \t]*[—–\-:]",
        description="names of people joining or leaving ('onboarding — Jane Doe')",
    ),
    Rule(
        name="person_name_id",
        kind="person_name",
        category="personal",
        pattern=_NAME_THEN_ID,
        validator=checks.name_by_shape,
        priority=3,
        gate="cues",
        cue=r"\p{Ll}, (?:PESEL|NIP|DNI|NIE|NIF|BSN|SSN|CPF|NINO|Codice|C\.F\."
        r"|(?i:born|geb|ur\.|urodzon|née?|nat[oa]|nacid|dob|date of birth))",
        description="names before the person's id or birth ('Ewa Wójcik, PESEL 97020889117')",
    ),
)
