"""The passphrase provider: derivation, recorded parameters, and where passphrases come from."""

from __future__ import annotations

import base64
import json
import os
import pickle
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from memvault import ConfigurationError, MasterKeyError, UsageError, _crypto, keys
from memvault.keys import PASSPHRASE_FLOOR, PassphraseKey

VECTORS = Path(__file__).resolve().parents[2] / "vectors" / "passphrase_keys.json"
VAULT = "0123456789abcdef0123456789abcdef"
GOOD = "correct horse battery staple"
OTHER = "incorrect horse battery staple"


def cheap(**kwargs: Any) -> PassphraseKey:
    """A provider at the floor's costs: legal, and fast enough for tests."""
    return PassphraseKey(cost=PASSPHRASE_FLOOR, **kwargs)


@pytest.fixture
def fd_with() -> Iterator[Callable[[bytes], int]]:
    """Makes a pipe holding the given bytes (writer closed) and returns its read end."""
    opened: list[int] = []

    def make(data: bytes) -> int:
        read, write = os.pipe()
        os.write(write, data)
        os.close(write)
        opened.append(read)
        return read

    yield make
    for fd in opened:
        os.close(fd)


@dataclass
class Terminal:
    """Standard input is a terminal: each prompt takes the next answer."""

    answers: list[str] = field(default_factory=list)
    prompts: list[str] = field(default_factory=list)

    def isatty(self) -> bool:
        return True

    def getpass(self, prompt: str = "") -> str:
        self.prompts.append(prompt)
        if not self.answers:
            raise EOFError
        return self.answers.pop(0)


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch) -> Terminal:
    terminal = Terminal()
    monkeypatch.setattr("sys.stdin", terminal)
    monkeypatch.setattr("getpass.getpass", terminal.getpass)
    return terminal


def test_round_trip_gives_the_same_key(monkeypatch: pytest.MonkeyPatch) -> None:
    """A key minted from a passphrase is derived again from the recorded params."""
    monkeypatch.setenv(keys.ENV_PASSPHRASE, GOOD)
    minted = cheap().mint(VAULT, replacing=False)
    assert cheap().keys(VAULT, minted.params) == [minted.key]


def test_a_different_passphrase_gives_a_different_key(monkeypatch: pytest.MonkeyPatch) -> None:
    """Another passphrase derives another key (the vault's key check then refuses it)."""
    monkeypatch.setenv(keys.ENV_PASSPHRASE, GOOD)
    minted = cheap().mint(VAULT, replacing=False)
    monkeypatch.setenv(keys.ENV_PASSPHRASE, OTHER)
    assert cheap().keys(VAULT, minted.params) != [minted.key]


def test_params_hold_the_costs_and_a_salt_and_no_secret(monkeypatch: pytest.MonkeyPatch) -> None:
    """The record is the KDF, a 16-byte salt and the costs: neither passphrase nor key."""
    monkeypatch.setenv(keys.ENV_PASSPHRASE, GOOD)
    minted = cheap().mint(VAULT, replacing=False)
    assert set(minted.params) == {"kdf", "salt", "memory_kib", "iterations", "lanes"}
    assert minted.params["kdf"] == "argon2id"
    assert (minted.params["memory_kib"], minted.params["iterations"]) == (19456, 2)
    assert len(base64.b64decode(str(minted.params["salt"]))) == 16
    text = json.dumps(minted.params)
    raw = minted.key.export_raw()
    for secret in (GOOD, base64.b64encode(raw).decode(), raw.hex(), raw.decode("latin-1")):
        assert secret not in text


