"""Detection rules for personal data: contact details, identifiers, dates of birth.

Names and street addresses are in :mod:`vault._rules_names`, national identifiers
in :mod:`vault._rules_ids`.

Each rule is data (see :mod:`vault._rules`). Numbers are kept only if their
check digits hold; names, dates of birth and weak identifiers only next to the
words that make them personal ("patient", "Name:", "born", "passport").

Patterns are assembled from the named fragments below so that each reads on its
own; the ``value`` group is what is replaced, never the cue in front of it.
"""

from __future__ import annotations

from .._rule import Rule
from ..checks import _national_ids as ids
from ..checks import _validators as v

# Not a digit, letter or joiner on the left: a number starts here, not inside a longer token.
_EDGE = r"(?:(?m:^)|[^\p{L}\p{N}_.+\-/])"

# What may follow a cue word that is also a marker's kind ("phone" in "[REDACTED:phone]"),
# so that redacted text does not become a cue on a second pass.
_CUE_ENDS = (" ", ":", ".", "#", "=", "_", "-", '"', "'", "\t", "\n", "：", "/", ",")

# --- phone numbers ------------------------------------------------------------------

# Runs of 4-character groups are IBANs and card numbers (4-6-5 and 4-6-4 are American
# Express and Diners), valid or not: the first branches consume them without a value group
# so no phone is read out of their tail.
_GROUP_RUNS = (
    # six or more groups of digits are a parcel or account number: 9400 12166 0632 7602 5755 63
    r"\b\d{2,5}(?: \d{2,5}){5,}\b|\b\d{4}[ \-]\d{6}[ \-]\d{4,5}\b|"
    r"\b(?:[A-Z]{2}\d{2}(?: [A-Z0-9]{4}){2,}(?: [A-Z0-9]{1,3})?|\d{4}(?:[ \-]\d{4}){2,}"
    r"(?:[ \-]\d{1,4})?)\b"
)
# A purchase order or a numbered reference ("PO 0872785960", "Claim no. #527923734") is
# consumed without a value group, like the runs above.
_ORDER_REF = r"\bP\.?O\.?[ \t]?#?[ \t]?\d[\d \-]*\d|#\d{6,}"
_PHONE = (
    _GROUP_RUNS + r"|" + _ORDER_REF + r"|" + _EDGE + r"(?P<value>"
    # +CC then 7 to 15 digits in all, one space, dot or dash apart, with (0) or (area)
    r"\+[1-9](?:[ .\-]?(?:\(0\) ?)?\(?\d\)?){6,14}"
    # +CC in parentheses, as forms print it: (+34) 91 375 95 71
    r"|\(\+[1-9]\d{0,2}\)(?:[ .\-]?\d){6,14}"
    # US/NANP: (415) 555-0132, 415-555-0132, 415.555.0132, 415 555 0132, 1-415-555-0132
    r"|(?:1[ .\-])?(?:\(\d{3}\) ?|\d{3}[ .\-])\d{3}[ .\-]\d{4}"
    # trunk prefix or area code in parentheses: (11) 91234-5678, 8 (953) 333-74-35
    r"|(?:[08] ?)?\(\d{2,5}\) ?\d{2,5}(?:[ \-]\d{2,4}){1,3}"
    # Russian trunk 8 with dashes: 8-908-437-60-59; Vietnamese dotted mobiles: 0979.053.775
    r"|8-9\d{2}-\d{3}-\d{2}-\d{2}|0\d{3}\.\d{3}\.\d{3}"
    # national numbers with a trunk 0: 020 7946 0958, 030/1234567, 0179 / 675 84 75,
    # 01 23 45 67 89, 03-1234-5678, 074516-13491 (IN), 070(2346)1349 (JP)
    r"|0\d{1,5}(?: ?/ ?\d{2,8}|[ \-]\d{2,8})(?:[ \-]\d{2,8}){0,3}|0[1-9](?:\.\d{2}){4}"
    r"|0\d{1,4}\(\d{1,4}\)\d{3,4}"
    # national numbers with no trunk prefix: 646 81 61 44 and 695-440-586 (ES), 91 181 05 98,
    # 98765 43210 (IN), 153-3455-9810 (CN)
    r"|[6-9]\d{2}(?: \d{2}){3}|[89]\d \d{3} \d{2} \d{2}|9\d \d{3} \d{4}|[6-9]\d{4} \d{5}"
    r"|[6-9]\d{2}(?:-\d{3}-| \d{3} )\d{3}|1[3-9]\d(?:-\d{4}-| \d{4} )\d{4}"
    # unseparated mobiles: 07700900123 (GB), 0xxxxxxxxxx (IN), 13912345678 (CN)
    r"|0\d{9,10}|1[3-9]\d{9}"
    # Italian mobiles, which have no trunk 0: 333 7515145, 347 123 4567
    r"|3[1-9]\d (?:\d{6,7}|\d{3} \d{3,4})"
    r")\b"
)
# Full-width digits, as Japanese and Chinese input methods type them: ０９０－１２３４－５６７８.
_PHONE_WIDE = (
    r"(?:(?m:^)|[^０-９＋+])(?P<value>[＋+]?[０-９](?:[－ー‐−（）() ]?[０-９]){8,14})(?:[^０-９]|$)"
)
_PHONE_WORDS = (
    *(f"phone{end}" for end in _CUE_ENDS),
    "tel", "mobile", "cell", "call", "whatsapp", "fax", "sms", "contact", "handy",
    "telefon", "portable", "téléphone", "teléfono", "móvil", "celular", "telefone", "телефон",
    "тел", "моб", "điện thoại", "liên hệ", "전화", "هاتف", "الجوال", "mobil",
    "电话", "手机", "電話", "携帯", "फ़ोन", "फोन", "मोबाइल",
)  # fmt: skip

