"""A fourth blind corpus: documents, placements and languages no earlier variant uses.

    .venv/bin/python tests/corpus/generate.py --blind4   # prints it as JSON lines
    .venv/bin/python tests/corpus/measure.py --variant blind4 --misses 60

Written without reading the detectors, their tests or any earlier variant's templates:
only ``generate``'s value generators and sample format are shared. Besides English,
German, French, Spanish, Portuguese, Japanese and Chinese it adds Indonesian, Thai,
Hebrew, Greek, Ukrainian, Finnish, Czech and Romanian, each with its own national id
(NIK, Thai citizen id, Teudat Zehut, AMKA, RNOKPP, henkilötunnus, rodné číslo, CNP),
IBAN, phone and date formats. The documents are agent scratchpads and tool-call logs,
meeting minutes, CSV/TSV exports, YAML frontmatter, Markdown checklists, SOAP bodies,
GraphQL responses, Java/Go/Node log lines, cron mails, chats with quoted replies,
OCR'd forms with odd spacing and bilingual notes. The look-alikes are new too: trace
and span ids, image digests, EAN-13 barcodes, parcel tracking numbers, CVE ids,
invoice numbers, build numbers and meeting dates beside the usual placeholders.

Keep it blind: a rule changed because of what this corpus shows makes it one more tuning
set, and the next held-out corpus has to be written from scratch.
"""

# ruff: noqa: E501 -- templates and phrase tables in fifteen languages read best unwrapped

from __future__ import annotations

import base64
import random
import re
import string
import uuid
from collections import Counter
from collections.abc import Callable

if __package__:
    from tests.corpus import generate as gen
else:  # generate.py run as a script: its folder is on sys.path
    import generate as gen  # type: ignore[no-redef]

SEED = gen.SEED + 32_452_843
SAMPLES = 330
LANGS = ("en", "de", "fr", "es", "pt", "ja", "zh", "id", "th", "he", "el", "uk", "fi", "cs", "ro")
LANG_WEIGHT = {"en": 3.0}  # the only language with SSNs

DIGITS = string.digits
UPPER = string.ascii_uppercase
HEX = gen.HEX
ALNUM = gen.ALNUM
rand = gen.rand
digits = gen.digits

Ctx = dict[str, object]
Maker = Callable[[random.Random, str, Ctx], tuple[str, str]]  # -> (shown, value)


# --- people ------------------------------------------------------------------------------

# fmt: off
PEOPLE = {
    "id": (["Budi", "Siti", "Agus", "Dewi", "Rizky", "Putri", "Hendra", "Wulan"], ["Santoso", "Wijaya", "Kusuma", "Hidayat", "Saputra", "Lestari", "Nugroho", "Pratama"]),
    "th": (["สมชาย", "สุดา", "ธนพล", "กาญจนา", "วิชัย", "ปิยะนุช", "อนันต์", "นภา"], ["ใจดี", "ศรีสุข", "วงศ์ใหญ่", "แสงทอง", "บุญมา", "ทองคำ", "สุขสวัสดิ์", "พรหมมา"]),
    "he": (["יוסי", "נועה", "אבי", "מיכל", "דניאל", "שירה", "איתי", "תמר"], ["כהן", "לוי", "מזרחי", "פרץ", "ביטון", "אברהם", "פרידמן", "שפירא"]),
    "el": (["Γιώργος", "Μαρία", "Δημήτρης", "Ελένη", "Νίκος", "Κατερίνα", "Κώστας", "Σοφία"], ["Παπαδόπουλος", "Νικολάου", "Γεωργίου", "Οικονόμου", "Καραγιάννης", "Βασιλείου", "Αθανασίου", "Μακρής"]),
    "uk": (["Олена", "Тарас", "Оксана", "Андрій", "Ірина", "Богдан", "Наталія", "Степан"], ["Шевченко", "Коваленко", "Бондаренко", "Ткаченко", "Кравченко", "Мельник", "Олійник", "Савчук"]),
    "fi": (["Mikko", "Aino", "Juha", "Kaisa", "Teemu", "Sanna", "Ville", "Liisa"], ["Virtanen", "Korhonen", "Mäkinen", "Nieminen", "Hämäläinen", "Laine", "Heikkinen", "Järvinen"]),
    "cs": (["Jan", "Jana", "Petr", "Lucie", "Tomáš", "Kateřina", "Jiří", "Veronika"], ["Novák", "Svobodová", "Dvořák", "Černá", "Procházka", "Kučerová", "Veselý", "Horáková"]),
    "ro": (["Andrei", "Ioana", "Mihai", "Elena", "Alexandru", "Andreea", "Cristian", "Raluca"], ["Popescu", "Ionescu", "Dumitrescu", "Stan", "Constantinescu", "Marinescu", "Dobre", "Munteanu"]),
    "en": (["Priscilla", "Gareth", "Imogen", "Desmond", "Felicity", "Rupert", "Naomi", "Tobias"], ["Ashworth", "Pemberton", "Okafor", "Lindqvist", "Haverford", "Quinlan", "Beaumont", "Radcliffe"]),
    "de": (["Wolfgang", "Friederike", "Dirk", "Annegret", "Malte", "Svenja", "Torsten", "Gesine"], ["Brandt", "Vogt", "Kessler", "Lorenz", "Engel", "Haas", "Ziegler", "Kühn"]),
    "fr": (["Gwenaëlle", "Baptiste", "Solène", "Thibault", "Maëlys", "Loïc", "Ophélie", "Yannick"], ["Marchand", "Perrin", "Roux", "Caron", "Barbier", "Lemaire", "Renaud", "Giraud"]),
    "es": (["Iñaki", "Montserrat", "Gonzalo", "Begoña", "Rodrigo", "Itziar", "Fermín", "Araceli"], ["Vázquez", "Iglesias", "Medina", "Garrido", "Cortés", "Lozano", "Cano", "Prieto"]),
    "pt": (["Vinícius", "Letícia", "Rodrigo", "Jéssica", "Otávio", "Priscila", "Caio", "Tatiane"], ["Nascimento", "Araújo", "Cardoso", "Teixeira", "Moreira", "Cavalcanti", "Pinto", "Monteiro"]),
    "ja": (["直樹", "恵美", "和也", "千尋", "悠斗", "彩花", "浩二", "真理子"], ["松本", "井上", "木村", "林", "清水", "山口", "森", "池田"]),
    "zh": (["建国", "丽华", "志强", "秀英", "海燕", "明辉", "晓东", "雪梅"], ["郭", "何", "高", "林", "罗", "郑", "梁", "谢"]),
}
HANDLES = {
    "id": ["budi.s", "siti.wijaya", "agus88", "dewi_k"], "th": ["somchai.j", "suda.s", "thanapon", "kanjana.w"],
    "he": ["yossi.c", "noa.levi", "avi.m", "michal.p"], "el": ["g.papadopoulos", "maria.nik", "dkaragiannis", "eleni.v"],
    "uk": ["olena.shev", "taras.k", "oksana.b", "a.tkachenko"], "fi": ["mikko.virtanen", "aino.k", "juha.makinen", "kaisa.n"],
    "cs": ["jan.novak", "lucie.s", "p.dvorak", "veronika.h"], "ro": ["andrei.popescu", "ioana.i", "mihai.d", "raluca.m"],
    "en": ["p.ashworth", "gareth.p", "imogen.okafor", "dlindqvist"], "de": ["wolfgang.brandt", "f.vogt", "dirk.k", "svenja.l"],
    "fr": ["gwen.marchand", "b.perrin", "solene.roux", "t.caron"], "es": ["inaki.v", "montse.iglesias", "g.medina", "bego.garrido"],
    "pt": ["vini.nascimento", "leticia.a", "rcardoso", "tati.pinto"], "ja": ["naoki.m", "emi.inoue", "kazuya.k", "chihiro.h"],
    "zh": ["guo.jianguo", "lihua.he", "gaozq", "lin.xy"],
}
MAIL_DOMAINS = {
    "id": ["yahoo.co.id", "gmail.com", "telkom.net"], "th": ["hotmail.co.th", "gmail.com", "truemail.co.th"],
    "he": ["walla.co.il", "gmail.com", "bezeqint.net"], "el": ["otenet.gr", "yahoo.gr", "gmail.com"],
    "uk": ["ukr.net", "i.ua", "meta.ua"], "fi": ["suomi24.fi", "elisanet.fi", "gmail.com"],
    "cs": ["seznam.cz", "centrum.cz", "email.cz"], "ro": ["yahoo.ro", "gmail.com", "rdslink.ro"],
    "en": ["fastmail.com", "hey.com", "aol.com"], "de": ["freenet.de", "arcor.de", "mailbox.org"],
    "fr": ["wanadoo.fr", "neuf.fr", "bbox.fr"], "es": ["movistar.es", "ono.com", "outlook.es"],
    "pt": ["ig.com.br", "hotmail.com.br", "clix.pt"], "ja": ["ezweb.ne.jp", "softbank.ne.jp", "biglobe.ne.jp"],
    "zh": ["foxmail.com", "139.com", "aliyun.com"],
}
# fmt: on


