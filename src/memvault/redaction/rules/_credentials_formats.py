"""Detection rules for credentials in the formats of particular tools and documents:
Kubernetes Secret manifests, Postman collections, HAR files, JSON settings, command
output, password elements in XML (WS-Security, Maven, FileZilla), WordPress and
WooCommerce cookies, ASP.NET machine keys, SASL PLAIN exchanges and PowerShell
SecureString literals.

WS-Security's ``PasswordDigest`` is redacted like ``PasswordText``: the nonce and
creation time travel beside it, so it lets the password be guessed offline and the
request be replayed within the server's time window. The nonce itself is kept.
"""

from __future__ import annotations

from .. import checks
from .._rule import Rule
from ._fragments import CREDENTIAL_NAMES, QUOTED, secret_rule

# An XML element for a password, in any namespace: WS-Security's UsernameToken
# (``<wsse:Password Type="...#PasswordText">``), Maven's settings.xml, FileZilla's ``<Pass>``.
_XML_PW_NAME = r"(?:[a-z_][a-z0-9_.-]*:)?(?:[a-z0-9_.-]*(?:password|passwd|passphrase|pwd)|pass)"
_XML_PASSWORD = r"(?i)<" + _XML_PW_NAME + r"(?:[ \t\r\n][^<>]*)?>"
# WordPress's login cookies are named after the md5 of the site URL: ``wordpress_<md5>``
# and ``wordpress_sec_<md5>`` (the auth cookie, plain and over TLS), ``wordpress_logged_in_
# <md5>``; their value is ``user|expiration|token|hmac``, URL-encoded. WooCommerce's
# session cookie is named the same way. ``wp-settings-<uid>`` holds editor preferences.
_WORDPRESS_COOKIE = (
    r"(?i)(?:^|[^a-z0-9_.$!#%&*+^|~-])(?:wordpress_(?:logged_in_|sec_)?|wp_woocommerce_session_)"
    r"[0-9a-f]{32}(?:=|[\"'][ \t]*[:,][ \t]*[\"'])"
)