# --- identifiers ----------------------------------------------------------------------

IBAN_RUN = r"\b[A-Z]{2}\d{2}(?: [A-Z0-9]{4})+"
_CARD = (
    IBAN_RUN + r"|\b(?P<value>"
    r"\d{4}(?: \d{4}){3}(?: \d{1,3})?|\d{4}(?:-\d{4}){3}(?:-\d{1,3})?"  # 4-4-4-4(-3)
    r"|3[47]\d{2}[ \-]\d{6}[ \-]\d{5}"  # American Express 4-6-5
    r"|3\d{3}[ \-]\d{6}[ \-]\d{4}"  # Diners Club 4-6-4
    r"|\d{12,19}"
    r")\b"
)
_IBAN = r"\b(?P<value>[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?)\b"

# --- IP addresses -----------------------------------------------------------------------

# A dotted quad after "version", "release", "build" is a version: the first branch
# consumes it without a value group, so the engine skips it.
_IP = (
    r"(?i:(?:\b(?:versions?|ver|release|build|firmware|rev|revision)\b|верси[яиюей]|versión"
    r"|versão|versione|バージョン|版本)[ -/:-~]{0,16}?\d+(?:\.\d+){3,})"
    r"|(?:(?m:^)|[^\w.:])(?P<value>\d{1,3}(?:\.\d{1,3}){3,}"
    r"|(?i:[0-9a-f]{1,4}(?::[0-9a-f]{0,4}){3,7}|::(?:[0-9a-f]{1,4}:){1,6}[0-9a-f]{1,4}))\b"
)

# --- dates of birth ------------------------------------------------------------------------