def _name(rng: random.Random, lang: str, ctx: Ctx) -> tuple[str, str]:
    first, last = PEOPLE[lang]
    f, la = rng.choice(first), rng.choice(last)
    if lang in ("ja", "zh"):
        v = la + ("" if lang == "zh" or rng.random() < 0.5 else " ") + f
    elif lang == "he" or rng.random() < 0.8:
        v = f"{f} {la}"
    else:
        v = f"{la.upper() if lang in ('fr', 'ro') else la}, {f}"
    return v, v


def _email(rng: random.Random, lang: str, ctx: Ctx) -> tuple[str, str]:
    local = rng.choice(HANDLES[lang]) + rng.choice(["", "", str(rng.randint(2, 99))])
    v = f"{local}@{rng.choice(MAIL_DOMAINS[lang])}"
    return v, v


def _phone(rng: random.Random, lang: str, ctx: Ctx) -> tuple[str, str]:
    d = lambda n: rand(rng, DIGITS, n)  # noqa: E731
    if lang in ("de", "fr", "es", "pt", "ja", "zh"):
        v = gen.phone(rng, lang).value
    else:
        v = rng.choice(
            {
                "en": [
                    f"+1.{digits(rng, 3, '2345679')}.{digits(rng, 3, '2346789')}.{d(4)}",
                    f"(+44) 7{d(3)} {d(3)} {d(3)}",
                    f"+1 {digits(rng, 3, '2345679')}-{digits(rng, 3, '2346789')}-{d(4)} x{d(3)}",
                ],
                "id": [
                    f"+62 81{d(1)}-{d(4)}-{d(4)}",
                    f"081{d(1)} {d(4)} {d(4)}",
                    f"(021) {d(4)}-{d(4)}",
                ],
                "th": [
                    f"+66 8{d(1)} {d(3)} {d(4)}",
                    f"08{d(1)}-{d(3)}-{d(4)}",
                    f"02-{d(3)}-{d(4)}",
                ],
                "he": [f"+972-5{d(1)}-{d(3)}-{d(4)}", f"05{d(1)}-{d(7)}", f"03-{d(7)}"],
                "el": [
                    f"+30 69{d(1)} {d(3)} {d(4)}",
                    f"69{d(1)} {d(3)} {d(4)}",
                    f"210 {d(3)} {d(4)}",
                ],
                "uk": [
                    f"+380 6{d(1)} {d(3)} {d(2)} {d(2)}",
                    f"(09{d(1)}) {d(3)}-{d(2)}-{d(2)}",
                    f"+38 044 {d(3)} {d(2)} {d(2)}",
                ],
                "fi": [f"+358 40 {d(3)} {d(4)}", f"050 {d(3)} {d(4)}", f"09 {d(4)} {d(3)}"],
                "cs": [
                    f"+420 60{d(1)} {d(3)} {d(3)}",
                    f"7{d(2)} {d(3)} {d(3)}",
                    f"+420 2{d(2)} {d(3)} {d(3)}",
                ],
                "ro": [
                    f"+40 72{d(1)} {d(3)} {d(3)}",
                    f"07{d(2)}.{d(3)}.{d(3)}",
                    f"021 {d(3)} {d(2)} {d(2)}",
                ],
            }[lang]
        )
    return v, v


# fmt: off
MONTHS = {
    "id": ["Januari", "Februari", "Maret", "April", "Mei", "Juni", "Juli", "Agustus", "September", "Oktober", "November", "Desember"],
    "th": ["มกราคม", "กุมภาพันธ์", "มีนาคม", "เมษายน", "พฤษภาคม", "มิถุนายน", "กรกฎาคม", "สิงหาคม", "กันยายน", "ตุลาคม", "พฤศจิกายน", "ธันวาคม"],
    "el": ["Ιανουαρίου", "Φεβρουαρίου", "Μαρτίου", "Απριλίου", "Μαΐου", "Ιουνίου", "Ιουλίου", "Αυγούστου", "Σεπτεμβρίου", "Οκτωβρίου", "Νοεμβρίου", "Δεκεμβρίου"],
    "uk": ["січня", "лютого", "березня", "квітня", "травня", "червня", "липня", "серпня", "вересня", "жовтня", "листопада", "грудня"],
    "fi": ["tammikuuta", "helmikuuta", "maaliskuuta", "huhtikuuta", "toukokuuta", "kesäkuuta", "heinäkuuta", "elokuuta", "syyskuuta", "lokakuuta", "marraskuuta", "joulukuuta"],
    "cs": ["ledna", "února", "března", "dubna", "května", "června", "července", "srpna", "září", "října", "listopadu", "prosince"],
    "ro": ["ianuarie", "februarie", "martie", "aprilie", "mai", "iunie", "iulie", "august", "septembrie", "octombrie", "noiembrie", "decembrie"],
}
# fmt: on


def date_in(rng: random.Random, lang: str, y: int, m: int, d: int) -> str:
    mon = MONTHS.get(lang, [""] * 12)[m - 1]
    return rng.choice(
        {
            "en": [
                f"{d:02d}-{gen.MONTHS['en'][m - 1][:3].upper()}-{y}",
                f"{gen.MONTHS['en'][m - 1][:3]} {d} {y}",
                f"{y}{m:02d}{d:02d}",
            ],
            "de": [f"{d}.{m}.{y}", f"{d:02d}.{m:02d}.{str(y)[2:]}"],
            "fr": [f"{d:02d}.{m:02d}.{y}", f"le {d} {gen.MONTHS['fr'][m - 1]} {y}"],
            "es": [f"{d}/{m}/{y}", f"{d:02d}-{m:02d}-{y}"],
            "pt": [
                f"{d:02d}/{m:02d}/{y}",
                f"{d} de {['janeiro', 'fevereiro', 'março', 'abril', 'maio', 'junho', 'julho', 'agosto', 'setembro', 'outubro', 'novembro', 'dezembro'][m - 1]} de {y}",
            ],
            "ja": [
                f"{y}年{m:02d}月{d:02d}日",
                f"{['昭和', '平成'][y >= 1989]}{y - (1925 if y < 1989 else 1988)}年{m}月{d}日",
            ],
            "zh": [f"{y}年{m:02d}月{d:02d}日", f"{y}.{m:02d}.{d:02d}"],
            "id": [f"{d} {mon} {y}", f"{d:02d}-{m:02d}-{y}"],
            "th": [f"{d} {mon} {y + 543}", f"{d:02d}/{m:02d}/{y}"],
            "he": [f"{d}.{m}.{y}", f"{d:02d}/{m:02d}/{y}"],
            "el": [f"{d} {mon} {y}", f"{d:02d}/{m:02d}/{y}"],
            "uk": [f"{d:02d}.{m:02d}.{y}", f"{d} {mon} {y} р."],
            "fi": [f"{d}.{m}.{y}", f"{d}. {mon} {y}"],
            "cs": [f"{d}. {m}. {y}", f"{d}. {mon} {y}"],
            "ro": [f"{d:02d}.{m:02d}.{y}", f"{d} {mon} {y}"],
        }[lang]
    )


