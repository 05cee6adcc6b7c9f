"""A fifth blind corpus: notes in twenty new locales and document shapes no earlier corpus used.

    .venv/bin/python tests/corpus/generate.py --blind5
    .venv/bin/python tests/corpus/measure.py --variant blind5 --misses 60

Like the earlier blind corpora this one was written without reading the detectors (vault/),
their tests, or the other corpora's templates: only generate.py's value generators, its sample
format and its kind catalogue were used. The locales are Hungarian, Danish, Norwegian, Malay,
Filipino, Swahili, Persian, Bengali, Tamil, Catalan, Croatian, Serbian (Cyrillic), Bulgarian,
Slovak, Lithuanian, Estonian and Indian, Australian, Nigerian and South African English, each
with its own national ids (real check digits where the id has one: TAJ, adóazonosító jel, CPR,
fødselsnummer, kod melli, OIB, JMBG, EGN, rodné číslo, isikukood/asmens kodas, TFN, Medicare,
South African ID, Aadhaar, DNI/NIE), phone, IBAN, date and address formats, and names in their
own scripts. The documents are Slack/Teams JSON exports, Jupyter output, Terraform state,
docker-compose and systemd units, Kubernetes events and kubeconfigs, GitHub Actions, Airflow and
dbt logs, Excel-pasted tables, .properties/.toml/.ini files, PowerShell transcripts, registry
exports, SMTP logs, LDIF, crash dumps, web.config, Maven settings.xml, Spring application.yml,
.pgpass, browser console dumps, LLM tool traces, agent memory files, and legal intake, tenancy,
visa, pharmacy, lab, itinerary, customs, loan and moderation notes in the local language.

Every value is made here from a fixed seed; none was ever issued to anyone. Look-alikes
(``must_stay``, with their sort in ``stay_sorts``) include new sorts: Kubernetes
resourceVersions, container ids, Terraform resource ids, ARNs without secrets, test-range IMEIs,
company registration numbers, Windows class GUIDs and well-known SIDs, SMTP queue ids, Maven
coordinates, crash addresses, ATC and HS codes, Airflow run ids and dbt node ids.

Keep it blind: a rule changed because of what this corpus shows makes it one more tuning set.
"""

# ruff: noqa: E501 -- phrase tables in twenty locales and format strings read best unwrapped

from __future__ import annotations

import base64
import datetime as dt
import json
import random
import string
import unicodedata
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

if __package__:  # imported as tests.corpus.blind5
    from tests.corpus import generate as gen
else:  # run next to generate.py
    import generate as gen  # type: ignore[no-redef]

SEED = gen.SEED + 130_363
HEXU = "0123456789ABCDEF"
LOCALES = ("hu", "da", "nb", "ms", "fil", "sw", "fa", "bn", "ta", "ca", "hr", "sr", "bg", "sk", "lt", "et", "en_in", "en_au", "en_ng", "en_za")  # fmt: skip
FA_DIGITS = str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")
BN_DIGITS = str.maketrans("0123456789", "০১২৩৪৫৬৭৮৯")


def d(rng: random.Random, n: int) -> str:
    return gen.rand(rng, string.digits, n)


def fold(text: str) -> str:
    text = (
        text.replace("ø", "o")
        .replace("Ø", "O")
        .replace("æ", "ae")
        .replace("å", "a")
        .replace("đ", "d")
        .replace("ł", "l")
    )
    return "".join(ch for ch in unicodedata.normalize("NFKD", text) if ord(ch) < 128)


# --- names ------------------------------------------------------------------------------------
# First names alternate male, female (even index male). Non-Latin scripts carry a Latin form
# after "|" for e-mail handles.

# fmt: off
FIRST = {
    "hu": ["Mihály", "Zsófia", "Gergely", "Eszter", "Bence", "Réka", "Ádám", "Katalin", "Levente", "Anikó"],
    "da": ["Søren", "Mette", "Mads", "Freja", "Rasmus", "Ida", "Niels", "Karen", "Jesper", "Sofie"],
    "nb": ["Håkon", "Ingrid", "Eirik", "Silje", "Torstein", "Ragnhild", "Øyvind", "Maren", "Sindre", "Solveig"],
    "ms": ["Muhammad Hafiz", "Nur Aisyah", "Ahmad Faizal", "Siti Nurhaliza", "Mohd Azlan", "Nurul Izzah", "Khairul Anuar", "Farah Hani"],
    "fil": ["Jose Miguel", "Maria Cristina", "Mark Anthony", "Ana Liza", "Jerome", "Rowena", "Carlo", "Kristine Joy"],
    "sw": ["Baraka", "Wanjiru", "Otieno", "Achieng", "Juma", "Neema", "Mwangi", "Zawadi", "Kiprotich", "Amani"],
    "fa": ["محمدرضا|mohammadreza", "زهرا|zahra", "علی|ali", "فاطمه|fatemeh", "حسین|hossein", "مریم|maryam", "امیرحسین|amirhossein", "نرگس|narges"],
    "bn": ["রাকিব|rakib", "তাসনিম|tasnim", "আরিফ|arif", "নুসরাত|nusrat", "মাহমুদ|mahmud", "ফারহানা|farhana", "সৌরভ|sourav", "শ্রেয়া|shreya"],
    "ta": ["கார்த்திக்|karthik", "பிரியா|priya", "செல்வம்|selvam", "மீனாட்சி|meenakshi", "அருண்|arun", "லக்ஷ்மி|lakshmi", "விஜய்|vijay", "கவிதா|kavitha"],
    "ca": ["Jordi", "Montserrat", "Oriol", "Núria", "Arnau", "Mercè", "Xavier", "Laia", "Pau", "Roser"],
    "hr": ["Luka", "Ivana", "Tomislav", "Marija", "Ante", "Petra", "Josip", "Katarina", "Marko", "Ana"],
    "sr": ["Милош|milos", "Јелена|jelena", "Никола|nikola", "Драгана|dragana", "Стефан|stefan", "Милица|milica", "Немања|nemanja", "Ивана|ivana"],
    "bg": ["Георги|georgi", "Мария|maria", "Димитър|dimitar", "Десислава|desislava", "Христо|hristo", "Радостина|radostina", "Стоян|stoyan", "Петя|petya"],
    "sk": ["Marek", "Zuzana", "Tomáš", "Katarína", "Martin", "Lucia", "Peter", "Jana"],
    "lt": ["Mindaugas", "Rūta", "Andrius", "Eglė", "Darius", "Giedrė", "Tomas", "Aistė"],
    "et": ["Kristjan", "Triin", "Margus", "Kadri", "Rasmus", "Liis", "Tõnu", "Kärt"],
    "en_in": ["Venkatesh", "Ananya", "Siddharth", "Deepika", "Rajesh", "Meera", "Aarav", "Pooja"],
    "en_au": ["Lachlan", "Matilda", "Cooper", "Isla", "Harrison", "Ruby", "Jack", "Zoe"],
    "en_ng": ["Chinedu", "Ngozi", "Oluwaseun", "Funmilayo", "Emeka", "Ifeoma", "Babatunde", "Zainab"],
    "en_za": ["Thabo", "Naledi", "Pieter", "Anneke", "Sipho", "Lerato", "Johan", "Zanele"],
}
LAST = {
    "hu": ["Kovács", "Nagy", "Szabó", "Tóth", "Horváth", "Varga", "Molnár", "Farkas", "Balogh", "Papp"],
    "da": ["Jørgensen", "Kristensen", "Rasmussen", "Sørensen", "Poulsen", "Mikkelsen", "Frederiksen", "Lund", "Bach", "Thomsen"],
    "nb": ["Haugen", "Halvorsen", "Bakken", "Solberg", "Strand", "Dahl", "Eide", "Aas", "Johansen", "Berntsen"],
    "ms": ["Rahman", "Ismail", "Abdullah", "Yusof", "Hamzah", "Osman"],
    "fil": ["Dela Cruz", "Villanueva", "Bautista", "Mendoza", "Reyes", "Macapagal", "Aquino", "Santiago"],
    "sw": ["Kamau", "Odhiambo", "Njoroge", "Mwakasege", "Chepkoech", "Mutua", "Wambui", "Kiptoo"],
    "fa": ["احمدی|ahmadi", "حسینی|hosseini", "کریمی|karimi", "رضایی|rezaei", "موسوی|mousavi", "جعفری|jafari", "صادقی|sadeghi", "قاسمی|ghasemi"],
    "bn": ["হোসেন|hossain", "রহমান|rahman", "চৌধুরী|chowdhury", "বন্দ্যোপাধ্যায়|banerjee", "মুখার্জি|mukherjee", "সরকার|sarkar", "ঘোষ|ghosh"],
    "ta": ["முருகன்|murugan", "சுப்பிரமணியம்|subramaniam", "ராஜேந்திரன்|rajendran", "கிருஷ்ணன்|krishnan", "சண்முகம்|shanmugam", "வேலாயுதம்|velayutham"],
    "ca": ["Puig", "Vila", "Soler", "Ferrer", "Font", "Serra", "Casals", "Vidal", "Bosch", "Pujol"],
    "hr": ["Horvat", "Kovačević", "Babić", "Marić", "Jurić", "Knežević", "Vuković", "Šarić"],
    "sr": ["Јовановић|jovanovic", "Петровић|petrovic", "Николић|nikolic", "Марковић|markovic", "Ђорђевић|djordjevic", "Стојановић|stojanovic", "Павловић|pavlovic"],
    "bg": ["Иванов|ivanov", "Георгиев|georgiev", "Димитров|dimitrov", "Петров|petrov", "Николов|nikolov", "Христов|hristov", "Стоянов|stoyanov"],
    "sk": ["Kováč", "Horváth", "Varga", "Baláž", "Šimko", "Lukáč"],
    "lt": ["Kazlausk", "Petrausk", "Jankausk", "Vasiliausk", "Žukausk"],
    "et": ["Tamm", "Saar", "Sepp", "Mägi", "Kask", "Kukk", "Rebane", "Ilves", "Pärn", "Koppel"],
    "en_in": ["Krishnamurthy", "Chatterjee", "Deshpande", "Banerjee", "Menon", "Agarwal", "Kulkarni", "Bhattacharya"],
    "en_au": ["O'Brien", "Nguyen", "Kowalski", "Fitzgerald", "McKenzie", "Papadopoulos", "Robertson", "Tran"],
    "en_ng": ["Okafor", "Adeyemi", "Okonkwo", "Balogun", "Eze", "Abubakar", "Olawale", "Nwosu", "Ogunleye", "Bello"],
    "en_za": ["Mokoena", "van der Merwe", "Botha", "Nkosi", "Dlamini", "Pretorius", "Naidoo", "Khumalo"],
}
DOMAINS = {
    "hu": ["freemail.hu", "citromail.hu", "gmail.com", "t-online.hu", "kozmatech.hu"],
    "da": ["jubii.dk", "mail.dk", "gmail.com", "hotmail.dk", "fjordbyg.dk"],
    "nb": ["online.no", "gmail.com", "hotmail.no", "tele2.no", "nordlys-logistikk.no"],
    "ms": ["yahoo.com.my", "gmail.com", "tm.net.my", "hotmail.my"],
    "fil": ["yahoo.com.ph", "gmail.com", "pldtdsl.net", "globe.com.ph"],
    "sw": ["gmail.com", "yahoo.co.ke", "africaonline.co.ke", "safaricom.co.ke"],
    "fa": ["chmail.ir", "yahoo.com", "gmail.com", "iranianmail.ir"],
    "bn": ["gmail.com", "yahoo.com", "bol-online.com", "grameenphone.com"],
    "ta": ["gmail.com", "yahoo.co.in", "rediffmail.com", "sltnet.lk"],
    "ca": ["gmail.com", "telefonica.net", "xtec.cat", "hotmail.es"],
    "hr": ["gmail.com", "net.hr", "t-com.hr", "vip.hr"],
    "sr": ["gmail.com", "eunet.rs", "sbb.rs", "yahoo.com"],
    "bg": ["abv.bg", "mail.bg", "gmail.com", "dir.bg"],
    "sk": ["azet.sk", "centrum.sk", "gmail.com", "post.sk"],
    "lt": ["gmail.com", "one.lt", "inbox.lt", "takas.lt"],
    "et": ["gmail.com", "hot.ee", "mail.ee", "neti.ee"],
    "en_in": ["gmail.com", "rediffmail.com", "yahoo.co.in", "outlook.com"],
    "en_au": ["bigpond.com", "optusnet.com.au", "gmail.com", "iinet.net.au"],
    "en_ng": ["yahoo.com", "gmail.com", "hotmail.com", "mtnonline.com"],
    "en_za": ["gmail.com", "webmail.co.za", "mweb.co.za", "telkomsa.net"],
}
# fmt: on


def split(entry: str) -> tuple[str, str]:
    native, _, latin = entry.partition("|")
    return native, latin or fold(native).lower()


@dataclass
class Person:
    loc: str
    full: str
    handle: str
    male: bool
    born: dt.date
    memo: dict[str, str] = field(default_factory=dict)


def make_person(rng: random.Random, loc: str) -> Person:
    firsts = FIRST[loc]
    i = rng.randrange(len(firsts))
    male = i % 2 == 0
    first, first_l = split(firsts[i])
    last, last_l = split(rng.choice(LAST[loc]))
    if loc == "bg" and not male:
        last += "а"
        last_l += "a"
    if loc == "sk" and not male:
        last = {
            "Kováč": "Kováčová",
            "Horváth": "Horváthová",
            "Varga": "Vargová",
            "Baláž": "Balážová",
            "Šimko": "Šimková",
            "Lukáč": "Lukáčová",
        }[last]
        last_l = fold(last).lower()
    if loc == "lt":
        last = last + ("as" if male else rng.choice(["ienė", "aitė"]))
        last_l = fold(last).lower()
    if loc == "hu":
        full = f"{last} {first}"
    elif loc == "ms" and " " in first and rng.random() < 0.85:
        full = f"{first} {'bin' if male else 'binti'} {last}"
    elif loc == "ms":
        full = (
            rng.choice(["Tan", "Lim", "Wong", "Chong"])
            + " "
            + rng.choice(["Wei Ling", "Chee Keong", "Mei Fong", "Kah Hoe"])
        )
        first_l, last_l = fold(full).lower().split(" ", 1)
    elif loc == "ca" and rng.random() < 0.6:
        full = f"{first} {last} {rng.choice(['i ', ''])}{rng.choice(LAST['ca'])}"
    elif loc in ("bn", "ta") and rng.random() < 0.35:
        full = f"{first_l.title()} {last_l.title()}"
    else:
        full = f"{first} {last}"
    handle = rng.choice(
        [
            f"{first_l}.{last_l}",
            f"{first_l[0]}.{last_l}",
            f"{first_l}{last_l[:1]}",
            f"{last_l}.{first_l}",
        ]
    )
    handle = fold(handle).lower().replace(" ", "").replace("'", "")
    if rng.random() < 0.4:
        handle += str(rng.randint(1, 99))
    year = rng.randint(1951, 2006)
    born = dt.date(year, rng.randint(1, 12), rng.randint(1, 28))
    return Person(loc, full, handle, male, born)