# Labels that make the date after them a birth date. Key names count too (birth_date,
# dateOfBirth, patient_dob), so JSON, YAML and SQL carry the label with the value; but
# not the kind in a marker ("[REDACTED:date_of_birth]"), or a second pass would take the
# next date for a birth date.
_DOB_LABEL = (
    r"(?i:(?:\b|_)d\.? ?o\.? ?b(?:\b|_)\.?|(?:(?m:^)|[^:])date[ _\-]?of[ _\-]?birth"
    r"|birth[ _\-]?date|birthday|\bborn(?: on)?\b|cumpleaños|anniversaire|naissance|\bnac\."
    r"|geburtsdatum|geburtstag|geboren(?: am)?|\bgeb\.|date de naissance|\bn[ée](?:e|\(e\))? le"
    r"|fecha de nacimiento|nacid[oa] el|naci[óo] el|data di nascita|nat[oa](?:/[ao]|\([ao]\))? il"
    r"|geboortedatum|data de nascimento|nascid[oa] em|data urodzenia|doğum tarihi"
    r"|дата рождения|д\. ?р\.|родил(?:ся|ась)|生年月日|出生日期|出生年月日|生日|誕生日|생년월일"
    r"|जन्म ?तिथि|तारीख़? जन्म|تاريخ الميلاد|f[öo]delsedatum|f[öo]dd(?: den)?\b|ngày sinh|\bbday\b"
    r"|doğum tarihi"
    # Hebrew, Indonesian, Romanian, Ukrainian, Czech and Slovak, Finnish, Thai
    r"|תאריך לידה|ת\. לידה|נולד(?:ה)? ב|tanggal lahir|tgl\.? lahir|\blahir\b|data na[șşs]terii"
    r"|n[ăa]scut(?:[ăa])? (?:la|[îi]n)|дата народження|народи(?:вся|лася)|datum narozen[íi]"
    r"|d[áa]tum narodenia|narozen[áa]?\b|syntym[äa]aika|syntym[äa]p[äa]iv[äa]|syntynyt"
    r"|วันเกิด|เกิดวันที่|วันเดือนปีเกิด)"
)
_MONTH = (
    r"(?:(?i:jan|feb|f[ée]v|m[aä]r|apr|avr|abr|ma[iy]|mag|mei|jun|jui|giu|jul|lug|aug|ao[uû]|ago"
    r"|sep|set|o[ck]t|ott|out|nov|de[cz]|d[ée]c|dic|ene|gen|fev|янв|фев|мар|апр|ма[йя]|июн|июл"
    r"|авг|сен|окт|ноя|дек"
    # Polish months in the genitive a date takes: 4 kwietnia 1949
    r"|sty|lut|kwi|maj|cze|lip|sie|wrz|pa[zź]|lis|gru"
    # Turkish months: 1 Ekim 1963, 25 Ağustos 1956
    r"|oca|şub|nis|haz|tem|ağu|eyl|eki|kas|ara"
    # Indonesian (Agustus, Desember) and Romanian (ianuarie, iunie, iulie, noiembrie)
    r"|agu|des|ian|iun|iul|noi"
    # Ukrainian months in the genitive: 25 січня 1956
    r"|січ|лют|берез|квіт|трав|черв|лип|серп|верес|жовт|листоп|груд"
    # Czech and Slovak months in the genitive: 2. srpna 1999
    r"|led|úno|břez|dub|květ|červ|srp|zář|říj|prosin|január|február|marc|apríl|máj|jún|júl"
    # Finnish months in the partitive: 6. maaliskuuta 1974
    r"|tammi|helmi|maalis|huhti|touko|kesä|heinä|elo|syys|loka|marras|joulu)\p{L}*\.?"
    # Thai months, whose vowel signs are marks, not letters: 26 ธันวาคม 2506
    r"|มกราคม|กุมภาพันธ์|มีนาคม|เมษายน|พฤษภาคม|มิถุนายน|กรกฎาคม|สิงหาคม|กันยายน|ตุลาคม"
    r"|พฤศจิกายน|ธันวาคม"
    # Arabic months, as Gulf forms write them: 10 يونيو 1978م
    r"|يناير|فبراير|مارس|[أإ]بريل|مايو|يونيو|يوليو|أغسطس|سبتمبر|أكتوبر|نوفمبر|ديسمبر"
    # Hindi months, whose vowel signs are marks, not letters: 2 जनवरी 1963
    r"|जनवरी|फ़?फरवरी|फ़रवरी|मार्च|अप्रैल|मई|जून|जुलाई|अगस्त|सितंबर|सितम्बर|अक्टूबर|अक्तूबर"
    r"|नवंबर|नवम्बर|दिसंबर|दिसम्बर)"
)
_YEAR = r"(?:1[89]|20)\d{2}"
_DATE = (
    r"(?:" + _YEAR + r"[\-/.]\d{1,2}[\-/.]\d{1,2}"
    r"|\d{1,2}[\-/.] ?\d{1,2}[\-/.] ?(?:" + _YEAR + r"|\d{2})"
    r"|\d{1,2}(?:st|nd|rd|th|er)?(?:\.? (?:of |de )?|[\-/])"
    + _MONTH
    + r"(?:,? (?:de |del )?|[\-/])"
    # Thai dates count years in the Buddhist era, 543 years ahead: 26 ธันวาคม 2506
    + r"(?:"
    + _YEAR
    + r"|25\d{2})"
    + r"|"
    + _MONTH
    + r" \d{1,2}(?:st|nd|rd|th)?,? "
    + _YEAR
    + r"|"
    + _YEAR
    + r" ?年 ?\d{1,2} ?月 ?\d{1,2} ?日|"
    + _YEAR
    + r"년 ?\d{1,2}월 ?\d{1,2}일"
    r"|(?:昭和|平成|令和)\d{1,2}年\d{1,2}月\d{1,2}日)"
)
DATE = _DATE  # the same dates, for the birth-date rules of other modules