def _birth(ctx: Ctx, rng: random.Random) -> tuple[int, int, int]:
    if "birth" not in ctx:
        ctx["birth"] = (rng.randint(1941, 2006), rng.randint(1, 12), rng.randint(1, 28))
    return ctx["birth"]  # type: ignore[return-value]


def _dob(rng: random.Random, lang: str, ctx: Ctx) -> tuple[str, str]:
    v = date_in(rng, lang, *_birth(ctx, rng))
    return v, v


def _passport(rng: random.Random, lang: str, ctx: Ctx) -> tuple[str, str]:
    d = lambda n: rand(rng, DIGITS, n)  # noqa: E731
    maker = {
        "id": lambda: rng.choice("ABCX") + d(7),
        "th": lambda: rng.choice(["AA", "AB", "AC"]) + d(7),
        "he": lambda: rng.choice("23") + d(7),
        "el": lambda: rand(rng, "ABEHKMNPTXZ", 2) + d(7),
        "uk": lambda: rng.choice(["FA", "FE", "FT", "GB"]) + d(6),
        "fi": lambda: rng.choice(["FP", "FN", "FL"]) + d(7),
        "cs": lambda: rng.choice("4") + d(7),
        "ro": lambda: rng.choice(["05", "06"]) + d(7),
    }.get(lang)
    v = maker() if maker else gen.passport(rng, lang).value
    return v, v


# --- national ids ----------------------------------------------------------------------------


def nik(rng: random.Random, ctx: Ctx) -> str:
    y, m, d = _birth(ctx, rng)
    day = d + (40 if rng.random() < 0.5 else 0)
    region = rng.choice(["317101", "327301", "357801", "517102", "127101"])
    return f"{region}{day:02d}{m:02d}{y % 100:02d}{rng.randint(1, 9999):04d}"


def thai_id(rng: random.Random, ctx: Ctx) -> str:
    body = rng.choice("1358") + rand(rng, DIGITS, 11)
    check = (11 - sum(int(c) * (13 - i) for i, c in enumerate(body)) % 11) % 10
    n = body + str(check)
    return rng.choice(
        [
            f"{n[0]}-{n[1:5]}-{n[5:10]}-{n[10:12]}-{n[12]}",
            f"{n[0]} {n[1:5]} {n[5:10]} {n[10:12]} {n[12]}",
            n,
        ]
    )


def teudat_zehut(rng: random.Random, ctx: Ctx) -> str:
    return gen.luhn_complete(rng.choice("0123") + rand(rng, DIGITS, 7))


def amka(rng: random.Random, ctx: Ctx) -> str:
    y, m, d = _birth(ctx, rng)
    return gen.luhn_complete(f"{d:02d}{m:02d}{y % 100:02d}{rand(rng, DIGITS, 4)}")


def rnokpp(rng: random.Random, ctx: Ctx) -> str:
    body = digits(rng, 9, "123")
    w = [-1, 5, 7, 9, 4, 6, 10, 5, 7]
    return body + str(sum(int(c) * k for c, k in zip(body, w, strict=True)) % 11 % 10)


def hetu(rng: random.Random, ctx: Ctx) -> str:
    y, m, d = _birth(ctx, rng)
    n = rng.randint(2, 899)
    check = "0123456789ABCDEFHJKLMNPRSTUVWXY"[int(f"{d:02d}{m:02d}{y % 100:02d}{n:03d}") % 31]
    return f"{d:02d}{m:02d}{y % 100:02d}{'-' if y < 2000 else 'A'}{n:03d}{check}"


def rodne_cislo(rng: random.Random, ctx: Ctx) -> str:
    y, m, d = _birth(ctx, rng)
    mm = m + (50 if rng.random() < 0.5 else 0)
    while True:
        body = f"{y % 100:02d}{mm:02d}{d:02d}{rand(rng, DIGITS, 3)}"
        check = int(body) % 11
        if check != 10:
            return f"{body[:6]}/{body[6:]}{check}"


def cnp(rng: random.Random, ctx: Ctx) -> str:
    y, m, d = _birth(ctx, rng)
    sex = rng.choice("12") if y < 2000 else rng.choice("56")
    body = f"{sex}{y % 100:02d}{m:02d}{d:02d}{rng.randint(1, 46):02d}{rng.randint(1, 999):03d}"
    c = sum(int(a) * int(b) for a, b in zip(body, "279146358279", strict=True)) % 11
    return body + ("1" if c == 10 else str(c))


# fmt: off
NIDS: dict[str, list[tuple[Callable[[random.Random, Ctx], str], list[str]]]] = {
    "id": [(nik, ["NIK", "No. KTP"])],
    "th": [(thai_id, ["เลขประจำตัวประชาชน", "เลขบัตรประชาชน"])],
    "he": [(teudat_zehut, ["ת.ז.", "מספר זהות"])],
    "el": [(amka, ["ΑΜΚΑ", "Α.Μ.Κ.Α."])],
    "uk": [(rnokpp, ["РНОКПП", "ІПН"])],
    "fi": [(hetu, ["henkilötunnus", "hetu"])],
    "cs": [(rodne_cislo, ["rodné číslo", "RČ"])],
    "ro": [(cnp, ["CNP", "cod numeric personal"])],
}
# fmt: on


def _nid_pick(rng: random.Random, lang: str, ctx: Ctx) -> None:
    if "nid" in ctx:
        return
    if lang in NIDS:
        make, labels = rng.choice(NIDS[lang])
        ctx["nid"], ctx["nid_label"] = make(rng, ctx), rng.choice(labels)
    else:
        it = gen.national_id(rng, lang)
        ctx["nid"], ctx["nid_label"] = it.value, it.label


def _nid(rng: random.Random, lang: str, ctx: Ctx) -> tuple[str, str]:
    _nid_pick(rng, lang, ctx)
    v = str(ctx["nid"])
    return v, v


def _ssn(rng: random.Random, lang: str, ctx: Ctx) -> tuple[str, str]:
    v = gen.ssn_value(rng)
    return v, v


# --- money and network ----------------------------------------------------------------------

LOCAL_IBAN = {
    "fi": ("FI", 14),
    "cs": ("CZ", 20),
    "ro": ("RO", 16),
    "el": ("GR", 23),
    "uk": ("UA", 25),
    "he": ("IL", 19),
}


def _iban(rng: random.Random, lang: str, ctx: Ctx) -> tuple[str, str]:
    if lang in LOCAL_IBAN and rng.random() < 0.75:
        country, n = LOCAL_IBAN[lang]
        bban = ("RNCB" if country == "RO" else "") + rand(rng, DIGITS, n)
        compact = country + gen.iban_check(country, bban) + bban
        v = gen.format_iban(compact, rng)
    else:
        v = gen.iban(rng, lang).value
    return v, v


def _card(rng: random.Random, lang: str, ctx: Ctx) -> tuple[str, str]:
    v = gen.card_number(rng, lang).value
    return v, v


def _ip(rng: random.Random, lang: str, ctx: Ctx) -> tuple[str, str]:
    v = gen.ip_address(rng, lang).value
    return v, v