# --- dates ------------------------------------------------------------------------------------

# fmt: off
MONTHS = {
    "hu": "január február március április május június július augusztus szeptember október november december",
    "da": "januar februar marts april maj juni juli august september oktober november december",
    "nb": "januar februar mars april mai juni juli august september oktober november desember",
    "ms": "Januari Februari Mac April Mei Jun Julai Ogos September Oktober November Disember",
    "fil": "Enero Pebrero Marso Abril Mayo Hunyo Hulyo Agosto Setyembre Oktubre Nobyembre Disyembre",
    "sw": "Januari Februari Machi Aprili Mei Juni Julai Agosti Septemba Oktoba Novemba Desemba",
    "fa": "فروردین اردیبهشت خرداد تیر مرداد شهریور مهر آبان آذر دی بهمن اسفند",
    "bn": "জানুয়ারি ফেব্রুয়ারি মার্চ এপ্রিল মে জুন জুলাই আগস্ট সেপ্টেম্বর অক্টোবর নভেম্বর ডিসেম্বর",
    "ta": "ஜனவரி பிப்ரவரி மார்ச் ஏப்ரல் மே ஜூன் ஜூலை ஆகஸ்ட் செப்டம்பர் அக்டோபர் நவம்பர் டிசம்பர்",
    "ca": "gener febrer març abril maig juny juliol agost setembre octubre novembre desembre",
    "hr": "siječnja veljače ožujka travnja svibnja lipnja srpnja kolovoza rujna listopada studenoga prosinca",
    "sr": "јануар фебруар март април мај јун јул август септембар октобар новембар децембар",
    "bg": "януари февруари март април май юни юли август септември октомври ноември декември",
    "sk": "januára februára marca apríla mája júna júla augusta septembra októbra novembra decembra",
    "lt": "sausio vasario kovo balandžio gegužės birželio liepos rugpjūčio rugsėjo spalio lapkričio gruodžio",
    "et": "jaanuar veebruar märts aprill mai juuni juuli august september oktoober november detsember",
    "en": "January February March April May June July August September October November December",
}
# fmt: on


def date_str(rng: random.Random, loc: str, day: dt.date) -> str:
    y, m, dd = day.year, day.month, day.day
    mon = MONTHS.get(loc, MONTHS["en"]).split()[m - 1]
    en = MONTHS["en"].split()[m - 1]
    if loc == "fa":  # a Solar Hijri date, written the Iranian way
        jy, jm = y - 621 - (1 if m < 3 else 0), (m + 8) % 12 + 1
        jmon = MONTHS["fa"].split()[jm - 1]
        opts = [
            f"{jy}/{jm:02d}/{dd:02d}",
            f"{jy}/{jm:02d}/{dd:02d}".translate(FA_DIGITS),
            f"{dd} {jmon} {jy}".translate(FA_DIGITS),
        ]
        return rng.choice(opts)
    ca_de = "d'" if mon[0] in "ao" else "de "
    opts = {
        "hu": [f"{y}. {mon} {dd}.", f"{y}.{m:02d}.{dd:02d}.", f"{y}-{m:02d}-{dd:02d}"],
        "da": [f"{dd}. {mon} {y}", f"{dd:02d}-{m:02d}-{y}", f"{dd:02d}.{m:02d}.{y}"],
        "nb": [f"{dd}. {mon} {y}", f"{dd:02d}.{m:02d}.{y}"],
        "ms": [f"{dd} {mon} {y}", f"{dd:02d}/{m:02d}/{y}"],
        "fil": [f"{mon} {dd}, {y}", f"{m:02d}/{dd:02d}/{y}"],
        "sw": [f"{dd} {mon} {y}", f"{dd:02d}/{m:02d}/{y}"],
        "bn": [
            f"{dd:02d}/{m:02d}/{y}".translate(BN_DIGITS),
            f"{dd} {mon} {y}".translate(BN_DIGITS),
            f"{dd:02d}-{m:02d}-{y}",
        ],
        "ta": [f"{dd:02d}-{m:02d}-{y}", f"{dd} {mon} {y}", f"{dd:02d}/{m:02d}/{y}"],
        "ca": [f"{dd} {ca_de}{mon} de {y}", f"{dd:02d}/{m:02d}/{y}"],
        "hr": [f"{dd}. {mon} {y}.", f"{dd:02d}.{m:02d}.{y}."],
        "sr": [f"{dd}. {mon} {y}.", f"{dd:02d}.{m:02d}.{y}."],
        "bg": [f"{dd:02d}.{m:02d}.{y}", f"{dd} {mon} {y}"],
        "sk": [f"{dd}. {mon} {y}", f"{dd:02d}.{m:02d}.{y}", f"{dd}. {m}. {y}"],
        "lt": [f"{y}-{m:02d}-{dd:02d}", f"{y} m. {mon} {dd} d."],
        "et": [f"{dd:02d}.{m:02d}.{y}", f"{dd}. {mon} {y}"],
        "en_in": [
            f"{dd:02d}/{m:02d}/{y}",
            f"{dd:02d}-{en[:3]}-{y}",
            f"{dd}{'th' if 4 <= dd <= 20 or dd % 10 > 3 or dd % 10 == 0 else ['st', 'nd', 'rd'][dd % 10 - 1]} {en} {y}",
        ],
        "en_au": [f"{dd:02d}/{m:02d}/{y}", f"{dd} {en} {y}"],
        "en_ng": [f"{dd:02d}/{m:02d}/{y}", f"{dd} {en}, {y}"],
        "en_za": [f"{y}/{m:02d}/{dd:02d}", f"{dd} {en} {y}"],
    }[loc]
    return rng.choice(opts)


# --- phones -----------------------------------------------------------------------------------


def phone_str(rng: random.Random, loc: str) -> str:
    r = lambda n: d(rng, n)  # noqa: E731
    pick = rng.choice
    opts = {
        "hu": lambda: pick(
            [
                f"+36 {pick(['20', '30', '70'])} {r(3)} {r(4)}",
                f"06 {pick(['20', '30', '31', '70'])} {r(3)} {r(4)}",
                f"+36 1 {gen.digits(rng, 3, '2345')} {r(4)}",
                f"06-{pick(['20', '30', '70'])}-{r(3)}-{r(4)}",
            ]
        ),
        "da": lambda: pick(
            [
                f"+45 {gen.digits(rng, 2, '2345')} {r(2)} {r(2)} {r(2)}",
                f"{gen.digits(rng, 2, '2345')} {r(2)} {r(2)} {r(2)}",
                f"+45{gen.digits(rng, 8, '2345')}",
            ]
        ),
        "nb": lambda: pick(
            [
                f"+47 {gen.digits(rng, 3, '49')} {r(2)} {r(3)}",
                f"{gen.digits(rng, 3, '49')} {r(2)} {r(3)}",
                f"+47 22 {r(2)} {r(2)} {r(2)}",
            ]
        ),
        "ms": lambda: pick(
            [
                f"+60 1{pick('2379')}-{r(3)} {r(4)}",
                f"01{pick('2379')}-{r(3)} {r(4)}",
                f"+601{pick('2379')}{r(7)}",
                f"03-{gen.digits(rng, 4, '2789')} {r(4)}",
            ]
        ),
        "fil": lambda: pick(
            [
                f"+63 9{pick(['17', '18', '27', '56'])} {r(3)} {r(4)}",
                f"09{pick(['17', '18', '27', '56'])} {r(3)} {r(4)}",
                f"(02) 8{r(3)} {r(4)}",
            ]
        ),
        "sw": lambda: pick(
            [
                f"+254 7{pick(['12', '22', '33', '90'])} {r(3)} {r(3)}",
                f"07{pick(['12', '22', '33', '90'])} {r(3)} {r(3)}",
                f"+255 7{pick(['54', '65', '13'])} {r(3)} {r(3)}",
            ]
        ),
        "fa": lambda: pick(
            [
                f"+98 9{pick(['12', '19', '35', '01'])} {r(3)} {r(4)}",
                f"09{pick(['12', '19', '35', '01'])} {r(3)} {r(4)}",
                f"09{pick(['12', '19', '35'])} {r(3)} {r(4)}".translate(FA_DIGITS),
                f"021-{gen.digits(rng, 4, '2345678')} {r(4)}",
            ]
        ),
        "bn": lambda: pick(
            [
                f"+880 1{pick('3789')}{r(2)}-{r(6)}",
                f"01{pick('3789')}{r(2)}-{r(6)}",
                f"০১{pick('৭৮৯')}{r(8)}".translate(BN_DIGITS),
                f"+91 {gen.digits(rng, 5, '6789')} {r(5)}",
            ]
        ),
        "ta": lambda: pick(
            [
                f"+91 {gen.digits(rng, 5, '6789')} {r(5)}",
                f"044-{gen.digits(rng, 4, '2456')} {r(4)}",
                f"+94 7{pick('01678')} {r(3)} {r(4)}",
                f"07{pick('01678')} {r(3)} {r(4)}",
            ]
        ),
        "ca": lambda: pick(
            [
                f"+34 6{r(2)} {r(2)} {r(2)} {r(2)}",
                f"93 {gen.digits(rng, 3, '2345')} {r(2)} {r(2)}",
                f"6{r(2)} {r(3)} {r(3)}",
                f"+376 {gen.digits(rng, 3, '3')} {r(3)}",
            ]
        ),
        "hr": lambda: pick(
            [
                f"+385 9{pick('12578')} {r(3)} {r(4)}",
                f"09{pick('12578')} {r(3)} {r(4)}",
                f"01 {gen.digits(rng, 4, '3456')} {r(3)}",
            ]
        ),
        "sr": lambda: pick(
            [
                f"+381 6{pick('01234')} {r(3)} {r(4)}",
                f"06{pick('01234')}/{r(3)}-{r(4)}",
                f"011 {gen.digits(rng, 3, '23')}{r(1)} {r(3)}",
            ]
        ),
        "bg": lambda: pick(
            [
                f"+359 8{pick('789')} {r(3)} {r(4)}",
                f"08{pick('789')}{r(1)} {r(3)} {r(3)}",
                f"02 {gen.digits(rng, 3, '89')} {r(4)}",
            ]
        ),
        "sk": lambda: pick(
            [
                f"+421 9{pick(['02', '05', '11', '48'])} {r(3)} {r(3)}",
                f"09{pick(['02', '05', '11', '48'])} {r(3)} {r(3)}",
                f"02/{gen.digits(rng, 4, '56')} {r(4)}",
            ]
        ),
        "lt": lambda: pick(
            [
                f"+370 6{r(2)} {r(5)}",
                f"8 6{r(2)} {r(5)}",
                f"+370 5 {gen.digits(rng, 3, '2')}{r(1)} {r(3)}",
            ]
        ),
        "et": lambda: pick([f"+372 5{r(3)} {r(4)}", f"5{r(3)} {r(4)}", f"+372 6{r(2)} {r(4)}"]),
        "en_in": lambda: pick(
            [
                f"+91 {gen.digits(rng, 5, '6789')} {r(5)}",
                f"{gen.digits(rng, 5, '6789')} {r(5)}",
                f"080-{gen.digits(rng, 4, '2456')} {r(4)}",
                f"+91-{gen.digits(rng, 10, '6789')}",
            ]
        ),
        "en_au": lambda: pick(
            [
                f"+61 4{r(2)} {r(3)} {r(3)}",
                f"04{r(2)} {r(3)} {r(3)}",
                f"(0{pick('2378')}) {gen.digits(rng, 4, '98')} {r(4)}",
            ]
        ),
        "en_ng": lambda: pick(
            [
                f"+234 80{pick('3678')} {r(3)} {r(4)}",
                f"080{pick('3678')} {r(3)} {r(4)}",
                f"+23480{pick('3678')}{r(7)}",
                f"0{pick(['70', '81', '90'])}{r(1)}-{r(3)}-{r(4)}",
            ]
        ),
        "en_za": lambda: pick(
            [
                f"+27 {pick(['82', '83', '72', '61'])} {r(3)} {r(4)}",
                f"0{pick(['82', '83', '72', '61'])} {r(3)} {r(4)}",
                f"(011) {gen.digits(rng, 3, '2345678')}-{r(4)}",
            ]
        ),
    }
    return opts[loc]()


# --- national ids (check digits computed the way each issuer does) ----------------------------


def hu_taj(rng: random.Random, p: Person) -> str:
    body = [int(c) for c in gen.digits(rng, 8, "0123")]
    check = sum(v * (3 if i % 2 == 0 else 7) for i, v in enumerate(body)) % 10
    n = "".join(map(str, body)) + str(check)
    return rng.choice([f"{n[:3]} {n[3:6]} {n[6:]}", f"{n[:3]}-{n[3:6]}-{n[6:]}", n])


def hu_adoazonosito(rng: random.Random, p: Person) -> str:
    days = (p.born - dt.date(1867, 1, 1)).days
    while True:
        body = f"8{days:05d}{d(rng, 3)}"
        check = sum(int(c) * (i + 1) for i, c in enumerate(body)) % 11
        if check < 10:
            return body + str(check)


def dk_cpr(rng: random.Random, p: Person) -> str:
    b = p.born
    head = f"{b.day:02d}{b.month:02d}{b.year % 100:02d}"
    first = rng.choice("0123") if b.year < 2000 else "4"
    weights = [4, 3, 2, 7, 6, 5, 4, 3, 2, 1]
    while True:
        n = head + first + d(rng, 3)
        if sum(int(c) * w for c, w in zip(n, weights, strict=True)) % 11 == 0 and int(
            n[-1]
        ) % 2 == int(p.male):
            return rng.choice([f"{n[:6]}-{n[6:]}", n, f"{n[:6]} {n[6:]}"])


def no_fnr(rng: random.Random, p: Person) -> str:
    b = p.born
    head = f"{b.day:02d}{b.month:02d}{b.year % 100:02d}"
    while True:
        ind = rng.randint(0, 499) if b.year < 2000 else rng.randint(500, 999)
        if ind % 2 != int(p.male):
            continue
        ds = [int(c) for c in head + f"{ind:03d}"]
        k1 = 11 - sum(v * w for v, w in zip(ds, [3, 7, 6, 1, 8, 9, 4, 5, 2], strict=True)) % 11
        k1 = 0 if k1 == 11 else k1
        if k1 == 10:
            continue
        k2 = (
            11
            - sum(v * w for v, w in zip([*ds, k1], [5, 4, 3, 2, 7, 6, 5, 4, 3, 2], strict=True))
            % 11
        )
        k2 = 0 if k2 == 11 else k2
        if k2 == 10:
            continue
        n = head + f"{ind:03d}{k1}{k2}"
        return rng.choice([n, f"{n[:6]} {n[6:]}"])


