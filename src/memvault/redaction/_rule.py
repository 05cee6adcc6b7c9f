"""What a detection rule is: a row of data, not code.

A rule says what to look for (an RE2 pattern), when to bother (keywords that
must occur somewhere in the text), how to tell a real finding from a
look-alike (a validator, context words, an entropy floor, an allowlist), and
what kind of data it found (``kind``, used in markers and notes).

Patterns are RE2 syntax (no look-around, no back-references), so every rule
runs in time linear in the text. A named group ``value`` marks the part that is
redacted; without it the whole match is.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

Category = Literal["secret", "personal"]
Action = Literal["redact", "mask", "pseudonymize", "block"]
ACTIONS: tuple[Action, ...] = ("redact", "mask", "pseudonymize", "block")

# Human names of kinds, for notes to the model ("1 email and 2 api keys were redacted").
_LABELS: dict[str, tuple[str, str]] = {
    "api_key": ("api key", "api keys"),
    "password": ("password", "passwords"),
    "private_key": ("private key", "private keys"),
    "credential": ("credential", "credentials"),
    "auth_header": ("authorization header", "authorization headers"),
    "cookie": ("cookie", "cookies"),
    "jwt": ("token", "tokens"),
    "secret": ("secret", "secrets"),
    "email": ("email", "emails"),
    "phone": ("phone number", "phone numbers"),
    "ssn": ("social security number", "social security numbers"),
    "card_number": ("card number", "card numbers"),
    "iban": ("IBAN", "IBANs"),
    "ip_address": ("IP address", "IP addresses"),
    "date_of_birth": ("date of birth", "dates of birth"),
    "passport": ("passport number", "passport numbers"),
    "national_id": ("national id", "national ids"),
    "street_address": ("street address", "street addresses"),
    "person_name": ("name", "names"),
}


def label(kind: str, count: int = 1) -> str:
    """The human name of a kind, singular or plural."""
    one, many = _LABELS.get(kind, (kind.replace("_", " "), kind.replace("_", " ") + "s"))
    return one if count == 1 else many


def a_label(kind: str) -> str:
    """The human name with its article: ``an email``, ``a card number``, ``an IBAN``."""
    name = label(kind)
    return f"{'an' if name[0].lower() in 'aeiou' or name[:2] == 'IP' else 'a'} {name}"


@dataclass(frozen=True, slots=True)
class Rule:
    """One detector.

    ``keywords`` are lower-case literals; when given, the rule runs only on text
    that contains one of them (case-insensitively). ``context`` words, when
    given, must occur within ``window`` characters before the match (or inside
    it). ``validator`` receives the value and returns False for a look-alike.
    ``min_entropy`` is a floor in bits per character of the value.

    ``gate`` says how the filter's first pass decides whether the rule runs at all.
    ``"keywords"`` looks for the keywords alone: cheap, and as selective as the
    pattern where the keywords are distinctive prefixes (``ghp_``, ``xoxb-``). Any
    other value names a group whose patterns are compiled into one RE2 set that
    tells which of them match; patterns in one set multiply each other's DFA
    states, so heavy patterns of unrelated shapes belong in different groups. The
    default is the rule's category. The gate only saves work: it never decides
    what is found.

    ``overlapping`` is for rules whose matches share a prefix, as the rows of a table
    share its header line: after each match its value is blanked in a private copy of
    the text and the search starts again where the match began, so every row the
    pattern reaches under one header is found in one scan, not only the first.

    ``cue``, when given, is a light RE2 pattern that every match of ``pattern``
    contains (often the part before the value: the key name and the ``=``). The
    rule's set then holds the cue instead of the pattern, which keeps the set's DFA
    small: counters and wide classes in the value part multiply its states.
    """

    name: str
    kind: str
    category: Category
    pattern: str
    keywords: tuple[str, ...] = ()
    validator: Callable[[str], bool] | None = None
    context: tuple[str, ...] = ()
    window: int = 48
    min_entropy: float = 0.0
    keep: int = 4  # characters kept at the end when the action is "mask"
    priority: int = 0  # the higher wins where findings overlap
    gate: str = ""
    cue: str = ""
    overlapping: bool = False
    description: str = field(default="", compare=False)


@dataclass(frozen=True, slots=True)
class Configured:
    """A rule as a policy runs it: with its action and mask length."""

    rule: Rule
    action: Action
    keep: int


@dataclass(frozen=True, slots=True)
class Finding:
    """One thing a rule found: where, what kind, and what the policy does with it."""

    rule: str
    kind: str
    category: Category
    start: int
    end: int
    action: Action