# fmt: off
STREETS = {
    "id": lambda r: f"Jl. {r.choice(['Sudirman', 'Gatot Subroto', 'Diponegoro', 'Pemuda', 'Malioboro'])} No. {r.randint(1, 240)}, RT {r.randint(1, 12):02d}/RW {r.randint(1, 9):02d}",
    "th": lambda r: f"{r.randint(1, 199)}/{r.randint(1, 99)} ถนน{r.choice(['สุขุมวิท', 'พหลโยธิน', 'รัชดาภิเษก', 'เพชรบุรี'])} แขวง{r.choice(['คลองเตย', 'ลาดยาว', 'ห้วยขวาง'])}",
    "he": lambda r: f"רחוב {r.choice(['הרצל', 'ויצמן', 'בן יהודה', 'אלנבי', 'ז׳בוטינסקי'])} {r.randint(1, 120)}, {r.choice(['תל אביב', 'חיפה', 'ירושלים', 'רמת גן'])}",
    "el": lambda r: f"{r.choice(['Οδός', 'Λεωφ.'])} {r.choice(['Ερμού', 'Πατησίων', 'Σταδίου', 'Κηφισίας', 'Τσιμισκή'])} {r.randint(1, 300)}, {r.choice(['Αθήνα', 'Θεσσαλονίκη', 'Πάτρα'])}",
    "uk": lambda r: f"{r.choice(['вул.', 'просп.'])} {r.choice(['Хрещатик', 'Шевченка', 'Городоцька', 'Сумська', 'Дерибасівська'])}, {r.randint(1, 150)}, кв. {r.randint(1, 220)}",
    "fi": lambda r: f"{r.choice(['Mannerheimintie', 'Hämeenkatu', 'Aleksanterinkatu', 'Kauppakatu', 'Puistotie'])} {r.randint(1, 90)} {r.choice('ABC')} {r.randint(1, 60)}",
    "cs": lambda r: f"{r.choice(['Vinohradská', 'Korunní', 'Masarykova', 'Palackého', 'Husova'])} {r.randint(100, 2999)}/{r.randint(1, 80)}",
    "ro": lambda r: f"Str. {r.choice(['Mihai Eminescu', 'Victoriei', 'Lipscani', 'Avram Iancu', 'Republicii'])} nr. {r.randint(1, 120)}, bl. {r.choice('ABCDM')}{r.randint(1, 9)}, ap. {r.randint(1, 80)}",
    "en": lambda r: f"Flat {r.randint(1, 40)}, {r.randint(2, 220)} {r.choice(['Cromwell Road', 'Pembroke Terrace', 'Larkspur Close', 'Abbey Crescent', 'Sycamore Way'])}",
    "de": lambda r: f"{r.choice(['Am Mühlbach', 'Rosenweg', 'Zur alten Post', 'Eichendorffstr.', 'Uhlandring'])} {r.randint(1, 90)}{r.choice(['', 'c'])}",
    "fr": lambda r: f"{r.randint(1, 99)}, {r.choice(['chemin des Vignes', 'allée des Tilleuls', 'place Bellecour', 'quai de la Tournelle'])}",
    "es": lambda r: f"{r.choice(['Ronda de', 'Travesía', 'Plaza de'])} {r.choice(['Atocha', 'Segovia', 'San Bernardo', 'los Mártires'])} {r.randint(1, 90)}, {r.randint(1, 9)}º {r.choice('ABCD')}",
    "pt": lambda r: f"{r.choice(['Alameda', 'Rua', 'Estrada'])} {r.choice(['Santos', 'Oscar Freire', 'dos Bandeirantes', 'Haddock Lobo'])}, {r.randint(10, 2200)} - apto {r.randint(11, 190)}",
    "ja": lambda r: f"{r.choice(['福岡県福岡市中央区天神', '北海道札幌市中央区北一条西', '京都府京都市左京区下鴨'])}{r.randint(1, 9)}丁目{r.randint(1, 30)}番{r.randint(1, 20)}号",
    "zh": lambda r: f"{r.choice(['广州市天河区', '成都市武侯区', '南京市鼓楼区', '武汉市洪山区'])}{r.choice(['天河北路', '人民南路', '中山北路', '珞喻路'])}{r.randint(1, 800)}号{r.randint(1, 30)}栋{r.randint(101, 2806)}室",
}
# fmt: on


def _street(rng: random.Random, lang: str, ctx: Ctx) -> tuple[str, str]:
    v = STREETS[lang](rng)
    return v, v


# --- secrets (placed in new ways) --------------------------------------------------------------


def _api_key(rng: random.Random, lang: str, ctx: Ctx) -> tuple[str, str]:
    v = gen.api_key(rng).value
    return v, v


def _password(rng: random.Random, lang: str, ctx: Ctx) -> tuple[str, str]:
    v = gen.password_value(rng)
    return v, v


def _secret(rng: random.Random, lang: str, ctx: Ctx) -> tuple[str, str]:
    v = gen.secret(rng).value
    return v, v


def _jwt(rng: random.Random, lang: str, ctx: Ctx) -> tuple[str, str]:
    v = gen.jwt(rng).value
    return v, v


def _pem(rng: random.Random, lang: str, ctx: Ctx) -> tuple[str, str]:
    v = gen.private_key(rng).value
    return v, v


def _credential(rng: random.Random, lang: str, ctx: Ctx) -> tuple[str, str]:
    pw = gen.password_value(rng, url_safe=True)
    user = rng.choice(["reporting", "svc_billing", "airflow", "sa", "grafana", "keycloak"])
    host = rng.choice(
        [
            "db-replica-2.corp.lan",
            "sql01.prod.example-intra.net",
            "10.40.2.17",
            "orders-rw.cluster-c1x.eu-west-1.rds.amazonaws.com",
        ]
    )
    shown = rng.choice(
        [
            f"jdbc:postgresql://{host}:5432/ledger?user={user}&password={pw}&ssl=true",
            f"Server={host},1433;Database=Payroll;User Id={user};Password={pw};Encrypt=True;",
            f"sqlserver://{user}:{pw}@{host}:1433?database=crm",
            f"clickhouse://{user}:{pw}@{host}:9000/events",
            f"amqps://{user}:{pw}@{host}:5671/%2F",
            f"smtp://{user}%40relay:{pw}@{host}:587",
        ]
    )
    return shown, pw


def _auth(rng: random.Random, lang: str, ctx: Ctx) -> tuple[str, str]:
    r = rng.randrange(3)
    if r == 0:
        v = rand(rng, ALNUM + "-._", 48)
        return f"Bearer {v}", v
    if r == 1:
        raw = (
            f"{rng.choice(['jenkins', 'ci-bot', 'integration'])}:{gen.password_value(rng)}".encode()
        )
        v = base64.b64encode(raw).decode()
        return f"Basic {v}", v
    v = "ya29." + rand(rng, gen.URLSAFE, 110)
    return f"Bearer {v}", v


def _cookie(rng: random.Random, lang: str, ctx: Ctx) -> tuple[str, str]:
    name, v = rng.choice(
        [
            ("__Host-session", rand(rng, gen.URLSAFE, 43)),
            ("SESS", rand(rng, string.ascii_lowercase + DIGITS, 32)),
            ("ASP.NET_SessionId", rand(rng, string.ascii_lowercase + DIGITS, 24)),
            ("_gitlab_session", rand(rng, HEX, 32)),
            (
                "wordpress_logged_in_" + rand(rng, HEX, 32),
                f"admin%7C{rng.randint(1_700_000_000, 1_800_000_000)}%7C{rand(rng, ALNUM, 43)}",
            ),
            ("remember_token", rand(rng, ALNUM, 40)),
        ]
    )
    return f"{name}={v}", v