# "b." is short for born only right before the date ("b. 3/4/1950"): further on it is
# any sentence ending in B ("score band B. Rate lock expires 2025-02-11").
_DOB_CUE = _DOB_LABEL + r"|(?i:\bb\.)"
_DOB = (
    r"(?:" + _DOB_LABEL + r"(?:(?:[ -/:-~]|[：→⇒–—]){0,24}?"
    # the label as a question or a field name ending its line, the date on the next line:
    # "confirm your date of birth?\nJane Roe: 8 de novembro de 1993", "DOB:\n1990-04-12"
    r"|[^\n\d]{0,40}?[?？:：][ \t]*\r?\n[^\n\d]{0,30}?)"
    r"|(?i:\bb\.) ?)(?P<value>"
    # the article of a French date belongs to it: "le 20 janvier 1975"
    + r"(?:le )?"
    + _DATE
    # the year's suffix in Russian (1976 г.), Ukrainian (1956 р.) and Arabic (1978م)
    # belongs to the date
    + r"(?: ?[гр]\.?|م)?"
    # a compact YYYYMMDD right after the label, as vCard (BDAY:19960328) and forms write it
    + r"|(?:19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\b)"
)

# A date right after a patient's name: "Jane Roe, 9/12/1974, brought in by", "Jane Roe
# (June 19, 1969)". A clinician's name with a visit date is consumed first, unredacted.
_NAME = r"\p{Lu}\p{Ll}+(?:[ \-']\p{Lu}\p{Ll}+){1,3}"
_DOB_AFTER_NAME = (
    r"(?:\b(?:Dr|Prof|Nurse|RN|MD|NP|PA|[Ss]igned|[Ss]een by|[Rr]eviewed by)\.? " + _NAME
    + r"|\b" + _NAME + r"(?:, | \()(?P<value>" + _DATE + r"))[,;)]"
)  # fmt: skip
_CLINICAL_WORDS = (
    "patient", "pt ", "pt:", "pt.", "triage", "admitted", "admission", "brought in", "presented",
    "presents", "presenting", "complaint", "c/o", "history of", "diagnos", "discharge", "mrn",
    "ward", "a&e", "paciente", "patientin", "患者", "пациент",
)  # fmt: skip

# A date as a whole field of a CSV row, SQL tuple or table cell, in a table with a birth
# column: the header names the column once, the rows below carry only values.
_FIELD_START = r"(?:(?m:^)|[,;\t|(] ?)['\"]?"
_FIELD_END = r"['\"]? ?(?:[,;\t|)]|(?m:$))"
# A comma and a space before a bare date is prose as often as a row ("New York JFK,
# 10/01/2025"): there the field must be quoted, as SQL and quoted CSV write it.
_DOB_FIELD_START = r"(?:(?m:^)['\"]?|[;\t|(] ?['\"]?|,['\"]?|, ['\"])"
_DOB_FIELD = (
    _DOB_FIELD_START + r"(?P<value>" + _YEAR + r"[\-/.]\d{2}[\-/.]\d{2}|\d{1,2}[\-/.]\d{1,2}[\-/.]"
    + _YEAR + r")" + _FIELD_END
)  # fmt: skip
_DOB_COLUMNS = (
    *(f"{start}dob" for start in (",", " ", "_", "\t", "|", '"', "'", "(", "`")),
    "birth", "naissance", "nacimiento", "nascimento", "nascita", "geburt", "geboorte",
    "рождения", "生年月日", "出生",
)  # fmt: skip

# HL7 v2: the patient's birth date is PID-7, the seventh field of the PID segment, as
# YYYYMMDD with an optional time (PID|1||MRN^^^HOSP^MR||ROE^JANE||19800412|F|...).
_HL7_PID_DOB = r"(?m:^)PID\|(?:[^|\r\n]*\|){6}(?P<value>(?:1[89]|20)\d{6})(?:\d{2,6})?(?:[|^]|$)"

