"""Detection rules for credentials by the key that names them: in URLs and connection
strings, on command lines, in HTTP headers and cookies, and in assignments.

Generic credentials are found only where a key name, a flag or a header says the
value is one (``password=``, ``Authorization: Bearer``, ``mysql -p``), and only
values that read as literals (``checks._secrets``): in code ``password=password``
passes a variable, in ``.env`` ``PASSWORD=hunter2`` is the secret. Placeholders,
templates and references into a secret manager are kept.

Salts and peppers in configuration (``APP_SALT``, WordPress's ``AUTH_SALT``) are
redacted: applications use them as keys. A salt stored beside a hash in a record is
labelled by the bare word ``salt`` and kept.
"""

from __future__ import annotations

from .. import checks
from .._rule import Rule
from ._fragments import ASSIGN, CREDENTIAL_NAMES, QUOTED, secret_rule

# Key names for a password: any key that ends in one of the words (``db_password``,
# ``PGPASSWORD``, ``smtp.passwd``), or ``pass`` as a key's last word (``admin_pass``).
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

# What comes before a value: the key name and its ``=`` or ``:``. Each serves as the
# cue of its rule (see ``Rule.cue``): every match contains it, and
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
# The cues of the password and secret rules: a key named for a password or a credential,
# then ``=`` or ``:`` (or a flag and a space), in an assignment, a query string or before
# a quoted literal.
_PW_ASSIGNED = r"(?i)(?:\b" + _PW_NAMES + ASSIGN + r"|--" + _PW_NAMES + r"(?:=|[ \t]+)[\"']?)"
_PW_KEYWORDS = "pass|pwd|pswd|contrase|kennwort|wachtwoord|senha|haslo|hasło|senord|salasana"
_PW_QUERY = r"(?i)[?&]" + _PW_NAMES + r"="
_PW_QUOTED = (
    r"(?i)\b(?:" + _PW_NAMES + "|" + _PW_NAMES_FOREIGN + r")(?:[\"']\]?)?[ \t]*(?:=|:=|=>|:)[ \t]*"
)
_SECRET_QUERY = r"(?i)[?&]" + CREDENTIAL_NAMES + r"="
_SECRET_ASSIGNED = (
    r"(?i)(?:\b" + CREDENTIAL_NAMES + r"(?:" + ASSIGN + r"|[ \t]+(?:is|was)[ \t]+[\"']?)"
    r"|--" + CREDENTIAL_NAMES + r"(?:=|[ \t]+)[\"']?)"
)
_SECRET_QUOTED = r"(?i)\b" + CREDENTIAL_NAMES + r"(?:[\"']\]?)?[ \t]*(?:=|:=|=>|:)[ \t]*"
# Key names whose last word says the value keys a MAC or a hash: a signing secret
# (``SESSION_SIGNING``), an HMAC key (``COOKIE_HMAC``), an application salt or pepper
# (``APP_SALT``, WordPress's ``AUTH_SALT``). The word alone (``salt``, ``hmac``) labels
# per-record salts and MAC outputs in data, so a word before it is required.
_MAC_KEY_ASSIGNED = (
    r"(?i)\b(?:[a-z0-9]+[_.-])+(?:signing|hmac|salt|pepper|signature[_.-]?key)" + ASSIGN
)


