"""National-id detectors with check digits: what each finds after its label, in a labelled
column or a tax-id field, and the look-alikes of the same shape it keeps."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from memvault.redaction import Redactor, checks, load

REDACTOR: Redactor = load().redactor
RNG = random.Random(20240611)


def found(text: str) -> list[tuple[str, str, str]]:
    """(rule, kind, value) of every finding."""
    return [(f.rule, f.kind, text[f.start : f.end]) for f in REDACTOR.scan(text)]


def complete(check: Callable[[str], bool], body: str, alphabet: str = "0123456789") -> str:
    """``body`` with the last character that makes ``check`` hold."""
    for ch in alphabet:
        if check(body + ch):
            return body + ch
    raise AssertionError(body)


def broken(value: str) -> str:
    """The same value with its last digit changed, so its check fails."""
    return value[:-1] + str((int(value[-1]) + 1) % 10)


def rand(n: int) -> str:
    return "".join(RNG.choice("0123456789") for _ in range(n))


def _complete_any(check: Callable[[str], bool], make: Callable[[], str]) -> str:
    """A random body from ``make`` that some last digit completes (a few bodies have none)."""
    for _ in range(100):
        body = make()
        for ch in "0123456789":
            if check(body + ch):
                return body + ch
    raise AssertionError(make)


TH = _complete_any(checks.th_citizen_id, lambda: "3" + rand(11))
TH_DASHED = f"{TH[0]}-{TH[1:5]}-{TH[5:10]}-{TH[10:12]}-{TH[12]}"
TH_SPACED = TH_DASHED.replace("-", " ")
IL = _complete_any(checks.il_teudat_zehut, lambda: "0" + rand(7))
AMKA = _complete_any(checks.gr_amka, lambda: "150384" + rand(4))
UA = _complete_any(checks.ua_rnokpp, lambda: "3" + rand(8))
HETU = complete(checks.fi_hetu, "150384-" + rand(3), "0123456789ABCDEFHJKLMNPRSTUVWXY")
RC = _complete_any(checks.cz_rodne_cislo, lambda: "855215" + rand(3))
RC_SLASHED = RC[:6] + "/" + RC[6:]
CNP = _complete_any(checks.ro_cnp, lambda: "2850315" + "12" + rand(3))
NIK = "3273" + "01" + "640849" + rand(3) + "7"  # a woman born 24 August 1949 (day + 40)
CPF = _complete_any(checks.br_cpf, lambda: rand(9) + "0")
CPF_DOTTED = f"{CPF[:3]}.{CPF[3:6]}.{CPF[6:9]}-{CPF[9:]}"
DNI = (lambda n: n + "TRWAGMYFPDXBNJZSQVHLCKE"[int(n) % 23])(rand(8))


@pytest.mark.parametrize(
    ("text", "rule", "value"),
    [
        (f"เลขประจำตัวประชาชน {TH_DASHED}", "th_citizen_id", TH_DASHED),
        (f"ref {TH_DASHED} on file", "th_citizen_id", TH_DASHED),
        (f"เลขบัตรประชาชน {TH_SPACED} เกิด", "th_citizen_id_labelled", TH_SPACED),
        (f"เลขบัตรประชาชน: {TH}", "th_citizen_id_labelled", TH),
        (f"הערה: (ת.ז. {IL}) ביקש", "il_teudat_zehut", IL),
        (f"מספר זהות {IL}.", "il_teudat_zehut", IL),
        (f"ΑΜΚΑ: {AMKA}", "gr_amka", AMKA),
        (f"Примітка: РНОКПП {UA}, проживає", "ua_rnokpp", UA),
        (f"ІПН: {UA}", "ua_rnokpp", UA),
        (f"Ville (hetu {HETU}) soitti", "fi_hetu", HETU),
        (f"paní Svobodová, RČ {RC_SLASHED}, bytem", "cz_rodne_cislo", RC_SLASHED),
        (f"rodné číslo: {RC}", "cz_rodne_cislo", RC),
        (f"CNP  :  {CNP}", "ro_cnp", CNP),
        (f"cod numeric personal {CNP} back", "ro_cnp", CNP),
        (f"NIK  :  {NIK}", "id_nik", NIK),
        (f"No. KTP {NIK}.", "id_nik", NIK),
    ],
)
def test_national_id_after_its_label(text: str, rule: str, value: str) -> None:
    """A valid id right after the words that name it is found, and only it."""
    assert found(text) == [(rule, "national_id", value)]


@pytest.mark.parametrize(
    "text",
    [
        f"ת.ז. {broken(IL)}",
        f"ΑΜΚΑ {broken(AMKA)}",
        f"РНОКПП {broken(UA)}",
        f"RČ {broken(RC_SLASHED)}",
        f"CNP {broken(CNP)}",
        f"เลขบัตรประชาชน {broken(TH)}",
        "hetu 150384-123Z",
        "NIK 3273013508498013",  # day 35: no date
        "NIK 0073012408498013",  # no region 00
    ],
)
def test_failed_check_kept(text: str) -> None:
    """A number of the right shape whose check digits or birth date fail is no id."""
    assert [f for f in found(text) if f[1] == "national_id"] == []


@pytest.mark.parametrize(
    "text",
    [
        f"order {IL} shipped",
        f"invoice {CNP} paid",
        f"build {UA} passed",
        f"ticket {RC_SLASHED}",
        f"barcode {NIK}",
        f"EAN {TH}",
        "the technik 3273012408498013",
    ],
)
def test_valid_number_without_label_kept(text: str) -> None:
    """Without its label a number that happens to pass a check is an order or a barcode."""
    assert [f for f in found(text) if f[1] == "national_id"] == []


@pytest.mark.parametrize(
    ("header", "value", "rule"),
    [
        ("מספר זהות", IL, "il_teudat_zehut_column"),
        ("CNP", CNP, "ro_cnp_column"),
        ("Rodné číslo", RC_SLASHED, "cz_rodne_cislo_column"),
        ("РНОКПП", UA, "ua_rnokpp_column"),
        ("เลขประจำตัวประชาชน", TH, "th_citizen_id_labelled_column"),
    ],
)
def test_national_id_in_labelled_column(header: str, value: str, rule: str) -> None:
    """A header naming the id makes a valid value in a row below it an id."""
    text = f"row\t{header}\tcolor\n1\t{value}\t#8EBBE9\n"
    assert found(text) == [(rule, "national_id", value)]


def test_column_needs_a_valid_value() -> None:
    """A field under an id header whose check fails stays."""
    assert found(f"row,CNP,color\n1,{broken(CNP)},blue\n") == []


@pytest.mark.parametrize(
    "value",
    [DNI, CPF, CPF_DOTTED, UA, TH, CNP],
)
def test_national_id_in_tax_field(value: str) -> None:
    """A person's national id is the value of taxId, tax_id or NIF keys."""
    for text in (
        f"<fullName>X</fullName><taxId>{value}</taxId>",
        f'{{"tax_id": "{value}"}}',
    ):
        assert found(text) == [("tax_field_national_id", "national_id", value)], text
    assert [(kind, text) for _, kind, text in found(f"NIF: {value}")] == [("national_id", value)]