def my_mykad(rng: random.Random, p: Person) -> str:
    b = p.born
    tail = d(rng, 3) + rng.choice("13579" if p.male else "02468")
    n = f"{b.year % 100:02d}{b.month:02d}{b.day:02d}-{rng.choice(['01', '07', '08', '10', '14', '12', '13'])}-{tail}"
    return n if rng.random() < 0.7 else n.replace("-", "")


def ph_ids(rng: random.Random, p: Person) -> str:
    if rng.random() < 0.5:
        return f"{d(rng, 4)}-{d(rng, 4)}-{d(rng, 4)}-{d(rng, 4)}"  # PhilSys card number
    return f"{rng.choice(['33', '34', '04', '01'])}-{d(rng, 7)}-{d(rng, 1)}"  # SSS number


def ke_ids(rng: random.Random, p: Person) -> str:
    r = rng.randrange(3)
    if r == 0:
        return gen.digits(rng, 8, "123")  # Kenyan national ID card
    if r == 1:
        return f"A0{d(rng, 8)}{rng.choice(string.ascii_uppercase)}"  # KRA PIN
    b = p.born
    return f"{b.year}{b.month:02d}{b.day:02d}-{d(rng, 5)}-{d(rng, 5)}-{d(rng, 2)}"  # Tanzanian NIDA


def ir_melli(rng: random.Random, p: Person) -> str:
    while True:
        body = gen.digits(rng, 9, "0123456789")
        if len(set(body)) > 2:
            break
    s = sum(int(c) * (10 - i) for i, c in enumerate(body)) % 11
    n = body + str(s if s < 2 else 11 - s)
    return rng.choice([n, f"{n[:3]}-{n[3:9]}-{n[9]}", n.translate(FA_DIGITS)])


def bd_nid(rng: random.Random, p: Person) -> str:
    r = rng.randrange(3)
    if r == 0:
        return gen.digits(rng, 10, "123456789")
    if r == 1:
        return f"{p.born.year}{rng.choice(['26', '15', '47', '93'])}{d(rng, 11)}"
    return gen.aadhaar(rng)  # West Bengal: Aadhaar


def ta_ids(rng: random.Random, p: Person) -> str:
    r = rng.randrange(3)
    if r == 0:
        return gen.aadhaar(rng)
    day = p.born.timetuple().tm_yday + (0 if p.male else 500)
    if r == 1:
        return f"{p.born.year}{day:03d}0{d(rng, 4)}"  # Sri Lankan NIC, new form
    return f"{p.born.year % 100:02d}{day:03d}{d(rng, 4)}{rng.choice('VX')}"  # old form


def es_ids(rng: random.Random, p: Person) -> str:
    letters = "TRWAGMYFPDXBNJZSQVHLCKE"
    if rng.random() < 0.65:
        n = rng.randint(10_000_000, 99_999_999)
        v = f"{n}{letters[n % 23]}"
        return v if rng.random() < 0.8 else f"{v[:8]}-{v[8]}"
    pre = rng.randrange(3)
    n = rng.randint(0, 9_999_999)
    return f"{'XYZ'[pre]}{n:07d}{letters[int(f'{pre}{n:07d}') % 23]}"


def hr_oib(rng: random.Random, p: Person) -> str:
    body = gen.digits(rng, 10, "123456789")
    a = 10
    for c in body:
        a = (a + int(c)) % 10 or 10
        a = a * 2 % 11
    check = 11 - a
    return body + str(0 if check == 10 else check)


def rs_jmbg(rng: random.Random, p: Person) -> str:
    b = p.born
    while True:
        bbb = rng.randint(0, 499) if p.male else rng.randint(500, 999)
        n = f"{b.day:02d}{b.month:02d}{b.year % 1000:03d}{rng.choice(['71', '72', '80', '85', '91'])}{bbb:03d}"
        x = [int(c) for c in n]
        m = (
            11
            - (
                7 * (x[0] + x[6])
                + 6 * (x[1] + x[7])
                + 5 * (x[2] + x[8])
                + 4 * (x[3] + x[9])
                + 3 * (x[4] + x[10])
                + 2 * (x[5] + x[11])
            )
            % 11
        )
        if m == 10:
            continue
        return n + str(0 if m == 11 else m)


def bg_egn(rng: random.Random, p: Person) -> str:
    b = p.born
    mm = b.month + (40 if b.year >= 2000 else 0)
    ninth = rng.choice("02468" if p.male else "13579")
    body = f"{b.year % 100:02d}{mm:02d}{b.day:02d}{d(rng, 2)}{ninth}"
    r = sum(int(c) * w for c, w in zip(body, [2, 4, 8, 5, 10, 9, 7, 3, 6], strict=True)) % 11
    return body + str(0 if r == 10 else r)


def sk_rc(rng: random.Random, p: Person) -> str:
    b = p.born
    mm = b.month + (0 if p.male else 50)
    head = f"{b.year % 100:02d}{mm:02d}{b.day:02d}"
    while True:
        n = head + d(rng, 4)
        if int(n) % 11 == 0:
            return rng.choice([f"{n[:6]}/{n[6:]}", n])


def baltic_code(rng: random.Random, p: Person) -> str:
    b = p.born
    g = (3 if b.year < 2000 else 5) + (0 if p.male else 1)
    body = f"{g}{b.year % 100:02d}{b.month:02d}{b.day:02d}{d(rng, 3)}"
    s = sum(int(c) * w for c, w in zip(body, [1, 2, 3, 4, 5, 6, 7, 8, 9, 1], strict=True)) % 11
    if s == 10:
        s = sum(int(c) * w for c, w in zip(body, [3, 4, 5, 6, 7, 8, 9, 1, 2, 3], strict=True)) % 11
        s = 0 if s == 10 else s
    return body + str(s)


def in_ids(rng: random.Random, p: Person) -> str:
    if rng.random() < 0.6:
        return gen.aadhaar(rng)
    up = string.ascii_uppercase
    return gen.rand(rng, up, 3) + "P" + rng.choice(up) + d(rng, 4) + rng.choice(up)  # PAN


def au_ids(rng: random.Random, p: Person) -> str:
    if rng.random() < 0.5:  # tax file number
        w = [1, 4, 3, 7, 5, 8, 6, 9, 10]
        while True:
            n = gen.digits(rng, 9, "123456789")
            if sum(int(c) * x for c, x in zip(n, w, strict=True)) % 11 == 0:
                return rng.choice([f"{n[:3]} {n[3:6]} {n[6:]}", n])
    body = gen.digits(rng, 8, "23456")  # Medicare card number
    check = sum(int(c) * w for c, w in zip(body, [1, 3, 7, 9, 1, 3, 7, 9], strict=True)) % 10
    n = f"{body}{check}{rng.randint(1, 5)}"
    return rng.choice([f"{n[:4]} {n[4:9]} {n[9]}", n])


def ng_ids(rng: random.Random, p: Person) -> str:
    if rng.random() < 0.5:
        return gen.digits(rng, 11, "123456789")  # NIN
    return "22" + d(rng, 9)  # BVN


def za_id(rng: random.Random, p: Person) -> str:
    b = p.born
    seq = rng.randint(5000, 9999) if p.male else rng.randint(0, 4999)
    return gen.luhn_complete(f"{b.year % 100:02d}{b.month:02d}{b.day:02d}{seq:04d}08")


# fmt: off
NATID: dict[str, list[tuple[Callable[[random.Random, Person], str], list[str]]]] = {
    "hu": [(hu_taj, ["TAJ-szám", "TAJ szám", "TAJ"]), (hu_adoazonosito, ["adóazonosító jel", "adóazonosító"])],
    "da": [(dk_cpr, ["CPR-nr.", "CPR-nummer", "CPR"])],
    "nb": [(no_fnr, ["fødselsnummer", "fnr.", "personnummer"])],
    "ms": [(my_mykad, ["No. KP", "No. MyKad", "No. Kad Pengenalan"])],
    "fil": [(ph_ids, ["PhilSys / SSS No.", "ID No.", "PhilID / SSS"])],
    "sw": [(ke_ids, ["Namba ya kitambulisho", "ID No.", "Kitambulisho/KRA PIN/NIDA"])],
    "fa": [(ir_melli, ["کد ملی", "شماره ملی"])],
    "bn": [(bd_nid, ["এনআইডি নম্বর", "জাতীয় পরিচয়পত্র নং", "NID/আধার"])],
    "ta": [(ta_ids, ["ஆதார் / NIC எண்", "அடையாள எண்", "Aadhaar/NIC"])],
    "ca": [(es_ids, ["DNI/NIE", "NIF", "DNI"])],
    "hr": [(hr_oib, ["OIB", "osobni identifikacijski broj"])],
    "sr": [(rs_jmbg, ["ЈМБГ", "JMBG", "матични број"])],
    "bg": [(bg_egn, ["ЕГН", "ЕГН (единен граждански номер)"])],
    "sk": [(sk_rc, ["rodné číslo", "RČ"])],
    "lt": [(baltic_code, ["asmens kodas", "a. k."])],
    "et": [(baltic_code, ["isikukood", "isikukood (IK)"])],
    "en_in": [(in_ids, ["Aadhaar/PAN", "ID proof no.", "KYC id"])],
    "en_au": [(au_ids, ["TFN/Medicare", "Tax File Number / Medicare", "ID (TFN or Medicare)"])],
    "en_ng": [(ng_ids, ["NIN/BVN", "NIN or BVN", "Identity no. (NIN/BVN)"])],
    "en_za": [(za_id, ["ID number", "SA ID no.", "ID no."])],
}
# fmt: on


def passport_str(rng: random.Random, loc: str) -> str:
    up = "ABCDEFGHJKLMNPRSTUVWXYZ"
    r = lambda n: d(rng, n)  # noqa: E731
    f = {
        "hu": lambda: gen.rand(rng, up, 2) + r(7),
        "da": lambda: gen.digits(rng, 9, "1234"),
        "nb": lambda: gen.rand(rng, up, 2) + r(7),
        "ms": lambda: rng.choice("AH") + r(8),
        "fil": lambda: "P" + r(7) + rng.choice(up),
        "sw": lambda: rng.choice(["AK", "BK", "C"]) + r(7),
        "fa": lambda: rng.choice(up) + r(8),
        "bn": lambda: rng.choice(["EB", "EE", "BW", "A"]) + r(7),
        "ta": lambda: rng.choice(up) + r(7),
        "ca": lambda: gen.rand(rng, up, 3) + r(6),
        "hr": lambda: gen.digits(rng, 9, "01"),
        "sr": lambda: gen.digits(rng, 9, "01"),
        "bg": lambda: "38" + r(7),
        "sk": lambda: gen.rand(rng, up, 2) + r(7),
        "lt": lambda: gen.digits(rng, 8, "12"),
        "et": lambda: rng.choice(["K", "KF", "AB"]) + r(7),
        "en_in": lambda: rng.choice(up) + r(7),
        "en_au": lambda: rng.choice(["PA", "PB", "RA", "N"]) + r(7),
        "en_ng": lambda: rng.choice(["A", "B"]) + r(8),
        "en_za": lambda: rng.choice(["A", "M", "T"]) + r(8),
    }[loc]
    return f()


# --- IBANs ------------------------------------------------------------------------------------

IBAN_SPEC = {"HU": "n24", "DK": "n14", "NO": "n11", "HR": "n17", "RS": "n18", "BG": "a4n14", "SK": "n20", "LT": "n16", "EE": "n16", "IR": "n22", "ES": "n20", "AD": "n20", "GB": "a4n14", "DE": "n18", "AE": "n19", "SA": "n20"}  # fmt: skip
IBAN_HOME = {"hu": "HU", "da": "DK", "nb": "NO", "hr": "HR", "sr": "RS", "bg": "BG", "sk": "SK", "lt": "LT", "et": "EE", "fa": "IR", "ca": "ES"}  # fmt: skip


def iban_str(rng: random.Random, loc: str) -> str:
    country = IBAN_HOME.get(loc) if rng.random() < 0.8 else None
    if country is None:
        country = rng.choice(["GB", "DE", "AE", "SA"] if loc not in ("ca",) else ["AD", "DE"])
    spec = IBAN_SPEC[country]
    bban = (
        gen.rand(rng, string.ascii_uppercase, 4) + d(rng, int(spec[3:]))
        if spec.startswith("a")
        else d(rng, int(spec[1:]))
    )
    compact = country + gen.iban_check(country, bban) + bban
    if rng.random() < 0.6:
        return " ".join(compact[i : i + 4] for i in range(0, len(compact), 4))
    return compact


# --- addresses --------------------------------------------------------------------------------


