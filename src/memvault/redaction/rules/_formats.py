"""Detection rules for credentials in the formats of particular tools and documents:
password elements in XML (WS-Security, Maven, FileZilla), WordPress and WooCommerce
cookies, signing keys, HMAC keys, salts and peppers by their key names, secrets handed
over in Markdown backticks, ASP.NET machine keys, SASL PLAIN exchanges and PowerShell
SecureString literals.

They run right after those of :mod:`vault._rules_credentials`, so that ties between
findings resolve in the same order as when both were one table.

Decisions on debatable values:

* WS-Security's ``PasswordDigest`` is redacted like ``PasswordText``: the nonce and
  creation time travel beside it, so it lets the password be guessed offline and the
  request be replayed within the server's time window. The nonce itself is kept.
* Salts and peppers in configuration (``APP_SALT``, WordPress's ``AUTH_SALT``) are
  redacted: applications use them as keys. A salt stored beside a hash in a record is
  labelled by the bare word ``salt`` and kept.
"""

from __future__ import annotations

from .._rule import Rule
from ..checks._secrets import (
    _ASSIGN,
    _BARE,
    _PROSE_QUALIFIER,
    _PROSE_WORD,
    _bare,
    _literal,
    _opaque,
    _password_like,
    _sasl_plain,
    _token,
)

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
# Key names whose last word says the value keys a MAC or a hash: a signing secret
# (``SESSION_SIGNING``), an HMAC key (``COOKIE_HMAC``), an application salt or pepper
# (``APP_SALT``, WordPress's ``AUTH_SALT``). The word alone (``salt``, ``hmac``) labels
# per-record salts and MAC outputs in data, so a word before it is required.
_MAC_KEY_ASSIGNED = (
    r"(?i)\b(?:[a-z0-9]+[_.-])+(?:signing|hmac|salt|pepper|signature[_.-]?key)" + _ASSIGN
)
# A label naming a secret, then an arrow, colon or verb and a value in backticks, as in
# Markdown checklists and chat: "rotate the webhook secret → `X`", "the signing key is
# `X`". A bare "key" or "token" is often not secret (cache key, page token); only the
# kinds that are count.
_BACKTICK_LABEL = (
    r"(?i)\b(?:secret(?:[ \t_-]?key)?|passphrase|pepper"
    r"|(?:signing|private|api|access|encryption|master|webhook|hmac|auth|client|session|deploy"
    r"|app|bot|bearer|refresh|admin|service)[ \t_-]?(?:key|token))s?"
    + _PROSE_QUALIFIER
    + r"[ \t]*(?:→|->|=>|[:：=]|[-–—][ \t]|(?:is|was|is now|are)[ \t])[ \t]*`"
)
# The same for passwords and credentials, with up to a few words before the colon
# ("temp creds for the sandbox, rotate after: `X`", "password (staging): `X`").
_BACKTICK_PASSWORD = (
    r"(?i)(?:\b(?:creds?|credentials?|passwords?|passphrase|passcode)\b|" + _PROSE_WORD + r")"
    r"[^\r\n:：`]{0,40}[:：][ \t]*`"
)


RULES: tuple[Rule, ...] = (
    _token(
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
        validator=_literal,
        priority=11,
        min_entropy=2.0,
        cue=_XML_PASSWORD,
    ),
    _token(
        "wordpress_auth_cookie",
        _WORDPRESS_COOKIE + r"(?P<value>[A-Za-z0-9%._~+@|-]{7,}[A-Za-z0-9%_~+@|-])",
        "wordpress_|wp_woocommerce_session_",
        "WordPress and WooCommerce login and session cookies (wordpress_logged_in_<md5>=...)",
        kind="cookie",
        validator=_bare,
        priority=22,
        min_entropy=2.5,
        cue=_WORDPRESS_COOKIE,
    ),
    _token(
        "mac_key_assignment",
        _MAC_KEY_ASSIGNED + _BARE,
        "signing|hmac|salt|pepper|signature",
        "signing secrets, HMAC keys, salts and peppers assigned to a key named after them "
        "(SESSION_SIGNING=X, COOKIE_HMAC=X, APP_SALT=X): high-entropy values only",
        kind="secret",
        validator=_bare,
        priority=9,
        min_entropy=3.0,
        cue=_MAC_KEY_ASSIGNED,
    ),
    _token(
        "secret_in_backticks",
        _BACKTICK_LABEL + r"(?P<value>[^`\s]{12,200})`",
        "`",
        "secrets in backticks after a label and an arrow, colon or verb ('webhook secret → "
        "`X`', 'the signing key is `X`'): high-entropy values, no paths or public keys",
        kind="secret",
        validator=_opaque,
        priority=8,
        min_entropy=3.0,
        cue=_BACKTICK_LABEL,
    ),
    _token(
        "password_in_backticks",
        _BACKTICK_PASSWORD + r"(?P<value>[^`\s]{6,64})`",
        "`",
        "passwords in backticks a few words after a word for them, before a colon ('temp "
        "creds for the sandbox, rotate after: `X`'): only values mixing letters with "
        "digits or symbols",
        kind="password",
        validator=_password_like,
        priority=8,
        min_entropy=2.5,
        cue=_BACKTICK_PASSWORD,
    ),
    # ASP.NET's <machineKey> signs and encrypts view state, forms tickets and cookies.
    _token(
        "aspnet_machine_key",
        r"(?i)\b(?:validationKey|decryptionKey)[ \t]*=[ \t]*[\"'](?P<value>[0-9a-f]{16,128})[\"']",
        "validationkey|decryptionkey",
        'ASP.NET machine keys (<machineKey validationKey="X" decryptionKey="X">)',
        kind="secret",
        validator=_literal,
        priority=12,
        min_entropy=2.5,
    ),
    _token(
        "sasl_plain",
        r"(?i)\bAUTH(?:ENTICATE)?[ \t]+PLAIN[ \t]+(?P<value>[A-Za-z0-9+/]{8,}={0,2})"
        r"(?:[^A-Za-z0-9+/=]|$)",
        "plain",
        "SMTP and IMAP AUTH PLAIN responses (base64 of user and password, RFC 4616)",
        kind="auth_header",
        validator=_sasl_plain,
        priority=25,
        min_entropy=2.5,
    ),
    _token(
        "powershell_securestring",
        r"(?i)\bConvertTo-SecureString[ \t]+(?:-String[ \t]+)?[\"'](?P<value>[^\"'\r\n]{1,200})"
        r"[\"'][^\r\n|;]*?-AsPlainText\b",
        "convertto-securestring",
        'passwords made into a PowerShell SecureString (ConvertTo-SecureString "X" -AsPlainText)',
        kind="password",
        validator=_literal,
        priority=20,
        min_entropy=0.0,
    ),
)
