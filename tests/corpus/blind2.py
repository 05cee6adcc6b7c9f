"""A second blind corpus: notes in documents, words and languages no other variant uses.

    .venv/bin/python tests/corpus/generate.py --blind2   # prints it as JSON lines
    .venv/bin/python tests/corpus/measure.py --variant blind2 --misses 60

The holdout, fresh and blind corpora have all been looked at while the detectors were
tuned, so none of them still says how the filter does on text nobody tuned it on. This
one was written without reading the detectors, their tests or the earlier variants'
templates: only ``generate``'s value generators (format-valid random tokens, card
numbers, IBANs, national ids) and its sample format are shared. It adds Italian, Dutch
and Polish, and documents the others lack: chat exports, call transcripts, quoted
e-mail threads, HL7/FHIR snippets, invoices, claims, bookings, CI and infrastructure
files, notebooks, SQL dumps, logs, curl and Postman exports.

Keep it blind: a rule changed because of what this corpus shows makes it one more tuning
set, and the next held-out corpus has to be written from scratch.
"""

# ruff: noqa: E501 -- templates and phrase tables in ten languages read best unwrapped

from __future__ import annotations

import base64
import random
import re
import string
import unicodedata
import uuid
from collections import Counter
from collections.abc import Callable

if __package__:
    from tests.corpus import generate as gen
else:  # generate.py run as a script: its folder is on sys.path
    import generate as gen  # type: ignore[no-redef]

SEED = gen.SEED + 1_299_709
SAMPLES = 320
LANG_WEIGHT = {"en": 3.0}
LANGS = ("en", "de", "fr", "es", "it", "nl", "pl", "ja", "zh", "hi")

UPPER = string.ascii_uppercase
LOWER = string.ascii_lowercase
DIGITS = string.digits
HEX = gen.HEX
ALNUM = gen.ALNUM
URLSAFE = gen.URLSAFE
B64 = gen.B64
rand = gen.rand
digits = gen.digits


def _fold(text: str) -> str:
    """ASCII letters only, for e-mail handles and the codice fiscale."""
    text = text.replace("ł", "l").replace("Ł", "L").replace("ß", "ss")
    return "".join(c for c in unicodedata.normalize("NFKD", text) if c.isascii() and c.isalpha())


# --- people and places ----------------------------------------------------------------------

# fmt: off
NAMES: dict[str, tuple[list[str], list[str]]] = {
    "en": (["Brandon", "Megan", "Tyler", "Courtney", "Derek", "Whitney", "Colin", "Bethany", "Trevor", "Shannon", "Gareth", "Imogen"], ["Pemberton", "Ashworth", "Galloway", "Holloway", "Merriweather", "Ransome", "Stroud", "Thornbury", "Yardley", "Quinlan", "Brennan", "Hargreaves"]),
    "de": (["Dieter", "Gisela", "Torsten", "Mareike", "Florian", "Svenja", "Rüdiger", "Wiebke", "Henrik", "Annegret", "Moritz", "Dörte"], ["Brandt", "Kühn", "Vogt", "Lehmann", "Pfeiffer", "Hartmann", "Brückner", "Seidel", "Ziegler", "Böhm", "Krause", "Lorenz"]),
    "fr": (["Gaëlle", "Benoît", "Solène", "Thibault", "Margaux", "Guillaume", "Anaïs", "Rémi", "Ophélie", "Quentin", "Maëlys", "Loïc"], ["Marchand", "Perrin", "Leclerc", "Barbier", "Guérin", "Renaud", "Faure", "Brun", "Roux", "Picard", "Vasseur", "Caron"]),
    "es": (["Iñaki", "Montserrat", "Rodrigo", "Ainhoa", "Gonzalo", "Begoña", "Ignacio", "Pilar", "Rubén", "Itziar", "Fernando", "Consuelo"], ["Iglesias", "Domínguez", "Vázquez", "Gil", "Serrano", "Molina", "Blanco", "Suárez", "Ramos", "Cabrera", "Prieto", "Méndez"]),
    "it": (["Giuseppe", "Francesca", "Alessandro", "Chiara", "Lorenzo", "Giulia", "Matteo", "Federica", "Davide", "Valentina", "Stefano", "Alessia"], ["Rossi", "Bianchi", "Colombo", "Ricci", "Marino", "Greco", "Bruno", "Gallo", "Conti", "De Luca", "Esposito", "Ferrara"]),
    "nl": (["Jeroen", "Marieke", "Sander", "Femke", "Bram", "Lotte", "Wouter", "Anouk", "Joost", "Inge", "Thijs", "Sanne"], ["de Vries", "Jansen", "van den Berg", "Bakker", "Visser", "Smit", "Meijer", "de Boer", "Mulder", "van Dijk", "Bos", "Vos"]),
    "pl": (["Krzysztof", "Agnieszka", "Tomasz", "Małgorzata", "Paweł", "Katarzyna", "Grzegorz", "Joanna", "Łukasz", "Magdalena", "Piotr", "Ewa"], ["Nowak", "Wójcik", "Woźniak", "Mazur", "Krawczyk", "Kaczmarek", "Zając", "Król", "Wieczorek", "Pawlak", "Michalak", "Sikora"]),
    "ja": (["翔", "結衣", "蓮", "陽葵", "湊", "凛", "大和", "芽依", "悠真", "紬", "颯太", "杏"], ["松本", "井上", "木村", "林", "清水", "山口", "森", "池田", "橋本", "石川", "前田", "藤田"]),
    "zh": (["晓明", "丽娟", "志强", "雪梅", "建华", "海燕", "俊杰", "秀英", "宇航", "欣怡", "浩然", "佳琪"], ["郭", "何", "高", "罗", "郑", "梁", "谢", "宋", "唐", "许", "韩", "冯"]),
    "hi": (["Aditya", "Ishita", "Siddharth", "Meera", "Varun", "Pooja", "आदित्य", "मीरा", "सिद्धार्थ", "पूजा", "वरुण", "इशिता"], ["Chatterjee", "Mehta", "Joshi", "Bhat", "Menon", "Desai", "चटर्जी", "मेहता", "जोशी", "भट", "मेनन", "देसाई"]),
}
ROMAN = {
    "ja": (["sho", "yui", "ren", "hinata", "minato", "rin", "yamato", "mei", "yuma", "tsumugi"], ["matsumoto", "inoue", "kimura", "hayashi", "shimizu", "yamaguchi", "mori", "ikeda"]),
    "zh": (["xiaoming", "lijuan", "zhiqiang", "xuemei", "jianhua", "haiyan", "junjie", "yuhang"], ["guo", "he", "gao", "luo", "zheng", "liang", "xie", "song"]),
    "hi": (["aditya", "ishita", "siddharth", "meera", "varun", "pooja", "karthik", "divya"], ["chatterjee", "mehta", "joshi", "bhat", "menon", "desai", "malhotra", "banerjee"]),
}
MAIL_DOMAINS = {
    "en": ["gmail.com", "hotmail.com", "aol.com", "me.com", "fastmail.com", "harborview-clinic.org", "quillfeather.co"],
    "de": ["gmx.net", "web.de", "freenet.de", "mailbox.org", "autohaus-brandt.de"],
    "fr": ["wanadoo.fr", "orange.fr", "bbox.fr", "gmail.com", "cabinet-renaud.fr"],
    "es": ["gmail.com", "outlook.es", "movistar.es", "ono.com", "clinica-serrano.es"],
    "it": ["libero.it", "virgilio.it", "tiscali.it", "alice.it", "studiorossi.it"],
    "nl": ["ziggo.nl", "kpnmail.nl", "hotmail.nl", "xs4all.nl", "planet.nl"],
    "pl": ["wp.pl", "onet.pl", "interia.pl", "o2.pl", "gazeta.pl"],
    "ja": ["ezweb.ne.jp", "softbank.ne.jp", "gmail.com", "ocn.ne.jp", "i.softbank.jp"],
    "zh": ["qq.com", "foxmail.com", "163.com", "aliyun.com", "sohu.com"],
    "hi": ["gmail.com", "rediffmail.com", "outlook.in", "zohomail.in"],
}
STREETS: dict[str, Callable[[random.Random], str]] = {
    "en": lambda r: r.choice(["{n} {s} {t}", "{n} {s} {t}", "Apt {a}, {n} {s} {t}", "Flat {a}, {n} {s} {t}"]).format(n=r.randint(3, 9800), a=r.randint(1, 40), s=r.choice(["Birchwood", "Fairview", "Sycamore", "Ridgecrest", "Magnolia", "Briar Hill", "Prospect", "Juniper", "Wellington"]), t=r.choice(["Court", "Terrace", "Parkway", "Way", "Place", "Circle", "Crescent"])),
    "de": lambda r: f"{r.choice(['Amsel', 'Birken', 'Eichendorff', 'Mozart', 'Rathaus', 'Kirch', 'Tannen', 'Friedrich-Ebert-'])}{r.choice(['straße', 'gasse', 'ring', 'damm', 'weg', 'platz'])} {r.randint(1, 140)}{r.choice(['', '', 'a', 'c'])}".replace("-s", "-S").replace("-g", "-G").replace("-r", "-R").replace("-d", "-D").replace("-w", "-W").replace("-p", "-P"),
    "fr": lambda r: f"{r.randint(2, 180)}{r.choice(['', '', ' ter'])}, {r.choice(['chemin', 'allée', 'place', 'quai', 'cours', 'rue'])} {r.choice(['des Acacias', 'Gambetta', 'de la République', 'Saint-Michel', 'des Tilleuls', 'Émile Zola'])}",
    "es": lambda r: r.choice(["{t} {s} {n}, {p}º {d}", "{t} {s}, {n}", "{t} {s} n.º {n}"]).format(t=r.choice(["Calle", "Ronda", "Plaza", "Avda.", "Travesía"]), s=r.choice(["de Serrano", "de Atocha", "del Pilar", "de América", "Ribera del Loira", "de Triana"]), n=r.randint(1, 220), p=r.randint(1, 9), d=r.choice(["A", "B", "izq.", "dcha."])),
    "it": lambda r: r.choice(["{t} {s} {n}", "{t} {s}, {n}", "{t} {s} {n}/{a}"]).format(t=r.choice(["Via", "Corso", "Piazza", "Viale", "Vicolo"]), s=r.choice(["Garibaldi", "Mazzini", "Cavour", "dei Mille", "Dante Alighieri", "XX Settembre", "Vittorio Emanuele II", "della Repubblica"]), n=r.randint(1, 210), a=r.choice("ABC")),
    "nl": lambda r: f"{r.choice(['Keizersgracht', 'Prinsengracht', 'Dorpsstraat', 'Molenweg', 'Kerkstraat', 'Stationsplein', 'Beukenlaan', 'Lindensingel'])} {r.randint(1, 480)}{r.choice(['', '', 'A', '-2', ' hs', 'B'])}",
    "pl": lambda r: r.choice(["ul. {s} {n}", "ul. {s} {n}/{m}", "al. {s} {n} m. {m}", "os. {s} {n}"]).format(s=r.choice(["Marszałkowska", "Piotrkowska", "Długa", "Kwiatowa", "Słowackiego", "Mickiewicza", "Jana Pawła II", "Grunwaldzka"]), n=r.randint(1, 180), m=r.randint(1, 90)),
    "ja": lambda r: f"{r.choice(['京都府京都市中京区', '北海道札幌市中央区', '福岡県福岡市博多区', '愛知県名古屋市中区'])}{r.choice(['烏丸通', '大通西', '博多駅前', '栄'])}{r.choice(['{a}-{b}-{c}', '{a}丁目{b}番{c}号'])}".format(a=r.randint(1, 9), b=r.randint(1, 30), c=r.randint(1, 20)),
    "zh": lambda r: f"{r.choice(['广州市天河区', '成都市武侯区', '南京市鼓楼区', '武汉市洪山区'])}{r.choice(['天河路', '人民南路', '中山北路', '珞喻路'])}{r.randint(1, 999)}号{r.choice(['', '', f'{r.randint(1, 30)}栋{r.randint(101, 2806)}室'])}",
    "hi": lambda r: r.choice(["{n}, {s}", "H.No. {n}-{m}, {s}", "Flat {m}, {b}, {s}"]).format(n=r.randint(1, 400), m=r.randint(1, 60), s=r.choice(["Residency Road", "Brigade Road", "Koramangala 5th Block", "Sector 62, Noida", "Banjara Hills Road No. 12", "Baner Road"]), b=r.choice(["Sai Krupa Apartments", "Green Park Residency", "Shanti Niketan"])),
}
MONTHS = {
    **gen.MONTHS,
    "it": ["gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre", "ottobre", "novembre", "dicembre"],
    "nl": ["januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus", "september", "oktober", "november", "december"],
    "pl": ["stycznia", "lutego", "marca", "kwietnia", "maja", "czerwca", "lipca", "sierpnia", "września", "października", "listopada", "grudnia"],
    "hi": ["जनवरी", "फ़रवरी", "मार्च", "अप्रैल", "मई", "जून", "जुलाई", "अगस्त", "सितंबर", "अक्टूबर", "नवंबर", "दिसंबर"],
}
# fmt: on


