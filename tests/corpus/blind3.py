"""A third blind corpus: documents, placements and languages no earlier variant uses.

    .venv/bin/python tests/corpus/generate.py --blind3   # prints it as JSON lines
    .venv/bin/python tests/corpus/measure.py --variant blind3 --misses 60

Written without reading the detectors, their tests or any earlier variant's templates:
only ``generate``'s value generators and sample format are shared. It adds Swedish,
Turkish, Korean, Arabic and Vietnamese (with their national ids, IBANs, phones and
dates) and documents the others lack: discharge letters, bank statements, payroll
slips, police and insurance reports, school records, CRM exports, Jira comments,
Confluence pages, PagerDuty alerts, Sentry events, Datadog logs, cloud console
copy-pastes, shell transcripts, Ansible inventories, Helm values, .npmrc, .pypirc and
.netrc files, SSH configs, Postman environments, OpenAPI examples, e-mail signatures,
vCards, calendar invites and voice-assistant transcripts.

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

SEED = gen.SEED + 15_485_863
SAMPLES = 320
LANGS = ("en", "de", "fr", "es", "sv", "tr", "ko", "ru", "ar", "vi")
LANG_WEIGHT = {"en": 4.0}

UPPER = string.ascii_uppercase
LOWER = string.ascii_lowercase
DIGITS = string.digits
HEX = gen.HEX
ALNUM = gen.ALNUM
URLSAFE = gen.URLSAFE
B64 = gen.B64
rand = gen.rand
digits = gen.digits

Ctx = dict[str, object]
Maker = Callable[[random.Random, str, Ctx], tuple[str, str]]


def _fold(text: str) -> str:
    """ASCII letters only, for e-mail handles made from names."""
    table = str.maketrans({"ı": "i", "İ": "I", "ş": "s", "ğ": "g", "ß": "ss", "đ": "d", "Đ": "D"})
    return "".join(
        c
        for c in unicodedata.normalize("NFKD", text.translate(table))
        if c.isascii() and c.isalpha()
    )


# --- people and places ----------------------------------------------------------------------

# Given names, family names and a romanized form for e-mail handles where the script is not Latin.
# fmt: off
PEOPLE: dict[str, tuple[list[str], list[str]]] = {
    "en": (["Bridget", "Wesley", "Imogen", "Curtis", "Fiona", "Declan", "Tabitha", "Rupert", "Maeve", "Garrett", "Priscilla", "Desmond"], ["Ashworth", "Blackwood", "Crowley", "Dempsey", "Eastwood", "Fairbanks", "Gallagher", "Holloway", "Kingsbury", "Langford", "Merriweather", "Pendleton"]),
    "de": (["Gudrun", "Wolfgang", "Henrike", "Dietmar", "Annegret", "Volker", "Mareike", "Torsten", "Ilse", "Rüdiger", "Wiebke", "Hartmut"], ["Brandstätter", "Eichhorn", "Grünewald", "Habermann", "Kessler", "Lindemann", "Oberländer", "Pfeiffer", "Rautenberg", "Steinmetz", "Vogelsang", "Ziegler"]),
    "fr": (["Ghislaine", "Thibault", "Maëlle", "Grégoire", "Solène", "Baptiste", "Margaux", "Fabrice", "Océane", "Lionel", "Anaïs", "Yannick"], ["Aubert", "Beaumont", "Carpentier", "Delacroix", "Fournier", "Guérin", "Jacquemin", "Leclerc", "Marchand", "Perrin", "Renaud", "Vasseur"]),
    "es": (["Inmaculada", "Gonzalo", "Montserrat", "Ignacio", "Remedios", "Rodrigo", "Araceli", "Fermín", "Consuelo", "Baltasar", "Itziar", "Leandro"], ["Aguirre", "Barrientos", "Cifuentes", "Echeverría", "Galindo", "Ibáñez", "Llorente", "Montoya", "Quintana", "Salcedo", "Villalobos", "Zamora"]),
    "sv": (["Linnéa", "Björn", "Ebba", "Gustav", "Sigrid", "Oskar", "Maja", "Henrik", "Astrid", "Viktor", "Ingrid", "Axel"], ["Lindqvist", "Bergström", "Åkesson", "Sjöberg", "Holmgren", "Nyström", "Forsberg", "Engström", "Wallin", "Lundgren", "Hedlund", "Öberg"]),
    "tr": (["Ayşe", "Mehmet", "Zeynep", "Mustafa", "Elif", "Emre", "Büşra", "Hüseyin", "Gülşen", "Oğuz", "Derya", "Serkan"], ["Yılmaz", "Kaya", "Demir", "Şahin", "Çelik", "Yıldız", "Aydın", "Öztürk", "Arslan", "Doğan", "Kılıç", "Aksoy"]),
    "ko": (["민준", "서연", "지훈", "하은", "도윤", "수빈", "예준", "지아", "현우", "채원", "성민", "유진"], ["김", "이", "박", "최", "정", "강", "조", "윤", "장", "임", "한", "신"]),
    "ru": (["Вячеслав", "Людмила", "Геннадий", "Светлана", "Ярослав", "Валентина", "Константин", "Маргарита", "Всеволод", "Лариса", "Тимофей", "Полина"], ["Белоусов", "Громов", "Дьячков", "Ефимов", "Журавлёв", "Карпов", "Лихачёв", "Мельников", "Тарасов", "Субботин", "Чернышёв", "Шубин"]),
    "ar": (["محمد", "فاطمة", "عبدالله", "نورة", "خالد", "مريم", "يوسف", "ريم", "سلطان", "هيفاء", "طارق", "لطيفة"], ["العتيبي", "الشمري", "القحطاني", "الزهراني", "الحربي", "المطيري", "الدوسري", "الغامدي", "النعيمي", "المنصوري", "الكعبي", "السويدي"]),
    "vi": (["Minh Anh", "Quốc Bảo", "Thu Trang", "Đức Huy", "Ngọc Lan", "Văn Hùng", "Thanh Hương", "Hoàng Nam", "Bích Ngọc", "Tuấn Kiệt", "Mai Phương", "Gia Huy"], ["Nguyễn", "Trần", "Lê", "Phạm", "Hoàng", "Huỳnh", "Võ", "Đặng", "Bùi", "Đỗ", "Hồ", "Ngô"]),
}
ROMAN = {
    "ko": {"김": "kim", "이": "lee", "박": "park", "최": "choi", "정": "jung", "강": "kang", "조": "cho", "윤": "yoon", "장": "jang", "임": "lim", "한": "han", "신": "shin", "민준": "minjun", "서연": "seoyeon", "지훈": "jihoon", "하은": "haeun", "도윤": "doyoon", "수빈": "subin", "예준": "yejun", "지아": "jia", "현우": "hyunwoo", "채원": "chaewon", "성민": "sungmin", "유진": "yujin"},
    "ru": {"Вячеслав": "slava", "Людмила": "lyudmila", "Геннадий": "gena", "Светлана": "sveta", "Ярослав": "yaroslav", "Валентина": "valya", "Константин": "kostya", "Маргарита": "rita", "Всеволод": "seva", "Лариса": "larisa", "Тимофей": "timofey", "Полина": "polina"},
    "ar": {"محمد": "mohammed", "فاطمة": "fatima", "عبدالله": "abdullah", "نورة": "noura", "خالد": "khalid", "مريم": "maryam", "يوسف": "yousef", "ريم": "reem", "سلطان": "sultan", "هيفاء": "haifa", "طارق": "tariq", "لطيفة": "latifa"},
}
MAILHOSTS = {
    "en": ["btinternet.com", "aol.com", "comcast.net", "hey.com", "fastmail.com", "kestrel-surveys.co.uk", "oakhollow.org"],
    "de": ["freenet.de", "arcor.de", "mailbox.org", "ewe.net", "kanzlei-roth.de"],
    "fr": ["wanadoo.fr", "neuf.fr", "bbox.fr", "cabinet-perrin.fr"],
    "es": ["ono.com", "movistar.es", "euskaltel.net", "clinica-sanmarcos.es"],
    "sv": ["telia.com", "bredband.net", "hotmail.se", "spray.se", "bostadsbolaget.se"],
    "tr": ["hotmail.com.tr", "yandex.com.tr", "turk.net", "ttmail.com", "anadolu-lojistik.com.tr"],
    "ko": ["naver.com", "daum.net", "hanmail.net", "kakao.com", "nate.com"],
    "ru": ["yandex.ru", "list.ru", "inbox.ru", "ya.ru", "sibintek.ru"],
    "ar": ["outlook.sa", "gmail.com", "emirates.net.ae", "stc.com.sa", "alrajhi-trading.sa"],
    "vi": ["yahoo.com.vn", "fpt.vn", "vnn.vn", "gmail.com", "viettel.com.vn"],
}
# fmt: on


def _person(rng: random.Random, lang: str, ctx: Ctx) -> tuple[str, str]:
    """A (given, family) pair, remembered so an e-mail can be made from the same person."""
    if "person" not in ctx:
        first, last = PEOPLE[lang]
        ctx["person"] = (rng.choice(first), rng.choice(last))
    return ctx["person"]  # type: ignore[return-value]


def _name(rng: random.Random, lang: str, ctx: Ctx) -> tuple[str, str]:
    given, family = _person(rng, lang, ctx)
    if lang == "ko":
        v = family + given
    elif lang == "vi" or (lang == "ru" and rng.random() < 0.4):
        v = f"{family} {given}"
    elif lang == "ar":
        v = f"{given} {rng.choice(['', 'بن ' + rng.choice(PEOPLE['ar'][0]) + ' '])}{family}"
    else:
        v = f"{given} {family}"
    return v, v


def _name_lf(rng: random.Random, lang: str, ctx: Ctx) -> tuple[str, str]:
    """Family name first, as CRM exports, school rolls and police forms write it."""
    given, family = _person(rng, lang, ctx)
    v = f"{family.upper() if lang in ('fr', 'en') else family}, {given}"
    return v, v


def _handle(rng: random.Random, lang: str, ctx: Ctx) -> str:
    given, family = _person(rng, lang, ctx)
    if lang in ROMAN:
        given = ROMAN[lang].get(given, "user")
        family = ROMAN[lang].get(family, "x")
    g, f = _fold(given).lower(), _fold(family).lower()
    return rng.choice(
        [
            f"{g}.{f}",
            f"{g[0]}{f}",
            f"{f}.{g[0]}",
            f"{g}{rng.randint(70, 99)}",
            f"{g}_{f}",
            f"{f}{g[:3]}",
        ]
    )


def _email(rng: random.Random, lang: str, ctx: Ctx) -> tuple[str, str]:
    v = f"{_handle(rng, lang, ctx)}@{rng.choice(MAILHOSTS[lang])}"
    return v, v


def _phone(rng: random.Random, lang: str, ctx: Ctx) -> tuple[str, str]:
    d = lambda n: rand(rng, DIGITS, n)  # noqa: E731
    opts = {
        "en": lambda: rng.choice(
            [
                f"+1 {digits(rng, 3, '2345678')}.{digits(rng, 3, '2345678')}.{d(4)}",
                f"1-{digits(rng, 3, '2345678')}-{digits(rng, 3, '2345678')}-{d(4)}",
                f"07{rng.choice('4579')}{d(2)} {d(3)} {d(3)}",
                f"+44 (0)161 {d(3)} {d(4)}",
                f"({digits(rng, 3, '2345678')}) {digits(rng, 3, '2345678')} {d(4)}",
            ]
        ),
        "de": lambda: rng.choice(
            [
                f"0{rng.choice(['151', '160', '171', '175', '179'])}/{d(8)}",
                f"+49 (0) 221 {d(6)}",
                f"+49 {rng.choice(['152', '176'])}-{d(4)} {d(4)}",
                f"0711 / {d(3)} {d(2)} {d(2)}",
            ]
        ),
        "fr": lambda: rng.choice(
            [
                f"+33 (0)6.{d(2)}.{d(2)}.{d(2)}.{d(2)}",
                f"07.{d(2)}.{d(2)}.{d(2)}.{d(2)}",
                f"+33 1 {d(2)} {d(2)} {d(2)} {d(2)}",
                f"06{d(8)}",
            ]
        ),
        "es": lambda: rng.choice(
            [
                f"+34 7{d(2)} {d(2)} {d(2)} {d(2)}",
                f"(+34) 6{d(2)}-{d(3)}-{d(3)}",
                f"96 {d(3)} {d(4)}",
                f"6{d(8)}",
            ]
        ),
        "sv": lambda: rng.choice(
            [
                f"07{rng.choice('0236')}-{d(3)} {d(2)} {d(2)}",
                f"+46 7{rng.choice('0236')} {d(3)} {d(2)} {d(2)}",
                f"08-{d(3)} {d(3)} {d(2)}",
                f"031-{d(2)} {d(2)} {d(2)}",
            ]
        ),
        "tr": lambda: rng.choice(
            [
                f"+90 5{rng.choice('0345')}{d(1)} {d(3)} {d(2)} {d(2)}",
                f"0 (5{rng.choice('34')}{d(1)}) {d(3)} {d(2)} {d(2)}",
                f"05{rng.choice('34')}{d(1)}{d(7)}",
                f"0212 {d(3)} {d(2)} {d(2)}",
            ]
        ),
        "ko": lambda: rng.choice(
            [
                f"010-{digits(rng, 4, '2345789')}-{d(4)}",
                f"+82 10-{digits(rng, 4, '2345789')}-{d(4)}",
                f"02-{digits(rng, 3, '2345')}-{d(4)}",
                f"010 {digits(rng, 4, '2345789')} {d(4)}",
            ]
        ),
        "ru": lambda: rng.choice(
            [
                f"+7 (9{rng.choice('0126')}{d(1)}) {d(3)}-{d(2)}-{d(2)}",
                f"8-9{rng.choice('0126')}{d(1)}-{d(3)}-{d(2)}-{d(2)}",
                f"+7 812 {d(3)} {d(2)} {d(2)}",
                f"89{rng.choice('0126')}{d(8)}",
            ]
        ),
        "ar": lambda: rng.choice(
            [
                f"+966 5{rng.choice('0345')} {d(3)} {d(4)}",
                f"05{rng.choice('0345')} {d(3)} {d(4)}",
                f"+971 5{rng.choice('0256')} {d(3)} {d(4)}",
                f"+971-4-{d(3)}-{d(4)}",
            ]
        ),
        "vi": lambda: rng.choice(
            [
                f"+84 9{rng.choice('0138')}{d(1)} {d(3)} {d(3)}",
                f"09{rng.choice('0138')}{d(1)} {d(3)} {d(3)}",
                f"0{rng.choice(['86', '97', '98', '32'])}{d(1)}.{d(3)}.{d(3)}",
                f"(028) {d(4)} {d(4)}",
            ]
        ),
    }
    v = opts[lang]()
    return v, v


# fmt: off
MONTH_NAMES = {
    "en": ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"],
    "de": ["Jan.", "Feb.", "März", "Apr.", "Mai", "Juni", "Juli", "Aug.", "Sept.", "Okt.", "Nov.", "Dez."],
    "fr": ["janv.", "févr.", "mars", "avr.", "mai", "juin", "juil.", "août", "sept.", "oct.", "nov.", "déc."],
    "es": ["ene.", "feb.", "mar.", "abr.", "may.", "jun.", "jul.", "ago.", "sept.", "oct.", "nov.", "dic."],
    "sv": ["januari", "februari", "mars", "april", "maj", "juni", "juli", "augusti", "september", "oktober", "november", "december"],
    "tr": ["Ocak", "Şubat", "Mart", "Nisan", "Mayıs", "Haziran", "Temmuz", "Ağustos", "Eylül", "Ekim", "Kasım", "Aralık"],
    "ru": ["января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа", "сентября", "октября", "ноября", "декабря"],
    "ar": ["يناير", "فبراير", "مارس", "أبريل", "مايو", "يونيو", "يوليو", "أغسطس", "سبتمبر", "أكتوبر", "نوفمبر", "ديسمبر"],
}
# fmt: on


def _date(rng: random.Random, lang: str, year: int) -> str:
    m, d = rng.randint(1, 12), rng.randint(1, 28)
    name = MONTH_NAMES.get(lang, [""] * 12)[m - 1]
    opts = {
        "en": [
            f"{d:02d}-{name}-{year}",
            f"{m}/{d}/{year}",
            f"{name} {d} {year}",
            f"{year}{m:02d}{d:02d}",
        ],
        "de": [f"{d}.{m}.{year}", f"{d}. {name} {year}", f"{d:02d}.{m:02d}.{year % 100:02d}"],
        "fr": [f"{d:02d}.{m:02d}.{year}", f"le {d} {name} {year}", f"{d}/{m}/{year}"],
        "es": [f"{d}-{m:02d}-{year}", f"{d} {name} {year}", f"{d:02d}/{m:02d}/{year}"],
        "sv": [f"{year}-{m:02d}-{d:02d}", f"{d} {name} {year}"],
        "tr": [f"{d:02d}.{m:02d}.{year}", f"{d} {name} {year}", f"{d:02d}/{m:02d}/{year}"],
        "ko": [
            f"{year}년 {m}월 {d}일",
            f"{year}.{m:02d}.{d:02d}",
            f"{year % 100:02d}{m:02d}{d:02d}",
        ],
        "ru": [f"{d:02d}.{m:02d}.{year}", f"{d} {name} {year} г.", f"{d:02d}.{m:02d}.{year}г."],
        "ar": [f"{d:02d}/{m:02d}/{year}", f"{d} {name} {year}م", f"{year}/{m:02d}/{d:02d}"],
        "vi": [f"{d:02d}/{m:02d}/{year}", f"ngày {d} tháng {m} năm {year}", f"{d}-{m}-{year}"],
    }[lang]
    return rng.choice(opts)


def _dob(rng: random.Random, lang: str, ctx: Ctx) -> tuple[str, str]:
    v = _date(rng, lang, rng.randint(1941, 2011))
    return v, v


def _passport(rng: random.Random, lang: str, ctx: Ctx) -> tuple[str, str]:
    d = lambda n: rand(rng, DIGITS, n)  # noqa: E731
    v = {
        "en": lambda: digits(rng, 9, "12345678"),
        "de": lambda: rng.choice("CFGHJK") + rand(rng, "CFGHJKLMNPRTVWXYZ" + DIGITS, 8),
        "fr": lambda: d(2) + rand(rng, UPPER, 2) + d(5),
        "es": lambda: rand(rng, UPPER, 3) + d(6),
        "sv": lambda: d(8),
        "tr": lambda: rng.choice("USZ") + d(8),
        "ko": lambda: rng.choice(["M", "S", "R"]) + d(8),
        "ru": lambda: f"{rng.choice(['72', '75', '76', '65'])} {d(7)}",
        "ar": lambda: rng.choice(["A", "K", "P", "N"]) + d(7),
        "vi": lambda: rng.choice("BCN") + d(7),
    }[lang]()
    return v, v


def _luhn_digit(body: str) -> str:
    """The Luhn digit when the first digit of ``body`` is doubled (Swedish personnummer)."""
    total = 0
    for i, ch in enumerate(body):
        n = int(ch) * (2 if i % 2 == 0 else 1)
        total += n - 9 if n > 9 else n
    return str((10 - total % 10) % 10)


def personnummer(rng: random.Random) -> str:
    year = rng.randint(1941, 2009)
    body = (
        f"{year % 100:02d}{rng.randint(1, 12):02d}{rng.randint(1, 28):02d}{rng.randint(0, 999):03d}"
    )
    n = body + _luhn_digit(body)
    return rng.choice([f"{n[:6]}-{n[6:]}", f"{year // 100}{n[:6]}-{n[6:]}", f"{year // 100}{n}"])


def tc_kimlik(rng: random.Random) -> str:
    ds = [rng.randint(1, 9)] + [rng.randint(0, 9) for _ in range(8)]
    ds.append(((ds[0] + ds[2] + ds[4] + ds[6] + ds[8]) * 7 - (ds[1] + ds[3] + ds[5] + ds[7])) % 10)
    ds.append(sum(ds) % 10)
    return "".join(map(str, ds))


def rrn(rng: random.Random) -> str:
    year = rng.randint(1950, 2009)
    body = f"{year % 100:02d}{rng.randint(1, 12):02d}{rng.randint(1, 28):02d}"
    body += str(rng.choice([1, 2]) if year < 2000 else rng.choice([3, 4])) + rand(rng, DIGITS, 5)
    weights = [2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5]
    check = (11 - sum(int(c) * w for c, w in zip(body, weights, strict=True)) % 11) % 10
    return f"{body[:6]}-{body[6:]}{check}"


def inn(rng: random.Random) -> str:
    ds = [int(c) for c in rng.choice(["77", "78", "50", "54", "66"]) + rand(rng, DIGITS, 8)]
    w1 = [7, 2, 4, 10, 3, 5, 9, 4, 6, 8]
    ds.append(sum(d * w for d, w in zip(ds, w1, strict=True)) % 11 % 10)
    w2 = [3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8]
    ds.append(sum(d * w for d, w in zip(ds, w2, strict=True)) % 11 % 10)
    return "".join(map(str, ds))


def emirates_id(rng: random.Random) -> str:
    n = gen.luhn_complete(f"784{rng.randint(1960, 2005)}{rand(rng, DIGITS, 7)}")
    return rng.choice([f"{n[:3]}-{n[3:7]}-{n[7:14]}-{n[14]}", n])


def saudi_id(rng: random.Random) -> str:
    return gen.luhn_complete(rng.choice("12") + rand(rng, DIGITS, 8))


def cccd(rng: random.Random) -> str:
    year = rng.randint(1950, 2006)
    century = (0 if year < 2000 else 2) + rng.randint(0, 1)
    return f"{rng.choice(['001', '079', '048', '031', '092'])}{century}{year % 100:02d}{rand(rng, DIGITS, 6)}"


def nie(rng: random.Random) -> str:
    lead = rng.choice("XYZ")
    body = rand(rng, DIGITS, 7)
    return f"{lead}{body}{'TRWAGMYFPDXBNJZSQVHLCKE'[int(str('XYZ'.index(lead)) + body) % 23]}"


NATIONAL: dict[str, Callable[[random.Random], str]] = {
    "nhs": gen.nhs_number,
    "nino": gen.nino,
    "steuer": gen.steuer_id,
    "nir": gen.nir,
    "dni": gen.dni,
    "nie": nie,
    "pnr": personnummer,
    "tckn": tc_kimlik,
    "rrn": rrn,
    "snils": gen.snils,
    "inn": inn,
    "eid": emirates_id,
    "saudi": saudi_id,
    "cccd": cccd,
}


def _natid(name: str) -> Maker:
    def make(rng: random.Random, lang: str, ctx: Ctx) -> tuple[str, str]:
        v = NATIONAL[name](rng)
        return v, v

    return make


def _ssn(rng: random.Random, lang: str, ctx: Ctx) -> tuple[str, str]:
    v = gen.ssn_value(rng)
    return v, v


def _card(rng: random.Random, lang: str, ctx: Ctx) -> tuple[str, str]:
    v = gen.format_card(gen.card_digits(rng), rng)
    return v, v


# IBAN layouts for the countries the earlier corpora lack; the BBAN is all digits in each.
IBAN_BBAN = {"SE": 20, "TR": 22, "SA": 20, "AE": 19, "DK": 14, "NO": 11, "FI": 14}
IBAN_HOME = {"en": "GB", "de": "DE", "fr": "FR", "es": "ES", "sv": "SE", "tr": "TR", "ar": "SA"}


def _iban_compact(rng: random.Random, lang: str, valid: bool = True) -> str:
    country = (
        IBAN_HOME.get(lang, "DE")
        if rng.random() < 0.7
        else rng.choice(["AE", "DK", "NO", "FI", "NL", "AT"])
    )
    if lang == "ar" and rng.random() < 0.4:
        country = "AE"
    if country in IBAN_BBAN:
        bban = rand(rng, DIGITS, IBAN_BBAN[country])
        if country == "TR":
            bban = bban[:5] + "0" + bban[6:]
    else:
        country, bban = gen.iban_parts(rng, country)
    check = gen.iban_check(country, bban)
    if not valid:
        good = check
        while check == good:
            check = f"{rng.randint(2, 98):02d}"
    return country + check + bban


def _group4(compact: str) -> str:
    return " ".join(compact[i : i + 4] for i in range(0, len(compact), 4))


def _iban(rng: random.Random, lang: str, ctx: Ctx) -> tuple[str, str]:
    compact = _iban_compact(rng, lang)
    v = _group4(compact) if rng.random() < 0.55 else compact
    return v, v


def _ip(rng: random.Random, lang: str, ctx: Ctx) -> tuple[str, str]:
    v = gen.public_ipv4(rng)
    return v, v


def _ip6(rng: random.Random, lang: str, ctx: Ctx) -> tuple[str, str]:
    prefix = rng.choice(
        [
            "2a00:1450",
            "2a03:2880",
            "2001:4860",
            "2c0f:fb50",
            "2400:cb00",
            "2a0d:5600",
            "2001:ee0",
            "2405:4800",
        ]
    )
    groups = [f"{rng.randrange(1, 0xFFFF):x}" for _ in range(4)]
    v = (
        f"{prefix}:{groups[0]}:{groups[1]}::{groups[2]}"
        if rng.random() < 0.5
        else f"{prefix}:{':'.join(groups)}:{rng.randrange(1, 0xFFF):x}:{rng.randrange(1, 0xFF):x}"
    )
    return v, v


# fmt: off
STREET = {
    "en": lambda r: f"{r.choice(['Flat 3, ', 'Apt 12B, ', 'Unit 7, ', ''])}{r.randint(3, 980)} {r.choice(['Larkspur', 'Thornbury', 'Quarry Hill', 'Juniper', 'Bellwood', 'Ashgrove'])} {r.choice(['Close', 'Crescent', 'Terrace', 'Way', 'Court', 'Parkway'])}",
    "de": lambda r: f"{r.choice(['Am Mühlbach', 'Rosenheimer Straße', 'Ulmenweg', 'Fasanenstr.', 'Im Wiesengrund', 'Brunnengasse'])} {r.randint(1, 140)}{r.choice(['', '', 'c', ' / 2. OG'])}",
    "fr": lambda r: f"{r.randint(2, 210)}{r.choice(['', ' ter'])}, {r.choice(['allée des Tilleuls', 'chemin de la Croix-Rouge', 'quai Saint-Vincent', 'place Bellecour', 'rue du Faubourg Saint-Denis', 'cours Mirabeau'])}",
    "es": lambda r: f"{r.choice(['C/ de Velázquez', 'Ronda de Segovia', 'Plaza de San Juan', 'Travesía del Olmo', 'Avda. de Andalucía', 'Camino Real'])} {r.randint(1, 190)}, {r.choice(['3º B', '1º izda.', 'bajo', '5º 2ª'])}",
    "sv": lambda r: f"{r.choice(['Storgatan', 'Drottninggatan', 'Björkvägen', 'Kungsgatan', 'Ringvägen', 'Tallstigen'])} {r.randint(1, 95)}{r.choice(['', ' A', ' B', ', lgh 1102'])}",
    "tr": lambda r: f"{r.choice(['Atatürk Cad.', 'Bağdat Caddesi', 'Cumhuriyet Mah. Gül Sok.', 'İstiklal Cad.', 'Kazım Karabekir Sok.'])} No:{r.randint(1, 220)}{r.choice(['', ' D:4', ' Daire 12', '/3'])}",
    "ko": lambda r: f"{r.choice(['서울특별시 강남구 테헤란로', '서울특별시 마포구 월드컵북로', '부산광역시 해운대구 센텀중앙로', '경기도 성남시 분당구 판교역로', '인천광역시 연수구 송도과학로'])} {r.randint(1, 400)}{r.choice(['', ', 101동 1203호', ' 5층'])}",
    "ru": lambda r: f"{r.choice(['пер. Чистый', 'наб. Фонтанки', 'ш. Энтузиастов', 'б-р Яна Райниса', 'ул. Малая Бронная', 'Невский пр.'])}, {r.choice(['д.', 'дом'])} {r.randint(1, 160)}{r.choice(['', ', корп. 2', ', стр. 1'])}, кв. {r.randint(1, 240)}",
    "ar": lambda r: f"{r.choice(['شارع الملك فهد', 'طريق الأمير سلطان', 'شارع العليا العام', 'شارع الشيخ زايد', 'حي النرجس، شارع'])} {r.randint(1, 900)}{r.choice(['', '، مبنى 4', '، شقة 12'])}",
    "vi": lambda r: f"{r.randint(1, 480)}{r.choice(['', '/12', ' Ngõ 5'])} {r.choice(['Nguyễn Huệ', 'Lê Lợi', 'Trần Hưng Đạo', 'Điện Biên Phủ', 'Hai Bà Trưng', 'Phố Huế'])}, {r.choice(['Phường Bến Nghé', 'Quận 3', 'Quận Hoàn Kiếm', 'Phường 7'])}",
}
# fmt: on


def _street(rng: random.Random, lang: str, ctx: Ctx) -> tuple[str, str]:
    v = STREET[lang](rng)
    return v, v


# --- secrets ---------------------------------------------------------------------------------


def _gen(make: Callable[[random.Random], gen.Item]) -> Maker:
    def wrap(rng: random.Random, lang: str, ctx: Ctx) -> tuple[str, str]:
        v = make(rng).value
        return v, v

    return wrap


def _pypi(rng: random.Random, lang: str, ctx: Ctx) -> tuple[str, str]:
    """A PyPI upload token: a macaroon with a fixed base64 head."""
    v = "pypi-AgEIcHlwaS5vcmc" + rand(rng, URLSAFE, rng.choice([60, 120, 160]))
    return v, v


def _password(rng: random.Random, lang: str, ctx: Ctx) -> tuple[str, str]:
    word = {
        "sv": ["Sommarstuga", "Kanelbulle", "Midsommar"],
        "tr": ["Galatasaray", "Karadeniz", "Bogazici"],
        "ko": ["Saranghae", "Hangang", "Kimchi"],
        "ru": ["Zenit", "Matryoshka", "Spartak"],
        "ar": ["Falcon", "Riyadh", "Sahara"],
        "vi": ["Saigon", "HaLong", "PhoBo"],
        "de": ["Schwarzwald", "Bergfex", "Fussball"],
        "fr": ["Soleil", "Bretagne", "Chocolat"],
        "es": ["Sevilla", "Tortilla", "Flamenco"],
        "en": ["Buttercup", "Riverside", "Lighthouse"],
    }[lang]
    r = rng.randrange(3)
    if r == 0:
        v = f"{rng.choice(word)}{rng.choice(['@', '#', '!', '_', '.'])}{rng.randint(10, 2024)}"
    elif r == 1:
        v = rand(rng, ALNUM, rng.randint(9, 14)) + rand(rng, "!@#%^*-+=", 1) + rand(rng, ALNUM, 2)
    else:
        v = f"{rng.choice(word).lower()}{rand(rng, DIGITS, 2)}{rng.choice(word)}{rand(rng, '!?$%', 1)}"
    return v, v


def _dbpass(rng: random.Random, lang: str, ctx: Ctx) -> tuple[str, str]:
    """A password fit for a URL's user-info part (the template writes the rest of the URL)."""
    v = (
        rand(rng, ALNUM, rng.randint(14, 24))
        + rand(rng, "-_~.", 1)
        + rand(rng, ALNUM, rng.randint(2, 6))
    )
    return v, v


