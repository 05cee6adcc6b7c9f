"""Detection rules for national ids with check digits, and dates of birth, in the
formats and languages :mod:`vault._rules_ids` does not cover.

They run after those of :mod:`vault._rules_ids`, so that ties between findings
resolve as before these rules were added.

Each national id comes as two rules: the number right after a label that names it
("CNP 1450810458141", "РНОКПП: 3309161385"), and the number as a whole field of a CSV
row, TSV line or table in which a header names it. Both keep a value only if its check
digits hold; an id without check digits (the Indonesian NIK) also needs its birth date.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable

from .._rule import Rule
from ..checks import _national_ids as ids
from ..checks import _validators as v
from ._personal import DATE

# A number as a whole field: a CSV or TSV cell, an SQL tuple member, a table cell.
_FIELD_START = r"(?:(?m:^)|[,;\t|(] ?)['\"]?"
_FIELD_END = r"['\"]? ?(?:[,;\t|)]|(?m:$))"

# Short labels that are also pieces of words ("nik" in "technik", "cnp" inside base64)
# count, as context of a column, only with the punctuation or space that ends a label.
_LABEL_ENDS = (" ", ":", "\t", "=", '"', "'", ">", "_", "\n", "：", "#", ".", ",", ";", "|")


def _short(*labels: str) -> tuple[str, ...]:
    return tuple(f"{label}{end}" for label in labels for end in _LABEL_ENDS)


def _label_pattern(labels: tuple[str, ...]) -> str:
    """The labels as an alternation; a label in a cased script must start a word, so that
    a short one is not read out of a longer word. Scripts without case (Thai) write words
    without spaces between them."""
    forms = []
    for label in labels:
        word = re.escape(label.rstrip("".join(_LABEL_ENDS)))
        forms.append(
            r"(?:^|[^\p{L}\p{N}])" + word if label[0].lower() != label[0].upper() else word
        )
    return r"(?i:" + "|".join(sorted(set(forms), key=lambda form: (-len(form), form))) + r")"


def _labelled(
    name: str,
    *,
    labels: tuple[str, ...],
    value: str,
    validator: Callable[[str], bool],
    description: str,
) -> tuple[Rule, Rule]:
    """The rule for the id after its label on the same line, and the rule for it as a
    field in a column whose header names it."""
    label = _label_pattern(labels)
    return (
        Rule(
            name=name,
            kind="national_id",
            category="personal",
            # The label, then anything but a digit (": ", " (", "  :  ") up to the number.
            pattern=label + r"[^\p{L}\p{N}\n][^\p{N}\n]{0,24}?\b(?P<value>" + value + r")\b",
            keywords=labels,
            cue=label,
            validator=validator,
            priority=16,
            description=description,
        ),
        Rule(
            name=name + "_column",
            kind="national_id",
            category="personal",
            pattern=_FIELD_START + r"(?P<value>" + value + r")" + _FIELD_END,
            keywords=labels,
            gate="keywords",
            context=labels,
            window=320,
            validator=validator,
            priority=16,
            description=description.split(" next to ", 1)[0]
            + " as fields of CSV rows and tables with a column named for them",
        ),
    )


_TH_LABELS = (
    "เลขบัตรประชาชน", "เลขประจำตัวประชาชน", "บัตรประชาชน", "ประจำตัวประชาชน", "thai id",
    "citizen id", "citizen_id",
)  # fmt: skip
_IL_LABELS = (
    "ת.ז", 'ת"ז', "ת״ז", "תעודת זהות", "מספר זהות", "מס' זהות", "teudat zehut", "israeli id",
)  # fmt: skip
_GR_LABELS = ("αμκα", "α.μ.κ.α", *_short("amka"))
_UA_LABELS = (
    "рнокпп", "іпн", "ідентифікаційний код", "ідентифікаційний номер", "податковий номер",
    *_short("rnokpp"),
)  # fmt: skip
_FI_LABELS = ("henkilötunnus", "henkilötunnuksen", "personbeteckning", *_short("hetu", "sotu"))
_CZ_LABELS = (
    "rodné číslo", "rodného čísla", "rodné č.", "rodne cislo", "rodné čís", "birth number",
    *_short("rč", "r.č."),
)  # fmt: skip
_RO_LABELS = ("cod numeric personal", "codul numeric personal", *_short("cnp"))
_ID_LABELS = ("nomor induk kependudukan", *_short("nik", "ktp", "e-ktp"))

# Keys of tax-id fields in XML, JSON and forms ("<taxId>", "tax_id":, "NIF:"); people's
# tax ids there are their national ids.
_TAX_KEY = (
    r"(?:\b|_)(?i:tax[_\-]?(?:id|no|number|code)|taxpayer[_\-]?(?:id|number)|nif|tin"
    r"|vat[_\-]?(?:id|no|number)?)"
    r"(?:['\"]?[ \t]*[:=][ \t]*['\"]?|>)"
)
_TAX_VALUE = (
    r"\d{3}\.\d{3}\.\d{3}-\d{2}|\d{8}-?[A-Z]|[XYZ]-?\d{7}-?[A-Z]|\d{10,13}"
    r"|\d-\d{4}-\d{5}-\d{2}-\d"
)


def tax_field_id(value: str) -> bool:
    """A person's national id in a tax-id field, told apart by its shape and check digits:
    Spanish DNI/NIE, Brazilian CPF, Ukrainian RNOKPP, Thai citizen id, Romanian CNP."""
    number = ids.digits(value)
    if not value[-1].isdigit():
        return ids.es_dni(value)
    if len(number) == 11:
        return ids.br_cpf(value)
    if len(number) == 10:
        return ids.ua_rnokpp(value)
    return len(number) == 13 and (ids.th_citizen_id(value) or ids.ro_cnp(value))


# --- dates of birth in tables ----------------------------------------------------------

# A birth date as a whole field: any written date, or YYYYMMDD as exports write it.
_BIRTH_VALUE = r"(?:" + DATE + r"|(?:19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01]))"
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
_FOUR_DIGITS = re.compile(r"(?<!\d)\d{4}(?!\d)")


def written_birth_date(value: str) -> bool:
    """A date someone alive was born on: YYYYMMDD, or a written date whose year (counted
    in the Buddhist era from 2400) is from 1900 to this year and whose numbers are in
    range."""
    if value.isdigit():
        return v.compact_birth_date(value)
    year = _FOUR_DIGITS.search(value)
    if year is not None:
        number = int(year.group())
        number = number - 543 if number >= 2400 else number
        if not 1900 <= number <= datetime.date.today().year:
            return False
    return v.date_parts(value)


# --- phone numbers ----------------------------------------------------------------------

# An international number with an extension ("+1 914-832-4681 x864", "ext. 12"), or right
# after a word in a script written without spaces ("手机+86-180-0970-2380", "携帯+81 ...").
_EXTENSION_WORD = r"(?:x|ext\.?|extension|доб\.?|内線)"
_PHONE_EXT = r"(?: ?" + _EXTENSION_WORD + r" ?\d{1,5})"
_EXTENSION = re.compile(r" ?" + _EXTENSION_WORD + r" ?(?=\d)")
_PHONE_NUMBER = r"\+[1-9](?:[ .\-]?(?:\(0\) ?)?\(?\d\)?){6,14}"
_PHONE_EXTENDED = (
    r"(?:(?m:^)|[^0-9A-Za-z_.+\-/])(?P<value>" + _PHONE_NUMBER + _PHONE_EXT + r")(?:\W|$)"
)
_PHONE_JOINED = (
    r"[\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}\p{Thai}](?P<value>" + _PHONE_NUMBER + r")"
    r"(?:[^0-9A-Za-z_]|$)"
)
# Indonesian numbers after the words that introduce them: "WA 0818 3100 8555", "HP: ...".
_ID_PHONE = (
    r"(?i:\b(?:wa|hp|telp|telepon|ponsel|whatsapp|hubungi))\.?[ \t]*(?:[:：]|via|ke)?[ \t]*"
    r"(?P<value>(?:\+62[ \-]?|0)\d{2,4}(?:[ \-]?\d{3,4}){2}\d?)\b"
)


def intl_phone(value: str) -> bool:
    """An international number libphonenumber takes as possible, its extension aside."""
    number = _EXTENSION.split(value, maxsplit=1)[0]
    return v.phone(number)


def indonesian_phone(value: str) -> bool:
    """A valid Indonesian number (libphonenumber)."""
    return v.phone_in_region(value, "ID")


RULES: tuple[Rule, ...] = (
    Rule(
        name="th_citizen_id",
        kind="national_id",
        category="personal",
        # The dashed 1-4-5-2-1 grouping is how the card prints it, and no other number's.
        pattern=r"\b(?P<value>[1-8]-\d{4}-\d{5}-\d{2}-\d)\b",
        validator=ids.th_citizen_id,
        priority=16,
        description="Thai citizen ids in their printed grouping 1-2345-67890-12-3 (mod-11)",
    ),
    *_labelled(
        "th_citizen_id_labelled",
        labels=_TH_LABELS,
        value=r"[1-8](?:-\d{4}-\d{5}-\d{2}-| \d{4} \d{5} \d{2} |\d{11})\d",
        validator=ids.th_citizen_id,
        description="Thai citizen ids (mod-11) next to 'เลขประจำตัวประชาชน'",
    ),
    *_labelled(
        "il_teudat_zehut",
        labels=_IL_LABELS,
        value=r"\d{9}",
        validator=ids.il_teudat_zehut,
        description="Israeli identity numbers (Teudat Zehut, Luhn) next to 'ת.ז.' or 'מספר זהות'",
    ),
    *_labelled(
        "gr_amka",
        labels=_GR_LABELS,
        value=r"\d{11}",
        validator=ids.gr_amka,
        description="Greek social security numbers (AMKA: birth date and Luhn) next to 'ΑΜΚΑ'",
    ),
    *_labelled(
        "ua_rnokpp",
        labels=_UA_LABELS,
        value=r"\d{10}",
        validator=ids.ua_rnokpp,
        description="Ukrainian personal taxpayer numbers (mod-11) next to 'РНОКПП' or 'ІПН'",
    ),
    *_labelled(
        "fi_hetu",
        labels=_FI_LABELS,
        value=r"\d{6}[\-+A-FU-Y]\d{3}[0-9A-Y]",
        validator=ids.fi_hetu,
        description="Finnish personal identity codes (mod-31 check character) next to 'hetu'",
    ),
    *_labelled(
        "cz_rodne_cislo",
        labels=_CZ_LABELS,
        value=r"\d{6}/?\d{4}",
        validator=ids.cz_rodne_cislo,
        description="Czech and Slovak birth numbers (mod-11) next to 'RČ' or 'rodné číslo'",
    ),
    *_labelled(
        "ro_cnp",
        labels=_RO_LABELS,
        value=r"[1-9]\d{12}",
        validator=ids.ro_cnp,
        description="Romanian personal numeric codes (CNP, birth date and mod-11) next to 'CNP'",
    ),
    *_labelled(
        "id_nik",
        labels=_ID_LABELS,
        value=r"\d{16}",
        validator=ids.id_nik,
        description="Indonesian population numbers (NIK, region and birth date) next to 'NIK' "
        "or 'KTP'",
    ),
    Rule(
        name="tax_field_national_id",
        kind="national_id",
        category="personal",
        pattern=_TAX_KEY + r"(?P<value>" + _TAX_VALUE + r")\b",
        cue=_TAX_KEY,
        validator=tax_field_id,
        priority=16,
        description="national ids with check digits as the value of a tax-id key (taxId, "
        "tax_id, NIF, VAT)",
    ),
    Rule(
        name="date_of_birth_column",
        kind="date_of_birth",
        category="personal",
        pattern=_BIRTH_COLUMN,
        keywords=_BIRTH_COLUMNS,
        gate="keywords",
        overlapping=True,  # every row under the header, not only the first
        validator=written_birth_date,
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
        validator=written_birth_date,
        priority=10,
        description="the date after a quoted name in a row that starts with an SSN",
    ),
    Rule(
        name="phone_extension",
        kind="phone",
        category="personal",
        pattern=_PHONE_EXTENDED,
        cue=r"\+[1-9][^\n]{6,30}(?:x|ext|extension|доб|内線)",
        validator=intl_phone,
        priority=9,
        description="international phone numbers with their extension ('+1 914-832-4681 x864')",
    ),
    Rule(
        name="phone_joined",
        kind="phone",
        category="personal",
        pattern=_PHONE_JOINED,
        validator=v.phone,
        priority=9,
        description="international phone numbers joined to the word before them, in scripts "
        "written without spaces ('手机+86-180-0970-2380')",
    ),
    Rule(
        name="phone_indonesia",
        kind="phone",
        category="personal",
        pattern=_ID_PHONE,
        keywords=("wa", "hp", "telp", "telepon", "ponsel", "whatsapp", "hubungi"),
        gate="keywords",
        validator=indonesian_phone,
        priority=9,
        description="Indonesian phone numbers after 'WA', 'HP' or 'telp'",
    ),
)
