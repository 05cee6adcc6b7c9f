"""Name and address detectors by the shape of the line: what they find and what they keep."""

from __future__ import annotations

import pytest

from memvault.redaction import Redactor, load

REDACTOR: Redactor = load().redactor


def covered(text: str, kind: str, value: str) -> bool:
    """Whether one finding of ``kind`` covers every character of ``value``."""
    at = text.index(value)
    return any(
        f.kind == kind and f.start <= at and at + len(value) <= f.end for f in REDACTOR.scan(text)
    )


def names(text: str) -> list[tuple[str, str]]:
    """(kind, value) of every name or address finding."""
    return [
        (f.kind, text[f.start : f.end])
        for f in REDACTOR.scan(text)
        if f.kind in ("person_name", "street_address")
    ]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("[09:12] Mareike Steinbach: Moin!", "Mareike Steinbach"),
        ("[12/3/25, 18:41] Eusebio Aguirre: es pixel", "Eusebio Aguirre"),
        ("Gideon Brennan  4:02 PM\ncan someone check", "Gideon Brennan"),
        ("- Maëlle Courtois (14:02) : salut", "Maëlle Courtois"),
        ("ED triage 03:40 - Wendell Castellano, 9/12/1974, fall", "Wendell Castellano"),
        ("Edivaldo Bezerra: bom dia! consegue liberar", "Edivaldo Bezerra"),
        ("山口　千尋：お疲れさまです。", "山口　千尋"),
        ("From: Rosalind Castellano <lw@example.net>", "Rosalind Castellano"),
        ('    {"name": "Desmond McAllister", "email": "x"},', "Desmond McAllister"),
        ('[owner]\nname = "Marcelino Carrasco"\n', "Marcelino Carrasco"),
        ("  owner: Marcelino Arrieta\n", "Marcelino Arrieta"),
        ("SET holder = 'Marisol Abernathy' WHERE id = 4", "Marisol Abernathy"),
        (
            "employee_id,name,ssn\nE909720,Rosângela Cavalcanti,479-17-6628\n",
            "Rosângela Cavalcanti",
        ),
        ("| A | B |\n|---|---|\n| Hamburg | Tamara Eichhorn | 0175/4709762 |", "Tamara Eichhorn"),
        ("Salarié : Maëlle Tessier\n", "Maëlle Tessier"),
        ("Passenger: Hargreaves, Everett / MR", "Hargreaves, Everett"),
        ("社員：池田　彩花\n", "池田　彩花"),
        ("お客様（松本 康弘 様）より", "松本 康弘"),
        ("先方担当：山口和也 部長", "山口和也"),
        ("el cliente Consuelo Echeverría adjuntó", "Consuelo Echeverría"),
        ("Approved by Desmond Whitlock on 3/7/2025", "Desmond Whitlock"),
        ("Hi Everett Brennan,\n\nThanks", "Everett Brennan"),
        ("Att.,\nTainá Teixeira\n", "Tainá Teixeira"),
    ],
)
def test_names_by_line_shape_found(text: str, value: str) -> None:
    """Speakers, senders, data values and role labels are names."""
    assert covered(text, "person_name", value)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Lieferung an Am Anger 23a, Halle 3.", "Am Anger 23a"),
        ("Theodor-Heuss-Ring 100, 50667 Köln", "Theodor-Heuss-Ring 100, 50667 Köln"),
        ("Site: मकान नं. 97, Hill Road, Bandra West\n", "मकान नं. 97, Hill Road, Bandra West"),
        ("House No. 268, शिवाजी नगर\n", "House No. 268, शिवाजी नगर"),
        ('"address": "愛知県名古屋市中区栄5丁目26番17号"', "愛知県名古屋市中区栄5丁目26番17号"),
        ("现住址：西安市雁塔区小寨东路851号22栋1754室\n", "西安市雁塔区小寨东路851号22栋1754室"),
    ],
)
def test_addresses_found(text: str, value: str) -> None:
    """German preposition streets, Indian house numbers, 丁目 and 栋…室 addresses."""
    assert covered(text, "street_address", value)


