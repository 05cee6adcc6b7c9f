"""Tests that tell a real secret from a look-alike, and the checksums of token formats.

The secret rules find candidates by a key name, a prefix or a phrase; these tests
then keep the values that read as secrets: literals rather than code, variables or
placeholders (``_placeholders``), random-looking rather than words, and, where a
format carries one, with a valid checksum (GitHub's CRC32, age's bech32, a JWT's
header, a Discord bot id).
"""

from __future__ import annotations

import base64
import binascii
import functools
import json
import math
import re
import zlib
from collections import Counter

from .._words import word_list
from ._placeholders import EXAMPLES, code, named, placeholder

_IDENTIFIER = re.compile(r"[a-z_]+|[A-Z_]+")


def shannon_entropy(value: str) -> float:
    """Bits per character of the value's own character distribution."""
    if not value:
        return 0.0
    counts = Counter(value).values()
    n = len(value)
    if n > _TERMS_UP_TO:
        return -sum(c / n * math.log2(c / n) for c in counts)
    return -sum(map(_terms(n).__getitem__, counts))


# ``c / n * log2(c / n)`` for every count ``c`` of a value of length ``n``, worked out once
# per length: the sum above adds the very same numbers in the same order, so a value's
# entropy is the same to the last bit (floors like 3.0 are met exactly). Lengths only,
# no values: nothing of a text is kept.
_TERMS_UP_TO = 512


@functools.cache
def _terms(n: int) -> list[float]:
    return [0.0] + [c / n * math.log2(c / n) for c in range(1, n + 1)]


_BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def github_token(value: str) -> bool:
    """GitHub's classic tokens end in a base62 CRC32 of the random part."""
    _, _, body = value.partition("_")
    if len(body) != 36:
        return False
    payload, checksum = body[:30], body[30:]
    crc = zlib.crc32(payload.encode())
    encoded = ""
    while crc:
        crc, rem = divmod(crc, 62)
        encoded = _BASE62[rem] + encoded
    return encoded.rjust(6, "0") == checksum


def real(value: str) -> bool:
    """Any provider token that is not a placeholder or documented example."""
    return not placeholder(value)


def literal(value: str) -> bool:
    """A quoted literal: anything but a placeholder, template or reference."""
    return not placeholder(value.strip())


def mixed(value: str) -> bool:
    """A literal that mixes letters with digits or symbols, as passwords do and words do not.

    Punctuation at the end does not count as the symbol: ``vergessen?`` is a question.
    """
    core = value.rstrip("?!.")
    return bare(value) and any(ch.isalpha() for ch in core) and any(not ch.isalpha() for ch in core)


def basic_credentials(value: str) -> bool:
    """Base64 that decodes to ``user:password``, as an HTTP Basic credential does: the
    decoding tells it from a word that happens to follow "basic" in prose."""
    raw = _b64decode_std(value)
    try:
        decoded = "" if raw is None else raw.decode()
    except UnicodeDecodeError:
        return False
    user, colon, password = decoded.partition(":")
    return bool(colon and user and password and decoded.isprintable())


def bare(value: str) -> bool:
    """An unquoted value: a literal secret, not a variable, call or attribute path.

    In code ``password=password`` passes a variable; in ``.env`` ``PASSWORD=hunter2``
    is the secret. A value with a digit or a symbol, or a long mixed-case run, reads as
    a literal; a bare identifier or dotted path reads as code.
    """
    if placeholder(value) or code(value):
        return False
    if _IDENTIFIER.fullmatch(value):
        return False
    has_digit = any(ch.isdigit() for ch in value)
    has_symbol = any(not ch.isalnum() and ch != "_" for ch in value)
    cased = any(ch.isupper() for ch in value[1:]) and any(ch.islower() for ch in value)
    return has_digit or has_symbol or (cased and len(value) >= 8)


def machine_made(value: str) -> bool:
    """A machine-made key: letters and digits mixed, not hex only, not a dummy."""
    if placeholder(value):
        return False
    has_digit = any(ch.isdigit() for ch in value)
    has_upper = any(ch.isupper() for ch in value)
    has_lower = any(ch.islower() for ch in value)
    return has_digit and has_upper and has_lower