def test_each_mint_draws_a_fresh_salt(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same passphrase minted twice gives two salts and two keys."""
    monkeypatch.setenv(keys.ENV_PASSPHRASE, GOOD)
    first, second = cheap().mint(VAULT, replacing=False), cheap().mint(VAULT, replacing=True)
    assert first.params["salt"] != second.params["salt"]
    assert first.key != second.key


def test_defaults_are_rfc_9106_second_option() -> None:
    """Argon2id with 64 MiB, 3 passes and 4 lanes unless told otherwise."""
    assert keys.PassphraseCost().of("argon2id") == {
        "memory_kib": 65536,
        "iterations": 3,
        "lanes": 4,
    }
    assert keys.PassphraseCost().of("scrypt") == {"n": 2**17, "r": 8, "p": 1}


def test_scrypt_round_trip(monkeypatch: pytest.MonkeyPatch) -> None:
    """The scrypt fallback records n, r, p and derives the same key again."""
    monkeypatch.setenv(keys.ENV_PASSPHRASE, GOOD)
    minted = cheap(kdf="scrypt").mint(VAULT, replacing=False)
    assert set(minted.params) == {"kdf", "salt", "n", "r", "p"}
    assert (minted.params["kdf"], minted.params["n"]) == ("scrypt", 2**15)
    provider = cheap()
    assert provider.keys(VAULT, minted.params) == [minted.key]
    assert provider.describe() == "passphrase (scrypt)"


@pytest.mark.parametrize("vector", json.loads(VECTORS.read_text())["vectors"])
def test_known_answer_vectors(vector: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """Recorded params and a passphrase give the key of the vector file (Argon2id checked
    against the reference implementation, scrypt against hashlib)."""
    monkeypatch.setenv(keys.ENV_PASSPHRASE, vector["passphrase"])
    [key] = PassphraseKey().keys(VAULT, vector["params"])
    assert key.export_raw().hex() == vector["key"]


def test_passphrases_are_nfc_normalized(monkeypatch: pytest.MonkeyPatch) -> None:
    """A decomposed é (as some systems type it) derives the same key as a composed one."""
    composed = "Grüße aus Zürich, café"
    monkeypatch.setenv(keys.ENV_PASSPHRASE, composed)
    minted = cheap().mint(VAULT, replacing=False)
    monkeypatch.setenv(keys.ENV_PASSPHRASE, unicodedata.normalize("NFD", composed))
    assert cheap().keys(VAULT, minted.params) == [minted.key]


RECORD = {"kdf": "argon2id", "salt": "AAECAwQFBgcICQoLDA0ODw==", "lanes": 1}


ARGON2 = {**RECORD, "memory_kib": 19456, "iterations": 2}
SCRYPT = {"kdf": "scrypt", "salt": RECORD["salt"], "n": 2**15, "r": 8, "p": 1}


@pytest.mark.parametrize(
    ("record", "problem"),
    [
        ({**ARGON2, "memory_kib": 1024}, "argon2id memory_kib 1024 is below the minimum 19456"),
        ({**ARGON2, "iterations": 1}, "argon2id iterations 1 is below the minimum 2"),
        ({**ARGON2, "lanes": 0}, "argon2id lanes 0 is below the minimum 1"),
        ({**ARGON2, "memory_kib": 1 << 23}, "argon2id memory_kib 8388608 is above the maximum"),
        ({**ARGON2, "iterations": 1000}, "argon2id iterations 1000 is above the maximum 64"),
        ({**SCRYPT, "n": 2**14}, "scrypt n 16384 is below the minimum 32768"),
        ({**SCRYPT, "r": 1}, "scrypt r 1 is below the minimum 8"),
        ({**SCRYPT, "n": 2**15 + 1}, "scrypt n 32769 is not a power of two"),
        ({**SCRYPT, "n": 2**22, "r": 16}, "scrypt n and r together need more than 4 GiB"),
    ],
)
def test_recorded_costs_out_of_bounds_are_refused(
    record: dict[str, Any], problem: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Costs lowered below the floor (or raised past the ceiling) in the store are refused
    before any derivation, and the passphrase is not even asked for."""
    monkeypatch.setenv(keys.ENV_PASSPHRASE, GOOD)
    with pytest.raises(MasterKeyError) as caught:
        cheap().keys(VAULT, record)
    assert str(caught.value).startswith(
        f"the vault's recorded passphrase costs are refused: {problem}"
    )
    assert "restore the vault from a backup" in (caught.value.hint or "")


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({**RECORD, "kdf": "pbkdf2"}, "the vault's passphrase record names no key derivation"),
        ({"salt": RECORD["salt"]}, "the vault's passphrase record names no key derivation"),
        ({**RECORD, "memory_kib": 19456}, "the vault's passphrase record is damaged"),
        ({**RECORD, "memory_kib": "19456", "iterations": 2}, "passphrase record is damaged"),
        ({**RECORD, "memory_kib": True, "iterations": 2}, "passphrase record is damaged"),
        ({**RECORD, "memory_kib": 19456, "iterations": 2, "salt": "*"}, "record is damaged"),
        ({**RECORD, "memory_kib": 19456, "iterations": 2, "salt": "AAEC"}, "record is damaged"),
    ],
)
def test_damaged_records_are_refused(params: dict[str, Any], message: str) -> None:
    """A record with a missing, mistyped or short field is refused with a clear error."""
    with pytest.raises(MasterKeyError, match=message):
        cheap().keys(VAULT, params)


def test_costs_below_the_floor_are_refused_at_construction() -> None:
    """A caller cannot mint with costs under the floor either."""
    weak = keys.PassphraseCost(memory_kib=8192, iterations=2, lanes=1, n=2**15)
    with pytest.raises(UsageError, match="argon2id memory_kib 8192 is below the minimum 19456"):
        PassphraseKey(cost=weak)
    with pytest.raises(UsageError, match="unknown passphrase KDF 'pbkdf2'"):
        PassphraseKey(kdf="pbkdf2")


