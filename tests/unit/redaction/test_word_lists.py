"""The word lists shipped as package data: each says what it is and holds entries."""

from __future__ import annotations

from importlib import resources

import pytest

DATA = resources.files("memvault.redaction") / "data"
LISTS = sorted(entry.name for entry in DATA.iterdir() if entry.name.endswith(".txt"))


def test_the_word_lists_are_there() -> None:
    """The lists the filter reads are package data, so an installed copy has them too."""
    assert "given_names.txt" in LISTS and "dummy_values.txt" in LISTS
    assert len(LISTS) >= 16


@pytest.mark.parametrize("name", LISTS)
def test_each_list_opens_with_what_it_is(name: str) -> None:
    """A comment header says what the list is; its entries are words, none a comment."""
    lines = (DATA / name).read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("# ") and len(lines[0]) > 20, name
    entries = [w for line in lines if not line.startswith("#") for w in line.split()]
    assert entries, name
    assert not any(w.startswith("#") for w in entries), name