@pytest.mark.parametrize(
    "text",
    [
        "Action Items: fix the login bug",
        "Customer Notes: wants annual billing",
        "Root Cause: expired certificate",
        "Next Steps: follow up on Friday",
        "[10:00:01] Connection Refused: retrying",
        "Standup Meeting 10:00 AM",
        "Daily Sync (09:30) : agenda below",
        '{"name": "Production Cluster", "region": "eu"}',
        'name = "web-server"\nowner: platform team\n',
        "Owner: Platform Team",
        "Support Team <support@example.com>",
        "id,name,price\nSKU-1,widget,3\n",
        "Hello World!",
        "Hi Team,\nthe build is green",
        "Im Jahr 2024 kamen neue Kunden.",
        "Am Freitag 15 Uhr treffen wir uns.",
        "主诉：反复咳嗽两周。",
        "जन्म तिथि: 12/04/1990",
        "| Service | Owner |\n|---|---|\n| Payments API | 555-0100 ext |",
    ],
)
def test_labels_and_look_alikes_kept(text: str) -> None:
    """Headings, labels, services and dates take the shapes but are not people."""
    assert names(text) == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Klient Bożena Kowalczyk podał numer karty", "Bożena Kowalczyk"),
        ("Imię i nazwisko: Zofia Pawlak\nPESEL: x", "Zofia Pawlak"),
        ("Nabywca: Leszek Zieliński, ul. Długa 4", "Leszek Zieliński"),
        ("dane do umowy:\nWiesław Dudek, PESEL 12345678901", "Wiesław Dudek"),
        ("Maarten van der Linden, [04.11.24 09:12]\nhoi", "Maarten van der Linden"),
        ("Aan: Femke de Graaf, Lindelaan 3", "Femke de Graaf"),
        ("Groet, Femke de Graaf\n", "Femke de Graaf"),
        ("Tue 4:10 PM  Hi, it's Orla Fennimore from Lakeside Vet", "Orla Fennimore"),
        ("INSERT INTO t (`id`,`full_name`) VALUES\n(7,'Orla Fennimore','x');", "Orla Fennimore"),
        ('"name": [{"use": "official", "text": "Orla Fennimore"}],', "Orla Fennimore"),
        ("PID|1||5531^^^H^MR||FENNIMORE^ORLA||19800101|F", "FENNIMORE^ORLA"),
        ("NK1|1|FENNIMORE^DECLAN|SPO", "FENNIMORE^DECLAN"),
        ("Claimant ........ Orla Fennimore\n", "Orla Fennimore"),
        ("> On Mon, Orla Fennimore wrote:\n> hi", "Orla Fennimore"),
        ("[Heute 09:41] Lorenz Habermann\nKannst du", "Lorenz Habermann"),
        ("@Orla Fennimore 10:42\nok", "Orla Fennimore"),
        ("Kind regards, Orla Fennimore", "Orla Fennimore"),
        ("### Onboarding – Orla Fennimore (start 3 May)", "Orla Fennimore"),
        ("Passeggero: Chiara Ferri\n", "Chiara Ferri"),
        ("Passager : Lemaire, Odile\n", "Lemaire, Odile"),
        ("小林健太様\n\nいつもお世話になっております。", "小林健太"),
        ("佐藤 美咲さん、確認お願いします。", "佐藤 美咲"),
        ("> 2025/01/02 高橋　蓮 wrote:", "高橋　蓮"),
        ("# 负责人：王建国 wang@example.cn", "王建国"),
        ("收货人：李秀兰\n", "李秀兰"),
    ],
)
def test_names_in_more_languages_and_formats(text: str, value: str) -> None:
    """Polish, Dutch, HL7, FHIR, SQL, phone intros, quoted mail and Japanese honorifics."""
    assert covered(text, "person_name", value)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("adres: al. Jana Pawła II 13 m. 60, 00-001 Warszawa", "al. Jana Pawła II 13 m. 60"),
        ("Adres: ul. Kwiatowa 175/10, 80-001 Gdańsk", "ul. Kwiatowa 175/10"),
        ("mieszka przy ul. Długa 4", "ul. Długa 4"),
        ("Adres: Eikenlaan 12 hs, 1015 CJ Amsterdam", "Eikenlaan 12 hs"),
        ("Mijn adres is Kerkstraat 53A, 3511 AB Utrecht.", "Kerkstraat 53A"),
        ("Dirección: Calle de Velázquez 20, 3º dcha., Madrid", "Calle de Velázquez 20, 3º dcha."),
        ("Domicilio: Avda. de América 9, 7º A, 28010 Madrid", "Avda. de América 9, 7º A"),
        ("ship to Flat 36, 3981 Fairview Court, San Jose", "Flat 36, 3981 Fairview Court"),
        ("Apt 4, 12 Birchwood Way", "Apt 4, 12 Birchwood Way"),
        (
            "पता: Flat 5, Shanti Kunj Apartments, Sector 62, Noida",
            "Flat 5, Shanti Kunj Apartments, Sector 62, Noida",
        ),
        ("पता: H.No. 18-20, Jubilee Hills Road No. 12\n", "H.No. 18-20, Jubilee Hills Road No. 12"),
        ("पता: 246, Indiranagar 5th Block\n", "246, Indiranagar 5th Block"),
        ("住所：北海道札幌市中央区大通西4-30-17", "北海道札幌市中央区大通西4-30-17"),
    ],
)
def test_addresses_in_more_languages_found(text: str, value: str) -> None:
    """Polish ul./al., Dutch hs, Spanish floor and door, flats before the number, India, 北海道."""
    assert covered(text, "street_address", value)


