"""The built-in detectors, in one ordered registry.

The order is the tie-break order: where two findings overlap with the same
priority and the same length at the same place, the rule listed first wins
(the filter sorts candidate rules by their index here before it resolves
overlaps). ``tests/unit/redaction/test_registry.py`` pins it, so that moving a
rule between modules can never change what is found without a test saying so.
"""

from __future__ import annotations

from ...errors import ConfigurationError
from .._rule import Rule
from . import (
    _addresses,
    _credentials,
    _formats,
    _ids,
    _ids_intl,
    _names,
    _names_fields,
    _names_given,
    _names_intl,
    _names_lines,
    _personal,
    _secrets,
)


def _registry() -> dict[str, Rule]:
    rules: dict[str, Rule] = {}
    for rule in (
        *_secrets.RULES,
        *_credentials.RULES,
        *_formats.RULES,
        *_personal.RULES,
        *_ids.RULES,
        *_ids_intl.RULES,
        *_names.RULES,
        *_names_lines.RULES,
        *_names_intl.RULES,
        *_names_fields.RULES,
        *_addresses.RULES,
        *_names_given.RULES,
    ):
        if rule.name in rules:
            raise ConfigurationError(f"two built-in detectors are named {rule.name}")
        rules[rule.name] = rule
    return rules


BUILTIN: dict[str, Rule] = _registry()

__all__ = ["BUILTIN"]
