"""Shared pieces of the secret rules: placeholders, value checks and pattern parts.

The rules in :mod:`vault._rules_tokens`, :mod:`vault._rules_secrets` and
:mod:`vault._rules_credentials` are data; what they have in common (which values
are placeholders rather than secrets, checksum validators, the rule factory,
pattern fragments) lives here.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections.abc import Callable

from .._rule import Rule
from . import _validators as v

# Documented example values: printed in vendor documentation, never live.
_EXAMPLES = frozenset(
    {
        "AKIAIOSFODNN7EXAMPLE",
        "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "sk_test_4eC39HqLyjWDarjtT1zdp7dc",
        "sk_test_BQokikJOvBiI2HlWgH4olfQ2",
        "rk_test_4eC39HqLyjWDarjtT1zdp7dc",
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6Ikpv"
        "aG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
    }
)

# Values that stand in for a secret rather than being one (compared lower-cased).
_DUMMIES = frozenset(
    {
        "password", "passwd", "pass", "pwd", "passphrase", "secret", "secrets", "token",
        "changeme", "change_me", "change-me", "changeit", "letmein?", "apikey", "api_key",
        "api-key", "key", "none", "null", "nil", "undefined", "true", "false", "yes", "no",
        "on", "off", "empty", "blank", "required", "optional", "string", "str", "bytes",
        "redacted", "hidden", "masked", "removed", "omitted", "example", "sample", "dummy",
        "placeholder", "test", "default", "unset", "todo", "tbd", "fixme", "secret_key",
        "access_token", "auth_token", "client_secret", "mypassword", "my_password",
        "yourpassword", "your_password", "your-password", "yoursecret", "your_secret",
        "yourtoken", "your_token", "your-token", "yourapikey", "your_api_key", "your-api-key",
        "user:password", "username:password", "user:pass",
    }
)  # fmt: skip

_DUMMY_PREFIXES = (
    "your", "my_", "my-", "<", "insert", "replace", "enter_", "enter-", "put_", "put-",
    "example", "sample", "dummy", "fake", "placeholder", "redacted", "xxxx",
)  # fmt: skip
_DUMMY_PARTS = (
    "...", "\u2026", "xxxx", "****", "example", "placeholder", "changeme", "not-a-real",
    "notareal", "redacted", "{{", "}}", "os.environ", "getenv", "process.env",
    "environ[", "env(", "env[", "env.", "secrets.", "vault(", "ssm:", "secretsmanager",
    "keyvault", "!ref", "!sub", "!vault", "lookup(", "var.", "input(", "getpass",
)  # fmt: skip

# printf-style placeholders in full (``%(password)s``, a bare ``%s``): generated keys
# contain ``%(`` and ``%s`` by chance, so those alone do not make a placeholder.
_DUMMY_PART = re.compile(
    "|".join(re.escape(part) for part in _DUMMY_PARTS) + r"|%\([a-z_][a-z0-9_]*\)[sdr]|^%[sdr]$"
)
_MASK = re.compile(r"[xX*#•._\-0]+")
# Code, not a value: an attribute path or a call, whose arguments are names and
# literals (``settings.DB_PASSWORD``, ``get_secret(name)``, ``env[KEY]``). A generated
# key can look like a call's start (``l9nusu(b5w...``) but goes on with symbols.
_ARGUMENTS = r"(?:[(\[][A-Za-z0-9_.,:\[\]() -]*[)\]])"
_DOTTED = re.compile(
    r"(?P<name>[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+)" + _ARGUMENTS + "?"
)
_CALL = re.compile(r"(?P<name>[A-Za-z_][A-Za-z0-9_.]*)" + _ARGUMENTS)
# One word of a name as people write them: lower, UPPER, or camelCase whose humps are
# words (``dbPassword``, ``getHTTPResponse``, ``userID``). A random literal with a dot
# (libpq's ``password=rK5VPziMACt5EvTJmZ.URJ``) has single letters between its humps.
_NAME_WORD = re.compile(
    r"[a-z][a-z0-9]*|[A-Z][A-Z0-9]*|[A-Z]*[a-z]+(?:[A-Z]+[a-z]{2,})*[A-Z]*[0-9]*"
)
_NAME_SEPARATORS = re.compile(r"[._]+")
_IDENTIFIER = re.compile(r"[a-z_]+|[A-Z_]+")
# A YAML anchor or alias (``&db_password``, ``*defaults``, ``*dbSettings``): a name, not a
# value. Its name is made of words (lower-case, or capitalised in camelCase) and numbers;
# a password may start with ``&`` or ``*`` too (``*XQiBV9sqb``), but mixes case at random.
# Generated keys that start so go on with symbols.
# A note in brackets after the word ("password (prod): ..."), not the password.
_ANNOTATION = re.compile(r"[(（][^\W\d_]+(?:[ .-][^\W\d_]+)*[)）][:：]?")
_YAML_REFERENCE = re.compile(
    r"[&*](?=[A-Za-z_][A-Za-z0-9_.-]{0,63}$)_*(?:[a-z][a-z0-9]*|[A-Z][a-z0-9]+)"
    # Each further word starts with a separator or a capital, so no text splits two ways.
    r"(?:[_.-]+(?:[a-z0-9]+|[A-Z][a-z0-9]+)|[A-Z][a-z0-9]+)*_*"
)
# A shell or Windows variable: "${DB_PASS}", "$(cat pw)", "$DB_PASS", "%APPDATA%\\key"; a
# generated key may start with "%w%(" too, so a Windows name must end the value or a path.
_SHELL_VAR = re.compile(r"\$(?:[{(]|[A-Za-z_][A-Za-z0-9_]*$)|%[A-Za-z_][A-Za-z0-9_]*%(?:$|[\\/])")


# A reference into a secret manager, which a deploy resolves: Bank-Vaults and vals
# (``vault:secret/data/app#key``, ``ref+vault://...``), 1Password (``op://vault/item/field``),
# Google (``sm://name``, ``projects/p/secrets/name/versions/3``), and their kin.
_SECRET_REFERENCE = re.compile(
    r"(?:ref\+)?(?:vault|op|sm|gcpsm|gcpsecrets|awssm|awssecrets|awsssm|ssm|azkv|akv"
    r"|azurekeyvault|doppler|infisical|bws|keeper|sops|k8s|kubernetes|secretsmanager)"
    r"(?:://[^\s]+|:[a-z0-9_.-]+[/#])"
    r"|projects/[a-z0-9_.-]+/secrets/[a-z0-9_.-]+"
)


# A token that a deploy step substitutes: ``@@DB_PASSWORD@@``, ``#{DbPassword}`` (Octopus,
# Azure DevOps' replace-tokens), ``__DB_PASSWORD__``.
_TEMPLATE_TOKEN = re.compile(r"@@[A-Za-z0-9_.-]+@@|#\{[A-Za-z0-9_. -]+\}#?|__[A-Za-z0-9_.-]+__")


def _placeholder(value: str) -> bool:
    """Templates, references, masks, dummies and documented examples."""
    if value in _EXAMPLES:
        return True
    low = value.lower()
    if low in _DUMMIES or len(set(low)) <= 2 or _MASK.fullmatch(value):
        return True
    if low.startswith(_DUMMY_PREFIXES) or _DUMMY_PART.search(low):
        return True
    if _SECRET_REFERENCE.match(low) or _TEMPLATE_TOKEN.fullmatch(value):
        return True
    return (
        bool(_SHELL_VAR.match(value))
        or value[0] in "{[|>"
        or bool(_YAML_REFERENCE.fullmatch(value))
        or bool(_ANNOTATION.fullmatch(value))
    )


def _real(value: str) -> bool:
    """Any provider token that is not a placeholder or documented example."""
    return not _placeholder(value)


def _literal(value: str) -> bool:
    """A quoted literal: anything but a placeholder, template or reference."""
    return not _placeholder(value.strip())


def _mixed(value: str) -> bool:
    """A literal that mixes letters with digits or symbols, as passwords do and words do not.

    Punctuation at the end does not count as the symbol: ``vergessen?`` is a question.
    """
    core = value.rstrip("?!.")
    return (
        _bare(value) and any(ch.isalpha() for ch in core) and any(not ch.isalpha() for ch in core)
    )


def _basic_credentials(value: str) -> bool:
    """Base64 that decodes to ``user:password``, as an HTTP Basic credential does: the
    decoding tells it from a word that happens to follow "basic" in prose."""
    raw = _b64decode_std(value)
    try:
        decoded = "" if raw is None else raw.decode()
    except UnicodeDecodeError:
        return False
    user, colon, password = decoded.partition(":")
    return bool(colon and user and password and decoded.isprintable())


def _bare(value: str) -> bool:
    """An unquoted value: a literal secret, not a variable, call or attribute path.

    In code ``password=password`` passes a variable; in ``.env`` ``PASSWORD=hunter2``
    is the secret. A value with a digit or a symbol, or a long mixed-case run, reads as
    a literal; a bare identifier or dotted path reads as code.
    """
    if _placeholder(value) or _code(value):
        return False
    if _IDENTIFIER.fullmatch(value):
        return False
    has_digit = any(ch.isdigit() for ch in value)
    has_symbol = any(not ch.isalnum() and ch != "_" for ch in value)
    mixed = any(ch.isupper() for ch in value[1:]) and any(ch.islower() for ch in value)
    return has_digit or has_symbol or (mixed and len(value) >= 8)


def _code(value: str) -> bool:
    """An attribute path or a call whose names read as names people write."""
    match = _DOTTED.fullmatch(value) or _CALL.fullmatch(value)
    if match is None:
        return False
    words = _NAME_SEPARATORS.split(match.group("name"))
    return all(_NAME_WORD.fullmatch(word) for word in words if word)


def _random(value: str) -> bool:
    """A machine-made key: letters and digits mixed, not hex only, not a dummy."""
    if _placeholder(value):
        return False
    has_digit = any(ch.isdigit() for ch in value)
    has_upper = any(ch.isupper() for ch in value)
    has_lower = any(ch.islower() for ch in value)
    return has_digit and has_upper and has_lower


def _mixed_not_url(value: str) -> bool:
    """:func:`_mixed`, but not a link or a path ('reset link: https://...')."""
    return "://" not in value and not value.startswith(("/", "www.")) and _mixed(value)


# Public halves that a note may hand over like a secret: OpenSSH public key blobs (base64
# of a length-prefixed algorithm name, hence ``AAAA``), age recipients, Nostr public keys,
# Stripe publishable keys.
_PUBLIC_KEY_PREFIXES = ("AAAA", "age1", "npub1", "pk_live_", "pk_test_", "ssh-", "ecdsa-")
# A file name with its extension, or a path: where a key is kept, not the key.
_FILE_NAME = re.compile(r"(?:[\w.-]+/)*[\w-]+(?:\.[\w-]+)*\.[A-Za-z][A-Za-z0-9]{0,4}")


def _opaque(value: str) -> bool:
    """:func:`_bare`, but not a link, path, file name or public key: a value named in
    prose as the secret itself (``the signing key is `X` ``)."""
    return (
        "://" not in value
        and not value.startswith(("/", "~", "./", "www.", *_PUBLIC_KEY_PREFIXES))
        and not _FILE_NAME.fullmatch(value)
        and _bare(value)
    )


# Ticket keys (``INC-20417``, ``OPS-1182``) and settings (``min-length=12``) that a note
# may quote after a word about credentials.
_TICKET_OR_SETTING = re.compile(r"[A-Z][A-Z0-9]{1,9}-[0-9]+|[A-Za-z][\w.-]*=[\w.-]+")


def _password_like(value: str) -> bool:
    """:func:`_opaque` with letters and a digit or a symbol other than a word separator:
    ``maple-ember-velvet84`` reads as a password, ``vault-prod`` as a name."""
    return (
        not _TICKET_OR_SETTING.fullmatch(value)
        and _opaque(value)
        and any(ch.isalpha() for ch in value)
        and any(ch.isdigit() or not (ch.isalnum() or ch in "-_.") for ch in value)
    )


def _base64_data(value: str) -> bool:
    """A base64 value in a manifest's data, not a number beside it (``resourceVersion``,
    ``generation``): base64 of random bytes is all digits with vanishing odds."""
    return not value.isdigit() and _literal(value)


def _b64decode_std(value: str) -> bytes | None:
    try:
        return base64.b64decode(value + "=" * (-len(value) % 4), validate=True)
    except (binascii.Error, ValueError):
        return None


def _base64_private_key(value: str) -> bool:
    """Base64 of a PEM private key (kubeconfig ``client-key-data``, Helm values): its
    first line names a private key, where a certificate's names a certificate."""
    raw = _b64decode_std(value)
    return raw is not None and b"PRIVATE KEY" in raw.split(b"\n", 1)[0]