def _bearer(rng: random.Random, lang: str, ctx: Ctx) -> tuple[str, str]:
    r = rng.randrange(3)
    if r == 0:
        v = rand(rng, ALNUM, rng.choice([32, 40, 48]))
    elif r == 1:
        v = "ya29.a0" + rand(rng, URLSAFE, 140)
    else:
        v = "EAAG" + rand(rng, ALNUM, 180)
    return v, v


def _basic(rng: random.Random, lang: str, ctx: Ctx) -> tuple[str, str]:
    user = rng.choice(["jenkins", "svc-backup", "grafana", "apiuser", "monitor"])
    pw = _password(rng, lang, ctx)[0]
    v = base64.b64encode(f"{user}:{pw}".encode()).decode()
    return v, v


def _xkey(rng: random.Random, lang: str, ctx: Ctx) -> tuple[str, str]:
    v = rand(rng, HEX, 32) if rng.random() < 0.5 else rand(rng, ALNUM, 40)
    return v, v


def _session(rng: random.Random, lang: str, ctx: Ctx) -> tuple[str, str]:
    r = rng.randrange(4)
    if r == 0:
        v = rand(rng, LOWER + DIGITS, 32)
    elif r == 1:
        v = rand(rng, "0123456789ABCDEF", 32)
    elif r == 2:
        v = "s%3A" + rand(rng, URLSAFE, 32) + "." + rand(rng, ALNUM + "%", 44)
    else:
        v = rand(rng, URLSAFE, 43)
    return v, v