def _name_parts(rng: random.Random, lang: str) -> tuple[str, str]:
    first, last = NAMES[lang]
    i = rng.randrange(len(first))
    if lang == "hi":  # keep one script per name
        pool = last[:6] if i < 6 else last[6:]
        return first[i], rng.choice(pool)
    return first[i], rng.choice(last)


def _name(rng: random.Random, lang: str, form: str, ctx: dict[str, object]) -> str:
    first, last = _name_parts(rng, lang)
    ctx.setdefault("person", (first, last))
    if lang == "zh":
        return last + first
    if lang == "ja":
        return last + rng.choice(["", " ", "\u3000"]) + first
    if form == "rev":
        return rng.choice(
            [f"{last.upper()}, {first}", f"{last}, {first}", f"{last.upper()} {first}"]
        )
    if form == "hl7":
        return f"{_fold(last).upper()}^{_fold(first).upper()}"
    return f"{first} {last}"


def _email(rng: random.Random, lang: str) -> str:
    if lang in ROMAN:
        first, last = (rng.choice(part) for part in ROMAN[lang])
    else:
        first, last = (_fold(p).lower() for p in _name_parts(rng, lang))
    local = rng.choice(
        [
            f"{first}.{last}",
            f"{first[0]}{last}",
            f"{last}{rng.randint(60, 99)}",
            f"{first}_{last}{rng.randint(1, 9)}",
            f"{first}{last[0]}",
        ]
    )
    return f"{local}@{rng.choice(MAIL_DOMAINS[lang])}"


def _phone(rng: random.Random, lang: str) -> str:
    def d(n: int) -> str:
        return rand(rng, DIGITS, n)

    if lang == "en":
        area = rng.choice(["212", "312", "415", "617", "206", "303", "512", "704", "919", "602"])
        ex = digits(rng, 3, "2346789")
        return rng.choice(
            [
                f"({area}) {ex}-{d(4)}",
                f"{area}.{ex}.{d(4)}",
                f"+1-{area}-{ex}-{d(4)}",
                f"1 {area} {ex} {d(4)}",
                f"+44 (0)7{rng.choice('4589')}{d(2)} {d(3)} {d(3)}",
            ]
        )
    forms = {
        "de": [
            f"0171 {d(7)}",
            f"+49 (0) 221 {d(7)}",
            f"0049 160 {d(7)}",
            f"030/{d(8)}",
            f"+49 1522 {d(7)}",
        ],
        "fr": [
            f"06.{d(2)}.{d(2)}.{d(2)}.{d(2)}",
            f"+33 6 {d(2)} {d(2)} {d(2)} {d(2)}",
            f"07 {d(2)} {d(2)} {d(2)} {d(2)}",
            f"+33 (0)1 {d(2)} {d(2)} {d(2)} {d(2)}",
        ],
        "es": [
            f"6{d(2)} {d(3)} {d(3)}",
            f"+34 6{d(2)}-{d(3)}-{d(3)}",
            f"(+34) 93 {d(3)} {d(2)} {d(2)}",
            f"7{d(2)} {d(2)} {d(2)} {d(2)}",
        ],
        "it": [
            f"+39 3{rng.choice('2345')}{d(1)} {d(3)} {d(4)}",
            f"3{rng.choice('2345')}{d(1)} {d(7)}",
            f"02 {d(4)} {d(4)}",
            f"+39 06 {d(7)}",
        ],
        "nl": [
            f"+31 6 {d(8)}",
            f"06-{d(8)}",
            f"020-{d(3)} {d(4)}",
            f"+31 (0)10 {d(3)} {d(4)}",
            f"06 {d(2)} {d(2)} {d(2)} {d(2)}",
        ],
        "pl": [
            f"+48 {digits(rng, 3, '5678')} {d(3)} {d(3)}",
            f"{digits(rng, 3, '5678')}-{d(3)}-{d(3)}",
            f"(22) {d(3)} {d(2)} {d(2)}",
            f"+48 22 {d(3)} {d(2)} {d(2)}",
        ],
        "ja": [f"090-{d(4)}-{d(4)}", f"03-{d(4)}-{d(4)}", f"+81-80-{d(4)}-{d(4)}", f"070{d(8)}"],
        "zh": [
            f"1{rng.choice('3589')}{d(1)} {d(4)} {d(4)}",
            f"1{rng.choice('3589')}{d(9)}",
            f"+86 1{rng.choice('3589')}{d(1)}-{d(4)}-{d(4)}",
            f"(021) {digits(rng, 4, '56')} {d(4)}",
        ],
        "hi": [
            f"+91 {digits(rng, 5, '6789')} {d(5)}",
            f"0{digits(rng, 5, '6789')} {d(5)}",
            f"+91-{digits(rng, 10, '6789')}",
            digits(rng, 10, "6789"),
        ],
    }[lang]
    v = rng.choice(forms)
    if lang == "ja" and rng.random() < 0.2:  # full-width digits, as typed in Japanese forms
        v = v.translate(str.maketrans("0123456789-", "０１２３４５６７８９－"))
    return v


def _date(rng: random.Random, lang: str, year: int, style: str = "") -> str:
    m, d = rng.randint(1, 12), rng.randint(1, 28)
    month = MONTHS.get(lang, MONTHS["en"])[m - 1]
    if style == "iso":
        return f"{year}-{m:02d}-{d:02d}"
    if style == "hl7":
        return f"{year}{m:02d}{d:02d}"
    if style == "spoken":
        suffix = "th" if 4 <= d <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(d % 10, "th")
        return f"{MONTHS['en'][m - 1]} {d}{suffix}, {year}"
    opts = {
        "en": [
            f"{m:02d}/{d:02d}/{year}",
            f"{month[:3]} {d}, {year}",
            f"{d} {month} {year}",
            f"{year}-{m:02d}-{d:02d}",
            f"{d:02d}/{m:02d}/{year}",
        ],
        "de": [f"{d:02d}.{m:02d}.{year}", f"{d}. {month} {year}", f"{d}.{m}.{year}"],
        "fr": [f"{d:02d}/{m:02d}/{year}", f"{d} {month} {year}", f"{d:02d}.{m:02d}.{year}"],
        "es": [f"{d:02d}/{m:02d}/{year}", f"{d} de {month} de {year}", f"{d:02d}-{m:02d}-{year}"],
        "it": [f"{d:02d}/{m:02d}/{year}", f"{d} {month} {year}", f"{d:02d}-{m:02d}-{year}"],
        "nl": [f"{d:02d}-{m:02d}-{year}", f"{d} {month} {year}", f"{d:02d}/{m:02d}/{year}"],
        "pl": [f"{d:02d}.{m:02d}.{year}", f"{d} {month} {year}", f"{year}-{m:02d}-{d:02d}"],
        "ja": [f"{year}年{m}月{d}日", f"{year}/{m:02d}/{d:02d}", _japanese_era(year, m, d)],
        "zh": [f"{year}年{m}月{d}日", f"{year}-{m:02d}-{d:02d}", f"{year}.{m:02d}.{d:02d}"],
        "hi": [f"{d:02d}/{m:02d}/{year}", f"{d:02d}-{m:02d}-{year}", f"{d} {month} {year}"],
    }[lang]
    return rng.choice(opts)


def _japanese_era(year: int, m: int, d: int) -> str:
    if year >= 2019:
        return f"令和{year - 2018}年{m}月{d}日"
    if year >= 1989:
        return f"平成{year - 1988}年{m}月{d}日"
    return f"昭和{year - 1925}年{m}月{d}日"


# --- national ids of the three new languages ------------------------------------------------

CF_ODD = dict(zip(DIGITS + UPPER, [1, 0, 5, 7, 9, 13, 15, 17, 19, 21] * 2 + [2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23], strict=True))  # fmt: skip
CF_EVEN = {**{c: i for i, c in enumerate(DIGITS)}, **{c: i for i, c in enumerate(UPPER)}}


def codice_fiscale(rng: random.Random, first: str, last: str) -> str:
    """Italian tax code: consonants of the names, birth date, place, check letter."""

    def part(word: str, given: bool) -> str:
        w = _fold(word).upper()
        cons = [c for c in w if c not in "AEIOU"]
        vow = [c for c in w if c in "AEIOU"]
        if given and len(cons) >= 4:
            cons = [cons[0], cons[2], cons[3]]
        return ("".join(cons + vow) + "XXX")[:3]

    day = rng.randint(1, 28) + (40 if first.endswith("a") else 0)
    body = f"{part(last, False)}{part(first, True)}{rng.randint(40, 99)}{'ABCDEHLMPRST'[rng.randrange(12)]}{day:02d}{rng.choice(['H501', 'F205', 'F839', 'L219', 'A944', 'G273', 'D612'])}"
    total = sum((CF_ODD if i % 2 == 0 else CF_EVEN)[c] for i, c in enumerate(body))
    return body + UPPER[total % 26]


def bsn(rng: random.Random) -> str:
    """Dutch citizen service number: nine digits that pass the eleven test."""
    while True:
        body = digits(rng, 8, "123456789")
        check = sum(int(c) * w for c, w in zip(body, range(9, 1, -1), strict=True)) % 11
        if check < 10:
            n = body + str(check)
            return rng.choice([n, n, f"{n[:4]}.{n[4:6]}.{n[6:]}"])