def street_str(rng: random.Random, loc: str) -> str:
    n = rng.randint(1, 180)
    pick = rng.choice
    f = {
        "hu": lambda: (
            f"{pick(['Váci út', 'Andrássy út', 'Petőfi Sándor utca', 'Rákóczi út', 'Kossuth Lajos utca', 'Bartók Béla út'])} {n}. {pick(['', f'{rng.randint(1, 6)}. em. {rng.randint(1, 20)}.', 'fsz. 2.'])}".strip()
        ),
        "da": lambda: (
            f"{pick(['Nørrebrogade', 'Vesterbrogade', 'Østerbrogade', 'Jagtvej', 'Amagerbrogade', 'Søndergade'])} {n}{pick(['', ', 2. th.', ', st. tv.', ', 3. mf.'])}"
        ),
        "nb": lambda: (
            f"{pick(['Thorvald Meyers gate', 'Bogstadveien', 'Kirkegata', 'Markveien', 'Trondheimsveien', 'Storgata'])} {n}{pick(['', 'B', 'A'])}"
        ),
        "ms": lambda: (
            f"{pick(['No. ', 'Lot ', ''])}{n}, {pick(['Jalan SS 2/24', 'Jalan Tun Razak', 'Lorong Maarof 3', 'Jalan Ampang', 'Persiaran Gurney'])}"
        ),
        "fil": lambda: pick(
            [
                f"{n} Rizal Street, Brgy. San Antonio",
                f"Blk {rng.randint(1, 30)} Lot {rng.randint(1, 40)} Mabini St.",
                f"{n} Kalayaan Ave., Diliman",
            ]
        ),
        "sw": lambda: pick(
            [
                f"Nyumba Na. {n}, Barabara ya Ngong",
                f"Plot {n}, Moi Avenue",
                f"Nyumba Na. {n}, Mtaa wa Uhuru",
            ]
        ),
        "fa": lambda: (
            f"{pick(['خیابان ولیعصر', 'خیابان شریعتی', 'خیابان انقلاب', 'بلوار کشاورز'])}، {pick(['کوچه نسترن', 'کوچه بهار', 'کوچه یاس'])}، پلاک {n}".translate(
                FA_DIGITS
            )
        ),
        "bn": lambda: pick(
            [
                f"বাড়ি {n}, রোড {rng.randint(1, 27)}, ধানমন্ডি".translate(BN_DIGITS),
                f"House {n}, Road {rng.randint(1, 27)}, Gulshan-{rng.randint(1, 2)}",
                f"{n}/{rng.randint(1, 9)} বেলেঘাটা মেইন রোড".translate(BN_DIGITS),
            ]
        ),
        "ta": lambda: pick(
            [
                f"எண் {n}, காந்தி தெரு, தி. நகர்",
                f"No. {n}, Gandhi Street, T. Nagar",
                f"{n}, Galle Road, Wellawatte",
            ]
        ),
        "ca": lambda: (
            f"{pick(['Carrer de Mallorca', 'Passeig de Gràcia', 'Rambla de Catalunya', 'Carrer Gran de Gràcia', 'Carrer de Sants'])}, {n}{pick(['', ', 3r 2a', ', 1r 1a', ', àtic'])}"
        ),
        "hr": lambda: (
            f"{pick(['Ilica', 'Vukovarska ulica', 'Savska cesta', 'Ulica kralja Zvonimira', 'Frankopanska ulica'])} {n}"
        ),
        "sr": lambda: (
            f"{pick(['Кнеза Михаила', 'Булевар краља Александра', 'Устаничка', 'Немањина', 'Цара Душана'])} {n}"
        ),
        "bg": lambda: (
            f"{pick(['ул. „Граф Игнатиев“', 'бул. „Витоша“', 'ул. „Шипка“', 'бул. „Цар Освободител“'])} {n}{pick(['', f', ет. {rng.randint(1, 8)}, ап. {rng.randint(1, 30)}'])}"
        ),
        "sk": lambda: (
            f"{pick(['Obchodná', 'Štúrova', 'Hlavná', 'Mlynská', 'Palisády'])} {n}{pick(['', '/A'])}"
        ),
        "lt": lambda: (
            f"{pick(['Gedimino pr.', 'Pylimo g.', 'Vilniaus g.', 'Savanorių pr.', 'Laisvės al.'])} {n}{pick(['', f'-{rng.randint(1, 60)}'])}"
        ),
        "et": lambda: (
            f"{pick(['Pärnu mnt', 'Tartu mnt', 'Narva mnt', 'Telliskivi', 'Kalamaja tn'])} {n}{pick(['', f'-{rng.randint(1, 60)}'])}"
        ),
        "en_in": lambda: (
            f"Flat {rng.randint(101, 904)}, {pick(['Shanti Apartments', 'Sai Krupa Residency', 'Green Meadows'])}, {pick(['14th Cross, Indiranagar', '3rd Main, Jayanagar', 'Linking Road, Bandra West'])}"
        ),
        "en_au": lambda: pick(
            [
                f"Unit {rng.randint(1, 20)}/{n} {pick(['Smith Street', 'Glebe Point Road', 'Brunswick Street'])}",
                f"{n} {pick(['Wattle Avenue', 'Banksia Crescent', 'Jacaranda Drive'])}",
            ]
        ),
        "en_ng": lambda: pick(
            [
                f"{n} {pick(['Adeola Odeku Street', 'Awolowo Road', 'Ogunlana Drive'])}",
                f"Plot {n}, Admiralty Way, Lekki Phase 1",
            ]
        ),
        "en_za": lambda: (
            f"{n} {pick(['Jan Smuts Avenue', 'Long Street', 'Voortrekker Road', 'Florida Road'])}"
        ),
    }[loc]
    return f()


CITY = {"hu": "1061 Budapest", "da": "2200 København N", "nb": "0552 Oslo", "ms": "47300 Petaling Jaya, Selangor", "fil": "1100 Quezon City", "sw": "Nairobi", "fa": "تهران", "bn": "ঢাকা ১২০৯", "ta": "சென்னை 600017", "ca": "08008 Barcelona", "hr": "10000 Zagreb", "sr": "11000 Београд", "bg": "1000 София", "sk": "811 06 Bratislava", "lt": "LT-01103 Vilnius", "et": "10115 Tallinn", "en_in": "Bengaluru 560038", "en_au": "Newtown NSW 2042", "en_ng": "Victoria Island, Lagos", "en_za": "Johannesburg, 2196"}  # fmt: skip


def price_str(rng: random.Random, loc: str) -> str:
    n = rng.randint(12, 2900)
    f = {
        "hu": f"{n * 100:,} Ft".replace(",", " "), "da": f"{n},00 kr.", "nb": f"kr {n},-", "ms": f"RM {n:,}.00", "fil": f"₱{n:,}.00",
        "sw": f"KSh {n * 10:,}", "fa": f"{n * 10000:,} تومان", "bn": f"৳ {n:,}", "ta": f"₹{n:,}", "ca": f"{n},00 €", "hr": f"{n},50 €",
        "sr": f"{n * 100:,} дин.".replace(",", "."), "bg": f"{n},00 лв.", "sk": f"{n},90 €", "lt": f"{n},00 €", "et": f"{n},00 €",
        "en_in": f"₹{n * 10:,}", "en_au": f"A${n}.00", "en_ng": f"₦{n * 1000:,}", "en_za": f"R{n:,}.00".replace(",", " "),
    }  # fmt: skip
    return f[loc]


# --- local words ------------------------------------------------------------------------------
# name, dob, address, phone, email, passport, iban, card, note; then four sentences.

# fmt: off
WORDS = {
    "hu": ("Név|Születési idő|Lakcím|Telefon|E-mail|Útlevélszám|Bankszámla (IBAN)|Bankkártya|Megjegyzés", "Az ügyfél telefonon kereste az irodát a kérelme ügyében.|Jövő héten vissza kell hívni.|Írásbeli kapcsolattartást kér, lehetőleg e-mailben.|A dokumentumok beérkeztek, minden rendben."),
    "da": ("Navn|Fødselsdato|Adresse|Telefon|E-mail|Pasnummer|IBAN|Betalingskort|Bemærkning", "Kunden ringede angående sin ansøgning.|Ring tilbage i næste uge.|Foretrækker kontakt på e-mail.|Dokumenterne er modtaget, alt er i orden."),
    "nb": ("Navn|Fødselsdato|Adresse|Telefon|E-post|Passnummer|Kontonummer (IBAN)|Bankkort|Merknad", "Kunden ringte angående søknaden sin.|Ring tilbake neste uke.|Foretrekker kontakt på e-post.|Dokumentene er mottatt, alt er i orden."),
    "ms": ("Nama|Tarikh lahir|Alamat|No. telefon|E-mel|No. pasport|IBAN|Kad kredit|Catatan", "Pelanggan menelefon berkenaan permohonannya.|Sila hubungi semula minggu depan.|Lebih suka dihubungi melalui e-mel.|Dokumen telah diterima, semuanya lengkap."),
    "fil": ("Pangalan|Petsa ng kapanganakan|Tirahan|Numero ng telepono|Email|Numero ng pasaporte|IBAN|Card|Tala", "Tumawag ang kliyente tungkol sa kanyang aplikasyon.|Tawagan ulit sa susunod na linggo.|Mas gusto niyang makontak sa email.|Natanggap na ang mga dokumento, kumpleto na lahat."),
    "sw": ("Jina|Tarehe ya kuzaliwa|Anwani|Simu|Barua pepe|Namba ya pasipoti|IBAN|Kadi|Maelezo", "Mteja alipiga simu kuhusu ombi lake.|Tafadhali mpigie tena wiki ijayo.|Anapendelea kuwasiliana kwa barua pepe.|Nyaraka zimepokelewa, kila kitu kiko sawa."),
    "fa": ("نام|تاریخ تولد|نشانی|تلفن|ایمیل|شماره گذرنامه|شماره شبا|کارت بانکی|یادداشت", "مشتری درباره درخواست خود تماس گرفت.|لطفاً هفته آینده دوباره تماس بگیرید.|ترجیح می‌دهد از طریق ایمیل با او در تماس باشیم.|مدارک دریافت شد، همه چیز کامل است."),
    "bn": ("নাম|জন্ম তারিখ|ঠিকানা|ফোন|ইমেইল|পাসপোর্ট নম্বর|IBAN|কার্ড|মন্তব্য", "গ্রাহক তাঁর আবেদনের বিষয়ে ফোন করেছিলেন।|আগামী সপ্তাহে আবার ফোন করতে হবে।|ইমেইলে যোগাযোগ পছন্দ করেন।|কাগজপত্র পাওয়া গেছে, সব ঠিক আছে।"),
    "ta": ("பெயர்|பிறந்த தேதி|முகவரி|தொலைபேசி|மின்னஞ்சல்|கடவுச்சீட்டு எண்|IBAN|அட்டை|குறிப்பு", "வாடிக்கையாளர் தனது விண்ணப்பம் குறித்து அழைத்தார்.|அடுத்த வாரம் மீண்டும் அழைக்கவும்.|மின்னஞ்சல் மூலம் தொடர்பு கொள்ள விரும்புகிறார்.|ஆவணங்கள் பெறப்பட்டன, அனைத்தும் சரியாக உள்ளன."),
    "ca": ("Nom|Data de naixement|Adreça|Telèfon|Correu electrònic|Núm. de passaport|IBAN|Targeta|Observacions", "El client ha trucat per la seva sol·licitud.|Cal tornar-li la trucada la setmana vinent.|Prefereix que el contactem per correu electrònic.|Documentació rebuda, tot correcte."),
    "hr": ("Ime i prezime|Datum rođenja|Adresa|Telefon|E-pošta|Broj putovnice|IBAN|Kartica|Napomena", "Klijent je nazvao u vezi sa svojim zahtjevom.|Nazvati ponovno idući tjedan.|Preferira kontakt e-poštom.|Dokumenti su zaprimljeni, sve je u redu."),
    "sr": ("Име и презиме|Датум рођења|Адреса|Телефон|Е-пошта|Број пасоша|IBAN|Картица|Напомена", "Клијент је звао у вези са својим захтевом.|Позвати поново следеће недеље.|Више воли контакт путем е-поште.|Документа су примљена, све је у реду."),
    "bg": ("Име|Дата на раждане|Адрес|Телефон|Имейл|Паспорт №|IBAN|Карта|Бележка", "Клиентът се обади във връзка със заявлението си.|Да се обадим отново следващата седмица.|Предпочита връзка по имейл.|Документите са получени, всичко е наред."),
    "sk": ("Meno|Dátum narodenia|Adresa|Telefón|E-mail|Číslo pasu|IBAN|Platobná karta|Poznámka", "Klient volal ohľadom svojej žiadosti.|Zavolať späť budúci týždeň.|Uprednostňuje kontakt e-mailom.|Dokumenty boli doručené, všetko je v poriadku."),
    "lt": ("Vardas, pavardė|Gimimo data|Adresas|Telefonas|El. paštas|Paso Nr.|IBAN|Mokėjimo kortelė|Pastaba", "Klientas skambino dėl savo prašymo.|Perskambinti kitą savaitę.|Pageidauja bendrauti el. paštu.|Dokumentai gauti, viskas tvarkoje."),
    "et": ("Nimi|Sünniaeg|Aadress|Telefon|E-post|Passi number|IBAN|Pangakaart|Märkus", "Klient helistas oma taotluse asjus.|Helistada tagasi järgmisel nädalal.|Eelistab suhtlust e-posti teel.|Dokumendid on kätte saadud, kõik on korras."),
    "en_in": ("Name|DOB|Address|Mobile|Email ID|Passport No.|IBAN|Card|Remarks", "Customer called regarding the pending application, kindly do the needful.|Please revert by next week.|Prefers communication over mail only.|Documents received, all in order."),
    "en_au": ("Name|Date of birth|Address|Mobile|Email|Passport no.|IBAN|Card|Notes", "Client rang about the application, no worries on timing.|Give them a bell early next week.|Prefers email over phone.|Paperwork's in, all sorted."),
    "en_ng": ("Full name|Date of birth|Residential address|Phone|Email|International passport no.|IBAN|Card|Remarks", "Customer called concerning the application, said she will come around.|Please flash him back next week.|Prefers to be contacted via email.|Documents received, everything is in order."),
    "en_za": ("Name|Date of birth|Physical address|Cell|Email|Passport no.|IBAN|Card|Notes", "Client phoned about the application, will pop in just now.|Call back next week, otherwise sorted.|Prefers email, not WhatsApp.|Documents received, all in order."),
}
# fmt: on


# --- look-alikes ------------------------------------------------------------------------------

# fmt: off
PLACEHOLDERS = ["***", "${DB_PASSWORD}", "${{ secrets.AWS_SECRET_ACCESS_KEY }}", "%env(APP_SECRET)%", "{{ vault_smtp_password }}", "<changeme>", "$(cat /run/secrets/db_password)", "${env:API_TOKEN}", "${SPRING_DATASOURCE_PASSWORD}", "@@SECRET@@", "[REDACTED]", "process.env.STRIPE_KEY"]
CLASS_GUIDS = ["{4D36E972-E325-11CE-BFC1-08002BE10318}", "{4D36E968-E325-11CE-BFC1-08002BE10318}", "{36FC9E60-C465-11CF-8056-444553540000}", "{745A17A0-74D3-11D0-B6FE-00A0C90F57DA}"]
WELL_KNOWN_SIDS = ["S-1-5-18", "S-1-5-19", "S-1-5-32-544", "S-1-5-32-545", "S-1-1-0"]
MAVEN = ["org.postgresql:postgresql:42.7.3", "org.springframework.boot:spring-boot-starter-web:3.2.5", "com.fasterxml.jackson.core:jackson-databind:2.17.1", "org.apache.kafka:kafka-clients:3.7.0", "io.micrometer:micrometer-registry-prometheus:1.13.0"]
ATC = ["N02BE01", "C09AA05", "A10BA02", "J01CA04", "R03AC02", "C10AA05", "N06AB06"]
HS = ["8517.13.00", "6109.10.00", "3304.99.00", "8471.30.00", "0901.21.00", "9503.00.70"]
FLIGHTS = ["QR 8154", "TK1038", "SK 1463", "MH 0017", "PR 0102", "KQ 101", "EK 0585", "W6 2341", "LO 281", "BT 302", "OS 771"]
EXAMPLE_EMAILS = ["noreply@example.com", "alerts@example.org", "postmaster@example.net", "ci-bot@example.com", "root@localhost"]
# fmt: on