def test_a_kdf_missing_here_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """A vault made with Argon2id, opened where cryptography lacks it, says what to install."""
    monkeypatch.setattr(_crypto, "passphrase_kdfs", lambda: ("scrypt",))
    monkeypatch.setenv(keys.ENV_PASSPHRASE, GOOD)
    with pytest.raises(ConfigurationError, match="the passphrase KDF argon2id is not available"):
        cheap().keys(VAULT, ARGON2)
    assert cheap().describe() == "passphrase (scrypt)"


def test_fd_source_reads_the_first_line_only(fd_with: Callable[[bytes], int]) -> None:
    """The passphrase is the descriptor's first line; what follows stays unread."""
    fd = fd_with(f"{GOOD}\r\nnext line\n".encode())
    minted = cheap(fd=fd).mint(VAULT, replacing=False)
    assert os.read(fd, 100) == b"next line\n"
    assert cheap(fd=fd_with(GOOD.encode())).keys(VAULT, minted.params) == [minted.key]


def test_fd_source_comes_before_the_environment(
    fd_with: Callable[[bytes], int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """With both given, the descriptor's passphrase is used."""
    monkeypatch.setenv(keys.ENV_PASSPHRASE, OTHER)
    minted = cheap(fd=fd_with(f"{GOOD}\n".encode())).mint(VAULT, replacing=False)
    monkeypatch.setenv(keys.ENV_PASSPHRASE, GOOD)
    assert cheap().keys(VAULT, minted.params) == [minted.key]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"\n", "the passphrase is empty"),
        (b"", "the passphrase is empty"),
        (b"\xff\xfe not text\n", "the passphrase on file descriptor \\d+ is not UTF-8 text"),
        (b"x" * 2000, "the passphrase on file descriptor \\d+ is longer than 1024 bytes"),
    ],
)
def test_bad_fd_contents_are_refused(
    data: bytes, message: str, fd_with: Callable[[bytes], int]
) -> None:
    """An empty, non-UTF-8 or overlong passphrase on the descriptor is refused."""
    with pytest.raises(MasterKeyError, match=message):
        cheap(fd=fd_with(data)).mint(VAULT, replacing=False)


def test_an_unreadable_fd_is_a_clear_error() -> None:
    """A descriptor that is not open says so and how to pass one."""
    read, write = os.pipe()
    try:
        with pytest.raises(MasterKeyError) as caught:
            cheap(fd=write).keys(VAULT, ARGON2)
    finally:
        os.close(read)
        os.close(write)
    assert str(caught.value).startswith(
        f"cannot read the passphrase from file descriptor {write}: "
    )
    assert (
        caught.value.hint == "pass the number of a descriptor open for reading, e.g. 3 with 3<FILE"
    )


