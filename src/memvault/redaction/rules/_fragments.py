"""Regex fragments that several rule modules share, and the constructor of secret rules.

Each fragment is RE2 syntax, named for what it matches, so that a pattern built
from them reads on its own. Fragments that one module alone uses live in it.
"""

from __future__ import annotations

from collections.abc import Callable

from .._rule import Rule
from ..checks import real

# --- secrets -----------------------------------------------------------------------------

# What separates a key name from its value: ``=``, ``:``, ``:=``, ``=>``, and quotes.
ASSIGN = r"(?:[\"']\]?)?[ \t]*(?:=|:=|=>|:)[ \t]*[\"']?"
CREDENTIAL_NAMES = (
    r"(?:[a-z0-9]+[_.-])*(?:"
    r"[a-z0-9]*secret(?:[_. -]?(?:key|token|access[_.-]?key))?"
    r"|[a-z0-9]*api[_. -]?(?:key|token|secret)"
    r"|[a-z0-9]*(?:access|auth|private|signing|encryption|master|consumer|license|service|account"
    r"|admin|app|client|deploy|webhook|write|session|subscription|ingest|fernet|hmac|jwt"
    r"|cookie|django|flask|rails|laravel|app[_.-]?encryption)[_. -]?key"
    r"|(?:access|auth|refresh|bearer|session|bot|oauth|personal[_.-]?access|private|security"
    r"|client|deploy|registration|runner|webhook|service|admin|app|user|master|csrf|xsrf"
    r"|github|gitlab|slack|npm|vault|discord|telegram)?[_. -]?token"
    r"|credentials?)"
)
# A quoted literal after a key: the quotes end it, so it may hold spaces.
QUOTED = r"[rbuf]?[\"'](?P<value>[^\"'\r\n]{1,200})[\"']"


