"""User ids are compared in NFC, as names of files are: every spelling of one id is one user."""

from __future__ import annotations

import base64
import io
import json
import os
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memvault import UsageError, Vault
from memvault.cli import main
from memvault.memory import MAX_USER_BYTES, check_user

EMPTY = (
    "Here're the files and directories up to 2 levels deep in /memories, "
    "excluding hidden items and node_modules:\n0B\t/memories"
)


def test_a_decomposed_id_is_the_precomposed_one() -> None:
    """'e' + COMBINING ACUTE ACCENT and 'é' are the same user id, kept in NFC."""
    assert check_user("e\u0301") == "\u00e9"
    assert check_user("Rene\u0301e") == check_user("Ren\u00e9e") == "Ren\u00e9e"
    assert check_user("\u212b") == "\u00c5"  # ANGSTROM SIGN is Å in NFC


def test_ids_that_nfc_leaves_alone_are_returned_as_given() -> None:
    """NFC is not NFKC: compatibility forms stay distinct ids."""
    for user in ("alice", "customer-4711", "ﬁ", "①", "Ｘ", "日本"):
        assert check_user(user) == user


def test_every_spelling_reaches_the_same_memories(home: Path) -> None:
    """A file created as one spelling is read by the other; no second user is made."""
    with Vault.open(home, durability="normal") as v:
        v.memory_tool("Ren\u00e9e").call(
            {"command": "create", "path": "/memories/a.md", "file_text": "shared"}
        )
        decomposed = v.memory_tool("Rene\u0301e")
        assert decomposed.call({"command": "view", "path": "/memories/a.md"}).endswith(
            "\n     1\tshared"
        )
        assert v.memory_tool("Renee").call({"command": "view", "path": "/memories"}) == EMPTY


def test_the_limit_holds_for_the_form_kept() -> None:
    """An id NFC makes longer than the limit is refused; the limit itself is accepted."""
    assert check_user("a" * MAX_USER_BYTES) == "a" * MAX_USER_BYTES
    # U+0958 DEVANAGARI LETTER QA is excluded from composition: NFC writes it as two
    # characters, 3 bytes each, so 85 of them (255 bytes) become 510 bytes.
    grown = "\u0958" * 85
    assert len(grown.encode()) == MAX_USER_BYTES
    with pytest.raises(UsageError) as exc:
        check_user(grown)
    assert str(exc.value) == f"a user id must be at most {MAX_USER_BYTES} bytes of UTF-8"


BASES = st.text(
    st.sampled_from([*"aeiouAEIOUncsz", "\u00e9", "\u00c5", "\u00f1", "\u1e9b"]),
    min_size=1,
    max_size=12,
)


def _spellings(text: str) -> list[str]:
    forms = {unicodedata.normalize(form, text) for form in ("NFC", "NFD")}
    return sorted(forms)


@settings(max_examples=200, deadline=None)
@given(BASES, st.lists(st.sampled_from(["\u0301", "\u0308", "\u0327", "\u030a"]), max_size=3))
def test_canonically_equivalent_ids_are_one_id(base: str, marks: list[str]) -> None:
    """Random ids with accents, composed or not: every canonically equivalent spelling
    checks to one id, which is in NFC."""
    text = base + "".join(marks)
    ids = {check_user(spelling) for spelling in _spellings(text)}
    assert len(ids) == 1
    (only,) = ids
    assert unicodedata.is_normalized("NFC", only)


def test_random_spellings_map_to_one_user(home: Path) -> None:
    """Through a vault: NFC-equivalent spellings of random ids name one user each."""
    with Vault.open(home, durability="normal") as v:

        @settings(max_examples=25, deadline=None)
        @given(BASES, st.sampled_from(["\u0301", "\u0308", "\u030a"]))
        def run(base: str, mark: str) -> None:
            nfc = unicodedata.normalize("NFC", base + mark)
            nfd = unicodedata.normalize("NFD", base + mark)
            v.memory_tool(nfd).call(
                {"command": "create", "path": f"/memories/{len(nfc)}.md", "file_text": nfd}
            )
            listing = v.memory_tool(nfc).call({"command": "view", "path": "/memories"})
            assert f"/memories/{len(nfc)}.md" in listing
            v.memory_tool(nfc).call({"command": "delete", "path": f"/memories/{len(nfc)}.md"})

        run()


def test_audit_show_finds_a_user_by_any_spelling_of_the_id(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`audit show --user` takes the id in NFC too: the decomposed spelling finds them."""
    monkeypatch.setenv("MEMVAULT_MASTER_KEY", base64.b64encode(os.urandom(32)).decode())
    with Vault.open(home) as vault:
        vault.runner("jos\u00e9").run({"command": "view", "path": "/memories"})
    out = io.StringIO()
    argv = ["--home", str(home), "audit", "show", "--json", "--user", "jose\u0301"]
    assert main(argv, out=out, err=io.StringIO()) == 0
    commands = [json.loads(line)["command"] for line in out.getvalue().splitlines()]
    assert commands == ["user.create", "view"]
