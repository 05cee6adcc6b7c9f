"""Build the labeled corpus the redaction filter is measured on.

    .venv/bin/python tests/corpus/generate.py            # writes tests/corpus/samples.jsonl
    .venv/bin/python tests/corpus/generate.py --holdout  # prints a held-out variant
    .venv/bin/python tests/corpus/generate.py --fresh    # prints a second, untuned one
    .venv/bin/python tests/corpus/generate.py --blind    # prints one written blind to the detectors
    .venv/bin/python tests/corpus/generate.py --blind2   # a second blind one (blind2.py)
    .venv/bin/python tests/corpus/generate.py --blind3   # a third blind one (blind3.py)
    .venv/bin/python tests/corpus/generate.py --blind4   # a fourth blind one (blind4.py)
    .venv/bin/python tests/corpus/generate.py --blind5   # a fifth blind one (blind5.py)

Each sample is a realistic agent note (chat transcript, config file, log, shell
history, code, ticket, clinical, HR or CRM note, in one of several languages)
with the values that must be removed (``must_go``: kind and exact text) and the
look-alikes that must survive (``must_stay``). Every secret and identifier is
random and made here, from a fixed seed: formats, prefixes and check digits are
right so that validators accept them, but none was ever issued to anyone.

The value generators and ``needle``/``keep`` are also used by the property
tests, which embed one value in random surrounding text.
"""

# ruff: noqa: E501 -- phrase tables in nine languages and format strings read best unwrapped

from __future__ import annotations

import base64
import json
import random
import re
import string
import sys
import unicodedata
import uuid
import zlib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

SEED = 20_261_122
SAMPLES = 610
OUT = Path(__file__).resolve().parent / "samples.jsonl"

# fmt: off
SECRET_KINDS = (
    "api_key", "password", "private_key", "credential", "auth_header", "cookie", "jwt", "secret",
)
# fmt: on
# fmt: off
STRUCTURED_KINDS = (
    "email", "phone", "ssn", "card_number", "iban", "ip_address", "date_of_birth", "passport",
    "national_id",
)
# fmt: on
FUZZY_KINDS = ("person_name", "street_address")
KINDS = SECRET_KINDS + STRUCTURED_KINDS + FUZZY_KINDS
LANGS = ("en", "de", "fr", "es", "pt", "ru", "zh", "ja", "hi")

ALNUM = string.ascii_letters + string.digits
B62 = string.digits + string.ascii_uppercase + string.ascii_lowercase
URLSAFE = ALNUM + "-_"
HEX = "0123456789abcdef"
B64 = ALNUM + "+/"