RULES: tuple[Rule, ...] = (
    secret_rule(
        "k8s_secret_data",
        r"(?m)^[ \t]+[A-Za-z0-9_.\-]{1,253}:[ \t]+[\"']?"
        r"(?P<value>[A-Za-z0-9+/]{8,}={0,2})[\"']?[ \t]*\r?$",
        "kind: secret|type: opaque|kubernetes.io/",
        "values under data: in Kubernetes Secret manifests, which are secrets in base64",
        kind="secret",
        validator=checks.base64_data,
        priority=6,
        min_entropy=2.5,
        context="kind: secret|type: opaque|type: kubernetes.io/",
        window=4096,
    ),
    # --- Key-value pairs where the key is itself a value: Postman collections and
    # environments store every variable as {"key": "<name>", "value": "<value>"}.
    secret_rule(
        "postman_password_variable",
        r"(?i)\{[ \t]*\"key\"[ \t]*:[ \t]*\"[a-z0-9_.-]*(?:pass(?:word|wd|phrase)?|pwd|pswd"
        r"|passwort|kennwort|wachtwoord|contrase(?:n|ñ)a|senha)\"[ \t]*,[ \t]*\"value\"[ \t]*:"
        r"[ \t]*" + QUOTED,
        '"key"',
        'passwords in Postman variables ({"key": "adminPass", "value": "X"})',
        kind="password",
        validator=checks.bare,
        priority=11,
        min_entropy=2.0,
    ),
    secret_rule(
        "postman_secret_variable",
        r"(?i)\{[ \t]*\"key\"[ \t]*:[ \t]*\"" + CREDENTIAL_NAMES + r"\"[ \t]*,[ \t]*\"value\""
        r"[ \t]*:[ \t]*" + QUOTED,
        '"key"',
        'secrets in Postman variables ({"key": "webhookSecret", "value": "X"}): high-entropy '
        "values only",
        kind="secret",
        validator=checks.literal,
        priority=10,
        min_entropy=3.0,
    ),
    # HAR files list headers and cookies as {"name": "<name>", "value": "<value>"}.
    secret_rule(
        "har_header_pair",
        r"(?i)\"name\"[ \t]*:[ \t]*\"(?:(?:proxy-)?authorization|x-(?:[a-z]+-)*(?:api-?key"
        r"|auth-token|access-token|token|secret|auth-key|key)|api-key|private-token"
        r"|x-goog-api-key|ocp-apim-subscription-key)\"[ \t]*,[ \t]*\"value\"[ \t]*:[ \t]*\""
        # the closing quote ends the value, so a full stop or colon before it is the token's
        r"(?:(?:basic|bearer|token)[ \t]+)?(?P<value>[A-Za-z0-9._~+/=:-]{9,})\"",
        '"name"',
        'credentials in the request headers of a HAR file ({"name": "x-api-key", "value": "X"})',
        kind="auth_header",
        validator=checks.bare,
        priority=25,
        min_entropy=2.5,
    ),
    secret_rule(
        "har_cookie_pair",
        r"(?i)\"name\"[ \t]*:[ \t]*\"(?:__(?:secure|host)-)?[a-z0-9_.$!#%&*+^|~-]*"
        r"(?:sess|sid|auth|token|jwt|login|remember|csrf|xsrf|secret|identity)[a-z0-9_.$!#%&*+^|~-]*"
        r"\"[ \t]*,[ \t]*\"value\"[ \t]*:[ \t]*\"(?P<value>[^\"\s;]{7,})\"",
        '"name"',
        'session cookies in the cookie list of a HAR file ({"name": "sid", "value": "X"})',
        kind="cookie",
        validator=checks.real,
        priority=22,
        min_entropy=2.5,
        context="cookie",
        window=400,
    ),
    secret_rule(
        "postman_auth",
        r"(?i)\"(?:apikey|bearer|basic|oauth2|digest|hawk|awsv4|ntlm)\"[ \t]*:[ \t]*\[[^\]]{0,200}?"
        r"\{[ \t]*\"key\"[ \t]*:[ \t]*\"(?:value|token|password|accesstoken|secretkey|authkey)\""
        r"[ \t]*,[ \t]*\"value\"[ \t]*:[ \t]*" + QUOTED,
        '"key"',
        'credentials in a Postman collection\'s auth block ({"key": "value", "value": "X"})',
        kind="auth_header",
        validator=checks.literal,
        priority=25,
        min_entropy=2.5,
    ),
    # --- HTTP Basic credentials named in prose ("the basic auth is Basic dXNlcjpwYXNz"):
    # only base64 that decodes to user:password.
    secret_rule(
        "basic_credentials",
        r"(?i)\bbasic[ \t]+(?P<value>[A-Za-z0-9+/]{8,}={0,2})(?:[^A-Za-z0-9+/=]|$)",
        "basic",
        "HTTP Basic credentials (base64 of user:password) after the word 'Basic'",
        kind="auth_header",
        validator=checks.basic_credentials,
        priority=25,
        min_entropy=2.5,
    ),
    # --- ASP.NET appsettings.json and the like: a signing key under a JWT section.
    secret_rule(
        "jwt_signing_key",
        r"(?i)\"(?:key|signingkey|issuersigningkey|securitykey)\"[ \t]*:[ \t]*" + QUOTED,
        '"key"|signingkey|securitykey',
        'JWT signing keys in JSON settings ("Jwt": {"Issuer": ..., "Key": "X"})',
        kind="secret",
        validator=checks.literal,
        priority=10,
        min_entropy=3.5,
        context="jwt|issuer|audience|bearer",
        window=120,
    ),
    # --- A secret printed by the command that decoded it: kubectl get secret -o
    # jsonpath='{.data.password}' | base64 -d, and the value on the next line.
    secret_rule(
        "decoded_secret_output",
        r"(?i)jsonpath=[^\r\n]*(?:pass|secret|token|key)[^\r\n]*\|[ \t]*base64[ \t]+"
        r"(?:-d|--decode|-D)\b[^\r\n]*\r?\n(?P<value>[^\s]{4,200})(?:\r?\n|$)",
        "base64",
        "secrets printed by kubectl get secret ... | base64 -d, on the line after",
        kind="password",
        validator=checks.literal,
        priority=12,
        min_entropy=2.0,
    ),
    secret_rule(
        "xml_password_element",
        _XML_PASSWORD
        + r"[ \t]*(?P<value>[^<>\s](?:[^<>\r\n]{0,198}[^<>\s])?)[ \t]*</"
        + _XML_PW_NAME
        + ">",
        "pass|pwd",
        "passwords in XML elements (WS-Security <wsse:Password>, settings.xml <password>), "
        "including WS-Security's PasswordDigest, which with the nonce and time beside it "
        "lets the password be guessed offline and the request be replayed",
        kind="password",
        validator=checks.literal,
        priority=11,
        min_entropy=2.0,
        cue=_XML_PASSWORD,
    ),
    secret_rule(
        "wordpress_auth_cookie",
        _WORDPRESS_COOKIE + r"(?P<value>[A-Za-z0-9%._~+@|-]{7,}[A-Za-z0-9%_~+@|-])",
        "wordpress_|wp_woocommerce_session_",
        "WordPress and WooCommerce login and session cookies (wordpress_logged_in_<md5>=...)",
        kind="cookie",
        validator=checks.bare,
        priority=22,
        min_entropy=2.5,
        cue=_WORDPRESS_COOKIE,
    ),
    # ASP.NET's <machineKey> signs and encrypts view state, forms tickets and cookies.
    secret_rule(
        "aspnet_machine_key",
        r"(?i)\b(?:validationKey|decryptionKey)[ \t]*=[ \t]*[\"'](?P<value>[0-9a-f]{16,128})[\"']",
        "validationkey|decryptionkey",
        'ASP.NET machine keys (<machineKey validationKey="X" decryptionKey="X">)',
        kind="secret",
        validator=checks.literal,
        priority=12,
        min_entropy=2.5,
    ),
    secret_rule(
        "sasl_plain",
        r"(?i)\bAUTH(?:ENTICATE)?[ \t]+PLAIN[ \t]+(?P<value>[A-Za-z0-9+/]{8,}={0,2})"
        r"(?:[^A-Za-z0-9+/=]|$)",
        "plain",
        "SMTP and IMAP AUTH PLAIN responses (base64 of user and password, RFC 4616)",
        kind="auth_header",
        validator=checks.sasl_plain,
        priority=25,
        min_entropy=2.5,
    ),
    secret_rule(
        "powershell_securestring",
        r"(?i)\bConvertTo-SecureString[ \t]+(?:-String[ \t]+)?[\"'](?P<value>[^\"'\r\n]{1,200})"
        r"[\"'][^\r\n|;]*?-AsPlainText\b",
        "convertto-securestring",
        'passwords made into a PowerShell SecureString (ConvertTo-SecureString "X" -AsPlainText)',
        kind="password",
        validator=checks.literal,
        priority=20,
        min_entropy=0.0,
    ),
)