def _aws_secret(rng: random.Random, lang: str, ctx: Ctx) -> tuple[str, str]:
    v = rand(rng, B64, 40)
    return v, v


def _akia(rng: random.Random, lang: str, ctx: Ctx) -> tuple[str, str]:
    v = "AKIA" + rand(rng, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)
    return v, v


# --- look-alikes that must survive -------------------------------------------------------------


def _k_masked(rng: random.Random, lang: str) -> str:
    last = rand(rng, DIGITS, 4)
    return rng.choice(
        [
            f"**** **** **** {last}",
            f"XXXX-XXXX-XXXX-{last}",
            f"•••• {last}",
            f"{rng.choice(['4', '5'])}{rand(rng, DIGITS, 5)}******{last}",
        ]
    )


def _k_luhn_fail(rng: random.Random, lang: str) -> str:
    n = gen.card_digits(rng)
    n = n[:-1] + str((int(n[-1]) + rng.randint(1, 9)) % 10)
    return gen.format_card(n, rng)


def _k_iban_fail(rng: random.Random, lang: str) -> str:
    compact = _iban_compact(rng, lang, valid=False)
    return _group4(compact) if rng.random() < 0.5 else compact


def _k_placeholder(rng: random.Random, lang: str) -> str:
    return rng.choice(
        [
            "${NPM_TOKEN}",
            "{{ vault_db_password }}",
            "<REDACTED>",
            "${env:PYPI_TOKEN}",
            "{{apiKey}}",
            "<paste-token-here>",
            "$(cat /run/secrets/db_pw)",
            "********",
            "lookup('env', 'DEPLOY_KEY')",
            "{{ .Values.global.secretRef }}",
            "%DB_PASS%",
            "•••••••••",
        ]
    )


