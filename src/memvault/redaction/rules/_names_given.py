"""Detection rules for person names without a cue: a known given name followed by a
family name ("Naledi Botha called again"), or a family name, a comma and a given name
("Botha, Naledi").

A given name alone is the cue, so the words after it must look like a family name: a
capital and then lower-case letters in any cased script, joined by the particles family
names take ("van der", "da", "bin", "al-"), none a word that follows given names in
ordinary text ("Victoria Island", "Grace Hopper Award"), and not followed by another
capitalised word, as in a title or a heading in title case. A Markdown heading that opens
with four capitalised words is consumed whole without a finding.

The gazetteer is a word list (``data/given_names.txt``, by region), less the names that
are also everyday words (``data/common_words.txt``). These rules run last, after every
rule that reads a name from its context, and rank below them.
"""

from __future__ import annotations

import re

from .. import checks
from .._rule import Rule

# Longest first, so that a name is never cut to a shorter name it begins with.
_GIVEN = (
    "(?:"
    + "|".join(re.escape(n) for n in sorted(checks.GIVEN_NAMES, key=lambda n: (-len(n), n)))
    + ")"
)

_LOWER = r"[\p{Ll}\p{M}]"
# Smith, O'Brien, McDonald, DeSouza, al-Rashid, Smith-Jones, Müller, Петров, Παπαδόπουλος.
_FAMILY = (
    r"(?:(?:Mc|Mac|O['’]|D['’]|L['’]|Di|De|Da|Le|La|Van|Von|Fitz|[Aa]l-|[Ee]l-)?\p{Lu}"
    + _LOWER
    + r"+(?:-\p{Lu}"
    + _LOWER
    + r"+)?)"
)
_PARTICLE = (
    r"(?:van der|van den|van de|von der|von dem|de la|de los|de las|van|von|del|de|da|das|do"
    r"|dos|di|du|della|dei|degli|ter|ten|bin|binti|bint|bt\.?|bte|ibn|ben|bat|al|el|zu|af|av)"
)
_WORD = r"\p{Lu}[\p{L}\p{M}'’\-]*"
# Where a name can start: not inside a word, an identifier, an address, a path or a URL.
_LEAD = r"(?:(?m:^)|[^\p{L}\p{M}\p{N}_@./\\:#$%&=+~\-])"
# Where it ends: the end of a line, a space and a word that is not capitalised or a number,
# or punctuation that is not part of a file name, an address or an identifier.
_END = (
    r"(?:[ \t]*\r?(?m:$)|[ \t]+[^\p{Lu}\p{N}\s]|[.\-–—](?:[^\p{L}\p{N}_]|(?m:$))"
    r"|[^\p{L}\p{M}\p{N}\s_@./\\\-])"
)
_GIVEN_FAMILY = (
    # A Markdown heading that opens with four capitalised words is a title in title case
    # ("## The Grace Hopper Award Committee"): consumed whole, never a finding. Elsewhere
    # the end of a name does the work (a capitalised word after it is no name's end):
    # tracking runs of capitalised words everywhere would multiply the states of the
    # automaton that walks the given names.
    r"(?m:^)[ \t]*#{1,6}[ \t]+(?:"
    + _WORD
    + r"[ \t]+){3,}"
    + _WORD
    + r"|"
    + _LEAD
    + r"(?P<value>"
    + _GIVEN
    + r"(?:[ \t]\p{Lu}\.)?(?:[ \t]+(?:"
    + _PARTICLE
    + r"[ \t]+)?"
    + _FAMILY
    + r"){1,3})"
    + _END
)
_FAMILY_GIVEN = (
    r"(?:(?m:^)[ \t]*(?:[-*•>][ \t]+)?|[:;(|\t][ \t]*)(?P<value>"
    + _FAMILY
    + r"(?:[ \t]+"
    + _FAMILY
    + r")?,[ \t]"
    + _GIVEN
    + r"(?:[ \t]+(?:\p{Lu}"
    + _LOWER
    + r"+|\p{Lu}\.))?)(?:[ \t]*\r?(?m:$)|[ \t]*[;|)\]]|[ \t]+\()"
)
# The first pass looks for the shapes alone, not for the names: a set holding every given
# name is a large automaton, and running it over every text costs more than running the
# rule's own pattern on the texts that hold two capitalised words in a row.
_GIVEN_FAMILY_CUE = r"\p{Lu}[\p{Ll}\p{M}]+[ \t]+(?:\p{Lu}|[a-z]{1,5}[ \t])"
_FAMILY_GIVEN_CUE = (
    r"\p{Ll},[ \t]\p{Lu}[\p{L}\p{M}'’\-]+(?:[ \t]+\p{Lu}(?:[\p{Ll}\p{M}]+|\.))?"
    r"[ \t]*(?:[;|)\](\r\n]|$)"
)

RULES: tuple[Rule, ...] = (
    Rule(
        name="person_name_given",
        kind="person_name",
        category="personal",
        pattern=_GIVEN_FAMILY,
        validator=checks.family_name,
        priority=2,
        gate="cues",
        cue=_GIVEN_FAMILY_CUE,
        description="a known given name and a family name in running text "
        "('Naledi Botha called', 'spoke with Ahmad Faizal bin Yusof')",
    ),
    Rule(
        name="person_name_given_reversed",
        kind="person_name",
        category="personal",
        pattern=_FAMILY_GIVEN,
        validator=checks.family_name,
        priority=2,
        gate="cues",
        cue=_FAMILY_GIVEN_CUE,
        description="a family name, a comma and a known given name in a list ('Botha, Naledi')",
    ),
)
