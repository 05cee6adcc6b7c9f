"""Detection rules for contact details: e-mail addresses, phone numbers, IP addresses.

E-mail addresses and public IP addresses are personal wherever they stand; phone
numbers are kept only if libphonenumber takes them for numbers
(``checks._contact``), and a bare run of digits only next to a word like
"phone". Reserved example domains are kept by the default policy's allowlist, and
private, loopback and documentation IP ranges by the check.
"""

from __future__ import annotations

import re

from .. import checks
from .._rule import Rule
from ._fragments import CUE_ENDS

# --- phone numbers ------------------------------------------------------------------

# Not a digit, letter or joiner on the left: a number starts here, not inside a longer token.
_EDGE = r"(?:(?m:^)|[^\p{L}\p{N}_.+\-/])"

# Runs of 4-character groups are IBANs and card numbers (4-6-5 and 4-6-4 are American
# Express and Diners), valid or not: the first branches consume them without a value group
# so no phone is read out of their tail.
_GROUP_RUNS = (
    # six or more groups of digits are a parcel or account number: 9400 12166 0632 7602 5755 63
    r"\b\d{2,5}(?: \d{2,5}){5,}\b|\b\d{4}[ \-]\d{6}[ \-]\d{4,5}\b|"
    r"\b(?:[A-Z]{2}\d{2}(?: [A-Z0-9]{4}){2,}(?: [A-Z0-9]{1,3})?|\d{4}(?:[ \-]\d{4}){2,}"
    r"(?:[ \-]\d{1,4})?)\b"
)
# A purchase order or a numbered reference ("PO 0872785960", "Claim no. #527923734") is
# consumed without a value group, like the runs above.
_ORDER_REF = r"\bP\.?O\.?[ \t]?#?[ \t]?\d[\d \-]*\d|#\d{6,}"
# A phone number, international or in a national format of the regions it is checked in.
_PHONE = (
    _GROUP_RUNS + r"|" + _ORDER_REF + r"|" + _EDGE + r"(?P<value>"
    # +CC then 7 to 15 digits in all, one space, dot or dash apart, with (0) or (area)
    r"\+[1-9](?:[ .\-]?(?:\(0\) ?)?\(?\d\)?){6,14}"
    # +CC in parentheses, as forms print it: (+34) 91 375 95 71
    r"|\(\+[1-9]\d{0,2}\)(?:[ .\-]?\d){6,14}"
    # US/NANP: (415) 555-0132, 415-555-0132, 415.555.0132, 415 555 0132, 1-415-555-0132
    r"|(?:1[ .\-])?(?:\(\d{3}\) ?|\d{3}[ .\-])\d{3}[ .\-]\d{4}"
    # trunk prefix or area code in parentheses: (11) 91234-5678, 8 (953) 333-74-35
    r"|(?:[08] ?)?\(\d{2,5}\) ?\d{2,5}(?:[ \-]\d{2,4}){1,3}"
    # Russian trunk 8 with dashes: 8-908-437-60-59; Vietnamese dotted mobiles: 0979.053.775
    r"|8-9\d{2}-\d{3}-\d{2}-\d{2}|0\d{3}\.\d{3}\.\d{3}"
    # national numbers with a trunk 0: 020 7946 0958, 030/1234567, 0179 / 675 84 75,
    # 01 23 45 67 89, 03-1234-5678, 074516-13491 (IN), 070(2346)1349 (JP)
    r"|0\d{1,5}(?: ?/ ?\d{2,8}|[ \-]\d{2,8})(?:[ \-]\d{2,8}){0,3}|0[1-9](?:\.\d{2}){4}"
    r"|0\d{1,4}\(\d{1,4}\)\d{3,4}"
    # national numbers with no trunk prefix: 646 81 61 44 and 695-440-586 (ES), 91 181 05 98,
    # 98765 43210 (IN), 153-3455-9810 (CN)
    r"|[6-9]\d{2}(?: \d{2}){3}|[89]\d \d{3} \d{2} \d{2}|9\d \d{3} \d{4}|[6-9]\d{4} \d{5}"
    r"|[6-9]\d{2}(?:-\d{3}-| \d{3} )\d{3}|1[3-9]\d(?:-\d{4}-| \d{4} )\d{4}"
    # unseparated mobiles: 07700900123 (GB), 0xxxxxxxxxx (IN), 13912345678 (CN)
    r"|0\d{9,10}|1[3-9]\d{9}"
    # Italian mobiles, which have no trunk 0: 333 7515145, 347 123 4567
    r"|3[1-9]\d (?:\d{6,7}|\d{3} \d{3,4})"
    r")\b"
)
# A national number joined to the word before it, as Japanese and Chinese input methods type
# it: 携帯０９０－１２３４－５６７８です. The filter reads full-width digits and dashes as ASCII.
_PHONE_WIDE = (
    r"[\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}ー]"
    r"(?P<value>\+?[0-9](?:[-ー‐−() ]?[0-9]){8,14})(?:[^0-9]|$)"
)
# Words that make a bare run of digits a phone number, when one stands just before it.
_PHONE_WORDS = (
    *(f"phone{end}" for end in CUE_ENDS),
    "tel", "mobile", "cell", "call", "whatsapp", "fax", "sms", "contact", "handy",
    "telefon", "portable", "téléphone", "teléfono", "móvil", "celular", "telefone", "телефон",
    "тел", "моб", "điện thoại", "liên hệ", "전화", "هاتف", "الجوال", "mobil",
    "电话", "手机", "電話", "携帯", "फ़ोन", "फोन", "मोबाइल",
)  # fmt: skip

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