def _k_example_email(rng: random.Random, lang: str) -> str:
    return rng.choice(
        [
            "jane.roe@example.com",
            "dpo@example.org",
            "alerts@example.net",
            "first.last@company.example",
            "ops-team@localhost",
            "user@host.invalid",
        ]
    )


def _k_reserved_ip(rng: random.Random, lang: str) -> str:
    return rng.choice(
        [
            "192.0.2.",
            "198.51.100.",
            "203.0.113.",
            "10.20.0.",
            "172.18.0.",
            "100.64.3.",
            "192.168.50.",
        ]
    ) + str(rng.randint(2, 250))


def _k_sha(rng: random.Random, lang: str) -> str:
    return rand(rng, HEX, rng.choice([7, 12, 40]))


def _k_digest(rng: random.Random, lang: str) -> str:
    return "sha256:" + rand(rng, HEX, 64)


def _k_integrity(rng: random.Random, lang: str) -> str:
    return "sha512-" + base64.b64encode(bytes(rng.getrandbits(8) for _ in range(64))).decode()


def _k_uuid(rng: random.Random, lang: str) -> str:
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def _k_event_id(rng: random.Random, lang: str) -> str:
    return rand(rng, HEX, 32)


def _k_trace(rng: random.Random, lang: str) -> str:
    return digits(rng, 19, "123456789")