def keep(rng: random.Random, sort: str, loc: str) -> str:
    r = lambda n: d(rng, n)  # noqa: E731
    if sort in (
        "git_sha",
        "short_sha",
        "uuid",
        "sha256",
        "version",
        "timestamp",
        "url",
        "isbn",
        "luhn_fail",
        "iban_fail",
        "public_key",
        "reserved_ip",
        "example_key",
        "pod",
        "integrity",
    ):
        return gen.keep_value(rng, sort, "en")
    if sort == "k8s_rv":
        return str(rng.randint(10**6, 10**9))
    if sort == "container_id":
        return gen.rand(rng, gen.HEX, rng.choice([12, 64]))
    if sort == "tf_id":
        return rng.choice(["i-0", "sg-0", "vpc-0", "subnet-0", "eni-0", "vol-0"]) + gen.rand(
            rng, gen.HEX, 16
        )
    if sort == "arn":
        acct = r(12)
        return rng.choice(
            [
                f"arn:aws:iam::{acct}:role/etl-runner",
                f"arn:aws:s3:::acme-logs-{rng.choice(['eu', 'ap'])}-{r(3)}",
                f"arn:aws:lambda:eu-north-1:{acct}:function:resize-images",
                f"arn:aws:sqs:ap-southeast-1:{acct}:orders-dlq",
            ]
        )
    if sort == "imei_test":
        return gen.luhn_complete("00" + r(12))
    if sort == "org_number":
        if rng.random() < 0.5:  # Norwegian organisation number, mod 11
            while True:
                body = gen.digits(rng, 8, "89")
                c = (
                    11
                    - sum(int(x) * w for x, w in zip(body, [3, 2, 7, 6, 5, 4, 3, 2], strict=True))
                    % 11
                )
                if c != 10:
                    n = body + str(0 if c == 11 else c)
                    return f"{n[:3]} {n[3:6]} {n[6:]}"
        while True:  # Danish CVR, mod 11
            n = gen.digits(rng, 8, "123456789")
            if sum(int(x) * w for x, w in zip(n, [2, 7, 6, 5, 4, 3, 2, 1], strict=True)) % 11 == 0:
                return n
    if sort == "class_guid":
        return rng.choice(CLASS_GUIDS)
    if sort == "sid":
        return rng.choice(WELL_KNOWN_SIDS)
    if sort == "queue_id":
        return gen.rand(rng, HEXU, rng.choice([10, 11, 12]))
    if sort == "maven":
        return rng.choice(MAVEN)
    if sort == "address_hex":
        return "0x0000" + gen.rand(rng, "7f", 1) + gen.rand(rng, gen.HEX, 11)
    if sort == "exc_code":
        return rng.choice(["0xC0000005", "0xC0000374", "0x80004005", "0xE0434352", "SIGSEGV (11)"])
    if sort == "atc":
        return rng.choice(ATC)
    if sort == "hs_code":
        return rng.choice(HS)
    if sort == "flight":
        return rng.choice(FLIGHTS)
    if sort == "airflow_run":
        return f"scheduled__{rng.randint(2024, 2026)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T0{rng.randint(0, 6)}:00:00+00:00"
    if sort == "dbt_node":
        return f"{rng.choice(['model', 'test', 'seed'])}.{rng.choice(['analytics', 'warehouse'])}.{rng.choice(['stg_customers', 'fct_orders', 'dim_patients', 'not_null_stg_customers_email'])}"
    if sort == "run_id":
        return str(rng.randint(8_000_000_000, 13_999_999_999))
    if sort == "placeholder":
        return rng.choice(PLACEHOLDERS)
    if sort == "example_email":
        return rng.choice(EXAMPLE_EMAILS)
    if sort == "price":
        return price_str(rng, loc)
    if sort == "plain_date":
        return date_str(
            rng, loc, dt.date(rng.randint(2024, 2026), rng.randint(1, 12), rng.randint(1, 28))
        )
    if sort == "case_no":
        return rng.choice(
            [
                f"{rng.randint(1, 40)}.P.{rng.randint(20000, 99999)}/{rng.randint(2023, 2025)}",
                f"BS-{rng.randint(2023, 2025)}-{r(5)}",
                f"Sag nr. {r(4)}/{rng.randint(23, 25)}",
                f"CV/{r(4)}/{rng.randint(2023, 2025)}",
            ]
        )
    if sort == "ean13":
        body = "590" + r(9) if rng.random() < 0.5 else "599" + r(9)
        check = (10 - sum(int(c) * (1 if i % 2 == 0 else 3) for i, c in enumerate(body)) % 10) % 10
        return body + str(check)
    if sort == "lab_range":
        return rng.choice(
            [
                "3.5–5.1 mmol/L",
                "4.0–11.0 ×10⁹/L",
                "135–145 mmol/L",
                "0.6–1.2 mg/dL",
                "< 5.7 %",
                "70–99 mg/dL",
            ]
        )
    if sort == "ticket":
        return rng.choice(
            [
                f"MOD-{rng.randint(2024, 2026)}-{r(6)}",
                f"CASE-{r(7)}",
                f"REQ{r(8)}",
                f"LN-{r(4)}-{rng.choice('ABCDEF')}{r(3)}",
            ]
        )
    raise ValueError(sort)


# --- a sample under construction --------------------------------------------------------------


class Ctx:
    def __init__(self, rng: random.Random, loc: str) -> None:
        self.rng, self.loc = rng, loc
        self.go: list[tuple[str, str]] = []
        self.keeps: list[tuple[str, str]] = []
        words, sentences = WORDS[loc]
        self.w = dict(
            zip(
                ["name", "dob", "addr", "phone", "email", "passport", "iban", "card", "note"],
                words.split("|"),
                strict=True,
            )
        )
        self.s = sentences.split("|")
        self.p = make_person(rng, loc)
        self.q = make_person(rng, loc)
        while self.q.full == self.p.full:
            self.q = make_person(rng, loc)

    def add(self, kind: str, value: str) -> str:
        if (kind, value) not in self.go:
            self.go.append((kind, value))
        return value

    def k(self, sort: str) -> str:
        v = keep(self.rng, sort, self.loc)
        self.keeps.append((v, sort))
        return v

    def _memo(self, p: Person, kind: str, make: Callable[[], str]) -> str:
        if kind not in p.memo:
            p.memo[kind] = make()
        return self.add(kind, p.memo[kind])

    # personal data, remembered per person so a note repeats the same value
    def name(self, p: Person | None = None) -> str:
        return self.add("person_name", (p or self.p).full)

    def dob(self, p: Person | None = None) -> str:
        p = p or self.p
        return self._memo(p, "date_of_birth", lambda: date_str(self.rng, self.loc, p.born))

    def phone(self, p: Person | None = None) -> str:
        return self._memo(p or self.p, "phone", lambda: phone_str(self.rng, self.loc))

    def email(self, p: Person | None = None) -> str:
        p = p or self.p
        return self._memo(p, "email", lambda: f"{p.handle}@{self.rng.choice(DOMAINS[self.loc])}")

    def addr(self, p: Person | None = None) -> str:
        return self._memo(p or self.p, "street_address", lambda: street_str(self.rng, self.loc))

    def natid(self, p: Person | None = None) -> tuple[str, str]:
        p = p or self.p
        make, labels = NATID[self.loc][self.rng.randrange(len(NATID[self.loc]))]
        label = p.memo.get("natid_label") or self.rng.choice(labels)
        p.memo["natid_label"] = label
        return label, self._memo(p, "national_id", lambda: make(self.rng, p))

    def passport(self, p: Person | None = None) -> str:
        return self._memo(p or self.p, "passport", lambda: passport_str(self.rng, self.loc))

    def iban(self, p: Person | None = None) -> str:
        return self._memo(p or self.p, "iban", lambda: iban_str(self.rng, self.loc))

    def card(self, p: Person | None = None) -> str:
        return self._memo(
            p or self.p, "card_number", lambda: gen.format_card(gen.card_digits(self.rng), self.rng)
        )

    def ssn(self, p: Person | None = None) -> str:
        return self._memo(p or self.p, "ssn", lambda: gen.ssn_value(self.rng))

    def ip(self) -> str:
        return self.add("ip_address", gen.ip_address(self.rng, "en").value)

    # secrets
    def api(self) -> gen.Item:
        it = gen.api_key(self.rng)
        self.add("api_key", it.value)
        return it

    def pw(self, xml: bool = False) -> str:
        while True:
            v = gen.password_value(self.rng)
            if not xml or not set(v) & set("&<>\"'"):
                return self.add("password", v)

    def cred_pw(self) -> str:
        return self.add("credential", gen.password_value(self.rng, url_safe=True))

    def cred_url(self) -> str:
        it = gen.credential(self.rng)
        self.add("credential", it.value)
        return it.shown

    def bearer(self) -> str:
        it = gen.auth_header(self.rng)
        self.add("auth_header", it.value)
        return it.cfg  # "Bearer …", "Basic …" or a bare X-Api-Key value

    def cookie(self) -> tuple[str, str]:
        it = gen.cookie(self.rng)
        self.add("cookie", it.value)
        return it.cfg.split("=", 1)[0], it.value

    def jwt(self) -> str:
        return self.add("jwt", gen.jwt(self.rng).value)

    def secret(self, xml: bool = False) -> str:
        while True:
            v = gen.secret(self.rng).value
            if not xml or not set(v) & set("&<>\"'"):
                return self.add("secret", v)

    def pem(self) -> str:
        return gen.private_key(self.rng).value  # caller adds it in the form it appears

    def ts(self) -> str:
        return f"2025-{self.rng.randint(1, 12):02d}-{self.rng.randint(1, 28):02d}T{self.rng.randint(0, 23):02d}:{self.rng.randint(0, 59):02d}:{self.rng.randint(0, 59):02d}"

    def kv(self, p: Person | None = None, kinds: tuple[str, ...] = ()) -> list[str]:
        """Local-language form lines for a person."""
        p = p or self.p
        out = []
        for kind in kinds:
            if kind == "name":
                out.append(f"{self.w['name']}: {self.name(p)}")
            elif kind == "dob":
                out.append(f"{self.w['dob']}: {self.dob(p)}")
            elif kind == "addr":
                out.append(f"{self.w['addr']}: {self.addr(p)}, {CITY[self.loc]}")
            elif kind == "phone":
                out.append(f"{self.w['phone']}: {self.phone(p)}")
            elif kind == "email":
                out.append(f"{self.w['email']}: {self.email(p)}")
            elif kind == "natid":
                label, v = self.natid(p)
                out.append(f"{label}: {v}")
            elif kind == "passport":
                out.append(f"{self.w['passport']}: {self.passport(p)}")
            elif kind == "iban":
                out.append(f"{self.w['iban']}: {self.iban(p)}")
            elif kind == "card":
                out.append(f"{self.w['card']}: {self.card(p)}")
        return out

    def some(self, *kinds: str, n: tuple[int, int] = (2, 4)) -> tuple[str, ...]:
        return tuple(self.rng.sample(kinds, min(len(kinds), self.rng.randint(*n))))


def jstr(value: str) -> str:
    """The text a value takes inside a JSON string."""
    return json.dumps(value, ensure_ascii=False)[1:-1]


# --- documents: tools and configs -------------------------------------------------------------


def doc_slack_json(c: Ctx) -> str:
    rng = c.rng
    sec = rng.choice(["api", "jwt", "pw"])
    leaked = c.api().value if sec == "api" else c.jwt() if sec == "jwt" else c.pw()
    mail = c.email()
    msgs = [
        {
            "type": "message",
            "user": "U0" + gen.rand(rng, "ABCDEFGHJKLMNPQRSTUVWXYZ0123456789", 9),
            "user_profile": {"real_name": c.name(), "display_name": c.p.handle.split(".")[0]},
            "text": f"{c.s[0]} <mailto:{mail}|{mail}> {c.w['phone']}: {c.phone()}",
            "ts": f"{rng.randint(1_700_000_000, 1_760_000_000)}.{d(rng, 6)}",
        },
        {
            "type": "message",
            "user": "U0" + gen.rand(rng, "ABCDEFGHJKLMNPQRSTUVWXYZ0123456789", 9),
            "user_profile": {"real_name": c.name(c.q)},
            "text": f"temp creds for the sandbox, rotate after: `{leaked}` (build {c.k('short_sha')})",
            "ts": f"{rng.randint(1_700_000_000, 1_760_000_000)}.{d(rng, 6)}",
        },
    ]
    if rng.random() < 0.5:
        msgs.append(
            {
                "type": "message",
                "subtype": "bot_message",
                "text": f"Deploy {c.k('version')} finished, request {c.k('uuid')}",
                "ts": f"{rng.randint(1_700_000_000, 1_760_000_000)}.{d(rng, 6)}",
            }
        )
    return json.dumps(msgs, ensure_ascii=False, indent=1)


def doc_teams_json(c: Ctx) -> str:
    rng = c.rng
    body = (
        f"<p>{c.s[rng.randrange(4)]}</p><p>{c.w['iban']}: {c.iban()}</p>"
        if rng.random() < 0.5
        else f"<p>{c.w['addr']}: {c.addr()}, {CITY[c.loc]}</p>"
    )
    return json.dumps(
        {
            "chatId": f"19:{gen.rand(rng, gen.HEX, 32)}@thread.v2",
            "messages": [
                {
                    "id": str(rng.randint(10**12, 10**13)),
                    "createdDateTime": c.k("timestamp"),
                    "from": {"user": {"displayName": c.name(), "userIdentityType": "aadUser"}},
                    "body": {"contentType": "html", "content": body},
                },
                {
                    "id": str(rng.randint(10**12, 10**13)),
                    "from": {"user": {"displayName": c.name(c.q)}},
                    "body": {
                        "contentType": "text",
                        "content": f"{c.w['phone']} {c.phone(c.q)} · {c.w['dob']} {c.dob(c.q)}",
                    },
                },
            ],
        },
        ensure_ascii=False,
        indent=2,
    )


def doc_jupyter(c: Ctx) -> str:
    rng = c.rng
    it = c.api()
    key2 = rng.choice(["SECRET_KEY", "FERNET_KEY", "WEBHOOK_SECRET"])
    rows = []
    people = [c.p, c.q]
    for i, p in enumerate(people):
        _label, nid = c.natid(p)
        rows.append(f"{i}  {c.name(p):<28} {c.email(p):<34} {nid}")
    return "\n".join(
        [
            "In [3]: import os; {k: v for k, v in os.environ.items() if k.isupper() and 'KEY' in k}",
            f"Out[3]: {{'{it.key}': '{it.value}', '{key2}': '{c.secret()}', 'KERNEL_ID': '{c.k('uuid')}'}}",
            "",
            "In [4]: df[['name', 'email', 'id_no']].head(2)",
            f"Out[4]:\n   {'name':<28} {'email':<34} id_no",
            *rows,
            "",
            f"In [5]: requests.get(url, headers={{'Authorization': '{c.bearer()}'}}).status_code",
            "Out[5]: 200",
        ]
        + (
            [f"In [6]: s.cookies.get_dict()\nOut[6]: {{'{n}': '{v}'}}" for n, v in [c.cookie()]]
            if rng.random() < 0.5
            else []
        )
    )


