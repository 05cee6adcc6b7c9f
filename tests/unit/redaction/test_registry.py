"""The registry of built-in detectors: its order, its concepts and the packages' exports."""

from __future__ import annotations

from pathlib import Path

import pytest

from memvault import redaction
from memvault.redaction import BUILTIN, checks, rules

ORDER = Path(__file__).with_name("registry_order.txt")


def _pinned_order() -> list[str]:
    lines = ORDER.read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def test_registry_order_is_pinned() -> None:
    """The detectors are registered in exactly the order of registry_order.txt, which is
    the tie-break order between equal findings: moving a rule shows up here."""
    assert list(BUILTIN) == _pinned_order()


def test_concepts_in_order_make_up_the_registry() -> None:
    """Every detector belongs to one concept, and the concepts, in order, are the registry."""
    assert [rule.name for name in rules.CONCEPTS for rule in rules.concept(name)] == list(BUILTIN)
    assert all(rules.concept(name) for name in rules.CONCEPTS)


def test_an_unknown_concept_is_named_with_the_known_ones() -> None:
    """Asking for a concept that does not exist says which do."""
    with pytest.raises(KeyError, match="no concept 'nope'; the concepts are: tokens, "):
        rules.concept("nope")


def _isort_style(name: str) -> tuple[int, str]:
    """Constants, then classes, then the rest, as ``ruff`` (RUF022) sorts ``__all__``."""
    return (0 if name.isupper() else 1 if name[0].isupper() else 2, name)


@pytest.mark.parametrize("package", [redaction, rules, checks])
def test_exports_are_sorted_and_present(package: object) -> None:
    """Each package's __all__ is sorted and names only what the package holds."""
    names = list(getattr(package, "__all__", []))
    assert names
    assert names == sorted(names, key=_isort_style)
    assert all(hasattr(package, name) for name in names)


def test_every_registered_validator_is_exported() -> None:
    """The validators a policy may name are the checks package's own functions."""
    assert all(getattr(checks, name) is check for name, check in checks.VALIDATORS.items())