def _k_pubkey(rng: random.Random, lang: str) -> str:
    return "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + rand(rng, B64, 43)


def _k_fingerprint(rng: random.Random, lang: str) -> str:
    return "SHA256:" + rand(rng, B64, 43)


def _k_meeting(rng: random.Random, lang: str) -> str:
    return f"{digits(rng, 3, '89')} {rand(rng, DIGITS, 4)} {rand(rng, DIGITS, 4)}"


def _k_ticket(rng: random.Random, lang: str) -> str:
    return f"{rng.choice(['OPS', 'PAY', 'SRE', 'CRM', 'HR', 'INC'])}-{rng.randint(100, 9999)}"


def _k_order(rng: random.Random, lang: str) -> str:
    return rng.choice(
        [
            f"INV-{rng.randint(2021, 2025)}-{rand(rng, DIGITS, 6)}",
            f"PO {rand(rng, DIGITS, 10)}",
            f"Ref. {rand(rng, UPPER, 3)}{rand(rng, DIGITS, 8)}",
            f"#{rand(rng, DIGITS, 9)}",
        ]
    )


def _k_version(rng: random.Random, lang: str) -> str:
    return rng.choice(
        [
            f"v{rng.randint(0, 9)}.{rng.randint(0, 40)}.{rng.randint(0, 30)}",
            f"{rng.randint(1, 3)}.{rng.randint(0, 30)}.{rng.randint(0, 9)}-alpine",
            f"{rng.randint(2019, 2025)}.{rng.randint(1, 12)}.{rng.randint(1, 9)}",
        ]
    )


def _k_bic(rng: random.Random, lang: str) -> str:
    return rng.choice(
        [
            "ESSESESS",
            "SWEDSESS",
            "TGBATRIS",
            "AKBKTRIS",
            "DEUTDEFFXXX",
            "BNPAFRPP",
            "CAIXESBBXXX",
            "NCBKSAJE",
            "EBILAEAD",
            "BFTVVNVX",
            "SABRRUMM",
            "HVBKKRSE",
            "NWBKGB2L",
        ]
    )


def _k_vat(rng: random.Random, lang: str) -> str:
    return rng.choice(
        [
            f"SE{rand(rng, DIGITS, 10)}01",
            f"DE{digits(rng, 9, '123456789')}",
            f"FR{rand(rng, DIGITS, 2)}{rand(rng, DIGITS, 9)}",
            f"ESB{rand(rng, DIGITS, 8)}",
            f"GB{rand(rng, DIGITS, 9)}",
        ]
    )


def _k_price(rng: random.Random, lang: str) -> str:
    a = rng.randint(12, 98_000)
    c = rng.randint(0, 99)
    return {
        "en": f"£{a:,}.{c:02d}",
        "de": f"{a:,} €".replace(",", "."),
        "fr": f"{a:,},{c:02d} €".replace(",", " ", 1) if a >= 1000 else f"{a},{c:02d} €",
        "es": f"{a:,},{c:02d} €".replace(",", ".", 1) if a >= 1000 else f"{a},{c:02d} €",
        "sv": f"{a:,} kr".replace(",", " "),
        "tr": f"₺{a:,},{c:02d}".replace(",", ".", 1) if a >= 1000 else f"₺{a},{c:02d}",
        "ko": f"₩{a * 100:,}",
        "ru": f"{a:,} ₽".replace(",", " "),
        "ar": f"{a:,}.{c:02d} ر.س",
        "vi": f"{a * 1000:,} ₫".replace(",", "."),
    }[lang]


def _k_when(rng: random.Random, lang: str) -> str:
    """A date that is not anyone's birthday: an appointment, a due date, a billing period."""
    return _date(rng, lang, rng.randint(2023, 2026))


def _k_tracking(rng: random.Random, lang: str) -> str:
    return rng.choice(
        [
            f"1Z{rand(rng, UPPER + DIGITS, 16)}",
            f"{rand(rng, UPPER, 2)}{rand(rng, DIGITS, 9)}SE",
            f"JD{rand(rng, DIGITS, 18)}",
        ]
    )


def _k_port(rng: random.Random, lang: str) -> str:
    return f"{_k_reserved_ip(rng, lang)}:{rng.choice([5432, 6443, 8080, 9092, 27017])}"


# --- templates -------------------------------------------------------------------------------
# «slot» is a value that must go, «=slot» a look-alike that must stay; a digit after the slot
# («name2») is a second, different value of that slot; the same slot and digit repeat a value.

