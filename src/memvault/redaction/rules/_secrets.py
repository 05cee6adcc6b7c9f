"""Detection rules for secrets: the provider tokens and keys of :mod:`vault._rules_tokens`,
and credentials in URLs, headers, command lines and assignments. Credentials stated in
prose and in structured documents (Postman, HAR, Kubernetes manifests) are the rules of
:mod:`vault._rules_credentials`, which run right after these.

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
  marker in their place would hide what a note is about. References into a
  secret manager (``vault:secret/data/app#key``, ``op://vault/item/field``) are
  placeholders too: the deploy resolves them.
"""

from __future__ import annotations

from .._rule import Rule
from ..checks._secrets import (
    _ASSIGN,
    _BARE,
    _BARE_QUERY,
    _CREDENTIAL_NAMES,
    _PW_NAMES,
    _PW_NAMES_FOREIGN,
    _QUOTED,
    _bare,
    _literal,
    _real,
    _token,
)
from . import _tokens as _rules_tokens

# What comes before a value: the key name and its ``=`` or ``:``. Each serves as the
# cue of its rule (see :class:`vault._rules.Rule`): every match contains it, and
# without the value's counters it costs the first pass little.
_AUTH_HEADER = (
    r"(?i)(?:\b(?:proxy-)?authorization[\"']?[ \t]*[:=,][ \t]*[\"']?"
    r"(?:(?:basic|bearer|token|apikey|api-key|sso-key|dpop|jwt|key|negotiate|ntlm"
    r"|sharedkey|gosu)[ \t]+)?"
    r"|\bbearer[ \t]+"
    r"|\b(?:x-(?:[a-z]+-)*(?:api-?key|auth-token|access-token|token|secret|auth-key|key)"
    r"|api-key|private-token|x-vault-token|x-goog-api-key|ocp-apim-subscription-key)"
    r"[\"']?[ \t]*[:,][ \t]*[\"']?)"
)
# A cookie's name may follow anything that cannot be part of it (``cookie=sid=``,
# ``(ASP.NET_SessionId=``, ``会话 Cookie：PHPSESSID=``).
_COOKIE_START = r"(?:^|[^a-z0-9_.$!#%&*+^|~-])"
_COOKIE = (
    r"(?i)" + _COOKIE_START + r"(?:__(?:secure|host)-)?[a-z0-9_.$!#%&*+^|~-]*"
    r"(?:sess|sid|auth|token|jwt|login|remember|csrf|xsrf|secret|identity|key)"
    r"[a-z0-9_.$!#%&*+^|~-]*="
)
# Where the name is a session cookie's own, its value may also follow a quoted key, as
# in code that sets cookies (``{"PHPSESSID": "..."}``, ``cookies.set("sessionid", "...")``);
# any JSON key with "auth" or "key" in it would be too broad.
_COOKIE_SEP = r"(?:=|[\"'][ \t]*[:,][ \t]*[\"'])"
# The session cookies of web frameworks, by name: a name this specific says what the
# value is without the word "cookie" nearby (PHP, Java servlets, ASP.NET, Express,
# Laravel, CodeIgniter, Rails' ``_app_session``, Django, Play, Drupal, NextAuth).
_SESSION_COOKIE_NAME = (
    r"(?i)" + _COOKIE_START + r"(?:phpsessid|jsessionid|asp\.net_sessionid|aspsessionid[a-z]{8}"
    r"|\.aspxauth|\.aspnetcore\.(?:session|cookies|identity\.application)|connect\.sid"
    r"|laravel_session|ci_session|_[a-z0-9]+(?:_[a-z0-9]+)*_session|sessionid|play_session"
    r"|s?sess[0-9a-f]{32}|(?:__(?:secure|host)-)?(?:next-)?auth\.session-token)" + _COOKIE_SEP
)
# Literals one of which every such name contains: the first pass looks for these alone,
# since the name alternatives with their prefix class cost its DFA many states.
_SESSION_COOKIE_CUE = (
    r"(?i)(?:sessid|sessionid|_session|\.aspxauth|\.aspnetcore\.|connect\.sid|sess[0-9a-f]"
    r"|session-token)"
)
# A session id: base64, hex, URL-encoded or signed (``s%3A<id>.<signature>``,
# ``<data>--<digest>``); a full stop or colon at its end belongs to the sentence.
_SESSION_VALUE = r"(?P<value>[A-Za-z0-9%_~+/=!*-][A-Za-z0-9%._~+/=:!*-]{6,}[A-Za-z0-9%_~+/=!*-])"
_PW_ASSIGNED = r"(?i)(?:\b" + _PW_NAMES + _ASSIGN + r"|--" + _PW_NAMES + r"(?:=|[ \t]+)[\"']?)"
_PW_KEYWORDS = "pass|pwd|pswd|contrase|kennwort|wachtwoord|senha|haslo|hasło|senord|salasana"
_PW_QUERY = r"(?i)[?&]" + _PW_NAMES + r"="
_PW_QUOTED = (
    r"(?i)\b(?:" + _PW_NAMES + "|" + _PW_NAMES_FOREIGN + r")(?:[\"']\]?)?[ \t]*(?:=|:=|=>|:)[ \t]*"
)
_SECRET_QUERY = r"(?i)[?&]" + _CREDENTIAL_NAMES + r"="
_SECRET_ASSIGNED = (
    r"(?i)(?:\b" + _CREDENTIAL_NAMES + r"(?:" + _ASSIGN + r"|[ \t]+(?:is|was)[ \t]+[\"']?)"
    r"|--" + _CREDENTIAL_NAMES + r"(?:=|[ \t]+)[\"']?)"
)
_SECRET_QUOTED = r"(?i)\b" + _CREDENTIAL_NAMES + r"(?:[\"']\]?)?[ \t]*(?:=|:=|=>|:)[ \t]*"