def _sasl_plain(value: str) -> bool:
    """SASL PLAIN's response (RFC 4616): base64 of ``authzid NUL user NUL password``."""
    raw = _b64decode_std(value)
    if raw is None:
        return False
    parts = raw.split(b"\0")
    return len(parts) == 3 and all(parts[1:])


def _mixed_case(value: str) -> bool:
    """Letters of both cases (Hugging Face tokens are mixed-case letters)."""
    return _real(value) and any(c.isupper() for c in value) and any(c.islower() for c in value)


def _has_digits(value: str, count: int = 4) -> bool:
    return sum(ch.isdigit() for ch in value) >= count


def _slack(value: str) -> bool:
    """Slack tokens carry numeric team and user ids; prose words with dashes do not."""
    return _real(value) and _has_digits(value)


def _aws_key_id(value: str) -> bool:
    return _real(value) and not value.endswith("EXAMPLE")


def _github(value: str) -> bool:
    """GitHub and npm tokens end in a base62 CRC32 of their random part."""
    return v.github_token(value) and _real(value)


def _b64decode(segment: str) -> bytes | None:
    try:
        return base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4))
    except (binascii.Error, ValueError):
        return None


def _jwt(value: str) -> bool:
    """A JWS (3 parts) or JWE (5 parts) whose header is a JSON object naming its algorithm."""
    if value in _EXAMPLES:
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


