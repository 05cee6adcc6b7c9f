"""Detection rules for credentials stated in prose and in structured documents:
"my password is X" in a dozen languages, a secret handed over in chat, Kubernetes
Secret manifests, Postman collections, HAR files, JSON settings and command output.

They run right after those of :mod:`vault._rules_secrets` (see that module for the
decisions on placeholders and test keys, which hold here too), so that ties between
findings of equal priority, length and start resolve in the same order as when both
were one table. The rules for particular tools' formats follow in
:mod:`vault._rules_formats`.

A full stop right after a password in prose (``Kennwort cobalt6603. (bitte ...)``)
may end the sentence or the password; the filter cannot tell, so it fails closed and
redacts it with the password.
"""

from __future__ import annotations

from .._rule import Rule
from ..checks._secrets import (
    _CREDENTIAL_NAMES,
    _PROSE_GAP,
    _PROSE_LINK,
    _PROSE_QUALIFIER,
    _PROSE_WORD,
    _QUOTED,
    _bare,
    _base64_data,
    _basic_credentials,
    _literal,
    _mixed,
    _mixed_not_url,
    _real,
    _token,
)


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
        validator=_base64_data,
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
        # not after a colon: ``arn:aws:secretsmanager:<region>:<account>:secret:<name>`` names
        # a secret in AWS Secrets Manager, a reference the deploy resolves
        r"(?:^|[^:])"
        + _PROSE_NOUN
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
        # the closing quote ends the value, so a full stop or colon before it is the token's
        r"(?:(?:basic|bearer|token)[ \t]+)?(?P<value>[A-Za-z0-9._~+/=:-]{9,})\"",
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
    # --- Markup, cookies, keys and values the rules above do not name.
)