# fmt: off
TEMPLATES: list[tuple[str, str, str]] = [
    ("discharge_letter", "en", """ST ALBAN'S GENERAL HOSPITAL — DISCHARGE SUMMARY
Patient: «name_lf»    DOB: «dob»    NHS No: «nhs»
Home address: «addr», Leeds LS6
Admitted 14:20 via A&E, discharged «=when». Ward 22, bay 3.
Diagnosis: community-acquired pneumonia (CURB-65 = 1). Amoxicillin 500 mg TDS x 5/7.
Next of kin: «name2» (daughter) — «phone»
Follow-up: GP review in 2 weeks; chest X-ray repeat booked «=when2».
Letter ref «=order» — cc: patient, GP practice."""),
    ("payroll_slip", "en", """EARNINGS STATEMENT          Pay date: «=when»     Check No. «=order»
Employee: «name»                     SSN: «ssn»
Address: «addr», Columbus OH 43215
Gross pay .......... «=price»
Federal W/H ........ «=price2»
Direct deposit to acct at routing 0210-0002-1, confirmation «=uuid»
Questions? payroll@example.com or call «phone»"""),
    ("police_report", "en", """INCIDENT REPORT #«=ticket» — Officer badge 4471
Reporting party: «name», DOB «dob», SSN «ssn»
Residence: «addr»; contact «phone»
Narrative: RP states their wallet was taken from a parked vehicle. The wallet held a debit card ending «=masked» and an old passport («passport»).
RP later saw a charge attempt on card «card» at a fuel station. Case referred to CID, evidence tag «=order»."""),
    ("insurance_claim", "en", """Claim intake (phone) — adjuster notes
Policyholder «name» called re: water damage at «addr».
Verified identity with DOB «dob» and last four of SSN; full SSN on file «ssn».
Refund of deductible to be paid by card «card» per caller. Claim no. «=order», reserve «=price».
Callback «phone» after 5pm. Email «email»."""),
    ("pagerduty_alert", "en", """[Triggered] #«=ticket» HighErrorRate api-gateway (prod-eu)
Service: checkout-api   Urgency: high   Escalation: SRE Primary
Details: 5xx ratio 14.2% over 5m from client «ip»; upstream «=port»
Runbook step 3 says: curl -s -H "X-Api-Key: «xkey»" https://status-internal.example/api/health
Assigned to «name» («phone») — ack within 15 min."""),
    ("sentry_event", "en", """{
  "event_id": "«=event»",
  "level": "error",
  "exception": {"values": [{"type": "KeyError", "value": "'cart_id'"}]},
  "user": {"id": "48213", "email": "«email»", "ip_address": "«ip»", "username": "«name»"},
  "request": {
    "url": "https://shop.example/api/cart",
    "headers": {"Authorization": "Bearer «jwt»", "Cookie": "lang=en; sessionid=«sess»"}
  },
  "release": "«=ver»"
}"""),
    ("datadog_log", "en", """{"timestamp":"2025-03-04T09:12:44.918Z","service":"billing-worker","status":"warn","dd.trace_id":"«=trace»","network.client.ip":"«ip»","usr.email":"«email»","message":"retrying stripe call with key «apikey» (attempt 3/5)"}
{"timestamp":"2025-03-04T09:12:45.102Z","service":"billing-worker","status":"info","dd.trace_id":"«=trace»","message":"charge ok for card fingerprint «=event», amount «=price»"}"""),
    ("shell_transcript", "en", """ubuntu@ip-10-0-4-21:~$ aws configure --profile prod
AWS Access Key ID [None]: «akia»
AWS Secret Access Key [None]: «awssec»
Default region name [None]: eu-west-1
Default output format [None]: json
ubuntu@ip-10-0-4-21:~$ ssh-keygen -lf ~/.ssh/id_ed25519.pub
256 «=fp» ubuntu@bastion (ED25519)
ubuntu@ip-10-0-4-21:~$ mysql -h «ip» -u reporting -p'«pw»' analytics -e 'select 1'"""),
    ("npmrc", "en", """# ~/.npmrc — copied from the build agent, do not commit
registry=https://registry.npmjs.org/
//registry.npmjs.org/:_authToken=«apikey»
@acme:registry=https://npm.pkg.github.com/
//npm.pkg.github.com/:_authToken=«=ph»
always-auth=true
# lockfile integrity of left-pad for reference: «=integrity»"""),
    ("pypirc_netrc", "en", """==> ~/.pypirc <==
[distutils]
index-servers = pypi testpypi

[pypi]
username = __token__
password = «pypi»

[testpypi]
username = __token__
password = «=ph»

==> ~/.netrc <==
machine git.internal.example login ci-bot password «pw»
machine artifacts.example.net login «email» password «=ph2»"""),
    ("ssh_config", "en", """Host bastion-prod
    HostName «ip»
    User ec2-user
    IdentityFile ~/.ssh/prod.pem
    ProxyJump none

Host db-tunnel
    HostName «=rip»
    LocalForward 5433 localhost:5432
    ProxyJump bastion-prod

# the prod.pem the contractor sent over Slack:
«pem»
# their public key for authorized_keys: «=pubkey» contractor"""),
    ("postman_env", "en", """{
  "id": "«=uuid»",
  "name": "Payments – Staging",
  "values": [
    {"key": "baseUrl", "value": "https://api.staging.example", "enabled": true},
    {"key": "adminEmail", "value": "«email»", "enabled": true},
    {"key": "adminPassword", "value": "«pw»", "type": "secret", "enabled": true},
    {"key": "accessToken", "value": "«jwt»", "type": "secret", "enabled": true},
    {"key": "webhookSecret", "value": "«secret»", "type": "secret", "enabled": true},
    {"key": "apiKey", "value": "«=ph»", "enabled": false}
  ],
  "_postman_variable_scope": "environment"
}"""),
    ("openapi_example", "en", """paths:
  /v2/customers/{id}:
    get:
      security: [{bearerAuth: []}]
      parameters:
        - in: header
          name: Authorization
          example: Bearer «bearer»
      responses:
        '200':
          content:
            application/json:
              example:
                id: cus_«=sha»
                name: «name»
                email: «email»
                phone: "«phone»"
                billing_address: «addr»
                created: «=when»"""),
    ("email_signature", "en", """Thanks, and speak Thursday.

--
«name»
Head of Partnerships | Kestrel Surveys Ltd
M: «phone»  |  E: «email»
«addr», Bristol BS1 4DJ
Registered in England & Wales no. 08812234 · VAT «=vat»
This e-mail and any attachments are confidential."""),
    ("vcard", "en", """BEGIN:VCARD
VERSION:3.0
N:«name_lf»;;;
FN:«name»
ORG:Oakhollow Trust
TEL;TYPE=CELL:«phone»
EMAIL;TYPE=HOME:«email»
ADR;TYPE=HOME:;;«addr»;Portland;OR;97205;USA
BDAY:«dob»
NOTE:SSN for the trust paperwork «ssn»
UID:«=uuid»
END:VCARD"""),
    ("calendar_invite", "en", """BEGIN:VEVENT
DTSTART:20250611T150000Z
SUMMARY:Quarterly review with «name»
ORGANIZER;CN=«name2»:mailto:«email2»
ATTENDEE;CN=«name»;ROLE=REQ-PARTICIPANT:mailto:«email»
LOCATION:«addr»
DESCRIPTION:Join by phone «phone» — Meeting ID: «=meeting» — passcode 4471\\nRoom booking «=ticket»
END:VEVENT"""),
    ("voice_assistant", "en", """[Assistant transcript, kitchen speaker, 07:42]
USER: add to my notes, the new card is «card», expiry oh nine twenty eight
ASSISTANT: Okay, I've added that to your notes.
USER: and the wifi password for the cabin is «pw»
ASSISTANT: Got it. Anything else?
USER: my passport number is «passport», renew before «=when»
ASSISTANT: Saved. I'll remind you a month before."""),
    ("bank_statement", "en", """NORTHGATE BANK plc — Statement of account
Account holder: «name»
«addr», Manchester M14 5RT
IBAN: «iban»   BIC: «=bic»
Period: 01/05/2025 – 31/05/2025        Opening balance «=price»
03 May  CARD PURCHASE  TESCO STORES 2231  card «=masked»   -23.40
09 May  FASTER PAYMENT TO SAVINGS ref «=order»         -120.00
18 May  REFUND to «card» (chargeback)                       +64.99"""),
    ("jira_comment", "en", """[~«name»] I could reproduce OPS issue «=ticket» with the customer's account:
- login: «email»
- they connect from «ip6» (home ISP), our WAF blocked «ip»
- HAR export shows `Cookie: __Host-session=«sess»` being sent twice
Attaching the HAR minus the Authorization header. Build «=sha» on staging."""),
    ("school_record", "en", """LINCOLN PARK MIDDLE SCHOOL — Student Enrollment Record
Student: «name_lf»        Grade 7        Student ID «=order»
Date of birth: «dob»      SSN (optional): «ssn»
Home address: «addr»
Parent/guardian: «name2», cell «phone», email «email2»
Immunizations verified «=when». Bus route 14."""),
    ("crm_export", "en", """contact_id,full_name,email,mobile,street,dob,owner,last_touch
«=uuid»,«name»,«email»,«phone»,"«addr»",«dob»,«=exmail»,«=when»
«=uuid2»,«name2»,«email2»,«phone2»,"«addr2»",,«=exmail»,«=when2»"""),
    ("helm_values", "en", """# values-prod.yaml (override)
image:
  repository: ghcr.io/acme/orders
  tag: «=ver»
  digest: «=digest»
postgresql:
  auth:
    username: orders
    password: «pw»
externalDatabase:
  url: postgresql://orders:«dbpw»@orders-db.prod.internal:5432/orders?sslmode=require
build:
  commit: «=sha»
stripe:
  secretKey: «apikey»
  webhookSecret: «secret»"""),
    ("ansible_inventory", "en", """[web]
web-01 ansible_host=«ip» ansible_user=deploy
web-02 ansible_host=«ip2» ansible_user=deploy

[db]
db-01 ansible_host=«=rip» ansible_become_password=«pw»

[all:vars]
ansible_ssh_private_key_file=~/.ssh/deploy
vault_db_password="{{ «=ph» }}"
smtp_relay_url=smtp://mailer:«dbpw»@smtp.relay.example:587"""),
    ("cloud_console", "en", """Access keys  (1 of 2)   Create access key
Access key ID           Status    Created      Last used
«akia»    Active    «=when»   2 hours ago (us-east-1, s3)

Secret access key
«awssec»
This is the only time the secret access key can be viewed or downloaded.
Console sign-in link: https://acme-prod.signin.aws.amazon.com/console   user: «email»"""),
    ("confluence_runbook", "en", """h2. Restoring the reporting replica
||Step||Command||Owner||
|1|pg_basebackup -h «ip» -U replicator -D /var/lib/pgsql/16/data|«name»|
|2|export PGPASSWORD='«pw»'|DBA on call|
|3|psql "postgres://admin:«dbpw»@reporting-db.internal/app" -c 'select pg_is_in_recovery()'|«name»|
{info}Escalate to «name2» on «phone» if the restore takes longer than 40 min. Ticket «=ticket».{info}"""),
    ("http_raw", "en", """Pasted from Burp, request that triggered the 500:

POST /api/v1/export HTTP/1.1
Host: admin.acme-internal.example
Authorization: Basic «basic»
Cookie: JSESSIONID=«sess»; lang=en
X-Request-Id: «=uuid»
X-Forwarded-For: «ip», «=rip»
Content-Type: application/json

{"format":"csv","owner":"«email»"}"""),

    ("tfvars", "en", """# terraform.tfvars — prod (gitignored, shared over Slack on «=when»)
okta_client_secret = "«secret»"
github_app_private_key = <<EOT
«pem»
EOT
bootstrap_token    = "«jwt»"
state_bucket_kms   = "«=ph»"
"""),
    ("w9_chat", "en", """[10:02] contractor: here's what accounting asked for — SSN «ssn», and the W-9 goes to «=exmail»
[10:03] me: thanks. also the staging login token expired, new one: «jwt»
[10:05] contractor: and the cookie you need for the portal is remember_me=«sess»
[10:06] me: 👍 ticket «=ticket»"""),
    ("gitlab_ci_log", "en", """$ echo "Deploying «=sha» to prod"
$ curl -sf -H "PRIVATE-TOKEN: «apikey»" -H "Authorization: Bearer «bearer»" https://deploy.example/api/v4/release
$ export SIGNING_SECRET=«secret»
$ openssl rsa -in deploy.key -check   # deploy.key below, printed by mistake
«pem»
Job succeeded"""),
    ("har_excerpt", "en", """"request": {"method": "GET", "url": "https://portal.example/api/me",
  "headers": [{"name": "Authorization", "value": "Bearer «jwt»"}, {"name": "x-api-key", "value": "«xkey»"}],
  "cookies": [{"name": "sid", "value": "«sess»", "httpOnly": true}, {"name": "ab_test", "value": "«=uuid»"}]},
"serverIPAddress": "«=rip»", "note": "caller SSN «ssn»"}"""),
    ("krankenhaus_entlassbrief", "de", """Klinikum Nord — Entlassungsbericht
Patientin: «name», geb. «dob»
Anschrift: «addr», 50667 Köln
Steuer-ID (für die Beihilfe): «steuer»
Rückfragen an Angehörige: «name2», Tel. «phone»
Wiedervorstellung am «=when» in der Ambulanz. Fallnummer «=order»."""),
    ("lohnabrechnung", "de", """Entgeltabrechnung 05/2025   Personalnr. 004182
«name_lf»
«addr»
Steuer-ID «steuer»   SV-Nr. siehe Anlage
Auszahlung auf IBAN «iban» (BIC «=bic»)   Netto «=price»
Bei Fragen: lohn@example.org"""),
    ("jira_kommentar_de", "de", """@«name» Kunde meldet, dass der Login hängt. Aus dem HAR:
  Cookie: PHPSESSID=«sess»
  Authorization: Bearer «bearer»
Client-IP laut Nginx: «ip», Build «=sha». Ich habe das Ticket «=ticket» verlinkt.
Kontakt Kunde: «email» / «phone»"""),
    ("helm_de", "de", """# values.yaml – Staging (bitte nicht ins Repo!)
redis:
  auth:
    password: «pw»   # alt: «=ph»
mailer:
  smtpUrl: smtps://noreply:«dbpw»@mail.example.de:465
github:
  token: «apikey»
jwtSigningKey: «secret»"""),
    ("sachverstaendiger_bericht", "de", """Schadensmeldung Kfz – Versicherungsnummer «=order»
Versicherungsnehmer: «name», geboren am «dob», Reisepass «passport»
Wohnhaft: «addr», 80331 München
Erstattung bitte an «iban». Rückruf unter «phone».
Gutachtertermin: «=when»."""),
    ("lettre_sortie", "fr", """CENTRE HOSPITALIER DE LYON SUD — Compte rendu de sortie
Patiente : «name_lf», née le «dob»
N° de sécurité sociale : «nir»
Domicile : «addr», 69003 Lyon — tél. «phone»
Sortie le «=when», rendez-vous de contrôle le «=when2». Dossier «=order»."""),
    ("bulletin_paie", "fr", """BULLETIN DE PAIE — période «=when»
Salarié : «name»   Matricule 2291   N° SS «nir»
Adresse : «addr»
Virement sur «iban» — BIC «=bic» — net à payer «=price»
Contact RH : «=exmail»"""),
    ("pagerduty_fr", "fr", """[Déclenché] Latence élevée sur paiements-api (#«=ticket»)
Astreinte : «name» — «phone»
Origine du trafic : «ip» (bloquée par le WAF), réplique «=port»
Commande de diag collée par l'astreinte :
curl -u admin:«pw» https://grafana.interne.example/api/health
Jeton de service utilisé dans le job : «jwt»"""),
    ("pypirc_fr", "fr", """# Fichier ~/.pypirc du poste de build (à régénérer !)
[pypi]
username = __token__
password = «pypi»
# ancien jeton révoqué : «=ph»
# connexion au dépôt interne : https://ci:«dbpw»@nexus.interne.example/repository/pypi/"""),
    ("carte_visite", "fr", """Cordialement,
«name»
Chargée de clientèle — Cabinet Perrin & Associés
«addr», 75010 Paris
Ligne directe «phone» · «email»
Passeport (pour le visa du séminaire) : «passport»
TVA intracom. «=vat»"""),
    ("informe_alta", "es", """HOSPITAL UNIVERSITARIO LA PAZ — Informe de alta
Paciente: «name», fecha de nacimiento «dob», DNI «dni»
Domicilio: «addr», 28046 Madrid
Teléfono de contacto: «phone»
Próxima cita: «=when». Nº de historia «=order»."""),
    ("nomina", "es", """NÓMINA — «=when»
Trabajador/a: «name_lf»   NIE «nie»
Domicilio: «addr»
Líquido a percibir «=price», ingresado en la cuenta «iban»
Dudas: rrhh@example.es"""),
    ("confluence_es", "es", """Runbook: rotación de credenciales del ERP
1. Entrar al bastión «ip» con la clave que dejó «name» en el gestor.
2. Cadena de conexión actual: mysql://erp_app:«dbpw»@erp-db.interno:3306/erp
3. Token de la API de facturación: «apikey»
4. Si falla, avisar a «name2» al «phone».
Referencia del cambio «=ticket»."""),
    ("asistente_voz", "es", """[Transcripción del asistente, salón]
USUARIO: apunta que la tarjeta nueva es la «card»
ASISTENTE: Hecho, lo he guardado en tus notas.
USUARIO: y que la contraseña del router es «pw»
ASISTENTE: Guardado. Recuerda que el pedido «=order» llega el «=when»."""),
    ("utskrivningsbrev", "sv", """Region Stockholm — Utskrivningsmeddelande
Patient: «name», personnummer «pnr»
Adress: «addr», 113 45 Stockholm
Anhörig: «name2», tel «phone»
Återbesök «=when» på vårdcentralen. Remiss-ID «=order»."""),
    ("lonespecifikation", "sv", """LÖNESPECIFIKATION  april
Anställd: «name_lf»   Personnr: «pnr»
«addr»
Utbetalning till konto «iban» (BIC «=bic»)  Netto «=price»
Frågor: lon@example.se"""),
    ("skolregister", "sv", """Elevkort — Björkskolan, klass 6B
Elev: «name»   Födelsedatum: «dob»
Vårdnadshavare: «name2», «email2», «phone»
Hemadress: «addr»
Pass (för klassresan): «passport». Resan bokad «=when», pris «=price»."""),
    ("netrc_sv", "sv", """# ~/.netrc från byggservern — byt lösenorden!
machine git.foretaget.se login byggbot password «pw»
machine api.heroku.com login «email» password «=ph»
# Deploy-token för registret: «apikey»
# och databasen: postgres://bygg:«dbpw»@db.foretaget.se/prod"""),
    ("e_devlet_basvuru", "tr", """Başvuru formu — Kimlik bilgileri
Ad Soyad: «name»
T.C. Kimlik No: «tckn»
Doğum tarihi: «dob»
Adres: «addr», Kadıköy / İstanbul
Cep: «phone» — E-posta: «email»
Başvuru no «=order», randevu «=when»."""),
    ("banka_dekontu", "tr", """HESAP EKSTRESİ — «=when»
Müşteri: «name_lf»
IBAN: «iban»   SWIFT: «=bic»
Kart no: «card» — Dönem borcu «=price»
Müşteri hizmetleri: 0850 222 0 800"""),
    ("sunucu_notlari", "tr", """Sunucu notları (ekip içi)
- prod sunucusu: «ip», kullanıcı deploy, şifre «pw»
- Grafana için header: Authorization: Basic «basic»
- Slack bot token: «apikey»
- Yedek sorumlusu «name», cep «phone». Talep «=ticket»."""),
    ("sigorta_raporu", "tr", """Kaza tespit tutanağı — poliçe «=order»
Sürücü: «name», doğum tarihi «dob», pasaport no «passport»
Adres: «addr»
Hasar bedeli IBAN'a ödenecek: «iban»"""),
    ("퇴원요약지", "ko", """서울대학교병원 퇴원 요약지
환자명: «name»   주민등록번호: «rrn»
생년월일: «dob»
주소: «addr»
보호자: «name2» («phone»)
외래 예약: «=when», 진료비 «=price»"""),
    ("급여명세서", "ko", """2025년 5월 급여명세서
성명: «name»   사번 20391
주민번호 «rrn»
실수령액 «=price» — 입금 계좌는 인사팀 보관
문의: «=exmail»"""),
    ("장애보고", "ko", """[장애 보고] 결제 API 5xx 급증 («=ticket»)
- 원인 IP: «ip» (해외), 내부 «=port»
- 임시 조치 시 사용한 관리자 토큰: Bearer «bearer»
- 세션 쿠키 유출 의심: SESSION=«sess»
- 담당: «name» / «email» / «phone»"""),
    ("여권갱신_메모", "ko", """여권 갱신 메모
여권번호 «passport», 만료 «=when»
카드 결제: «card»
배송지: «addr», 받는 사람 «name»"""),
    ("выписка_из_больницы", "ru", """ГБУЗ «Городская больница № 40» — выписной эпикриз
Пациент: «name», дата рождения «dob»
СНИЛС: «snils»
Адрес: «addr», Санкт-Петербург
Контактный телефон: «phone»
Явка на приём «=when». Номер карты больного «=order»."""),
    ("расчётный_листок", "ru", """Расчётный листок за май
Сотрудник: «name»   ИНН «inn»
Паспорт «passport»
К выплате «=price» на карту «card»
Вопросы: «=exmail»"""),
    ("ansible_ru", "ru", """# inventory/prod.ini — спросить у «name» перед правкой
[app]
app-1 ansible_host=«ip» ansible_password=«pw»
app-2 ansible_host=«=rip»

[all:vars]
registry_token=«apikey»
db_url=postgresql://app:«dbpw»@pg.prod.local:5432/app
# старый пароль: «=ph»"""),
    ("заявление_полиция", "ru", """Заявление в ОМВД по району Хамовники
От «name», проживающего по адресу: «addr»
Тел.: «phone», e-mail: «email»
Прошу принять меры: с моей карты «card» списано «=price» без моего ведома.
Номер обращения в банк «=order»."""),
    ("تقرير_خروج", "ar", """مستشفى الملك فيصل التخصصي — ملخص الخروج
اسم المريض: «name»
رقم الهوية الوطنية: «saudi»
تاريخ الميلاد: «dob»
العنوان: «addr»، الرياض
الجوال: «phone»
موعد المراجعة: «=when» — رقم الملف «=order»"""),
    ("كشف_راتب", "ar", """كشف راتب شهر مايو
الموظف: «name»
رقم الهوية الإماراتية: «eid»
الراتب الصافي «=price» — يحوَّل إلى الآيبان «iban»
رمز السويفت «=bic»"""),
    ("ملاحظات_الخادم", "ar", """ملاحظات الفريق التقني
- عنوان الخادم: «ip»
- كلمة المرور لحساب root: «pw»
- مفتاح واجهة البرمجة: «apikey»
- رمز الجلسة: «jwt»
- المسؤول: «name» — «email»"""),
    ("طلب_تأشيرة", "ar", """طلب تأشيرة — بيانات المسافر
الاسم: «name»
رقم جواز السفر: «passport»
تاريخ الميلاد: «dob»
البطاقة المستخدمة للدفع: «card»
رقم الطلب «=order»"""),
    ("giay_ra_vien", "vi", """BỆNH VIỆN BẠCH MAI — GIẤY RA VIỆN
Họ tên người bệnh: «name»
Ngày sinh: «dob»
Số CCCD: «cccd»
Địa chỉ: «addr», Hà Nội
Điện thoại: «phone»
Hẹn tái khám «=when». Mã hồ sơ «=order»."""),
    ("phieu_luong", "vi", """PHIẾU LƯƠNG THÁNG 5
Nhân viên: «name»   CCCD «cccd»
Thực lĩnh «=price» — chuyển khoản qua thẻ «card»
Email: «email»"""),
    ("ghi_chu_devops", "vi", """Ghi chú devops (nội bộ)
- Máy chủ staging: «ip», user ubuntu, mật khẩu «pw»
- Header gọi API đối tác: X-Api-Key: «xkey»
- Cookie phiên admin: connect.sid=«sess»
- Khóa riêng để deploy:
«pem»
- Liên hệ: «name» «phone»"""),
    ("don_bao_hiem", "vi", """ĐƠN YÊU CẦU BỒI THƯỜNG — hợp đồng «=order»
Người yêu cầu: «name», hộ chiếu «passport»
Địa chỉ: «addr»
Email: «email», IP gửi đơn: «ip6»
Ngày nộp: «=when»"""),
]
# fmt: on