def _discord(value: str) -> bool:
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


def _private_key(value: str) -> bool:
    """age identities must carry a valid checksum; PEM, PuTTY and OpenSSH keys always count."""
    if value.startswith("AGE-SECRET-KEY-"):
        return _bech32(value)
    return True


def _token(
    name: str,
    pattern: str,
    keywords: str,
    description: str,
    *,
    kind: str = "api_key",
    validator: Callable[[str], bool] = _real,
    priority: int = 40,
    min_entropy: float = 3.0,
    context: str = "",
    window: int = 48,
    cue: str = "",
) -> Rule:
    """A provider token: specific, so it outranks the generic assignment rules.

    ``keywords`` and ``context`` are ``|``-separated strings, so long lists stay short.
    """
    return Rule(
        name=name,
        kind=kind,
        category="secret",
        pattern=pattern,
        keywords=tuple(keywords.split("|")) if keywords else (),
        validator=validator,
        context=tuple(context.split("|")) if context else (),
        window=window,
        min_entropy=min_entropy,
        priority=priority,
        cue=cue,
        description=description,
    )


# Characters after which a token may start, and after which it must have ended.
_END = r"(?:[^A-Za-z0-9_-]|$)"
_ASSIGN = r"(?:[\"']\]?)?[ \t]*(?:=|:=|=>|:)[ \t]*[\"']?"