SLOTS: dict[str, tuple[str, Maker]] = {
    "api_key": ("api_key", _api_key),
    "password": ("password", _password),
    "private_key": ("private_key", _pem),
    "credential": ("credential", _credential),
    "auth_header": ("auth_header", _auth),
    "cookie": ("cookie", _cookie),
    "jwt": ("jwt", _jwt),
    "secret": ("secret", _secret),
    "email": ("email", _email),
    "phone": ("phone", _phone),
    "ssn": ("ssn", _ssn),
    "card": ("card_number", _card),
    "iban": ("iban", _iban),
    "ip": ("ip_address", _ip),
    "dob": ("date_of_birth", _dob),
    "passport": ("passport", _passport),
    "nid": ("national_id", _nid),
    "name": ("person_name", _name),
    "addr": ("street_address", _street),
}


# --- look-alikes ------------------------------------------------------------------------------


def _ean13(rng: random.Random) -> str:
    body = rng.choice(["400", "590", "642", "729", "899", "885", "520"]) + rand(rng, DIGITS, 9)
    check = (10 - sum(int(c) * (1 if i % 2 == 0 else 3) for i, c in enumerate(body)) % 10) % 10
    return body + str(check)


def keep(rng: random.Random, sort: str, lang: str) -> str:
    """One look-alike of a sort this corpus adds (or one of ``generate``'s)."""
    if sort == "trace_id":
        return rand(rng, HEX, 32)
    if sort == "span_id":
        return rand(rng, HEX, 16)
    if sort == "traceparent":
        return f"00-{rand(rng, HEX, 32)}-{rand(rng, HEX, 16)}-01"
    if sort == "digest":
        return f"sha256:{rand(rng, HEX, 64)}"
    if sort == "ean13":
        return _ean13(rng)
    if sort == "tracking":
        return "1Z" + rand(rng, UPPER + DIGITS, 6) + rand(rng, DIGITS, 10)
    if sort == "cve":
        return f"CVE-{rng.randint(2019, 2025)}-{rng.randint(1000, 49999)}"
    if sort == "invoice":
        return rng.choice(
            [
                f"INV/{rng.randint(2023, 2026)}/{rng.randint(1, 9999):05d}",
                f"FV-{rng.randint(100000, 999999)}",
                f"Nr. {rng.randint(2024, 2026)}-{rng.randint(100, 999)}",
            ]
        )
    if sort == "build":
        return rng.choice(
            [
                f"build #{rng.randint(1000, 99999)}",
                f"run {rng.randint(1_000_000_000, 9_999_999_999)}",
                f"pipeline {rng.randint(100000, 999999)}",
            ]
        )
    if sort == "meeting_date":
        return date_in(rng, lang, rng.randint(2024, 2026), rng.randint(1, 12), rng.randint(1, 28))
    if sort == "request_id":
        return str(uuid.UUID(int=rng.getrandbits(128), version=4))
    if sort == "epoch_ms":
        return str(rng.randint(1_700_000_000_000, 1_790_000_000_000))
    if sort == "hex_color":
        return "#" + rand(rng, "0123456789ABCDEF", 6)
    if sort == "secret_ref":
        return rng.choice(
            [
                "${{ secrets.NPM_TOKEN }}",
                "vault:secret/data/app#password",
                "op://Prod/db/password",
                "arn:aws:secretsmanager:eu-west-1:123456789012:secret:prod/db-AbCdEf",
                "{{ vault_db_password }}",
                "[REDACTED]",
                "sk_test_" + "0" * 24,
            ]
        )
    if sort == "ext_phone":
        return rng.choice(
            [
                f"ext. {rng.randint(100, 9999)}",
                f"room {rng.randint(100, 999)}",
                f"port {rng.randint(1024, 65535)}",
            ]
        )
    return gen.keep_value(rng, sort, lang if lang in gen.LANGS else "en")


# --- localized words ---------------------------------------------------------------------------

# fmt: off
WORDS: dict[str, dict[str, str]] = {
    "en": {"name": "Full name", "dob": "Date of birth", "phone": "Mobile", "email": "E-mail", "addr": "Home address", "passport": "Passport no.", "iban": "Account (IBAN)", "card": "Card", "pw": "password", "minutes": "Minutes", "todo": "follow up with", "customer": "customer", "refund": "refund to", "moved": "moved to", "patient": "patient", "called": "called from"},
    "de": {"name": "Name, Vorname", "dob": "Geb.-Datum", "phone": "Handy", "email": "E-Mail", "addr": "Anschrift", "passport": "Reisepass-Nr.", "iban": "IBAN", "card": "Kreditkarte", "pw": "Kennwort", "minutes": "Protokoll", "todo": "nachfassen bei", "customer": "Kunde", "refund": "Erstattung auf", "moved": "umgezogen nach", "patient": "Patient", "called": "rief an von"},
    "fr": {"name": "Nom et prénom", "dob": "Né(e) le", "phone": "Portable", "email": "Courriel", "addr": "Adresse postale", "passport": "N° de passeport", "iban": "RIB / IBAN", "card": "Carte bancaire", "pw": "mot de passe", "minutes": "Compte rendu", "todo": "relancer", "customer": "client", "refund": "remboursement sur", "moved": "a déménagé au", "patient": "patient", "called": "a appelé du"},
    "es": {"name": "Nombre completo", "dob": "Fecha de nacimiento", "phone": "Móvil", "email": "Correo", "addr": "Domicilio", "passport": "Nº de pasaporte", "iban": "Cuenta IBAN", "card": "Tarjeta", "pw": "contraseña", "minutes": "Acta de reunión", "todo": "dar seguimiento a", "customer": "cliente", "refund": "reembolso a", "moved": "se mudó a", "patient": "paciente", "called": "llamó desde"},
    "pt": {"name": "Nome completo", "dob": "Data de nascimento", "phone": "Celular", "email": "E-mail", "addr": "Endereço", "passport": "Passaporte nº", "iban": "IBAN", "card": "Cartão", "pw": "senha", "minutes": "Ata da reunião", "todo": "retornar para", "customer": "cliente", "refund": "estorno para", "moved": "mudou-se para", "patient": "paciente", "called": "ligou do"},
    "ja": {"name": "氏名", "dob": "生年月日", "phone": "携帯番号", "email": "メールアドレス", "addr": "住所", "passport": "旅券番号", "iban": "IBAN", "card": "カード番号", "pw": "パスワード", "minutes": "議事録", "todo": "フォロー：", "customer": "顧客", "refund": "返金先", "moved": "転居先", "patient": "患者", "called": "着信元"},
    "zh": {"name": "姓名", "dob": "出生日期", "phone": "手机", "email": "邮箱", "addr": "住址", "passport": "护照号", "iban": "IBAN", "card": "银行卡号", "pw": "密码", "minutes": "会议纪要", "todo": "跟进：", "customer": "客户", "refund": "退款至", "moved": "搬到", "patient": "患者", "called": "来电号码"},
    "id": {"name": "Nama lengkap", "dob": "Tanggal lahir", "phone": "No. HP", "email": "Surel", "addr": "Alamat", "passport": "No. paspor", "iban": "IBAN", "card": "Kartu kredit", "pw": "kata sandi", "minutes": "Notulen rapat", "todo": "tindak lanjut dengan", "customer": "pelanggan", "refund": "pengembalian dana ke", "moved": "pindah ke", "patient": "pasien", "called": "menelepon dari"},
    "th": {"name": "ชื่อ-นามสกุล", "dob": "วันเกิด", "phone": "เบอร์มือถือ", "email": "อีเมล", "addr": "ที่อยู่", "passport": "เลขที่หนังสือเดินทาง", "iban": "IBAN", "card": "บัตรเครดิต", "pw": "รหัสผ่าน", "minutes": "บันทึกการประชุม", "todo": "ติดตามกับ", "customer": "ลูกค้า", "refund": "คืนเงินไปที่", "moved": "ย้ายไปที่", "patient": "ผู้ป่วย", "called": "โทรมาจาก"},
    "he": {"name": "שם מלא", "dob": "תאריך לידה", "phone": "נייד", "email": "דוא\"ל", "addr": "כתובת", "passport": "מס' דרכון", "iban": "IBAN", "card": "כרטיס אשראי", "pw": "סיסמה", "minutes": "פרוטוקול ישיבה", "todo": "לחזור אל", "customer": "לקוח", "refund": "החזר ל", "moved": "עבר ל", "patient": "מטופל", "called": "התקשר מ"},
    "el": {"name": "Ονοματεπώνυμο", "dob": "Ημ. γέννησης", "phone": "Κινητό", "email": "Email", "addr": "Διεύθυνση", "passport": "Αρ. διαβατηρίου", "iban": "IBAN", "card": "Κάρτα", "pw": "κωδικός", "minutes": "Πρακτικά συνάντησης", "todo": "επικοινωνία με", "customer": "πελάτης", "refund": "επιστροφή στο", "moved": "μετακόμισε στην", "patient": "ασθενής", "called": "κάλεσε από"},
    "uk": {"name": "ПІБ", "dob": "Дата народження", "phone": "Моб.", "email": "Ел. пошта", "addr": "Адреса", "passport": "Паспорт №", "iban": "IBAN", "card": "Картка", "pw": "пароль", "minutes": "Протокол наради", "todo": "зв'язатися з", "customer": "клієнт", "refund": "повернення на", "moved": "переїхала на", "patient": "пацієнт", "called": "дзвонив з"},
    "fi": {"name": "Nimi", "dob": "Syntymäaika", "phone": "Puhelin", "email": "Sähköposti", "addr": "Osoite", "passport": "Passin numero", "iban": "Tilinumero", "card": "Kortti", "pw": "salasana", "minutes": "Muistio", "todo": "soita takaisin:", "customer": "asiakas", "refund": "hyvitys tilille", "moved": "muutti osoitteeseen", "patient": "potilas", "called": "soitti numerosta"},
    "cs": {"name": "Jméno a příjmení", "dob": "Datum narození", "phone": "Mobil", "email": "E-mail", "addr": "Bydliště", "passport": "Číslo pasu", "iban": "Číslo účtu (IBAN)", "card": "Karta", "pw": "heslo", "minutes": "Zápis z porady", "todo": "ozvat se", "customer": "zákazník", "refund": "vrácení na", "moved": "přestěhoval se na", "patient": "pacient", "called": "volal z"},
    "ro": {"name": "Nume și prenume", "dob": "Data nașterii", "phone": "Telefon mobil", "email": "E-mail", "addr": "Domiciliu", "passport": "Nr. pașaport", "iban": "Cont IBAN", "card": "Card", "pw": "parola", "minutes": "Minuta ședinței", "todo": "de revenit la", "customer": "client", "refund": "rambursare în", "moved": "s-a mutat pe", "patient": "pacient", "called": "a sunat de pe"},
}
# fmt: on