def rand(rng: random.Random, alphabet: str, n: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def digits(rng: random.Random, n: int, first: str = string.digits) -> str:
    return rng.choice(first) + rand(rng, string.digits, n - 1)


@dataclass
class Item:
    """One value to embed: ``value`` is what must go; ``shown`` is how it appears in
    prose (``Authorization: Bearer <value>``); ``key``/``cfg`` are its config form."""

    kind: str
    value: str
    shown: str
    key: str
    cfg: str
    label: str = ""  # the word people put before it (national ids)


def item(kind: str, value: str, key: str, shown: str | None = None, cfg: str | None = None):
    return Item(kind, value, shown if shown is not None else value, key, cfg or value)


# --- secrets -----------------------------------------------------------------------------


def base62(number: int) -> str:
    out = ""
    while number:
        number, rem = divmod(number, 62)
        out = B62[rem] + out
    return out


def github_token(rng: random.Random, prefix: str = "ghp") -> str:
    payload = rand(rng, ALNUM, 30)
    return f"{prefix}_{payload}{base62(zlib.crc32(payload.encode())).rjust(6, '0')}"


def api_key(rng: random.Random) -> Item:
    r = rng.randrange(16)
    if r < 3:
        prefix = rng.choice(["ghp", "ghp", "gho", "ghu", "ghs", "ghr"])
        return item("api_key", github_token(rng, prefix), "GITHUB_TOKEN")
    if r == 3:
        v = f"github_pat_{rand(rng, ALNUM, 22)}_{rand(rng, ALNUM, 59)}"
        return item("api_key", v, "GH_PAT")
    if r == 4:
        return item(
            "api_key",
            "AKIA" + rand(rng, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16),
            "AWS_ACCESS_KEY_ID",
        )
    if r == 5:
        kind = rng.choice(["xoxb", "xoxp"])
        v = f"{kind}-{digits(rng, rng.randint(10, 13))}-{digits(rng, rng.randint(10, 13))}-{rand(rng, ALNUM, 24)}"
        return item("api_key", v, "SLACK_BOT_TOKEN")
    if r == 6:
        v = rng.choice(["sk_live_", "rk_live_"]) + rand(rng, ALNUM, rng.choice([24, 34, 99]))
        return item("api_key", v, "STRIPE_SECRET_KEY")
    if r == 7:
        return item("api_key", "sk-ant-api03-" + rand(rng, URLSAFE, 93) + "AA", "ANTHROPIC_API_KEY")
    if r == 8:
        v = "sk-proj-" + rand(rng, URLSAFE, 74) + "T3BlbkFJ" + rand(rng, URLSAFE, 74)
        return item("api_key", v, "OPENAI_API_KEY")
    if r == 9:
        return item("api_key", "AIza" + rand(rng, URLSAFE, 35), "GOOGLE_API_KEY")
    if r == 10:
        return item("api_key", "glpat-" + rand(rng, URLSAFE, 20), "GITLAB_TOKEN")
    if r == 11:
        return item("api_key", github_token(rng, "npm"), "NPM_TOKEN")  # same CRC32 tail
    if r == 12:
        v = f"SG.{rand(rng, URLSAFE, 22)}.{rand(rng, URLSAFE, 43)}"
        return item("api_key", v, "SENDGRID_API_KEY")
    if r == 13:
        return item("api_key", "hf_" + rand(rng, string.ascii_letters, 34), "HF_TOKEN")
    if r == 14:
        v = rng.choice(["shpat_", "dop_v1_"])
        v += rand(rng, HEX, 32 if v == "shpat_" else 64)
        return item("api_key", v, "SHOPIFY_TOKEN" if v.startswith("shpat") else "DO_TOKEN")
    v = f"{digits(rng, 10, '123456789')}:AA{rand(rng, URLSAFE, 33)}"
    return item("api_key", v, "TELEGRAM_BOT_TOKEN")


WORDS = ["Sommer", "Winter", "Falcon", "Bluebird", "Mango", "Tiger", "Orion", "Paris", "Rosa"]


def password_value(rng: random.Random, url_safe: bool = False) -> str:
    if url_safe:
        return rand(rng, ALNUM, rng.randint(12, 20)) + rand(rng, "-_.~", 1) + rand(rng, ALNUM, 3)
    r = rng.randrange(3)
    if r == 0:
        return f"{rng.choice(WORDS)}{rng.randint(1970, 2025)}{rng.choice('!#$%&*?')}"
    if r == 1:
        return rand(rng, ALNUM, 6) + rand(rng, "!#$%&*+-=?^_~@", 2) + rand(rng, ALNUM, 8)
    w = [
        rng.choice(["correct", "velvet", "staple", "orbit", "maple", "quartz", "ember"])
        for _ in "123"
    ]
    return "-".join(w) + str(rng.randint(10, 99))


def password(rng: random.Random) -> Item:
    key = rng.choice(
        [
            "DB_PASSWORD",
            "POSTGRES_PASSWORD",
            "SMTP_PASSWORD",
            "REDIS_PASSWORD",
            "admin_password",
            "MYSQL_ROOT_PASSWORD",
        ]
    )
    return item("password", password_value(rng), key)


# fmt: off
HOSTS = [
    "db.internal", "10.0.3.12", "pg-prod.acme-logistics.io", "mongo-1.cluster.local", "cache.svc",
]
# fmt: on


def credential(rng: random.Random) -> Item:
    pw = password_value(rng, url_safe=True)
    user = rng.choice(["app", "admin", "deploy", "svc_orders", "root", "etl"])
    scheme, port = rng.choice(
        [
            ("postgresql", 5432),
            ("postgres", 5432),
            ("mysql", 3306),
            ("mongodb+srv", 0),
            ("redis", 6379),
            ("amqp", 5672),
            ("https", 0),
            ("ftp", 21),
        ]
    )
    host = rng.choice(HOSTS)
    url = (
        f"{scheme}://{user}:{pw}@{host}"
        + (f":{port}" if port else "")
        + "/"
        + rng.choice(["app", "orders", "0", "vhost", "repo.git"])
    )
    return item("credential", pw, "DATABASE_URL", shown=url, cfg=url)


def auth_header(rng: random.Random) -> Item:
    r = rng.randrange(4)
    if r == 0:
        v = rand(rng, ALNUM, 40)
        return item(
            "auth_header", v, "Authorization", shown=f"Authorization: Bearer {v}", cfg=f"Bearer {v}"
        )
    if r == 1:
        raw = f"{rng.choice(['admin', 'ops', 'bob'])}:{password_value(rng)}".encode()
        v = base64.b64encode(raw).decode()
        return item(
            "auth_header", v, "Authorization", shown=f"Authorization: Basic {v}", cfg=f"Basic {v}"
        )
    if r == 2:
        v = "ya29." + rand(rng, URLSAFE, 120)
        return item(
            "auth_header", v, "Authorization", shown=f"Authorization: Bearer {v}", cfg=f"Bearer {v}"
        )
    v = rand(rng, HEX, 32)
    return item("auth_header", v, "X-Api-Key", shown=f"X-Api-Key: {v}", cfg=v)


def cookie(rng: random.Random) -> Item:
    name, v = rng.choice(
        [
            ("sessionid", rand(rng, string.ascii_lowercase + string.digits, 32)),
            ("JSESSIONID", rand(rng, "0123456789ABCDEF", 32)),
            ("PHPSESSID", rand(rng, string.ascii_lowercase + string.digits, 26)),
            ("connect.sid", "s%3A" + rand(rng, URLSAFE, 32) + "." + rand(rng, ALNUM, 43)),
            ("_session_id", rand(rng, HEX, 32)),
            ("laravel_session", rand(rng, ALNUM, 60) + "%3D"),
        ]
    )
    return item("cookie", v, "SESSION_COOKIE", shown=f"Cookie: {name}={v}", cfg=f"{name}={v}")


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def jwt(rng: random.Random) -> Item:
    header = {"alg": rng.choice(["HS256", "RS256", "ES256"]), "typ": "JWT"}
    now = 1_700_000_000 + rng.randrange(60_000_000)
    payload = {
        "sub": str(uuid.UUID(int=rng.getrandbits(128), version=4)),
        "iat": now,
        "exp": now + 3600,
    }
    if rng.random() < 0.5:
        payload["scope"] = rng.choice(["read", "read write", "admin"])
    sig = bytes(rng.getrandbits(8) for _ in range(32))
    v = ".".join(b64url(json.dumps(p, separators=(",", ":")).encode()) for p in (header, payload))
    v += "." + b64url(sig)
    return item("jwt", v, rng.choice(["ACCESS_TOKEN", "ID_TOKEN", "JWT"]))


def secret(rng: random.Random) -> Item:
    r = rng.randrange(6)
    if r == 0:
        return item("secret", rand(rng, B64, 40), "AWS_SECRET_ACCESS_KEY")
    if r == 1:
        return item("secret", "GOCSPX-" + rand(rng, URLSAFE, 28), "CLIENT_SECRET")
    if r == 2:
        return item("secret", "whsec_" + rand(rng, ALNUM, 32), "STRIPE_WEBHOOK_SECRET")
    if r == 3:
        v = rand(rng, string.ascii_lowercase + string.digits + "!@#$%^&*(-_=+)", 50)
        return item("secret", v, "SECRET_KEY")
    if r == 4:
        return item("secret", rand(rng, HEX, 64), "ENCRYPTION_KEY")
    v = base64.urlsafe_b64encode(bytes(rng.getrandbits(8) for _ in range(32))).decode()
    return item("secret", v, "FERNET_KEY")


def pem_body(rng: random.Random, lead: str, size: int) -> str:
    body = lead + rand(rng, B64, size - len(lead))
    return "\n".join(body[i : i + 64] for i in range(0, len(body), 64))


def private_key(rng: random.Random) -> Item:
    label, lead, size = rng.choice(
        [
            ("RSA PRIVATE KEY", "MIIEowIBAAKCAQEA", 1580),
            ("PRIVATE KEY", "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC", 1620),
            ("PRIVATE KEY", "MC4CAQAwBQYDK2VwBCIEI", 64),
            ("EC PRIVATE KEY", "MHcCAQEEI", 160),
            (
                "OPENSSH PRIVATE KEY",
                "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW",
                380,
            ),
            ("ENCRYPTED PRIVATE KEY", "MIIFHDBOBgkqhkiG9w0BBQ0wQTApBgkqhkiG9w0BBQwwHAQI", 900),
            ("DSA PRIVATE KEY", "MIIBuwIBAAKBgQD", 600),
        ]
    )
    if rng.random() < 0.1:
        body = pem_body(rng, "lQOYBF", 700) + "\n=" + rand(rng, B64, 4)
        v = f"-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n{body}\n-----END PGP PRIVATE KEY BLOCK-----"
    else:
        v = f"-----BEGIN {label}-----\n{pem_body(rng, lead, size)}\n-----END {label}-----"
    return item("private_key", v, "PRIVATE_KEY")


# --- personal data -------------------------------------------------------------------------

# fmt: off
NAMES = {
    "en": (["James", "Emily", "Olivia", "Michael", "Sarah", "David", "Grace", "Daniel", "Chloe", "Ethan", "Hannah", "Marcus"], ["Thompson", "Carter", "Mitchell", "Harrison", "Whitaker", "Bennett", "Sullivan", "Reynolds", "Caldwell", "Fletcher", "Donovan", "Palmer"],),
    "de": (["Thomas", "Katrin", "Jürgen", "Sabine", "Lukas", "Anja", "Matthias", "Ute", "Felix", "Birgit", "Jonas", "Heike"], ["Müller", "Schneider", "Fischer", "Weber", "Becker", "Hoffmann", "Schäfer", "Koch", "Richter", "Wolf", "Schröder", "Neumann"],),
    "fr": (["Claire", "Julien", "Camille", "Mathieu", "Élodie", "Nicolas", "Aurélie", "Sébastien", "Manon", "Antoine", "Céline", "Hugo"], ["Dubois", "Lefèvre", "Moreau", "Laurent", "Girard", "Rousseau", "Fontaine", "Chevalier", "Gauthier", "Mercier", "Bonnet", "Lambert"],),
    "es": (["Javier", "Lucía", "Alejandro", "Carmen", "Diego", "Marta", "Pablo", "Elena", "Sergio", "Nuria", "Álvaro", "Rocío"], ["García", "Fernández", "Martínez", "López", "Sánchez", "Romero", "Navarro", "Ortega", "Castillo", "Morales", "Delgado", "Herrera"],),
    "pt": (["João", "Ana", "Pedro", "Mariana", "Lucas", "Beatriz", "Rafael", "Camila", "Thiago", "Larissa", "Gustavo", "Fernanda"], ["Silva", "Santos", "Oliveira", "Souza", "Pereira", "Costa", "Rodrigues", "Almeida", "Carvalho", "Ribeiro", "Gomes", "Barbosa"],),
    "ru": (["Иван", "Анна", "Дмитрий", "Ольга", "Сергей", "Елена", "Алексей", "Наталья", "Михаил", "Татьяна", "Андрей", "Ирина"], ["Петров", "Смирнов", "Кузнецов", "Попов", "Соколов", "Лебедев", "Новиков", "Морозов", "Волков", "Фёдоров", "Орлов", "Зайцев"],),
    "zh": (["伟", "芳", "娜", "敏", "静", "磊", "洋", "艳", "勇", "军", "杰", "婷"], ["王", "李", "张", "刘", "陈", "杨", "黄", "赵", "吴", "周", "徐", "孙"],),
    "ja": (["太郎", "花子", "健一", "美咲", "翔太", "陽菜", "大輔", "由美", "拓海", "さくら", "誠", "愛"], ["佐藤", "鈴木", "高橋", "田中", "渡辺", "伊藤", "山本", "中村", "小林", "加藤", "吉田", "山田"],),
    "hi": (["राहुल", "प्रिया", "अमित", "सुनीता", "विकास", "अंजलि", "Rahul", "Priya", "Arjun", "Kavya", "Rohan", "Neha"], ["शर्मा", "वर्मा", "गुप्ता", "सिंह", "पटेल", "यादव", "Sharma", "Verma", "Iyer", "Reddy", "Nair", "Kapoor"],),
}
# fmt: on


def person_name(rng: random.Random, lang: str) -> Item:
    first, last = NAMES[lang]
    if lang == "hi":
        i = rng.randrange(12)
        f = first[i]
        pool = last[:6] if i < 6 else last[6:]
        v = f"{f} {rng.choice(pool)}"
    elif lang == "zh":
        v = rng.choice(last) + rng.choice(first)
    elif lang == "ja":
        v = rng.choice(last) + rng.choice(["", " "]) + rng.choice(first)
    elif lang == "ru" and rng.random() < 0.3:
        v = f"{rng.choice(last)} {rng.choice(first)} {rng.choice(['Сергеевич', 'Ивановна', 'Петрович', 'Андреевна'])}"
    else:
        v = f"{rng.choice(first)} {rng.choice(last)}"
    return item("person_name", v, "contact_name")


# fmt: off
ASCII_HANDLES = [
    "alex", "m.keller", "jdupont", "lucia.gm", "joao.s", "ivanov.a", "zhangwei", "tanaka.k",
    "rsharma", "k.meyer", "c.moreau", "n.ortega", "bia.costa", "olga.v", "liu.yang", "sato.m",
    "priya.v", "h.weber",
]
# fmt: on
# fmt: off
DOMAINS = {
    "en": ["gmail.com", "outlook.com", "yahoo.com", "protonmail.com", "icloud.com", "northwind-freight.co.uk", "brightlane.io"],
    "de": ["web.de", "gmx.de", "t-online.de", "posteo.de", "mueller-bau.de"],
    "fr": ["orange.fr", "free.fr", "laposte.net", "sfr.fr", "atelier-lumen.fr"],
    "es": ["yahoo.es", "hotmail.es", "telefonica.net", "gmail.com", "grupo-alba.es"],
    "pt": ["uol.com.br", "bol.com.br", "gmail.com", "sapo.pt", "terra.com.br"],
    "ru": ["yandex.ru", "mail.ru", "rambler.ru", "bk.ru"],
    "zh": ["qq.com", "163.com", "126.com", "sina.com"],
    "ja": ["yahoo.co.jp", "docomo.ne.jp", "gmail.com", "nifty.com"],
    "hi": ["rediffmail.com", "gmail.com", "yahoo.co.in", "infosys-partners.in"],
}
# fmt: on


def email(rng: random.Random, lang: str) -> Item:
    local = rng.choice(ASCII_HANDLES) + rng.choice(
        ["", "", str(rng.randint(1, 99)), str(rng.randint(1960, 2005))]
    )
    return item("email", f"{local}@{rng.choice(DOMAINS[lang])}", "contact_email")


def phone(rng: random.Random, lang: str) -> Item:
    d = lambda n: rand(rng, string.digits, n)  # noqa: E731
    if lang == "en":
        if rng.random() < 0.6:
            area = digits(rng, 1, "23456789") + rng.choice(["0", "1", "2", "4", "6", "8"])
            area += rng.choice("023456789") if area.endswith("1") else d(1)  # N11 are service codes
            ex = digits(rng, 1, "2346789") + d(2)
            line = d(4)
            v = rng.choice(
                [
                    f"+1 ({area}) {ex}-{line}",
                    f"({area}) {ex}-{line}",
                    f"{area}-{ex}-{line}",
                    f"+1 {area} {ex} {line}",
                ]
            )
        else:
            m = "7" + rng.choice(["4", "5", "8", "9"]) + d(2)
            v = rng.choice(
                [f"+44 {m} {d(6)}", f"0{m} {d(6)}", f"+44 20 {rng.choice('38')}{d(3)} {d(4)}"]
            )
    elif lang == "de":
        m = rng.choice(["151", "152", "157", "160", "162", "170", "171", "172", "176", "178"])
        v = rng.choice(
            [
                f"+49 {m} {d(8)}",
                f"0{m} {d(7)}",
                f"+49 30 {d(8)}",
                f"089 {d(7)}",
                f"+49 (0)40 {d(7)}",
            ]
        )
    elif lang == "fr":
        p = " ".join([digits(rng, 2, "23456789"), *(d(2) for _ in range(3))])
        v = rng.choice([f"+33 6 {p}", f"06 {p}", f"07 {p}", f"01 {p}", f"+33 (0)4 {p}"])
    elif lang == "es":
        v = rng.choice(
            [
                f"+34 6{d(2)} {d(3)} {d(3)}",
                f"6{d(2)} {d(2)} {d(2)} {d(2)}",
                f"91 {d(3)} {d(2)} {d(2)}",
                f"+34 93 {d(3)} {d(2)} {d(2)}",
            ]
        )
    elif lang == "pt":
        ddd = rng.choice(["11", "21", "31", "41", "51", "61", "71", "81"])
        v = rng.choice(
            [
                f"+55 {ddd} 9{d(4)}-{d(4)}",
                f"({ddd}) 9{d(4)}-{d(4)}",
                f"({ddd}) 3{d(3)}-{d(4)}",
                f"+351 91{d(1)} {d(3)} {d(3)}",
            ]
        )
    elif lang == "ru":
        c = "9" + rng.choice(["0", "1", "2", "5", "6", "8"]) + d(1)
        v = rng.choice(
            [
                f"+7 {c} {d(3)}-{d(2)}-{d(2)}",
                f"8 ({c}) {d(3)}-{d(2)}-{d(2)}",
                f"+7 495 {d(3)}-{d(2)}-{d(2)}",
                f"+7{c}{d(7)}",
            ]
        )
    elif lang == "zh":
        c = rng.choice(["13", "15", "18"]) + rng.choice("0123567892")
        v = rng.choice(
            [
                f"+86 {c} {d(4)} {d(4)}",
                f"{c}{d(8)}",
                f"010-{digits(rng, 8, '2345678')}",
                f"+86-{c}-{d(4)}-{d(4)}",
            ]
        )
    elif lang == "ja":
        c = rng.choice(["090", "080", "070"])
        v = rng.choice(
            [
                f"{c}-{d(4)}-{d(4)}",
                f"+81 {c[1:]}-{d(4)}-{d(4)}",
                f"03-{digits(rng, 4, '3456')}-{d(4)}",
                f"06-{digits(rng, 4, '6789')}-{d(4)}",
            ]
        )
    else:
        c = digits(rng, 5, "6789")
        v = rng.choice([f"+91 {c} {d(5)}", f"{c} {d(5)}", f"+91-{c}{d(5)}", f"0{c}{d(5)}"])
    return item("phone", v, "oncall_phone")


def ssn_value(rng: random.Random) -> str:
    while True:
        area = rng.randint(1, 899)
        if area != 666:
            break
    return f"{area:03d}-{rng.randint(1, 99):02d}-{rng.randint(1, 9999):04d}"


def ssn(rng: random.Random, lang: str) -> Item:
    v = ssn_value(rng)
    if rng.random() < 0.15:
        v = v.replace("-", " ")
    return item("ssn", v, "ssn")


def luhn_complete(prefix_and_body: str) -> str:
    total = 0
    for i, ch in enumerate(reversed(prefix_and_body)):
        n = int(ch)
        if i % 2 == 0:
            n *= 2
            if n > 9:
                n -= 9
        total += n
    return prefix_and_body + str((10 - total % 10) % 10)


# fmt: off
CARD_BRANDS = [
    (lambda r: "4", 16), (lambda r: str(r.randint(51, 55)), 16),
    (lambda r: str(r.randint(2221, 2720)), 16), (lambda r: r.choice(["34", "37"]), 15),
    (lambda r: "6011", 16), (lambda r: str(r.randint(3528, 3589)), 16), (lambda r: "36", 14),
    (lambda r: "62", 16), (lambda r: "4", 19),
]
# fmt: on


def card_digits(rng: random.Random) -> str:
    prefix, length = rng.choice(CARD_BRANDS)
    head = prefix(rng)
    return luhn_complete(head + rand(rng, string.digits, length - len(head) - 1))


def format_card(number: str, rng: random.Random) -> str:
    if len(number) in (14, 15):
        groups = [number[:4], number[4:10], number[10:]]
    else:
        groups = [number[i : i + 4] for i in range(0, len(number), 4)]
    return rng.choice([" ", "-", "", " "]).join(groups)


def card_number(rng: random.Random, lang: str) -> Item:
    return item("card_number", format_card(card_digits(rng), rng), "card")


# fmt: off
IBAN_SPECS = {
    "DE": "n18",
    "GB": "a4n14",
    "FR": "n23",
    "ES": "n20",
    "NL": "a4n10",
    "IT": "a1n22",
    "PT": "n21",
    "BE": "n12",
    "CH": "n17",
    "AT": "n16",
    "PL": "n24",
}
# fmt: on


def iban_check(country: str, bban: str) -> str:
    numeric = "".join(str(int(ch, 36)) for ch in bban + country + "00")
    return f"{98 - int(numeric) % 97:02d}"


def iban_parts(rng: random.Random, country: str | None = None) -> tuple[str, str]:
    country = country or rng.choice(list(IBAN_SPECS))
    spec = IBAN_SPECS[country]
    bban = ""
    i = 0
    while i < len(spec):
        kind = spec[i]
        j = i + 1
        while j < len(spec) and spec[j].isdigit():
            j += 1
        n = int(spec[i + 1 : j])
        bban += rand(rng, string.ascii_uppercase if kind == "a" else string.digits, n)
        i = j
    return country, bban


def format_iban(compact: str, rng: random.Random) -> str:
    if rng.random() < 0.6:
        return " ".join(compact[i : i + 4] for i in range(0, len(compact), 4))
    return compact


def iban(rng: random.Random, lang: str) -> Item:
    local = {"de": "DE", "fr": "FR", "es": "ES", "pt": "PT"}.get(lang)
    country, bban = iban_parts(rng, local if local and rng.random() < 0.6 else None)
    return item("iban", format_iban(country + iban_check(country, bban) + bban, rng), "iban")


def public_ipv4(rng: random.Random) -> str:
    while True:
        a = rng.randint(1, 223)
        if a not in (10, 100, 127, 169, 172, 192, 198, 203, 0):
            return f"{a}.{rng.randint(0, 255)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}"


def ip_address(rng: random.Random, lang: str) -> Item:
    if rng.random() < 0.75:
        return item("ip_address", public_ipv4(rng), "server_ip")
    prefix = rng.choice(
        ["2a02:8108", "2a01:4f8", "2600:1f18", "2607:f8b0", "2406:da18", "240e:3b7", "2804:14c"]
    )
    groups = [f"{rng.randrange(1, 0xFFFF):x}" for _ in range(6)]
    if rng.random() < 0.4:
        v = f"{prefix}:{groups[0]}::{groups[1]}"
    else:
        v = f"{prefix}:" + ":".join(groups)
    return item("ip_address", v, "server_ip")


# fmt: off
MONTHS = {
    "en": ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"],
    "de": ["Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober", "November", "Dezember"],
    "fr": ["janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"],
    "es": ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre"],
}
# fmt: on


def date_text(rng: random.Random, lang: str, year: int) -> str:
    m, d = rng.randint(1, 12), rng.randint(1, 28)
    opts = {
        "en": [
            f"{year}-{m:02d}-{d:02d}",
            f"{m:02d}/{d:02d}/{year}",
            f"{d} {MONTHS['en'][m - 1]} {year}",
            f"{MONTHS['en'][m - 1]} {d}, {year}",
        ],
        "de": [
            f"{d:02d}.{m:02d}.{year}",
            f"{d}. {MONTHS['de'][m - 1]} {year}",
            f"{d:02d}.{m:02d}.{year}",
        ],
        "fr": [f"{d:02d}/{m:02d}/{year}", f"{d} {MONTHS['fr'][m - 1]} {year}"],
        "es": [f"{d:02d}/{m:02d}/{year}", f"{d} de {MONTHS['es'][m - 1]} de {year}"],
        "pt": [f"{d:02d}/{m:02d}/{year}", f"{d:02d}-{m:02d}-{year}"],
        "ru": [f"{d:02d}.{m:02d}.{year}"],
        "zh": [f"{year}年{m}月{d}日", f"{year}-{m:02d}-{d:02d}"],
        "ja": [f"{year}年{m}月{d}日", f"{year}/{m:02d}/{d:02d}"],
        "hi": [f"{d:02d}/{m:02d}/{year}", f"{d:02d}-{m:02d}-{year}"],
    }[lang]
    return rng.choice(opts)


def date_of_birth(rng: random.Random, lang: str) -> Item:
    return item("date_of_birth", date_text(rng, lang, rng.randint(1938, 2008)), "dob")


PASSPORT_LETTERS = "CFGHJKLMNPRTVWXYZ"


def passport(rng: random.Random, lang: str) -> Item:
    d = lambda n: rand(rng, string.digits, n)  # noqa: E731
    up = string.ascii_uppercase
    v = {
        "en": lambda: rng.choice([digits(rng, 9, "123456789"), rng.choice("ACEH") + d(8)]),
        "de": lambda: rng.choice("CFGHJK") + rand(rng, PASSPORT_LETTERS + string.digits, 8),
        "fr": lambda: d(2) + rand(rng, up, 2) + d(5),
        "es": lambda: rand(rng, up, 3) + d(6),
        "pt": lambda: rand(rng, up, 2) + d(6),
        "ru": lambda: f"{d(2)} {d(7)}",
        "zh": lambda: rng.choice(["E", "EA", "EB", "G"]) + d(8 if rng.random() < 0.5 else 7),
        "ja": lambda: rng.choice(["TK", "TR", "MZ", "TH"]) + d(7),
        "hi": lambda: rng.choice("ABCDEFGHJKLMNPRSTUVW") + d(7),
    }[lang]()
    return item("passport", v, "passport_no")


def nhs_number(rng: random.Random) -> str:
    while True:
        body = digits(rng, 9, "4")
        total = sum(int(c) * w for c, w in zip(body, range(10, 1, -1), strict=True))
        check = 11 - total % 11
        check = 0 if check == 11 else check
        if check != 10:
            n = body + str(check)
            return f"{n[:3]} {n[3:6]} {n[6:]}"


def nino(rng: random.Random) -> str:
    first = "ABCEGHJKLMNOPRSTWXYZ"
    second = "ABCEGHJKLMNPRSTWXYZ"
    while True:
        p = rng.choice(first) + rng.choice(second)
        if p not in ("BG", "GB", "NK", "KN", "TN", "NT", "ZZ"):
            break
    d = rand(rng, string.digits, 6)
    s = rng.choice("ABCD")
    return rng.choice([f"{p}{d}{s}", f"{p} {d[:2]} {d[2:4]} {d[4:]} {s}"])


# fmt: off
VERHOEFF_D = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 2, 3, 4, 0, 6, 7, 8, 9, 5], [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
    [3, 4, 0, 1, 2, 8, 9, 5, 6, 7], [4, 0, 1, 2, 3, 9, 5, 6, 7, 8], [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
    [6, 5, 9, 8, 7, 1, 0, 4, 3, 2], [7, 6, 5, 9, 8, 2, 1, 0, 4, 3], [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
    [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
]
# fmt: on
# fmt: off
VERHOEFF_P = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 5, 7, 6, 2, 8, 3, 0, 9, 4], [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
    [8, 9, 1, 6, 0, 4, 3, 5, 2, 7], [9, 4, 5, 3, 1, 2, 6, 8, 7, 0], [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
    [2, 7, 9, 3, 8, 0, 6, 4, 1, 5], [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
]
# fmt: on
VERHOEFF_INV = [0, 4, 3, 2, 1, 5, 6, 7, 8, 9]


def verhoeff_digit(number: str) -> str:
    c = 0
    for i, ch in enumerate(reversed(number)):
        c = VERHOEFF_D[c][VERHOEFF_P[(i + 1) % 8][int(ch)]]
    return str(VERHOEFF_INV[c])


def aadhaar(rng: random.Random) -> str:
    body = digits(rng, 11, "23456789")
    n = body + verhoeff_digit(body)
    return rng.choice([f"{n[:4]} {n[4:8]} {n[8:]}", n, f"{n[:4]}-{n[4:8]}-{n[8:]}"])


def steuer_id(rng: random.Random) -> str:
    while True:
        ds = rng.sample("0123456789", 9)
        if ds[0] == "0":
            continue
        dup = rng.choice(ds)
        pos = rng.randrange(1, 10)
        first10 = [*ds[:pos], dup, *ds[pos:]]
        break
    product = 10
    for ch in first10:
        total = (int(ch) + product) % 10 or 10
        product = (total * 2) % 11
    check = (11 - product) % 10
    n = "".join(first10) + str(check)
    return rng.choice([n, f"{n[:2]} {n[2:5]} {n[5:8]} {n[8:]}"])


def nir(rng: random.Random) -> str:
    body = f"{rng.choice('12')}{rng.randint(40, 99):02d}{rng.randint(1, 12):02d}{rng.randint(1, 95):02d}{rng.randint(1, 999):03d}{rng.randint(1, 999):03d}"
    key = 97 - int(body) % 97
    return rng.choice(
        [
            f"{body}{key:02d}",
            f"{body[0]} {body[1:3]} {body[3:5]} {body[5:7]} {body[7:10]} {body[10:]} {key:02d}",
        ]
    )


def dni(rng: random.Random) -> str:
    n = rng.randint(10_000_000, 99_999_999)
    return f"{n}{'TRWAGMYFPDXBNJZSQVHLCKE'[n % 23]}"


def cpf(rng: random.Random) -> str:
    ds = [rng.randint(0, 9) for _ in range(9)]
    for weight in (10, 11):
        s = sum(d * w for d, w in zip(ds, range(weight, 1, -1), strict=False))
        ds.append((s * 10 % 11) % 10)
    n = "".join(map(str, ds))
    return rng.choice([f"{n[:3]}.{n[3:6]}.{n[6:9]}-{n[9:]}", n])


def snils(rng: random.Random) -> str:
    while True:
        n = rand(rng, string.digits, 9)
        if n > "001001998":
            break
    s = sum(int(c) * w for c, w in zip(n, range(9, 0, -1), strict=True))
    check = s if s < 100 else (0 if s in (100, 101) else s % 101)
    check = 0 if check == 100 else check
    return f"{n[:3]}-{n[3:6]}-{n[6:]} {check:02d}"


def china_id(rng: random.Random) -> str:
    region = rng.choice(["110101", "310104", "440305", "510107", "330106", "420102"])
    body = (
        region
        + f"{rng.randint(1950, 2005)}{rng.randint(1, 12):02d}{rng.randint(1, 28):02d}{rng.randint(0, 999):03d}"
    )
    weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]
    return body + "10X98765432"[sum(int(c) * w for c, w in zip(body, weights, strict=True)) % 11]


def my_number(rng: random.Random) -> str:
    body = rand(rng, string.digits, 11)
    s = 0
    for n, ch in enumerate(reversed(body), start=1):
        q = n + 1 if n <= 6 else n - 5
        s += int(ch) * q
    r = s % 11
    n = body + str(0 if r <= 1 else 11 - r)
    return rng.choice([n, f"{n[:4]} {n[4:8]} {n[8:]}"])


# fmt: off
NATIONAL_IDS: dict[str, list[tuple[Callable[[random.Random], str], list[str]]]] = {
    "en": [(nhs_number, ["NHS number", "NHS no."]), (nino, ["National Insurance number", "NI number", "NINO"]), (aadhaar, ["Aadhaar"])],
    "de": [(steuer_id, ["Steuer-ID", "Steueridentifikationsnummer"])],
    "fr": [(nir, ["numéro de sécurité sociale", "n° de sécu", "NIR"])],
    "es": [(dni, ["DNI", "NIF"])],
    "pt": [(cpf, ["CPF"])],
    "ru": [(snils, ["СНИЛС"])],
    "zh": [(china_id, ["身份证号", "身份证号码"])],
    "ja": [(my_number, ["マイナンバー", "個人番号"])],
    "hi": [(aadhaar, ["आधार", "आधार नंबर", "Aadhaar"])],
}
# fmt: on


def national_id(rng: random.Random, lang: str) -> Item:
    make, labels = rng.choice(NATIONAL_IDS[lang])
    it = item("national_id", make(rng), "national_id")
    it.label = rng.choice(labels)
    return it


# fmt: off
STREETS = {
    "en": lambda r: (f"{r.randint(2, 4999)} {r.choice(['Maple', 'Oakridge', 'Willow', 'Kingsley', 'Harbor', 'Chestnut', 'Lincoln', 'Elm'])} {r.choice(['Street', 'Avenue', 'Road', 'Lane', 'Drive', 'Blvd'])}"),
    "de": lambda r: (f"{r.choice(['Haupt', 'Linden', 'Goethe', 'Bahnhof', 'Schiller', 'Berliner ', 'Kastanien'])}{r.choice(['straße', 'str.', 'weg', 'allee'])} {r.randint(1, 180)}{r.choice(['', '', 'a', 'b'])}"),
    "fr": lambda r: (f"{r.randint(1, 150)}{r.choice(['', ' bis'])} {r.choice(['rue', 'avenue', 'boulevard', 'impasse'])} {r.choice(['de la Paix', 'Victor Hugo', 'des Lilas', 'Jean Jaurès', 'du Moulin', 'Pasteur'])}"),
    "es": lambda r: (f"{r.choice(['Calle', 'Avenida', 'C/', 'Paseo'])} {r.choice(['Mayor', 'de Alcalá', 'Gran Vía', 'del Prado', 'San Vicente', 'de la Castellana'])}, {r.randint(1, 250)}"),
    "pt": lambda r: (f"{r.choice(['Rua', 'Avenida', 'Av.', 'Travessa'])} {r.choice(['das Flores', 'Paulista', 'Augusta', 'da Liberdade', 'Sete de Setembro', 'Rio Branco'])}, {r.randint(1, 2500)}"),
    "ru": lambda r: (f"{r.choice(['ул.', 'улица', 'пр-т', 'проспект'])} {r.choice(['Ленина', 'Пушкина', 'Гагарина', 'Мира', 'Садовая', 'Советская'])}, д. {r.randint(1, 120)}, кв. {r.randint(1, 300)}"),
    "zh": lambda r: (f"{r.choice(['北京市朝阳区', '上海市浦东新区', '深圳市南山区', '杭州市西湖区'])}{r.choice(['建国路', '世纪大道', '科技园路', '文三路', '人民路'])}{r.randint(1, 999)}号"),
    "ja": lambda r: (f"{r.choice(['東京都渋谷区', '東京都新宿区', '大阪府大阪市北区', '神奈川県横浜市中区'])}{r.choice(['神南', '西新宿', '梅田', '山下町'])}{r.randint(1, 9)}-{r.randint(1, 30)}-{r.randint(1, 20)}"),
    "hi": lambda r: (f"{r.randint(1, 300)}, {r.choice(['MG Road', 'Nehru Nagar', 'Gandhi Marg', 'Park Street', 'Linking Road', 'Anna Salai'])}"),
}
# fmt: on


def street_address(rng: random.Random, lang: str) -> Item:
    return item("street_address", STREETS[lang](rng), "address")


# fmt: off
PERSONAL_MAKERS: dict[str, Callable[[random.Random, str], Item]] = {
    "email": email,
    "phone": phone,
    "ssn": ssn,
    "card_number": card_number,
    "iban": iban,
    "ip_address": ip_address,
    "date_of_birth": date_of_birth,
    "passport": passport,
    "national_id": national_id,
    "person_name": person_name,
    "street_address": street_address,
}
# fmt: on
# fmt: off
SECRET_MAKERS: dict[str, Callable[[random.Random], Item]] = {
    "api_key": api_key,
    "password": password,
    "private_key": private_key,
    "credential": credential,
    "auth_header": auth_header,
    "cookie": cookie,
    "jwt": jwt,
    "secret": secret,
}
# fmt: on


def make_item(kind: str, rng: random.Random, lang: str = "en") -> Item:
    if kind in SECRET_MAKERS:
        return SECRET_MAKERS[kind](rng)
    return PERSONAL_MAKERS[kind](rng, lang)


# --- look-alikes that must survive ---------------------------------------------------------

# fmt: off
EXAMPLE_EMAILS = [
    "user@example.com", "jane.doe@example.org", "ops@example.net", "admin@test",
    "billing@shop.example", "noreply@mail.example.com",
]
# fmt: on
# fmt: off
PLACEHOLDERS = [
    "YOUR_API_KEY", "sk-...xxxx", "<token>", "${DB_PASSWORD}", "{{ .Values.db.password }}",
    "<your-password>", "********", "REPLACE_ME", "xxxxxxxxxxxxxxxxxxxxxxxx", "ghp_" + "x" * 36,
    "sk_live_" + "x" * 24, "<API_KEY>", "$GITHUB_TOKEN", "%(password)s", "changeme-in-production",
    "sk-ant-...", 'os.environ["OPENAI_API_KEY"]',
]
# fmt: on
# fmt: off
RESERVED_IPS = [
    "192.0.2.{}", "198.51.100.{}", "203.0.113.{}", "10.0.{}.12", "192.168.1.{}", "172.16.{}.4",
    "127.0.0.1", "::1", "2001:db8::{}", "0.0.0.0", "fe80::1",  # noqa: S104 -- text, not a bind
]
# fmt: on


def luhn_failing(rng: random.Random) -> str:
    n = card_digits(rng)
    n = n[:-1] + str((int(n[-1]) + rng.randint(1, 9)) % 10)
    return format_card(n, rng)


def iban_failing(rng: random.Random) -> str:
    country, bban = iban_parts(rng)
    good = iban_check(country, bban)
    bad = good
    while bad == good:
        bad = f"{rng.randint(2, 98):02d}"
    return format_iban(country + bad + bban, rng)


def keep_value(rng: random.Random, kind: str, lang: str = "en") -> str:
    """One look-alike of a given sort."""
    if kind == "git_sha":
        return rand(rng, HEX, 40)
    if kind == "short_sha":
        return rand(rng, HEX, 7) + rng.choice("abcdef")
    if kind == "uuid":
        return str(uuid.UUID(int=rng.getrandbits(128), version=4))
    if kind == "sha256":
        return rng.choice(["", "sha256:"]) + rand(rng, HEX, 64)
    if kind == "version":
        return rng.choice(
            [
                f"v{rng.randint(0, 4)}.{rng.randint(0, 30)}.{rng.randint(0, 20)}",
                f"{rng.randint(1, 3)}.{rng.randint(0, 12)}.{rng.randint(0, 9)}",
                f"10.0.{rng.randint(17000, 22631)}.{rng.randint(1000, 4000)}",
            ]
        )
    if kind == "timestamp":
        y, mo, d = rng.randint(2019, 2026), rng.randint(1, 12), rng.randint(1, 28)
        hh, mm, ss = rng.randint(0, 23), rng.randint(0, 59), rng.randint(0, 59)
        return rng.choice(
            [
                f"{y}-{mo:02d}-{d:02d}T{hh:02d}:{mm:02d}:{ss:02d}Z",
                f"{y}-{mo:02d}-{d:02d} {hh:02d}:{mm:02d}:{ss:02d},{rng.randint(100, 999)}",
                str(rng.randint(1_600_000_000, 1_800_000_000)),
            ]
        )
    if kind == "order":
        return rng.choice(
            [
                f"ORD-{rng.randint(2020, 2026)}-{rng.randint(100000, 999999)}",
                f"INC{rng.randint(1000000, 9999999)}",
                f"PROJ-{rng.randint(100, 9999)}",
                f"#{rng.randint(10000, 99999)}",
                f"SO-{rng.randint(10**7, 10**8 - 1)}",
            ]
        )
    if kind == "luhn_fail":
        return luhn_failing(rng)
    if kind == "iban_fail":
        return iban_failing(rng)
    if kind == "placeholder":
        return rng.choice(PLACEHOLDERS)
    if kind == "example_key":
        return rng.choice(["AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"])
    if kind == "example_email":
        return rng.choice(EXAMPLE_EMAILS)
    if kind == "reserved_ip":
        return rng.choice(RESERVED_IPS).format(rng.randint(1, 254))
    if kind == "public_key":
        if rng.random() < 0.5:
            return "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + rand(rng, B64, 43)
        return "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ" + rand(rng, B64, 300)
    if kind == "url":
        return rng.choice(
            [
                f"https://github.com/acme/billing/pull/{rng.randint(10, 9999)}",
                f"https://api.stripe.com/v1/charges?limit={rng.randint(1, 100)}",
                "postgres://db.internal:5432/app",
                f"https://grafana.acme-logistics.io/d/{rand(rng, ALNUM, 9)}/latency",
                f"https://docs.python.org/3/library/{rng.choice(['re', 'json', 'zlib'])}.html",
            ]
        )
    if kind == "plain_date":
        return date_text(rng, lang, rng.randint(2019, 2026))
    if kind == "price":
        return rng.choice(
            [
                f"${rng.randint(1, 9)},{rng.randint(100, 999)}.00",
                f"€{rng.randint(5, 999)},{rng.randint(10, 99)}",
                f"¥{rng.randint(1, 99)},{rng.randint(100, 999)}",
                f"₹{rng.randint(1, 9)},{rng.randint(100, 999)}",
                f"R$ {rng.randint(10, 999)},90",
                f"{rng.randint(1, 9)} {rng.randint(100, 999)} ₽",
            ]
        )
    if kind == "isbn":
        body = "978" + rand(rng, string.digits, 9)
        check = (10 - sum(int(c) * (1 if i % 2 == 0 else 3) for i, c in enumerate(body)) % 10) % 10
        return f"{body[:3]}-{body[3]}-{body[4:7]}-{body[7:12]}-{check}"
    if kind == "pod":
        return f"{rng.choice(['web', 'api', 'worker'])}-{rand(rng, HEX[:10] + 'bcdf', 10)}-{rand(rng, string.ascii_lowercase + string.digits, 5)}"
    if kind == "integrity":
        return "sha512-" + rand(rng, B64, 86) + "=="
    raise ValueError(kind)


# fmt: off
KEEP_SORTS = {
    "tech": ["git_sha", "short_sha", "uuid", "sha256", "version", "timestamp", "placeholder", "example_key", "example_email", "reserved_ip", "public_key", "url", "pod", "integrity"],
    "prose": ["order", "luhn_fail", "iban_fail", "example_email", "plain_date", "price", "isbn", "timestamp", "version", "uuid", "url", "placeholder"],
}
# fmt: on


# --- phrasing ------------------------------------------------------------------------------

# fmt: off
SECRET_LABEL = {
    "en": {"api_key": "API key", "password": "password", "private_key": "private key", "credential": "connection string", "jwt": "token", "secret": "client secret"},
    "de": {"api_key": "API-Schlüssel", "password": "Passwort", "private_key": "privater Schlüssel", "credential": "Verbindungs-URL", "jwt": "Token", "secret": "Secret"},
    "fr": {"api_key": "clé API", "password": "mot de passe", "private_key": "clé privée", "credential": "URL de connexion", "jwt": "jeton", "secret": "secret client"},
    "es": {"api_key": "clave API", "password": "contraseña", "private_key": "clave privada", "credential": "cadena de conexión", "jwt": "token", "secret": "secreto"},
    "pt": {"api_key": "chave de API", "password": "senha", "private_key": "chave privada", "credential": "string de conexão", "jwt": "token", "secret": "segredo"},
    "ru": {"api_key": "API-ключ", "password": "пароль", "private_key": "закрытый ключ", "credential": "строка подключения", "jwt": "токен", "secret": "секрет"},
    "zh": {"api_key": "API 密钥", "password": "密码", "private_key": "私钥", "credential": "连接串", "jwt": "令牌", "secret": "密钥"},
    "ja": {"api_key": "APIキー", "password": "パスワード", "private_key": "秘密鍵", "credential": "接続文字列", "jwt": "トークン", "secret": "シークレット"},
    "hi": {"api_key": "API कुंजी", "password": "पासवर्ड", "private_key": "प्राइवेट की", "credential": "कनेक्शन स्ट्रिंग", "jwt": "टोकन", "secret": "सीक्रेट"},
}
# fmt: on
# fmt: off
PERSONAL_LABEL = {
    "en": {"email": ["email", "e-mail", "contact"], "phone": ["phone", "mobile", "tel."], "ssn": ["SSN", "social security number"], "card_number": ["card", "card number", "Visa ending card"], "iban": ["IBAN", "bank account (IBAN)"], "ip_address": ["IP", "logged in from", "client IP"], "date_of_birth": ["DOB:", "date of birth", "born on", "D.O.B."], "passport": ["passport no.", "passport number"], "street_address": ["lives at", "address:", "ship to"], "person_name": ["Patient:", "Name:", "spoke with", "customer", "employee"]},
    "de": {"email": ["E-Mail", "Mail an"], "phone": ["Telefon", "Handy", "Tel."], "ssn": ["US-SSN"], "card_number": ["Kreditkarte", "Kartennummer"], "iban": ["IBAN", "Konto (IBAN)"], "ip_address": ["IP-Adresse", "Login von"], "date_of_birth": ["geboren am", "Geburtsdatum:", "geb."], "passport": ["Reisepass-Nr.", "Reisepassnummer"], "street_address": ["wohnhaft in der", "Adresse:", "Anschrift:"], "person_name": ["Patient", "Name:", "Gespräch mit", "Herr", "Frau"]},
    "fr": {"email": ["e-mail", "courriel"], "phone": ["tél.", "portable", "téléphone"], "ssn": ["SSN américain"], "card_number": ["carte bancaire", "numéro de carte"], "iban": ["IBAN", "RIB (IBAN)"], "ip_address": ["adresse IP", "connexion depuis"], "date_of_birth": ["né le", "née le", "date de naissance :"], "passport": ["passeport n°", "numéro de passeport"], "street_address": ["domicilié au", "adresse :"], "person_name": ["Patient :", "Nom :", "entretien avec", "M.", "Mme"]},
    "es": {"email": ["correo", "email"], "phone": ["teléfono", "móvil", "tel."], "ssn": ["SSN", "número de seguro social"], "card_number": ["tarjeta", "número de tarjeta"], "iban": ["IBAN", "cuenta IBAN"], "ip_address": ["IP", "acceso desde"], "date_of_birth": ["fecha de nacimiento:", "nacido el", "nacida el"], "passport": ["pasaporte n.º", "número de pasaporte"], "street_address": ["vive en", "dirección:", "domicilio:"], "person_name": ["Paciente:", "Nombre:", "hablé con", "Sr.", "Sra."]},
    "pt": {"email": ["e-mail", "email"], "phone": ["telefone", "celular", "tel."], "ssn": ["SSN"], "card_number": ["cartão", "número do cartão"], "iban": ["IBAN"], "ip_address": ["IP", "acesso a partir de"], "date_of_birth": ["data de nascimento:", "nascido em", "nascida em"], "passport": ["passaporte nº", "número do passaporte"], "street_address": ["mora na", "endereço:"], "person_name": ["Paciente:", "Nome:", "falei com", "Sr.", "Sra."]},
    "ru": {"email": ["эл. почта", "email"], "phone": ["телефон", "тел.", "моб."], "ssn": ["SSN"], "card_number": ["карта", "номер карты"], "iban": ["IBAN"], "ip_address": ["IP-адрес", "вход с"], "date_of_birth": ["дата рождения:", "родился", "родилась", "д.р."], "passport": ["загранпаспорт №", "паспорт"], "street_address": ["адрес:", "проживает по адресу"], "person_name": ["Пациент:", "ФИО:", "звонил", "клиент"]},
    "zh": {"email": ["邮箱：", "电子邮件："], "phone": ["电话：", "手机号："], "ssn": ["SSN："], "card_number": ["银行卡号：", "卡号："], "iban": ["IBAN："], "ip_address": ["IP 地址：", "登录IP："], "date_of_birth": ["出生日期：", "生日："], "passport": ["护照号：", "护照号码："], "street_address": ["地址：", "住址："], "person_name": ["患者：", "姓名：", "联系人：", "客户"]},
    "ja": {"email": ["メール：", "メールアドレス："], "phone": ["電話：", "携帯："], "ssn": ["SSN："], "card_number": ["カード番号：", "クレジットカード："], "iban": ["IBAN："], "ip_address": ["IPアドレス：", "接続元IP："], "date_of_birth": ["生年月日：", "誕生日："], "passport": ["旅券番号：", "パスポート番号："], "street_address": ["住所：", "所在地："], "person_name": ["患者：", "氏名：", "担当者：", "お客様"]},
    "hi": {"email": ["ईमेल:", "email"], "phone": ["फ़ोन:", "मोबाइल:"], "ssn": ["SSN:"], "card_number": ["कार्ड नंबर:", "कार्ड"], "iban": ["IBAN:"], "ip_address": ["IP पता:", "IP"], "date_of_birth": ["जन्म तिथि:", "जन्मतिथि", "DOB:"], "passport": ["पासपोर्ट नंबर:", "पासपोर्ट"], "street_address": ["पता:", "निवास:"], "person_name": ["मरीज़:", "नाम:", "ग्राहक", "कर्मचारी"]},
}
# fmt: on
# fmt: off
SECRET_FRAMES = {
    "en": ["Here is the {label} for staging: {v}\n", "{label}: {v}\n", "Use this {label} when you retry:\n{v}\n"],
    "de": ["Hier ist der {label} für Staging: {v}\n", "{label}: {v}\n", "Bitte diesen {label} verwenden:\n{v}\n"],
    "fr": ["Voici le {label} pour la préprod : {v}\n", "{label} : {v}\n", "Utilise ce {label} :\n{v}\n"],
    "es": ["Aquí está la {label} de pruebas: {v}\n", "{label}: {v}\n", "Usa esta {label}:\n{v}\n"],
    "pt": ["Segue a {label} de homologação: {v}\n", "{label}: {v}\n", "Use esta {label}:\n{v}\n"],
    "ru": ["Вот {label} для стенда: {v}\n", "{label}: {v}\n", "Используй этот {label}:\n{v}\n"],
    "zh": ["这是测试环境的{label}：{v}\n", "{label}：{v}\n", "重试时用这个{label}：\n{v}\n"],
    "ja": ["ステージングの{label}はこちら：{v}\n", "{label}：{v}\n", "この{label}を使ってください：\n{v}\n"],
    "hi": ["स्टेजिंग के लिए {label}: {v}\n", "{label}: {v}\n", "यह {label} इस्तेमाल करें:\n{v}\n"],
}
# fmt: on
# fmt: off
FILLER = {
    "en": ["Thanks, that fixed the build.", "Can you summarize the open items?", "The deploy is scheduled after the standup.", "Please keep the notes short.", "Follow up next week.", "Everything else looks fine.", "The customer was satisfied with the resolution."],
    "de": ["Danke, der Build läuft wieder.", "Kannst du die offenen Punkte zusammenfassen?", "Das Deployment ist nach dem Standup geplant.", "Bitte kurz halten.", "Nächste Woche nachfassen.", "Der Rest sieht gut aus."],
    "fr": ["Merci, le build passe maintenant.", "Peux-tu résumer les points ouverts ?", "Le déploiement est prévu après le point quotidien.", "Relance la semaine prochaine.", "Le reste est correct."],
    "es": ["Gracias, ya compila.", "¿Puedes resumir los temas pendientes?", "El despliegue está previsto después de la reunión.", "Hacer seguimiento la próxima semana.", "Lo demás está bien."],
    "pt": ["Obrigado, o build voltou a funcionar.", "Pode resumir os pontos em aberto?", "O deploy está marcado para depois da daily.", "Retomar na próxima semana.", "O resto está ok."],
    "ru": ["Спасибо, сборка снова проходит.", "Можешь кратко перечислить открытые вопросы?", "Деплой запланирован после планёрки.", "Вернуться к вопросу на следующей неделе.", "Остальное в порядке."],
    "zh": ["谢谢，构建已经恢复正常。", "请总结一下未完成的事项。", "部署安排在站会之后。", "下周跟进。", "其他一切正常。"],
    "ja": ["ありがとうございます、ビルドが通りました。", "未解決の項目をまとめてください。", "デプロイは朝会の後に予定しています。", "来週フォローアップします。", "その他は問題ありません。"],
    "hi": ["धन्यवाद, बिल्ड अब ठीक है।", "क्या आप खुले मुद्दों का सारांश दे सकते हैं?", "डिप्लॉय स्टैंडअप के बाद होगा।", "अगले हफ़्ते फ़ॉलो-अप करें।", "बाकी सब ठीक है।"],
}
# fmt: on
# fmt: off
HEADERS = {
    "chat": {"en": ("User", "Assistant"), "de": ("Nutzer", "Assistent"), "fr": ("Utilisateur", "Assistant"), "es": ("Usuario", "Asistente"), "pt": ("Usuário", "Assistente"), "ru": ("Пользователь", "Ассистент"), "zh": ("用户", "助手"), "ja": ("ユーザー", "アシスタント"), "hi": ("उपयोगकर्ता", "सहायक")},
    "ticket": {"en": "Support ticket", "de": "Support-Ticket", "fr": "Ticket de support", "es": "Ticket de soporte", "pt": "Chamado de suporte", "ru": "Заявка в поддержку", "zh": "客服工单", "ja": "サポートチケット", "hi": "सपोर्ट टिकट"},
    "clinical": {"en": "Clinical note", "de": "Arztbrief", "fr": "Compte rendu de consultation", "es": "Nota clínica", "pt": "Evolução clínica", "ru": "Медицинская запись", "zh": "门诊病历", "ja": "診療記録", "hi": "नैदानिक नोट"},
    "hr": {"en": "HR note", "de": "Personalnotiz", "fr": "Note RH", "es": "Nota de RR. HH.", "pt": "Nota de RH", "ru": "Заметка отдела кадров", "zh": "人事备注", "ja": "人事メモ", "hi": "एचआर नोट"},
    "crm": {"en": "CRM note", "de": "CRM-Notiz", "fr": "Note CRM", "es": "Nota CRM", "pt": "Nota do CRM", "ru": "Заметка CRM", "zh": "客户备注", "ja": "CRMメモ", "hi": "CRM नोट"},
}
# fmt: on
# fmt: off
KEEP_LABEL = {
    "en": "ref",
    "de": "Referenz",
    "fr": "réf.",
    "es": "ref.",
    "pt": "ref.",
    "ru": "номер",
    "zh": "编号",
    "ja": "参照",
    "hi": "संदर्भ",
}
# fmt: on


def prose_snippet(rng: random.Random, lang: str, it: Item) -> str:
    if it.kind in ("auth_header", "cookie"):
        intro = {
            "en": "The request had this header:",
            "de": "Der Request hatte diesen Header:",
            "fr": "La requête avait cet en-tête :",
            "es": "La petición llevaba esta cabecera:",
            "pt": "A requisição tinha este cabeçalho:",
            "ru": "В запросе был заголовок:",
            "zh": "请求带了这个请求头：",
            "ja": "リクエストのヘッダー：",
            "hi": "रिक्वेस्ट में यह हेडर था:",
        }[lang]
        return f"{intro}\n{it.shown}\n"
    if it.kind in SECRET_LABEL[lang]:
        frame = rng.choice(SECRET_FRAMES[lang])
        return frame.format(label=SECRET_LABEL[lang][it.kind], v=it.shown)
    label = it.label if it.kind == "national_id" else rng.choice(PERSONAL_LABEL[lang][it.kind])
    sep = "" if label.endswith(("：", ":")) and lang in ("zh", "ja") else " "
    end = rng.choice([".", "", ",", ";"]) if lang not in ("zh", "ja") else "。"
    if it.kind == "person_name" and lang not in ("zh", "ja") and rng.random() < 0.4:
        tail = {
            "en": "called about the invoice",
            "de": "hat wegen der Rechnung angerufen",
            "fr": "a appelé au sujet de la facture",
            "es": "llamó por la factura",
            "pt": "ligou sobre a fatura",
            "ru": "звонил(а) по поводу счёта",
            "hi": "ने बिल के बारे में फ़ोन किया",
        }[lang]
        return f"{it.shown} {tail}{end}"
    return f"{label}{sep}{it.shown}{end}"


def keep_prose(rng: random.Random, lang: str, value: str, sort: str) -> str:
    if sort == "price":
        return {
            "en": f"Total: {value}",
            "de": f"Betrag: {value}",
            "fr": f"Montant : {value}",
            "es": f"Importe: {value}",
            "pt": f"Valor: {value}",
            "ru": f"Сумма: {value}",
            "zh": f"金额：{value}",
            "ja": f"金額：{value}",
            "hi": f"राशि: {value}",
        }[lang]
    if sort == "plain_date":
        return {
            "en": f"Next appointment on {value}",
            "de": f"Nächster Termin am {value}",
            "fr": f"Prochain rendez-vous le {value}",
            "es": f"Próxima cita el {value}",
            "pt": f"Próxima consulta em {value}",
            "ru": f"Следующий приём {value}",
            "zh": f"下次预约 {value}",
            "ja": f"次回予約 {value}",
            "hi": f"अगली मुलाकात {value}",
        }[lang]
    if sort == "luhn_fail" and rng.random() < 0.5:
        return {
            "en": f"Card number on the form was mistyped ({value}), asked again",
            "de": f"Kartennummer im Formular vertippt ({value})",
        }.get(lang, f"{KEEP_LABEL[lang]} {value}")
    return f"{KEEP_LABEL[lang]} {value}"


# --- documents -----------------------------------------------------------------------------

PROSE_DOCS = ("chat", "ticket", "clinical", "hr", "crm")
CONFIG_DOCS = ("env", "yaml", "json", "toml", "ini", "compose", "k8s")
# fmt: off
DOC_KINDS = {
    "chat": KINDS,
    "ticket": KINDS,
    "clinical": ("person_name", "date_of_birth", "phone", "national_id", "street_address", "email", "ssn", "passport",),
    "hr": ("person_name", "date_of_birth", "ssn", "national_id", "iban", "phone", "email", "street_address", "passport", "card_number",),
    "crm": ("person_name", "email", "phone", "street_address", "card_number", "iban", "ip_address", "date_of_birth",),
    "config": (*SECRET_KINDS, "email", "ip_address", "phone", "person_name"),
    "log": ("ip_address", "email", "jwt", "auth_header", "cookie", "api_key", "card_number", "credential", "phone", "password", "secret",),
    "shell": ("api_key", "password", "credential", "auth_header", "cookie", "jwt", "secret", "private_key", "ip_address", "email",),
    "code": ("api_key", "password", "secret", "private_key", "jwt", "credential", "email", "ip_address", "auth_header",),
}
# fmt: on
CFG_KEYS = {
    "email": "admin_email",
    "ip_address": "server_ip",
    "phone": "oncall_phone",
    "person_name": "owner_name",
}


def indent(text: str, pad: str) -> str:
    return "\n".join(pad + line if line else line for line in text.split("\n"))


def config_entry(fmt: str, rng: random.Random, it: Item) -> tuple[str, str]:
    """A config line (or block) and the exact text that must go."""
    key = CFG_KEYS.get(it.kind, it.key)
    cfg, value = it.cfg, it.value
    multiline = "\n" in cfg
    lower = key.lower()
    if fmt == "env" or (fmt == "ini" and multiline):
        return (f'{key}="{cfg}"' if multiline or " " in cfg else f"{key}={cfg}"), value
    if fmt in ("yaml", "compose", "k8s"):
        if multiline:
            block = indent(cfg, "  ")
            return f"{lower}: |\n{block}", block.lstrip()
        if fmt == "compose":
            return f"      - {key}={cfg}", value
        q = (
            rng.choice(['"', "'", ""])
            if not cfg.startswith(("*", "&", "!", "%", "@", "`"))
            else '"'
        )
        if any(ch in cfg for ch in "#:{}[],") and not q:
            q = '"'
        if q == "'" and "'" in cfg:
            q = '"'
        return f"{lower}: {q}{cfg}{q}", value
    if fmt == "json":
        escaped = json.dumps(cfg)[1:-1]
        return f'  "{lower}": "{escaped}",', json.dumps(value)[1:-1]
    if fmt == "toml":
        if multiline:
            return f'{lower} = """\n{cfg}"""', value
        return f'{lower} = "{cfg}"', value
    return f"{lower} = {cfg}", value  # ini


def k8s_secret(
    rng: random.Random, items: list[Item], keeps: list[tuple[str, str]]
) -> tuple[str, list[tuple[str, str]]]:
    go: list[tuple[str, str]] = []
    lines = [
        "apiVersion: v1",
        "kind: Secret",
        "metadata:",
        f"  name: {rng.choice(['app', 'billing', 'orders'])}-secrets",
        "  annotations:",
    ]
    for k, sort in keeps:
        lines.append(f'    acme.io/{keep_key(rng, k, sort).lower().replace("_", "-")}: "{k}"')
    use_data = rng.random() < 0.5
    lines += ["type: Opaque", "data:" if use_data else "stringData:"]
    for it in items:
        key = CFG_KEYS.get(it.kind, it.key).lower().replace("_", "-")
        if use_data:
            enc = base64.b64encode(it.cfg.encode()).decode()
            lines.append(f"  {key}: {enc}")
            go.append((it.kind, enc))
        elif "\n" in it.cfg:
            block = indent(it.cfg, "    ")
            lines.append(f"  {key}: |\n{block}")
            go.append((it.kind, block.lstrip()))
        else:
            lines.append(f'  {key}: "{it.cfg}"')
            go.append((it.kind, it.value))
    return "\n".join(lines) + "\n", go


# fmt: off
KEEP_KEYS = {
    "git_sha": ["commit", "GIT_SHA"],
    "short_sha": ["rev", "BUILD_REV"],
    "uuid": ["request_id", "TENANT_ID"],
    "sha256": ["image_digest", "CHECKSUM"],
    "version": ["version", "APP_VERSION"],
    "timestamp": ["built_at", "BUILD_TIME"],
    "placeholder": ["api_key", "password", "token", "SECRET_KEY"],
    "example_email": ["admin_email", "FROM_ADDRESS"],
    "reserved_ip": ["bind_address", "DB_HOST"],
    "public_key": ["deploy_key_pub", "SSH_AUTHORIZED_KEY"],
    "url": ["docs_url", "UPSTREAM_URL"],
    "pod": ["pod_name", "HOSTNAME"],
    "integrity": ["integrity", "LOCK_HASH"],
}
# fmt: on


def keep_key(rng: random.Random, value: str, sort: str) -> str:
    if sort == "example_key":
        return "aws_access_key_id" if value.startswith("AKIA") else "aws_secret_access_key"
    return rng.choice(KEEP_KEYS.get(sort, ["ref"]))


def render_config(
    fmt: str, rng: random.Random, items: list[Item], keeps: list[tuple[str, str]]
) -> tuple[str, list[tuple[str, str]]]:
    if fmt == "k8s":
        return k8s_secret(rng, items, keeps)
    entries = [config_entry(fmt, rng, it) for it in items]
    go = [(it.kind, v) for it, (_, v) in zip(items, entries, strict=True)]
    keep_lines = []
    for k, sort in keeps:
        keep_lines.append(config_entry(fmt, rng, Item("keep", k, k, keep_key(rng, k, sort), k))[0])
    plain = {
        "env": [
            "NODE_ENV=production",
            "PORT=8080",
            "LOG_LEVEL=info",
            "FEATURE_FLAGS=search,export",
        ],
        "yaml": ["replicas: 3", "log_level: info", "timeout_seconds: 30", "region: eu-central-1"],
        "compose": ["      - TZ=Europe/Berlin", "      - LOG_LEVEL=debug"],
        "json": ['  "region": "eu-west-1",', '  "retries": 3,', '  "debug": false,'],
        "toml": ["port = 8080", 'region = "us-east-1"', "workers = 4"],
        "ini": ["port = 5432", "timeout = 30", "pool_size = 10"],
    }[fmt]
    body = entries_lines = [e for e, _ in entries] + keep_lines + rng.sample(plain, k=2)
    rng.shuffle(entries_lines)
    if fmt == "env":
        head = f"# {rng.choice(['.env.production', '.env', 'staging.env'])}\n"
        return head + "\n".join(body) + "\n", go
    if fmt == "yaml":
        return (
            f"# config/{rng.choice(['app', 'settings', 'values'])}.yaml\n{rng.choice(['app', 'service', 'backend'])}:\n"
            + indent("\n".join(body), "  ")
            + "\n",
            go,
        )
    if fmt == "compose":
        return (
            "services:\n  api:\n    image: ghcr.io/acme/api:1.4.2\n    environment:\n"
            + "\n".join(body)
            + "\n",
            go,
        )
    if fmt == "json":
        return "{\n" + "\n".join(body) + '\n  "name": "' + rng.choice(
            ["billing", "orders", "sync"]
        ) + '"\n}\n', go
    if fmt == "toml":
        return f"[{rng.choice(['server', 'database', 'integrations'])}]\n" + "\n".join(
            body
        ) + "\n", go
    return f"[{rng.choice(['database', 'smtp', 'default'])}]\n" + "\n".join(body) + "\n", go


def ts(rng: random.Random) -> str:
    return f"2025-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}.{rng.randint(0, 999):03d}Z"


def log_line(rng: random.Random, it: Item) -> str:
    t, v = ts(rng), it.shown
    k = it.kind
    if k == "ip_address":
        if rng.random() < 0.5:
            return f'{v} - - [12/Mar/2025:10:{rng.randint(10, 59)}:07 +0000] "GET /api/v1/orders HTTP/1.1" 200 {rng.randint(200, 9000)}'
        return f"{t} INFO  auth: login ok for account {rng.randint(1000, 99999)} from {v}"
    lines = {
        "email": f"{t} INFO  mailer: sent password-reset mail to {v}",
        "jwt": f"{t} DEBUG http: > Authorization: Bearer {v}",
        "auth_header": f"{t} DEBUG http: > {v}",
        "cookie": f"{t} DEBUG http: < Set-{v}; Path=/; HttpOnly; Secure"
        if it.shown.startswith("Cookie")
        else f"{t} DEBUG http: > {v}",
        "api_key": f"{t} WARN  client: request failed (401), key={v}",
        "card_number": f"{t} ERROR payments: charge declined card={v} amount=49.90 EUR",
        "credential": f"{t} ERROR db: could not connect to {v}: connection refused",
        "phone": f"{t} INFO  sms: queued verification code for {v}",
        "password": f"{t} DEBUG auth: login attempt user=admin password={v}",
        "secret": f'{t} DEBUG config: loaded {{"{it.key.lower()}": "{v}", "region": "eu-west-1"}}',
    }
    return lines[k]


def shell_line(rng: random.Random, it: Item) -> str:
    v, k = it.shown, it.kind
    if k == "api_key":
        return rng.choice(
            [
                f"export {it.key}={v}",
                f'curl -H "x-api-key: {v}" https://api.anthropic.com/v1/models',
                f"echo {v} | gh auth login --with-token",
            ]
        )
    if k == "password":
        return rng.choice(
            [
                f"mysql -u root -p'{v}' shop",
                f'sshpass -p "{v}" ssh deploy@bastion',
                f"PGPASSWORD='{v}' psql -h db -U app",
                f"echo '{v}' | docker login -u ci --password-stdin registry.acme.io",
            ]
        )
    if k == "credential":
        return rng.choice([f"git clone {v}", f"psql '{v}'", f"export DATABASE_URL='{v}'"])
    if k == "auth_header":
        return f'curl -s -H "{v}" https://api.internal.acme.io/v2/users'
    if k == "cookie":
        return (
            f"curl -b '{it.cfg}' https://shop.acme.io/account"
            if rng.random() < 0.5
            else f"curl -H '{v}' https://shop.acme.io/account"
        )
    if k == "jwt":
        return rng.choice(
            [
                f"export ACCESS_TOKEN={v}",
                f'curl -H "Authorization: Bearer {v}" https://api.acme.io/me',
            ]
        )
    if k == "secret":
        return rng.choice(
            [
                f"export {it.key}='{v}'",
                f"kubectl create secret generic app --from-literal={it.key.lower().replace('_', '-')}='{v}'",
            ]
        )
    if k == "private_key":
        return f"cat > ~/.ssh/id_deploy <<'EOF'\n{v}\nEOF\nchmod 600 ~/.ssh/id_deploy"
    if k == "ip_address":
        return rng.choice([f"ssh deploy@{v}", f"ping -c 3 {v}", f"nmap -p 22,443 {v}"])
    return f'git config --global user.email "{v}"'


def code_line(rng: random.Random, it: Item) -> str:
    v, k = it.shown, it.kind
    return {
        "api_key": rng.choice(
            [
                f'client = Client(api_key="{v}")',
                f"const stripe = require('stripe')('{v}');",
                f'{it.key} = "{v}"',
            ]
        ),
        "password": f'conn = psycopg2.connect(host="db", user="app", password="{v}")',
        "secret": rng.choice(
            [
                f'app.config["SECRET_KEY"] = "{v}"',
                f'const {it.key.lower()} = "{v}";',
                f'{it.key} = "{v}"',
            ]
        ),
        "private_key": f'PRIVATE_KEY = """{v}\n"""',
        "jwt": f'headers = {{"Authorization": "Bearer {v}"}}',
        "credential": f'DATABASE_URL = "{v}"',
        "email": f'SUPPORT_EMAIL = "{v}"',
        "ip_address": f'ALLOWED_HOSTS = ["{v}", "localhost"]',
        "auth_header": f'req.Header.Set("{v.split(": ", 1)[0]}", "{it.cfg}")',
    }[k]


def render(
    doc: str, lang: str, rng: random.Random, items: list[Item], keeps: list[tuple[str, str]]
) -> tuple[str, list[tuple[str, str]]]:
    go = [(it.kind, it.value) for it in items]
    keep_values = [v for v, _ in keeps]
    if doc in CONFIG_DOCS:
        return render_config(doc, rng, items, keeps)
    if doc == "log":
        lines = [log_line(rng, it) for it in items]
        lines += [f"{ts(rng)} INFO  worker: job {v} finished" for v in keep_values]
        lines += [f"{ts(rng)} INFO  http: GET /healthz 200 1ms" for _ in range(2)]
        rng.shuffle(lines)
        return "\n".join(lines) + "\n", go
    if doc == "shell":
        lines = [shell_line(rng, it) for it in items]
        for v, sort in keeps:
            if sort in ("git_sha", "short_sha"):
                lines.append(rng.choice([f"git checkout {v}", f"git show --stat {v}"]))
            elif sort == "sha256" and v.startswith("sha256:"):
                lines.append(f"docker pull ghcr.io/acme/api@{v}")
            else:
                lines.append(rng.choice([f"echo '{v}'", f"grep -rn '{v}' ."]))
        lines += rng.sample(
            ["ls -la", "git status", "kubectl get pods -n prod", "cd ~/src/billing", "make test"],
            k=2,
        )
        rng.shuffle(lines)
        comment = "" if lang == "en" else "# " + rng.choice(FILLER[lang]) + "\n"
        return comment + "\n".join(lines) + "\n", go
    if doc == "code":
        lines = [code_line(rng, it) for it in items]
        lines += [f'{keep_key(rng, v, sort).upper()} = "{v}"' for v, sort in keeps]
        rng.shuffle(lines)
        comment = "# " + rng.choice(FILLER[lang]) + "\n"
        return f"{comment}import os\n\n" + "\n".join(lines) + "\n", go
    parts = [prose_snippet(rng, lang, it) for it in items]
    parts += [keep_prose(rng, lang, v, sort) for v, sort in keeps]
    parts += rng.sample(FILLER[lang], k=min(2, len(FILLER[lang])))
    rng.shuffle(parts)
    if doc == "chat":
        user, bot = HEADERS["chat"][lang]
        lines = []
        for i, p in enumerate(parts):
            lines.append(f"{user}: {p.strip()}")
            if i % 2 == 1:
                lines.append(f"{bot}: {rng.choice(FILLER[lang])}")
        return "\n".join(lines) + "\n", go
    head = HEADERS[doc][lang]
    body = "\n".join(p.strip() for p in parts)
    return f"{head} — {ts(rng)[:10]}\n{body}\n", go


# --- sampling ------------------------------------------------------------------------------


def doc_group(doc: str) -> str:
    return "config" if doc in CONFIG_DOCS else doc


# fmt: off
DOC_WEIGHTS = {
    "chat": 16,
    "ticket": 10,
    "clinical": 8,
    "hr": 8,
    "crm": 8,
    "env": 4,
    "yaml": 4,
    "json": 4,
    "toml": 3,
    "ini": 3,
    "compose": 3,
    "k8s": 3,
    "log": 10,
    "shell": 9,
    "code": 8,
}
# fmt: on


def make_sample(rng: random.Random, index: int, counts: Counter[str]) -> dict[str, object]:
    doc = rng.choices(list(DOC_WEIGHTS), weights=list(DOC_WEIGHTS.values()))[0]
    lang = rng.choice(LANGS) if doc in PROSE_DOCS or rng.random() < 0.3 else "en"
    allowed = list(SECRET_KINDS if doc == "k8s" else DOC_KINDS[doc_group(doc)])
    n = rng.randint(2, 5)
    kinds: list[str] = []
    for _ in range(n):
        weights = [1.0 / (1 + counts[k]) ** 2 for k in allowed]
        k = rng.choices(allowed, weights=weights)[0]
        kinds.append(k)
        counts[k] += 1
    if doc_group(doc) == "config":
        kinds = list(dict.fromkeys(kinds))  # one value per key
    items = [make_item(k, rng, lang) for k in kinds]
    sorts = KEEP_SORTS["prose" if doc in PROSE_DOCS else "tech"]
    keeps = []
    for _ in range(rng.randint(1, 4)):
        sort = rng.choice(sorts)
        keeps.append((keep_value(rng, sort, lang), sort))
    text, go = render(doc, lang, rng, items, keeps)
    return {
        "id": f"{index:04d}-{doc}-{lang}",
        "text": text,
        "must_go": [{"kind": k, "value": v} for k, v in go],
        "must_stay": list(dict.fromkeys(v for v, _ in keeps)),
    }


def spans(text: str, value: str) -> list[tuple[int, int]]:
    out, at = [], text.find(value)
    while at >= 0:
        out.append((at, at + len(value)))
        at = text.find(value, at + 1)
    return out


def consistent(sample: dict[str, object]) -> bool:
    """Every value is in the text, and no look-alike overlaps a value that must go."""
    text = str(sample["text"])
    gone = [s for g in sample["must_go"] for s in spans(text, g["value"])]  # type: ignore[attr-defined]
    if any(not spans(text, g["value"]) for g in sample["must_go"]):  # type: ignore[attr-defined]
        return False
    for keep in sample["must_stay"]:  # type: ignore[attr-defined]
        found = spans(text, keep)
        if not found or any(s < e2 and s2 < e for s, e in found for s2, e2 in gone):
            return False
    return True


def build(seed: int = SEED, count: int = SAMPLES) -> list[dict[str, object]]:
    rng = random.Random(seed)
    counts: Counter[str] = Counter()
    samples = []
    while len(samples) < count:
        before = counts.copy()
        sample = make_sample(rng, len(samples), counts)
        if consistent(sample):
            samples.append(sample)
        else:
            counts.clear()
            counts.update(before)
    return samples


# --- a held-out variant ---------------------------------------------------------------------
# Detectors tuned while looking at samples.jsonl could learn its phrase bank rather than the
# task. The held-out corpus uses other words around the values, other names and streets, and
# another seed; it is built on demand (``--holdout``) and never written to the repository.

# fmt: off
HOLDOUT_LABEL = {
    "en": {"email": ["write to", "mail:", "reply-to"], "phone": ["ring", "cell", "contact number", "call back on"], "ssn": ["SS#", "social sec. no."], "card_number": ["paid by", "CC:", "credit card"], "iban": ["account", "wire to"], "ip_address": ["source address", "connected from", "remote addr"], "date_of_birth": ["birthday:", "DoB", "b."], "passport": ["travel document no.", "passport #"], "street_address": ["residing at", "home:", "deliver to"], "person_name": ["Client:", "Dr.", "Mrs.", "visited by", "applicant"]},
    "de": {"email": ["erreichbar unter", "Mailadresse"], "phone": ["Rückruf unter", "Mobil:", "Festnetz"], "ssn": ["SSN"], "card_number": ["bezahlt mit Karte", "Visa"], "iban": ["Bankverbindung", "überweisen an"], "ip_address": ["Quell-IP", "Zugriff von"], "date_of_birth": ["Geburtstag:", "geboren", "*"], "passport": ["Passnummer", "Reisepass"], "street_address": ["wohnt", "Lieferadresse:"], "person_name": ["Kundin", "Mandant:", "Ansprechpartner:", "Bewerber"]},
    "fr": {"email": ["écrire à", "mail :"], "phone": ["joignable au", "mobile :"], "ssn": ["SSN"], "card_number": ["payé par carte", "CB"], "iban": ["virement sur", "compte"], "ip_address": ["IP source", "accès depuis"], "date_of_birth": ["anniversaire :", "naissance :"], "passport": ["passeport", "n° passeport"], "street_address": ["habite au", "livraison :"], "person_name": ["Cliente :", "Mme", "Dr", "candidat"]},
    "es": {"email": ["escribir a", "e-mail:"], "phone": ["llamar al", "celular"], "ssn": ["SSN"], "card_number": ["pagó con tarjeta", "Visa"], "iban": ["transferir a", "cuenta"], "ip_address": ["IP de origen", "conectado desde"], "date_of_birth": ["cumpleaños:", "nac.:"], "passport": ["pasaporte", "pasaporte nº"], "street_address": ["reside en", "envío a"], "person_name": ["Cliente:", "Dra.", "Don", "solicitante"]},
}
HOLDOUT_NAMES = {
    "en": (["Nora", "Felix", "Imogen", "Rupert", "Tessa", "Calvin"], ["Ashworth", "Kendrick", "Beaumont", "Lockhart", "Prentice", "Wakefield"]),
    "de": (["Greta", "Wolfgang", "Ilse", "Henrik", "Marlene", "Konrad"], ["Brandt", "Lehmann", "Kühn", "Vogel", "Engel", "Pohl"]),
    "fr": (["Solène", "Gaspard", "Inès", "Baptiste", "Lou", "Théo"], ["Marchand", "Roux", "Perrin", "Barbier", "Renaud", "Leclerc"]),
    "es": (["Inés", "Gonzalo", "Aitana", "Iker", "Begoña", "Rubén"], ["Iglesias", "Vidal", "Cabrera", "Prieto", "Pascual", "Soler"]),
}
HOLDOUT_STREETS = {
    "en": lambda r: f"{r.randint(2, 999)} {r.choice(['Juniper', 'Foxglove', 'Ashby', 'Riverside', 'Granger'])} {r.choice(['Court', 'Place', 'Way', 'Terrace', 'Crescent'])}",
    "de": lambda r: f"{r.choice(['Am Mühlbach', 'Rosenweg', 'Kirchplatz', 'Uhlandstraße', 'Feldgasse'])} {r.randint(1, 90)}",
    "fr": lambda r: f"{r.randint(1, 80)}, {r.choice(['allée des Tilleuls', 'chemin du Lavoir', 'quai Voltaire', 'place Bellecour'])}",
    "es": lambda r: f"{r.choice(['Plaza', 'Ronda', 'Camino', 'Travesía'])} {r.choice(['de Atocha', 'del Carmen', 'de Sants', 'Real'])} {r.randint(1, 99)}",
}
HOLDOUT_SECRET_FRAMES = {
    "en": ["creds for the vendor portal -> {label} {v}\n", "fyi the {label} is\n{v}\n"],
    "de": ["Zugang zum Portal, {label} {v}\n", "zur Info, {label} lautet\n{v}\n"],
    "fr": ["accès au portail, {label} {v}\n", "pour info le {label} est\n{v}\n"],
    "es": ["acceso al portal, {label} {v}\n", "para que conste, {label}\n{v}\n"],
}
# fmt: on


# A second held-out variant, in words neither samples.jsonl nor the first held-out corpus
# uses, with yet another seed (``--fresh``). It exists to be measured, not tuned on: a
# detector changed because of what it shows makes it one more tuning set.

# fmt: off
FRESH_LABEL = {
    "en": {"email": ["drop a line to", "inbox:", "cc'd at"], "phone": ["reach her on", "landline", "direct line:", "text her at"], "ssn": ["SSN on file", "soc. sec. #"], "card_number": ["charged to", "card on file", "Mastercard"], "iban": ["payout account", "refund to IBAN"], "ip_address": ["request came from", "login IP", "peer"], "date_of_birth": ["d.o.b.", "birth date", "born"], "passport": ["passport no:", "passport number is"], "street_address": ["lives at", "ship to:", "mailing address:"], "person_name": ["Customer:", "Mr.", "Ms.", "spoke with", "patient"]},
    "de": {"email": ["Kontakt per Mail:", "E-Mail-Adresse:"], "phone": ["Telefonnummer:", "erreichbar unter", "Handynummer"], "ssn": ["SSN (USA)"], "card_number": ["Karte:", "Mastercard"], "iban": ["IBAN für die Erstattung:", "Konto"], "ip_address": ["Anmeldung von", "Client-IP"], "date_of_birth": ["Geburtsdatum", "geb. am"], "passport": ["Pass-Nr.", "Reisepass Nr."], "street_address": ["Anschrift", "wohnt in der"], "person_name": ["Patientin:", "Herr", "Frau", "Gespräch mit"]},
    "fr": {"email": ["adresse mail :", "contact :"], "phone": ["numéro :", "tél. portable"], "ssn": ["numéro SSN"], "card_number": ["débité sur la carte", "Visa"], "iban": ["IBAN du client", "remboursement sur"], "ip_address": ["connecté depuis", "adresse IP :"], "date_of_birth": ["date de naissance", "née le"], "passport": ["passeport numéro", "n° de passeport"], "street_address": ["adresse :", "domicilié au"], "person_name": ["Patient :", "M.", "Mme", "entretien avec"]},
    "es": {"email": ["correo electrónico:", "escríbele a"], "phone": ["tel. móvil", "número de contacto"], "ssn": ["SSN del cliente"], "card_number": ["cargado a la tarjeta", "Mastercard"], "iban": ["IBAN para el reembolso:", "cuenta"], "ip_address": ["acceso desde", "IP del cliente"], "date_of_birth": ["fecha de nacimiento", "nacida el"], "passport": ["pasaporte número", "nº de pasaporte"], "street_address": ["domicilio:", "dirección de envío:"], "person_name": ["Paciente:", "Sr.", "Sra.", "hablé con"]},
    "pt": {"email": ["mande um e-mail para", "e-mail:"], "phone": ["telefone para contato", "celular:"], "ssn": ["SSN"], "card_number": ["cobrado no cartão", "Visa"], "iban": ["IBAN para estorno:", "conta"], "ip_address": ["acesso a partir de", "IP do cliente"], "date_of_birth": ["data de nascimento", "nascida em"], "passport": ["passaporte nº", "número do passaporte"], "street_address": ["endereço:", "mora na"], "person_name": ["Paciente:", "Sr.", "Sra.", "falei com"]},
}
FRESH_NAMES = {
    "en": (["Harriet", "Oscar", "Phoebe", "Declan", "Mabel", "Silas"], ["Fairweather", "Holloway", "Pemberton", "Radcliffe", "Sutcliffe", "Yardley"]),
    "de": (["Frieda", "Anton", "Hedwig", "Emil", "Liesel", "Bruno"], ["Hartmann", "Zimmermann", "Krüger", "Seidel", "Winkler", "Lorenz"]),
    "fr": (["Margaux", "Clément", "Anaïs", "Rémi", "Capucine", "Étienne"], ["Fontaine", "Chevalier", "Gauthier", "Mercier", "Boyer", "Lemaire"]),
    "es": (["Ximena", "Joaquín", "Lorena", "Íñigo", "Macarena", "Andrés"], ["Castillo", "Herrera", "Navarro", "Domínguez", "Ortega", "Serrano"]),
    "pt": (["Letícia", "Vinícius", "Bianca", "Caio", "Renata", "Otávio"], ["Carvalho", "Almeida", "Ribeiro", "Gomes", "Martins", "Barbosa"]),
}
FRESH_STREETS = {
    "en": lambda r: f"{r.randint(3, 4800)} {r.choice(['Birchwood', 'Hollis', 'Sycamore', 'Westbrook', 'Ashford'])} {r.choice(['Road', 'Avenue', 'Lane', 'Drive', 'Street'])}",
    "de": lambda r: f"{r.choice(['Mozartstraße', 'Eichenweg', 'Marktplatz', 'Bergstraße', 'Talstraße'])} {r.randint(1, 140)}",
    "fr": lambda r: f"{r.randint(1, 120)} {r.choice(['rue', 'avenue', 'boulevard'])} {r.choice(['Gambetta', 'de la République', 'des Écoles', 'Carnot'])}",
    "es": lambda r: f"{r.choice(['Calle', 'Avenida', 'Paseo'])} {r.choice(['de Goya', 'Serrano', 'de Gracia', 'Colón'])} {r.randint(1, 180)}",
    "pt": lambda r: f"{r.choice(['Rua', 'Avenida'])} {r.choice(['Bela Vista', 'dos Andradas', 'Marechal Deodoro', 'XV de Novembro'])}, {r.randint(1, 1900)}",
}
FRESH_SECRET_FRAMES = {
    "en": ["Note to self: {label} = {v}\n", "rotated the {label} today, new one: {v}\n", "{label} (prod): {v}\n"],
    "de": ["Notiz: {label} = {v}\n", "neuer {label} nach der Rotation: {v}\n", "{label} (Produktion): {v}\n"],
    "fr": ["Note : {label} = {v}\n", "nouveau {label} après rotation : {v}\n", "{label} (prod) : {v}\n"],
    "es": ["Nota: {label} = {v}\n", "nueva {label} tras la rotación: {v}\n", "{label} (producción): {v}\n"],
    "pt": ["Nota: {label} = {v}\n", "nova {label} depois da rotação: {v}\n", "{label} (produção): {v}\n"],
}
# fmt: on


def _build_variant(
    seed: int,
    count: int,
    labels: dict[str, dict[str, list[str]]],
    names: dict[str, tuple[list[str], list[str]]],
    streets: dict[str, Callable[[random.Random], str]],
    frames: dict[str, list[str]],
) -> list[dict[str, object]]:
    """A corpus built with other phrase tables in place of the main ones, in their languages."""
    saved = {
        name: dict(globals()[name])
        for name in ("PERSONAL_LABEL", "NAMES", "STREETS", "SECRET_FRAMES")
    }
    langs = LANGS
    try:
        for lang in labels:
            PERSONAL_LABEL[lang] = labels[lang]
            NAMES[lang] = (names[lang][0] * 2, names[lang][1] * 2)
            STREETS[lang] = streets[lang]
            SECRET_FRAMES[lang] = frames[lang]
        globals()["LANGS"] = tuple(labels)
        return build(seed=seed, count=count)
    finally:
        for name, table in saved.items():
            globals()[name].clear()
            globals()[name].update(table)
        globals()["LANGS"] = langs


def build_holdout(count: int = 300) -> list[dict[str, object]]:
    """A corpus in other words than samples.jsonl, for checking that detectors generalize."""
    return _build_variant(
        SEED + 1, count, HOLDOUT_LABEL, HOLDOUT_NAMES, HOLDOUT_STREETS, HOLDOUT_SECRET_FRAMES
    )


def build_fresh(count: int = 300) -> list[dict[str, object]]:
    """A corpus in words and with a seed used nowhere else, kept out of any tuning."""
    return _build_variant(
        SEED + 7919, count, FRESH_LABEL, FRESH_NAMES, FRESH_STREETS, FRESH_SECRET_FRAMES
    )


# --- a blind variant ------------------------------------------------------------------------
# The held-out and fresh corpora keep this module's document shapes and change only the
# words, and both have been looked at while detectors were tuned. The blind corpus
# (``--blind``) shares nothing with them but the value generators above: its documents,
# phrasings, names, streets and look-alikes were written without reading the detectors, so
# it estimates how the filter does on notes nobody tuned it on. Keep it that way: a rule
# changed because of what this corpus shows makes it one more tuning set.

BLIND_SEED = SEED + 104_729
BLIND_LANGS = ("en", "de", "fr", "es", "pt", "ja", "zh", "hi")
BLIND_SLOT = re.compile("⟦([a-z_]+)(\\d*)⟧")  # ⟦email⟧, ⟦name2⟧: a second, different name

# fmt: off
BLIND_NAMES = {
    "en": (["Nadia", "Conor", "Priscilla", "Wendell", "Josephine", "Tobias", "Rosalind", "Desmond", "Louisa", "Gideon", "Marisol", "Everett"], ["Okafor", "Hargreaves", "Lindqvist", "Brennan", "Castellano", "Whitlock", "Abernathy", "Quinlan", "Thornbury", "McAllister", "Pruitt", "Delacroix"]),
    "de": (["Mareike", "Till", "Swantje", "Benedikt", "Ortrud", "Jannik", "Wiebke", "Gerold", "Tamara", "Volker"], ["Hagedorn", "Brüggemann", "Ostermann", "Kowalczyk", "Steinbach", "Riedl", "Wendland", "Eichhorn", "Pfeiffer", "Lindemann"]),
    "fr": (["Ombeline", "Gaëtan", "Apolline", "Loïc", "Bérénice", "Yannick", "Maëlle", "Florent", "Ségolène", "Thibault"], ["Delaunay", "Courtois", "Vasseur", "Le Goff", "Pichon", "Carré", "Marais", "Tessier", "Brunet", "Guillot"]),
    "es": (["Remedios", "Ginés", "Itziar", "Fermín", "Consuelo", "Borja", "Araceli", "Eusebio", "Yolanda", "Marcelino"], ["Echeverría", "Quintana", "Villalobos", "Arrieta", "Benítez", "Carrasco", "Zubiri", "Montero", "Salcedo", "Aguirre"]),
    "pt": (["Iara", "Wellington", "Jussara", "Edivaldo", "Rosângela", "Cauã", "Graziela", "Anderson", "Tainá", "Wagner"], ["Nascimento", "Moura", "Cavalcanti", "Teixeira", "Figueiredo", "Bezerra", "Medeiros", "Queiroz", "Siqueira", "Assunção"]),
    "ja": (["陽介", "千尋", "和也", "真由美", "悠斗", "彩花", "康弘", "奈々"], ["松本", "井上", "木村", "林", "清水", "山口", "森", "池田"]),
    "zh": (["志强", "秀英", "海燕", "建华", "晓明", "丽娟", "国栋", "雪梅"], ["郭", "何", "高", "罗", "郑", "梁", "谢", "宋"]),
    "hi": (["Aditya", "Meenakshi", "Siddharth", "Pooja", "Varun", "Lakshmi", "आदित्य", "मीनाक्षी", "सिद्धार्थ", "पूजा", "वरुण", "लक्ष्मी"], ["Banerjee", "Deshpande", "Mehta", "Kulkarni", "Chatterjee", "Menon", "बनर्जी", "देशपांडे", "मेहता", "कुलकर्णी", "चटर्जी", "मेनन"]),
}
BLIND_HANDLES = ["guo.zhiqiang", "hxy1988", "kazuya.kimura", "chihiro_i", "luo.haiyan", "yosuke.m", "zheng_jh", "nana.ikeda", "song.xuemei", "h.shimizu"]
BLIND_DOMAINS = {
    "en": ["fastmail.com", "hey.com", "aol.com", "comcast.net", "btinternet.com", "kestrelworks.com"],
    "de": ["freenet.de", "mailbox.org", "arcor.de", "hagedorn-logistik.de"],
    "fr": ["wanadoo.fr", "neuf.fr", "bbox.fr", "cabinet-marais.fr"],
    "es": ["outlook.es", "movistar.es", "ono.com", "bodegas-arrieta.es"],
    "pt": ["hotmail.com", "globo.com", "ig.com.br", "clix.pt"],
    "ja": ["ezweb.ne.jp", "softbank.ne.jp", "outlook.jp", "i.softbank.jp"],
    "zh": ["sohu.com", "foxmail.com", "aliyun.com", "139.com"],
    "hi": ["outlook.in", "sify.com", "hotmail.co.in", "vedantsoft.in"],
}
BLIND_STREETS = {
    "en": lambda r: f"{r.randint(12, 9870)} {r.choice(['Larkspur', 'Bramble', 'Wexford', 'Prospect', 'Quarry', 'Tamarack', 'Cedar Hollow', 'Old Mill'])} {r.choice(['Lane', 'Street', 'Road', 'Avenue', 'Court', 'Drive', 'Ln', 'St'])}",
    "de": lambda r: f"{r.choice(['Amselweg', 'Lerchenstraße', 'Brunnenstr.', 'Wiesenstraße', 'Theodor-Heuss-Ring', 'Am Anger', 'Gartenstraße', 'Hohe Str.'])} {r.randint(1, 160)}{r.choice(['', '', 'a', 'c'])}",
    "fr": lambda r: f"{r.randint(1, 210)}{r.choice(['', ' bis', ' ter'])}{r.choice([' ', ', '])}{r.choice(['rue des Capucins', 'rue Saint-Honoré', 'avenue Foch', 'chemin des Vignes', 'allée des Peupliers', 'boulevard Haussmann', 'rue de la Gare'])}",
    "es": lambda r: f"{r.choice(['Calle de Toledo', 'Avda. de América', 'Carrer de Balmes', 'Calle Larios', 'Calle Fuencarral', 'Ronda de Segovia', 'Calle Sierpes'])}{r.choice([', ', ' ', ', nº '])}{r.randint(1, 220)}",
    "pt": lambda r: f"{r.choice(['Rua Oscar Freire', 'Av. Brigadeiro Faria Lima', 'Rua Haddock Lobo', 'Rua do Ouvidor', 'Alameda Santos', 'Rua Garrett', 'Estrada da Gávea'])}, {r.randint(1, 3999)}",
    "ja": lambda r: f"{r.choice(['東京都世田谷区', '京都府京都市左京区', '福岡県福岡市博多区', '北海道札幌市中央区', '愛知県名古屋市中区'])}{r.choice(['三軒茶屋', '下鴨', '博多駅前', '大通西', '栄'])}{r.randint(1, 6)}丁目{r.randint(1, 30)}番{r.randint(1, 20)}号",
    "zh": lambda r: f"{r.choice(['广州市天河区', '成都市锦江区', '南京市鼓楼区', '武汉市江汉区', '西安市雁塔区'])}{r.choice(['天河路', '春熙路', '中山北路', '解放大道', '小寨东路'])}{r.randint(1, 899)}号{r.choice(['', '', f'{r.randint(1, 30)}栋{r.randint(101, 2405)}室'])}",
    "hi": lambda r: f"{r.choice(['House No. ', 'Flat ', '', 'मकान नं. '])}{r.randint(1, 450)}, {r.choice(['Residency Road', 'Koramangala 5th Block', 'Sector 21', 'लाजपत नगर', 'शिवाजी नगर', 'Hill Road, Bandra West'])}",
}
BLIND_MESES = ["janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro", "novembro", "dezembro"]
BLIND_NATIONAL_IDS: dict[str, list[Callable[[random.Random], str]]] = {
    "en": [nhs_number, nino], "de": [steuer_id], "fr": [nir], "es": [dni], "pt": [cpf],
    "ja": [my_number], "zh": [china_id], "hi": [aadhaar],
}
BLIND_PW_WORDS = ["harbor", "kiwi", "lantern", "cobalt", "nimbus", "saffron", "walnut", "pixel", "tundra", "marigold"]
BLIND_NOTES = {
    "en": ["TODO move this to the secrets manager", "temporary, remove before merging", "copied from the old wiki page", "ask Ops before changing"],
    "de": ["TODO: ins Vault verschieben", "nur vorübergehend, vor dem Merge löschen", "aus dem alten Wiki übernommen"],
    "fr": ["à déplacer dans le coffre-fort", "temporaire, à supprimer avant la fusion", "repris de l'ancien wiki"],
    "es": ["pendiente: mover a Vault", "temporal, borrar antes del merge", "copiado de la wiki vieja"],
    "pt": ["TODO: mover para o cofre", "provisório, apagar antes do merge", "copiado da wiki antiga"],
    "ja": ["あとでシークレット管理に移す", "一時的なもの、マージ前に削除", "旧Wikiからコピー"],
    "zh": ["待办：迁移到密钥管理服务", "临时配置，合并前删除", "从旧 wiki 复制过来的"],
    "hi": ["baad mein vault mein daalna hai", "temporary hai, merge se pehle hatana", "purani wiki se copy kiya"],
}
BLIND_PLACEHOLDERS = [
    "<redacted>", "***REDACTED***", "$(cat /run/secrets/db_password)", "process.env.STRIPE_SECRET",
    "os.getenv('DB_PASS')", "vault:secret/data/billing#api_key", "<paste-token-here>", "TODO-set-me",
    "%SMTP_PASS%", "@@DB_PASSWORD@@", "••••••••", "dummy-password", "not-a-real-key", "CHANGE_ME_BEFORE_PROD",
]
BLIND_CI_SECRETS = ["${{ secrets.NPM_TOKEN }}", "${{ secrets.DEPLOY_KEY }}", "$CI_JOB_TOKEN", "$(SYSTEM_ACCESSTOKEN)", "{{ vault_db_password }}"]
BLIND_EXAMPLE_EMAILS = ["someone@example.com", "billing@example.org", "test.user@example.net", "noreply@example.com", "it-support@example.com", "postmaster@localhost"]
BLIND_PRIVATE_IPS = ["10.{}.{}.{}", "192.168.{}.{}", "172.20.{}.{}", "127.0.0.1", "169.254.169.254", "198.51.100.{}", "fd00::{}", "203.0.113.{}"]
BLIND_PRICES = {
    "en": lambda r: f"${r.randint(1, 9)},{r.randint(100, 999)}.{r.choice(['00', '50', '99'])}",
    "de": lambda r: f"{r.randint(1, 9)}.{r.randint(100, 999)},00 €",
    "fr": lambda r: f"{r.randint(1, 9)} {r.randint(100, 999)},00 €",
    "es": lambda r: f"{r.randint(100, 999)},{r.randint(10, 99)} €",
    "pt": lambda r: f"R$ {r.randint(1, 9)}.{r.randint(100, 999)},90",
    "ja": lambda r: f"¥{r.randint(10, 999)},000",
    "zh": lambda r: f"{r.randint(100, 9999)}元",
    "hi": lambda r: f"₹{r.randint(1, 99)},{r.randint(100, 999)}",
}
# fmt: on


def _ascii_fold(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text) if c.isascii() and c.isalnum())


def _blind_name(rng: random.Random, lang: str, reverse: bool = False) -> str:
    first, last = BLIND_NAMES[lang]
    if lang == "zh":
        return rng.choice(last) + rng.choice(first)
    if lang == "ja":
        return rng.choice(last) + rng.choice(["", " ", "　"]) + rng.choice(first)
    if lang == "hi":
        half = rng.randrange(2) * 6  # Latin and Devanagari names are not mixed in one name
        f, s = first[half + rng.randrange(6)], last[half + rng.randrange(6)]
    else:
        f, s = rng.choice(first), rng.choice(last)
    return f"{s}, {f}" if reverse else f"{f} {s}"


def _blind_email(rng: random.Random, lang: str) -> str:
    if lang in ("ja", "zh") or rng.random() < 0.15:
        local = rng.choice(BLIND_HANDLES)
    else:
        first, last = BLIND_NAMES[lang]
        f, s = _ascii_fold(rng.choice(first[:6])).lower(), _ascii_fold(rng.choice(last[:6])).lower()
        local = rng.choice(
            [f"{f}.{s}", f"{f[0]}{s}", f"{s}.{f[0]}", f"{f}{rng.randint(70, 99)}", f"{f}_{s}"]
        )
    return f"{local}@{rng.choice(BLIND_DOMAINS[lang])}"


def _blind_phone(rng: random.Random, lang: str) -> str:
    if rng.random() < 0.5:
        return phone(rng, lang).value
    d = lambda n: rand(rng, string.digits, n)  # noqa: E731
    if lang == "en":
        area = digits(rng, 1, "2345678") + d(1) + rng.choice("02345678")
        ex, line = digits(rng, 1, "23456789") + d(2), d(4)
        return rng.choice(
            [
                f"{area}.{ex}.{line}",
                f"1-{area}-{ex}-{line}",
                f"+1{area}{ex}{line}",
                f"07{rng.choice('4589')}{d(2)} {d(3)} {d(3)}",
            ]
        )
    if lang == "de":
        m = rng.choice(["151", "160", "170", "173", "175", "177", "179"])
        return rng.choice([f"0{m}/{d(7)}", f"0{m} / {d(3)} {d(2)} {d(2)}", f"+49-{m}-{d(7)}"])
    if lang == "fr":
        return rng.choice(
            [f"0{rng.choice('67')}.{d(2)}.{d(2)}.{d(2)}.{d(2)}", f"+33{rng.choice('67')}{d(8)}"]
        )
    if lang == "es":
        return rng.choice(
            [f"+34 6{d(8)}", f"6{d(2)}-{d(3)}-{d(3)}", f"(+34) 91 {d(3)} {d(2)} {d(2)}"]
        )
    if lang == "pt":
        ddd = rng.choice(["11", "19", "21", "27", "31", "48", "85"])
        return rng.choice(
            [
                f"+55 ({ddd}) 9{d(4)}-{d(4)}",
                f"{ddd} 9{d(4)}-{d(4)}",
                f"+351 9{rng.choice('1236')}{d(1)} {d(3)} {d(3)}",
            ]
        )
    if lang == "ja":
        c = rng.choice(["090", "080", "070"])
        plain = f"{c}-{d(4)}-{d(4)}"
        fullwidth = plain.translate(str.maketrans("0123456789-", "０１２３４５６７８９－"))
        return rng.choice([f"{c}({d(4)}){d(4)}", f"+81-{c[1:]}-{d(4)}-{d(4)}", fullwidth])
    if lang == "zh":
        c = rng.choice(["13", "15", "17", "18"]) + rng.choice("0123456789")
        return rng.choice(
            [
                f"{c}-{d(4)}-{d(4)}",
                f"(021) {digits(rng, 8, '56')}",
                f"+86 {c}{d(8)}",
                f"0755-{digits(rng, 8, '2368')}",
            ]
        )
    c = digits(rng, 5, "6789")
    return rng.choice([f"+91-{c}-{d(5)}", f"0{c}-{d(5)}", f"+91 {c}{d(5)}"])


def _blind_date(rng: random.Random, lang: str, year: int, iso: bool = False) -> str:
    m, d = rng.randint(1, 12), rng.randint(1, 28)
    if iso:
        return f"{year}-{m:02d}-{d:02d}"
    if rng.random() < 0.5:
        return date_text(rng, lang, year)
    era = f"昭和{year - 1925}年{m}月{d}日" if year < 1989 else f"平成{year - 1988}年{m}月{d}日"
    mon = MONTHS["en"][m - 1][:3]
    return rng.choice(
        {
            "en": [f"{m}/{d}/{year}", f"{d:02d}-{mon}-{year}", f"{mon} {d} {year}"],
            "de": [f"{d}.{m}.{year}", f"{d}. {MONTHS['de'][m - 1][:3]}. {year}"],
            "fr": [f"{d:02d}.{m:02d}.{year}", f"{d}/{m}/{year}", f"{d:02d}-{m:02d}-{year}"],
            "es": [f"{d}-{m}-{year}", f"{d}/{m:02d}/{year}"],
            "pt": [f"{d} de {BLIND_MESES[m - 1]} de {year}", f"{d}/{m}/{year}"],
            "ja": [era, f"{year}年{m:02d}月{d:02d}日", f"{year}.{m}.{d}"],
            "zh": [f"{year}.{m:02d}.{d:02d}", f"{year}/{m}/{d}", f"{year}年{m:02d}月{d:02d}日"],
            "hi": [f"{d}/{m}/{year}", f"{d}-{mon}-{year}"],
        }[lang]
    )


def _blind_password(rng: random.Random) -> str:
    r = rng.randrange(4)
    if r == 0:
        return password_value(rng)
    if r == 1:
        a, b = rng.sample(BLIND_PW_WORDS, 2)
        return f"{a.capitalize()}{rng.choice('!@%*?')}{b.capitalize()}{rng.randint(10, 99)}"
    if r == 2:
        return rand(rng, ALNUM, 10) + rng.choice("!@%^*-_+=.?") + rand(rng, ALNUM, 5)
    return f"{rng.choice(BLIND_PW_WORDS)}{rng.randint(1000, 9999)}{rng.choice('!?.')}"


def _blind_url_credential(rng: random.Random) -> tuple[str, str]:
    pw = password_value(rng, url_safe=True)
    scheme, user, rest = rng.choice(
        [
            ("postgres", "billing_rw", "pg-main.prod.internal:5432/billing"),
            (
                "postgresql",
                "analytics",
                "rds-analytics.c9xk2lq.eu-central-1.rds.amazonaws.com:5432/warehouse",
            ),
            ("mysql", "shop", "10.20.0.15:3306/shop"),
            ("mongodb+srv", "reporting", "cluster0.ab1cd.mongodb.net/events?retryWrites=true"),
            ("redis", "", "cache-01.corp.lan:6379/2"),
            ("amqps", "worker", "mq.corp.lan:5671/%2F"),
            ("smtps", "postmaster", "smtp.mailgun.org:465"),
            ("https", "ci-bot", "nexus.corp.lan/repository/pypi-internal/simple"),
            ("sftp", "partner_upload", "files.corp.lan:22/inbound"),
        ]
    )
    return f"{scheme}://{user}:{pw}@{rest}", pw


def _vendor_key(rng: random.Random, vendor: str) -> str:
    """A token in one vendor's published format (prefix, length, alphabet); random body."""
    up = string.ascii_uppercase
    return {
        "gh": lambda: github_token(rng, rng.choice(["ghp", "ghp", "gho", "ghs"])),
        "aws_id": lambda: "AKIA" + rand(rng, up + "234567", 16),
        "stripe": lambda: (
            rng.choice(["sk_live_", "rk_live_"]) + rand(rng, ALNUM, rng.choice([24, 99]))
        ),
        "openai": lambda: "sk-proj-" + rand(rng, URLSAFE, 74) + "T3BlbkFJ" + rand(rng, URLSAFE, 74),
        "anthropic": lambda: "sk-ant-api03-" + rand(rng, URLSAFE, 93) + "AA",
        "slack": lambda: f"xoxb-{digits(rng, 12)}-{digits(rng, 13)}-{rand(rng, ALNUM, 24)}",
        "google": lambda: "AIza" + rand(rng, URLSAFE, 35),
        "gitlab": lambda: "glpat-" + rand(rng, URLSAFE, 20),
        "npm": lambda: github_token(rng, "npm"),
        "sendgrid": lambda: f"SG.{rand(rng, URLSAFE, 22)}.{rand(rng, URLSAFE, 43)}",
        "pypi": lambda: "pypi-AgEIcHlwaS5vcmcCJ" + rand(rng, URLSAFE, 150),
        "linear": lambda: "lin_api_" + rand(rng, ALNUM, 40),
        "notion": lambda: "secret_" + rand(rng, ALNUM, 43),
        "databricks": lambda: "dapi" + rand(rng, HEX, 32),
        "newrelic": lambda: "NRAK-" + rand(rng, up + string.digits, 27),
        "mailgun": lambda: "key-" + rand(rng, HEX, 32),
        "supabase": lambda: "sbp_" + rand(rng, HEX, 40),
        "grafana": lambda: "glsa_" + rand(rng, ALNUM, 32) + "_" + rand(rng, HEX, 8),
    }[vendor]()


BLIND_VENDORS = ("gh", "aws_id", "stripe", "openai", "anthropic", "slack", "google", "gitlab", "npm", "sendgrid", "pypi", "linear", "notion", "databricks", "newrelic", "mailgun", "supabase", "grafana")  # fmt: skip

# fmt: off
BLIND_COOKIES: list[tuple[str, Callable[[random.Random], str]]] = [
    ("sessionid", lambda r: rand(r, string.ascii_lowercase + string.digits, 32)),
    ("_gitlab_session", lambda r: rand(r, HEX, 32)),
    ("ASP.NET_SessionId", lambda r: rand(r, string.ascii_lowercase + "012345", 24)),
    ("__Secure-next-auth.session-token", lambda r: rand(r, URLSAFE, 180)),
    ("_shop_session", lambda r: rand(r, URLSAFE, 88) + "--" + rand(r, HEX, 40)),
    ("PHPSESSID", lambda r: rand(r, string.ascii_lowercase + string.digits, 26)),
    ("remember_token", lambda r: rand(r, URLSAFE, 64)),
]
# fmt: on


def _cookie(rng: random.Random, style: str) -> tuple[str, str]:
    name, make = rng.choice(BLIND_COOKIES)
    v = make(rng)
    return v, (f'"{name}": "{v}"' if style == "py" else f"{name}={v}")


def _bearer(rng: random.Random) -> str:
    r = rng.randrange(4)
    if r == 0:
        return rand(rng, ALNUM, 40)
    if r == 1:
        return "ya29." + rand(rng, URLSAFE, 120)
    return rand(rng, URLSAFE, 43 if r == 2 else 64)


def _basic(rng: random.Random) -> str:
    user = rng.choice(["svc-reports", "jenkins", "admin", "partner-acme", "grafana"])
    return base64.b64encode(f"{user}:{_blind_password(rng)}".encode()).decode()


def _pem(rng: random.Random) -> str:
    return private_key(rng).value


def _natid(rng: random.Random, lang: str) -> str:
    return rng.choice(BLIND_NATIONAL_IDS[lang])(rng)


def _same(value: str) -> tuple[str, str]:
    return value, value


Maker = Callable[[random.Random, str], tuple[str, str]]

# Each slot a template names: the kind it must go as, and (value that must go, text shown).
# fmt: off
BLIND_GO: dict[str, tuple[str, Maker]] = {
    "name": ("person_name", lambda r, lang: _same(_blind_name(r, lang))),
    "name_rev": ("person_name", lambda r, lang: _same(_blind_name(r, lang, reverse=lang not in ("zh", "ja")))),
    "email": ("email", lambda r, lang: _same(_blind_email(r, lang))),
    "phone": ("phone", lambda r, lang: _same(_blind_phone(r, lang))),
    "dob": ("date_of_birth", lambda r, lang: _same(_blind_date(r, lang, r.randint(1940, 2006)))),
    "dob_iso": ("date_of_birth", lambda r, lang: _same(_blind_date(r, lang, r.randint(1940, 2006), iso=True))),
    "ssn": ("ssn", lambda r, lang: _same(ssn_value(r))),
    "card": ("card_number", lambda r, lang: _same(format_card(card_digits(r), r))),
    "card_plain": ("card_number", lambda r, lang: _same(card_digits(r))),
    "iban": ("iban", lambda r, lang: _same(iban(r, lang).value)),
    "iban_plain": ("iban", lambda r, lang: _same(iban(r, lang).value.replace(" ", ""))),
    "ip": ("ip_address", lambda r, lang: _same(public_ipv4(r) if r.random() < 0.8 else ip_address(r, lang).value)),
    "ipv": ("ip_address", lambda r, lang: _same(public_ipv4(r))),
    "passport": ("passport", lambda r, lang: _same(passport(r, lang).value)),
    "natid": ("national_id", lambda r, lang: _same(_natid(r, lang))),
    "nhs": ("national_id", lambda r, lang: _same(nhs_number(r))),
    "nino": ("national_id", lambda r, lang: _same(nino(r))),
    "steuer": ("national_id", lambda r, lang: _same(steuer_id(r))),
    "nir": ("national_id", lambda r, lang: _same(nir(r))),
    "dni": ("national_id", lambda r, lang: _same(dni(r))),
    "cpf": ("national_id", lambda r, lang: _same(cpf(r))),
    "mynum": ("national_id", lambda r, lang: _same(my_number(r))),
    "cnid": ("national_id", lambda r, lang: _same(china_id(r))),
    "aadhaar": ("national_id", lambda r, lang: _same(aadhaar(r))),
    "street": ("street_address", lambda r, lang: _same(BLIND_STREETS[lang](r))),
    "api_key": ("api_key", lambda r, lang: _same(api_key(r).value)),
    **{v: ("api_key", (lambda vendor: lambda r, lang: _same(_vendor_key(r, vendor)))(v)) for v in BLIND_VENDORS},
    "password": ("password", lambda r, lang: _same(_blind_password(r))),
    "basepw": ("password", lambda r, lang: _same(base64.b64encode(_blind_password(r).encode()).decode())),
    "cred": ("credential", lambda r, lang: _blind_url_credential(r)[::-1]),
    "cpw": ("credential", lambda r, lang: _same(password_value(r, url_safe=True))),
    "basecred": ("credential", lambda r, lang: _same(base64.b64encode(_blind_url_credential(r)[0].encode()).decode())),
    "bearer": ("auth_header", lambda r, lang: _same(_bearer(r))),
    "basic": ("auth_header", lambda r, lang: _same(_basic(r))),
    "hexkey": ("auth_header", lambda r, lang: _same(rand(r, HEX, r.choice([32, 40])))),
    "cookie": ("cookie", lambda r, lang: _cookie(r, "header")),
    "cookie_py": ("cookie", lambda r, lang: _cookie(r, "py")),
    "jwt": ("jwt", lambda r, lang: _same(jwt(r).value)),
    "secret": ("secret", lambda r, lang: _same(secret(r).value)),
    "whsec": ("secret", lambda r, lang: _same("whsec_" + rand(r, ALNUM, 32))),
    "aws_secret": ("secret", lambda r, lang: _same(rand(r, B64, 40))),
    "django": ("secret", lambda r, lang: _same(rand(r, string.ascii_lowercase + string.digits + "!@%^&*(-_=+)", 50))),
    "hexsecret": ("secret", lambda r, lang: _same(rand(r, HEX, 64))),
    "refresh": ("secret", lambda r, lang: _same(rand(r, URLSAFE, 64))),
    "twilio": ("secret", lambda r, lang: _same(rand(r, HEX, 32))),
    "pem": ("private_key", lambda r, lang: _same(_pem(r))),
    "pem_json": ("private_key", lambda r, lang: _same(json.dumps(_pem(r))[1:-1])),
    "pem_ind": ("private_key", lambda r, lang: (lambda s: (s.lstrip(), s))(indent(_pem(r), "    "))),
}
# fmt: on


def _blind_stay(rng: random.Random, name: str, lang: str) -> tuple[str, str]:
    """A look-alike for slot ``name``: (its family, the value)."""
    n = rng.randint
    if name == "k_uuid":
        return "uuid", str(uuid.UUID(int=rng.getrandbits(128), version=4))
    if name == "k_sha":
        return "git_sha", rand(rng, HEX, 40)
    if name == "k_short":
        return "short_sha", rand(rng, HEX, 7) + rng.choice("abcdef")
    if name == "k_hash":
        return "sha256", rand(rng, HEX, 64)
    if name == "k_digest":
        return "digest", "sha256:" + rand(rng, HEX, 64)
    if name == "k_md":
        return "md5", rand(rng, HEX, 32)
    if name == "k_ver":
        a, b, c = n(0, 5), n(0, 40), n(0, 30)
        return "version", rng.choice(
            [f"{a}.{b}.{c}", f"v{a}.{b}.{c}-rc.{n(1, 9)}", f"{a}.{b}.{c}+build.{n(100, 9999)}"]
        )
    if name == "k_ts":
        return "timestamp", rng.choice(
            [
                f"2025-{n(1, 12):02d}-{n(1, 28):02d}T{n(0, 23):02d}:{n(0, 59):02d}:{n(0, 59):02d}.{n(0, 999):03d}+01:00",
                str(n(1_650_000_000_000, 1_760_000_000_000)),
                f"{n(1, 28):02d}/{MONTHS['en'][n(0, 11)][:3]}/2025:{n(0, 23):02d}:{n(0, 59):02d}:{n(0, 59):02d} +0000",
            ]
        )
    if name == "k_order":
        return "order", rng.choice(
            [
                f"PO-{n(2023, 2026)}-{n(10000, 99999)}",
                f"#{n(100000, 999999)}",
                f"{n(100, 999)}-{digits(rng, 7)}-{digits(rng, 7)}",
            ]
        )
    if name == "k_inv":
        return "invoice", rng.choice(
            [
                f"INV-{n(2023, 2026)}-{n(10000, 99999)}",
                f"RE-{n(1000000, 9999999)}",
                f"FAC{n(2023, 2026)}/{n(1000, 9999)}",
            ]
        )
    if name == "k_ticket":
        return "ticket", f"{rng.choice(['OPS', 'SUP', 'PAY', 'HR', 'CS'])}-{n(100, 99999)}"
    if name == "k_emp":
        return "employee_id", rng.choice(
            [
                f"E{n(100000, 999999)}",
                f"EMP-{n(10000, 99999)}",
                f"P{n(1000, 9999)}-{rng.choice(string.ascii_uppercase)}",
            ]
        )
    if name == "k_price":
        return "price", BLIND_PRICES[lang](rng)
    if name == "k_date":
        return "plain_date", _blind_date(rng, lang, n(2023, 2026))
    if name == "k_rip":
        return "private_ip", rng.choice(BLIND_PRIVATE_IPS).format(n(0, 255), n(0, 255), n(1, 254))
    if name == "k_exemail":
        return "example_email", rng.choice(BLIND_EXAMPLE_EMAILS)
    if name == "k_ph":
        return "placeholder", rng.choice(BLIND_PLACEHOLDERS)
    if name == "k_ci":
        return "placeholder", rng.choice(BLIND_CI_SECRETS)
    if name == "k_exkey":
        return "example_key", rng.choice(
            ["AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"]
        )
    if name == "k_trace":
        return "trace_id", f"00-{rand(rng, HEX, 32)}-{rand(rng, HEX, 16)}-01"
    if name == "k_stripe":
        prefix = rng.choice(["cus_", "pi_3", "ch_3", "req_", "evt_1"])
        return "stripe_object_id", prefix + rand(
            rng, ALNUM, 14 if prefix in ("cus_", "req_") else 23
        )
    if name == "k_arn":
        return (
            "arn",
            f"arn:aws:iam::{digits(rng, 12, '123456789')}:role/{rng.choice(['deploy', 'ci-runner', 'readonly'])}",
        )
    if name == "k_luhn":
        return "luhn_fail", luhn_failing(rng)
    if name == "k_ibanfail":
        return "iban_fail", iban_failing(rng)
    if name == "k_pod":
        return "pod", keep_value(rng, "pod")
    if name == "k_pubkey":
        return "public_key", keep_value(rng, "public_key")
    if name == "k_url":
        return "url", rng.choice(
            [
                f"https://github.com/acme/infra/pull/{n(10, 4000)}",
                f"https://status.example.com/incidents/{rand(rng, string.ascii_lowercase + string.digits, 12)}",
                f"https://jira.example.com/browse/OPS-{n(100, 9999)}",
                f"https://auth.example.com/realms/{rng.choice(['prod', 'staging'])}",
            ]
        )
    if name == "k_track":
        return "tracking", rng.choice(
            [
                f"1Z{rand(rng, string.ascii_uppercase + string.digits, 6)}{digits(rng, 10)}",
                " ".join(["9400", *(digits(rng, 4) for _ in range(4)), digits(rng, 2)]),
            ]
        )
    if name == "k_fp":
        return "ssh_fingerprint", "SHA256:" + rand(rng, B64, 43)
    if name == "k_ami":
        return "aws_resource_id", "ami-0" + rand(rng, HEX, 16)
    if name == "k_serial":
        return "cert_serial", ":".join(rand(rng, "0123456789ABCDEF", 2) for _ in range(16))
    if name == "k_keyid":
        return "key_id", rand(rng, HEX, 40)
    if name == "k_mem":
        return "address", "0x7f" + rand(rng, HEX, 10)
    raise ValueError(name)


# Slots that only fill in the text and are neither kept nor removed.
BLIND_FREE: dict[str, Maker] = {
    "note": lambda r, lang: _same(r.choice(BLIND_NOTES[lang])),
    "ts": lambda r, lang: _same(ts(r)),
    "pid": lambda r, lang: _same(str(r.randint(1200, 65000))),
    "n": lambda r, lang: _same(str(r.randint(2, 480))),
}

# Documents as people and agents write them. ``*`` documents take any language (their
# comments and personal values follow it); the rest are written in one.
# fmt: off
BLIND_TEMPLATES: list[tuple[str, str, str]] = [
    # --- English prose ---
    ("slack", "en", "⟦name⟧  10:14 AM\nhey, prod deploy of ⟦k_ver⟧ is blocked, the pipeline can't pull from the registry\n⟦name2⟧  10:16 AM\nweird, I rotated the token yesterday. try this one: ⟦gh⟧\n⟦name⟧  10:17 AM\nworks :+1: build ⟦k_order⟧ is green now, commit ⟦k_short⟧\n"),
    ("slack", "en", "⟦name⟧  4:02 PM\ncan someone check why ⟦ip⟧ keeps hitting /wp-login.php? ~3k req/min since noon\n⟦name2⟧  4:05 PM\nblocked at the edge. fwiw it also tried the old admin creds (admin / ⟦password⟧) so that account is gone now\n⟦name⟧  4:06 PM\nthx, linking ⟦k_url⟧\n"),
    ("slack", "en", "⟦name⟧  11:51 AM\nhere's my token from the network tab if you want to reproduce: ⟦jwt⟧\n⟦name2⟧  11:53 AM\nplease don't paste those here :sweat_smile: but ok, repro'd on ⟦k_ver⟧, request id ⟦k_uuid⟧\n"),
    ("email", "en", "From: ⟦name⟧ <⟦email⟧>\nTo: ⟦k_exemail⟧\nSubject: Re: invoice ⟦k_inv⟧ - updated bank details\n\nHi team,\n\nplease note our new account for future payments: ⟦iban⟧ (same bank, new branch). The amount of ⟦k_price⟧ is still outstanding.\n\nIf anything is unclear call me on ⟦phone⟧.\n\nKind regards,\n⟦name⟧\nHead of Finance\n"),
    ("email", "en", "Hi ⟦name⟧,\n\nThanks for your time on the phone today. As discussed, I've updated your mailing address to ⟦street⟧, Unit 4, Denver CO 80205 and your date of birth to ⟦dob⟧ (it was entered wrong at signup).\n\nYour reference is ⟦k_ticket⟧.\n\nBest,\n⟦name2⟧\nMember Services\n"),
    ("clinical", "en", "PROGRESS NOTE\nPt: ⟦name_rev⟧   DOB ⟦dob⟧   NHS No ⟦nhs⟧\nS: 3/7 hx of productive cough, afebrile since Tue. Lives alone at ⟦street⟧, daughter checks in daily (⟦phone⟧).\nO: SpO2 96% RA, RR 18, crackles R base.\nA/P: CAP, CURB-65 = 1. Amoxicillin 500 mg TDS x5/7. Review ⟦k_date⟧.\n"),
    ("clinical", "en", "ED triage 03:40 - ⟦name⟧, ⟦dob⟧, brought in by partner after a fall at home (⟦street⟧). GCS 15, small occipital lac, no LOC. Partner's number ⟦phone⟧. Pt has SSN ⟦ssn⟧ on the insurance card; billing notified. Bed 7, next obs due ⟦k_ts⟧.\n"),
    ("hr", "en", "HR case file - onboarding\nEmployee: ⟦name⟧\nStart date: ⟦k_date⟧\nSSN ⟦ssn⟧ verified against I-9 (List A: US passport ⟦passport⟧)\nCorporate card issued: ⟦card⟧\nEmergency contact: ⟦name2⟧, ⟦phone⟧\nEmployee ID ⟦k_emp⟧\n"),
    ("hr", "en", "Payroll change request\nColleague: ⟦name⟧\nNI number ⟦nino⟧, tax code 1257L\nNew account for salary: ⟦iban⟧\nHome address ⟦street⟧, Leeds LS6 2AB\nApproved by ⟦name2⟧ on ⟦k_date⟧\n"),
    ("hr", "en", "Background check - summary for hiring manager\nCandidate ⟦name⟧ (born ⟦dob⟧) cleared county and federal searches. SSN trace on ⟦ssn⟧ returned two prior addresses, most recent ⟦street⟧. No discrepancies. Case ⟦k_ticket⟧.\n"),
    ("crm", "en", "Account: Brightwater Dental Group\nOwner: ⟦name⟧\nLast touch: call with office manager ⟦name2⟧, wants to move to annual billing, quote ⟦k_order⟧ sent (⟦k_price⟧/yr).\nBilling contact: ⟦email⟧ | ⟦phone⟧\nShip hardware to ⟦street⟧, Suite 210, Portland OR 97205\nNext step: follow-up ⟦k_date⟧\n"),
    ("crm", "en", "Mortgage pre-qual - ⟦name⟧\nSSN: ⟦ssn⟧   DOB: ⟦dob⟧\nEmployer verified by phone (⟦phone⟧). Current address ⟦street⟧, renting 4 yrs.\nCredit pull ⟦k_uuid⟧, score band B. Rate lock expires ⟦k_date⟧.\n"),
    ("ticket", "en", "[⟦k_ticket⟧] Can't log in after password reset\nRequester: ⟦email⟧\nCustomer says: \"I reset it this morning and now it says my account is locked. The new password I set is ⟦password⟧ if that helps.\"\nAgent note: unlocked, forced another reset. Attempts came from ⟦ip⟧ and ⟦k_rip⟧ (office VPN). Request id ⟦k_uuid⟧.\n"),
    ("ticket", "en", "Customer: hi my order never arrived, I paid with my visa ⟦card⟧ exp 09/27\nAgent: Sorry about that! Could you confirm the shipping address?\nCustomer: ⟦street⟧, Apt 5, Columbus OH 43215. Name on the order is ⟦name⟧\nAgent: Thanks. Tracking ⟦k_track⟧ shows it stuck in Memphis. I've opened a claim, ref ⟦k_order⟧.\n"),
    ("ticket", "en", "Refund request ⟦k_ticket⟧\nCard on the form: ⟦k_luhn⟧ (fails validation, customer mistyped) - correct one per phone call: ⟦card⟧\nAmount ⟦k_price⟧, original charge ⟦k_stripe⟧.\n"),
    ("kyc", "en", "KYC review - tier 2\nApplicant: ⟦name⟧ (DOB: ⟦dob⟧)\nID doc: passport no. ⟦passport⟧, expires ⟦k_date⟧\nSSN: ⟦ssn⟧, matched by bureau\nDevice fingerprint ⟦k_md⟧, session from ⟦ip⟧\nDecision: approve\n"),
    ("travel", "en", "Booking ⟦k_order⟧ confirmed\nPassenger: ⟦name_rev⟧ / MR\nPassport ⟦passport⟧, nationality GBR, born ⟦dob⟧\nMobile for gate changes: ⟦phone⟧\nSeat 14C, fare ⟦k_price⟧\n"),
    ("memo", "en", "## What I know about the user\n- Name: ⟦name⟧, prefers first name\n- Works at a clinic, email ⟦email⟧\n- Birthday ⟦dob⟧ (asked me to remind her)\n- Home IP for the VPN allowlist: ⟦ip⟧\n- Their repo: ⟦k_url⟧\n"),
    ("table", "en", "| Service | Primary | Phone | Escalation |\n|---|---|---|---|\n| payments | ⟦name⟧ | ⟦phone⟧ | ⟦email⟧ |\n| search | ⟦name2⟧ | ⟦phone2⟧ | ⟦k_exemail⟧ |\n\nRunbook ⟦k_ver⟧, last reviewed ⟦k_date⟧.\n"),
    ("postmortem", "en", "### Postmortem ⟦k_ticket⟧\n**Summary:** a debug endpoint echoed request headers back. We found `Authorization: Basic ⟦basic⟧` in the CDN logs for client ⟦ip⟧.\n**Impact:** one partner credential exposed for ~6h.\n**Action items:** rotate the service account, scrub logs older than ⟦k_date⟧. Owner: ⟦name⟧.\n"),
    ("chat", "en", "user: here's the deploy key for the build box, don't lose it again\n```\n⟦pem⟧\n```\nassistant: Got it. I'd rather not keep private keys in my notes; the public half is:\n⟦k_pubkey⟧\n"),
    ("chat", "en", "user: the webhook keeps failing signature checks, secret is ⟦whsec⟧ and the endpoint is ⟦k_url⟧\nassistant: The signature header uses the raw body. Event ⟦k_stripe⟧ was re-sent at ⟦k_ts⟧.\n"),
    # --- German ---
    ("chat", "de", "[09:12] ⟦name⟧: Moin! Kannst du mir kurz den Zugang fürs Lieferantenportal schicken?\n[09:14] ⟦name2⟧: klar, Benutzer einkauf2, Kennwort ⟦password⟧ (bitte nicht weitergeben)\n[09:15] ⟦name⟧: Danke! Bestellung ⟦k_order⟧ hängt noch, Betrag ⟦k_price⟧\n"),
    ("email", "de", "Von: ⟦name⟧ <⟦email⟧>\nBetreff: Änderung meiner Bankverbindung\n\nSehr geehrte Damen und Herren,\n\nbitte überweisen Sie mein Gehalt ab nächstem Monat auf folgendes Konto: ⟦iban⟧. Meine Steuer-IdNr. lautet ⟦steuer⟧.\n\nMit freundlichen Grüßen\n⟦name⟧\n⟦street⟧, 50667 Köln\n"),
    ("clinical", "de", "Entlassungsbrief\nPatientin: ⟦name⟧, geb. ⟦dob⟧\nAnschrift: ⟦street⟧, 80331 München\nDiagnosen: Z. n. Appendektomie am ⟦k_date⟧, arterielle Hypertonie.\nProcedere: Fadenzug in 10 Tagen beim Hausarzt. Tochter erreichbar unter ⟦phone⟧.\n"),
    ("hr", "de", "Personalakte - Neueinstellung\nName: ⟦name_rev⟧\nGeburtsdatum: ⟦dob⟧\nSteuer-ID ⟦steuer⟧, Steuerklasse 1\nGehaltskonto: ⟦iban⟧\nReisepass (für das Visum): ⟦passport⟧\nEintritt ⟦k_date⟧, Personalnummer ⟦k_emp⟧\n"),
    ("ticket", "de", "Ticket ⟦k_ticket⟧: Kunde kann nicht bezahlen\nHerr ⟦name⟧ meldet, dass seine Karte ⟦card⟧ abgelehnt wird. Zugriff kam von ⟦ip⟧, Transaktion ⟦k_hash⟧.\nRückruf erbeten: ⟦phone⟧\n"),
    ("crm", "de", "Gesprächsnotiz ⟦k_date⟧\nAnsprechpartnerin: ⟦name⟧ (Einkaufsleitung)\nDurchwahl ⟦phone⟧, Mail ⟦email⟧\nAngebot ⟦k_inv⟧ über ⟦k_price⟧ netto verschickt; Lieferung an ⟦street⟧, Halle 3.\n"),
    ("table", "de", "| Standort | Ansprechpartner | Telefon | E-Mail |\n|---|---|---|---|\n| Hamburg | ⟦name⟧ | ⟦phone⟧ | ⟦email⟧ |\n| Leipzig | ⟦name2⟧ | ⟦phone2⟧ | ⟦email2⟧ |\nStand: ⟦k_date⟧\n"),
    ("chat", "de", "Nutzerin: hier der Schlüssel für den Jumphost, bitte in die Doku:\n⟦pem⟧\nAgent: Den privaten Teil lege ich nicht in der Doku ab. Fingerprint laut ssh-keygen: ⟦k_fp⟧\n"),
    # --- French ---
    ("chat", "fr", "- ⟦name⟧ (14:02) : salut, tu peux me renvoyer les accès du serveur de recette ?\n- ⟦name2⟧ (14:05) : oui : ssh root@⟦ipv⟧, mot de passe ⟦password⟧. Pense à le changer après.\n- ⟦name⟧ (14:06) : merci, je déploie la ⟦k_ver⟧\n"),
    ("email", "fr", "De : ⟦name⟧ <⟦email⟧>\nObjet : Dossier mutuelle\n\nBonjour,\n\nVoici mes informations : né(e) le ⟦dob⟧, n° d'assuré social ⟦nir⟧. Le remboursement peut être versé sur le compte ⟦iban⟧.\n\nCordialement,\n⟦name⟧\n⟦street⟧, 69002 Lyon\n"),
    ("clinical", "fr", "Compte rendu - consultation du ⟦k_date⟧\nMme ⟦name⟧, née le ⟦dob⟧, adressée pour douleurs thoraciques atypiques.\nECG normal, troponine négative. Domicile : ⟦street⟧, 33000 Bordeaux. Tél. du conjoint : ⟦phone⟧.\nN° d'assurée : ⟦nir⟧\n"),
    ("hr", "fr", "Note RH confidentielle\nSalarié : ⟦name⟧\nRIB transmis : ⟦iban⟧\nPasseport n° ⟦passport⟧ (renouvellement demandé)\nMail perso : ⟦email⟧\nEntretien annuel le ⟦k_date⟧, matricule ⟦k_emp⟧.\n"),
    ("ticket", "fr", "Demande ⟦k_ticket⟧ - accès API refusé\nLe client indique utiliser la clé ⟦api_key⟧ depuis l'adresse ⟦ip⟧. Les journaux montrent une 403 (requête ⟦k_uuid⟧). Contact : ⟦name⟧, ⟦phone⟧.\n"),
    ("crm", "fr", "Fiche client - ⟦name⟧\nCarte enregistrée : ⟦card⟧\nAdresse de livraison : ⟦street⟧\nDernière commande ⟦k_order⟧ (⟦k_price⟧)\nIBAN saisi par erreur : ⟦k_ibanfail⟧ (clé invalide, à redemander)\n"),
    # --- Spanish ---
    ("chat", "es", "[12/3/25, 18:40] ⟦name⟧: oye, ¿me pasas la contraseña del panel?\n[12/3/25, 18:41] ⟦name2⟧: es ⟦password⟧\n[12/3/25, 18:41] ⟦name2⟧: el usuario es admin\n[12/3/25, 18:42] ⟦name⟧: ¡gracias! el pedido ⟦k_order⟧ ya salió\n"),
    ("email", "es", "De: ⟦name⟧ <⟦email⟧>\nAsunto: Alta como proveedor\n\nBuenos días:\n\nLes envío mis datos para el alta: NIF ⟦dni⟧, domicilio fiscal ⟦street⟧, 28013 Madrid, cuenta para transferencias ⟦iban⟧.\n\nUn saludo,\n⟦name⟧\nTel. ⟦phone⟧\n"),
    ("clinical", "es", "Informe de urgencias\nPaciente: ⟦name⟧ - F. nac.: ⟦dob⟧ - DNI ⟦dni⟧\nMotivo: caída casual con traumatismo en muñeca izquierda. Rx: fractura de Colles no desplazada.\nTratamiento: férula, control en traumatología el ⟦k_date⟧. Familiar de contacto ⟦phone⟧.\n"),
    ("hr", "es", "Nota interna RR. HH.\nEmpleada: ⟦name⟧\nPasaporte ⟦passport⟧, vence el ⟦k_date⟧\nNómina: ⟦iban⟧\nCorreo personal ⟦email⟧\nExpediente ⟦k_emp⟧\n"),
    ("hr", "es", "Formulario W-4 (oficina de Miami)\nEmpleado: ⟦name⟧\nNúmero de Seguro Social: ⟦ssn⟧\nFecha de nacimiento: ⟦dob⟧\nDirección: ⟦street⟧\n"),
    ("ticket", "es", "Incidencia ⟦k_ticket⟧\nEl cliente ⟦name⟧ no recibe los SMS de verificación en el ⟦phone⟧. IP de la sesión: ⟦ip⟧. Versión de la app ⟦k_ver⟧.\n"),
    ("crm", "es", "Cliente ⟦name⟧ pagó con tarjeta ⟦card⟧; entrega en ⟦street⟧, Sevilla. Presupuesto ⟦k_inv⟧ por ⟦k_price⟧.\n"),
    # --- Portuguese ---
    ("chat", "pt", "⟦name⟧: bom dia! consegue liberar meu acesso? meu CPF é ⟦cpf⟧\n⟦name2⟧: bom dia, consigo sim. confirma a data de nascimento?\n⟦name⟧: ⟦dob⟧\n⟦name2⟧: pronto, protocolo ⟦k_order⟧\n"),
    ("email", "pt", "De: ⟦name⟧ <⟦email⟧>\nAssunto: Reembolso\n\nOlá, segue meu cartão para o estorno: ⟦card⟧. Se preferir, pode depositar via PIX na chave ⟦email⟧.\n\nAtt.,\n⟦name⟧\n⟦phone⟧\n"),
    ("clinical", "pt", "Evolução - ⟦k_date⟧\nPaciente ⟦name⟧, nascida em ⟦dob⟧, CPF ⟦cpf⟧.\nQueixa: cefaleia há 3 dias. PA 130x85. Conduta: dipirona 1 g, retorno em 7 dias.\nEndereço: ⟦street⟧, São Paulo\n"),
    ("hr", "pt", "Ficha de admissão\nColaborador: ⟦name⟧\nCPF: ⟦cpf⟧ | Passaporte: ⟦passport⟧\nConta para salário (Portugal): ⟦iban⟧\nTelefone: ⟦phone⟧\nMatrícula ⟦k_emp⟧\n"),
    ("ticket", "pt", "Chamado ⟦k_ticket⟧ - erro no login\nUsuário ⟦email⟧ relata bloqueio após tentativas a partir do IP ⟦ip⟧. Token que o cliente mandou no print: ⟦jwt⟧. Versão ⟦k_ver⟧.\n"),
    ("ticket", "pt", "Chamado ⟦k_ticket⟧: cliente colou o cookie de sessão no chat (⟦cookie⟧). Sessão invalidada às ⟦k_ts⟧.\n"),
    # --- Japanese ---
    ("chat", "ja", "⟦name⟧：お疲れさまです。本番DBのパスワードってどこでしたっけ？\n⟦name2⟧：1Passwordにありますが、急ぎなら → ⟦password⟧\n⟦name⟧：ありがとうございます！リリース ⟦k_ver⟧ 進めます\n"),
    ("clinical", "ja", "診療記録 ⟦k_date⟧\n患者氏名：⟦name⟧ 様\n生年月日：⟦dob⟧\n住所：⟦street⟧\n連絡先：⟦phone⟧\n主訴：発熱、咽頭痛。インフルエンザ迅速検査陰性。\n"),
    ("hr", "ja", "人事メモ（社外秘）\n社員：⟦name⟧\nマイナンバー ⟦mynum⟧\n旅券番号：⟦passport⟧\n個人メール：⟦email⟧\n入社日 ⟦k_date⟧　社員番号 ⟦k_emp⟧\n"),
    ("ticket", "ja", "問い合わせ番号 ⟦k_ticket⟧\nお客様（⟦name⟧ 様）より、カード ⟦card⟧ の決済がエラーになるとの連絡。接続元IP ⟦ip⟧。\n折り返し先：⟦phone⟧\n"),
    ("crm", "ja", "商談メモ\n先方担当：⟦name⟧ 部長\nメール：⟦email⟧\n見積 ⟦k_inv⟧（⟦k_price⟧）送付済み。\n"),
    ("chat", "ja", "ユーザー：秘密鍵を貼っておきます、サーバー設定に使ってください\n⟦pem⟧\nアシスタント：秘密鍵はメモに残しません。公開鍵はこちらです：⟦k_pubkey⟧\n"),
    # --- Chinese ---
    ("chat", "zh", "⟦name⟧：测试服的账号密码发我一下\n⟦name2⟧：账号 admin，密码 ⟦password⟧，用完记得改\n⟦name⟧：好的，版本 ⟦k_ver⟧ 已经部署\n"),
    ("clinical", "zh", "门诊记录 ⟦k_date⟧\n姓名：⟦name⟧　证件号码：⟦cnid⟧\n联系电话：⟦phone⟧\n现住址：⟦street⟧\n主诉：反复咳嗽两周。\n"),
    ("hr", "zh", "入职登记\n员工：⟦name⟧\n出生日期：⟦dob⟧\n护照号：⟦passport⟧\n个人邮箱：⟦email⟧\n工号 ⟦k_emp⟧\n"),
    ("hr", "zh", "外派员工资料\n姓名：⟦name⟧\n美国社安号 SSN ⟦ssn⟧\n居民身份证 ⟦cnid⟧\n"),
    ("ticket", "zh", "工单 ⟦k_ticket⟧：用户 ⟦name⟧ 反馈无法登录，登录 IP ⟦ip⟧，请求 ID ⟦k_uuid⟧。用户留的手机 ⟦phone⟧。\n"),
    ("crm", "zh", "客户：⟦name⟧ 先生\n收货地址：⟦street⟧\n银行卡：⟦card⟧\n订单 ⟦k_order⟧ 金额 ⟦k_price⟧\n"),
    # --- Hindi / Hinglish ---
    ("chat", "hi", "⟦name⟧: bhai staging ka password kya hai?\n⟦name2⟧: ⟦password⟧ - kisi ko mat batana\n⟦name⟧: thanks, build ⟦k_short⟧ deploy kar raha hoon\n"),
    ("hr", "hi", "एचआर रिकॉर्ड\nकर्मचारी: ⟦name⟧\nजन्म तिथि: ⟦dob⟧\nआधार संख्या: ⟦aadhaar⟧\nपासपोर्ट: ⟦passport⟧\nकर्मचारी कोड ⟦k_emp⟧\n"),
    ("clinical", "hi", "OPD note ⟦k_date⟧\nPatient: ⟦name⟧, DOB ⟦dob⟧\nAadhaar no ⟦aadhaar⟧\nAddress: ⟦street⟧, Pune 411001\nMobile ⟦phone⟧\nComplaints: fever x 4 days, NS1 positive. Advised CBC daily.\n"),
    ("ticket", "hi", "शिकायत ⟦k_ticket⟧: ग्राहक ⟦name⟧ का कार्ड ⟦card⟧ से भुगतान विफल। ईमेल ⟦email⟧, IP ⟦ip⟧।\n"),
    ("crm", "hi", "Lead: ⟦name⟧ (Pune)\nCall back on ⟦phone⟧ after 6 pm, email ⟦email⟧\nSite visit address: ⟦street⟧\nQuote ⟦k_inv⟧ for ⟦k_price⟧\n"),
    # --- configs, any language ---
    ("env", "*", "# ⟦note⟧\nAPP_ENV=production\nSTRIPE_SECRET_KEY=⟦stripe⟧\nSTRIPE_WEBHOOK_SECRET=⟦whsec⟧\nDATABASE_URL=⟦cred⟧\nSENTRY_RELEASE=⟦k_sha⟧\nMAIL_FROM=⟦k_exemail⟧\n"),
    ("env", "*", "OPENAI_API_KEY=⟦openai⟧\nREDIS_URL=⟦cred⟧\nSESSION_SECRET='⟦django⟧'\nADMIN_EMAIL=⟦email⟧\nBIND_ADDR=⟦k_rip⟧\nSMTP_PASSWORD=⟦k_ph⟧\n"),
    ("env", "*", "# ⟦note⟧\nLINEAR_API_KEY=⟦linear⟧\nNOTION_TOKEN=⟦notion⟧\nTWILIO_AUTH_TOKEN=⟦twilio⟧\nSUPPORT_PHONE=\"⟦phone⟧\"\nBUILD_ID=⟦k_uuid⟧\n"),
    ("yaml", "*", "# group_vars/prod.yml - ⟦note⟧\npostgres:\n  host: ⟦k_rip⟧\n  user: billing\n  password: \"⟦password⟧\"\nsmtp:\n  relay: smtp.sendgrid.net\n  api_key: ⟦sendgrid⟧\nalerts:\n  pager: \"⟦phone⟧\"\n  owner: ⟦name⟧\nimage_tag: ⟦k_short⟧\n"),
    ("yaml", "*", "ingress:\n  host: shop.example.com\nmailer:\n  from: ⟦k_exemail⟧\n  mailgunKey: ⟦mailgun⟧\nadmin:\n  email: ⟦email⟧\n  initialPassword: \"⟦password⟧\"\nimage:\n  digest: ⟦k_digest⟧\n"),
    ("yaml", "*", "tls:\n  serial: \"⟦k_serial⟧\"\n  key: |\n⟦pem_ind⟧\nupstream:\n  url: ⟦k_url⟧\n"),
    ("gha", "*", "name: deploy\non: [push]\njobs:\n  ship:\n    runs-on: ubuntu-22.04\n    env:\n      NPM_TOKEN: ⟦k_ci⟧\n      AWS_ACCESS_KEY_ID: ⟦aws_id⟧\n      AWS_SECRET_ACCESS_KEY: ⟦aws_secret⟧\n    steps:\n      - uses: actions/checkout@⟦k_sha⟧\n      - run: npm ci && npm run build  # ⟦note⟧\n"),
    ("toml", "*", "[database]\nurl = \"⟦cred⟧\"\npool = 16\n\n[auth]\njwt_signing_key = \"⟦hexsecret⟧\"\nissuer = \"⟦k_url⟧\"\n\n[telemetry]\nservice_version = \"⟦k_ver⟧\"\nsample_rate = 0.1\n"),
    ("toml", "*", "# ⟦note⟧\n[owner]\nname = \"⟦name⟧\"\nemail = \"⟦email⟧\"\n\n[integrations.databricks]\nhost = \"https://adb-⟦n⟧.azuredatabricks.net\"\ntoken = \"⟦databricks⟧\"\n"),
    ("ini", "*", "[distutils]\nindex-servers = pypi\n\n[pypi]\nusername = __token__\npassword = ⟦pypi⟧\n"),
    ("ini", "*", "; ~/.my.cnf - ⟦note⟧\n[client]\nuser=backup\npassword=⟦password⟧\nhost=⟦k_rip⟧\n\n[mysqldump]\nsingle-transaction\n"),
    ("json", "*", "{\n  \"type\": \"service_account\",\n  \"project_id\": \"acme-data-prod\",\n  \"private_key_id\": \"⟦k_keyid⟧\",\n  \"private_key\": \"⟦pem_json⟧\\n\",\n  \"client_email\": \"etl-runner@acme-data-prod.iam.gserviceaccount.com\"\n}\n"),
    ("json", "*", "{\n  \"api\": {\"baseUrl\": \"⟦k_url⟧\", \"key\": \"⟦google⟧\"},\n  \"support\": {\"email\": \"⟦email⟧\", \"phone\": \"⟦phone⟧\"},\n  \"build\": \"⟦k_hash⟧\"\n}\n"),
    ("json", "*", "{\"access_token\":\"⟦jwt⟧\",\"token_type\":\"Bearer\",\"expires_in\":3600,\"refresh_token\":\"⟦refresh⟧\",\"scope\":\"openid email\",\"session_state\":\"⟦k_uuid⟧\"}\n"),
    ("json", "*", "{\n  \"applicant\": {\n    \"full_name\": \"⟦name⟧\",\n    \"birth_date\": \"⟦dob_iso⟧\",\n    \"national_id\": \"⟦natid⟧\",\n    \"address\": \"⟦street⟧\"\n  },\n  \"submitted_at\": \"⟦k_ts⟧\"\n}\n"),
    ("k8s", "*", "apiVersion: v1\nkind: Secret\nmetadata:\n  name: payments-db\n  namespace: prod\n  uid: ⟦k_uuid⟧\ntype: Opaque\ndata:\n  username: cGF5bWVudHM=\n  password: ⟦basepw⟧\n  url: ⟦basecred⟧\n"),
    ("hcl", "*", "provider \"aws\" {\n  region     = \"eu-west-1\"\n  access_key = \"⟦aws_id⟧\"\n  secret_key = \"⟦aws_secret⟧\"\n  # docs use ⟦k_exkey⟧ here\n}\n\nresource \"aws_instance\" \"bastion\" {\n  ami           = \"⟦k_ami⟧\"\n  instance_type = \"t3.micro\"\n  tags = { Owner = \"⟦name⟧\" }\n}\n"),
    ("hcl", "*", "provider \"newrelic\" {\n  account_id = ⟦n⟧\n  api_key    = \"⟦newrelic⟧\"\n}\n\nprovider \"grafana\" {\n  url  = \"⟦k_url⟧\"\n  auth = \"⟦grafana⟧\"\n}\n"),
    # --- shell, CI, logs, traces ---
    ("shell", "*", "  501  cd ~/work/infra\n  502  export GITLAB_TOKEN=⟦gitlab⟧\n  503  git push origin feature/⟦k_ticket⟧-retry\n  504  curl -u admin:⟦password⟧ https://jenkins.corp.lan/api/json\n  505  ssh -i ~/.ssh/bastion ubuntu@⟦ipv⟧\n  506  history | grep token\n"),
    ("shell", "*", "$ redis-cli -h ⟦k_rip⟧ -a '⟦password⟧' --no-auth-warning info keyspace\n# Keyspace\ndb0:keys=⟦n⟧,expires=0\n$ mongosh \"⟦cred⟧\" --eval 'db.stats()'\n"),
    ("shell", "*", "$ curl -sS https://api.internal.example/v1/accounts/⟦k_uuid⟧ \\\n    -H 'Accept: application/json' \\\n    -H 'Authorization: Bearer ⟦bearer⟧' | jq .status\n\"suspended\"\n"),
    ("shell", "*", "$ npm config set //registry.npmjs.org/:_authToken ⟦npm⟧\n$ npm publish --access public\n+ @acme/ui-kit@⟦k_ver⟧\n"),
    ("shell", "*", "kubectl -n billing create secret generic stripe --from-literal=api-key=⟦stripe⟧ --dry-run=client -o yaml | kubectl apply -f -\nkubectl rollout restart deploy/billing-api\nkubectl logs ⟦k_pod⟧ --since=10m\n"),
    ("shell", "*", "# ⟦note⟧\ncat > ~/.config/gh/hosts.yml <<EOF\ngithub.com:\n    oauth_token: ⟦gh⟧\n    git_protocol: https\nEOF\ngit log -1 --format=%H  # ⟦k_sha⟧\n"),
    ("shell", "*", "$ docker run -d --name api -e DB_PASS='⟦password⟧' -e JWT_SECRET='⟦django⟧' -p 8080:8080 ghcr.io/acme/api@⟦k_digest⟧\n⟦k_hash⟧\n"),
    ("shell", "*", "$ export ANTHROPIC_API_KEY=⟦anthropic⟧\n$ python eval.py --model claude --limit 50\nrun ⟦k_uuid⟧ finished in 312.4s\n"),
    ("ci", "*", "##[group]Run ./scripts/deploy.sh\n+ echo 'deploying ⟦k_sha⟧'\ndeploying ⟦k_sha⟧\n+ curl -fsS -X POST -H 'Content-Type: application/json' -H 'X-Api-Key: ⟦hexkey⟧' https://hooks.internal.example/deploy\n{\"ok\":true,\"job\":\"⟦k_uuid⟧\"}\n##[endgroup]\n"),
    ("ci", "*", "[Pipeline] sh\n+ docker login -u ci-bot -p ⟦password⟧ registry.corp.lan\nWARNING! Using --password via the CLI is insecure. Use --password-stdin.\nLogin Succeeded\n+ docker push registry.corp.lan/team/worker:⟦k_ver⟧\n⟦k_ver⟧: digest: ⟦k_digest⟧ size: 2419\n"),
    ("ci", "*", "Step 4/9 : RUN pip install --index-url ⟦cred⟧ -r requirements.txt\n ---> Running in ⟦k_short⟧\nLooking in indexes: https://ci-bot:****@nexus.corp.lan/repository/pypi-internal/simple\nSuccessfully installed acme-core-⟦k_ver⟧\n"),
    ("trace", "*", "Traceback (most recent call last):\n  File \"/srv/app/billing/charge.py\", line 88, in charge\n    resp = client.charges.create(amount=amount, source=card)\n  File \"/srv/app/.venv/lib/python3.11/site-packages/stripe/api_requestor.py\", line 412, in request\n    raise error.CardError(msg, param, code)\nstripe.error.CardError: Your card was declined.\n\nLocals at frame 0:\n  amount = 4999\n  card = '⟦card_plain⟧'\n  customer_email = '⟦email⟧'\n  request_id = '⟦k_stripe⟧'\n"),
    ("trace", "*", "2025-03-14 09:12:44.118 ERROR 1 --- [main] o.h.engine.jdbc.spi.SqlExceptionHelper : Access denied for user 'shop'@'⟦ipv⟧' (using password: YES)\nCaused by: java.sql.SQLException: Cannot create PoolableConnectionFactory (jdbc:mysql://db-primary:3306/shop?user=shop&password=⟦cpw⟧&useSSL=false)\n\tat org.apache.commons.dbcp2.BasicDataSource.createPoolableConnectionFactory(BasicDataSource.java:669)\n"),
    ("trace", "*", "2025/03/14 08:01:12 main.go:57: sync failed: 401 Unauthorized req=GET https://api.example.org/v2/sync headers=map[Accept:[application/json] Authorization:[Bearer ⟦bearer⟧]]\npanic: sync failed\n\ngoroutine 1 [running]:\nmain.main()\n\t/src/cmd/sync/main.go:58 +0x1d4 pc=⟦k_mem⟧\n"),
    ("log", "*", "⟦ipv⟧ - - [⟦k_ts⟧] \"POST /api/login HTTP/2.0\" 200 512 \"-\" \"Mozilla/5.0 (Macintosh; Intel Mac OS X 14_3) AppleWebKit/605.1.15\"\n⟦ipv2⟧ - - [14/Mar/2025:08:22:21 +0000] \"GET /reset?token=⟦jwt⟧ HTTP/1.1\" 302 0 \"-\" \"curl/8.4.0\"\n⟦k_rip⟧ - - [14/Mar/2025:08:22:23 +0000] \"GET /healthz HTTP/1.1\" 200 2 \"-\" \"kube-probe/1.29\"\n"),
    ("log", "*", "{\"level\":\"info\",\"ts\":\"⟦ts⟧\",\"msg\":\"user signed in\",\"user_email\":\"⟦email⟧\",\"remote_ip\":\"⟦ip⟧\",\"traceparent\":\"⟦k_trace⟧\"}\n{\"level\":\"debug\",\"ts\":\"⟦ts2⟧\",\"msg\":\"outgoing request\",\"headers\":{\"Cookie\":\"⟦cookie⟧\",\"User-Agent\":\"okhttp/4.12.0\"}}\n"),
    ("log", "*", "Mar 14 03:12:07 bastion sshd[⟦pid⟧]: Failed password for invalid user oracle from ⟦ipv⟧ port 51844 ssh2\nMar 14 03:12:09 bastion sshd[⟦pid2⟧]: Accepted publickey for deploy from ⟦ipv2⟧ port 40022 ssh2: ED25519 ⟦k_fp⟧\n"),
    ("log", "*", "2025-03-14 10:00:01.123 UTC [⟦pid⟧] LOG:  statement: ALTER ROLE reporting WITH LOGIN PASSWORD '⟦password⟧';\n2025-03-14 10:00:01.130 UTC [⟦pid⟧] LOG:  duration: 2.114 ms\n"),
    ("log", "*", "⟦ts⟧ WARN  sms-gateway: delivery failed to=⟦phone⟧ carrier_code=30007 msg_id=⟦k_uuid⟧\n⟦ts2⟧ INFO  sms-gateway: retry scheduled attempt=2\n"),
    ("log", "*", "⟦ts⟧ DEBUG checkout: payload={\"email\":\"⟦email⟧\",\"card\":\"⟦card⟧\",\"exp\":\"11/28\",\"amount\":\"⟦k_price⟧\"}\n⟦ts2⟧ INFO  checkout: order ⟦k_order⟧ created\n"),
    ("http", "*", "HTTP/1.1 200 OK\nContent-Type: application/json\nSet-Cookie: ⟦cookie⟧; Path=/; Secure; HttpOnly; SameSite=Lax\nX-Request-Id: ⟦k_uuid⟧\nETag: \"⟦k_md⟧\"\n\n{\"ok\": true}\n"),
    ("http", "*", "curl 'https://app.example.com/api/graphql' \\\n  -H 'accept: */*' \\\n  -H 'cookie: ⟦cookie⟧; theme=dark; lang=en' \\\n  -H 'traceparent: ⟦k_trace⟧' \\\n  --data-raw '{\"operationName\":\"Viewer\"}'\n"),
    ("http", "*", "GET /v1/me HTTP/1.1\nHost: api.example.org\nAuthorization: Token ⟦hexkey⟧\nUser-Agent: python-requests/2.32.3\n\nHTTP/1.1 401 Unauthorized\nWWW-Authenticate: Token realm=\"api\"\n"),
    ("env", "*", "# ⟦note⟧\nJWT_ALG=RS256\nJWT_PRIVATE_KEY=\"⟦pem⟧\"\nJWT_ISSUER=⟦k_url⟧\n"),
    ("shell", "*", "$ ssh-add - <<< '⟦pem⟧'\nIdentity added: (stdin) (deploy@ci)\n$ ssh -A deploy@⟦ipv⟧ 'uptime'\n"),
    ("shell", "*", "$ git remote set-url origin ⟦cred⟧\n$ git push -u origin main\nTo nexus.corp.lan\n   ⟦k_short⟧..⟦k_short2⟧  main -> main\n"),
    ("shell", "*", "$ curl -s --cookie '⟦cookie⟧' https://shop.example.net/account/orders | head -c 200\n{\"orders\":[{\"id\":\"⟦k_order⟧\",\"total\":\"⟦k_price⟧\"}]}\n"),
    ("yaml", "*", "services:\n  worker:\n    image: registry.corp.lan/team/worker:⟦k_ver⟧\n    environment:\n      DATABASE_URL: \"⟦cred⟧\"\n      SESSION_COOKIE_SAMPLE: \"⟦cookie⟧\"  # ⟦note⟧\n"),
    ("yaml", "*", "spring:\n  datasource:\n    url: jdbc:postgresql://⟦k_rip⟧:5432/ledger\n    username: ledger_app\n    password: ⟦password⟧\n  security:\n    oauth2:\n      client:\n        registration:\n          okta:\n            client-secret: ⟦secret⟧\n"),
    ("log", "*", "⟦ts⟧ INFO  gateway: upstream=billing status=403 path=/v1/invoices auth=\"Bearer ⟦jwt⟧\" client=⟦ip⟧\n"),
    ("chat", "fr", "utilisateur : voilà l'URL de la base, ça plante au démarrage : ⟦cred⟧\nassistant : L'hôte ne répond pas sur ce port. Vérifie le groupe de sécurité ; la dernière migration est ⟦k_short⟧.\n"),
    ("chat", "es", "usuario: te paso el token que veo en las cookies: ⟦cookie⟧ y el JWT ⟦jwt⟧\nasistente: Con eso basta para reproducirlo; no los guardaré. La petición ⟦k_uuid⟧ devuelve 401.\n"),
    ("ticket", "es", "Incidencia ⟦k_ticket⟧: el cliente ⟦name⟧ adjuntó por error su clave privada al correo:\n⟦pem⟧\nSe le pidió revocarla. Huella: ⟦k_fp⟧\n"),
    ("ticket", "zh", "工单 ⟦k_ticket⟧：客户把访问令牌贴在了工单里：⟦jwt⟧，已作废。会话 Cookie：⟦cookie⟧\n"),
    ("log", "ja", "⟦ts⟧ [WARN] ログイン失敗 user=⟦email⟧ ip=⟦ip⟧ cookie=⟦cookie⟧\n⟦ts2⟧ [INFO] セッション再発行 request_id=⟦k_uuid⟧\n"),
    ("python", "*", "# ⟦note⟧\nTOKEN = \"⟦jwt⟧\"\nresp = httpx.get(\"https://api.example.org/v1/orders\", headers={\"Authorization\": f\"Bearer {TOKEN}\"})\nassert resp.headers[\"x-request-id\"] != \"⟦k_uuid⟧\"\n"),
    ("chat", "de", "Nutzer: die Verbindung klappt nicht: ⟦cred⟧\nAgent: Der Host ist aus dem Build-Netz nicht erreichbar; Migration ⟦k_short⟧ ist aber durch.\n"),
    # --- code ---
    ("python", "*", "import requests\n\nSLACK_TOKEN = \"⟦slack⟧\"\nHEADERS = {\"Authorization\": f\"Bearer {SLACK_TOKEN}\"}\n\n\ndef notify(channel: str, text: str) -> None:\n    # ⟦note⟧\n    requests.post(\"https://slack.com/api/chat.postMessage\", headers=HEADERS, json={\"channel\": channel, \"text\": text}, timeout=10)\n\n\nnotify(\"#alerts\", \"deploy ⟦k_ver⟧ done\")\n"),
    ("python", "*", "SECRET_KEY = \"⟦django⟧\"\nDEBUG = False\nALLOWED_HOSTS = [\"⟦ipv⟧\", \"shop.example.org\"]\nDATABASES = {\n    \"default\": {\n        \"ENGINE\": \"django.db.backends.postgresql\",\n        \"NAME\": \"shop\",\n        \"USER\": \"shop\",\n        \"PASSWORD\": \"⟦password⟧\",\n        \"HOST\": \"⟦k_rip⟧\",\n    }\n}\nEMAIL_HOST_USER = \"⟦email⟧\"\n"),
    ("python", "*", "def test_profile_page(client):\n    # ⟦note⟧\n    client.cookies.update({⟦cookie_py⟧})\n    r = client.get(\"/profile\", headers={\"X-API-Key\": \"⟦hexkey⟧\"})\n    assert r.status_code == 200\n    assert r.json()[\"id\"] == \"⟦k_uuid⟧\"\n"),
    ("python", "*", "CUSTOMERS = [\n    {\"name\": \"⟦name⟧\", \"email\": \"⟦email⟧\", \"phone\": \"⟦phone⟧\"},\n    {\"name\": \"⟦name2⟧\", \"email\": \"⟦k_exemail⟧\", \"phone\": None},\n]  # ⟦note⟧\n"),
    ("js", "*", "const axios = require('axios');\n\n// ⟦note⟧\nconst client = axios.create({\n  baseURL: 'https://api.example.net/v2',\n  headers: { Authorization: 'Basic ⟦basic⟧' },\n});\n\nmodule.exports = { client, webhookSecret: '⟦whsec⟧' };\n"),
    ("js", "*", "// copied from devtools > Application > Local Storage\nlocalStorage.setItem('auth', JSON.stringify({\n  accessToken: '⟦jwt⟧',\n  refreshToken: '⟦refresh⟧',\n  user: { email: '⟦email⟧', id: '⟦k_uuid⟧' },\n}));\n"),
    ("js", "*", "export const config = {\n  supabaseUrl: 'https://xyzcompany.supabase.co',\n  serviceKey: '⟦supabase⟧',\n  stripeKey: '⟦k_ph⟧',\n  release: '⟦k_short⟧',\n};\n"),
    ("go", "*", "package main\n\nimport (\n\t\"io\"\n\t\"net/http\"\n)\n\n// ⟦note⟧\nconst apiKey = \"⟦anthropic⟧\"\n\nfunc newRequest(body io.Reader) (*http.Request, error) {\n\treq, err := http.NewRequest(\"POST\", \"https://api.anthropic.com/v1/messages\", body)\n\tif err != nil {\n\t\treturn nil, err\n\t}\n\treq.Header.Set(\"x-api-key\", apiKey)\n\treturn req, nil\n}\n"),
    ("go", "*", "func openDB() (*sql.DB, error) {\n\t// ⟦note⟧\n\treturn sql.Open(\"postgres\", \"host=⟦k_rip⟧ port=5432 user=orders password=⟦cpw⟧ dbname=orders sslmode=require\")\n}\n"),
    ("go", "*", "var signingKey = []byte(`⟦pem⟧`)\n\n// keyID is published in the JWKS; ⟦note⟧\nconst keyID = \"⟦k_keyid⟧\"\n"),
    ("go", "*", "req.Header.Set(\"Authorization\", \"Bearer ⟦bearer⟧\")\nreq.Header.Set(\"X-Request-ID\", \"⟦k_uuid⟧\")\nreq.Header.Set(\"Cookie\", \"⟦cookie⟧\")\n"),
    ("sql", "*", "INSERT INTO customers (id, full_name, email, phone, birth_date, created_at) VALUES\n  (⟦n⟧, '⟦name⟧', '⟦email⟧', '⟦phone⟧', '⟦dob_iso⟧', '⟦k_ts⟧'),\n  (⟦n2⟧, '⟦name2⟧', '⟦email2⟧', '⟦phone2⟧', '⟦dob_iso2⟧', '⟦k_ts2⟧');\n"),
    ("sql", "*", "-- ⟦note⟧\nUPDATE payouts SET iban = '⟦iban_plain⟧', holder = '⟦name⟧' WHERE payout_id = '⟦k_uuid⟧';\n"),
    ("csv", "*", "employee_id,name,ssn,dob,iban\n⟦k_emp⟧,⟦name⟧,⟦ssn⟧,⟦dob_iso⟧,⟦iban_plain⟧\n⟦k_emp2⟧,⟦name2⟧,⟦ssn2⟧,⟦dob_iso2⟧,⟦iban_plain2⟧\n"),
    ("csv", "*", "order_id,customer,passport,card_last_used,shipped_to\n⟦k_order⟧,⟦name⟧,⟦passport⟧,⟦card_plain⟧,\"⟦street⟧\"\n"),
]
# fmt: on


def _blind_sample(
    rng: random.Random, index: int, doc: str, lang: str, text: str
) -> dict[str, object]:
    shown: dict[str, str] = {}
    go: dict[str, str] = {}
    stay: dict[str, str] = {}

    def fill(m: re.Match[str]) -> str:
        slot = m.group(0)
        if slot not in shown:
            name = m.group(1)
            if name in BLIND_GO:
                kind, make = BLIND_GO[name]
                value, shown[slot] = make(rng, lang)
                go.setdefault(value, kind)
            elif name.startswith("k_"):
                sort, shown[slot] = _blind_stay(rng, name, lang)
                stay.setdefault(shown[slot], sort)
            else:
                shown[slot] = BLIND_FREE[name](rng, lang)[1]
        return shown[slot]

    return {
        "id": f"{index:04d}-{doc}-{lang}",
        "text": BLIND_SLOT.sub(fill, text),
        "must_go": [{"kind": k, "value": v} for v, k in go.items()],
        "must_stay": list(stay),
        "stay_sorts": list(stay.values()),
    }


def _blind_kinds(text: str) -> set[str]:
    return {BLIND_GO[m.group(1)][0] for m in BLIND_SLOT.finditer(text) if m.group(1) in BLIND_GO}


def build_blind(count: int = 360) -> list[dict[str, object]]:
    """A corpus in documents and words written blind to the detectors (see above)."""
    rng = random.Random(BLIND_SEED)
    kinds = [_blind_kinds(text) for _, _, text in BLIND_TEMPLATES]
    counts: Counter[str] = Counter()
    uses: Counter[int] = Counter()
    samples: list[dict[str, object]] = []
    while len(samples) < count:
        # Favour documents that carry the kinds seen least so far, and documents used least.
        weights = [
            max(1.0 / (1 + counts[k]) ** 2 for k in ks) / (1 + uses[i])
            for i, ks in enumerate(kinds)
        ]
        i = rng.choices(range(len(BLIND_TEMPLATES)), weights=weights)[0]
        doc, lang, text = BLIND_TEMPLATES[i]
        if lang == "*":
            lang = rng.choice(BLIND_LANGS)
        sample = _blind_sample(rng, len(samples), doc, lang, text)
        if consistent(sample):
            samples.append(sample)
            uses[i] += 1
            counts.update(g["kind"] for g in sample["must_go"])  # type: ignore[attr-defined]
    return samples


# --- single values for property tests ------------------------------------------------------

NEEDLE_CONTEXT = {
    "password": "password: ",
    "phone": "phone: ",
    "date_of_birth": "date of birth: ",
    "passport": "passport number: ",
    "person_name": "Patient name: ",
    "street_address": "Home address: ",
    "ssn": "SSN: ",
}


def needle(kind: str, seed: int) -> tuple[str, str]:
    """A value of ``kind`` with the words that make it sensitive: (snippet, value)."""
    it = make_item(kind, random.Random(seed), "en")
    if kind == "national_id":
        return f"{it.label}: {it.value}", it.value
    if kind == "secret":
        return f"{it.key}={it.value}", it.value
    return NEEDLE_CONTEXT.get(kind, "") + it.shown, it.value


KEEP_KINDS = (*KEEP_SORTS["tech"], "order", "luhn_fail", "iban_fail", "price", "isbn", "plain_date")


def keep(sort: str, seed: int) -> str:
    return keep_value(random.Random(seed), sort)


def build_blind2(count: int = 320) -> list[dict[str, object]]:
    """A second blind corpus, kept in its own module (tests/corpus/blind2.py)."""
    if __package__:  # imported as tests.corpus.generate
        from tests.corpus import blind2
    else:  # run as a script: this file's folder is on sys.path
        import blind2  # type: ignore[no-redef]
    return blind2.build_blind2(count)


def build_blind3(count: int = 320) -> list[dict[str, object]]:
    """A third blind corpus, kept in its own module (tests/corpus/blind3.py)."""
    if __package__:  # imported as tests.corpus.generate
        from tests.corpus import blind3
    else:  # run as a script: this file's folder is on sys.path
        import blind3  # type: ignore[no-redef]
    return blind3.build_blind3(count)


def build_blind4(count: int = 330) -> list[dict[str, object]]:
    """A fourth blind corpus, kept in its own module (tests/corpus/blind4.py)."""
    if __package__:  # imported as tests.corpus.generate
        from tests.corpus import blind4
    else:  # run as a script: this file's folder is on sys.path
        import blind4  # type: ignore[no-redef]
    return blind4.build_blind4(count)


def build_blind5(count: int = 330) -> list[dict[str, object]]:
    """A fifth blind corpus, kept in its own module (tests/corpus/blind5.py)."""
    if __package__:  # imported as tests.corpus.generate
        from tests.corpus import blind5
    else:  # run as a script: this file's folder is on sys.path
        import blind5  # type: ignore[no-redef]
    return blind5.build_blind5(count)


def dump(samples: list[dict[str, object]]) -> str:
    return "".join(json.dumps(s, ensure_ascii=False, sort_keys=True) + "\n" for s in samples)


def main() -> int:
    if sys.argv[1:] == ["--holdout"]:
        sys.stdout.write(dump(build_holdout()))
        return 0
    if sys.argv[1:] == ["--fresh"]:
        sys.stdout.write(dump(build_fresh()))
        return 0
    if sys.argv[1:] == ["--blind"]:
        sys.stdout.write(dump(build_blind()))
        return 0
    if sys.argv[1:] == ["--blind2"]:
        sys.stdout.write(dump(build_blind2()))
        return 0
    if sys.argv[1:] == ["--blind3"]:
        sys.stdout.write(dump(build_blind3()))
        return 0
    if sys.argv[1:] == ["--blind4"]:
        sys.stdout.write(dump(build_blind4()))
        return 0
    if sys.argv[1:] == ["--blind5"]:
        sys.stdout.write(dump(build_blind5()))
        return 0
    samples = build()
    OUT.write_text(dump(samples), encoding="utf-8")
    go = Counter(g["kind"] for s in samples for g in s["must_go"])  # type: ignore[attr-defined]
    langs = Counter(str(s["id"]).rsplit("-", 1)[1] for s in samples)
    stay = sum(len(s["must_stay"]) for s in samples)  # type: ignore[arg-type]
    print(
        f"{len(samples)} samples, {sum(go.values())} must_go, {stay} must_stay, {OUT.stat().st_size:,} bytes"
    )
    print("kinds:", dict(sorted(go.items())))
    print("langs:", dict(sorted(langs.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