def test_new_passphrase_sources(
    fd_with: Callable[[bytes], int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A rotation's provider reads $MEMVAULT_NEW_PASSPHRASE, never $MEMVAULT_PASSPHRASE."""
    monkeypatch.setenv(keys.ENV_PASSPHRASE, OTHER)
    monkeypatch.setenv(keys.ENV_NEW_PASSPHRASE, GOOD)
    minted = cheap(new=True).mint(VAULT, replacing=True)
    assert cheap(fd=fd_with(GOOD.encode())).keys(VAULT, minted.params) == [minted.key]


def test_too_short_a_passphrase_is_refused_at_mint(monkeypatch: pytest.MonkeyPatch) -> None:
    """Minting says the rule; opening with a short passphrase just derives (a wrong) key."""
    monkeypatch.setenv(keys.ENV_PASSPHRASE, "short pass")
    with pytest.raises(MasterKeyError) as caught:
        cheap().mint(VAULT, replacing=False)
    assert str(caught.value) == (
        "the passphrase is too short: a vault's passphrase must be at least 12 characters long"
    )
    monkeypatch.setenv(keys.ENV_NEW_PASSPHRASE, "short pass")
    with pytest.raises(MasterKeyError, match=r"^the new passphrase is too short"):
        cheap(new=True).mint(VAULT, replacing=True)
    assert len(cheap().keys(VAULT, ARGON2)) == 1


def test_an_empty_environment_passphrase_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """$MEMVAULT_PASSPHRASE set to nothing is an empty passphrase, refused."""
    monkeypatch.setenv(keys.ENV_PASSPHRASE, "")
    with pytest.raises(MasterKeyError, match=r"^the passphrase is empty$"):
        cheap().keys(VAULT, ARGON2)


def test_no_terminal_and_no_source_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without fd, environment or terminal, the error says how to give the passphrase."""
    monkeypatch.setattr("sys.stdin", None)
    with pytest.raises(MasterKeyError) as caught:
        cheap().keys(VAULT, ARGON2)
    assert str(caught.value) == (
        f"no passphrase for vault {VAULT}: standard input is not a terminal to ask on"
    )
    assert caught.value.hint == (
        "give the passphrase on a file descriptor (--passphrase-fd N), in "
        "$MEMVAULT_PASSPHRASE, or at a terminal"
    )
    with pytest.raises(MasterKeyError) as caught:
        cheap(new=True).mint(VAULT, replacing=True)
    assert str(caught.value).startswith("no new passphrase for vault")
    assert "--new-passphrase-fd N" in (caught.value.hint or "")
    assert "$MEMVAULT_NEW_PASSPHRASE" in (caught.value.hint or "")


def test_prompt_once_to_open_twice_to_set(terminal: Terminal) -> None:
    """Minting asks twice, opening once, and one provider asks only once however often
    it is used."""
    terminal.answers.extend([GOOD, GOOD])
    provider = cheap()
    minted = provider.mint(VAULT, replacing=False)
    assert provider.keys(VAULT, minted.params) == [minted.key]
    assert terminal.prompts == [f"Passphrase for vault {VAULT}: ", "Repeat the passphrase: "]
    terminal.answers.append(GOOD)
    assert cheap().keys(VAULT, minted.params) == [minted.key]
    assert terminal.answers == []
    assert terminal.prompts[2:] == [f"Passphrase for vault {VAULT}: "]


@pytest.mark.parametrize("new", [False, True])
def test_prompt_twice_must_match(terminal: Terminal, new: bool) -> None:
    """Two different passphrases at the prompts are refused; nothing is minted."""
    terminal.answers.extend([GOOD, OTHER])
    what = "new passphrase" if new else "passphrase"
    with pytest.raises(MasterKeyError, match=f"^the two {what}s typed do not match$"):
        cheap(new=new).mint(VAULT, replacing=new)
    if new:
        assert terminal.prompts == [
            f"New passphrase for vault {VAULT}: ",
            "Repeat the new passphrase: ",
        ]


def test_end_of_input_at_the_prompt(terminal: Terminal) -> None:
    """Ctrl-D at the prompt is a clear error, not a traceback."""
    with pytest.raises(MasterKeyError, match=r"^no passphrase was typed \(end of input\)$"):
        cheap().keys(VAULT, ARGON2)


def test_the_derived_key_is_cached_per_provider(
    fd_with: Callable[[bytes], int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """keys() twice derives once (a descriptor can be read only once anyway)."""
    monkeypatch.setenv(keys.ENV_PASSPHRASE, GOOD)
    params = cheap().mint(VAULT, replacing=False).params
    calls: list[str] = []
    derive = _crypto.derive_from_passphrase

    def counting(*args: Any, **kwargs: Any) -> _crypto.Key:
        calls.append("derive")
        return derive(*args, **kwargs)

    monkeypatch.setattr(_crypto, "derive_from_passphrase", counting)
    provider = cheap(fd=fd_with(GOOD.encode()))
    assert provider.keys(VAULT, params) == provider.keys(VAULT, params)
    assert calls == ["derive"]


def test_providers_hide_the_passphrase(monkeypatch: pytest.MonkeyPatch) -> None:
    """repr names the KDF only; a provider cannot be pickled."""
    monkeypatch.setenv(keys.ENV_PASSPHRASE, GOOD)
    provider = cheap()
    provider.mint(VAULT, replacing=False)
    assert repr(provider) == "<PassphraseKey passphrase (argon2id)>"
    assert provider.describe() == "passphrase (argon2id)"
    with pytest.raises(TypeError):
        pickle.dumps(provider)


def test_options_choose_the_passphrase_provider(
    fd_with: Callable[[bytes], int], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """provider_for reads --passphrase-fd; new_provider_for reads --new-passphrase-fd."""
    home = tmp_path / "home"
    options = keys.ProviderOptions(
        kind="passphrase",
        passphrase_fd=fd_with(f"{GOOD}\n".encode()),
        new_passphrase_fd=fd_with(f"{OTHER}\n".encode()),
    )
    current = keys.provider_for(options, VAULT, home, "passphrase")
    assert isinstance(current, PassphraseKey)
    old = current.mint(VAULT, replacing=False)
    rotation = keys.new_provider_for(options, VAULT, home, current)
    assert isinstance(rotation, PassphraseKey)
    new = rotation.mint(VAULT, replacing=True)
    monkeypatch.setenv(keys.ENV_PASSPHRASE, OTHER)
    assert cheap().keys(VAULT, new.params) == [new.key]
    monkeypatch.setenv(keys.ENV_PASSPHRASE, GOOD)
    assert cheap().keys(VAULT, old.params) == [old.key]


def test_the_kdfs_available_here() -> None:
    """scrypt is always there; Argon2id comes first when the cryptography build has it."""
    kdfs = _crypto.passphrase_kdfs()
    assert kdfs[-1] == "scrypt"
    assert set(kdfs) <= {"argon2id", "scrypt"}