_PEM = r"-{4,5} ?BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)? ?-{4,5}"
_PEM_END = r"-{4,5} ?END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)? ?-{4,5}"

_PW_NAMES = (
    r"(?:[a-z0-9_.-]*(?:password|passwd|passwort|passphrase|pwd|pswd)"
    r"|(?:[a-z0-9]+[_.-])*(?:pass|passcode))"
)
# The same key in other languages' configs (contrasena_bd = "...", kennwort = "..."), for
# quoted values only: unquoted, "contraseña: X" is prose, which the prose rules read.
_PW_NAMES_FOREIGN = (
    r"(?:[a-z0-9_.-]*(?:contrase(?:n|ñ)a|kennwort|wachtwoord|senha|has(?:l|ł)o|l(?:ö|o)senord"
    r"|salasana|mot_?de_?passe)(?:_[a-z]{2,5})?)"
)
_CREDENTIAL_NAMES = (
    r"(?:[a-z0-9]+[_.-])*(?:"
    r"[a-z0-9]*secret(?:[_. -]?(?:key|token|access[_.-]?key))?"
    r"|[a-z0-9]*api[_. -]?(?:key|token|secret)"
    r"|[a-z0-9]*(?:access|auth|private|signing|encryption|master|consumer|license|service|account"
    r"|admin|app|client|deploy|webhook|write|session|subscription|ingest|fernet|hmac|jwt"
    r"|cookie|django|flask|rails|laravel|app[_.-]?encryption)[_. -]?key"
    r"|(?:access|auth|refresh|bearer|session|bot|oauth|personal[_.-]?access|private|security"
    r"|client|deploy|registration|runner|webhook|service|admin|app|user|master|csrf|xsrf"
    r"|github|gitlab|slack|npm|vault|discord|telegram)?[_. -]?token"
    r"|credentials?)"
)
# A bare value: no spaces or quotes; ``;`` ends it (connection strings); a single
# trailing comma, colon or full stop belongs to the sentence (``sk-ant-...`` is an
# elided placeholder, not ``sk-ant-`` and a full stop). Brackets and ``&`` stay in:
# generated keys contain them (``SECRET_KEY=q)ti3l&oqa14&1v3gvwi=$u5k``).
_BARE = (
    r"(?P<value>[^\s\"'`;<]*[^\s\"'`;<,.:])"
    r"(?:[\s\"'`;<]|[,.:](?:[\s\"'`)\]}]|$)|$)"
)
# The same inside a query string (``?password=...&sslmode=require``): there ``&``
# followed by a parameter (``&name=``) ends the value, but an ``&`` the value
# itself contains does not.
_BARE_QUERY = (
    r"(?P<value>[^\s\"'`;&<]*[^\s\"'`;&<,.:](?:&+(?:[A-Za-z0-9_.-]*[^\s\"'`;&<=A-Za-z0-9_.-]"
    r"[^\s\"'`;&<]*|[A-Za-z0-9_.-]*))*)"
    r"(?:[\s\"'`;<]|[,.:](?:[\s\"'`)\]}]|$)|&+[A-Za-z0-9_.-]+=|$)"
)
_QUOTED = r"[rbuf]?[\"'](?P<value>[^\"'\r\n]{1,200})[\"']"