def secret_rule(
    name: str,
    pattern: str,
    keywords: str,
    description: str,
    *,
    kind: str = "api_key",
    validator: Callable[[str], bool] = real,
    priority: int = 40,
    min_entropy: float = 3.0,
    context: str = "",
    window: int = 48,
    cue: str = "",
) -> Rule:
    """A secret rule: a provider token by default, specific enough to outrank the
    generic assignment rules.

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
        cue=cue,
        description=description,
    )


# --- personal data -----------------------------------------------------------------------

# What may follow a cue word that is also a marker's kind ("phone" in "[REDACTED:phone]"),
# so that redacted text does not become a cue on a second pass.
CUE_ENDS = (" ", ":", ".", "#", "=", "_", "-", '"', "'", "\t", "\n", "：", "/", ",")
# A run of groups of four, as IBANs are written: consumed whole, so that no shorter
# number is read out of it. It may follow a digit straight on ("ref 12DE89 3704 ...").
IBAN_RUN = r"(?:\b|\d)[A-Z]{2}\d{2}(?: [A-Z0-9]{4})+"
# A value as a whole field: a CSV or TSV cell, an SQL tuple member, a table cell.
FIELD_START = r"(?:(?m:^)|[,;\t|(] ?)['\"]?"
FIELD_END = r"['\"]? ?(?:[,;\t|)]|(?m:$))"

# --- person names --------------------------------------------------------------------------

_LOWER = r"(?:\p{Ll}|\\u00[e-f][0-9a-f])"  # JSON writes "é" as \u00e9
LATIN_WORD = r"\p{Lu}(?:[\p{Ll}'’]*\p{Lu})?" + _LOWER + r"+(?:-\p{Lu}?" + _LOWER + r"+)?"
_UPPER_WORD = r"\p{Lu}{2,}(?:-\p{Lu}{2,})?"
_NAME_WORD = r"(?:" + LATIN_WORD + r"|\p{Lu}\.|" + _UPPER_WORD + r")"
# "Lindqvist, Gustav" and "KINGSBURY, Fiona": a family name, a comma, a given name.
FAMILY_GIVEN = r"(?:" + LATIN_WORD + r"|" + _UPPER_WORD + r"), " + LATIN_WORD
PARTICLE = r"(?:van der|van den|de la|van|von|der|den|de|da|di|del|della|du|la|le|bin|ibn|al|el|zu|dos|das|do)"  # noqa: E501
NAME = (
    r"(?:" + _NAME_WORD + r"(?: (?:" + PARTICLE + r" )?" + _NAME_WORD + r"){0,3}"
    r"|[\p{Han}々]+ [\p{Han}々]+|[\p{Han}々]{2,}?|[\p{Han}々]+\p{Hiragana}+?"
    r"|\p{Katakana}[\p{Katakana}ー・]+|\p{Hangul}{2,}?"
    r"|\p{Arabic}+(?: \p{Arabic}+){0,3}|\p{Devanagari}+(?: \p{Devanagari}+)?)"
)
# Where a name ends: not inside a word, not a label ("Jane Doe Email:"), or before the
# words that follow a name in CJK, Korean and Hindi sentences.
NAME_END = (
    r"(?:$|[^\p{L}\p{N}:：@_\-]|[.\-][^\p{L}\p{N}]|입니다|이에요|예요|씨|님|です|と申します|さん|様"
    r"|今年|是|的|，| (?:है|हूँ|हूं|हैं|जी|ने|का|की|के|को|से|और))"
)
# Two to four capitalised Latin words, particles between: the shape most rules call a name.
TWO_WORDS = LATIN_WORD + r"(?: (?:" + PARTICLE + r" )?" + LATIN_WORD + r"){1,3}"
# A speaker or a correspondent: two Latin words or more, or a name in another script.
SPEAKER = (
    r"(?:" + TWO_WORDS + r"|[\p{Han}々]{2,4}(?: [\p{Han}々]{1,3})?"
    r"|\p{Katakana}[\p{Katakana}ー・]+|\p{Hangul}{2,4}|\p{Devanagari}+(?: \p{Devanagari}+){1,2}"
    r"|\p{Cyrillic}+ \p{Cyrillic}+)"
)
# A name in a record, in any script: scripts with case (Latin, Greek, Cyrillic) are told
# by their capitals; Hebrew and Thai have none, so a name there is exactly two words of
# the script where a label or key stands before it. "Last, First" and "LAST, First" are
# kept whole; a Japanese given name may be written in kana ("田中 さくら").
_HEBREW_WORD = r"\p{Hebrew}[\p{Hebrew}׳״'\-]*"
_THAI_WORD = r"\p{Thai}+"
ANY_NAME = (
    r"(?:"
    + FAMILY_GIVEN
    + r"|"
    + TWO_WORDS
    + r"|"
    + _HEBREW_WORD
    + r" "
    + _HEBREW_WORD
    + r"|"
    + _THAI_WORD
    + r",? "
    + _THAI_WORD
    + r"|[\p{Han}々]{1,3} (?:[\p{Han}々]{1,3}|[\p{Hiragana}\p{Katakana}ー]{2,4})"
    r"|[\p{Han}々]{2,4}|\p{Hangul}{2,4})"
)
# Where a name in a record ends: a quote, a bracket, punctuation or the end of the line.
RECORD_END = r"(?:[\"'<)\]},;:!。，、]|\\\"|[ \t]*(?:[—–(]|\r?(?m:$))|\.(?:[ \t]|\r?(?m:$)))"
# Closings of letters and mails, before the writer's name on the next or the same line.
CLOSINGS = (
    r"best regards|kind regards|warm regards|regards|best wishes|cheers|thanks|thank you"
    r"|many thanks|sincerely|yours sincerely|yours truly|best|all the best|take care"
    r"|mit freundlichen grüßen|mit freundlichen grüssen|freundliche grüße|viele grüße"
    r"|liebe grüße|beste grüße|grüße|gruß|cordialement|bien cordialement|bien à vous"
    r"|amicalement|saludos|saludos cordiales|atentamente|un saludo|cordiali saluti"
    r"|distinti saluti|un saluto|met vriendelijke groet|groet|groeten|atenciosamente|att\.?"
    r"|abraços|pozdrawiam|z poważaniem|с уважением|всего доброго|敬具|此致敬礼"
)