# Each template: (document, languages or "*" for all, text). Slots: ⟨kind⟩ or ⟨kind.2⟩ for a
# second value of a kind, ⟨=sort⟩ for a look-alike, ⟨@word⟩ for a localized word, ⟨@nid⟩
# for the national id's own label.
# fmt: off
TEMPLATES: list[tuple[str, str, str]] = [
    ("scratchpad", "*", "## scratchpad (turn 14)\n- user pasted their profile, need to fill the visa form\n- ⟨@name⟩ = ⟨name⟩\n- ⟨@dob⟩ → ⟨dob⟩   (check format later)\n- ⟨@passport⟩ ⟨passport⟩ — expires ⟨=meeting_date⟩\n- TODO: don't echo ⟨@nid⟩ ⟨nid⟩ back in the reply\n- trace ⟨=trace_id⟩"),
    ("toolcall", "*", '→ tool_call crm.lookup({"query": "⟨name⟩"})\n← 200 {"id": "⟨=request_id⟩", "phone": "⟨phone⟩", "mail": "⟨email⟩", "street": "⟨addr⟩", "updated_ms": ⟨=epoch_ms⟩}\nthought: the ⟨@customer⟩ matches, continue with ticket ⟨=order⟩'),
    ("toolcall_http", "*", "[tool:http_request] method=POST url=https://api.partner-hub.example/v2/payouts\n  headers: {Content-Type: application/json, authorization: \"⟨auth_header⟩\"}\n  body: {\"beneficiary\": \"⟨name⟩\", \"iban\": \"⟨iban⟩\", \"ref\": \"⟨=invoice⟩\"}\n[tool:http_request] ← 201 Created in 412 ms (traceparent ⟨=traceparent⟩)"),
    ("minutes", "*", "# ⟨@minutes⟩ — ⟨=meeting_date⟩\nAttendees: ⟨name⟩, ⟨name.2⟩\n1. Migration of the payroll DB is blocked on ⟨=cve⟩ patch.\n2. ⟨name.2⟩ shared the staging creds in chat by mistake: ⟨credential⟩ — rotate today.\n3. ⟨@todo⟩ ⟨name⟩ (⟨phone⟩).\nNext sync: ⟨=meeting_date.2⟩"),
    ("csv", "*", "⟨@name⟩;⟨@email⟩;⟨@phone⟩;⟨@iban⟩;sku;ean\n\"⟨name⟩\";⟨email⟩;⟨phone⟩;⟨iban⟩;A-{=};⟨=ean13⟩\n\"⟨name.2⟩\";⟨email.2⟩;⟨phone.2⟩;;B-{=};⟨=ean13.2⟩"),
    ("tsv", "*", "row\t⟨@nid⟩\t⟨@dob⟩\t⟨@addr⟩\tcolor\n1\t⟨nid⟩\t⟨dob⟩\t⟨addr⟩\t⟨=hex_color⟩\n# exported by report-svc ⟨=version⟩ at ⟨=timestamp⟩"),
    ("frontmatter", "*", "---\ntitle: onboarding — ⟨name⟩\ntags: [hr, onboarding]\nbirthdate: ⟨dob⟩\ncontact:\n  mobile: \"⟨phone⟩\"\n  mail: ⟨email⟩\nid_doc: ⟨passport⟩\nlinked_ticket: ⟨=order⟩\n---\n\nLaptop asset ⟨=ean13⟩ issued; first day ⟨=meeting_date⟩."),
    ("checklist", "*", "### Go-live checklist\n- [x] DNS cut-over (new edge ⟨ip⟩, old ⟨=reserved_ip⟩)\n- [x] rotate Stripe webhook secret → `⟨secret⟩`\n- [ ] remove `⟨api_key⟩` from the README (pasted by ⟨name⟩!)\n- [ ] image ⟨=digest⟩ promoted\n- [ ] ⟨=build⟩ green"),
    ("soap", "*", "<soapenv:Envelope xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\">\n <soapenv:Header><wsse:Security><wsse:UsernameToken><wsse:Username>b2b_gateway</wsse:Username><wsse:Password Type=\"PasswordText\">⟨password⟩</wsse:Password></wsse:UsernameToken></wsse:Security></soapenv:Header>\n <soapenv:Body><ns2:CreateCustomer><fullName>⟨name⟩</fullName><birthDate>⟨dob⟩</birthDate><taxId>⟨nid⟩</taxId><correlationId>⟨=request_id⟩</correlationId></ns2:CreateCustomer></soapenv:Body>\n</soapenv:Envelope>"),
    ("graphql", "*", '{\n  "data": {\n    "viewer": {\n      "login": "⟨=short_sha⟩-bot",\n      "billingProfile": {"holder": "⟨name⟩", "cardNumber": "⟨card⟩", "postalAddress": "⟨addr⟩"},\n      "sessions": [{"ip": "⟨ip⟩", "userAgent": "Mozilla/5.0", "cookie": "⟨cookie⟩"}]\n    }\n  },\n  "extensions": {"traceId": "⟨=trace_id⟩", "cost": 12}\n}'),
    ("java_log", "*", "2025-03-11 08:14:02.331  WARN 1 --- [nio-8080-exec-7] c.a.p.web.AuthFilter : rejected token for user=⟨email⟩ from ⟨ip⟩ jwt=⟨jwt⟩\n2025-03-11 08:14:02.332  INFO 1 --- [nio-8080-exec-7] c.a.p.web.AuthFilter : spanId=⟨=span_id⟩ requestId=⟨=request_id⟩"),
    ("go_log", "*", "time=2025-06-02T10:44:51.902Z level=ERROR msg=\"smtp dial failed\" component=notifier dsn=\"⟨credential⟩\" retry=3 span=⟨=span_id⟩\ntime=2025-06-02T10:44:52.104Z level=INFO msg=\"queued mail\" to=⟨email⟩ phone=\"⟨phone⟩\" build=⟨=short_sha⟩"),
    ("node_log", "*", "[pino] {\"level\":30,\"time\":⟨=epoch_ms⟩,\"pid\":4411,\"req\":{\"method\":\"GET\",\"url\":\"/api/me\",\"headers\":{\"cookie\":\"⟨cookie⟩\",\"authorization\":\"⟨auth_header⟩\"},\"remoteAddress\":\"⟨ip⟩\"},\"msg\":\"request completed\"}"),
    ("cron_mail", "*", "From: Cron Daemon <root@batch-03>\nSubject: Cron <deploy@batch-03> /opt/scripts/nightly_export.sh\n\n+ export PGPASSWORD='⟨password⟩'\n+ pg_dump -h ⟨ip⟩ -U exporter crm > /backup/crm-⟨=meeting_date⟩.sql\n+ curl -s -H 'X-Api-Key: ⟨api_key⟩' https://hooks.example.org/done\nexport finished, ⟨=build⟩"),
    ("chat_quote", "*", "> **⟨name⟩** wrote:\n> can you send me the ⟨@iban⟩ for the ⟨@refund⟩ my account? it's ⟨iban⟩\n> and card ending … actually full number ⟨card⟩\n\nThanks ⟨name⟩ — refund ⟨=invoice⟩ is queued (⟨=price⟩). Tracking for the return: ⟨=tracking⟩"),
    ("ocr_form", "*", "⟨@name⟩ :  ⟨name⟩\n⟨@dob⟩ :   ⟨dob⟩\n⟨@nid⟩  :  ⟨nid⟩\n⟨@addr⟩:\n    ⟨addr⟩\n⟨@phone⟩ .......... ⟨phone⟩\n[OCR confidence 0.82 — page 2/3 — scan ⟨=uuid⟩]"),
    ("bilingual", "*", "EN: customer asked us to update the address on file.\n⟨@customer⟩: ⟨name⟩ — ⟨@moved⟩ ⟨addr⟩\nEN: new mobile / ⟨@phone⟩: ⟨phone⟩, ⟨@email⟩ ⟨email⟩\n(ref ⟨=order⟩, ⟨=meeting_date⟩)"),
    ("clinic", "*", "⟨@patient⟩ ⟨name⟩, ⟨@dob⟩ ⟨dob⟩, ⟨@nid⟩ ⟨nid⟩.\nLab order ⟨=invoice⟩, barcode ⟨=ean13⟩. ⟨@called⟩ ⟨phone⟩ to reschedule to ⟨=meeting_date⟩."),
    ("k8s_secret", "*", "$ kubectl get secret app-env -o yaml | yq '.data' | base64 -d   # agent ran this, output below\nSTRIPE_KEY=⟨api_key⟩\nSESSION_SIGNING=⟨secret⟩\nADMIN_PASS=⟨password⟩\n# resourceVersion: \"⟨=epoch_ms⟩\" uid ⟨=uuid⟩"),
    ("ssh_paste", "*", "ok here's the deploy key the contractor (⟨name⟩) sent over slack, moving it to the vault now:\n\n⟨private_key⟩\n\nfingerprint of the public half: ⟨=public_key⟩"),
    ("ansible_fail", "*", "TASK [tls : install server key] ****************************\nfatal: [⟨ip⟩]: FAILED! => changed=false\n  content: |\n⟨private_key⟩\n  msg: Destination directory /etc/ssl/private does not exist\nPLAY RECAP ⟨=timestamp⟩"),
    ("ci_variable", "*", "# CI/CD variable SSH_DEPLOY_KEY (type: file, masked: no) — pasted into the issue by mistake\n⟨private_key⟩\n# job ⟨=build⟩ · runner ⟨=short_sha⟩ · see ⟨=url⟩"),
    ("har", "*", '{"log": {"entries": [{"request": {"method": "POST", "url": "https://checkout.example-shop.net/api/pay", "headers": [{"name": "Authorization", "value": "⟨auth_header⟩"}, {"name": "Cookie", "value": "⟨cookie⟩"}], "postData": {"text": "{\\"pan\\":\\"⟨card⟩\\",\\"holder\\":\\"⟨name⟩\\"}"}}, "serverIPAddress": "⟨ip⟩", "startedDateTime": "⟨=timestamp⟩"}]}}'),
    ("ics_note", "*", "BEGIN:VEVENT\nSUMMARY:1:1 ⟨name⟩\nDTSTART:20250918T090000Z\nDESCRIPTION:bring signed contract; ⟨@passport⟩ ⟨passport⟩ copy; ⟨@phone⟩ ⟨phone⟩\nUID:⟨=uuid⟩\nEND:VEVENT"),
    ("sql_result", "*", " id  | full_name          | dob        | email\n-----+--------------------+------------+---------------------\n ⟨=span_id⟩ | ⟨name⟩ | ⟨dob⟩ | ⟨email⟩\n(1 row)\nTime: 3.112 ms  -- query hash ⟨=git_sha⟩"),
    ("env_diff", "*", "diff --git a/.env.staging b/.env.staging\n@@ -3,4 +3,4 @@\n-OAUTH_TOKEN=⟨=secret_ref⟩\n+OAUTH_TOKEN=⟨jwt⟩\n-SIGNING_KEY=⟨=placeholder⟩\n+SIGNING_KEY=⟨secret⟩\n DB_URL=⟨credential⟩"),
    ("incident", "*", "INCIDENT ⟨=order⟩ — suspicious logins\nsource ⟨ip⟩ then ⟨ip.2⟩ (both outside our ranges; ⟨=reserved_ip⟩ is the NAT)\naccount: ⟨email⟩ (⟨name⟩)\nsession cookie captured in WAF log: ⟨cookie⟩\nrelated: ⟨=cve⟩"),
    ("payment_ticket", "*", "Ticket ⟨=order⟩ · ⟨@customer⟩ ⟨name⟩\nCard on file: ⟨card⟩ (declined twice)\n⟨@iban⟩: ⟨iban⟩\nNot the card: test PAN ⟨=luhn_fail⟩ from the sandbox; bad IBAN ⟨=iban_fail⟩ from the import."),
    ("ssn_form", "en", "W-9 intake (scanned)\nName  (as shown on your income tax return):  ⟨name⟩\nSocial security number :  ⟨ssn⟩\nAddress (number, street, and apt. or suite no.) ⟨addr⟩\nDesk: ⟨=ext_phone⟩ · form rev. ⟨=meeting_date⟩"),
    ("ssn_chat", "en", "[10:02] ⟨name⟩: hey, HR needs my SSN again?? fine: ⟨ssn⟩\n[10:03] bot: got it. I'll store it encrypted. DOB on file is ⟨dob⟩, right?\n[10:03] ⟨name⟩: yes. also my cell changed → ⟨phone⟩\n[10:04] bot: updated (request ⟨=request_id⟩)"),
    ("ssn_csv", "en", "employee_id,ssn,name,dob,start\nE-⟨=epoch_ms⟩,⟨ssn⟩,\"⟨name⟩\",⟨dob⟩,⟨=meeting_date⟩\nE-⟨=epoch_ms.2⟩,⟨ssn.2⟩,\"⟨name.2⟩\",,⟨=meeting_date.2⟩"),
    ("ssn_agent", "en", "Thought: the tax tool wants `tin` — for US individuals that's the SSN. From the uploaded PDF: ⟨ssn⟩.\nAction: tax.file_extension(tin=\"⟨ssn⟩\", name=\"⟨name⟩\", passport=\"⟨passport⟩\")\nObservation: accepted, confirmation ⟨=invoice⟩"),
    ("native_note", "id", "Catatan: pelanggan ⟨name⟩ minta ganti alamat ke ⟨addr⟩. NIK ⟨nid⟩, lahir ⟨dob⟩. Hubungi via WA ⟨phone⟩. Jangan lupa ⟨=invoice⟩."),
    ("native_note", "th", "บันทึก: คุณ⟨name⟩ ติดต่อมาเรื่องเปลี่ยนที่อยู่เป็น ⟨addr⟩ เลขบัตรประชาชน ⟨nid⟩ เกิดวันที่ ⟨dob⟩ โทร ⟨phone⟩ (อ้างอิง ⟨=order⟩)"),
    ("native_note", "he", "הערה: ⟨name⟩ (ת.ז. ⟨nid⟩) ביקש/ה להעביר את ההחזר לחשבון ⟨iban⟩. טלפון לחזרה: ⟨phone⟩. מספר פנייה ⟨=order⟩."),
    ("native_note", "el", "Σημείωση: ο/η ⟨name⟩ (ΑΜΚΑ ⟨nid⟩) γεννήθηκε ⟨dob⟩ και μένει στην ⟨addr⟩. Τηλ. ⟨phone⟩. Παραστατικό ⟨=invoice⟩."),
    ("native_note", "uk", "Нотатка: ⟨name⟩, РНОКПП ⟨nid⟩, проживає: ⟨addr⟩. Паспорт ⟨passport⟩. Тел. ⟨phone⟩. Заявка ⟨=order⟩ від ⟨=meeting_date⟩."),
    ("native_note", "fi", "Muistiinpano: ⟨name⟩ (hetu ⟨nid⟩) soitti, uusi osoite ⟨addr⟩, puh. ⟨phone⟩. Hyvitys tilille ⟨iban⟩. Tiketti ⟨=order⟩."),
    ("native_note", "cs", "Poznámka: pan/paní ⟨name⟩, RČ ⟨nid⟩, bytem ⟨addr⟩, tel. ⟨phone⟩, účet ⟨iban⟩. Faktura ⟨=invoice⟩."),
    ("native_note", "ro", "Notă: ⟨name⟩, CNP ⟨nid⟩, domiciliat în ⟨addr⟩, tel. ⟨phone⟩, e-mail ⟨email⟩. Factura ⟨=invoice⟩ din ⟨=meeting_date⟩."),
    ("native_note", "ja", "メモ：⟨name⟩様（⟨@nid⟩ ⟨nid⟩）から住所変更の連絡。新住所は⟨addr⟩、携帯⟨phone⟩。受付番号⟨=order⟩。"),
    ("native_note", "zh", "备注：⟨name⟩（⟨@nid⟩ ⟨nid⟩）来电，新地址⟨addr⟩，手机⟨phone⟩，退款到⟨card⟩。工单⟨=order⟩。"),
    ("native_secret", "*", "⟨@todo⟩ ⟨name⟩: the wifi ⟨@pw⟩ for the office is ⟨password⟩ and the shared NAS login is admin / ⟨password.2⟩. (⟨=meeting_date⟩)"),
    ("terraform_plan", "*", "  # aws_ssm_parameter.api will be updated in-place\n  ~ resource \"aws_ssm_parameter\" \"api\" {\n      ~ value = (sensitive value)\n        name  = \"/prod/partner/key\"\n    }\n# debug dump left by the agent: value was ⟨api_key⟩ / ⟨=sha256⟩ / ⟨=version⟩"),
    ("postmortem", "*", "Postmortem ⟨=order⟩\nRoot cause: a JWT for ⟨email⟩ (⟨jwt⟩) was logged by the gateway for 3 days.\nAffected IPs: ⟨ip⟩, ⟨=reserved_ip⟩ (internal probe).\nOwner: ⟨name⟩. Related: ⟨=cve⟩, ⟨=url⟩"),
]
# fmt: on

