"""Detection rules for credentials stated in prose: "my password is X" in a dozen
languages, a password given as the reply to a question, a user and password pair, a
secret or key handed over in chat or in Markdown backticks.

A word for a password or a secret is the cue; the value after it must read as one
(``checks._secrets``): the looser the link between word and value, the more
the value must mix letters with digits or symbols, and links and paths are kept.

A full stop right after a password in prose (``Kennwort cobalt6603. (bitte ...)``)
may end the sentence or the password; the filter cannot tell, so it fails closed and
redacts it with the password.
"""

from __future__ import annotations

from .. import checks
from .._rule import Rule
from ._fragments import secret_rule

# A word for a password, in the languages the filter reads.
_PROSE_WORD = (
    r"(?:\b(?:passwords?|passwort|kennwort|mot de passe|contrase[ñn]a|senha|palavra-passe"
    r"|wachtwoord|has[lł]o|parola|l[öo]senord|adgangskode|passord|salasana|heslo|jelsz[óo]"
    r"|sifre|passcode|passphrase|m[aậ]t kh[aẩ]u)"
    # no \b before a word that starts with a non-ASCII letter: RE2's \b is ASCII only
    r"|şifre|كلمة (?:المرور|السر)|пароль|密码|密碼|口令|パスワード|비밀번호|암호|पासवर्ड)"
)
# A qualifier in brackets after the word: "password (prod):", "senha (produção):".
_PROSE_QUALIFIER = r"(?:[ \t]*\([^()\r\n]{1,30}\))?"
# A few words between the word and a colon on the same line: "client secret today, new
# one: X", "nueva contraseña tras la rotación: X". Only for the stricter gap rules.
_PROSE_GAP = r"[ \t,]+(?:[^\s:：=]{1,20}[ \t,]+){0,4}[^\s:：=]{1,20}[ \t]*[:：][ \t]+"
# What links the word to the value: a colon or an equals sign, a dash, the value on the
# next line after a colon, a verb ("is", "ist", "lautet", "est", "это", "是"), with a
# qualifier or a short "for the staging DB" between.
_PROSE_LINK = (
    _PROSE_QUALIFIER
    + r"(?:[ \t]+(?:for|to|of|on|für|pour|para|per|voor|de|du|del|da|do|dla|для|от)"
    r"[ \t]+[^\s:：=]{1,40}(?:[ \t]+[^\s:：=]{1,40})?)?"
    r"(?:[ \t]*[:：=][ \t]*|[ \t]*[-–—][ \t]+|[^\r\n:：=]{0,40}[:：][ \t]*\r?\n[ \t]*"
    r"|[ \t]+(?:is|was|is now|ist|lautet|est|es|é|è|jest|är|er|on|это)(?:[ \t]*:)?[ \t]+"
    r"|[ \t]*(?:是|为|為|は|는|은)[ \t]*[:：]?[ \t]*)"
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
    r"[^\r\n?]{0,60}\?(?:[ \t]+[^\r\n?]{1,60})?[ \t]*\r?\n"
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
# The keywords of the password rules below: a match holds one, so text without any skips them.
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
# A word for a secret, in the languages the filter reads.
_PROSE_NOUN = (
    r"(?i)(?:\b(?:secret|secreto|segredo|geheimnis|chiave segreta|cl[ée] secr[èe]te"
    r"|secret client|client secret)|секрет|密钥|秘钥|秘密鍵|シークレット|सीक्रेट|비밀 키)"
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
    secret_rule(
        "password_in_prose",
        r"(?i)" + _PROSE_WORD + _PROSE_LINK + _prose_password(3),
        _PROSE_KEYWORDS,
        "passwords stated in prose, in several languages ('my password is X', 'Passwort: X')",
        kind="password",
        validator=checks.bare,
        priority=8,
        min_entropy=1.5,
        cue=r"(?i)" + _PROSE_WORD,
    ),
    secret_rule(
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
        validator=checks.chosen_password,
        priority=7,
        min_entropy=checks.EVERY_CLASS_ENTROPY,
        cue=r"(?i)" + _PROSE_WORD,
    ),
    secret_rule(
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
        validator=checks.chosen_password_not_url,
        priority=6,
        min_entropy=checks.EVERY_CLASS_ENTROPY,
        cue=r"(?i)" + _PROSE_WORD,
    ),
    secret_rule(
        "password_in_reply",
        r"(?i)" + _PROSE_WORD + _PROSE_REPLY + _prose_password(5),
        _PROSE_KEYWORDS,
        "passwords given as the reply on the line after a question about the password "
        "('¿me pasas la contraseña?' then 'Ana: es pixel7655!'): only values mixing letters "
        "with digits or symbols",
        kind="password",
        validator=checks.chosen_password,
        priority=6,
        min_entropy=checks.EVERY_CLASS_ENTROPY,
        cue=r"(?i)" + _PROSE_WORD + r"[^\r\n?]*\?",
    ),
    secret_rule(
        "user_password_pair",
        _PAIR_WORD + r"[^\r\n/]{0,30}?[ \t(\[:：][A-Za-z0-9._@+-]{1,64}[ \t]+/[ \t]+[\"']?"
        r"(?P<value>[^\s\"'/]{3,62}[^\s\"'/(),;:\]]\.?)(?:[\s\"'),;\]]|$)",
        "cred|login|log-in|user/pass|username/password|zugangsdaten|anmeldedaten|identifiants|"
        "inloggegevens",
        "passwords in 'user / password' pairs after a word for credentials ('creds (admin / "
        "X)', 'Zugangsdaten: admin / X'): only values mixing letters with digits or symbols",
        kind="password",
        validator=checks.mixed,
        priority=8,
        min_entropy=2.5,
        cue=_PAIR_WORD,
    ),
    secret_rule(
        "secret_in_prose_gap",
        _PROSE_NOUN + _PROSE_QUALIFIER + _PROSE_GAP + r"[\"'“„«「]?"
        r"(?P<value>\(?[^\s\"'”“«»„」：，。、]{15,199}[^\s\"'”“«»„」：，。、.,;:?)])",
        "secret|secreto|segredo|geheimnis|segreta|secr|секрет|密钥|秘钥|秘密鍵|シークレット|सीक्रेट|비밀",
        "secrets a few words after the word, before a colon ('rotated the client secret, new "
        "one: X'): only long values mixing letters with digits or symbols, no URLs",
        kind="secret",
        validator=checks.mixed_not_url,
        priority=6,
        min_entropy=3.5,
        cue=_PROSE_NOUN,
    ),
    secret_rule(
        "secret_in_prose_bare",
        _PROSE_NOUN + r"(?:[ \t]+(?:is|was|ist|lautet|est|es|é|è|это))?(?:[ \t]*\r?\n[ \t]*|[ \t]+)"
        r"[\"'“„«「]?(?P<value>\(?[^\s\"'”“«»„」：，。、]{15,199}[^\s\"'”“«»„」：，。、.,;:?)])",
        "secret|secreto|segredo|geheimnis|segreta|secr|секрет|密钥|秘钥|秘密鍵|シークレット|सीक्रेट|비밀",
        "secrets right after the word or on the next line ('Secret lautet\\nX'): only long "
        "values mixing letters with digits or symbols",
        kind="secret",
        validator=checks.mixed,
        priority=7,
        min_entropy=3.5,
        cue=_PROSE_NOUN,
    ),
    secret_rule(
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
        validator=checks.bare,
        priority=8,
        min_entropy=3.0,
        cue=_PROSE_NOUN,
    ),
    # --- "the read-only key for the dashboard embed: `X`": a key handed over in chat,
    # in backticks after a colon.
    secret_rule(
        "key_in_prose",
        r"(?i)\b(?:key|token)[ \t]+for[ \t]+[^:：`\r\n]{1,40}[:：][ \t]*`"
        r"(?P<value>[A-Za-z0-9_+/=.~-]{16,200})`",
        "key for|token for",
        "keys and tokens handed over in prose, in backticks ('the key for the embed: `X`')",
        kind="api_key",
        validator=checks.bare,
        priority=8,
        min_entropy=3.0,
    ),
    secret_rule(
        "secret_in_backticks",
        _BACKTICK_LABEL + r"(?P<value>[^`\s]{12,200})`",
        "`",
        "secrets in backticks after a label and an arrow, colon or verb ('webhook secret → "
        "`X`', 'the signing key is `X`'): high-entropy values, no paths or public keys",
        kind="secret",
        validator=checks.opaque,
        priority=8,
        min_entropy=3.0,
        cue=_BACKTICK_LABEL,
    ),
    secret_rule(
        "password_in_backticks",
        _BACKTICK_PASSWORD + r"(?P<value>[^`\s]{6,64})`",
        "`",
        "passwords in backticks a few words after a word for them, before a colon ('temp "
        "creds for the sandbox, rotate after: `X`'): only values mixing letters with "
        "digits or symbols",
        kind="password",
        validator=checks.password_like,
        priority=8,
        min_entropy=2.5,
        cue=_BACKTICK_PASSWORD,
    ),
)