@pytest.mark.parametrize(
    "text",
    [
        "<taxId>1234567890123</taxId>",
        "<taxId>12345678A</taxId>",
        "tax_id: 4000000001",
        "VAT: GB123456789",
        "vat_number=DE123456789",
    ],
)
def test_tax_field_look_alikes_kept(text: str) -> None:
    """Company VAT numbers and values failing every check stay."""
    assert found(text) == []


# --- dates of birth -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("- תאריך לידה → 24.6.1994   (check)", "24.6.1994"),
        ("Dewi, Tanggal lahir 24 Agustus 1949, No. KTP", "24 Agustus 1949"),
        ("lahir 06-05-1979. Hubungi", "06-05-1979"),
        ("birthdate: le 20 janvier 1975\n", "le 20 janvier 1975"),
        ("- Data de nascimento → 20/03/2006", "20/03/2006"),
        ("- Fecha de nacimiento → 15/8/1951", "15/8/1951"),
        ("Data nașterii :   23.04.1972\n", "23.04.1972"),
        ("Дата народження :   25 січня 1956 р.\n", "25 січня 1956 р."),
        ("- 生年月日 → 平成2年2月17日", "平成2年2月17日"),
        ("<birthDate>26 ธันวาคม 2506</birthDate>", "26 ธันวาคม 2506"),
        ("วันเกิด :   21/09/1955\n", "21/09/1955"),
        ("เกิดวันที่ 04/01/1944 โทร", "04/01/1944"),
        ("Datum narození: 2. srpna 1999", "2. srpna 1999"),
        ("birthdate: 6. maaliskuuta 1974\n", "6. maaliskuuta 1974"),
        ("Date of birth → 19-JUN-1984", "19-JUN-1984"),
        ("Data nașterii → 19 mai 2006", "19 mai 2006"),
    ],
)
def test_birth_date_after_label(text: str, value: str) -> None:
    """A date after a birth-date label in many languages is found whole."""
    assert [(k, t) for _, k, t in found(text)] == [("date_of_birth", value)]