@pytest.mark.parametrize(
    "text",
    [
        "Vaswani et al. Attention 2017 and Smith et al. Nature 521",
        "it's Black Friday at the store",
        "this is Project Phoenix from the platform team",
        "[10:02] Build Succeeded\n",
        "[Gestern 16:07] IT-Servicedesk\nDas Passwort",
        "> Op 3 mei schreef Salarisadministratie:",
        "担当者様\nお世話になっております。",
        "皆様、お疲れさまです。",
        "Thanks, Platform Team",
        "Klient zgłosił awarię",
        "PID|1||884215^^^NGH^MR||^^||19980504|F",
        '"name": [{"text": "Production Cluster"}]',
        "Onboarding – New Hires",
        "Flat 5, then turn left",
        "Calle 5 de mayo",
    ],
)
def test_more_look_alikes_kept(text: str) -> None:
    """Citations, events, bot and team names, roles with honorifics and empty fields stay."""
    assert names(text) == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Anställd: Lindqvist, Gustav   Personnr: 720412-4197", "Lindqvist, Gustav"),
        ("Vårdnadshavare: Linnéa Forsberg, linnea75@example.se", "Linnéa Forsberg"),
        ("Müşteri: Çelik, Mehmet\nIBAN: TR37", "Çelik, Mehmet"),
        ("Ad Soyad: Gülşen Aydın\nT.C. Kimlik No", "Gülşen Aydın"),
        ("- Yedek sorumlusu Büşra Kaya, cep 0212 351 46 13", "Büşra Kaya"),
        ("inventory/prod.ini — спросить у Светлана Шубин перед правкой", "Светлана Шубин"),
        ("От Константин Чернышёв, проживающего по адресу", "Константин Чернышёв"),
        ("اسم المريض: هيفاء بن محمد الكعبي\n", "هيفاء بن محمد الكعبي"),
        ("الموظف: نورة السويدي\n", "نورة السويدي"),
        ("Họ tên người bệnh: Đỗ Bích Ngọc\nNgày sinh", "Đỗ Bích Ngọc"),
        ("Nhân viên: Hoàng Bích Ngọc   CCCD 001301340609", "Hoàng Bích Ngọc"),
        ("환자명: 최도윤   주민등록번호", "최도윤"),
        ("배송지: 서울특별시 마포구 월드컵북로 3, 받는 사람 이지훈", "이지훈"),
        ("Patient: KINGSBURY, Fiona    DOB: 19-Dec-1972", "KINGSBURY, Fiona"),
        ("SUMMARY:Quarterly review with Imogen Pendleton\n", "Imogen Pendleton"),
        ("ORGANIZER;CN=Bridget Ashworth:mailto:ab@example.com", "Bridget Ashworth"),
        ("BEGIN:VCARD\nN:HOLLOWAY, Maeve;;;\nFN:Maeve Holloway\n", "HOLLOWAY, Maeve"),
        ("BEGIN:VCARD\nN:HOLLOWAY, Maeve;;;\nFN:Maeve Holloway\n", "Maeve Holloway"),
        ("[~Tabitha Merriweather] I could reproduce", "Tabitha Merriweather"),
        ("@Torsten Rautenberg Kunde meldet", "Torsten Rautenberg"),
        ('"username": "Imogen Crowley"}', "Imogen Crowley"),
        ("Astreinte : Océane Carpentier — 07.85.67.38.06", "Océane Carpentier"),
    ],
)
def test_names_after_form_labels_in_more_languages_found(text: str, value: str) -> None:
    """Swedish, Turkish, Russian, Arabic, Vietnamese, Korean labels; vCard, iCal, mentions."""
    assert covered(text, "person_name", value)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Hemadress: Kungsgatan 59\n", "Kungsgatan 59"),
        ("Tallstigen 30, lgh 1102\nUtbetalning", "Tallstigen 30, lgh 1102"),
        ("Adress: Björkvägen 65 A, 113 45 Stockholm", "Björkvägen 65 A"),
        ("Adres: İstiklal Cad. No:29/3\n", "İstiklal Cad. No:29/3"),
        ("Adres: Bağdat Caddesi No:32 D:4, Kadıköy", "Bağdat Caddesi No:32 D:4"),
        (
            "Адрес: Невский пр., дом 124, корп. 2, кв. 181, СПб",
            "Невский пр., дом 124, корп. 2, кв. 181",
        ),
        ("Адрес: ш. Энтузиастов, дом 129, кв. 41,", "ш. Энтузиастов, дом 129, кв. 41"),
        ("العنوان: شارع الشيخ زايد 497، مبنى 4، الرياض", "شارع الشيخ زايد 497، مبنى 4"),
        (
            "Địa chỉ: 177/12 Điện Biên Phủ, Phường Bến Nghé\n",
            "177/12 Điện Biên Phủ, Phường Bến Nghé",
        ),
        ("Địa chỉ: 268 Ngõ 5 Nguyễn Huệ, Quận 3\n", "268 Ngõ 5 Nguyễn Huệ, Quận 3"),
        (
            "주소: 경기도 성남시 분당구 판교역로 89, 101동 1203호\n",
            "경기도 성남시 분당구 판교역로 89, 101동 1203호",
        ),
        (
            "배송지: 부산광역시 해운대구 센텀중앙로 105 5층, 받는",
            "부산광역시 해운대구 센텀중앙로 105 5층",
        ),
        ("Cabinet Perrin\n12, cours Mirabeau, 75010 Paris", "12, cours Mirabeau"),
        ("Domicilio: Ronda de Segovia 71, 5º 2ª\n", "Ronda de Segovia 71, 5º 2ª"),
        ("Domicilio: Camino Real 71, bajo\n", "Camino Real 71, bajo"),
        ("Grünewald, Hartmut\nUlmenweg 96 / 2. OG\n", "Ulmenweg 96 / 2. OG"),
    ],
)
def test_addresses_of_nordic_turkish_russian_arabic_vietnamese_korean_found(
    text: str, value: str
) -> None:
    """Swedish -gatan/-vägen with lgh, Turkish Cad. No:, Russian дом/кв., شارع, Phường, 로/길."""
    assert covered(text, "street_address", value)


