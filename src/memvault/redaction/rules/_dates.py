"""Detection rules for dates of birth: a date is personal only where something says it
is a birth date.

A label says so ("DOB", "born", "Geburtsdatum", "生年月日", "дата рождения", in the
languages the filter reads), or a place: right after a patient's name in a clinical
note, in a birth-date column of a CSV, TSV or text table, in HL7's PID-7, after an
SSN and a name in an export row. A date is kept only if its numbers are in range and,
where nothing but the place says it is a birth date, its year is one someone alive
was born in (``checks._dates``).
"""

from __future__ import annotations

import re

from .. import checks
from .._rule import Rule
from ._fragments import FIELD_END

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
# "b." is short for born only right before the date ("b. 3/4/1950"): further on it is
# any sentence ending in B ("score band B. Rate lock expires 2025-02-11").
_DOB_CUE = _DOB_LABEL + r"|(?i:\bb\.)"
_DOB = (
    r"(?:" + _DOB_LABEL + r"(?:(?:[ -/:-~]|[：→⇒–—]){0,24}?"
    # the label as a question or a field name ending its line, the date on the next line:
    # "confirm your date of birth?\nJane Roe: 8 de novembro de 1993", "DOB:\n1990-04-12"
    r"|[^\n\d]{0,40}?[?:：][ \t]*\r?\n[^\n\d]{0,30}?)"
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
_PATIENT_NAME = r"\p{Lu}\p{Ll}+(?:[ \-']\p{Lu}\p{Ll}+){1,3}"
_DOB_AFTER_NAME = (
    r"(?:\b(?:Dr|Prof|Nurse|RN|MD|NP|PA|[Ss]igned|[Ss]een by|[Rr]eviewed by)\.? " + _PATIENT_NAME
    + r"|\b" + _PATIENT_NAME + r"(?:, | \()(?P<value>" + _DATE + r"))[,;)]"
)  # fmt: skip
# Words of a clinical note: a date after a name counts only in a text that holds one.
_CLINICAL_WORDS = (
    "patient", "pt ", "pt:", "pt.", "triage", "admitted", "admission", "brought in", "presented",
    "presents", "presenting", "complaint", "c/o", "history of", "diagnos", "discharge", "mrn",
    "ward", "a&e", "paciente", "patientin", "患者", "пациент",
)  # fmt: skip

# A date as a whole field of a CSV row, SQL tuple or table cell, in a table with a birth
# column: the header names the column once, the rows below carry only values.
# A comma and a space before a bare date is prose as often as a row ("New York JFK,
# 10/01/2025"): there the field must be quoted, as SQL and quoted CSV write it.
_DOB_FIELD_START = r"(?:(?m:^)['\"]?|[;\t|(] ?['\"]?|,['\"]?|, ['\"])"
_DOB_FIELD = (
    _DOB_FIELD_START + r"(?P<value>" + _YEAR + r"[\-/.]\d{2}[\-/.]\d{2}|\d{1,2}[\-/.]\d{1,2}[\-/.]"
    + _YEAR + r")" + FIELD_END
)  # fmt: skip
_DOB_COLUMNS = (
    *(f"{start}dob" for start in (",", " ", "_", "\t", "|", '"', "'", "(", "`")),
    "birth", "naissance", "nacimiento", "nascimento", "nascita", "geburt", "geboorte",
    "рождения", "生年月日", "出生",
)  # fmt: skip

# HL7 v2: the patient's birth date is PID-7, the seventh field of the PID segment, as
# YYYYMMDD with an optional time (PID|1||MRN^^^HOSP^MR||ROE^JANE||19800412|F|...).
_HL7_PID_DOB = r"(?m:^)PID\|(?:[^|\r\n]*\|){6}(?P<value>(?:1[89]|20)\d{6})(?:\d{2,6})?(?:[|^]|$)"

# --- dates of birth in the columns of tables ---------------------------------------------

# A birth date as a whole field: any written date, or YYYYMMDD as exports write it.
_BIRTH_VALUE = r"(?:" + _DATE + r"|(?:19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01]))"
# Column headers that name a birth date, in the languages of the labels.
_BIRTH_COLUMNS = (
    *(f"{start}dob" for start in (",", " ", "_", "\t", "|", '"', "'", "(", "`")),
    "birth", "naissance", "nacimiento", "nascimento", "nascita", "geburt", "geboorte",
    "рождения", "народження", "生年月日", "出生", "לידה", "lahir", "nașterii", "nasterii",
    "narození", "narodenia", "syntymä", "วันเกิด", "เกิด", "urodzenia", "doğum",
)  # fmt: skip


def _aligned(separator: str, field: str) -> str:
    """A header line with a birth-date column, then (a few rows further) a row whose field
    in the same column is the date. Without back-references the column is counted by
    one branch per position, up to the eighth."""
    label = (
        r"(?i:" + "|".join(re.escape(word.strip("\t,|_\"'(` ")) for word in _BIRTH_COLUMNS) + ")"
    )
    branches = []
    for k in range(8):
        before = r"(?:" + field + separator + r"){" + str(k) + r"}"
        branches.append(
            r"(?m:^)" + before + r"[^" + separator + r"\n]*" + label + r"[^\n]*\n"
            r"(?:[^\n]*\n){0,8}?" + before
        )
    return r"(?:" + "|".join(branches) + r")"


_BIRTH_COLUMN = (
    r"(?:"
    + _aligned(r"\t", r"[^\t\n]*")
    + r"|"
    + _aligned(r"\|", r"[^|\n]*")
    + r"|"
    + _aligned(",", r"(?: ?\"[^\"\n]*\" ?|[^,\n]*)")
    + r") *['\"]?(?P<value>"
    + _BIRTH_VALUE
    + r")['\"]? *(?:[,\t|]|(?m:$))"
)


RULES: tuple[Rule, ...] = (
    Rule(
        name="date_of_birth",
        kind="date_of_birth",
        category="personal",
        pattern=_DOB,
        cue=_DOB_CUE,
        validator=checks.date_parts,
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
        validator=checks.birth_date,
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
        validator=checks.birth_date,
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
        validator=checks.compact_birth_date,
        priority=11,
        description="dates of birth in HL7 v2 PID segments (PID-7, YYYYMMDD)",
    ),
    Rule(
        name="date_of_birth_column",
        kind="date_of_birth",
        category="personal",
        pattern=_BIRTH_COLUMN,
        keywords=_BIRTH_COLUMNS,
        gate="keywords",
        overlapping=True,  # every row under the header, not only the first
        validator=checks.written_birth_date,
        priority=10,
        description="written dates of every format in the column of a CSV, TSV or text table "
        "whose header names the birth date",
    ),
    Rule(
        name="date_of_birth_ssn_row",
        kind="date_of_birth",
        category="personal",
        # An export row of a person: SSN, "quoted name", then the birth date.
        pattern=(
            r"\b\d{3}-\d{2}-\d{4}[,;\t] ?\"[^\"\n]{1,80}\"[,;\t] ?(?P<value>"
            + _BIRTH_VALUE
            + r")[ \t]*(?:[,;\t]|(?m:$))"
        ),
        validator=checks.written_birth_date,
        priority=10,
        description="the date after a quoted name in a row that starts with an SSN",
    ),
)