def pesel(rng: random.Random) -> str:
    year, month, day = rng.randint(1940, 2006), rng.randint(1, 12), rng.randint(1, 28)
    body = (
        f"{year % 100:02d}{month + (20 if year >= 2000 else 0):02d}{day:02d}{rand(rng, DIGITS, 4)}"
    )
    total = sum(int(c) * w for c, w in zip(body, [1, 3, 7, 9] * 3, strict=False))
    return body + str((10 - total % 10) % 10)


def _passport(rng: random.Random, lang: str) -> str:
    if lang == "it":
        return rand(rng, UPPER, 2) + rand(rng, DIGITS, 7)
    if lang == "nl":
        letters = UPPER.replace("O", "")
        return rand(rng, letters, 2) + rand(rng, letters + DIGITS, 6) + rand(rng, DIGITS, 1)
    if lang == "pl":
        return rand(rng, UPPER, 2) + rand(rng, DIGITS, 7)
    return gen.passport(rng, lang).value


def _natid(rng: random.Random, lang: str, ctx: dict[str, object]) -> tuple[str, str]:
    """(label, value) for the language's national id."""
    if lang == "it":
        first, last = ctx.get("person") or _name_parts(rng, "it")  # type: ignore[misc]
        return rng.choice(["codice fiscale", "C.F.", "cod. fiscale"]), codice_fiscale(
            rng, first, last
        )
    if lang == "nl":
        return rng.choice(["BSN", "burgerservicenummer", "BSN-nummer"]), bsn(rng)
    if lang == "pl":
        return "PESEL", pesel(rng)
    it = gen.national_id(rng, lang)
    return it.label, it.value


# --- secrets ---------------------------------------------------------------------------------

# fmt: off
EXTRA_KEYS: list[Callable[[random.Random], str]] = [
    lambda r: "SK" + rand(r, HEX, 32),  # Twilio API key sid
    lambda r: rand(r, HEX, 32) + f"-us{r.randint(2, 21)}",  # Mailchimp
    lambda r: "pat" + rand(r, ALNUM, 14) + "." + rand(r, HEX, 64),  # Airtable
    lambda r: "hvs." + rand(r, ALNUM, 24),  # HashiCorp Vault service token
    lambda r: "lin_api_" + rand(r, ALNUM, 40),  # Linear
    lambda r: "PMAK-" + rand(r, HEX, 24) + "-" + rand(r, HEX, 34),  # Postman
    lambda r: "ATATT3xFfGF0" + rand(r, URLSAFE, 170) + "=" + rand(r, HEX.upper(), 8),  # Atlassian
    lambda r: "dapi" + rand(r, HEX, 32),  # Databricks
    lambda r: "glsa_" + rand(r, ALNUM, 32) + "_" + rand(r, HEX, 8),  # Grafana service account
    lambda r: "sq0atp-" + rand(r, URLSAFE, 22),  # Square
    lambda r: "LTAI5t" + rand(r, ALNUM, 18),  # Alibaba Cloud AccessKey id
    lambda r: "xapp-1-A0" + rand(r, UPPER + DIGITS, 9) + "-" + digits(r, 13) + "-" + rand(r, HEX, 64),  # Slack app token
]
SEASONS = {
    "en": ["Summer", "Autumn", "Spring"], "de": ["Frühling", "Herbst", "Sommer"], "fr": ["Printemps", "Automne", "Soleil"],
    "es": ["Primavera", "Verano", "Otoño"], "it": ["Estate", "Primavera", "Autunno"], "nl": ["Zomer", "Lente", "Herfst"],
    "pl": ["Wiosna", "Lato", "Jesien"], "ja": ["Sakura", "Haru", "Natsu"], "zh": ["Abc", "Woaini", "Qwer"], "hi": ["India", "Mumbai", "Diwali"],
}
DB_HOSTS = ["pg-main.prod.svc.cluster.local", "orders-db.c9xk2lq1.eu-central-1.rds.amazonaws.com", "mongo-rs0.internal", "mq.corp.lan", "redis-master.cache", "mysql-replica-2.dc3"]
COOKIE_NAMES: list[tuple[str, Callable[[random.Random], str]]] = [
    ("ASP.NET_SessionId", lambda r: rand(r, LOWER + DIGITS, 24)),
    ("_gitlab_session", lambda r: rand(r, HEX, 32)),
    ("ci_session", lambda r: rand(r, HEX, 40)),
    ("__Host-session", lambda r: rand(r, URLSAFE, 43)),
    ("SSESS" + "9c3f1a0b7e2d4c5f8a6b0e1d2c3f4a5b", lambda r: rand(r, URLSAFE, 43)),
    ("remember_user_token", lambda r: "eyJfcmFpbHMiOnsibWVzc2FnZSI6Ilcx" + rand(r, URLSAFE, 60) + "--" + rand(r, HEX, 40)),
]
# fmt: on


def _api_key(rng: random.Random) -> str:
    return gen.api_key(rng).value if rng.random() < 0.6 else rng.choice(EXTRA_KEYS)(rng)


def _password(rng: random.Random, lang: str) -> str:
    r = rng.random()
    if r < 0.35:
        return gen.password_value(rng)
    if r < 0.65:
        return f"{rng.choice(SEASONS[lang])}{rng.randint(2019, 2025)}{rng.choice('!#$@*')}"
    return (
        rand(rng, UPPER, 1)
        + rand(rng, LOWER, 3)
        + rand(rng, DIGITS, 2)
        + rng.choice("!%&*+?@")
        + rand(rng, ALNUM, rng.randint(5, 9))
    )


def _secret(rng: random.Random) -> str:
    r = rng.randrange(10)
    if r < 5:
        return gen.secret(rng).value
    if r == 5:  # Azure AD client secret
        return rand(rng, ALNUM, 3) + "8Q~" + rand(rng, ALNUM + "-_.~", 34)
    if r == 6:  # Azure storage account key
        return base64.b64encode(bytes(rng.getrandbits(8) for _ in range(64))).decode()
    if r == 7:  # Laravel APP_KEY
        return "base64:" + base64.b64encode(bytes(rng.getrandbits(8) for _ in range(32))).decode()
    if r == 8:  # Rails secret_key_base
        return rand(rng, HEX, 128)
    return rand(rng, ALNUM + "!@#%^*", 48)


def _db_password(rng: random.Random) -> str:
    return gen.password_value(rng, url_safe=True)


def _credential(rng: random.Random, form: str) -> tuple[str, str]:
    pw = _db_password(rng)
    user = rng.choice(["app_rw", "sa", "reporting", "svc-billing", "postgres", "admin", "jenkins"])
    host = rng.choice(DB_HOSTS)
    db = rng.choice(["orders", "crm", "ledger", "analytics", "keycloak"])
    shown = {
        "url": rng.choice(
            [
                f"postgresql://{user}:{pw}@{host}:5432/{db}?sslmode=require",
                f"mysql://{user}:{pw}@{host}:3306/{db}",
                f"mongodb://{user}:{pw}@{host}:27017/{db}?authSource=admin",
                f"redis://:{pw}@{host}:6379/2",
                f"amqps://{user}:{pw}@{host}/%2F",
                f"smtp://{user}:{pw}@smtp.{host}:587",
            ]
        ),
        "jdbc": rng.choice(
            [
                f"jdbc:postgresql://{host}:5432/{db}?user={user}&password={pw}",
                f"jdbc:mysql://{host}:3306/{db}?user={user}&password={pw}&useSSL=true",
                f"jdbc:sqlserver://{host}:1433;databaseName={db};user={user};password={pw};encrypt=true",
            ]
        ),
        "adonet": f"Server=tcp:{host},1433;Initial Catalog={db};User ID={user};Password={pw};Encrypt=True;TrustServerCertificate=False;",
        "git": f"https://{user}:{pw}@git.acme-intra.net/platform/{db}.git",
    }[form]
    return shown, pw


def _bearer(rng: random.Random) -> str:
    return rng.choice(
        [
            rand(rng, ALNUM, 40),
            "ya29." + rand(rng, URLSAFE, 120),
            rand(rng, URLSAFE, 48),
            "EAAG" + rand(rng, ALNUM, 150),
            "gho_" + rand(rng, ALNUM, 36),
        ]
    )


def _basic(rng: random.Random, lang: str) -> str:
    user = rng.choice(["admin", "jenkins", "grafana", "api-client", "kibana"])
    return base64.b64encode(f"{user}:{_password(rng, lang)}".encode()).decode()


def _cookie(rng: random.Random) -> tuple[str, str]:
    if rng.random() < 0.5:
        it = gen.cookie(rng)
        return it.cfg, it.value
    name, make = rng.choice(COOKIE_NAMES)
    v = make(rng)
    return f"{name}={v}", v


def _card(rng: random.Random) -> str:
    n = gen.card_digits(rng)
    if len(n) in (14, 15):  # Amex and Diners print 4-6-5 and 4-6-4
        return rng.choice([f"{n[:4]} {n[4:10]} {n[10:]}", n])
    sep = rng.choice([" ", "-", "", " "])
    return sep.join(n[i : i + 4] for i in range(0, len(n), 4))


IBAN_COUNTRY = {"en": "GB", "de": "DE", "fr": "FR", "es": "ES", "it": "IT", "nl": "NL", "pl": "PL"}


def _iban(rng: random.Random, lang: str) -> str:
    country = IBAN_COUNTRY.get(lang) if rng.random() < 0.75 else None
    country, bban = gen.iban_parts(rng, country or rng.choice(["DE", "FR", "GB", "CH", "BE", "AT"]))
    compact = country + gen.iban_check(country, bban) + bban
    if country == "PL" and rng.random() < 0.3:  # Polish invoices print the domestic NRB
        nrb = compact[2:]
        return f"{nrb[:2]} " + " ".join(nrb[i : i + 4] for i in range(2, len(nrb), 4))
    return rng.choice([compact, " ".join(compact[i : i + 4] for i in range(0, len(compact), 4))])


def _ip(rng: random.Random, six: bool) -> str:
    if not six:
        return gen.public_ipv4(rng)
    v = gen.ip_address(rng, "en").value
    while ":" not in v:
        v = gen.ip_address(rng, "en").value
    return v


# Each slot: the kind it carries and a maker (rng, lang, ctx) -> (shown text, value to go).
Maker = Callable[[random.Random, str, dict[str, object]], tuple[str, str]]


def _same(v: str) -> tuple[str, str]:
    return v, v


def _natid_shown(r: random.Random, lang: str, ctx: dict[str, object]) -> tuple[str, str]:
    label, v = _natid(r, lang, ctx)
    return r.choice([f"{label}: {v}", f"{label} {v}", f"{v} ({label})", f"{label} – {v}"]), v


def _bare(pair: tuple[str, str]) -> tuple[str, str]:
    return _same(pair[1])