@pytest.mark.parametrize(
    "text",
    [
        "Sürücü: Yok",
        "hasta: Evet",
        "Elev: 5B",
        "Kund: Acme AB",
        "Terminalgate 12 opens at noon",
        "2024 Release Notes, P. 5",
        "Quarterly meeting with Google Cloud team",
        "escalate to Production Support",
        "FN:Acme Support",
        "Organizer: Platform Team",
        "Plan: Kungsgatan",
        "release 1.2 Python 3, Q. 4",
        "플랫폼로 2 업데이트",
    ],
)
def test_form_label_look_alikes_kept(text: str) -> None:
    """Answers after labels, compounds ending in -gate, page refs and team names stay."""
    assert names(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"beneficiary": "Marit Oosterhof", "iban": "x"}', "Marit Oosterhof"),
        ('"payload": "{\\"holder\\":\\"Brandt, Lowell\\"}"', "Brandt, Lowell"),
        ('{"billingProfile": {"holder": "QUILLON, Ernesta"}}', "QUILLON, Ernesta"),
        ('{"holder": "נעמה גלבוע", "card": "x"}', "נעמה גלבוע"),
        ("<ns2:Customer><fullName>Tessaly Varga</fullName>", "Tessaly Varga"),
        ("<fullName>Ωρίων Λαμπράκης</fullName>", "Ωρίων Λαμπράκης"),
        ('crm.lookup({"query": "Ondrej Pazdera"})', "Ondrej Pazdera"),
        ("Nama lengkap :  Wiryo Pranoto\nTanggal lahir : 1 Mei 1980", "Wiryo Pranoto"),
        ("- שם מלא = אורי זילברמן\n- next", "אורי זילברמן"),
        ("- Nome completo = Quaresma, Idalina\n", "Quaresma, Idalina"),
        ("Ticket 12 · customer Thistlewood, Amory\nCard on file", "Thistlewood, Amory"),
        ("client: LAMBERTIN, Odile — a déménagé", "LAMBERTIN, Odile"),
        ("Ticket 9 · zákazník Radka Bílková\n", "Radka Bílková"),
        ("πελάτης: Λυκούργος Σταθάκης — μετακόμισε", "Λυκούργος Σταθάκης"),
        ("לקוח: עמרי דגני — עבר", "עמרי דגני"),
        ("ผู้ป่วย ประภาส ศรีวงศ์, วันเกิด 1/1/1990", "ประภาส ศรีวงศ์"),
        ("Poznámka: pan/paní Alžběta Kroupová, RČ 855211/1234", "Alžběta Kroupová"),
        ("(as shown on your income tax return):  Orla Fennimore\n", "Orla Fennimore"),
        ("Muistiinpano: Onni Rautavaara (hetu 010180-123A) soitti", "Onni Rautavaara"),
        ("备注：欧阳修远（身份证号 110101198001010011）来电", "欧阳修远"),
        ("SUMMARY:1:1 Quillan Ashcombe\nDTSTART:20250101T090000Z", "Quillan Ashcombe"),
        ("account: o.fenn@example.org (Orla Fennimore)\n", "Orla Fennimore"),
        ("the deploy key the contractor (Ashcombe, Quillan) sent", "Ashcombe, Quillan"),
        ("from the README (pasted by Mirela Dobrescu!)", "Mirela Dobrescu"),
        ("> **Teodor Balan** wrote:\n> hi", "Teodor Balan"),
        ("follow up with Brisa Montalvo: the wifi", "Brisa Montalvo"),
        ("зв'язатися з Орест Кравець: пароль", "Орест Кравець"),
        ("[10:02] Ashcombe, Quillan: hey, HR needs it", "Ashcombe, Quillan"),
        ("title: onboarding — Oriel Vantongeren\n", "Oriel Vantongeren"),
        ("3. call back: Aune Kivelä (050 413 1021).", "Aune Kivelä"),
        ("Thanks Lorcan Whitby — refund is queued", "Lorcan Whitby"),
        ("2. Lorcan Whitby shared the staging creds in chat", "Lorcan Whitby"),
        ('owner_name = "田中 さくら"\n', "田中 さくら"),
        ("| 02:21 | on-call (Brisa Montalvo) paged |", "Brisa Montalvo"),
        ("<empfaenger>Lowell Brandt</empfaenger>", "Lowell Brandt"),
        ("klant: Brandt, Lowell\n", "Brandt, Lowell"),
    ],
)
def test_names_in_fields_labels_and_roles_found(text: str, expected: str) -> None:
    """Names as values of person keys, after labels and role words in many scripts."""
    assert names(text) == [("person_name", expected)]


