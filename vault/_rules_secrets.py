"""Detection rules for secrets: the provider tokens and keys of :mod:`vault._rules_tokens`,
and credentials in URLs, headers, command lines, assignments and prose.

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
* A full stop right after a password in prose (``Kennwort cobalt6603. (bitte
  ...)``) may end the sentence or the password; the filter cannot tell, so it
  fails closed and redacts it with the password.
"""

from __future__ import annotations

from . import _rules_tokens
from ._rules import Rule
from ._secret_checks import (
    _ASSIGN,
    _BARE,
    _BARE_QUERY,
    _CREDENTIAL_NAMES,
    _PROSE_GAP,
    _PROSE_LINK,
    _PROSE_QUALIFIER,
    _PROSE_WORD,
    _PW_NAMES,
    _PW_NAMES_FOREIGN,
    _QUOTED,
    _bare,
    _basic_credentials,
    _literal,
    _mixed,
    _mixed_not_url,
    _real,
    _token,
)

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


def _prose_password(least: int) -> str:
    """A password stated in prose, of ``least`` + 1 characters or more, and its end.

    A full stop right after it is taken with it (see the module docstring); a comma,
    semicolon or colon is not.
    """
    return (
        r"[\"'“„«「]?(?P<value>[^\s\"'”“«»„」：，。、]{" + str(least) + r",63}"
        r"[^\s\"'”“«»„」：，。、.,;:]\.?)(?:[\s\"'”»」：，。、]|[,;:](?:\s|$)|$)"
    )


