"""Checks of person names: a name, not a label, a role, an organisation or a sentence.

A name is personal data only in context, so the name rules find candidates by the
words around them; these checks then drop the candidates that are something else
("Action Items", "Acme Corp", "担当者様", "Victoria Station").
"""

from __future__ import annotations

import re

from .._words import word_list, word_set

# Words that follow a cue ("Customer:", "Dr.", "Thanks,") without being anyone's name.
_NOT_NAMES = word_set("not_names.txt")
# Words that make a name an organisation's.
_ORGANIZATION = word_set("organization_words.txt")
# Chinese and Japanese words that follow 患者 or 客户 and are not names.
_NOT_HAN_NAMES = word_list("not_han_names.txt")
# Words of labels and headings that take the shape of names ("Action Items:").
_LABEL_WORDS = word_set("label_words.txt")
# Han words that take an honorific and are roles ("担当者様").
_HAN_ROLES = word_set("han_roles.txt")
# Particles of family names, lower case inside a name ("de la", "van der", "bin").
_PARTICLES = word_set("name_particles.txt")

# Given names that are also everyday words, places or brands, never cues on their own.
COMMON_WORDS = word_set("common_words.txt")
# The gazetteer of given names, by region, less those words.
GIVEN_NAMES = word_set("given_names.txt") - COMMON_WORDS
# Words after a given name that make the pair a place, an event or a sentence.
_NOT_FAMILY = word_set("not_family_names.txt") | _LABEL_WORDS


def person_name(value: str) -> bool:
    """A plausible personal name: not a common word, an acronym or an organization."""
    words = value.replace("\u3000", " ").split()
    if not words:
        return False
    first = words[0].rstrip(".,'’").lower()
    if first in _NOT_NAMES or any(w.lower().rstrip(".,") in _ORGANIZATION for w in words[1:]):
        return False
    if len(words) == 1 and len(value) > 1 and value.isupper() and value.isascii():
        return False  # "ACME", "API": acronyms, not people
    return not value.startswith(_NOT_HAN_NAMES)


def name_by_shape(value: str) -> bool:
    """A name by shape alone: a plausible name none of whose words is a label's."""
    return person_name(value) and not any(
        word.strip(".,'’\"").lower() in _LABEL_WORDS for word in value.split()
    )


def han_name(value: str) -> bool:
    """A Han name before an honorific: not a role that takes one ("担当者様")."""
    return value.replace("\u3000", " ").replace(" ", "") not in _HAN_ROLES and person_name(value)


def hl7_name(value: str) -> bool:
    """An HL7 FAMILY^GIVEN name, judged as the words it is made of."""
    return name_by_shape(value.replace("^", " ").title())


def name_list(value: str) -> bool:
    """Every name of a list (or the one name) passes the check of a name by shape: no
    word but a particle starts in lower case, and no word is a label's."""
    parts = [p.strip() for p in re.split(r"[;、，]|, (?=\S+ )|\band\b", value)]
    words = value.replace(",", " ").replace(";", " ").split()
    return all(w[0].islower() is False or w in _PARTICLES or w == "and" for w in words) and all(
        name_by_shape(p) for p in parts if p
    )


def family_name(value: str) -> bool:
    """A given name and a family name: none of the words after a known given name is a
    place, an organisation or a word of a sentence."""
    words = (word.strip(".,'’") for word in value.split())
    return not any(word not in GIVEN_NAMES and word.lower() in _NOT_FAMILY for word in words)