def test_attendee_list_is_one_finding() -> None:
    """A list of attendees, mixed 'First Last' and 'Last, First', is redacted whole."""
    text = "Attendees: Lorcan Whitby, Ashcombe, Quillan\n1. Migration of the payroll DB"
    assert names(text) == [("person_name", "Lorcan Whitby, Ashcombe, Quillan")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('email\n"Brandt, Lowell";l.brandt@example.org;+1 555 0100', "Brandt, Lowell"),
        ('E-1,038-27-4439,"Fennimore, Orla",,Oct 3 2025\n', "Fennimore, Orla"),
        (
            " id | full_name | dob\n----+-----------+----\n 7f3a | Radka Bílková | 22. 7. 1995 |\n",
            "Radka Bílková",
        ),
    ],
)
def test_names_in_csv_and_psql_rows_found(text: str, expected: str) -> None:
    """Quoted names in CSV rows (beside an e-mail or under a name column) and psql cells."""
    head = "employee_id,ssn,name,dob\n" if text.startswith("E-") else ""
    assert names(head + text) == [("person_name", expected)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Domiciliu: Str. Plopilor nr. 25, bl. A6, ap. 57\n",
            "Str. Plopilor nr. 25, bl. A6, ap. 57",
        ),
        ("Alamat: Jl. Kenanga No. 34, RT 11/RW 04\n", "Jl. Kenanga No. 34, RT 11/RW 04"),
        ("проживає: вул. Липова, 34, кв. 28. Тел.", "вул. Липова, 34, кв. 28"),
        ("μετακόμισε στην Οδός Κρήτης 131, Πάτρα\n", "Οδός Κρήτης 131, Πάτρα"),
        ("עבר ל רחוב הגפן 78, חיפה\n", "רחוב הגפן 78, חיפה"),
        ("uusi osoite Koivukatu 1 C 17, puh.", "Koivukatu 1 C 17"),
        ("bytem Lipová 580/5, tel. 715", "Lipová 580/5"),
        ("Endereço: Estrada das Flores, 628 - apto 13\n", "Estrada das Flores, 628 - apto 13"),
        ("ที่อยู่: 138/65 ถนนสุขุมวิท แขวงคลองเตย\n", "138/65 ถนนสุขุมวิท แขวงคลองเตย"),
        ("新地址杭州市西湖区文三路328号6栋1096室，手机", "杭州市西湖区文三路328号6栋1096室"),
        ("新住所は京都府京都市左京区下鴨9丁目3番11号、携帯", "京都府京都市左京区下鴨9丁目3番11号"),
        ("Lieferung an Zur alten Mühle 58c, bitte", "Zur alten Mühle 58c"),
        ('{"street": "Lindenhofring 21", "zip": "1"}', "Lindenhofring 21"),
        ("<ns:postalAddress>Lindenhofring 21</ns:postalAddress>", "Lindenhofring 21"),
        ("Adresse: Zum Kiefernhang 7b, 01234 Ortsheim\n", "Zum Kiefernhang 7b, 01234 Ortsheim"),
        ("Alamat:\n    Gang Melati 3, Bandung\nNo. HP", "Gang Melati 3, Bandung"),
        ("lakik: Kossuth Lajos utca 12.", "Kossuth Lajos utca 12"),
        ("dzīvo Brīvības iela 40, Rīga", "Brīvības iela 40"),
        ("adresas Gedimino pr. 9, Vilnius", "Gedimino pr. 9"),
    ],
)
def test_addresses_of_records_and_further_countries_found(text: str, expected: str) -> None:
    """Romanian, Indonesian, Ukrainian, Greek, Hebrew, Finnish, Czech, Portuguese, Thai,
    CJK and German street forms, and values of address keys."""
    assert names(text) == [("street_address", expected)]