_PASSPORT_WORDS = (
    *(f"passport{end}" for end in _CUE_ENDS),
    "passports", "pasaporte", "passeport", "passaporte", "passaporto", "reisepass",
    "паспорт", "护照", "旅券", "パスポート", "पासपोर्ट", "passnummer", "pass-nr", "travel document",
    "document de voyage", "documento de viaje", "n° de passeport", "paspoort", "paszport",
    "pasaport", "hộ chiếu", "جواز السفر", "여권", "passnr",
    "דרכון", "หนังสือเดินทาง", "pașaport", "paşaport", "id_doc:", "id_doc\"", "id_doc=",
)  # fmt: skip
_PASSPORT_SHAPES = (
    r"\d{8,9}|[A-Z]{1,3}\d{6,9}|\d{2}[A-Z]{2}\d{5}|[A-Z0-9]{9}|\d{2} \d{7}|[A-Z]{2}\d[A-Z0-9]{6}"
)

RULES: tuple[Rule, ...] = (
    Rule(
        name="email",
        kind="email",
        category="personal",
        pattern=(
            r"(?:(?m:^)|[^\p{L}\p{N}._%+\-])(?P<value>[\p{L}\p{N}._%+\-]+@"
            r"(?:[\p{L}\p{N}\-]+\.)+(?:\p{L}\p{L}+|xn--[a-z0-9\-]+))"
        ),
        keywords=("@",),
        validator=v.email,
        priority=10,
        description="e-mail addresses, plus-addressed and internationalized (reserved example "
        "domains are kept by the policy's allowlist)",
    ),
    Rule(
        name="email_file_name",
        kind="email",
        category="personal",
        # An address with a file extension after it (notes/jane.roe@acme.io.md): the
        # address alone, where the domain before the extension still has a dot, so
        # icon@2x.png stays an image.
        pattern=(
            r"(?:(?m:^)|[^\p{L}\p{N}._%+\-])(?P<value>[\p{L}\p{N}._%+\-]+@"
            r"(?:[\p{L}\p{N}\-]+\.)+(?:\p{L}\p{L}+|xn--[a-z0-9\-]+))"
            r"\.(?i:" + "|".join(sorted(v.FILE_EXTENSIONS)) + r")(?:[^\p{L}\p{N}]|$)"
        ),
        keywords=("@",),
        validator=v.email,
        priority=11,
        description="e-mail addresses used as file names, followed by an extension",
    ),
    Rule(
        name="phone",
        kind="phone",
        category="personal",
        pattern=_PHONE,
        validator=v.phone,
        priority=8,
        description="phone numbers: +country code, or a national format of the US, UK, DE, FR, "
        "ES, IT, IN, BR, JP, CN or RU (libphonenumber)",
    ),
    Rule(
        name="phone_wide",
        kind="phone",
        category="personal",
        pattern=_PHONE_WIDE,
        validator=v.phone,
        priority=8,
        description="phone numbers typed in full-width digits (libphonenumber)",
    ),
    Rule(
        name="phone_plain",
        kind="phone",
        category="personal",
        pattern=_ORDER_REF + r"|\b(?P<value>\d{7,12})\b",
        keywords=_PHONE_WORDS,
        context=_PHONE_WORDS,
        window=24,
        validator=v.phone,
        priority=7,
        description="phone numbers written as a bare digit run, next to a word like 'phone'",
    ),
    Rule(
        name="card_number",
        kind="card_number",
        category="personal",
        pattern=_CARD,
        validator=v.card_number,
        priority=15,
        description="payment cards of every major brand, plain, spaced or dashed "
        "(Luhn, and a length the brand's prefix allows)",
    ),
    Rule(
        name="us_ssn",
        kind="ssn",
        category="personal",
        pattern=r"\b(?P<value>\d{3}-\d{2}-\d{4}|\d{3} \d{2} \d{4})\b",
        validator=v.us_ssn,
        priority=12,
        description="US social security numbers, dashed or spaced",
    ),
    Rule(
        name="us_ssn_plain",
        kind="ssn",
        category="personal",
        pattern=r"\b(?P<value>\d{9})\b",
        keywords=("ssn", "social security", "seguro social", "sécurité sociale américain"),
        context=(
            *(f"ssn{end}" for end in _CUE_ENDS),
            "ssn）",
            "ssn)",
            "social security",
            "seguro social",
        ),
        validator=v.us_ssn,
        priority=12,
        description="US social security numbers without dashes, next to 'SSN'",
    ),
    Rule(
        name="iban",
        kind="iban",
        category="personal",
        pattern=_IBAN,
        validator=v.iban,
        priority=14,
        description="IBANs, compact or in groups of four (country length and mod-97)",
    ),
    Rule(
        name="ip_address",
        kind="ip_address",
        category="personal",
        pattern=_IP,
        validator=v.ip_address,
        priority=9,
        description="public IPv4 and IPv6 addresses (private, loopback, link-local, "
        "documentation and reserved ranges are kept, and so are versions like 'version 1.2.3.4')",
    ),
    Rule(
        name="date_of_birth",
        kind="date_of_birth",
        category="personal",
        pattern=_DOB,
        cue=_DOB_CUE,
        validator=v.date_parts,
        priority=11,
        description="dates of birth in many formats, next to 'DOB', 'born', 'Geburtsdatum', "
        "'date de naissance', '生年月日', 'дата рождения' and the like",
    ),
    Rule(
        name="date_of_birth_after_name",
        kind="date_of_birth",
        category="personal",
        pattern=_DOB_AFTER_NAME,
        keywords=_CLINICAL_WORDS,
        gate="keywords",
        validator=v.birth_date,
        priority=11,
        description="a date right after a person's name in a clinical note ('Jane Roe, "
        "9/12/1974, presents with')",
    ),
    Rule(
        name="date_of_birth_field",
        kind="date_of_birth",
        category="personal",
        pattern=_DOB_FIELD,
        keywords=_DOB_COLUMNS,
        gate="keywords",
        context=_DOB_COLUMNS,
        window=320,
        validator=v.birth_date,
        priority=10,  # a labelled date is the same finding, named by its rule
        description="dates as fields of CSV rows, SQL tuples and tables with a birth-date column",
    ),
    Rule(
        name="date_of_birth_hl7",
        kind="date_of_birth",
        category="personal",
        pattern=_HL7_PID_DOB,
        keywords=("pid|",),
        gate="keywords",
        validator=v.compact_birth_date,
        priority=11,
        description="dates of birth in HL7 v2 PID segments (PID-7, YYYYMMDD)",
    ),
    Rule(
        name="passport",
        kind="passport",
        category="personal",
        pattern=r"\b(?P<value>" + _PASSPORT_SHAPES + r")\b",
        keywords=_PASSPORT_WORDS,
        context=_PASSPORT_WORDS,
        window=24,
        validator=ids.passport_number,
        priority=16,
        description="passport numbers (US 9 digits, and other countries' shapes) next to the "
        "word 'passport' in several languages",
    ),
    Rule(
        name="passport_qualified",
        kind="passport",
        category="personal",
        # A qualifier in brackets between the word and the number, which puts the word
        # beyond the plain rule's window: "Reisepass (für das Visum): C01X00T47".
        pattern=(
            r"(?i:passport|reisepass|pasaporte|passeport|passaporte|passaporto|паспорт|\bpass)"
            r"[^\n(]{0,12}\([^()\n]{1,40}\)[ \t]*[:：#]?[ \t]*(?P<value>"
            + _PASSPORT_SHAPES
            + r")\b"
        ),
        keywords=(*_PASSPORT_WORDS, "pass ("),  # Swedish: "Pass (för resan): 73928462"
        gate="keywords",
        validator=ids.passport_number,
        priority=16,
        description="passport numbers after the word and a bracketed qualifier",
    ),
    Rule(
        name="passport_field",
        kind="passport",
        category="personal",
        pattern=_FIELD_START + r"(?P<value>" + _PASSPORT_SHAPES + r")" + _FIELD_END,
        keywords=_PASSPORT_WORDS,
        gate="keywords",
        context=_PASSPORT_WORDS,
        window=320,
        validator=ids.passport_number,
        priority=16,
        description="passport numbers as fields of CSV rows, SQL tuples and tables with a "
        "passport column",
    ),
)