SLOT = re.compile(r"⟨([=@]?)([a-z_0-9]+)(?:\.(\d))?⟩")


def _kinds(text: str) -> list[str]:
    return sorted({SLOTS[m[2]][0] for m in SLOT.finditer(text) if not m[1]})


def render(rng: random.Random, lang: str, text: str) -> dict[str, object]:
    ctx: Ctx = {}
    _nid_pick(rng, lang, ctx)
    filled: dict[tuple[str, str, str], str] = {}
    go: dict[str, str] = {}
    stay: dict[str, str] = {}

    def fill(m: re.Match[str]) -> str:
        mark, name, n = m[1], m[2], m[3] or "1"
        key = (mark, name, n)
        if key not in filled:
            if mark == "@":
                if name == "nid":
                    filled[key] = str(ctx["nid_label"])
                else:
                    filled[key] = WORDS[lang][name]
            elif mark == "=":
                v = keep(rng, name, lang)
                stay.setdefault(v, name)
                filled[key] = v
            else:
                kind, make = SLOTS[name]
                # A second person has their own birth date and national id.
                own = ctx if n == "1" else ctx.setdefault(f"p{n}", {})  # type: ignore[assignment]
                shown, value = make(rng, lang, own)  # type: ignore[arg-type]
                go.setdefault(value, kind)
                filled[key] = shown
        return filled[key]

    body = SLOT.sub(fill, text).replace("{=}", str(rng.randint(1000, 9999)))
    return {
        "text": body,
        "must_go": [{"kind": k, "value": v} for v, k in go.items()],
        "must_stay": list(stay),
        "stay_sorts": list(stay.values()),
    }


