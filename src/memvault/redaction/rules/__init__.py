"""The built-in detectors, in one ordered registry, one module per concept.

The order is the tie-break order: where two findings overlap with the same
priority and the same length at the same place, the rule listed first wins
(the filter sorts candidate rules by their index here before it resolves
overlaps). ``tests/unit/redaction/test_registry.py`` pins it, so that moving a
rule between modules can never change what is found without a test saying so.

Concepts run from the most specific to the least: provider tokens and keys by
their prefixes, credentials by their key names, in prose and in tools' formats,
then contact details, payment numbers, passports, national ids, dates of birth,
street addresses and person names.
"""

from __future__ import annotations

from ...errors import ConfigurationError
from .._rule import Rule
from . import (
    _addresses,
    _contact,
    _credentials,
    _credentials_formats,
    _credentials_prose,
    _dates,
    _financial,
    _names,
    _names_given,
    _names_labelled,
    _names_messages,
    _names_records,
    _national_ids,
    _national_ids_labelled,
    _passports,
    _tokens,
)

# Each concept's rules, in registry order.
_CONCEPTS: dict[str, tuple[Rule, ...]] = {
    "tokens": _tokens.RULES,
    "credentials": _credentials.RULES,
    "credentials_prose": _credentials_prose.RULES,
    "credentials_formats": _credentials_formats.RULES,
    "contact": _contact.RULES,
    "financial": _financial.RULES,
    "passports": _passports.RULES,
    "national_ids": _national_ids.RULES,
    "national_ids_labelled": _national_ids_labelled.RULES,
    "dates": _dates.RULES,
    "addresses": _addresses.RULES,
    "names": _names.RULES,
    "names_messages": _names_messages.RULES,
    "names_records": _names_records.RULES,
    "names_labelled": _names_labelled.RULES,
    "names_given": _names_given.RULES,
}
CONCEPTS: tuple[str, ...] = tuple(_CONCEPTS)


def _registry() -> dict[str, Rule]:
    rules: dict[str, Rule] = {}
    for concept in _CONCEPTS.values():
        for rule in concept:
            if rule.name in rules:
                raise ConfigurationError(f"two built-in detectors are named {rule.name}")
            rules[rule.name] = rule
    return rules


BUILTIN: dict[str, Rule] = _registry()


def concept(name: str) -> tuple[Rule, ...]:
    """The rules of one concept (one of :data:`CONCEPTS`), in registry order."""
    try:
        return _CONCEPTS[name]
    except KeyError:
        raise KeyError(f"no concept {name!r}; the concepts are: {', '.join(CONCEPTS)}") from None


__all__ = ["BUILTIN", "CONCEPTS", "concept"]