@pytest.mark.parametrize(
    ("table", "value"),
    [
        ("row\tמספר זהות_x\tתאריך לידה\tcolor\n1\tA\t28/12/2006\t#8EBBE9\n", "28/12/2006"),
        ("row\tname\t生年月日\tcolor\n1\tA\t1954年05月09日\t#5DC8D0\n", "1954年05月09日"),
        (
            " id | full_name | dob | email\n----+---+---+---\n 7 | Jan | 22. 7. 1995 | x\n",
            "22. 7. 1995",
        ),
        ("row\tname\tData nașterii\tcity\n1\tA\t8 aprilie 1971\tB\n", "8 aprilie 1971"),
        ('id,name,birth_date,start\n4,"Roe, Jane",19640801,20250103\n', "19640801"),
    ],
)
def test_birth_date_in_its_column(table: str, value: str) -> None:
    """A date in the column whose header names the birth date is found."""
    assert [(k, t) for _, k, t in found(table) if k == "date_of_birth"] == [
        ("date_of_birth", value)
    ]


def test_other_date_columns_kept() -> None:
    """Dates in other columns of a table with a birth column stay when the birth date of
    their row is empty."""
    table = 'id,name,dob,start\n4,"Roe, Jane",,Oct 3 2025\n5,"Doe, John",,20250926\n'
    assert [f for f in found(table) if f[1] == "date_of_birth"] == []


def test_birth_date_after_ssn_and_name() -> None:
    """In a row that starts with an SSN, the date after the quoted name is the birth date."""
    text = 'E-1,647-44-5084,"Jane Roe",Sep 4 2002,Sep 21 2024\n'
    assert [(r, t) for r, _, t in found(text) if r.startswith("date")] == [
        ("date_of_birth_ssn_row", "Sep 4 2002")
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Meeting on 2. srpna 2025 at 10:00",
        "Rapat 24 Agustus 2025 di kantor",
        "ประชุม 26 ธันวาคม 2567",
        "deployed 20250926 build",
    ],
)
def test_dates_without_birth_label_kept(text: str) -> None:
    """A date with no birth label or column is a meeting date or a timestamp."""
    assert [f for f in found(text) if f[1] == "date_of_birth"] == []


# --- passports and phones -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("- מס' דרכון 34367206 — expires 9.1.2025", "34367206"),
        ("เลขที่หนังสือเดินทาง AB6850451 copy", "AB6850451"),
        ("- Nr. pașaport 068462013 — expires", "068462013"),
        ("---\ntitle: onboarding\nid_doc: FL7232197\nlinked_ticket: INC1595370\n---", "FL7232197"),
    ],
)
def test_passport_labels(text: str, value: str) -> None:
    """Passport numbers after the word in Hebrew, Thai and Romanian, and under id_doc keys."""
    assert found(text) == [("passport", "passport", value)]


@pytest.mark.parametrize(
    ("text", "rule", "value"),
    [
        ("my cell changed → +1 914-832-4681 x864\n", "phone_extension", "+1 914-832-4681 x864"),
        ('phone="+1 455-614-7481 ext. 72" build', "phone_extension", "+1 455-614-7481 ext. 72"),
        ("新地址，手机+86-180-0970-2380，退款", "phone_joined", "+86-180-0970-2380"),
        ("新住所、携帯+81 70-4887-3894。", "phone_joined", "+81 70-4887-3894"),
        ("Hubungi via WA 0818 3100 8555. Jangan", "phone_indonesia", "0818 3100 8555"),
        ("HP: 0812-3456-7890", "phone_indonesia", "0812-3456-7890"),
    ],
)
def test_phone_forms(text: str, rule: str, value: str) -> None:
    """Extensions go with their number; a number joined to CJK text or after 'WA' is found."""
    assert found(text) == [(rule, "phone", value)]


@pytest.mark.parametrize(
    "text",
    ["ext. 2441", "room 504, port 8279", "WA 2024-06-01", "HP 8th floor", "v+1234567 x12"],
)
def test_phone_look_alikes_kept(text: str) -> None:
    """Extensions alone, ports, rooms and dates stay."""
    assert found(text) == []