def _intl_phone(value: str) -> bool:
    """An international number libphonenumber takes as possible, its extension aside."""
    number = _EXTENSION.split(value, maxsplit=1)[0]
    return checks.phone(number)


def _indonesian_phone(value: str) -> bool:
    """A valid Indonesian number (libphonenumber)."""
    return checks.phone_in_region(value, "ID")


# --- IP addresses -----------------------------------------------------------------------

# A dotted quad after "version", "release", "build" is a version: the first branch
# consumes it without a value group, so the engine skips it. An address starts where no
# word, dot or colon goes on into it, or after a letter and a colon ("host:81.2.69.160",
# "[MASKED:x:81.2.69.160]"); inside a longer IPv6 address, a shorter one is no global
# unicast address the check keeps.
_IP = (
    r"(?i:(?:\b(?:versions?|ver|release|build|firmware|rev|revision)\b|верси[яиюей]|versión"
    r"|versão|versione|バージョン|版本)[ -/:-~]{0,16}?\d+(?:\.\d+){3,})"
    r"|(?:(?m:^)|[^\w.:]|[A-Za-z_]:)(?P<value>\d{1,3}(?:\.\d{1,3}){3,}"
    r"|(?i:[0-9a-f]{1,4}(?::[0-9a-f]{0,4}){3,7}|::(?:[0-9a-f]{1,4}:){1,6}[0-9a-f]{1,4}))\b"
)


RULES: tuple[Rule, ...] = (
    Rule(
        name="email",
        kind="email",
        category="personal",
        pattern=(
            r"(?:(?m:^)|[^\p{L}\p{N}._%+\-])(?P<value>[\p{L}\p{N}._%+\-]+@"
            r"(?:[\p{L}\p{N}\-]+\.)+(?:\p{L}\p{L}+|xn--[a-z0-9\-]+))"
        ),
        keywords=("@",),
        validator=checks.email,
        priority=10,
        description="e-mail addresses, plus-addressed and internationalized (reserved example "
        "domains are kept by the policy's allowlist)",
    ),
    Rule(
        name="email_file_name",
        kind="email",
        category="personal",
        # An address with a file extension after it (notes/jane.roe@acme.io.md): the
        # address alone, where the domain before the extension still has a dot, so
        # icon@2x.png stays an image.
        pattern=(
            r"(?:(?m:^)|[^\p{L}\p{N}._%+\-])(?P<value>[\p{L}\p{N}._%+\-]+@"
            r"(?:[\p{L}\p{N}\-]+\.)+(?:\p{L}\p{L}+|xn--[a-z0-9\-]+))"
            r"\.(?i:" + "|".join(sorted(checks.FILE_EXTENSIONS)) + r")(?:[^\p{L}\p{N}]|$)"
        ),
        keywords=("@",),
        validator=checks.email,
        priority=11,
        description="e-mail addresses used as file names, followed by an extension",
    ),
    Rule(
        name="phone",
        kind="phone",
        category="personal",
        pattern=_PHONE,
        validator=checks.phone,
        priority=8,
        description="phone numbers: +country code, or a national format of the US, UK, DE, FR, "
        "ES, IT, IN, BR, JP, CN or RU (libphonenumber)",
    ),
    Rule(
        name="phone_wide",
        kind="phone",
        category="personal",
        pattern=_PHONE_WIDE,
        validator=checks.phone,
        priority=8,
        description="phone numbers joined to the Japanese, Chinese or Korean word before them, "
        "as input methods type them, full-width or not (libphonenumber)",
    ),
    Rule(
        name="phone_plain",
        kind="phone",
        category="personal",
        pattern=_ORDER_REF + r"|\b(?P<value>\d{7,12})\b",
        keywords=_PHONE_WORDS,
        context=_PHONE_WORDS,
        window=24,
        validator=checks.phone,
        priority=7,
        description="phone numbers written as a bare digit run, next to a word like 'phone'",
    ),
    Rule(
        name="phone_extension",
        kind="phone",
        category="personal",
        pattern=_PHONE_EXTENDED,
        cue=r"\+[1-9][^\n]{6,30}(?:x|ext|extension|доб|内線)",
        validator=_intl_phone,
        priority=9,
        description="international phone numbers with their extension ('+1 914-832-4681 x864')",
    ),
    Rule(
        name="phone_joined",
        kind="phone",
        category="personal",
        pattern=_PHONE_JOINED,
        validator=checks.phone,
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
        validator=_indonesian_phone,
        priority=9,
        description="Indonesian phone numbers after 'WA', 'HP' or 'telp'",
    ),
    Rule(
        name="ip_address",
        kind="ip_address",
        category="personal",
        pattern=_IP,
        validator=checks.ip_address,
        priority=9,
        description="public IPv4 and IPv6 addresses (private, loopback, link-local, "
        "documentation and reserved ranges are kept, and so are versions like 'version 1.2.3.4')",
    ),
)
