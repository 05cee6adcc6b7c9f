"""Values that stand in for a secret rather than being one.

Templates (``${DB_PASSWORD}``, ``<token>``, ``{{ secret }}``), references into a
secret manager (``vault:secret/data/app#key``, ``op://vault/item/field``), code that
reads a secret from elsewhere (``os.environ["X"]``, ``args.password``), masked or
elided values (``********``, ``sk-...xxxx``), dummy words (``changeme``,
``your_api_key``) and the example keys vendors print in their documentation. None of
them is a secret, and a marker in their place would hide what a note is about.
"""

from __future__ import annotations

import re

from .._words import word_list, word_set

# Documented example values: printed in vendor documentation, never live.
EXAMPLES = word_set("example_secrets.txt")
# Whole values (lower case) that stand in for a secret.
_DUMMIES = word_set("dummy_values.txt")
_DUMMY_PREFIXES = word_list("dummy_prefixes.txt")
# A provider's prefix, then a dummy word, as documentation writes a key it cannot print:
# ``AIzaSy-your-key``, ``xoxb-your-bot-token``, ``sk_live_replace_me``, ``ghp_yourTokenHere``.
# The prefix is one or two short runs of letters; the word ends where a separator, a
# capital (camelCase) or the end follows, and the shortest (``my_``) are left out, so
# that a random token reads as one about once in a million.
_PREFIXED_DUMMY = re.compile(
    r"(?i:(?:[a-z]{1,8}[-_.]){1,2})(?:(?i:"
    + "|".join(
        re.escape(p) for p in _DUMMY_PREFIXES if p == "<" or (len(p) > 3 and not p.isalnum())
    )
    + r")|(?i:"
    + "|".join(re.escape(p) for p in _DUMMY_PREFIXES if p.isalnum())
    + r")(?=[^a-z0-9]|$))"
)
# Pieces anywhere in a value, looked for one by one (each a plain substring test is far
# quicker than one alternation of them all in ``re``), and printf-style placeholders in
# full (``%(password)s``, a bare ``%s``): generated keys contain ``%(`` and ``%s`` by
# chance, so those alone do not make a placeholder.
_DUMMY_PARTS = word_list("dummy_parts.txt")
_PRINTF = re.compile(r"%\([a-z_][a-z0-9_]*\)[sdr]|^%[sdr]$")


# An elision is written in one case ("xxxx", "XXXX"): a random key holds "xXxX" by chance.
_ONE_CASE_PARTS = frozenset({"xxxx"})


def _dummy_part(value: str, low: str) -> bool:
    for part in _DUMMY_PARTS:
        if part in low and (part not in _ONE_CASE_PARTS or part in value or part.upper() in value):
            return True
    return "%" in low and bool(_PRINTF.search(low))


_MASK = re.compile(r"[xX*#•._\-0]+")
# A note in brackets after the word ("password (prod): ..."), not the password.
_ANNOTATION = re.compile(r"[(（][^\W\d_]+(?:[ .-][^\W\d_]+)*[)）][:：]?")
# A YAML anchor or alias (``&db_password``, ``*defaults``, ``*dbSettings``): a name, not a
# value. Its name is made of words (lower-case, or capitalised in camelCase) and numbers;
# a password may start with ``&`` or ``*`` too (``*XQiBV9sqb``), but mixes case at random.
# Generated keys that start so go on with symbols.
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


# Text in the shape of the filter's markers. The filter leaves alone a marker exactly as it
# writes one, by itself; inside a value that shape is no sign of a placeholder or of code,
# or ``hunter2[REDACTED:x]`` and ``[MASKED:x:hunter2]`` would pass for one.
_MARKER_SHAPE = re.compile(r"\[(?:REDACTED|MASKED|PSEUDONYM):[^\[\]\s]*\]")


def unmarked(value: str) -> str:
    """The value without marker-shaped text: what tells a placeholder or code apart."""
    return _MARKER_SHAPE.sub("", value) if "[" in value else value


def _few_kinds(low: str) -> bool:
    """At most two different characters (``aaaa``, ``abab``): no secret looks like that."""
    rest = low.replace(low[0], "") if low else ""
    return not rest.replace(rest[0], "") if rest else True


def placeholder(value: str) -> bool:
    """Templates, references, masks, dummies and documented examples."""
    value = unmarked(value)
    if not value:
        return False  # marker-shaped text only: what it holds is read as a value
    if value in EXAMPLES:
        return True
    low = value.lower()
    if low in _DUMMIES or _few_kinds(low) or _MASK.fullmatch(value):
        return True
    if low.startswith(_DUMMY_PREFIXES) or _dummy_part(value, low) or _PREFIXED_DUMMY.match(value):
        return True
    if _SECRET_REFERENCE.match(low) or _TEMPLATE_TOKEN.fullmatch(value):
        return True
    return (
        bool(_SHELL_VAR.match(value))
        or value[0] in "{[|>"
        or bool(_YAML_REFERENCE.fullmatch(value))
        or bool(_ANNOTATION.fullmatch(value))
    )


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


def named(value: str) -> bool:
    """A name as people write them, in words split by ``.``, ``_`` or ``-``
    (``Config2024``, ``dbPassword``, ``release-notes``), not a random run of characters."""
    return all(_NAME_WORD.fullmatch(word) for word in re.split(r"[._-]+", value) if word)


def code(value: str) -> bool:
    """An attribute path or a call whose names read as names people write."""
    value = unmarked(value)
    match = _DOTTED.fullmatch(value) or _CALL.fullmatch(value)
    if match is None:
        return False
    words = _NAME_SEPARATORS.split(match.group("name"))
    return all(_NAME_WORD.fullmatch(word) for word in words if word)