def doc_tfstate(c: Ctx) -> str:
    rng = c.rng
    pem = c.pem()
    esc = c.add("private_key", jstr(pem)) if rng.random() < 0.8 else None
    attrs: dict[str, object] = {
        "id": c.k("tf_id"),
        "arn": c.k("arn"),
        "username": "app_admin",
        "password": c.pw(),
        "endpoint": f"orders.{gen.rand(rng, 'abcdefghijklmnopqrstuvwxyz0123456789', 12)}.eu-north-1.rds.amazonaws.com:5432",
    }
    if rng.random() < 0.6:
        attrs["public_ip"] = c.ip()
    lines = [
        '{\n  "version": 4,\n  "terraform_version": "1.8.5",',
        f'  "serial": {rng.randint(3, 400)},\n  "lineage": "{c.k("uuid")}",',
        '  "resources": [\n    {"mode": "managed", "type": "aws_db_instance", "name": "orders",',
        '     "instances": [{"attributes": ' + json.dumps(attrs) + "}]},",
        '    {"mode": "managed", "type": "aws_iam_access_key", "name": "ci",',
        '     "instances": [{"attributes": {"id": "'
        + c.api().value
        + '", "secret": "'
        + c.secret()
        + '", "user": "ci-deployer"}}]}',
    ]
    if esc:
        lines[-1] += (
            ",\n"
            + '    {"mode": "managed", "type": "tls_private_key", "name": "bastion", "instances": [{"attributes": {"algorithm": "RSA", "private_key_pem": "'
            + esc
            + '\\n"}}]}'
        )
    lines.append("  ]\n}")
    return "\n".join(lines)


def doc_compose(c: Ctx) -> str:
    rng = c.rng
    it = c.api()
    return "\n".join(
        [
            "services:",
            "  api:",
            f"    image: ghcr.io/acme/orders@sha256:{gen.rand(rng, gen.HEX, 64)}",
            "    environment:",
            f"      - DATABASE_URL={c.cred_url()}",
            f"      - {it.key}={it.value}",
            f"      - SESSION_SECRET={c.secret()}",
            f"      - SUPPORT_CONTACT={c.email()}",
            "  db:",
            "    image: postgres:16.3",
            "    environment:",
            f'      POSTGRES_PASSWORD: "{c.pw()}"',
            f"      PGADMIN_DEFAULT_EMAIL: {c.k('example_email')}",
            f"# container {c.k('container_id')} restarted {c.k('timestamp')}",
        ]
    )


def doc_systemd(c: Ctx) -> str:
    it = c.api()
    extra = (
        f'Environment="SMTP_PASSWORD={c.pw()}"'
        if c.rng.random() < 0.6
        else f"Environment=JWT_SIGNING_KEY={c.secret()}"
    )
    return "\n".join(
        [
            "# /etc/systemd/system/invoice-worker.service",
            "[Unit]",
            "Description=Invoice worker",
            "After=network-online.target",
            "",
            "[Service]",
            "User=invoices",
            f"Environment={it.key}={it.value}",
            extra,
            f"Environment=DB_DSN={c.cred_url()}",
            f"Environment=ALERT_SMS={c.phone()}",
            "ExecStart=/opt/invoices/bin/worker --queue=pdf",
            "Restart=on-failure",
            "",
            f"# journal: Started invoice-worker.service (pid {c.rng.randint(1000, 65000)}), unit version {c.k('version')}",
        ]
    )


def doc_k8s_events(c: Ctx) -> str:
    rng = c.rng
    pod = c.k("pod")
    return "\n".join(
        [
            "$ kubectl get events -n checkout --sort-by=.lastTimestamp",
            "LAST SEEN   TYPE      REASON      OBJECT                          MESSAGE",
            f"2m          Warning   BackOff     pod/{pod}   Back-off restarting failed container",
            f'2m          Normal    Pulled      pod/{pod}   Container image "checkout:{c.k("short_sha")}" already present',
            "",
            "$ kubectl get secret checkout-env -o yaml | grep -v '^  creationTimestamp'",
            "apiVersion: v1",
            "kind: Secret",
            "metadata:",
            "  name: checkout-env",
            f'  resourceVersion: "{c.k("k8s_rv")}"',
            f"  uid: {c.k('uuid')}",
            "  annotations:",
            f'    owner: "{c.name()} <{c.email()}>"',
            "stringData:",
            f"  PAYMENT_WEBHOOK_SECRET: {c.secret()}",
            f"  REDIS_URL: {c.cred_url()}",
            "",
            f"audit: user=system:serviceaccount:checkout:default sourceIPs=[{c.ip()}] verb=get resource=secrets",
        ]
        + (
            [f"audit: user=oidc:{c.email(c.q)} sourceIPs=[{c.k('reserved_ip')}] verb=exec"]
            if rng.random() < 0.5
            else []
        )
    )


def doc_kubeconfig(c: Ctx) -> str:
    rng = c.rng
    pem = c.pem()
    b64 = c.add("private_key", base64.b64encode((pem + "\n").encode()).decode())
    lines = [
        "# ~/.kube/config (pasted from the laptop of " + c.name() + ")",
        "apiVersion: v1",
        "clusters:",
        "- cluster:",
        f"    # CA fingerprint {c.k('sha256')}",
        f"    server: https://{(lambda ip: f'[{ip}]' if ':' in ip else ip)(c.ip())}:6443",
        "  name: prod-eu",
        "users:",
        "- name: ops",
        "  user:",
        f"    client-key-data: {b64}",
    ]
    if rng.random() < 0.7:
        lines += ["- name: ci", "  user:", f"    token: {c.jwt()}"]
    if rng.random() < 0.6:
        lines += [
            "",
            "# ~/.pgpass",
            f"pg-prod.internal:5432:*:svc_reports:{c.cred_pw()}",
            f"localhost:5432:devdb:dev:{c.k('placeholder')}",
        ]
    return "\n".join(lines)


def doc_gha_log(c: Ctx) -> str:
    rng = c.rng
    run = c.k("run_id")
    out = [
        f"2025-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}T08:1{rng.randint(0, 9)}:02.1Z ##[group]Run ./scripts/release.sh",
        "  ./scripts/release.sh",
        "  env:",
        f"    AWS_SECRET_ACCESS_KEY: {c.k('placeholder')}",
        f"    RELEASE_SHA: {c.k('git_sha')}",
        "##[endgroup]",
        f"+ curl -sf -H 'Authorization: {c.bearer()}' https://api.acme.dev/releases",
        f"+ echo 'notifying {c.name()} at {c.email()}'",
    ]
    if rng.random() < 0.6:
        it = c.api()
        out.append(f"+ npm config set //registry.npmjs.org/:_authToken {it.value}")
    out += [
        f"Runner public address: {c.ip()}",
        f"Job finished: https://github.com/acme/shop/actions/runs/{run}",
    ]
    return "\n".join(out)


def doc_airflow(c: Ctx) -> str:
    rng = c.rng
    run = c.k("airflow_run")
    return "\n".join(
        [
            f"[{c.ts()},412] {{taskinstance.py:1157}} INFO - Dependencies all met for <TaskInstance: crm_sync.export_contacts {run} [queued]>",
            f"[{c.ts()},498] {{base.py:73}} INFO - Using connection ID 'crm_pg' for task execution.",
            f"[{c.ts()},501] {{logging_mixin.py:188}} INFO - conn uri: {c.cred_url()}",
            f"[{c.ts()},877] {{logging_mixin.py:188}} WARNING - row rejected: {{'name': '{c.name()}', 'phone': '{c.phone()}', 'dob': '{c.dob()}'}}",
            f"[{c.ts()},902] {{taskinstance.py:1400}} INFO - Marking task as SUCCESS. dag_id=crm_sync, run_id={run}",
        ]
        + (
            [f"[{c.ts()},903] {{slack.py:44}} INFO - posting with token {c.api().value}"]
            if rng.random() < 0.5
            else []
        )
    )


def doc_dbt(c: Ctx) -> str:
    node = c.k("dbt_node")
    lbl, nid = c.natid()
    lbl2, nid2 = c.natid(c.q)
    return "\n".join(
        [
            f"{c.ts()[11:]}  Running with dbt=1.8.2",
            f"{c.ts()[11:]}  1 of 3 START test unique_stg_customers_national_id ........ [RUN]",
            f"{c.ts()[11:]}  1 of 3 FAIL 2 unique_stg_customers_national_id ............ [FAIL 2 in 0.41s]",
            f"{c.ts()[11:]}  Failure in {node} (models/staging/schema.yml)",
            "  Got 2 results, configured to fail if != 0",
            "  compiled code: target/compiled/warehouse/unique_stg_customers_national_id.sql",
            "",
            "  | national_id          | full_name                  | email                          | n |",
            f"  | {nid:<20} | {c.name():<26} | {c.email():<30} | 2 |",
            f"  | {nid2:<20} | {c.name(c.q):<26} | {c.email(c.q):<30} | 2 |",
            f"  ({lbl} / {lbl2})",
            f"{c.ts()[11:]}  Done. PASS=1 WARN=0 ERROR=0 FAIL=1 SKIP=1 TOTAL=3",
        ]
    )


def doc_excel(c: Ctx) -> str:
    rng = c.rng
    cols = rng.choice(
        [
            ("dob", "natid", "iban"),
            ("phone", "natid", "addr"),
            ("email", "dob", "passport"),
            ("phone", "iban", "card"),
            ("ssn", "dob", "phone"),
        ]
    )
    header = (
        [c.w["name"]]
        + [
            {
                "dob": c.w["dob"],
                "natid": "ID",
                "iban": "IBAN",
                "phone": c.w["phone"],
                "addr": c.w["addr"],
                "email": c.w["email"],
                "passport": c.w["passport"],
                "card": c.w["card"],
                "ssn": "US SSN",
            }[k]
            for k in cols
        ]
        + ["Σ"]
    )
    rows = ["\t".join(header)]
    for p in (c.p, c.q):
        vals = []
        for k in cols:
            vals.append(
                {
                    "dob": lambda p=p: c.dob(p),
                    "natid": lambda p=p: c.natid(p)[1],
                    "iban": lambda p=p: c.iban(p),
                    "phone": lambda p=p: c.phone(p),
                    "addr": lambda p=p: c.addr(p),
                    "email": lambda p=p: c.email(p),
                    "passport": lambda p=p: c.passport(p),
                    "card": lambda p=p: c.card(p),
                    "ssn": lambda p=p: c.ssn(p),
                }[k]()
            )
        rows.append("\t".join([c.name(p), *vals, c.k("price")]))
    rows.append("\t" * len(cols) + f"=SUM(E2:E{rng.randint(3, 40)})")
    return (
        f"(pasted from Excel, sheet '{rng.choice(['Munka1', 'Ark1', 'Sheet1', 'Hárok1', 'Leht1', 'Lapas1'])}')\n"
        + "\n".join(rows)
    )


def doc_properties(c: Ctx) -> str:
    rng = c.rng
    user = rng.choice(["svc_billing", "app", "reports"])
    host = rng.choice(["pg-01.internal", "10.20.0.5", "db.billing.svc"])
    pw = c.cred_pw()
    lines = [
        "# application-prod.properties",
        "server.port=8443",
        f"spring.datasource.url=jdbc:postgresql://{host}:5432/billing?user={user}&password={pw}&sslmode=require",
        f"spring.mail.password={c.pw()}",
        f"spring.mail.username={c.email()}",
        f"app.build={c.k('version')}",
        f"app.fallback-password={c.k('placeholder')}",
    ]
    if rng.random() < 0.6:
        it = c.api()
        lines.append(f"integrations.{it.key.lower().replace('_', '-')}={it.value}")
    else:
        lines.append(f"security.oauth2.client.registration.google.client-secret={c.secret()}")
    return "\n".join(lines)


def doc_toml(c: Ctx) -> str:
    rng = c.rng
    it = c.api()
    return "\n".join(
        [
            "# ~/.config/mailsync/config.toml",
            "[account]",
            f'name = "{c.name()}"',
            f'address = "{c.email()}"',
            f'phone = "{c.phone()}"',
            "",
            "[imap]",
            'host = "imap.fastmail.com"',
            f'password = "{c.pw()}"',
            "",
            "[integrations]",
            f'{it.key.lower()} = "{it.value}"',
            f'webhook = "{c.k("url")}"',
        ]
        + ([f'cookie = "{"=".join(c.cookie())}"'] if rng.random() < 0.5 else [])
    )


def doc_ini(c: Ctx) -> str:
    return "\n".join(
        [
            "; C:\\ProgramData\\PosAgent\\agent.ini",
            "[server]",
            f"address={c.ip()}",
            "port=8085",
            "[sql]",
            f"connection=Driver={{ODBC Driver 18 for SQL Server}};Server=tcp:pos-sql01,1433;Database=Pos;Uid=pos_agent;Pwd={c.cred_pw()};Encrypt=yes",
            "[owner]",
            f"contact={c.name()}",
            f"mobile={c.phone()}",
            "[license]",
            f"key={c.secret()}",
            f"device_imei={c.k('imei_test')}  ; bench test handset",
        ]
    )


def doc_powershell(c: Ctx) -> str:
    rng = c.rng
    it = c.api()
    out = [
        "**********************",
        "Windows PowerShell transcript start",
        f"Start time: {rng.randint(2024, 2025)}{rng.randint(1, 12):02d}{rng.randint(10, 28)}{rng.randint(100000, 235959)}",
        f"Username: CORP\\{c.p.handle.split('.')[0][:12]}",
        "**********************",
        f'PS C:\\deploy> $env:{it.key} = "{it.value}"',
        f'PS C:\\deploy> $sec = ConvertTo-SecureString "{c.pw()}" -AsPlainText -Force',
        f"PS C:\\deploy> $cred = New-Object System.Management.Automation.PSCredential('{c.email()}', $sec)",
        f'PS C:\\deploy> Invoke-RestMethod https://api.acme.dev/v2/users -Headers @{{ Authorization = "{c.bearer()}" }}',
        f"PS C:\\deploy> Test-NetConnection {c.ip()} -Port 443 | Select-Object TcpTestSucceeded",
        "TcpTestSucceeded : True",
        f"PS C:\\deploy> Get-LocalGroupMember -SID {c.k('sid')}",
        "**********************",
    ]
    return "\n".join(out)


def doc_registry(c: Ctx) -> str:
    rng = c.rng
    lines = [
        "Windows Registry Editor Version 5.00",
        "",
        "[HKEY_LOCAL_MACHINE\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Winlogon]",
        '"AutoAdminLogon"="1"',
        f'"DefaultUserName"="{c.p.handle.split(".")[0]}"',
        f'"DefaultPassword"="{c.pw()}"',
        "",
        f"[HKEY_LOCAL_MACHINE\\SYSTEM\\CurrentControlSet\\Control\\Class\\{c.k('class_guid')}]",
        '"Class"="Net"',
        "",
        "[HKEY_CURRENT_USER\\Software\\KioskApp\\Sync]",
        f'"ApiToken"="{c.api().value}"',
        f'"RegisteredOwner"="{c.name()}"',
        f'"Version"="{c.k("version")}"',
    ]
    if rng.random() < 0.5:
        lines.append(f'"ProxyServer"="http://proxy:{c.cred_pw()}@proxy.corp.local:3128"')
    return "\n".join(lines)


