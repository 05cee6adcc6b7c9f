"""Detection rules for secrets: provider tokens, keys, credentials.

Each rule is data (see :mod:`vault._rules`). Provider tokens are matched by
their documented prefixes and shapes, with their checksums where the format has
one; generic credentials only where a keyword or an assignment says so.

Every pattern either starts with a distinctive literal (``ghp_``, ``AKIA``,
``-----BEGIN``) or names its keywords, so a note without secrets costs one
pass of the combined RE2 set and nothing more.

Decisions on debatable values:

* Stripe test keys (``sk_test_``, ``rk_test_``) are redacted: they read and
  write the account's test-mode data. Publishable keys (``pk_``) are public by
  design and kept.
* Twilio API key SIDs (``SK`` + 32 hex) are redacted, as GitHub's secret
  scanning does: half of a credential pair. Account SIDs (``AC`` + 32 hex)
  are identifiers that appear in every Twilio URL and are kept.
* Placeholders are kept: templates (``${DB_PASSWORD}``, ``<token>``,
  ``{{ secret }}``), code references (``os.environ["X"]``, ``args.password``),
  masked or elided values (``********``, ``sk-...xxxx``), well-known dummy
  words (``changeme``, ``password``, ``your_api_key``) and the example keys
  that vendors print in their documentation. None of them is a secret, and a
  marker in their place would hide what a note is about.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections.abc import Callable

from . import _validators as v
from ._rules import Rule

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
    "notareal", "redacted", "{{", "}}", "%(", "%s", "os.environ", "getenv", "process.env",
    "environ[", "env(", "env[", "env.", "secrets.", "vault(", "ssm:", "secretsmanager",
    "keyvault", "!ref", "!sub", "!vault", "lookup(", "var.", "input(", "getpass",
)  # fmt: skip

_DUMMY_PART = re.compile("|".join(re.escape(part) for part in _DUMMY_PARTS))
_MASK = re.compile(r"[xX*#•._\-0]+")
_DOTTED = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+(?:[(\[].*)?")
_CALL = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*[(\[].*")
_IDENTIFIER = re.compile(r"[a-z_]+|[A-Z_]+")
_SHELL_VAR = re.compile(r"\$(?:[{(]|[A-Za-z_][A-Za-z0-9_]*$)|%[A-Za-z_][A-Za-z0-9_]*%")


def _placeholder(value: str) -> bool:
    """Templates, references, masks, dummies and documented examples."""
    if value in _EXAMPLES:
        return True
    low = value.lower()
    if low in _DUMMIES or len(set(low)) <= 2 or _MASK.fullmatch(value):
        return True
    if low.startswith(_DUMMY_PREFIXES) or _DUMMY_PART.search(low):
        return True
    return bool(_SHELL_VAR.match(value)) or value[0] in "{[&*|>"


def _real(value: str) -> bool:
    """Any provider token that is not a placeholder or documented example."""
    return not _placeholder(value)


def _literal(value: str) -> bool:
    """A quoted literal: anything but a placeholder, template or reference."""
    return not _placeholder(value.strip())


def _mixed(value: str) -> bool:
    """A literal that mixes letters with digits or symbols, as passwords do and words do not."""
    return (
        _bare(value) and any(ch.isalpha() for ch in value) and any(not ch.isalpha() for ch in value)
    )


def _bare(value: str) -> bool:
    """An unquoted value: a literal secret, not a variable, call or attribute path.

    In code ``password=password`` passes a variable; in ``.env`` ``PASSWORD=hunter2``
    is the secret. A value with a digit or a symbol, or a long mixed-case run, reads as
    a literal; a bare identifier or dotted path reads as code.
    """
    if _placeholder(value) or _DOTTED.fullmatch(value) or _CALL.fullmatch(value):
        return False
    if _IDENTIFIER.fullmatch(value):
        return False
    has_digit = any(ch.isdigit() for ch in value)
    has_symbol = any(not ch.isalnum() and ch != "_" for ch in value)
    mixed = any(ch.isupper() for ch in value[1:]) and any(ch.islower() for ch in value)
    return has_digit or has_symbol or (mixed and len(value) >= 8)


def _random(value: str) -> bool:
    """A machine-made key: letters and digits mixed, not hex only, not a dummy."""
    if _placeholder(value):
        return False
    has_digit = any(ch.isdigit() for ch in value)
    has_upper = any(ch.isupper() for ch in value)
    has_lower = any(ch.islower() for ch in value)
    return has_digit and has_upper and has_lower


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
_CREDENTIAL_NAMES = (
    r"(?:[a-z0-9]+[_.-])*(?:"
    r"[a-z0-9]*secret(?:[_. -]?(?:key|token|access[_.-]?key))?"
    r"|[a-z0-9]*api[_. -]?(?:key|token|secret)"
    r"|(?:access|auth|private|signing|encryption|master|consumer|license|service|account"
    r"|admin|app|client|deploy|webhook|write|session|subscription|ingest|fernet|hmac|jwt"
    r"|cookie|django|flask|rails|laravel|app[_.-]?encryption)[_. -]?key"
    r"|(?:access|auth|refresh|bearer|session|bot|oauth|personal[_.-]?access|private|security"
    r"|client|deploy|registration|runner|webhook|service|admin|app|user|master|csrf|xsrf"
    r"|github|gitlab|slack|npm|vault|discord|telegram)?[_. -]?token"
    r"|credentials?)"
)
# A bare value: no spaces or quotes; ``;`` ends it (connection strings), and so does
# ``&`` where a query parameter (``&name=``) follows, but not where the password
# itself contains one; a single trailing comma, colon or full stop belongs to the
# sentence (``sk-ant-...`` is an elided placeholder, not ``sk-ant-`` and a full stop).
# Brackets stay in: generated keys contain them.
_BARE = (
    r"(?P<value>[^\s\"'`;&<]*[^\s\"'`;&<,.:](?:&+(?:[A-Za-z0-9_.-]*[^\s\"'`;&<=A-Za-z0-9_.-]"
    r"[^\s\"'`;&<]*|[A-Za-z0-9_.-]*))*)"
    r"(?:[\s\"'`;<]|[,.:](?:[\s\"'`)\]}]|$)|&+[A-Za-z0-9_.-]+=|$)"
)
_QUOTED = r"[rbuf]?[\"'](?P<value>[^\"'\r\n]{1,200})[\"']"

_PROSE_WORD = (
    r"(?:\b(?:passwords?|passwort|kennwort|mot de passe|contrase[ñn]a|senha|palavra-passe"
    r"|wachtwoord|has[lł]o|parola|l[öo]senord|adgangskode|passord|salasana|heslo|jelsz[óo]"
    r"|[şs]ifre|passcode|passphrase)|пароль|密码|密碼|口令|パスワード|비밀번호|암호|पासवर्ड)"
)
_PROSE_LINK = (
    r"(?:[ \t]+(?:for|to|of|on|für|pour|para|per|voor|de|du|del|da|do|dla|для|от)"
    r"[ \t]+[^\s:：=]{1,40}(?:[ \t]+[^\s:：=]{1,40})?)?"
    r"(?:[ \t]*[:：=][ \t]*|[ \t]*[-–—][ \t]+|[^\r\n:：=]{0,40}[:：][ \t]*\r?\n[ \t]*"
    r"|[ \t]+(?:is|was|is now|ist|lautet|est|es|é|è|jest|är|er|on|это)(?:[ \t]*:)?[ \t]+"
    r"|[ \t]*(?:是|为|為|は|는|은)[ \t]*[:：]?[ \t]*)"
)

RULES: tuple[Rule, ...] = (
    # --- Private keys: blocked by the default policy, so every format shares one rule.
    _token(
        "private_key",
        r"(?:" + _PEM + r"(?:[\s\S]*?" + _PEM_END + r"|(?:\s|\\[rn])+(?:[A-Za-z-]+: ?[^\r\n]*"
        r"(?:\r?\n|\\n))*(?:\s|\\[rn])*[A-Za-z0-9+/=]{40}(?:[A-Za-z0-9+/=\r\n]|\\[rn])*)"
        r"|PuTTY-User-Key-File-\d+: [^\r\n]*[\s\S]*?Private-MAC: [0-9a-fA-F]+"
        r"|AGE-SECRET-KEY-(?:PQ-)?1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]*)",
        "private key|putty-user-key-file|age-secret-key-",
        "PEM (PKCS#1, PKCS#8, encrypted, EC, DSA, PGP), OpenSSH, SSH2 and PuTTY private "
        "keys, multi-line or JSON-escaped (service-account files), cut-off keys, and age "
        "secret keys (bech32 checksum)",
        kind="private_key",
        validator=_private_key,
        priority=60,
        min_entropy=0.0,
    ),
    # --- Source hosting and package registries.
    _token(
        "github_token",
        r"\b(?P<value>gh[pousr]_[A-Za-z0-9]{36})\b",
        "ghp_|gho_|ghu_|ghs_|ghr_",
        "GitHub classic, OAuth, user-to-server, app installation and refresh tokens (CRC32)",
        validator=_github,
    ),
    _token(
        "github_fine_grained_token",
        r"\b(?P<value>github_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59})\b",
        "github_pat_",
        "GitHub fine-grained personal access tokens",
    ),
    _token(
        "gitlab_token",
        r"\b(?P<value>(?:gl(?:pat|dt|rt|ft|soat|ffct|imt|agent|oas|cbt|wt)-"
        r"|GR1348941)[0-9A-Za-z_-]{20,300}(?:\.[0-9a-z]{2}(?:\.[0-9a-z]{9}|[0-9a-z]{7}))?|glptt-[0-9a-f]{40})"
        + _END,
        (
            "glpat-|gldt-|glrt-|glft-|glsoat-|glffct-|glimt-|glagent-|gloas-|glcbt-|glwt-|"
            "glptt-|gr1348941"
        ),
        "GitLab personal, deploy, runner, feed, trigger, agent, OAuth and CI tokens, "
        "legacy and routable",
    ),
    _token(
        "npm_token",
        r"\b(?P<value>npm_[A-Za-z0-9]{36})\b",
        "npm_",
        "npm access tokens (CRC32, GitHub's format)",
        validator=_github,
    ),
    _token(
        "pypi_token",
        r"\b(?P<value>pypi-(?:AgEIcHlwaS5vcmc|AgENdGVzdC5weXBpLm9yZw)[A-Za-z0-9_-]{50}"
        r"[A-Za-z0-9_-]*)",
        "pypi-",
        "PyPI and TestPyPI API tokens (macaroons for pypi.org)",
    ),
    _token(
        "rubygems_token",
        r"\b(?P<value>rubygems_[a-f0-9]{48})\b",
        "rubygems_",
        "RubyGems API keys",
    ),
    _token(
        "dockerhub_token",
        r"\b(?P<value>dckr_(?:pat|oat)_[A-Za-z0-9_-]{27,64})" + _END,
        "dckr_",
        "Docker Hub personal and organization access tokens",
    ),
    _token(
        "huggingface_token",
        r"\b(?P<value>(?:hf_|api_org_)[A-Za-z0-9]{34})\b",
        "hf_|api_org_",
        "Hugging Face user and organization tokens",
        validator=_mixed_case,
    ),
    # --- Chat and messaging.
    _token(
        "slack_token",
        r"\b(?P<value>xox(?:[abeoprs]|e\.xox[bp])-[0-9A-Za-z-]{10,250}"
        r"|xapp-\d-[A-Z0-9]+-\d+-[a-z0-9]+)",
        "xox|xapp-",
        "Slack bot, user, app, configuration, refresh and legacy tokens",
        validator=_slack,
    ),
    _token(
        "slack_webhook",
        r"https://hooks\.slack\.com/(?:services|workflows|triggers)/"
        r"(?P<value>T[A-Z0-9]{6,12}/[A-Za-z0-9/_-]{20,200})",
        "hooks.slack.com",
        "Slack incoming-webhook and workflow URLs (the path is the credential)",
    ),
    _token(
        "discord_bot_token",
        r"\b(?P<value>[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}"
        r"\.[A-Za-z0-9_-]{27,40})(?:[^A-Za-z0-9_.-]|$)",
        "",
        "Discord bot tokens (first part is the bot id in base64)",
        validator=_discord,
    ),
    _token(
        "discord_webhook",
        r"(?i)https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/(?:v\d+/)?webhooks/"
        r"\d{17,20}/(?P<value>[A-Za-z0-9_-]{60,70})",
        "discord",
        "Discord webhook URLs (the last segment is the credential)",
    ),
    _token(
        "telegram_bot_token",
        r"(?:^|[^0-9])(?P<value>[0-9]{8,10}:A[0-9A-Za-z_-]{34})",
        "",
        "Telegram bot tokens",
        min_entropy=3.5,
    ),
    _token(
        "twilio_api_key",
        r"\b(?P<value>SK[0-9a-fA-F]{32})\b",
        "",
        "Twilio API key SIDs (account SIDs, AC..., are identifiers and kept)",
        validator=lambda value: _real(value) and any(c.isalpha() for c in value[2:]),
    ),
    _token(
        "sendgrid_key",
        r"\b(?P<value>SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43})" + _END,
        "sg.",
        "SendGrid API keys",
    ),
    _token(
        "mailgun_key",
        r"\b(?P<value>key-[0-9a-f]{32}|[0-9a-f]{32}-[0-9a-f]{8}-[0-9a-f]{8})\b",
        "mailgun",
        "Mailgun private API and signing keys, next to the word mailgun",
        context="mailgun",
        window=120,
    ),
    # --- AI providers.
    _token(
        "anthropic_key",
        r"\b(?P<value>sk-ant-(?:api|admin|oat|ort|sid)\d{2}-[A-Za-z0-9_-]{32,200})",
        "sk-ant-",
        "Anthropic API, admin and OAuth keys",
        min_entropy=3.5,
    ),
    _token(
        "openai_key",
        r"\b(?P<value>sk-(?:(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{40,250}"
        r"|[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}))" + _END,
        "sk-",
        "OpenAI project, service-account, admin and legacy keys (T3BlbkFJ marker)",
        min_entropy=3.5,
    ),
    _token(
        "ai_provider_key",
        r"\b(?P<value>sk-or-v1-[a-f0-9]{64}|gsk_[A-Za-z0-9]{52}|pplx-[A-Za-z0-9]{48}"
        r"|xai-[A-Za-z0-9]{80}|r8_[A-Za-z0-9]{37}|lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10})\b",
        "sk-or-|gsk_|pplx-|xai-|r8_|lsv2_",
        "OpenRouter, Groq, Perplexity, xAI, Replicate and LangSmith keys",
    ),
    # --- Cloud providers.
    _token(
        "aws_access_key_id",
        r"\b(?P<value>(?:AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16})\b",
        "",
        "AWS access key ids",
        validator=_aws_key_id,
        min_entropy=0.0,
    ),
    _token(
        "aws_secret_access_key",
        r"(?i)(?:secret[_ .-]?access[_ .-]?key|aws[_ .-]?secret[_ .-]?(?:access[_ .-]?)?key"
        r"|aws[_ .-]?secret)" + _ASSIGN + r"(?P<value>[A-Za-z0-9/+]{40})(?:[^A-Za-z0-9/+=]|$)",
        "secret",
        "AWS secret access keys after their name (env, credentials file, JSON)",
        validator=_real,
        min_entropy=4.0,
    ),
    _token(
        "aws_secret_near_key_id",
        r"(?:^|[^A-Za-z0-9/+=])(?P<value>[A-Za-z0-9/+]{40})(?:[^A-Za-z0-9/+=]|$)",
        "akia",
        "40-character AWS secret keys shortly after an access key id",
        validator=_random,
        min_entropy=4.2,
        context="akia|secret access key",
        window=160,
        priority=35,
    ),
    _token(
        "aws_session_token",
        r"(?P<value>(?:IQoJb3JpZ2lu|FwoGZXIvYXdz|FQoGZXIvYXdz)[A-Za-z0-9/+=]{100}"
        r"[A-Za-z0-9/+=]*)",
        "iqojb3jpz2lu|fwogzxivyxdz|fqogzxivyxdz",
        "AWS STS session tokens, by their encoded header",
        priority=41,
    ),
    _token(
        "aws_session_token_assignment",
        r"(?i)(?:aws[_-]?session[_-]?token|aws[_-]?security[_-]?token|sessiontoken"
        r"|x-amz-security-token)" + _ASSIGN + r"(?P<value>[A-Za-z0-9/+=%]{100}[A-Za-z0-9/+=%]*)",
        "token",
        "AWS session tokens after their name",
    ),
    _token(
        "google_api_key",
        r"\b(?P<value>AIza[0-9A-Za-z_-]{35})" + _END,
        "aiza",
        "Google API keys",
    ),
    _token(
        "google_oauth_secret",
        r"\b(?P<value>GOCSPX-[A-Za-z0-9_-]{28}|ya29\.[0-9A-Za-z_-]{30}[0-9A-Za-z_-]*)" + _END,
        "gocspx-|ya29.",
        "Google OAuth client secrets and access tokens",
    ),
    _token(
        "azure_storage_key",
        r"(?i)(?:AccountKey|SharedAccessKey|PrimaryKey|SecondaryKey)[ \t]*=[ \t]*"
        r"(?P<value>[A-Za-z0-9+/]{40,100}={0,2})",
        "accountkey|sharedaccesskey|primarykey|secondarykey",
        "Azure storage, Service Bus, Event Hubs and IoT Hub keys in connection strings",
    ),
    _token(
        "azure_client_secret",
        r"(?:^|[^A-Za-z0-9_~.-])(?P<value>[A-Za-z0-9_~.-]{3}\dQ~[A-Za-z0-9_~.-]{31,34})",
        "q~",
        "Azure AD (Entra) application client secrets",
    ),
    _token(
        "azure_sas_signature",
        r"(?i)[?&;]sig=(?P<value>(?:[A-Za-z0-9+/]|%2[BF]){43}(?:%3D|=))",
        "sig=",
        "Azure shared access signatures (the HMAC in sig=)",
    ),
    _token(
        "digitalocean_token",
        r"\b(?P<value>do[opr]_v1_[0-9a-f]{64})\b",
        "dop_v1_|doo_v1_|dor_v1_",
        "DigitalOcean personal, OAuth and refresh tokens",
    ),
    _token(
        "cloudflare_token",
        r"\b(?P<value>cf(?:k|ut|at)_[A-Za-z0-9]{40,50})\b",
        "cfk_|cfut_|cfat_",
        "Cloudflare API keys and tokens (scannable format)",
    ),
    _token(
        "cloudflare_key_assignment",
        r"(?i)\b(?:cloudflare|cf)[_ -]?(?:api[_ -]?|global[_ -]?api[_ -]?|auth[_ -]?)?"
        r"(?:token|key)" + _ASSIGN + r"(?P<value>[A-Za-z0-9_-]{40}|[0-9a-f]{37})" + _END,
        "cloudflare|cf_|cf-|cf ",
        "legacy Cloudflare API tokens and global keys after their name",
    ),
    _token(
        "heroku_api_key",
        r"\b(?P<value>HRKU-AA[0-9A-Za-z_-]{58})" + _END,
        "hrku-",
        "Heroku API keys (HRKU- format)",
    ),
    _token(
        "heroku_api_key_assignment",
        r"(?i)heroku[_ -]?(?:api[_ -]?|oauth[_ -]?)?(?:key|token|auth[_ -]?token|password|secret)"
        + _ASSIGN
        + r"(?P<value>[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\b",
        "heroku",
        "legacy Heroku API keys (UUID-shaped) after their name",
        min_entropy=0.0,
    ),
    _token(
        "databricks_token",
        r"\b(?P<value>dapi[0-9a-f]{32}(?:-\d)?)\b",
        "dapi",
        "Databricks personal access tokens",
    ),
    _token(
        "datadog_key",
        r"(?i)\b(?:dd|datadog)[_ -]?(?:api|app(?:lication)?)[_ -]?key"
        + _ASSIGN
        + r"(?P<value>[0-9a-f]{40}|[0-9a-f]{32})\b",
        "dd_|dd-|datadog",
        "Datadog API and application keys after their name",
    ),
    _token(
        "hashicorp_vault_token",
        r"\b(?P<value>hv[sbr]\.[A-Za-z0-9_-]{24,400})" + _END,
        "hvs.|hvb.|hvr.",
        "HashiCorp Vault service, batch and recovery tokens",
        min_entropy=3.5,
    ),
    _token(
        "terraform_cloud_token",
        r"\b(?P<value>[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,70})" + _END,
        "atlasv1",
        "Terraform Cloud / Enterprise API tokens",
    ),
    _token(
        "saas_token",
        r"\b(?P<value>ATATT3[A-Za-z0-9_=-]{150,250}|ATCTT3[A-Za-z0-9_=-]{150,250}"
        r"|lin_(?:api|oauth)_[A-Za-z0-9]{40,64}|PMAK-[a-f0-9]{24}-[a-f0-9]{34}"
        r"|glc_[A-Za-z0-9+/]{32,400}={0,2}|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}"
        r"|shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}|sntrys_[A-Za-z0-9+/=_-]{80,400}"
        r"|sntryu_[a-f0-9]{64}|dp\.(?:pt|st|ct|sa|scim|audit)\.[A-Za-z0-9]{40,44}"
        r"|pul-[a-f0-9]{40}|sbp_[a-f0-9]{40}|ntn_[A-Za-z0-9]{46}|figd_[A-Za-z0-9_-]{40}"
        r"|nfp_[A-Za-z0-9]{36}|pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_.-]{32,64}"
        r"|NRAK-[A-Z0-9]{27}|dt0c01\.[A-Z0-9]{24}\.[A-Z0-9]{64}|CFPAT-[A-Za-z0-9_-]{43}"
        r"|tskey-(?:api|auth|client|webhook)-[A-Za-z0-9]{8,}-[A-Za-z0-9]{16,}"
        r"|bkua_[a-f0-9]{40}|sgp_[A-Za-z0-9_]{40,80}|EAAA[A-Za-z0-9_-]{60}"
        r"|sq0(?:atp|csp)-[A-Za-z0-9_-]{22,43}|whsec_[A-Za-z0-9+/=]{32,})" + _END,
        (
            "atatt3|atctt3|lin_api_|lin_oauth_|pmak-|glc_|glsa_|shpat_|shpca_|shppa_|shpss_|"
            "sntrys_|sntryu_|dp.|pul-|sbp_|ntn_|figd_|nfp_|pscale_|nrak-|dt0c01.|cfpat-|"
            "tskey-|bkua_|sgp_|eaaa|sq0|whsec_"
        ),
        "Atlassian, Linear, Postman, Grafana, Shopify, Sentry, Doppler, Pulumi, Supabase, "
        "Notion, Figma, Netlify, PlanetScale, New Relic, Dynatrace, Contentful, Tailscale, "
        "Buildkite, Sourcegraph, Square and webhook-signing secrets",
    ),
    _token(
        "stripe_key",
        r"\b(?P<value>(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{20,247})\b",
        "sk_live_|sk_test_|rk_live_|rk_test_",
        "Stripe secret and restricted keys, live and test (publishable pk_ keys are kept)",
    ),
    _token(
        "sentry_dsn",
        r"(?i)https?://(?P<value>[0-9a-f]{32}(?::[0-9a-f]{32})?)@[a-z0-9.-]+(?::\d+)?"
        r"/(?:[a-z0-9_-]+/)*\d+\b",
        "sentry|dsn",
        "Sentry DSN keys (and the secret of legacy DSNs)",
        min_entropy=0.0,
    ),
    # --- Tokens by shape.
    _token(
        "jwt",
        r"\b(?P<value>e[wy][A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]*){0,2}"
        r"\.[A-Za-z0-9_-]{16,})",
        "ey|ew",
        "JSON Web Tokens, signed (JWS) or encrypted (JWE); header checked as JSON",
        kind="jwt",
        validator=_jwt,
        priority=35,
        min_entropy=0.0,
    ),
    # --- Credentials in URLs, connection strings and command lines.
    _token(
        "url_credentials",
        r"(?i)\b(?:postgres(?:ql)?|mysqlx?|mariadb|mongodb|redis|rediss|amqps?|ftps?|sftp|smtps?"
        r"|imaps?|pop3s?|ldaps?|mssql|sqlserver|oracle|cockroachdb|clickhouse|nats|kafka"
        r"|couchdb|neo4j|bolt|https?|git|svn|wss?|sqlite|snowflake|db2)(?:\+[a-z0-9]+)*://"
        r"[^\s:/@\"'<>]*:(?P<value>[^\s/?#\"'<>]+)@[^\s/@\"'<>]",
        "://",
        "passwords in scheme://user:password@host URLs (databases, queues, mail, http)",
        kind="credential",
        priority=30,
        min_entropy=0.0,
    ),
    _token(
        "jdbc_password",
        r"(?i)\bjdbc:(?:oracle:(?:thin|oci):[^/\s@:\"']+/|[^\s\"']*?[;?&](?:password|pwd)=)"
        r"(?P<value>[^;&@\s\"']+)",
        "jdbc:",
        "passwords in JDBC URLs (password= parameters, Oracle user/password@)",
        kind="credential",
        priority=30,
        min_entropy=0.0,
    ),
    _token(
        "cli_password",
        r"(?i)\b(?:(?:mysql|mysqldump|mysqladmin|mariadb)\b[^\r\n]*?[ \t]-p"
        r"|sshpass[ \t]+-p[ \t]*|(?:docker|podman|helm|oras)[ \t]+(?:[a-z]+[ \t]+)?login\b"
        r"[^\r\n]*?[ \t](?:-p|--password)[ \t=]+"
        r"|(?:curl|wget|http)\b[^\r\n]*?[ \t](?:-u|--user)[ \t=]+[\"']?[^\s:\"']+:)"
        r"[\"']?(?P<value>[^\s\"']{3,})",
        "mysql|mariadb|sshpass|login|curl|wget|http",
        "passwords on command lines (mysql -p, sshpass, docker login -p, curl -u)",
        kind="password",
        validator=_bare,
        priority=20,
        min_entropy=0.0,
    ),
    _token(
        "netrc_password",
        r"(?i)\bmachine[ \t]+\S+[ \t]+(?:login[ \t]+\S+[ \t]+)?password[ \t]+(?P<value>\S+)",
        "machine",
        ".netrc passwords",
        kind="password",
        validator=_literal,
        priority=20,
        min_entropy=0.0,
    ),
    # --- HTTP.
    _token(
        "auth_header",
        r"(?i)(?:\b(?:proxy-)?authorization[\"']?[ \t]*[:=,][ \t]*[\"']?"
        r"(?:(?:basic|bearer|token|apikey|api-key|sso-key|dpop|jwt|key|negotiate|ntlm"
        r"|sharedkey|gosu)[ \t]+)?"
        r"|\bbearer[ \t]+"
        r"|\b(?:x-(?:[a-z]+-)*(?:api-?key|auth-token|access-token|token|secret|auth-key|key)"
        r"|api-key|private-token|x-vault-token|x-goog-api-key|ocp-apim-subscription-key)"
        r"[\"']?[ \t]*[:,][ \t]*[\"']?)"
        r"(?P<value>[A-Za-z0-9._~+/=:-]{8,}[A-Za-z0-9_~+/=-])",
        "authorization|bearer|-key|-token|x-|api-key",
        "credentials in Authorization (Basic, Bearer, Token) and API-key headers",
        kind="auth_header",
        validator=_bare,
        priority=25,
        min_entropy=2.5,
    ),
    _token(
        "session_cookie",
        r"(?i)(?:^|[\s;:\"'{,])(?:__(?:secure|host)-)?[a-z0-9_.$!#%&*+^|~-]*"
        r"(?:sess|sid|auth|token|jwt|login|remember|csrf|xsrf|secret|identity|key)"
        r"[a-z0-9_.$!#%&*+^|~-]*=(?P<value>[^;\s,\"']{8,})",
        "cookie|curl",
        "session cookie values in Cookie and Set-Cookie headers and curl -b",
        kind="cookie",
        validator=_real,
        priority=22,
        min_entropy=2.5,
        context="cookie| -b ",
        window=400,
    ),
    # --- Generic assignments: only where a key name says the value is a credential.
    _token(
        "password_assignment",
        r"(?i)(?:\b" + _PW_NAMES + _ASSIGN + r"|--" + _PW_NAMES + r"(?:=|[ \t]+)[\"']?)" + _BARE,
        "pass|pwd|pswd",
        "password assignments in .env, YAML, JSON, TOML, INI, shell, code and CLI flags",
        kind="password",
        validator=_bare,
        priority=10,
        min_entropy=2.0,
    ),
    _token(
        "password_assignment_quoted",
        r"(?i)\b" + _PW_NAMES + r"(?:[\"']\]?)?[ \t]*(?:=|:=|=>|:)[ \t]*" + _QUOTED,
        "pass|pwd|pswd",
        "quoted password literals (which may contain spaces)",
        kind="password",
        validator=_literal,
        priority=11,
        min_entropy=2.0,
    ),
    _token(
        "secret_assignment",
        r"(?i)(?:\b" + _CREDENTIAL_NAMES + r"(?:" + _ASSIGN + r"|[ \t]+(?:is|was)[ \t]+[\"']?)"
        r"|--" + _CREDENTIAL_NAMES + r"(?:=|[ \t]+)[\"']?)" + _BARE,
        "secret|key|token|credential",
        "secret, token, api_key and client_secret assignments (high-entropy values only)",
        kind="secret",
        validator=_bare,
        priority=9,
        min_entropy=3.0,
    ),
    _token(
        "secret_assignment_quoted",
        r"(?i)\b" + _CREDENTIAL_NAMES + r"(?:[\"']\]?)?[ \t]*(?:=|:=|=>|:)[ \t]*" + _QUOTED,
        "secret|key|token|credential",
        "quoted secret, token and api_key literals",
        kind="secret",
        validator=_literal,
        priority=10,
        min_entropy=3.0,
    ),
    _token(
        "password_in_prose",
        r"(?i)" + _PROSE_WORD + _PROSE_LINK + r"[\"'“„«「]?"
        r"(?P<value>[^\s\"'”“«»„」：，。、]{3,63}[^\s\"'”“«»„」：，。、.,;:])"
        r"(?:[\s\"'”»」：，。、]|[.,;:](?:\s|$)|$)",
        (
            "pass|wort|mot de passe|contrase|senha|wachtwoord|has|parola|senord|kode|"
            "passord|salasana|heslo|jelsz|ifre|пароль|密码|密碼|口令|パスワード|비밀번호|암호|पासवर्ड"
        ),
        "passwords stated in prose, in several languages ('my password is X', 'Passwort: X')",
        kind="password",
        validator=_bare,
        priority=8,
        min_entropy=1.5,
    ),
    _token(
        "password_in_prose_bare",
        r"(?i)"
        + _PROSE_WORD
        + r"(?:[ \t]+(?:is|was|ist|lautet|est|es|é|è|jest|är|er|это))?(?:[ \t]*\r?\n[ \t]*|[ \t]+)"
        r"[\"'“„«「]?(?P<value>[^\s\"'”“«»„」：，。、]{5,63}[^\s\"'”“«»„」：，。、.,;:])"
        r"(?:[\s\"'”»」：，。、]|[.,;:](?:\s|$)|$)",
        (
            "pass|wort|mot de passe|contrase|senha|wachtwoord|has|parola|senord|kode|"
            "passord|salasana|heslo|jelsz|ifre|пароль|密码|密碼|口令|パスワード|비밀번호|암호|पासवर्ड"
        ),
        "passwords right after the word, or on the next line ('Passwort velvet-orbit21', "
        "'the password is\\nParis1981#'): only values mixing letters with digits or symbols",
        kind="password",
        validator=_mixed,
        priority=7,
        min_entropy=2.8,
    ),
    _token(
        "secret_in_prose_bare",
        r"(?i)(?:\b(?:secret|secreto|segredo|geheimnis|chiave segreta|cl[ée] secr[èe]te"
        r"|secret client|client secret)|секрет|密钥|秘钥|秘密鍵|シークレット|सीक्रेट|비밀 키)"
        r"(?:[ \t]+(?:is|was|ist|lautet|est|es|é|è|это))?(?:[ \t]*\r?\n[ \t]*|[ \t]+)"
        r"[\"'“„«「(]?(?P<value>[^\s\"'”“«»„」：，。、]{15,199}[^\s\"'”“«»„」：，。、.,;:?)])",
        "secret|secreto|segredo|geheimnis|segreta|secr|секрет|密钥|秘钥|秘密鍵|シークレット|सीक्रेट|비밀",
        "secrets right after the word or on the next line ('Secret lautet\\nX'): only long "
        "values mixing letters with digits or symbols",
        kind="secret",
        validator=_mixed,
        priority=7,
        min_entropy=3.5,
    ),
    _token(
        "k8s_secret_data",
        r"(?m)^[ \t]+[A-Za-z0-9_.\-]{1,253}:[ \t]+[\"']?"
        r"(?P<value>[A-Za-z0-9+/]{8,}={0,2})[\"']?[ \t]*\r?$",
        "kind: secret|type: opaque|kubernetes.io/",
        "values under data: in Kubernetes Secret manifests, which are secrets in base64",
        kind="secret",
        validator=_literal,
        priority=6,
        min_entropy=2.5,
        context="kind: secret|type: opaque|type: kubernetes.io/",
        window=4096,
    ),
    _token(
        "stdin_password",
        r"(?i)\b(?:echo|printf)[ \t]+(?:-[a-z]+[ \t]+)?[\"']?(?P<value>[^\s\"'|]{3,})[\"']?[ \t]*\|"
        r"[ \t]*(?:sudo[ \t]+)?(?:docker|podman|helm|oras|skopeo|buildah|nerdctl)[ \t]+"
        r"(?:registry[ \t]+)?login\b",
        "login",
        "passwords piped into docker/podman/helm login --password-stdin",
        kind="password",
        validator=_literal,
        priority=20,
        min_entropy=0.0,
    ),
    _token(
        "secret_in_prose",
        r"(?i)(?:\b(?:secret|secreto|segredo|geheimnis|chiave segreta|cl[ée] secr[èe]te"
        r"|secret client|client secret)|секрет|密钥|秘钥|秘密鍵|シークレット|सीक्रेट|비밀 키)"
        + _PROSE_LINK
        + r"[\"'“„«「]?(?P<value>[^\s\"'”“«»„」：，。、]{7,199}[^\s\"'”“«»„」：，。、.,;:?])",
        "secret|secreto|segredo|geheimnis|segreta|secr|секрет|密钥|秘钥|秘密鍵|シークレット|सीक्रेट|비밀",
        "secrets stated in prose, in several languages ('le secret client : X', '密钥：X')",
        kind="secret",
        validator=_bare,
        priority=8,
        min_entropy=3.0,
    ),
)