# fmt: off
SLOTS: dict[str, tuple[str, Maker]] = {
    "apikey": ("api_key", lambda r, lang, c: _same(_api_key(r))),
    "pw": ("password", lambda r, lang, c: _same(_password(r, lang))),
    "pem": ("private_key", lambda r, lang, c: _same(gen.private_key(r).value)),
    "pem_json": ("private_key", lambda r, lang, c: _same(gen.private_key(r).value.replace("\n", "\\n"))),
    "dburl": ("credential", lambda r, lang, c: _credential(r, "url")),
    "jdbc": ("credential", lambda r, lang, c: _credential(r, "jdbc")),
    "adonet": ("credential", lambda r, lang, c: _credential(r, "adonet")),
    "giturl": ("credential", lambda r, lang, c: _credential(r, "git")),
    "bearer": ("auth_header", lambda r, lang, c: (lambda t: (f"Bearer {t}", t))(_bearer(r))),
    "basic": ("auth_header", lambda r, lang, c: (lambda t: (f"Basic {t}", t))(_basic(r, lang))),
    "hdrkey": ("auth_header", lambda r, lang, c: _same(r.choice([rand(r, HEX, 32), rand(r, ALNUM, 40), str(uuid.UUID(int=r.getrandbits(128), version=4)).replace("-", "")]))),
    "cookie": ("cookie", lambda r, lang, c: _cookie(r)),
    "jwt": ("jwt", lambda r, lang, c: _same(gen.jwt(r).value)),
    "secret": ("secret", lambda r, lang, c: _same(_secret(r))),
    "name": ("person_name", lambda r, lang, c: _same(_name(r, lang, "", c))),
    "name_rev": ("person_name", lambda r, lang, c: _same(_name(r, lang, "rev", c))),
    "name_hl7": ("person_name", lambda r, lang, c: _same(_name(r, lang, "hl7", c))),
    "email": ("email", lambda r, lang, c: _same(_email(r, lang))),
    "phone": ("phone", lambda r, lang, c: _same(_phone(r, lang))),
    "ssn": ("ssn", lambda r, lang, c: _same(gen.ssn_value(r) if r.random() < 0.85 else gen.ssn_value(r).replace("-", ""))),
    "card": ("card_number", lambda r, lang, c: _same(_card(r))),
    "iban": ("iban", lambda r, lang, c: _same(_iban(r, lang))),
    "ip": ("ip_address", lambda r, lang, c: _same(_ip(r, False))),
    "ip6": ("ip_address", lambda r, lang, c: _same(_ip(r, True))),
    "dob": ("date_of_birth", lambda r, lang, c: _same(_date(r, lang, r.randint(1941, 2006)))),
    "dob_iso": ("date_of_birth", lambda r, lang, c: _same(_date(r, lang, r.randint(1941, 2006), "iso"))),
    "dob_hl7": ("date_of_birth", lambda r, lang, c: _same(_date(r, lang, r.randint(1941, 2006), "hl7"))),
    "dob_spoken": ("date_of_birth", lambda r, lang, c: _same(_date(r, lang, r.randint(1941, 2006), "spoken"))),
    "passport": ("passport", lambda r, lang, c: _same(_passport(r, lang))),
    "natid": ("national_id", _natid_shown),
    "natid_bare": ("national_id", lambda r, lang, c: _bare(_natid(r, lang, c))),
    "nino": ("national_id", lambda r, lang, c: _same(gen.nino(r))),
    "nhs": ("national_id", lambda r, lang, c: _same(gen.nhs_number(r))),
    "street": ("street_address", lambda r, lang, c: _same(STREETS[lang](r))),
    "us_street": ("street_address", lambda r, lang, c: _same(STREETS["en"](r))),
}
# fmt: on


# --- look-alikes that must stay --------------------------------------------------------------


def _ean13(rng: random.Random) -> str:
    body = rng.choice(["40", "41", "42", "50", "80", "87", "59", "45", "69", "89"]) + rand(
        rng, DIGITS, 10
    )
    check = (10 - sum(int(c) * (1 if i % 2 == 0 else 3) for i, c in enumerate(body)) % 10) % 10
    return body + str(check)


def _tracking(rng: random.Random) -> str:
    return rng.choice(
        [
            "1Z" + rand(rng, UPPER + DIGITS, 6) + rand(rng, DIGITS, 10),  # UPS
            digits(rng, 10, "123456789"),  # DHL Express
            "3S" + rand(rng, UPPER, 4) + rand(rng, DIGITS, 7),  # PostNL
            "9400 1"
            + " ".join(rand(rng, DIGITS, 4) for _ in range(4))
            + " "
            + rand(rng, DIGITS, 2),  # USPS
            digits(rng, 24, "6"),  # InPost
            "JD" + rand(rng, DIGITS, 18),  # DHL parcel
        ]
    )


def _keep_date(rng: random.Random, lang: str) -> str:
    return _date(rng, lang, rng.randint(2023, 2026))


# fmt: off
PLACEHOLDERS = [
    "<REDACTED>", "xxxxxxxx", "changeme", "${DB_PASSWORD}", "{{ .Values.postgres.password }}", "<your-token-here>",
    "REPLACE_WITH_REAL_KEY", "%DB_PASS%", "$(cat /run/secrets/db_pw)", "vault:secret/data/billing#api_key",
    "<YOUR_API_KEY>", "op://Infra/stripe/credential", "TODO-set-me", "sk_test_PLACEHOLDER",
]
CI_REFS = ["${{ secrets.NPM_TOKEN }}", "${{ secrets.REGISTRY_PASSWORD }}", "$CI_REGISTRY_PASSWORD", "${{ vars.API_BASE_URL }}", "$(ARM_CLIENT_SECRET)", "${env:SONAR_TOKEN}", "((concourse-db-password))"]
EXAMPLE_EMAILS = ["jane.doe@example.com", "someone@example.org", "qa+signup@example.net", "user@domain.invalid", "no-reply@example.com", "dev@localhost.test", "accounts-payable@example.com"]
RESERVED_IPS = ["192.0.2.{}", "198.51.100.{}", "203.0.113.{}", "10.{}.4.{}", "172.31.{}.{}", "192.168.{}.{}", "100.64.{}.{}", "169.254.169.254", "127.0.0.53", "2001:db8:{}::1", "fd12:3456:789a::{}", "::ffff:10.0.0.{}"]
PRICES = {
    "en": lambda r: f"${r.randint(1, 9)},{r.randint(100, 999)}.{r.randint(10, 99)}", "de": lambda r: f"{r.randint(1, 9)}.{r.randint(100, 999)},00 €",
    "fr": lambda r: f"{r.randint(10, 999)},{r.randint(10, 99)} € TTC", "es": lambda r: f"{r.randint(10, 999)},{r.randint(10, 99)} €",
    "it": lambda r: f"€ {r.randint(10, 999)},{r.randint(10, 99)}", "nl": lambda r: f"€ {r.randint(10, 999)},{r.randint(10, 99)}",
    "pl": lambda r: f"{r.randint(1, 9)} {r.randint(100, 999)},{r.randint(10, 99)} zł", "ja": lambda r: f"¥{r.randint(1, 99)},{r.randint(100, 999)}",
    "zh": lambda r: f"¥{r.randint(100, 9999)}.00", "hi": lambda r: f"₹{r.randint(1, 99)},{r.randint(100, 999)}",
}
KEEPS: dict[str, Callable[[random.Random, str], str]] = {
    "git_sha": lambda r, lang: rand(r, HEX, 40),
    "short_sha": lambda r, lang: rand(r, HEX, 7),
    "sha256": lambda r, lang: rand(r, HEX, 64),
    "md5": lambda r, lang: rand(r, HEX, 32),
    "digest": lambda r, lang: "sha256:" + rand(r, HEX, 64),
    "uuid": lambda r, lang: str(uuid.UUID(int=r.getrandbits(128), version=4)),
    "traceparent": lambda r, lang: f"00-{rand(r, HEX, 32)}-{rand(r, HEX, 16)}-01",
    "req_id": lambda r, lang: "req_" + rand(r, ALNUM, 14),
    "version": lambda r, lang: r.choice([f"v{r.randint(1, 4)}.{r.randint(0, 30)}.{r.randint(0, 12)}", f"{r.randint(1, 3)}.{r.randint(0, 29)}.{r.randint(0, 9)}-rc.{r.randint(1, 4)}", f"{r.randint(2022, 2025)}.{r.randint(1, 12)}.{r.randint(0, 5)}", f"17.0.{r.randint(1, 12)}+{r.randint(5, 9)}"]),
    "timestamp": lambda r, lang: r.choice([f"{r.randint(2023, 2025)}-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}T{r.randint(0, 23):02d}:{r.randint(0, 59):02d}:{r.randint(0, 59):02d}.{r.randint(100, 999)}Z", str(r.randint(1_700_000_000_000, 1_760_000_000_000))]),
    "plain_date": _keep_date,
    "tracking": lambda r, lang: _tracking(r),
    "ean": lambda r, lang: _ean13(r),
    "invoice": lambda r, lang: r.choice([f"INV-{r.randint(2023, 2025)}-{r.randint(100, 99999):05d}", f"RE-{r.randint(2023, 2025)}-{r.randint(1000, 9999)}", f"FV/{r.randint(2023, 2025)}/{r.randint(1, 12):02d}/{r.randint(1, 9999):04d}", f"FT {r.randint(2023, 2025)}/{r.randint(1, 999):04d}"]),
    "ticket": lambda r, lang: r.choice([f"INC{r.randint(10**6, 10**7 - 1):07d}", f"SR-{r.randint(10000, 99999)}", f"OPS-{r.randint(100, 9999)}", f"CASE-{r.randint(10**7, 10**8 - 1)}"]),
    "ref_no": lambda r, lang: r.choice([f"CLM-{r.randint(1000, 9999)}-{r.randint(100000, 999999)}", f"POL-{r.randint(10**7, 10**8 - 1)}", f"AZ-{r.randint(2023, 2025)}-{rand(r, UPPER, 2)}{r.randint(1000, 9999)}"]),
    "pnr": lambda r, lang: rand(r, "ABCDEFGHJKLMNPQRSTUVWXYZ23456789", 6),
    "eticket": lambda r, lang: f"{r.choice(['176', '220', '057', '125', '074', '081'])}-{digits(r, 10)}",
    "placeholder": lambda r, lang: r.choice(PLACEHOLDERS),
    "ci_ref": lambda r, lang: r.choice(CI_REFS),
    "example_key": lambda r, lang: r.choice(["AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"]),
    "example_email": lambda r, lang: r.choice(EXAMPLE_EMAILS),
    "reserved_ip": lambda r, lang: r.choice(RESERVED_IPS).format(r.randint(1, 250), r.randint(1, 250)),
    "public_key": lambda r, lang: gen.keep_value(r, "public_key"),
    "pem_public": lambda r, lang: "-----BEGIN PUBLIC KEY-----\n" + gen.pem_body(r, "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA", 392) + "\n-----END PUBLIC KEY-----",
    "certificate": lambda r, lang: "-----BEGIN CERTIFICATE-----\n" + gen.pem_body(r, "MIIDdzCCAl+gAwIBAgIE", 1100) + "\n-----END CERTIFICATE-----",
    "fingerprint": lambda r, lang: "SHA256:" + rand(r, B64, 43),
    "masked_card": lambda r, lang: r.choice([f"**** **** **** {rand(r, DIGITS, 4)}", f"XXXX-XXXX-XXXX-{rand(r, DIGITS, 4)}", f"•••• {rand(r, DIGITS, 4)}", f"{r.choice(['411111', '550000', '374245'])}******{rand(r, DIGITS, 4)}"]),
    "luhn_fail": lambda r, lang: gen.luhn_failing(r),
    "iban_fail": lambda r, lang: gen.iban_failing(r),
    "price": lambda r, lang: PRICES[lang](r),
    "arn": lambda r, lang: f"arn:aws:iam::{digits(r, 12, '123456789')}:role/{r.choice(['ci-deploy', 'etl-runner', 'ReadOnly'])}",
    "container": lambda r, lang: rand(r, HEX, 12),
    "pod": lambda r, lang: gen.keep_value(r, "pod"),
    "ga_id": lambda r, lang: f"GA1.2.{digits(r, 9, '123456789')}.{r.randint(1_600_000_000, 1_760_000_000)}",
    "fictional_phone": lambda r, lang: r.choice([f"(212) 555-01{r.randint(0, 99):02d}", f"07700 900{r.randint(0, 999):03d}", f"020 7946 0{r.randint(0, 999):03d}"]),
}
# fmt: on