def mixed_not_url(value: str) -> bool:
    """:func:`mixed`, but not a link or a path ('reset link: https://...')."""
    return "://" not in value and not value.startswith("www.") and not path(value) and mixed(value)


PASSWORD_ENTROPY = 2.8  # bits per character a password in prose must show
EVERY_CLASS_ENTROPY = 2.4  # ... or this much, when it has every class of character


def chosen_password(value: str) -> bool:
    """:func:`mixed`, with the variety of a chosen password: 2.8 bits per character, or
    2.4 for a value with upper and lower case, a digit and a symbol. Short values with a
    few repeats measure low though nothing about them reads as a word
    (``Ss33&0sn53nS`` is 2.69); a value of every class is a password's shape, and the
    lower floor still keeps ``Mississippi1!`` (2.32) out. The rule's own floor must be the
    lower one."""
    if not mixed(value):
        return False
    entropy = shannon_entropy(value)
    if entropy >= PASSWORD_ENTROPY:
        return True
    return entropy >= EVERY_CLASS_ENTROPY and _every_class(value)


def chosen_password_not_url(value: str) -> bool:
    """:func:`chosen_password`, but not a link or a path."""
    return mixed_not_url(value) and chosen_password(value)


def _every_class(value: str) -> bool:
    return (
        any(c.isupper() for c in value)
        and any(c.islower() for c in value)
        and any(c.isdigit() for c in value)
        and any(not c.isalnum() for c in value)
    )


def path(value: str) -> bool:
    """An absolute path, as a note names where something is kept: ``/`` and names. Not a
    value that merely starts with ``/``, as one in 64 base64 secrets does: a name of 8 or
    more characters mixing upper case, lower case and digits out of word order reads as
    random, not as a
    directory or file someone named (``Config2024`` reads as named)."""
    if not value.startswith("/"):
        return False
    return not any(
        len(name) >= 8
        and any(c.isupper() for c in name)
        and any(c.islower() for c in name)
        and any(c.isdigit() for c in name)
        and not named(name)
        for name in value.split("/")
    )


# Public halves that a note may hand over like a secret: OpenSSH public key blobs (base64
# of a length-prefixed algorithm name, hence ``AAAA``), age recipients, Nostr public keys,
# Stripe publishable keys.
_PUBLIC_KEY_PREFIXES = word_list("public_key_prefixes.txt")
# A file name with its extension, or a path: where a key is kept, not the key.
_FILE_NAME = re.compile(r"(?:[\w.-]+/)*[\w-]+(?:\.[\w-]+)*\.[A-Za-z][A-Za-z0-9]{0,4}")


def opaque(value: str) -> bool:
    """:func:`bare`, but not a link, path, file name or public key: a value named in
    prose as the secret itself (``the signing key is `X` ``)."""
    return (
        "://" not in value
        and not value.startswith(("~", "./", "www.", *_PUBLIC_KEY_PREFIXES))
        and not path(value)
        and not _FILE_NAME.fullmatch(value)
        and bare(value)
    )


# Ticket keys (``INC-20417``, ``OPS-1182``) and settings (``min-length=12``) that a note
# may quote after a word about credentials.
_TICKET_OR_SETTING = re.compile(r"[A-Z][A-Z0-9]{1,9}-[0-9]+|[A-Za-z][\w.-]*=[\w.-]+")


def password_like(value: str) -> bool:
    """:func:`opaque` with letters and a digit or a symbol other than a word separator:
    ``maple-ember-velvet84`` reads as a password, ``vault-prod`` as a name."""
    return (
        not _TICKET_OR_SETTING.fullmatch(value)
        and opaque(value)
        and any(ch.isalpha() for ch in value)
        and any(ch.isdigit() or not (ch.isalnum() or ch in "-_.") for ch in value)
    )


def base64_data(value: str) -> bool:
    """A base64 value in a manifest's data, not a number beside it (``resourceVersion``,
    ``generation``): base64 of random bytes is all digits with vanishing odds."""
    return not value.isdigit() and literal(value)