def build_blind4(count: int = SAMPLES) -> list[dict[str, object]]:
    """The fourth blind corpus (see the module docstring)."""
    rng = random.Random(SEED)
    kinds = [_kinds(text) for _, _, text in TEMPLATES]
    counts: Counter[str] = Counter()
    uses: Counter[int] = Counter()
    samples: list[dict[str, object]] = []
    weights_lang = [LANG_WEIGHT.get(lang, 1.0) for lang in LANGS]
    while len(samples) < count:
        # A language, then the document whose kinds are rarest so far, used least.
        lang = rng.choices(LANGS, weights=weights_lang)[0]
        pool = [i for i, t in enumerate(TEMPLATES) if t[1] in ("*", lang)]
        weights = [
            sum(1.0 / (1 + counts[k]) ** 3 for k in kinds[i]) / len(kinds[i]) / (1 + uses[i])
            for i in pool
        ]
        i = rng.choices(pool, weights=weights)[0]
        doc, _, text = TEMPLATES[i]
        sample = render(rng, lang, text)
        if not gen.consistent(sample):
            continue
        uses[i] += 1
        counts.update(g["kind"] for g in sample["must_go"])  # type: ignore[attr-defined]
        samples.append({"id": f"{len(samples):04d}-{doc}-{lang}", **sample})
    return samples