# --- documents -------------------------------------------------------------------------------
# «slot» is a value that must go (see SLOTS); «=sort» a look-alike that must stay (see KEEPS);
# a suffix .2 asks for a second, different value, and a repeated slot repeats the same value.

# fmt: off
TEMPLATES: list[tuple[str, str, str]] = [
    ("teams", "en", """[9:14 AM] «name»
hey can you reset the staging db pw? current one is «pw» and it's still in the old runbook 😬
[9:16 AM] «name.2»
done. new conn string → «dburl»
will rotate the old one after standup, tracking in «=ticket»
[9:17 AM] «name»
👍 thx"""),
    ("discord", "en", """#deploys — Discord
oskar_dev — Today at 3:02 PM
bot token for the staging bot (don't worry it's only staging): «apikey»
mira.k — Today at 3:05 PM
pls no 🙃 rotating now. also the webhook signing secret («secret») was pasted here yesterday
oskar_dev — Today at 3:06 PM
my bad. build «=short_sha» is green though, image «=digest»"""),
    ("sms", "en", """Messages · «phone»
Tue 6:42 PM  Hi, it's «name» from Riverside Dental confirming your cleaning on «=plain_date» at 10:30. Reply C to confirm.
Tue 6:50 PM  C. Also can u update the card on file? new one is «card» exp 09/28 cvv on back lol
Tue 6:51 PM  We can't take card numbers by text – please call the front desk 🙏"""),
    ("call", "en", """[00:00:03] AGENT: Thank you for calling Northgate Insurance, this is Dana. May I have the policyholder's full name?
[00:00:07] CALLER: Yeah, it's «name».
[00:00:11] AGENT: Thank you. And the date of birth on the policy?
[00:00:14] CALLER: «dob_spoken».
[00:00:20] AGENT: Perfect. For the claim I'll need the full Social Security number, not just the last four.
[00:00:25] CALLER: Sure, «ssn».
[00:00:33] AGENT: Got it. Your claim number is «=ref_no», and I'll email the forms to «email».
[00:00:41] CALLER: Great, and you can text me at «phone» too."""),
    ("email_thread", "en", """From: «name» <«email»>
Sent: Thursday, «=plain_date» 4:12 PM
To: «=example_email»
Subject: RE: Updated remittance details

Hi team, please use the account below for all future payments.

Beneficiary: Fenwick & Rowe Ltd
IBAN: «iban»
Direct line: «phone»

> On Wed, «name.2» wrote:
> > Could you confirm the new bank details before we release invoice «=invoice»?
> > Amount: «=price»"""),
    ("macro", "en", """Macro: Password reset – manual (v3)
---
Hi {{ticket.requester.first_name}},

We've reset your account. Your temporary password is: «pw»
Please change it at first login. Reference: «=ticket».

— internal note (not sent): requester «email» logged in from «ip» / device id «=uuid»"""),
    ("incident", "en", """## Incident timeline — «=ticket» (all times UTC)
| time  | event |
|-------|-------|
| 02:14 | alerts fire on api-gateway, 5xx > 8% |
| 02:21 | on-call («name») paged at «phone» |
| 02:40 | root cause: leaked key `«apikey»` used from «ip» |
| 03:05 | key revoked; rolled back to «=git_sha» |
| 03:30 | traffic from «ip6» blocked at the edge |"""),
    ("hl7", "en", """MSH|^~\\&|EPIC|NGH|LAB|NGH|20240311083015||ADT^A04|MSG00417|P|2.5.1
EVN|A04|20240311083015
PID|1||884215^^^NGH^MR||«name_hl7»||«dob_hl7»|F|||«street»^^Springfield^IL^62704||«phone»|||S||«=uuid»|«ssn»
NK1|1|«name_hl7.2»|SPO"""),
    ("fhir", "en", """{
  "resourceType": "Patient",
  "id": "«=uuid»",
  "identifier": [{"system": "http://hl7.org/fhir/sid/us-ssn", "value": "«ssn»"}],
  "name": [{"use": "official", "text": "«name»"}],
  "telecom": [{"system": "phone", "value": "«phone»"}, {"system": "email", "value": "«email»"}],
  "birthDate": "«dob_iso»",
  "address": [{"line": ["«street»"], "city": "Dayton", "state": "OH"}],
  "meta": {"versionId": "3", "lastUpdated": "«=timestamp»"}
}"""),
    ("onboarding", "en", """### Onboarding – «name» (start date «=plain_date»)
- [x] Offer letter signed
- [x] I-9 verified: passport «passport», SSN «ssn»
- [ ] Payroll – W-4 on file, DOB «dob»
- [ ] Laptop shipped to «street» — tracking «=tracking»
- [ ] Add personal email «email» to the alumni list (opt-in)"""),
    ("onboarding_uk", "en", """New starter checklist
Name ......................... «name»
NI number .................... «nino»
Date of birth ................ «dob»
Home address ................. «street», Leeds LS6 2QT
Bank (for non-UK payroll) .... «iban»
Emergency contact ............ «name.2» – «phone»"""),
    ("invoice", "en", """INVOICE «=invoice»                         Date: «=plain_date»
Bill to: «name»
         «street»
         Portland, OR 97205

PO reference: «=luhn_fail» (customer's PO, not a card)

Item                         Qty     Amount
Annual support plan            1     «=price»

Card on file «=masked_card» was declined; customer read out «card» on the phone and we charged that instead."""),
    ("claim", "en", """AUTO CLAIM – first notice of loss
Claimant ........ «name»
DOB ............. «dob»
Policy # ........ «=ref_no»
Contact ......... «phone» / «email»
Loss location ... outside «street»
Body shop: Mike's Collision «=fictional_phone»
Adjuster note: claimant called back from «phone.2», says the other driver is «name.2»."""),
    ("booking", "en", """✈ Booking confirmed
Record locator: «=pnr»    E-ticket: «=eticket»
Passenger: «name_rev»    Passport: «passport»    DOB: «dob»
UA 916  SFO → FRA  «=plain_date»  dep 15:40
Paid with «=masked_card» · total «=price»"""),
    ("helm", "en", """# values-prod.yaml
image:
  repository: ghcr.io/acme/orders
  tag: "«=version»"
  digest: «=digest»
postgresql:
  auth:
    username: orders
    password: «pw»
smtp:
  host: smtp.mailgun.org
  password: "«secret»"
ingress:
  annotations:
    nginx.ingress.kubernetes.io/whitelist-source-range: "«ip»/32,«=reserved_ip»/32\""""),
    ("compose", "en", """services:
  api:
    image: acme/api@«=digest»
    environment:
      - DATABASE_URL=«dburl»
      - STRIPE_KEY=«apikey»
      - SENTRY_RELEASE=«=git_sha»
  grafana:
    image: grafana/grafana:«=version»
    environment:
      GF_SECURITY_ADMIN_PASSWORD: «pw»"""),
    ("tfvars", "en", """# prod.auto.tfvars  (DO NOT COMMIT — see «=ticket»)
region          = "eu-west-1"
db_username     = "app_admin"
db_password     = "«pw»"
# example from the README: aws_access_key = "«=example_key»"
datadog_api_key = "«apikey»"
oauth_client_secret = "«secret»"
allowed_cidrs   = ["«ip»/32", "«=reserved_ip»/24"]
deploy_role_arn = "«=arn»\""""),
    ("gha", "en", """name: deploy
on: { push: { branches: [main] } }
jobs:
  deploy:
    runs-on: ubuntu-22.04
    env:
      NPM_TOKEN: «=ci_ref»
      REGISTRY_PASSWORD: «pw»   # TODO move into secrets
    steps:
      - uses: actions/checkout@«=git_sha»
      - run: |
          curl -sf -X POST https://api.fly.io/v1/apps/orders/deploy \\
            -H "Authorization: «bearer»\""""),
    ("jupyter", "en", """In [3]:
import openai, pandas as pd
client = openai.OpenAI(api_key="«apikey»")
df = pd.read_csv("s3://acme-ml/exports/customers_2024.csv")

In [4]:
df.head(2)

Out[4]:
                               id         full_name                email     phone
0  «=uuid»  «name»  «email»  «phone»"""),
    ("sql", "en", """-- MySQL dump 10.13  Distrib «=version»
LOCK TABLES `customers` WRITE;
INSERT INTO `customers` (`id`,`full_name`,`email`,`phone`,`dob`,`ssn`,`created_at`) VALUES
(1042,'«name»','«email»','«phone»','«dob_iso»','«ssn»','«=timestamp»'),
(1043,'«name.2»','«=example_email»',NULL,NULL,NULL,'«=timestamp.2»');
UNLOCK TABLES;"""),
    ("nginx", "en", """«ip» - - [12/Mar/2024:10:22:31 +0000] "POST /api/v2/login HTTP/1.1" 200 512 "-" "okhttp/4.12.0" rt=0.043 req=«=req_id»
«=reserved_ip» - - [12/Mar/2024:10:22:32 +0000] "GET /healthz HTTP/1.1" 200 2 "-" "kube-probe/1.29"
[«ip6»]:51822 - - [12/Mar/2024:10:22:35 +0000] "GET /auth/callback?id_token=«jwt»&state=af0ifjsldkj HTTP/2.0" 302 0"""),
    ("authlog", "en", """Mar 12 04:11:09 bastion-1 sshd[28711]: Failed password for invalid user admin from «ip» port 51922 ssh2
Mar 12 04:11:12 bastion-1 sshd[28714]: Accepted publickey for deploy from «ip.2» port 40118 ssh2: ED25519 «=fingerprint»
Mar 12 04:11:12 bastion-1 sudo:   deploy : TTY=pts/0 ; PWD=/srv ; USER=root ; COMMAND=/usr/bin/mysql -uroot -p«pw»"""),
    ("jsonlog", "en", """{"level":"error","ts":"«=timestamp»","logger":"gateway","msg":"upstream auth failed","req":{"method":"GET","path":"/v1/export","headers":{"authorization":"«basic»","x-request-id":"«=uuid»"}},"client_ip":"«ip»","traceparent":"«=traceparent»"}"""),
    ("logfmt", "en", """time=«=timestamp» level=warn msg="retrying webhook delivery" endpoint=https://hooks.partner.io/in signing_secret=«secret» attempt=3 trace_id=«=md5»
time=«=timestamp.2» level=info msg="user session refreshed" user=«email» sid="«cookie»\""""),
    ("spring", "en", """2024-03-12 10:22:31.118  WARN 1 --- [nio-8080-exec-7] o.s.b.c.p.b.BindFailureAnalyzer : Failed to bind spring.datasource.url=«jdbc»
2024-03-12 10:22:31.120  INFO 1 --- [           main] o.s.b.StartupInfoLogger : Starting OrdersApplication v«=version» using Java 17.0.10 with PID 1 (started by root in /app)"""),
    ("curl", "en", """$ curl -X POST 'https://api.acme-pay.com/v1/refunds' \\
    -H 'Authorization: «bearer»' \\
    -H 'Idempotency-Key: «=uuid»' \\
    -b '«cookie»' \\
    -d '{"charge":"ch_3Oq","amount":1299}'
{"error":{"type":"invalid_request_error","request_id":"«=req_id»"}}"""),
    ("postman", "en", """{
  "info": {"_postman_id": "«=uuid»", "name": "Billing API", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
  "auth": {"type": "apikey", "apikey": [{"key": "value", "value": "«hdrkey»", "type": "string"}, {"key": "key", "value": "X-API-Key", "type": "string"}]},
  "variable": [
    {"key": "baseUrl", "value": "https://sandbox.example.com"},
    {"key": "adminUser", "value": "«email»"},
    {"key": "adminPass", "value": "«pw»"}
  ]
}"""),
    ("pypirc", "en", """; ~/.pypirc — copied from Priya's laptop
[distutils]
index-servers = pypi internal

[pypi]
username = __token__
password = «apikey»

[internal]
repository = https://nexus.corp.lan/repository/pypi-internal/
username = ci-bot
password = «pw»"""),
    ("properties", "en", """# application-prod.properties
spring.datasource.url=«jdbc»
spring.mail.username=alerts@acme.io
spring.mail.password=«pw»
security.jwt.signing-key=«secret»
management.endpoints.web.exposure.include=health,info
app.build.version=«=version»"""),
    ("appsettings", "en", """{
  "ConnectionStrings": {
    "Default": "«adonet»"
  },
  "Jwt": { "Issuer": "https://login.acme.io", "Key": "«secret»" },
  "Serilog": { "MinimumLevel": "Information" },
  "AllowedHosts": "*"
}"""),
    ("gcp_sa", "en", """{
  "type": "service_account",
  "project_id": "acme-analytics-prod",
  "private_key_id": "«=git_sha»",
  "private_key": "«pem_json»",
  "client_email": "etl-runner@acme-analytics-prod.iam.gserviceaccount.com",
  "client_id": "104729883015526214461",
  "token_uri": "https://oauth2.googleapis.com/token"
}"""),
    ("terminal", "en", """deploy@ci-runner-07:~$ cat ~/.ssh/id_ed25519
«pem»
deploy@ci-runner-07:~$ cat ~/.ssh/id_ed25519.pub
«=public_key» deploy@ci
deploy@ci-runner-07:~$ ssh-keygen -lf ~/.ssh/id_ed25519.pub
256 «=fingerprint» deploy@ci (ED25519)
deploy@ci-runner-07:~$ cat /etc/nginx/tls/server.crt
«=certificate»"""),
    ("devtools", "en", """Request Headers
:authority: app.acme.io
:method: GET
:path: /api/me
accept: application/json
authorization: «bearer»
cookie: _ga=«=ga_id»; «cookie»; theme=dark
traceparent: «=traceparent»
user-agent: Mozilla/5.0 (Macintosh; Intel Mac OS X 14_3) AppleWebKit/537.36"""),
    ("kubectl", "en", """$ kubectl -n billing get secret orders-db -o jsonpath='{.data.password}' | base64 -d
«pw»
$ kubectl -n billing get pods
NAME                          READY   STATUS    RESTARTS   AGE
«=pod»       1/1     Running   0          3d
$ kubectl -n billing exec -it «=pod» -- env | grep URL
DATABASE_URL=«dburl»"""),
    ("history", "en", """ 1019  cd ~/src/ledger
 1020  git log --oneline -3   # «=short_sha» fix rounding
 1021  mysql -h «ip» -u root -p'«pw»' ledger < dump.sql
 1022  redis-cli -u «dburl» FLUSHDB
 1023  export GITHUB_TOKEN=«apikey»"""),
    ("csv", "en", """id,full_name,email,phone,date_of_birth,street,country
«=uuid»,«name»,«email»,«phone»,"«dob»","«street»",US
«=uuid.2»,Test Account,«=example_email»,,,,US"""),
    ("payments_log", "en", """[payments] 2024-03-12T10:22:31Z charge.failed customer=cus_PbX2 card=«card» reason=do_not_honor amount=«=price»
[payments] 2024-03-12T10:22:33Z charge.retry customer=cus_PbX2 card=«=masked_card» idempotency=«=uuid»
[payments] 2024-03-12T10:22:34Z refund.created refund=re_1Oq ip=«ip»"""),
    ("ansible", "en", """# group_vars/prod/vars.yml  (vault-encrypt me!!)
ansible_user: deploy
ansible_become_password: «pw»
grafana_admin_token: «apikey»
app_secret_key: "«secret»"
backup_target: «giturl»"""),
    ("env_diff", "en", """diff --git a/.env b/.env
index «=short_sha»..«=short_sha.2» 100644
--- a/.env
+++ b/.env
@@ -1,4 +1,4 @@
-OPENAI_API_KEY=«=placeholder»
+OPENAI_API_KEY=«apikey»
 LOG_LEVEL=debug
-SESSION_SECRET=changeme
+SESSION_SECRET=«secret»"""),
    ("python", "en", """def connect():
    # TODO(«email»): read these from the environment
    return psycopg2.connect(
        host="«ip»",
        user="report",
        password="«pw»",
        dbname="dw",
        application_name="nightly-«=version»",
    )"""),
    ("go", "en", """package webhook

// Copied from the dashboard on «=plain_date»; rotate before launch.
const signingSecret = "«secret»"

var client = &http.Client{Transport: &bearerTransport{token: "«jwt»"}}"""),
    ("referral", "en", """Dear Dr Okafor,
I would be grateful if you could see «name» («natid»), DOB «dob», of «street», Bristol BS8 1TH, who presented with a three-week history of exertional chest pain.
Mobile: «phone». Previous ECG attached (ref «=uuid»).
Kind regards, «name.2»"""),
    ("background_check", "en", """Subject: Background check – candidate «name»
Please run the standard package. Candidate details:
  • SSN: «ssn»
  • DOB: «dob»
  • Current address: «street», Austin, TX
  • Driver's licence: not provided
Candidate consent form ID «=uuid». Reply to «email» with any questions."""),
    ("mattermost", "en", """@«name» 10:42
ok here's the read-only grafana key for the dashboard embed: `«hdrkey»`
@ops-oncall 10:44
and the basic auth for the old kibana is «basic» — please don't paste that anywhere else
@«name» 10:44
lol too late"""),
    ("zendesk", "en", """Ticket «=ticket» · Priority: High · Channel: Web form
Requester: «name» <«email»>
Message:
  I was charged twice for order «=invoice». The card used was «card».
  I'm reachable at «phone» after 5pm.
Agent note: refund issued, last login «ip», tracking «=tracking» for the replacement."""),
    ("k8s_secret", "en", """apiVersion: v1
kind: Secret
metadata:
  name: tls-and-db
  annotations:
    meta.helm.sh/release-name: orders-«=version»
type: Opaque
stringData:
  db-url: «dburl»
  tls.key: "«pem_json»"
  ca.crt: "see «=ticket»\""""),

    ("us_payroll", "de", """Betreff: Entsendung USA – Unterlagen für Payroll (ADP)
Für die US-Lohnabrechnung brauchen wir noch:
  SSN: «ssn»
  Geburtsdatum: «dob»
  US-Adresse: «us_street» (vorübergehend), Charlotte NC
Der Reisepass («passport») liegt in Kopie vor."""),
    ("k8s", "de", """# Secret für den internen Ingress – nur im Cluster anlegen, nicht ins Git!
apiVersion: v1
kind: Secret
metadata:
  name: ingress-tls
type: kubernetes.io/tls
stringData:
  tls.key: "«pem_json»"
  api-token: «apikey»
# Image «=digest»"""),
    ("journal", "fr", """2024-03-12 08:14:02,118 ERROR [auth] échec de connexion utilisateur=admin ip=«ip» motif=mot_de_passe_invalide
2024-03-12 08:14:05,402 WARN  [auth] en-tête reçu : Authorization: «basic»
2024-03-12 08:14:09,771 INFO  [session] cookie émis «cookie» (expire dans 3600 s)
2024-03-12 08:15:00,000 INFO  [deploy] version «=version» commit «=short_sha»"""),
    ("nomina_eeuu", "es", """Datos para la nómina en EE. UU. (formulario W-4)
Empleado: «name»
Número de Seguro Social (SSN): «ssn»
Fecha de nacimiento: «dob»
Dirección: «us_street», Miami, FL
Depósito directo – se adjunta cheque anulado."""),
    ("terminale", "it", """utente@build-02:~$ cat deploy_key
«pem»
utente@build-02:~$ echo $REGISTRY_TOKEN
«apikey»
utente@build-02:~$ git rev-parse HEAD
«=git_sha»"""),
    ("env", "nl", """# .env.local – niet committen
NEXTAUTH_SECRET=«secret»
SESSION_COOKIE=«cookie»
TEST_ID_TOKEN=«jwt»
AWS_ACCESS_KEY_ID=«=example_key»   # voorbeeld uit de docs
API_BASE=https://api.example.com/v2   # «=version»"""),
    ("curl", "pl", """$ curl -s 'https://panel.sklep.pl/api/zamowienia?strona=2' \
    -H 'Cookie: «cookie»' \
    -H 'X-Auth-Token: «jwt»' | jq .
{"blad": "sesja wygasla", "id_zadania": "«=uuid»"}"""),
    ("settei", "ja", """# /etc/app/secret.yaml（本番）
tls:
  key: "«pem_json»"
# 例: key: "«=placeholder»"
session:
  cookie: "«cookie»"
  # 発行日 «=plain_date»"""),
    ("visa", "zh", """美国签证材料清单（«name»）
- 护照号：«passport»
- 美国社会安全号（SSN）：«ssn»
- 出生日期：«dob»
- 在美住址：«us_street», San Jose, CA"""),
    ("miyao", "zh", """$ cat ~/.ssh/id_rsa   # 跳板机私钥，勿外传
«pem»
$ cat ~/.ssh/id_rsa.pub
«=public_key» ops@bastion"""),
    ("h1b", "hi", """H-1B onboarding – US payroll details
Employee: «name»
SSN: «ssn»
Date of birth: «dob»
US address: «us_street», Edison, NJ
Passport No.: «passport»"""),
    ("server_notes", "hi", """सर्वर नोट्स (सिर्फ़ टीम के लिए)
SSH key (prod bastion):
«pem»
DB connection: «dburl»
Build «=short_sha», release «=version»"""),
    ("teams", "de", """[Gestern 16:05] «name»
Kannst du mir kurz das Passwort für den SFTP-Zugang schicken? Das im Wiki ist veraltet.
[Gestern 16:07] IT-Servicedesk
klar: «pw» – bitte nicht weiterleiten, ich ändere es nächste Woche
[Gestern 16:08] «name»
danke! Ticket dazu: «=ticket»"""),
    ("email_thread", "de", """Von: «name» <«email»>
Gesendet: Montag, «=plain_date» 09:14
An: Personalabteilung
Betreff: AW: Neue Bankverbindung

Sehr geehrte Damen und Herren,
anbei meine neue Bankverbindung: IBAN «iban». Meine Steuer-ID lautet «natid_bare».
Für Rückfragen bin ich unter «phone» erreichbar.

Mit freundlichen Grüßen
«name»

>> Am «=plain_date.2» schrieb Personalabteilung:
>> Bitte senden Sie uns Ihre aktuellen Kontodaten bis Monatsende."""),
    ("personalbogen", "de", """Personalfragebogen (vertraulich)
Name, Vorname:        «name_rev»
Geburtsdatum:         «dob»
Anschrift:            «street», 50667 Köln
Steuer-ID:            «natid_bare»
Mobil:                «phone»
Reisepass-Nr.:        «passport»
Bankverbindung:       «iban»"""),
    ("arztbrief", "de", """Arztbrief – Entlassung
Patient: «name», geb. «dob», wohnhaft «street», 80331 München
Diagnose: Z.n. Appendektomie, komplikationsloser Verlauf.
Rückfragen gerne unter «phone». Fallnummer «=uuid»."""),
    ("incident", "de", """Störungsprotokoll «=ticket»
14:02 – Zugriff von «ip» auf /admin mit gültigem Token «jwt»
14:09 – Token widerrufen, Sessions invalidiert
14:15 – Zweiter Zugriff von «ip6», diesmal mit «bearer» im Header
14:40 – Release «=version» ausgerollt, Ursache behoben"""),
    ("rechnung", "de", """Rechnung Nr. «=invoice»                 Datum: «=plain_date»
Kunde: «name», «street», 10115 Berlin
Leistung: Wartungsvertrag 2024               «=price»
Bezahlt per Kreditkarte «card» – Beleg «=uuid»
Bitte überweisen Sie künftig auf unser Konto; Ihre Kundennummer: «=ean»
Hinweis: die zuerst angegebene Karte «=luhn_fail» war ungültig (Tippfehler)."""),
    ("appyml", "de", """# Zugangsdaten für die Testumgebung – NICHT committen!
spring:
  datasource:
    url: «jdbc»
    password: «pw»
  mail:
    password: «secret»
# Vorlage für Entwickler: password: «=placeholder»
# Build «=short_sha», Kontakt bei Fragen: «email»"""),
    ("telegram", "de", """Telegram Desktop – Chatexport
«name», [12.03.2024 21:14]
Hier der Bot-Token für den Alarm-Kanal: «apikey»
«name.2», [12.03.2024 21:16]
Danke. Und der Webhook läuft auf «ip», Port 8443?
«name», [12.03.2024 21:17]
Ja, Secret ist «secret»"""),

    ("email_thread", "fr", """De : «name» <«email»>
Envoyé : mardi «=plain_date» 11:02
Objet : TR: Mise à jour RIB

Bonjour,
Voici mon nouveau RIB : «iban»
Et mon n° de sécu, comme demandé : «natid_bare».
Cordialement,
«name»
Tél. «phone»

> Le «=plain_date.2», le service RH a écrit :
> Merci de nous transmettre vos coordonnées bancaires."""),
    ("compte_rendu", "fr", """Compte rendu de consultation
Patiente : «name», née le «dob»
Adresse : «street», 69003 Lyon
Tél. : «phone»
Motif : suivi post-opératoire. Prochain rendez-vous le «=plain_date»."""),
    ("ticket", "fr", """Ticket «=ticket» – Double prélèvement
Le client «name» signale que sa carte «card» a été débitée deux fois («=price»).
Adresse IP de connexion : «ip» ; e-mail de contact : «email».
Ancien IBAN refusé (clé invalide) : «=iban_fail».
Remboursement lancé, référence «=uuid»."""),
    ("compose", "fr", """# docker-compose.yml – environnement de recette
services:
  db:
    image: postgres:«=version»
    environment:
      POSTGRES_PASSWORD: «pw»   # à changer avant la prod !
  app:
    environment:
      - DATABASE_URL=«dburl»
      - MAILJET_API_KEY=«hdrkey»
      - MAILJET_SECRET_KEY=«secret»
      - SMTP_RELAY=«=reserved_ip»
      - EXEMPLE_EMAIL=«=example_email»"""),
    ("appel", "fr", """Transcription d'appel – service client
Conseiller : Bonjour, pouvez-vous me donner votre nom complet ?
Client : Oui, «name».
Conseiller : Et votre date de naissance ?
Client : Le «dob».
Conseiller : Merci. Je vous envoie le lien à «email», et je note le numéro «phone».
Client : Très bien, mon numéro de passeport c'est «passport» si besoin."""),
    ("reservation", "fr", """Confirmation de réservation – Dossier «=pnr»
Passager : «name_rev»
Passeport n° «passport» (exp. 2031)
Vol AF 1234 Paris-CDG → Montréal, le «=plain_date»
Billet électronique : «=eticket»
Montant réglé : «=price» – carte «=masked_card»"""),
    ("onboarding", "fr", """Arrivée de «name» – checklist RH
☑ Contrat signé le «=plain_date»
☑ Numéro de sécurité sociale : «natid_bare»
☐ RIB : «iban»
☐ Adresse : «street», 33000 Bordeaux
☐ Badge + compte VPN (mot de passe provisoire «pw»)"""),

    ("whatsapp", "es", """12/03/24, 21:14 - «name»: oye, ¿me pasas la contraseña del wifi de la oficina?
12/03/24, 21:15 - «name.2»: es «pw» jaja no la compartas
12/03/24, 21:16 - «name»: gracias! por cierto mi nuevo número es «phone»
12/03/24, 21:16 - «name.2»: 👍 y mándame tu IBAN para el bizum de la cena: «iban»"""),
    ("alta_rrhh", "es", """Asunto: Alta de empleado – «name»
Hola equipo de nóminas:
Os paso los datos para el alta en la Seguridad Social:
- DNI: «natid_bare»
- Fecha de nacimiento: «dob»
- Domicilio: «street», 28010 Madrid
- Cuenta para la nómina: «iban»
- Correo personal: «email»
Incorporación prevista: «=plain_date»."""),
    ("incidencia", "es", """Incidencia «=ticket» – sesión compartida
El usuario pegó su cookie de sesión en el chat de soporte: «cookie»
Se invalidó la sesión a las 10:42. IP de origen: «ip».
Además adjuntó una captura con el token «jwt» (caducado, pero lo rotamos igualmente)."""),
    ("terraform", "es", """# variables.tfvars – entorno de pruebas (no subir al repo)
proyecto         = "facturacion"
usuario_bd       = "admin"
contrasena_bd    = "«pw»"
clave_api_sendgrid = "«apikey»"
ips_permitidas   = ["«ip»/32", "«=reserved_ip»/32"]
version_imagen   = "«=version»\""""),
    ("factura", "es", """FACTURA «=invoice»              Fecha: «=plain_date»
Cliente: «name» – NIF «natid_bare»
Dirección: «street», 46001 Valencia
Concepto: licencia anual                 «=price»
Forma de pago: transferencia a «iban»"""),
    ("siniestro", "es", """Parte de siniestro – hogar
Asegurado/a: «name»
Fecha de nacimiento: «dob»
Póliza: «=ref_no»
Teléfono de contacto: «phone»
Dirección del riesgo: «street», Sevilla
Observaciones: el perito llamará desde «=fictional_phone» para concertar visita."""),
    ("llamada", "es", """[00:01] Agente: Buenas tardes, le atiende Lucía. ¿Me indica su nombre completo?
[00:04] Cliente: «name».
[00:08] Agente: ¿Y un número de pasaporte o DNI para verificar?
[00:12] Cliente: El pasaporte, «passport».
[00:20] Agente: Perfecto. Le envío el enlace al correo «email»."""),

    ("email_thread", "it", """Da: «name» <«email»>
Inviato: venerdì «=plain_date» 17:31
Oggetto: R: Dati per il contratto

Gentile ufficio,
come richiesto vi invio i miei dati:
Codice fiscale: «natid_bare»
IBAN: «iban»
Cellulare: «phone»
Cordiali saluti

> Il «=plain_date.2», Ufficio Contratti ha scritto:
> Ci servono codice fiscale e IBAN entro lunedì."""),
    ("scheda_paziente", "it", """SCHEDA PAZIENTE
Cognome e nome: «name_rev»
Nato/a il: «dob»
C.F.: «natid_bare»
Residenza: «street», 20121 Milano
Cell.: «phone»
Note: allergia alla penicillina. Prossimo controllo il «=plain_date»."""),
    ("teams", "it", """[10:02] «name»
ragazzi la password della VPN è cambiata, ora è «pw»
[10:03] Supporto IT
grazie! e il token per le API di fatturazione?
[10:05] «name»
«apikey» (scade a fine mese, ticket «=ticket»)"""),
    ("ticket", "it", """Segnalazione «=ticket»
Il cliente «name» ha comunicato al telefono il numero di passaporto «passport» e la carta «card» per il rimborso.
Indirizzo IP dell'ultimo accesso: «ip». Email: «email»."""),
    ("env", "it", """# .env – credenziali di produzione, non condividere!
DATABASE_URL=«dburl»
STRIPE_SECRET=«apikey»
JWT_SECRET=«secret»
# versione «=version», ultimo deploy «=timestamp»"""),
    ("fattura", "it", """FATTURA N. «=invoice» del «=plain_date»
Cliente: «name» – C.F. «natid_bare»
Indirizzo: «street», 00184 Roma
Descrizione: canone annuale                 «=price»
Codice articolo EAN «=ean»
Pagamento: bonifico su IBAN «iban»"""),
    ("prenotazione", "it", """Conferma prenotazione – codice «=pnr»
Passeggero: «name»
Data di nascita: «dob»
Passaporto: «passport»
Volo AZ 608 Roma FCO → New York JFK, «=plain_date»
Biglietto elettronico: «=eticket»"""),
    ("sinistro", "it", """Denuncia di sinistro RC auto
Contraente: «name»
Codice fiscale: «natid_bare»
Telefono: «phone»
Luogo del sinistro: «street», Torino
Numero pratica: «=ref_no»"""),

    ("email_thread", "nl", """Van: «name» <«email»>
Verzonden: woensdag «=plain_date» 08:47
Onderwerp: RE: Gegevens salarisadministratie

Beste HR,
Hierbij mijn gegevens: BSN «natid_bare», IBAN «iban».
Mijn nieuwe adres is «street», 3511 AB Utrecht.
Groet, «name»

> Op «=plain_date.2» schreef Salarisadministratie:
> Wil je je BSN en rekeningnummer nog even doorgeven?"""),
    ("telegram", "nl", """«name», [12.03.24 14:05]
wachtwoord van de NAS is «pw», niet rondsturen aub
Helpdesk Bot, [12.03.24 14:07]
top. en de API-sleutel voor de monitoring?
«name», [12.03.24 14:08]
«apikey»"""),
    ("onboarding", "nl", """Onboarding «name»
☑ Kopie paspoort ontvangen («passport»)
☑ Geboortedatum: «dob»
☑ Adres: «street», 1015 CJ Amsterdam
☐ Telefoon: «phone»
☐ Laptop verzonden, track & trace «=tracking»"""),
    ("klantenservice", "nl", """Gespreksverslag klantenservice
Medewerker: Mag ik uw naam en geboortedatum?
Klant: «name», geboren op «dob».
Medewerker: En op welk nummer kunnen we u terugbellen?
Klant: «phone».
Medewerker: Dank u. Uw klachtnummer is «=ticket»."""),
    ("factuur", "nl", """FACTUUR «=invoice»                 Datum: «=plain_date»
Aan: «name», «street», 2511 CV Den Haag
Omschrijving: jaarabonnement               «=price»
Gelieve het bedrag over te maken op «iban» t.n.v. Bakker & Zn, o.v.v. het factuurnummer.
Let op: het eerder genoemde rekeningnummer «=iban_fail» klopt niet (controlegetal)."""),
    ("incident", "nl", """Incidentlog «=ticket»
09:12 – ongebruikelijk verkeer vanaf «ip»
09:20 – gelekte sleutel gevonden in publieke repo: «apikey»
09:31 – sleutel ingetrokken, sessies ongeldig gemaakt
09:45 – hotfix «=short_sha» uitgerold"""),
    ("compose", "nl", """# docker-compose.override.yml – alleen lokaal!
services:
  keycloak:
    environment:
      KEYCLOAK_ADMIN_PASSWORD: «pw»
      KC_DB_URL: «jdbc»
  mailer:
    environment:
      - SMTP_URL=«dburl»"""),

    ("email_thread", "pl", """Od: «name» <«email»>
Wysłano: czwartek, «=plain_date» 13:20
Temat: Odp: Dane do umowy

Dzień dobry,
przesyłam dane do umowy:
«name», PESEL «natid_bare», paszport «passport»
adres: «street», 00-001 Warszawa
nr konta: «iban»
Pozdrawiam

> W dniu «=plain_date.2» Dział Kadr napisał(a):
> Prosimy o przesłanie danych do umowy."""),
    ("faktura", "pl", """FAKTURA VAT nr «=invoice»
Data wystawienia: «=plain_date»
Nabywca: «name», «street», 31-001 Kraków
Usługa: abonament roczny                 «=price»
Kod EAN: «=ean»
Nr rachunku: «iban»
Przesyłka InPost: «=tracking»"""),
    ("teams", "pl", """[11:20] «name»
hasło do panelu admina: «pw»
[11:21] DevOps (dyżur)
dzięki. a klucz do API płatności?
[11:23] «name»
«apikey» – tylko nie wrzucaj na kanał ogólny 😅"""),
    ("zgloszenie", "pl", """Zgłoszenie serwisowe «=ticket»
Klient «name» podał przez telefon numer karty «card» do zwrotu.
Telefon kontaktowy: «phone», e-mail: «email».
Pierwszy podany numer «=luhn_fail» był błędny.
Ostatnie logowanie z adresu «ip»."""),
    ("karta_pacjenta", "pl", """KARTA PACJENTA
Imię i nazwisko: «name»
PESEL: «natid_bare»
Data urodzenia: «dob»
Adres: «street», 80-001 Gdańsk
Telefon: «phone»"""),
    ("rozmowa", "pl", """Transkrypcja rozmowy – infolinia
Konsultant: Proszę podać imię i nazwisko.
Klient: «name».
Konsultant: Dziękuję. A data urodzenia?
Klient: «dob».
Konsultant: Wyślę potwierdzenie na adres «email»."""),
    ("gitlab_ci", "pl", """# .gitlab-ci.yml – TODO: przenieść hasła do zmiennych CI
variables:
  DOCKER_PASSWORD: "«pw»"
  SENTRY_AUTH_TOKEN: «apikey»
  REGISTRY_USER: $CI_REGISTRY_USER
  REGISTRY_PASSWORD: «=ci_ref»
deploy:
  script:
    - curl -H "Authorization: «bearer»" https://deploy.intra.pl/hooks/«=uuid»"""),

    ("chat", "ja", """【共有】本番DBのパスワード：«pw»（来週変更します）
«name»さん、確認お願いします。
→ 接続文字列はこちら：«dburl»
チケット：«=ticket»"""),
    ("rirekisho", "ja", """履歴書
氏名：«name»
生年月日：«dob»
住所：«street»
電話番号：«phone»
メール：«email»
マイナンバー：«natid_bare»"""),
    ("mail", "ja", """«name»様

いつもお世話になっております。
海外送金先の口座情報をお送りします。
IBAN：«iban»
ご不明点は «phone» までご連絡ください。

> «=plain_date» «name.2» wrote:
> 送金先の情報をご送付ください。"""),
    ("shogai", "ja", """障害報告書 «=ticket»
発生日時：«=plain_date» 14:20
不正アクセス元IP：«ip»
漏洩したAPIキー：«apikey»
対応：キー無効化済み、バージョン«=version»で修正"""),
    ("yoyaku", "ja", """ご予約確認
予約番号：«=pnr»
お名前：«name» 様
旅券番号：«passport»
生年月日：«dob»
お支払い：«=masked_card»　合計 «=price»"""),
    ("config", "ja", """# 本番用設定（絶対にコミットしないこと）
[database]
host = "«ip»"
password = "«pw»"

[cache]
host = "«=reserved_ip»"

[auth]
jwt_secret = "«secret»"
# 担当：«email»"""),

    ("dingtalk", "zh", """【钉钉】«name»：服务器root密码是 «pw» ，用完记得改
【钉钉】运维值班：收到。AccessKey 是 «apikey» 吗？
【钉钉】«name»：对，工单号 «=ticket»"""),
    ("ruzhi", "zh", """员工入职登记表
姓名：«name»
身份证号：«natid_bare»
出生日期：«dob»
手机：«phone»
住址：«street»
邮箱：«email»"""),
    ("fupan", "zh", """事故复盘 «=ticket»
1. 14:02 攻击来源 IP «ip» 使用泄露的令牌 «jwt» 调用导出接口
2. 14:10 吊销令牌，修复版本 «=version»
3. 14:30 另一来源 «ip6» 使用 Cookie «cookie» 重放"""),
    ("dingdan", "zh", """订单号：«=invoice»
收货人：«name»
联系电话：«phone»
收货地址：«street»
支付方式：信用卡 «card»
物流单号：«=tracking»"""),
    ("bingli", "zh", """门诊病历
患者：«name»  性别：女  出生日期：«dob»
身份证：«natid_bare»
联系电话：«phone»
诊断：上呼吸道感染。复诊日期：«=plain_date»"""),
    ("config", "zh", """# 数据库连接（生产环境，勿外传）
spring.datasource.url=«jdbc»
aliyun.oss.access-key-id=«apikey»
aliyun.oss.access-key-secret=«secret»
# 示例：aliyun.oss.access-key-id=«=placeholder»
# 负责人：«name» «email»"""),

    ("whatsapp", "hi", """[12/03/24, 9:14 pm] «name»: bhai server ka password «pw» hai, kisi ko mat bhejna
[12/03/24, 9:15 pm] Ops Team: ok. aur prod ka API key?
[12/03/24, 9:16 pm] «name»: «apikey»
[12/03/24, 9:16 pm] Ops Team: 👍 mera naya number «phone» save kar lo"""),
    ("onboarding", "hi", """नया कर्मचारी फ़ॉर्म
नाम: «name»
जन्म तिथि: «dob»
आधार: «natid_bare»
मोबाइल: «phone»
पता: «street»
ईमेल: «email»
बैंक खाता (IBAN, विदेश भुगतान हेतु): «iban»"""),
    ("support", "hi", """Ticket «=ticket»
Customer ne card «card» se payment kiya, OTP nahi aaya. Registered email «email», login IP «ip».
Pehle diya gaya number «=luhn_fail» invalid tha.
Refund «=price» process kar diya."""),
    ("incident", "hi", """घटना रिपोर्ट «=ticket»
10:02 – «ip» से संदिग्ध लॉगिन, Authorization header में «bearer»
10:15 – सत्र रद्द किए गए; कुकी «cookie» अमान्य
10:40 – संस्करण «=version» तैनात"""),
    ("travel", "hi", """Booking confirmed – PNR «=pnr»
Passenger: «name»
Passport No.: «passport»
DOB: «dob»
Flight AI 101 DEL → JFK on «=plain_date»
E-ticket: «=eticket»"""),
]
# fmt: on