# fmt: off
SLOTS: dict[str, tuple[str, Maker]] = {
    "name": ("person_name", _name), "name_lf": ("person_name", _name_lf), "email": ("email", _email),
    "phone": ("phone", _phone), "dob": ("date_of_birth", _dob), "passport": ("passport", _passport),
    "addr": ("street_address", _street), "card": ("card_number", _card), "iban": ("iban", _iban),
    "ip": ("ip_address", _ip), "ip6": ("ip_address", _ip6), "ssn": ("ssn", _ssn),
    **{n: ("national_id", _natid(n)) for n in NATIONAL},
    "apikey": ("api_key", _gen(gen.api_key)), "pypi": ("api_key", _pypi), "akia": ("api_key", _akia),
    "pw": ("password", _password), "dbpw": ("credential", _dbpass), "bearer": ("auth_header", _bearer),
    "basic": ("auth_header", _basic), "xkey": ("auth_header", _xkey), "sess": ("cookie", _session),
    "jwt": ("jwt", _gen(gen.jwt)), "secret": ("secret", _gen(gen.secret)), "awssec": ("secret", _aws_secret),
    "pem": ("private_key", _gen(gen.private_key)),
}
KEEPS: dict[str, Callable[[random.Random, str], str]] = {
    "masked": _k_masked, "luhn": _k_luhn_fail, "ibanbad": _k_iban_fail, "ph": _k_placeholder,
    "exmail": _k_example_email, "rip": _k_reserved_ip, "sha": _k_sha, "digest": _k_digest,
    "integrity": _k_integrity, "uuid": _k_uuid, "event": _k_event_id, "trace": _k_trace,
    "pubkey": _k_pubkey, "fp": _k_fingerprint, "meeting": _k_meeting, "ticket": _k_ticket,
    "order": _k_order, "ver": _k_version, "bic": _k_bic, "vat": _k_vat, "price": _k_price,
    "when": _k_when, "tracking": _k_tracking, "port": _k_port,
}
# fmt: on
SLOT = re.compile(r"«(=?)([a-z_0-9]+?)(\d?)»")