# A few words between the word and a verb: "the new password I set is X".
_PROSE_GAP_VERB = (
    r"[ \t]+(?:[^\s:：=]{1,20}[ \t]+){1,5}"
    r"(?:is|was|is now|ist|lautet|est|es|é|è|jest|är|er|это)[ \t]+"
)
# A reply on the line after a question about the password: "¿me pasas la contraseña?"
# then "Eusebio: es pixel7655!", "急ぎなら → Sommer1985#", "Meena: maple35 - mat batana".
_PROSE_REPLY = (
    r"[^\r\n?？]{0,60}[?？](?:[ \t]+[^\r\n?？]{1,60})?[ \t]*\r?\n"
    # a chat client's header line between question and answer: "[Gestern 16:07] IT-Servicedesk"
    r"(?:\[[^\]\r\n]{1,30}\][^\r\n:：]{0,40}\r?\n)?"
    r"(?:[^\r\n]{0,60}?(?::[ \t]+|：[ \t]*))?"
    r"(?:(?:it's|it is|its|es|is|ist|c'est|é|è|это|hai)[ \t]+|[^\r\n]{0,60}?(?:→|->|=>)[ \t]*)?"
)
# An adjective after the word, where Romance languages put it: "mot de passe provisoire X",
# "contraseña temporal X", "password provvisoria X".
_PROSE_ADJECTIVE = (
    r"(?:[ \t]+(?:provisoire|temporaire|initial|initiale|provisional|provisoria|temporal"
    r"|inicial|provvisoria|temporanea|iniziale|provis[óo]ria|tempor[áa]ria|nouveau|nuevo|nueva"
    r"|nuova|nova|nuovo|novo))?"
)
_PROSE_KEYWORDS = (
    "pass|wort|mot de passe|contrase|senha|wachtwoord|has|parola|senord|kode|"
    "passord|salasana|heslo|jelsz|ifre|khẩu|khau|كلمة|пароль|密码|密碼|口令|パスワード|비밀번호|암호|पासवर्ड"
)
# "creds (admin / hunter2!)", "login: admin / Passw0rd": a user and a password either
# side of a spaced slash, after a word that says they are credentials.
_PAIR_WORD = (
    r"(?i)\b(?:creds?|credentials?|logins?|log-in|user/pass(?:word)?|username/password"
    r"|zugangsdaten|anmeldedaten|identifiants|credenciales|credenciais|credenziali"
    r"|inloggegevens)\b"
)
_PROSE_NOUN = (
    r"(?i)(?:\b(?:secret|secreto|segredo|geheimnis|chiave segreta|cl[ée] secr[èe]te"
    r"|secret client|client secret)|секрет|密钥|秘钥|秘密鍵|シークレット|सीक्रेट|비밀 키)"
)

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
    _token(
        "password_in_prose",
        r"(?i)" + _PROSE_WORD + _PROSE_LINK + _prose_password(3),
        _PROSE_KEYWORDS,
        "passwords stated in prose, in several languages ('my password is X', 'Passwort: X')",
        kind="password",
        validator=_bare,
        priority=8,
        min_entropy=1.5,
        cue=r"(?i)" + _PROSE_WORD,
    ),
    _token(
        "password_in_prose_bare",
        r"(?i)"
        + _PROSE_WORD
        + _PROSE_ADJECTIVE
        + r"(?:[ \t]+(?:is|was|ist|lautet|est|es|é|è|jest|är|er|это))?(?:[ \t]*\r?\n[ \t]*|[ \t]+)"
        + _prose_password(5),
        _PROSE_KEYWORDS,
        "passwords right after the word, or on the next line ('Passwort velvet-orbit21', "
        "'the password is\\nParis1981#'): only values mixing letters with digits or symbols",
        kind="password",
        validator=_mixed,
        priority=7,
        min_entropy=2.8,
        cue=r"(?i)" + _PROSE_WORD,
    ),
    _token(
        "password_in_prose_gap",
        r"(?i)"
        + _PROSE_WORD
        + _PROSE_QUALIFIER
        + r"(?:"
        + _PROSE_GAP
        + r"|"
        + _PROSE_GAP_VERB
        + r")"
        + _prose_password(5),
        _PROSE_KEYWORDS,
        "passwords a few words after the word, before a colon or a verb ('new password "
        "after the rotation: X', 'the password I set is X'): only values mixing letters "
        "with digits or symbols, no URLs",
        kind="password",
        validator=_mixed_not_url,
        priority=6,
        min_entropy=2.8,
        cue=r"(?i)" + _PROSE_WORD,
    ),
    _token(
        "password_in_reply",
        r"(?i)" + _PROSE_WORD + _PROSE_REPLY + _prose_password(5),
        _PROSE_KEYWORDS,
        "passwords given as the reply on the line after a question about the password "
        "('¿me pasas la contraseña?' then 'Ana: es pixel7655!'): only values mixing letters "
        "with digits or symbols",
        kind="password",
        validator=_mixed,
        priority=6,
        min_entropy=2.8,
        cue=r"(?i)" + _PROSE_WORD + r"[^\r\n?？]*[?？]",
    ),
    _token(
        "user_password_pair",
        _PAIR_WORD + r"[^\r\n/]{0,30}?[ \t(\[:：][A-Za-z0-9._@+-]{1,64}[ \t]+/[ \t]+[\"']?"
        r"(?P<value>[^\s\"'/]{3,62}[^\s\"'/(),;:\]]\.?)(?:[\s\"'),;\]]|$)",
        "cred|login|log-in|user/pass|username/password|zugangsdaten|anmeldedaten|identifiants|"
        "inloggegevens",
        "passwords in 'user / password' pairs after a word for credentials ('creds (admin / "
        "X)', 'Zugangsdaten: admin / X'): only values mixing letters with digits or symbols",
        kind="password",
        validator=_mixed,
        priority=8,
        min_entropy=2.5,
        cue=_PAIR_WORD,
    ),
    _token(
        "secret_in_prose_gap",
        _PROSE_NOUN + _PROSE_QUALIFIER + _PROSE_GAP + r"[\"'“„«「]?"
        r"(?P<value>\(?[^\s\"'”“«»„」：，。、]{15,199}[^\s\"'”“«»„」：，。、.,;:?)])",
        "secret|secreto|segredo|geheimnis|segreta|secr|секрет|密钥|秘钥|秘密鍵|シークレット|सीक्रेट|비밀",
        "secrets a few words after the word, before a colon ('rotated the client secret, new "
        "one: X'): only long values mixing letters with digits or symbols, no URLs",
        kind="secret",
        validator=_mixed_not_url,
        priority=6,
        min_entropy=3.5,
        cue=_PROSE_NOUN,
    ),
    _token(
        "secret_in_prose_bare",
        _PROSE_NOUN + r"(?:[ \t]+(?:is|was|ist|lautet|est|es|é|è|это))?(?:[ \t]*\r?\n[ \t]*|[ \t]+)"
        r"[\"'“„«「]?(?P<value>\(?[^\s\"'”“«»„」：，。、]{15,199}[^\s\"'”“«»„」：，。、.,;:?)])",
        "secret|secreto|segredo|geheimnis|segreta|secr|секрет|密钥|秘钥|秘密鍵|シークレット|सीक्रेट|비밀",
        "secrets right after the word or on the next line ('Secret lautet\\nX'): only long "
        "values mixing letters with digits or symbols",
        kind="secret",
        validator=_mixed,
        priority=7,
        min_entropy=3.5,
        cue=_PROSE_NOUN,
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
        _PROSE_NOUN
        + _PROSE_LINK
        + r"[\"'“„«「]?(?P<value>[^\s\"'”“«»„」：，。、]{7,199}[^\s\"'”“«»„」：，。、.,;:?])",
        "secret|secreto|segredo|geheimnis|segreta|secr|секрет|密钥|秘钥|秘密鍵|シークレット|सीक्रेट|비밀",
        "secrets stated in prose, in several languages ('le secret client : X', '密钥：X')",
        kind="secret",
        validator=_bare,
        priority=8,
        min_entropy=3.0,
        cue=_PROSE_NOUN,
    ),
    # --- Key-value pairs where the key is itself a value: Postman collections and
    # environments store every variable as {"key": "<name>", "value": "<value>"}.
    _token(
        "postman_password_variable",
        r"(?i)\{[ \t]*\"key\"[ \t]*:[ \t]*\"[a-z0-9_.-]*(?:pass(?:word|wd|phrase)?|pwd|pswd"
        r"|passwort|kennwort|wachtwoord|contrase(?:n|ñ)a|senha)\"[ \t]*,[ \t]*\"value\"[ \t]*:"
        r"[ \t]*" + _QUOTED,
        '"key"',
        'passwords in Postman variables ({"key": "adminPass", "value": "X"})',
        kind="password",
        validator=_bare,
        priority=11,
        min_entropy=2.0,
    ),
    _token(
        "postman_secret_variable",
        r"(?i)\{[ \t]*\"key\"[ \t]*:[ \t]*\"" + _CREDENTIAL_NAMES + r"\"[ \t]*,[ \t]*\"value\""
        r"[ \t]*:[ \t]*" + _QUOTED,
        '"key"',
        'secrets in Postman variables ({"key": "webhookSecret", "value": "X"}): high-entropy '
        "values only",
        kind="secret",
        validator=_literal,
        priority=10,
        min_entropy=3.0,
    ),
    # HAR files list headers and cookies as {"name": "<name>", "value": "<value>"}.
    _token(
        "har_header_pair",
        r"(?i)\"name\"[ \t]*:[ \t]*\"(?:(?:proxy-)?authorization|x-(?:[a-z]+-)*(?:api-?key"
        r"|auth-token|access-token|token|secret|auth-key|key)|api-key|private-token"
        r"|x-goog-api-key|ocp-apim-subscription-key)\"[ \t]*,[ \t]*\"value\"[ \t]*:[ \t]*\""
        r"(?:(?:basic|bearer|token)[ \t]+)?(?P<value>[A-Za-z0-9._~+/=:-]{8,}[A-Za-z0-9_~+/=-])\"",
        '"name"',
        'credentials in the request headers of a HAR file ({"name": "x-api-key", "value": "X"})',
        kind="auth_header",
        validator=_bare,
        priority=25,
        min_entropy=2.5,
    ),
    _token(
        "har_cookie_pair",
        r"(?i)\"name\"[ \t]*:[ \t]*\"(?:__(?:secure|host)-)?[a-z0-9_.$!#%&*+^|~-]*"
        r"(?:sess|sid|auth|token|jwt|login|remember|csrf|xsrf|secret|identity)[a-z0-9_.$!#%&*+^|~-]*"
        r"\"[ \t]*,[ \t]*\"value\"[ \t]*:[ \t]*\"(?P<value>[^\"\s;]{7,})\"",
        '"name"',
        'session cookies in the cookie list of a HAR file ({"name": "sid", "value": "X"})',
        kind="cookie",
        validator=_real,
        priority=22,
        min_entropy=2.5,
        context="cookie",
        window=400,
    ),
    _token(
        "postman_auth",
        r"(?i)\"(?:apikey|bearer|basic|oauth2|digest|hawk|awsv4|ntlm)\"[ \t]*:[ \t]*\[[^\]]{0,200}?"
        r"\{[ \t]*\"key\"[ \t]*:[ \t]*\"(?:value|token|password|accesstoken|secretkey|authkey)\""
        r"[ \t]*,[ \t]*\"value\"[ \t]*:[ \t]*" + _QUOTED,
        '"key"',
        'credentials in a Postman collection\'s auth block ({"key": "value", "value": "X"})',
        kind="auth_header",
        validator=_literal,
        priority=25,
        min_entropy=2.5,
    ),
    # --- HTTP Basic credentials named in prose ("the basic auth is Basic dXNlcjpwYXNz"):
    # only base64 that decodes to user:password.
    _token(
        "basic_credentials",
        r"(?i)\bbasic[ \t]+(?P<value>[A-Za-z0-9+/]{8,}={0,2})(?:[^A-Za-z0-9+/=]|$)",
        "basic",
        "HTTP Basic credentials (base64 of user:password) after the word 'Basic'",
        kind="auth_header",
        validator=_basic_credentials,
        priority=25,
        min_entropy=2.5,
    ),
    # --- "the read-only key for the dashboard embed: `X`": a key handed over in chat,
    # in backticks after a colon.
    _token(
        "key_in_prose",
        r"(?i)\b(?:key|token)[ \t]+for[ \t]+[^:：`\r\n]{1,40}[:：][ \t]*`"
        r"(?P<value>[A-Za-z0-9_+/=.~-]{16,200})`",
        "key for|token for",
        "keys and tokens handed over in prose, in backticks ('the key for the embed: `X`')",
        kind="api_key",
        validator=_bare,
        priority=8,
        min_entropy=3.0,
    ),
    # --- ASP.NET appsettings.json and the like: a signing key under a JWT section.
    _token(
        "jwt_signing_key",
        r"(?i)\"(?:key|signingkey|issuersigningkey|securitykey)\"[ \t]*:[ \t]*" + _QUOTED,
        '"key"|signingkey|securitykey',
        'JWT signing keys in JSON settings ("Jwt": {"Issuer": ..., "Key": "X"})',
        kind="secret",
        validator=_literal,
        priority=10,
        min_entropy=3.5,
        context="jwt|issuer|audience|bearer",
        window=120,
    ),
    # --- A secret printed by the command that decoded it: kubectl get secret -o
    # jsonpath='{.data.password}' | base64 -d, and the value on the next line.
    _token(
        "decoded_secret_output",
        r"(?i)jsonpath=[^\r\n]*(?:pass|secret|token|key)[^\r\n]*\|[ \t]*base64[ \t]+"
        r"(?:-d|--decode|-D)\b[^\r\n]*\r?\n(?P<value>[^\s]{4,200})(?:\r?\n|$)",
        "base64",
        "secrets printed by kubectl get secret ... | base64 -d, on the line after",
        kind="password",
        validator=_literal,
        priority=12,
        min_entropy=2.0,
    ),
)