def _b64decode_std(value: str) -> bytes | None:
    try:
        return base64.b64decode(value + "=" * (-len(value) % 4), validate=True)
    except (binascii.Error, ValueError):
        return None


def base64_private_key(value: str) -> bool:
    """Base64 of a PEM private key (kubeconfig ``client-key-data``, Helm values): its
    first line names a private key, where a certificate's names a certificate."""
    raw = _b64decode_std(value)
    return raw is not None and b"PRIVATE KEY" in raw.split(b"\n", 1)[0]


def sasl_plain(value: str) -> bool:
    """SASL PLAIN's response (RFC 4616): base64 of ``authzid NUL user NUL password``."""
    raw = _b64decode_std(value)
    if raw is None:
        return False
    parts = raw.split(b"\0")
    return len(parts) == 3 and all(parts[1:])


def mixed_case(value: str) -> bool:
    """Letters of both cases (Hugging Face tokens are mixed-case letters)."""
    return real(value) and any(c.isupper() for c in value) and any(c.islower() for c in value)


def _has_digits(value: str, count: int = 4) -> bool:
    return sum(ch.isdigit() for ch in value) >= count


def slack_token(value: str) -> bool:
    """Slack tokens carry numeric team and user ids; prose words with dashes do not."""
    return real(value) and _has_digits(value)


def aws_key_id(value: str) -> bool:
    """An AWS access key id that is not one of the documentation's ``...EXAMPLE`` ids."""
    return real(value) and not value.endswith("EXAMPLE")


def github_or_npm_token(value: str) -> bool:
    """A GitHub or npm token by its shape (the rule's prefix and length): one whose CRC32
    holds is certainly one; one whose CRC32 does not is one still, unless it is a
    placeholder (``ghp_xxxx...``, ``ghp_your_token...``), for a checksum is no secret's
    protection: a value stored with one character changed is recovered by trying them."""
    return github_token(value) or not (placeholder(value) or placeholder(value[4:]))


def _b64decode(segment: str) -> bytes | None:
    try:
        return base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4))
    except (binascii.Error, ValueError):
        return None


def jwt(value: str) -> bool:
    """A JWS (3 parts) or JWE (5 parts) whose header is a JSON object naming its algorithm."""
    if value in EXAMPLES:
        return False
    parts = value.split(".")
    if len(parts) not in (3, 5) or (len(parts) == 3 and not parts[1]):
        return False
    raw = _b64decode(parts[0])
    if raw is None:
        return False
    try:
        header = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        return False
    return isinstance(header, dict) and ("alg" in header or "enc" in header)


def discord_bot_token(value: str) -> bool:
    """A Discord bot token's first part is the bot's numeric id, base64-encoded."""
    raw = _b64decode(value.split(".", 1)[0])
    return raw is not None and raw.isdigit() and 17 <= len(raw) <= 20


_BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
_BECH32_GEN = (0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3)


def _bech32(value: str) -> bool:
    """BIP 173 checksum (bech32 or bech32m), as age encodes its keys."""
    text = value.lower()
    hrp, sep, data = text.rpartition("1")
    if not sep or not hrp or len(data) < 6 or any(ch not in _BECH32 for ch in data):
        return False
    check = 1
    values = [ord(c) >> 5 for c in hrp] + [0] + [ord(c) & 31 for c in hrp]
    for item in values + [_BECH32.index(ch) for ch in data]:
        top = check >> 25
        check = (check & 0x1FFFFFF) << 5 ^ item
        for i, gen in enumerate(_BECH32_GEN):
            if top >> i & 1:
                check ^= gen
    return check in (1, 0x2BC830A3)


def private_key(value: str) -> bool:
    """PEM, PuTTY and OpenSSH keys always count; an age identity counts by its shape, its
    bech32 checksum held or not (see :func:`github_or_npm_token`), unless its data part
    is a placeholder (``AGE-SECRET-KEY-1QQQQ...``)."""
    if value.startswith("AGE-SECRET-KEY-"):
        return _bech32(value) or not placeholder(value.rpartition("1")[2])
    return True