_PROSE_WORD = (
    r"(?:\b(?:passwords?|passwort|kennwort|mot de passe|contrase[ñn]a|senha|palavra-passe"
    r"|wachtwoord|has[lł]o|parola|l[öo]senord|adgangskode|passord|salasana|heslo|jelsz[óo]"
    r"|sifre|passcode|passphrase|m[aậ]t kh[aẩ]u)"
    # no \b before a word that starts with a non-ASCII letter: RE2's \b is ASCII only
    r"|şifre|كلمة (?:المرور|السر)|пароль|密码|密碼|口令|パスワード|비밀번호|암호|पासवर्ड)"
)
# A qualifier in brackets after the word: "password (prod):", "senha (produção):".
_PROSE_QUALIFIER = r"(?:[ \t]*[(（][^()（）\r\n]{1,30}[)）])?"
# A few words between the word and a colon on the same line: "client secret today, new
# one: X", "nueva contraseña tras la rotación: X". Only for the stricter gap rules.
_PROSE_GAP = r"[ \t,]+(?:[^\s:：=]{1,20}[ \t,]+){0,4}[^\s:：=]{1,20}[ \t]*[:：][ \t]+"
_PROSE_LINK = (
    _PROSE_QUALIFIER
    + r"(?:[ \t]+(?:for|to|of|on|für|pour|para|per|voor|de|du|del|da|do|dla|для|от)"
    r"[ \t]+[^\s:：=]{1,40}(?:[ \t]+[^\s:：=]{1,40})?)?"
    r"(?:[ \t]*[:：=][ \t]*|[ \t]*[-–—][ \t]+|[^\r\n:：=]{0,40}[:：][ \t]*\r?\n[ \t]*"
    r"|[ \t]+(?:is|was|is now|ist|lautet|est|es|é|è|jest|är|er|on|это)(?:[ \t]*:)?[ \t]+"
    r"|[ \t]*(?:是|为|為|は|는|은)[ \t]*[:：]?[ \t]*)"
)