def doc_smtp_log(c: Ctx) -> str:
    rng = c.rng
    q = c.k("queue_id")
    user = c.email()
    pw = gen.password_value(rng)
    blob = c.add("auth_header", base64.b64encode(f"\0{user}\0{pw}".encode()).decode())
    src = c.ip()
    return "\n".join(
        [
            f"Jun {rng.randint(10, 28)} 09:1{rng.randint(0, 9)}:44 mx1 postfix/smtpd[{rng.randint(1000, 40000)}]: connect from unknown[{src}]",
            f"Jun {rng.randint(10, 28)} 09:1{rng.randint(0, 9)}:44 mx1 postfix/smtpd[{rng.randint(1000, 40000)}]: {q}: client=unknown[{src}], sasl_method=PLAIN, sasl_username={user}",
            f"Jun {rng.randint(10, 28)} 09:1{rng.randint(0, 9)}:45 mx1 postfix/qmgr[811]: {q}: from=<{user}>, size={rng.randint(2000, 90000)}, nrcpt=1 (queue active)",
            f"Jun {rng.randint(10, 28)} 09:1{rng.randint(0, 9)}:46 mx1 postfix/smtp[{rng.randint(1000, 40000)}]: {q}: to=<{c.email(c.q)}>, relay=aspmx.l.google.com[{c.k('reserved_ip')}]:25, status=sent (250 2.0.0 OK)",
            "",
            "--- debug session (swaks) ---",
            "<-  220 mx1.example.net ESMTP Postfix",
            " -> EHLO laptop",
            f" -> AUTH PLAIN {blob}",
            "<-  235 2.7.0 Authentication successful",
            f" -> MAIL FROM:<{user}>",
        ]
    )


def doc_ldif(c: Ctx) -> str:
    rng = c.rng
    p = c.p
    uid = p.handle.replace(".", "")
    lines = [
        f"dn: uid={uid},ou=People,dc=example,dc=org",
        "objectClass: inetOrgPerson",
        f"cn: {c.name()}",
        f"mail: {c.email()}",
        f"telephoneNumber: {c.phone()}",
        f"postalAddress: {c.addr()}${CITY[c.loc]}",
        f"userPassword: {c.pw()}",
        "memberOf: cn=vpn-users,ou=Groups,dc=example,dc=org",
        "",
        f"dn: uid={c.q.handle.replace('.', '')},ou=People,dc=example,dc=org",
        f"cn: {c.name(c.q)}",
        f"mobile: {c.phone(c.q)}",
    ]
    if rng.random() < 0.5:
        _label, nid = c.natid(c.q)
        lines.append(f"employeeNumber: {nid}")
    lines.append(f"entryUUID: {c.k('uuid')}")
    return "\n".join(lines)


def doc_crash(c: Ctx) -> str:
    rng = c.rng
    it = c.api()
    return "\n".join(
        [
            f"Faulting application name: PosClient.exe, version: {c.k('version')}",
            f"Exception code: {c.k('exc_code')}",
            f"Fault offset: {c.k('address_hex')}",
            "",
            "--- environment at crash ---",
            f"USERPROFILE=C:\\Users\\{c.p.handle.split('.')[0]}",
            f"{it.key}={it.value}",
            f"POS_OPERATOR={c.name()}",
            f"LAST_CARD_SWIPE={c.card()}"
            if rng.random() < 0.6
            else f"LAST_CUSTOMER_PHONE={c.phone()}",
            f"UPSTREAM={c.ip()}",
            *(
                [
                    f"LAST_RESPONSE_HEADER=Set-Cookie: {n}={v}; Path=/; HttpOnly"
                    for n, v in [c.cookie()]
                ]
                if rng.random() < 0.5
                else []
            ),
            "--- stack ---",
            f"  #0 {c.k('address_hex')} in PosClient!Payment::Commit+0x2c",
        ]
    )


def doc_webconfig(c: Ctx) -> str:
    vkey = c.add("secret", gen.rand(c.rng, HEXU, 128))
    return "\n".join(
        [
            '<?xml version="1.0" encoding="utf-8"?>',
            "<configuration>",
            "  <connectionStrings>",
            f'    <add name="Crm" connectionString="Server=sql-crm01;Database=Crm;User Id=crm_app;Password={c.cred_pw()};TrustServerCertificate=True" providerName="System.Data.SqlClient" />',
            "  </connectionStrings>",
            "  <appSettings>",
            f'    <add key="ContactOwner" value="{c.name()}" />',
            f'    <add key="ContactEmail" value="{c.email()}" />',
            f'    <add key="MapsKey" value="{c.api().value}" />',
            f'    <add key="BuildId" value="{c.k("uuid")}" />',
            "  </appSettings>",
            "  <system.web>",
            f'    <machineKey validationKey="{vkey}" validation="HMACSHA256" />',
            "  </system.web>",
            "</configuration>",
        ]
    )


def doc_maven(c: Ctx) -> str:
    return "\n".join(
        [
            "<!-- ~/.m2/settings.xml -->",
            "<settings>",
            "  <servers>",
            "    <server>",
            "      <id>nexus-releases</id>",
            f"      <username>{c.p.handle}</username>",
            f"      <password>{c.pw(xml=True)}</password>",
            "    </server>",
            "    <server>",
            "      <id>github</id>",
            "      <username>ci-bot</username>",
            f"      <password>{c.api().value}</password>",
            "    </server>",
            "  </servers>",
            f"  <!-- needs {c.k('maven')}; maintainer {c.name()} ({c.email()}) -->",
            "</settings>",
        ]
    )


def doc_spring_yml(c: Ctx) -> str:
    rng = c.rng
    lines = [
        "spring:",
        "  datasource:",
        f"    url: jdbc:mysql://mysql-01.internal:3306/shop?user=shop&password={c.cred_pw()}",
        "  security:",
        "    oauth2:",
        "      client:",
        "        registration:",
        "          keycloak:",
        "            client-id: shop-web",
        f"            client-secret: {c.secret()}",
        "app:",
        f"  jwt-for-tests: {c.jwt()}"
        if rng.random() < 0.6
        else f"  admin-password: {c.k('placeholder')}",
        f'  support-phone: "{c.phone()}"',
        f"  build: {c.k('short_sha')}",
    ]
    return "\n".join(lines)


def doc_browser_console(c: Ctx) -> str:
    rng = c.rng
    cname, cval = c.cookie()
    lines = [
        "> document.cookie",
        f"'_ga=GA1.1.{rng.randint(10**8, 10**9)}.{rng.randint(1_700_000_000, 1_760_000_000)}; {cname}={cval}; theme=dark'",
        "> localStorage.getItem('auth')",
        f'\'{{"access_token":"{c.jwt()}","user":"{c.email()}"}}\'',
        f"[checkout] form state {{name: '{c.name()}', card: '{c.card()}', zip: '{rng.randint(1000, 9999)}'}}",
        f"Failed to load resource: the server responded with a status of 502 () {c.k('url')}",
    ]
    if rng.random() < 0.5:
        lines.append(
            f"[api] request headers {{Authorization: '{c.bearer()}', 'X-Request-Id': '{c.k('uuid')}'}}"
        )
    return "\n".join(lines)


def doc_llm_trace(c: Ctx) -> str:
    rng = c.rng
    tool = rng.choice(["book_flight", "submit_kyc", "update_crm_contact", "verify_identity"])
    args: dict[str, str] = {"full_name": c.name(), "date_of_birth": c.dob()}
    if tool in ("book_flight", "submit_kyc"):
        args["passport_number"] = c.passport()
    if tool != "book_flight":
        args["national_id"] = c.natid()[1]
    if rng.random() < 0.4:
        args["us_ssn"] = c.ssn()
    if rng.random() < 0.5:
        args["payment_card"] = c.card()
    trace = [
        {
            "role": "assistant",
            "tool_calls": [
                {
                    "id": "call_" + gen.rand(rng, gen.ALNUM, 24),
                    "type": "function",
                    "function": {"name": tool, "arguments": json.dumps(args, ensure_ascii=False)},
                }
            ],
        },
        {
            "role": "tool",
            "content": json.dumps(
                {"status": "ok", "reference": c.k("ticket"), "flight": c.k("flight")}
                if tool == "book_flight"
                else {"status": "ok", "reference": c.k("ticket")}
            ),
        },
    ]
    text = "\n".join(json.dumps(t, ensure_ascii=False) for t in trace)
    return f"--- trace {c.k('uuid')} ---\n{text}"


# --- documents: local-language notes ----------------------------------------------------------


def doc_agent_memory(c: Ctx) -> str:
    rng = c.rng
    w = c.w
    lines = [
        f"# memory/user_{c.p.handle.split('.')[0]}.md",
        "",
        "## Profile",
        f"- {w['name']}: {c.name()}",
        f"- {w['phone']}: {c.phone()}",
        f"- {c.s[2]}",
        "",
        "## Accounts",
    ]
    r = rng.randrange(5)
    if r == 4:
        lines.append(
            f"- SSH key for the home NAS (user asked me to keep it):\n```\n{c.add('private_key', c.pem())}\n```"
        )
    elif r == 0:
        lines.append(f"- home Wi-Fi password: {c.pw()}")
    elif r == 1:
        lines.append(f"- {w['iban']}: {c.iban()}")
    elif r == 2:
        lines.append(f"- OpenRouter / API key the user pasted: {c.api().value}")
    else:
        lines.append(
            f"- {w['card']}: {c.card()} (exp {rng.randint(1, 12):02d}/{rng.randint(26, 30)})"
        )
    if rng.random() < 0.5:
        label, nid = c.natid()
        lines.append(f"- {label}: {nid}")
    if rng.random() < 0.3:
        lines.append(f"- US SSN (from the W-4): {c.ssn()}")
    if rng.random() < 0.4:
        lines.append(f"- {w['passport']}: {c.passport()}")
    lines += [
        "",
        "## Follow-ups",
        f"- [ ] {c.s[1]} ({c.k('plain_date')})",
        f"- [ ] {c.name(c.q)} — {c.email(c.q)}",
        f"- [x] order {c.k('ticket')} {c.k('price')}",
    ]
    return "\n".join(lines)


def form(
    c: Ctx, title: str, kinds: tuple[str, ...], tail: list[str], second: tuple[str, ...] = ()
) -> str:
    lines = [title, "", *c.kv(c.p, ("name", *kinds))]
    if second:
        lines += ["", *c.kv(c.q, ("name", *second))]
    lines += ["", f"{c.w['note']}: {c.s[c.rng.randrange(4)]}", *tail]
    return "\n".join(lines)


TITLES = {
    "legal": {
        "hu": "Ügyfélfelvételi lap — jogi tanácsadás",
        "da": "Sagsoprettelse — juridisk rådgivning",
        "nb": "Saksinntak — advokatkontor",
        "ms": "Borang pengambilan kes — guaman",
        "fil": "Intake form — legal aid",
        "sw": "Fomu ya kupokea kesi — msaada wa kisheria",
        "fa": "فرم پذیرش پرونده — مشاوره حقوقی",
        "bn": "মামলা গ্রহণ ফর্ম — আইনি সহায়তা",
        "ta": "வழக்கு பதிவு படிவம் — சட்ட உதவி",
        "ca": "Full d'alta de client — assessorament jurídic",
        "hr": "Prijemni list — pravno savjetovanje",
        "sr": "Пријемни лист — правно саветовање",
        "bg": "Приемна карта — правна консултация",
        "sk": "Príjmový formulár — právna poradňa",
        "lt": "Kliento priėmimo forma — teisinė konsultacija",
        "et": "Kliendi vastuvõtuleht — õigusabi",
        "en_in": "Client intake — legal notice matter",
        "en_au": "Legal intake — tenancy dispute",
        "en_ng": "Client intake sheet — chambers",
        "en_za": "Intake note — attorneys",
    },
    "tenancy": {
        "hu": "Bérleti szerződés (kivonat)",
        "da": "Lejekontrakt (uddrag)",
        "nb": "Husleiekontrakt (utdrag)",
        "ms": "Perjanjian sewa (petikan)",
        "fil": "Kontrata ng upa (bahagi)",
        "sw": "Mkataba wa kupanga nyumba (sehemu)",
        "fa": "اجاره‌نامه (خلاصه)",
        "bn": "ভাড়ার চুক্তি (অংশ)",
        "ta": "வாடகை ஒப்பந்தம் (பகுதி)",
        "ca": "Contracte d'arrendament (extracte)",
        "hr": "Ugovor o najmu (izvadak)",
        "sr": "Уговор о закупу (извод)",
        "bg": "Договор за наем (извадка)",
        "sk": "Nájomná zmluva (výťah)",
        "lt": "Nuomos sutartis (ištrauka)",
        "et": "Üürileping (väljavõte)",
        "en_in": "Leave and licence agreement (extract)",
        "en_au": "Residential tenancy agreement (extract)",
        "en_ng": "Tenancy agreement (extract)",
        "en_za": "Lease agreement (extract)",
    },
    "visa": {
        "hu": "Vízumkérelem — ellenőrzőlista",
        "da": "Visumansøgning — tjekliste",
        "nb": "Visumsøknad — sjekkliste",
        "ms": "Permohonan visa — senarai semak",
        "fil": "Visa application — checklist",
        "sw": "Maombi ya viza — orodha",
        "fa": "درخواست ویزا — چک‌لیست",
        "bn": "ভিসা আবেদন — চেকলিস্ট",
        "ta": "விசா விண்ணப்பம் — சரிபார்ப்பு பட்டியல்",
        "ca": "Sol·licitud de visat — llista de control",
        "hr": "Zahtjev za vizu — popis",
        "sr": "Захтев за визу — списак",
        "bg": "Заявление за виза — списък",
        "sk": "Žiadosť o vízum — kontrolný zoznam",
        "lt": "Vizos prašymas — kontrolinis sąrašas",
        "et": "Viisataotlus — kontroll-leht",
        "en_in": "US B1/B2 visa (DS-160) — prep notes",
        "en_au": "Visa application — prep notes",
        "en_ng": "UK visitor visa — application notes",
        "en_za": "Schengen visa — application notes",
    },
    "pharmacy": {
        "hu": "Gyógyszerrendelés",
        "da": "Apoteksbestilling",
        "nb": "Apotekbestilling",
        "ms": "Pesanan farmasi",
        "fil": "Order sa botika",
        "sw": "Agizo la duka la dawa",
        "fa": "سفارش داروخانه",
        "bn": "ফার্মেসি অর্ডার",
        "ta": "மருந்தக ஆர்டர்",
        "ca": "Comanda de farmàcia",
        "hr": "Narudžba iz ljekarne",
        "sr": "Поруџбина из апотеке",
        "bg": "Поръчка от аптека",
        "sk": "Objednávka z lekárne",
        "lt": "Vaistinės užsakymas",
        "et": "Apteegitellimus",
        "en_in": "Pharmacy order",
        "en_au": "Chemist order",
        "en_ng": "Pharmacy order",
        "en_za": "Pharmacy script order",
    },
    "lab": {
        "hu": "Laborlelet",
        "da": "Laboratoriesvar",
        "nb": "Laboratoriesvar",
        "ms": "Keputusan makmal",
        "fil": "Resulta ng laboratoryo",
        "sw": "Matokeo ya maabara",
        "fa": "جواب آزمایش",
        "bn": "ল্যাব রিপোর্ট",
        "ta": "ஆய்வக முடிவுகள்",
        "ca": "Resultats de laboratori",
        "hr": "Laboratorijski nalaz",
        "sr": "Лабораторијски налаз",
        "bg": "Лабораторен резултат",
        "sk": "Laboratórny výsledok",
        "lt": "Laboratorinių tyrimų rezultatai",
        "et": "Laborianalüüsi vastus",
        "en_in": "Lab report",
        "en_au": "Pathology results",
        "en_ng": "Laboratory result",
        "en_za": "Pathology report",
    },
    "itinerary": {
        "hu": "Utazási terv",
        "da": "Rejseplan",
        "nb": "Reiserute",
        "ms": "Jadual perjalanan",
        "fil": "Itinerary ng biyahe",
        "sw": "Ratiba ya safari",
        "fa": "برنامه سفر",
        "bn": "ভ্রমণসূচি",
        "ta": "பயணத் திட்டம்",
        "ca": "Itinerari de viatge",
        "hr": "Plan putovanja",
        "sr": "План путовања",
        "bg": "Маршрут на пътуването",
        "sk": "Cestovný plán",
        "lt": "Kelionės planas",
        "et": "Reisiplaan",
        "en_in": "Travel itinerary",
        "en_au": "Travel itinerary",
        "en_ng": "Travel itinerary",
        "en_za": "Travel itinerary",
    },
    "customs": {
        "hu": "Vámáru-nyilatkozat",
        "da": "Toldangivelse",
        "nb": "Tolldeklarasjon",
        "ms": "Pengisytiharan kastam",
        "fil": "Deklarasyon sa customs",
        "sw": "Tamko la forodha",
        "fa": "اظهارنامه گمرکی",
        "bn": "শুল্ক ঘোষণাপত্র",
        "ta": "சுங்க அறிவிப்பு",
        "ca": "Declaració de duanes",
        "hr": "Carinska deklaracija",
        "sr": "Царинска декларација",
        "bg": "Митническа декларация",
        "sk": "Colné vyhlásenie",
        "lt": "Muitinės deklaracija",
        "et": "Tollideklaratsioon",
        "en_in": "Customs declaration",
        "en_au": "Customs declaration",
        "en_ng": "Customs declaration",
        "en_za": "Customs declaration",
    },
    "loan": {
        "hu": "Hitelkérelem",
        "da": "Låneansøgning",
        "nb": "Lånesøknad",
        "ms": "Permohonan pinjaman",
        "fil": "Aplikasyon sa pautang",
        "sw": "Ombi la mkopo",
        "fa": "درخواست وام",
        "bn": "ঋণের আবেদন",
        "ta": "கடன் விண்ணப்பம்",
        "ca": "Sol·licitud de préstec",
        "hr": "Zahtjev za kredit",
        "sr": "Захтев за кредит",
        "bg": "Искане за кредит",
        "sk": "Žiadosť o úver",
        "lt": "Paskolos paraiška",
        "et": "Laenutaotlus",
        "en_in": "Personal loan application",
        "en_au": "Home loan application",
        "en_ng": "Loan application",
        "en_za": "Vehicle finance application",
    },
    "moderation": {
        "hu": "Moderálási jegyzet — apróhirdetés",
        "da": "Moderationsnote — markedsplads",
        "nb": "Moderering — markedsplass",
        "ms": "Nota moderasi — pasaran",
        "fil": "Moderation note — marketplace",
        "sw": "Maelezo ya udhibiti — soko la mtandaoni",
        "fa": "یادداشت مدیریت محتوا — بازارچه",
        "bn": "মডারেশন নোট — মার্কেটপ্লেস",
        "ta": "மதிப்பீட்டு குறிப்பு — சந்தை",
        "ca": "Nota de moderació — app de cites",
        "hr": "Bilješka moderatora — oglasnik",
        "sr": "Белешка модератора — огласи",
        "bg": "Бележка на модератор — обяви",
        "sk": "Poznámka moderátora — bazár",
        "lt": "Moderatoriaus pastaba — skelbimai",
        "et": "Moderaatori märge — kuulutused",
        "en_in": "Moderation note — matrimony site",
        "en_au": "Moderation note — dating app",
        "en_ng": "Moderation note — marketplace",
        "en_za": "Moderation note — dating app",
    },
}


