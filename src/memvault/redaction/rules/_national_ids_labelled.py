"""Detection rules for national identifiers found by the label or the column that
names them: Thai, Israeli, Greek, Ukrainian, Finnish, Czech and Slovak, Romanian and
Indonesian ids, and the ids people give in a tax-id field.

Each id comes as two rules: the number right after a label that names it ("CNP
1450810458141", "РНОКПП: 3309161385"), and the number as a whole field of a CSV row,
TSV line or table in which a header names it. Both keep a value only if its check
digits hold; an id without check digits (the Indonesian NIK) also needs its birth date.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

from .. import checks
from .._rule import Rule
from ._fragments import FIELD_END, FIELD_START

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
            pattern=FIELD_START + r"(?P<value>" + value + r")" + FIELD_END,
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


# In the form the filter reads (NFKC), where SARA AM (ำ) is NIKHAHIT and SARA AA (ํา).
_TH_LABELS = tuple(
    unicodedata.normalize("NFKC", label)
    for label in (
        "เลขบัตรประชาชน", "เลขประจำตัวประชาชน", "บัตรประชาชน", "ประจำตัวประชาชน", "thai id",
        "citizen id", "citizen_id",
    )
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


RULES: tuple[Rule, ...] = (
    *_labelled(
        "th_citizen_id_labelled",
        labels=_TH_LABELS,
        value=r"[1-8](?:-\d{4}-\d{5}-\d{2}-| \d{4} \d{5} \d{2} |\d{11})\d",
        validator=checks.th_citizen_id,
        description="Thai citizen ids (mod-11) next to 'เลขประจำตัวประชาชน'",
    ),
    *_labelled(
        "il_teudat_zehut",
        labels=_IL_LABELS,
        value=r"\d{9}",
        validator=checks.il_teudat_zehut,
        description="Israeli identity numbers (Teudat Zehut, Luhn) next to 'ת.ז.' or 'מספר זהות'",
    ),
    *_labelled(
        "gr_amka",
        labels=_GR_LABELS,
        value=r"\d{11}",
        validator=checks.gr_amka,
        description="Greek social security numbers (AMKA: birth date and Luhn) next to 'ΑΜΚΑ'",
    ),
    *_labelled(
        "ua_rnokpp",
        labels=_UA_LABELS,
        value=r"\d{10}",
        validator=checks.ua_rnokpp,
        description="Ukrainian personal taxpayer numbers (mod-11) next to 'РНОКПП' or 'ІПН'",
    ),
    *_labelled(
        "fi_hetu",
        labels=_FI_LABELS,
        value=r"\d{6}[\-+A-FU-Y]\d{3}[0-9A-Y]",
        validator=checks.fi_hetu,
        description="Finnish personal identity codes (mod-31 check character) next to 'hetu'",
    ),
    *_labelled(
        "cz_rodne_cislo",
        labels=_CZ_LABELS,
        value=r"\d{6}/?\d{4}",
        validator=checks.cz_rodne_cislo,
        description="Czech and Slovak birth numbers (mod-11) next to 'RČ' or 'rodné číslo'",
    ),
    *_labelled(
        "ro_cnp",
        labels=_RO_LABELS,
        value=r"[1-9]\d{12}",
        validator=checks.ro_cnp,
        description="Romanian personal numeric codes (CNP, birth date and mod-11) next to 'CNP'",
    ),
    *_labelled(
        "id_nik",
        labels=_ID_LABELS,
        value=r"\d{16}",
        validator=checks.id_nik,
        description="Indonesian population numbers (NIK, region and birth date) next to 'NIK' "
        "or 'KTP'",
    ),
    Rule(
        name="tax_field_national_id",
        kind="national_id",
        category="personal",
        pattern=_TAX_KEY + r"(?P<value>" + _TAX_VALUE + r")\b",
        cue=_TAX_KEY,
        validator=checks.tax_field_id,
        priority=16,
        description="national ids with check digits as the value of a tax-id key (taxId, "
        "tax_id, NIF, VAT)",
    ),
)