def _kinds(text: str) -> list[str]:
    return [SLOTS[name][0] for keep, name, _ in dict.fromkeys(SLOT.findall(text)) if not keep]


def render(rng: random.Random, lang: str, text: str) -> dict[str, object]:
    """Fill a template's slots; the same slot and digit give the same value, and a digit
    after a person's slot («name2», «email2») stands for another person."""
    people: dict[str, Ctx] = {}
    filled: dict[tuple[str, str, str], str] = {}
    go: dict[str, str] = {}
    stay: dict[str, str] = {}

    def fill(m: re.Match[str]) -> str:
        keep, name, n = m.groups()
        if (keep, name, n) not in filled:
            if keep:
                shown = KEEPS[name](rng, lang)
                stay.setdefault(shown, name)
            else:
                kind, make = SLOTS[name]
                shown, value = make(rng, lang, people.setdefault(n, {}))
                go.setdefault(value, kind)
            filled[keep, name, n] = shown
        return filled[keep, name, n]

    return {
        "text": SLOT.sub(fill, text),
        "must_go": [{"kind": k, "value": v} for v, k in go.items()],
        "must_stay": list(stay),
        "stay_sorts": list(stay.values()),
    }


def build_blind3(count: int = SAMPLES) -> list[dict[str, object]]:
    """The third blind corpus (see the module docstring)."""
    rng = random.Random(SEED)
    kinds = [_kinds(text) for _, _, text in TEMPLATES]
    counts: Counter[str] = Counter()
    uses: Counter[int] = Counter()
    samples: list[dict[str, object]] = []
    while len(samples) < count:
        # A language (English, the only one with SSNs, four times as often), then the
        # document in it whose kinds are rarest so far, favouring documents used least.
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