def doc_legal(c: Ctx) -> str:
    kinds = c.some("dob", "addr", "phone", "email", "natid", "iban", "passport")
    tail = [f"Ref: {c.k('case_no')}", f"{c.k('plain_date')}"]
    if c.loc.startswith("en") and c.rng.random() < 0.4:
        tail.append(f"Client also holds a US SSN: {c.ssn()}")
    return form(
        c, TITLES["legal"][c.loc], kinds, tail, second=c.some("phone", "addr", "email", n=(0, 1))
    )


def doc_tenancy(c: Ctx) -> str:
    kinds = c.some("dob", "natid", "phone", "email", "iban", n=(2, 3))
    tail = [f"{c.w['addr']}: {c.addr()}, {CITY[c.loc]}", f"{c.k('price')} / {c.k('plain_date')}"]
    return form(
        c,
        TITLES["tenancy"][c.loc],
        kinds,
        tail,
        second=c.some("natid", "iban", "phone", "dob", n=(1, 2)),
    )


def doc_visa(c: Ctx) -> str:
    kinds = ("passport", *c.some("dob", "natid", "addr", "phone", "email", n=(2, 3)))
    tail = [c.k("flight"), c.k("plain_date")]
    if c.loc.startswith("en") or c.rng.random() < 0.2:
        tail.append(f"U.S. Social Security Number (if any): {c.ssn()}")
    if c.rng.random() < 0.4:
        tail.append(f"Fee paid by {c.card()} — {c.k('price')}")
    return form(c, TITLES["visa"][c.loc], kinds, tail)


def doc_pharmacy(c: Ctx) -> str:
    kinds = c.some("dob", "natid", "addr", "phone", n=(2, 3))
    tail = [
        f"ATC {c.k('atc')} ×{c.rng.randint(1, 3)} — {c.k('price')}",
        f"{c.w['card']}: {c.card()}" if c.rng.random() < 0.6 else f"EAN {c.k('ean13')}",
    ]
    return form(c, TITLES["pharmacy"][c.loc], kinds, tail)


def doc_lab(c: Ctx) -> str:
    kinds = c.some("dob", "natid", "phone", n=(2, 3))
    rows = [f"K⁺ 4.{c.rng.randint(0, 9)} ({c.k('lab_range')})", f"{c.k('plain_date')}"]
    return form(c, TITLES["lab"][c.loc], kinds, rows, second=c.some("phone", "email", n=(0, 1)))


def doc_itinerary(c: Ctx) -> str:
    kinds = ("passport", *c.some("dob", "phone", "email", "card", n=(1, 3)))
    tail = [f"{c.k('flight')} · {c.k('plain_date')}", f"{c.k('flight')} · {c.k('price')}"]
    return form(
        c, TITLES["itinerary"][c.loc], kinds, tail, second=c.some("passport", "dob", n=(0, 2))
    )


def doc_customs(c: Ctx) -> str:
    kinds = ("passport", *c.some("addr", "natid", "phone", "dob", n=(1, 2)))
    tail = [
        f"HS {c.k('hs_code')} — {c.k('price')}",
        f"IMEI {c.k('imei_test')} (demo unit)",
        f"{c.k('org_number')}",
    ]
    return form(c, TITLES["customs"][c.loc], kinds, tail)


def doc_loan(c: Ctx) -> str:
    kinds = ("natid", "iban", *c.some("dob", "addr", "phone", "email", n=(1, 3)))
    tail = [f"{c.k('ticket')} · {c.k('price')}", f"{c.k('iban_fail')} (?)"]
    if c.loc.startswith("en") and c.rng.random() < 0.5:
        tail.append(f"Previous US residence — SSN {c.ssn()}")
    return form(c, TITLES["loan"][c.loc], kinds, tail, second=c.some("phone", "natid", n=(0, 2)))


def doc_moderation(c: Ctx) -> str:
    kinds = c.some("phone", "email", "iban", "card", n=(1, 2))
    tail = [f"signup IP {c.ip()}", f"{c.k('ticket')} · {c.k('luhn_fail')} (fake, flagged)"]
    return form(c, TITLES["moderation"][c.loc], kinds, tail)


# --- assembly ---------------------------------------------------------------------------------

S, P = "secret", "personal"
# fmt: off
DOCS: dict[str, tuple[Callable[[Ctx], str], tuple[str, ...], bool]] = {
    # name: (render, kinds it can carry, written in the local language)
    "slack_json": (doc_slack_json, ("person_name", "email", "phone", "api_key", "jwt", "password"), False),
    "teams_json": (doc_teams_json, ("person_name", "iban", "street_address", "phone", "date_of_birth"), False),
    "jupyter": (doc_jupyter, ("api_key", "secret", "auth_header", "person_name", "email", "national_id", "cookie"), False),
    "tfstate": (doc_tfstate, ("private_key", "password", "ip_address", "api_key", "secret"), False),
    "compose": (doc_compose, ("credential", "api_key", "secret", "email", "password"), False),
    "systemd": (doc_systemd, ("api_key", "password", "secret", "credential", "phone"), False),
    "k8s_events": (doc_k8s_events, ("person_name", "email", "secret", "credential", "ip_address"), False),
    "kubeconfig": (doc_kubeconfig, ("person_name", "ip_address", "private_key", "jwt", "credential"), False),
    "gha_log": (doc_gha_log, ("auth_header", "person_name", "email", "api_key", "ip_address"), False),
    "airflow": (doc_airflow, ("credential", "person_name", "phone", "date_of_birth", "api_key"), False),
    "dbt": (doc_dbt, ("national_id", "person_name", "email"), False),
    "excel": (doc_excel, ("person_name", "date_of_birth", "national_id", "iban", "phone", "street_address", "email", "passport", "card_number", "ssn"), True),
    "properties": (doc_properties, ("credential", "password", "email", "api_key", "secret"), False),
    "toml": (doc_toml, ("person_name", "email", "phone", "password", "api_key", "cookie"), False),
    "ini": (doc_ini, ("ip_address", "credential", "person_name", "phone", "secret"), False),
    "powershell": (doc_powershell, ("api_key", "password", "email", "auth_header", "ip_address"), False),
    "registry": (doc_registry, ("password", "api_key", "person_name", "credential"), False),
    "smtp_log": (doc_smtp_log, ("email", "auth_header", "ip_address"), False),
    "ldif": (doc_ldif, ("person_name", "email", "phone", "street_address", "password", "national_id"), False),
    "crash": (doc_crash, ("api_key", "person_name", "card_number", "phone", "ip_address", "cookie"), False),
    "webconfig": (doc_webconfig, ("credential", "person_name", "email", "api_key", "secret"), False),
    "maven": (doc_maven, ("password", "api_key", "person_name", "email"), False),
    "spring_yml": (doc_spring_yml, ("credential", "secret", "jwt", "phone"), False),
    "browser": (doc_browser_console, ("cookie", "jwt", "email", "person_name", "card_number", "auth_header"), False),
    "llm_trace": (doc_llm_trace, ("person_name", "date_of_birth", "passport", "national_id", "ssn", "card_number"), False),
    "memory": (doc_agent_memory, ("person_name", "phone", "password", "iban", "private_key", "api_key", "card_number", "national_id", "ssn", "passport", "email"), True),
    "legal": (doc_legal, ("person_name", "date_of_birth", "street_address", "phone", "email", "national_id", "iban", "passport", "ssn"), True),
    "tenancy": (doc_tenancy, ("person_name", "date_of_birth", "national_id", "phone", "email", "iban", "street_address"), True),
    "visa": (doc_visa, ("person_name", "passport", "date_of_birth", "national_id", "street_address", "phone", "email", "ssn", "card_number"), True),
    "pharmacy": (doc_pharmacy, ("person_name", "date_of_birth", "national_id", "street_address", "phone", "card_number"), True),
    "lab": (doc_lab, ("person_name", "date_of_birth", "national_id", "phone", "email"), True),
    "itinerary": (doc_itinerary, ("person_name", "passport", "date_of_birth", "phone", "email", "card_number"), True),
    "customs": (doc_customs, ("person_name", "passport", "street_address", "national_id", "phone", "date_of_birth"), True),
    "loan": (doc_loan, ("person_name", "national_id", "iban", "date_of_birth", "street_address", "phone", "email", "ssn"), True),
    "moderation": (doc_moderation, ("person_name", "phone", "email", "iban", "card_number", "ip_address"), True),
}
# fmt: on


def make_sample(
    rng: random.Random, index: int, counts: Counter[str], langs: Counter[str]
) -> dict[str, object]:
    names = list(DOCS)
    weights = [max(1.0 / (1 + counts[k]) ** 2 for k in DOCS[n][1]) + 0.0005 for n in names]
    doc = rng.choices(names, weights=weights)[0]
    render, _, _ = DOCS[doc]
    loc = rng.choices(LOCALES, weights=[1.0 / (1 + langs[x]) ** 2 for x in LOCALES])[0]
    c = Ctx(rng, loc)
    text = render(c)
    stay = list(dict.fromkeys(c.keeps))
    return {
        "id": f"{index:04d}-{doc}-{loc}",
        "text": text,
        "must_go": [{"kind": k, "value": v} for k, v in c.go],
        "must_stay": [v for v, _ in stay],
        "stay_sorts": [s for _, s in stay],
    }


def _clean(sample: dict[str, object]) -> bool:
    """generate.consistent, plus: a look-alike listed once, and no value of one kind inside
    another value (a name inside an e-mail would make the label ambiguous)."""
    if not gen.consistent(sample):
        return False
    stay = sample["must_stay"]
    if len(set(stay)) != len(stay):  # type: ignore[arg-type]
        return False
    values = [g["value"] for g in sample["must_go"]]  # type: ignore[attr-defined]
    return not any(a != b and a in b for a in values for b in values)


def build_blind5(count: int = 330, seed: int = SEED) -> list[dict[str, object]]:
    rng = random.Random(seed)
    counts: Counter[str] = Counter()
    langs: Counter[str] = Counter()
    samples: list[dict[str, object]] = []
    while len(samples) < count:
        sample = make_sample(rng, len(samples), counts, langs)
        if _clean(sample):
            samples.append(sample)
            counts.update(g["kind"] for g in sample["must_go"])  # type: ignore[attr-defined]
            langs[str(sample["id"]).rsplit("-", 1)[1]] += 1
    return samples


if __name__ == "__main__":
    corpus = build_blind5()
    go = Counter(g["kind"] for s in corpus for g in s["must_go"])  # type: ignore[attr-defined]
    print(len(corpus), dict(sorted(go.items())))