@pytest.mark.parametrize(
    "text",
    [
        '{"holder": "Platform Team", "payee": "Production Cluster"}',
        "<fullName>Build Pipeline</fullName>",
        'search({"query": "Migration Plan"})',
        "customer Success Team\n",
        "Attendees: Platform Team, Release Managers\n",
        "Note: Elasticsearch Upgrade (ticket 1234)",
        "SUMMARY:1:1 Sprint Review\n",
        "- Grafana Dashboards to be updated",
        "Thanks everyone — see CVE-2024-12345",
        "Monitoring 2 and Editor 3 and Firewall 2 and Heidelberg 2025",
        "Nova 2/3 released; see page 12/40",
        '{"address": "127.0.0.1 localhost", "street": "Main"}',
        '"Blue Widget";9.99;EAN 4006381333931',
        "version 2.4.1 of Sumska SDK; вул. is short for street",
        "Ticket INC7656378 · customer support queue",
        "לקוח חדש נרשם היום.",
        "Address: 10.0.0.5 (gateway)",
        "Address: v1.2.3 build 45",
        "Address: 0x3f5ce5fbfe3e9af3971dd833d26ba9b5c936f0be",
        '{"billing_address": "https://pay.example.org/a 1"}',
        "see Fig. 3 and Table 2",
    ],
)
def test_record_and_label_look_alikes_kept(text: str) -> None:
    """Team, product and vendor names, versions, CVE ids and page refs stay."""
    assert names(text) == []