RULES: tuple[Rule, ...] = (
    # --- Credentials in URLs, connection strings and command lines.
    secret_rule(
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
    secret_rule(
        "jdbc_password",
        r"(?i)\bjdbc:(?:oracle:(?:thin|oci):[^/\s@:\"']+/|[^\s\"']*?[;?&](?:password|pwd)=)"
        r"(?P<value>[^;&@\s\"']+)",
        "jdbc:",
        "passwords in JDBC URLs (password= parameters, Oracle user/password@)",
        kind="credential",
        priority=30,
        min_entropy=0.0,
    ),
    secret_rule(
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
        validator=checks.bare,
        priority=20,
        min_entropy=0.0,
    ),
    secret_rule(
        "stdin_password",
        r"(?i)\b(?:echo|printf)[ \t]+(?:-[a-z]+[ \t]+)?[\"']?(?P<value>[^\s\"'|]{3,})[\"']?[ \t]*\|"
        r"[ \t]*(?:sudo[ \t]+)?(?:docker|podman|helm|oras|skopeo|buildah|nerdctl)[ \t]+"
        r"(?:registry[ \t]+)?login\b",
        "login",
        "passwords piped into docker/podman/helm login --password-stdin",
        kind="password",
        validator=checks.literal,
        priority=20,
        min_entropy=0.0,
    ),
    secret_rule(
        "netrc_password",
        r"(?i)\bmachine[ \t]+\S+[ \t]+(?:login[ \t]+\S+[ \t]+)?password[ \t]+(?P<value>\S+)",
        "machine",
        ".netrc passwords",
        kind="password",
        validator=checks.literal,
        priority=20,
        min_entropy=0.0,
    ),
    # --- HTTP.
    secret_rule(
        "auth_header",
        _AUTH_HEADER + r"(?P<value>[A-Za-z0-9._~+/=:-]{8,}[A-Za-z0-9_~+/=-])",
        "authorization|bearer|-key|-token|x-|api-key",
        "credentials in Authorization (Basic, Bearer, Token) and API-key headers",
        kind="auth_header",
        validator=checks.bare,
        priority=25,
        min_entropy=2.5,
        cue=_AUTH_HEADER,
    ),
    secret_rule(
        "session_cookie",
        _COOKIE + r"(?P<value>[^;\s,\"']{7,}[^;\s,\"'.:)\]])",
        "cookie|curl|쿠키|クッキー|куки",
        "session cookie values in Cookie and Set-Cookie headers and curl -b",
        kind="cookie",
        validator=checks.real,
        priority=22,
        min_entropy=2.5,
        context="cookie| -b |쿠키|クッキー|куки",
        window=400,
        cue=_COOKIE,
    ),
    secret_rule(
        "session_cookie_name",
        _SESSION_COOKIE_NAME + _SESSION_VALUE,
        "sess|.sid|.aspxauth|.aspnetcore.",
        "web frameworks' session cookies by name, wherever they appear (PHPSESSID, "
        "JSESSIONID, ASP.NET_SessionId, connect.sid, laravel_session, _app_session)",
        kind="cookie",
        validator=checks.bare,
        priority=22,
        min_entropy=2.5,
        cue=_SESSION_COOKIE_CUE,
    ),
    # --- Generic assignments: only where a key name says the value is a credential.
    secret_rule(
        "password_assignment",
        _PW_ASSIGNED + _BARE,
        _PW_KEYWORDS,
        "password assignments in .env, YAML, JSON, TOML, INI, shell, code and CLI flags",
        kind="password",
        validator=checks.bare,
        priority=10,
        min_entropy=2.0,
        cue=_PW_ASSIGNED,
    ),
    secret_rule(
        "password_query_parameter",
        _PW_QUERY + _BARE_QUERY,
        _PW_KEYWORDS,
        "passwords in URL query strings and key=value&... connection parameters",
        kind="password",
        validator=checks.bare,
        priority=14,
        min_entropy=2.0,
        cue=_PW_QUERY,
    ),
    secret_rule(
        "password_assignment_quoted",
        _PW_QUOTED + QUOTED,
        _PW_KEYWORDS,
        "quoted password literals (which may contain spaces)",
        kind="password",
        validator=checks.literal,
        priority=11,
        min_entropy=2.0,
        cue=_PW_QUOTED,
    ),
    secret_rule(
        "secret_query_parameter",
        _SECRET_QUERY + _BARE_QUERY,
        "secret|key|token|credential",
        "secrets, tokens and api keys in URL query strings (high-entropy values only)",
        kind="secret",
        validator=checks.bare,
        priority=14,
        min_entropy=3.0,
        cue=_SECRET_QUERY,
    ),
    secret_rule(
        "secret_assignment",
        _SECRET_ASSIGNED + _BARE,
        "secret|key|token|credential",
        "secret, token, api_key and client_secret assignments (high-entropy values only)",
        kind="secret",
        validator=checks.bare,
        priority=9,
        min_entropy=3.0,
        cue=_SECRET_ASSIGNED,
    ),
    secret_rule(
        "secret_assignment_quoted",
        _SECRET_QUOTED + QUOTED,
        "secret|key|token|credential",
        "quoted secret, token and api_key literals",
        kind="secret",
        validator=checks.literal,
        priority=10,
        min_entropy=3.0,
        cue=_SECRET_QUOTED,
    ),
    secret_rule(
        "mac_key_assignment",
        _MAC_KEY_ASSIGNED + _BARE,
        "signing|hmac|salt|pepper|signature",
        "signing secrets, HMAC keys, salts and peppers assigned to a key named after them "
        "(SESSION_SIGNING=X, COOKIE_HMAC=X, APP_SALT=X): high-entropy values only",
        kind="secret",
        validator=checks.bare,
        priority=9,
        min_entropy=3.0,
        cue=_MAC_KEY_ASSIGNED,
    ),
)