RULES: tuple[Rule, ...] = (
    *_rules_tokens.RULES,
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
        r"|(?:curl|wget|http)\b[^\r\n]*?[ \t](?:-u|--user)[ \t=]+[\"']?[^\s:\"']+:"
        r"|redis-cli\b[^\r\n]*?[ \t](?:-a|--pass)[ \t=]+"
        r"|mongo(?:sh|dump|restore|export|import)?\b[^\r\n]*?[ \t](?:-p|--password)[ \t=]+"
        r"|ldap(?:search|add|modify|delete|whoami|passwd|compare|modrdn)\b[^\r\n]*?[ \t]-w[ \t]+"
        r"|(?-i:(?:sqlcmd|bcp|osql|ipmitool|mosquitto_(?:pub|sub)|zip)\b[^\r\n]*?[ \t]-P[ \t]+)"
        r"|(?:7za?|rar)[ \t][^\r\n]*?[ \t]-p"
        r"|openssl\b[^\r\n]*?[ \t]-pass(?:in|out)?[ \t]+pass:"
        r"|(?:keytool|jarsigner)\b[^\r\n]*?[ \t]-(?:src|dest|new)?(?:store|key)?pass[ \t]+"
        r"|(?:smbclient|rpcclient|smbmap)\b[^\r\n]*?[ \t](?:-U|--user)[ \t=]*[\"']?[^\s%\"']+%"
        r"|x?freerdp\b[^\r\n]*?[ \t]/p:)"
        r"[\"']?(?P<value>[^\s\"']{3,})",
        (
            "mysql|mariadb|sshpass|login|curl|wget|http|redis-cli|mongo|ldap|sqlcmd|bcp|osql|"
            "ipmitool|mosquitto_|zip|7z|rar|pass:|keytool|jarsigner|smbclient|rpcclient|smbmap|"
            "freerdp"
        ),
        "passwords on command lines (mysql -p, sshpass, docker login -p, curl -u, redis-cli "
        "-a, mongosh -p, ldapsearch -w, sqlcmd -P, 7z -p, openssl pass:, keytool -storepass, "
        "smbclient -U user%pass, xfreerdp /p:)",
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
        _AUTH_HEADER + r"(?P<value>[A-Za-z0-9._~+/=:-]{8,}[A-Za-z0-9_~+/=-])",
        "authorization|bearer|-key|-token|x-|api-key",
        "credentials in Authorization (Basic, Bearer, Token) and API-key headers",
        kind="auth_header",
        validator=_bare,
        priority=25,
        min_entropy=2.5,
        cue=_AUTH_HEADER,
    ),
    _token(
        "session_cookie",
        _COOKIE + r"(?P<value>[^;\s,\"']{7,}[^;\s,\"'.:)\]])",
        "cookie|curl|쿠키|クッキー|куки",
        "session cookie values in Cookie and Set-Cookie headers and curl -b",
        kind="cookie",
        validator=_real,
        priority=22,
        min_entropy=2.5,
        context="cookie| -b |쿠키|クッキー|куки",
        window=400,
        cue=_COOKIE,
    ),
    _token(
        "session_cookie_name",
        _SESSION_COOKIE_NAME + _SESSION_VALUE,
        "sess|.sid|.aspxauth|.aspnetcore.",
        "web frameworks' session cookies by name, wherever they appear (PHPSESSID, "
        "JSESSIONID, ASP.NET_SessionId, connect.sid, laravel_session, _app_session)",
        kind="cookie",
        validator=_bare,
        priority=22,
        min_entropy=2.5,
        cue=_SESSION_COOKIE_CUE,
    ),
    # --- Generic assignments: only where a key name says the value is a credential.
    _token(
        "password_assignment",
        _PW_ASSIGNED + _BARE,
        _PW_KEYWORDS,
        "password assignments in .env, YAML, JSON, TOML, INI, shell, code and CLI flags",
        kind="password",
        validator=_bare,
        priority=10,
        min_entropy=2.0,
        cue=_PW_ASSIGNED,
    ),
    _token(
        "password_query_parameter",
        _PW_QUERY + _BARE_QUERY,
        _PW_KEYWORDS,
        "passwords in URL query strings and key=value&... connection parameters",
        kind="password",
        validator=_bare,
        priority=14,
        min_entropy=2.0,
        cue=_PW_QUERY,
    ),
    _token(
        "password_assignment_quoted",
        _PW_QUOTED + _QUOTED,
        _PW_KEYWORDS,
        "quoted password literals (which may contain spaces)",
        kind="password",
        validator=_literal,
        priority=11,
        min_entropy=2.0,
        cue=_PW_QUOTED,
    ),
    _token(
        "secret_query_parameter",
        _SECRET_QUERY + _BARE_QUERY,
        "secret|key|token|credential",
        "secrets, tokens and api keys in URL query strings (high-entropy values only)",
        kind="secret",
        validator=_bare,
        priority=14,
        min_entropy=3.0,
        cue=_SECRET_QUERY,
    ),
    _token(
        "secret_assignment",
        _SECRET_ASSIGNED + _BARE,
        "secret|key|token|credential",
        "secret, token, api_key and client_secret assignments (high-entropy values only)",
        kind="secret",
        validator=_bare,
        priority=9,
        min_entropy=3.0,
        cue=_SECRET_ASSIGNED,
    ),
    _token(
        "secret_assignment_quoted",
        _SECRET_QUOTED + _QUOTED,
        "secret|key|token|credential",
        "quoted secret, token and api_key literals",
        kind="secret",
        validator=_literal,
        priority=10,
        min_entropy=3.0,
        cue=_SECRET_QUOTED,
    ),
)