SLOT = re.compile(r"«(=?)([a-z_0-9]+)(?:\.(\d))?»")


def _kinds(text: str) -> list[str]:
    """The kinds of a template's distinct value slots, once per slot."""
    return [SLOTS[name][0] for keep, name, n in dict.fromkeys(SLOT.findall(text)) if not keep]


def render(rng: random.Random, lang: str, text: str) -> dict[str, object]:
    """Fill a template's slots; the same slot and suffix give the same value."""
    ctx: dict[str, object] = {}
    filled: dict[tuple[str, str, str], str] = {}
    go: dict[str, str] = {}
    stay: dict[str, str] = {}

    def fill(m: re.Match[str]) -> str:
        keep, name, n = m.groups()
        if (keep, name, n) in filled:
            return filled[keep, name, n]
        if keep:
            shown = KEEPS[name](rng, lang)
            stay.setdefault(shown, name)
        else:
            if name.startswith("name"):
                ctx.pop("person", None)
            kind, make = SLOTS[name]
            shown, value = make(rng, lang, ctx)
            go.setdefault(value, kind)
        filled[keep, name, n] = shown
        return shown

    out = SLOT.sub(fill, text)
    return {
        "text": out,
        "must_go": [{"kind": k, "value": v} for v, k in go.items()],
        "must_stay": list(stay),
        "stay_sorts": list(stay.values()),
    }


def build_blind2(count: int = SAMPLES) -> list[dict[str, object]]:
    """The second blind corpus (see the module docstring)."""
    rng = random.Random(SEED)
    kinds = [_kinds(text) for _, _, text in TEMPLATES]
    counts: Counter[str] = Counter()
    uses: Counter[int] = Counter()
    samples: list[dict[str, object]] = []
    while len(samples) < count:
        # A language first (English, which alone has SSNs, twice as often), then the document
        # in it whose kinds are rarest so far, favouring documents used least.
        lang = rng.choices(LANGS, weights=[LANG_WEIGHT.get(lang, 1.0) for lang in LANGS])[0]
        pool = [i for i, t in enumerate(TEMPLATES) if t[1] == lang]
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
