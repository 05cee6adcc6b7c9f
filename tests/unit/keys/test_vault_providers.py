"""Vaults kept by the passphrase and KMS providers: they open, and refuse clearly, changing
nothing, when the passphrase, the KMS or its key is wrong."""

from __future__ import annotations

import io
import json
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from memvault import MasterKeyError, Vault
from memvault.cli import main
from memvault.keys import PASSPHRASE_FLOOR, PassphraseKey, ProviderOptions
from tests.support import stores
from tests.support.kms import Kms, free_port

GOOD = "correct horse battery staple"
OTHER = "incorrect horse battery staple"
NOTE = "/memories/note.md"


def _files(home: Path) -> dict[str, Any]:
    """What the vault holds (a home's files, or a database's rows): the bytes a failed
    open must not touch."""
    return stores.snapshot(home)


def _write(vault: Vault, text: str = "kept\n") -> None:
    reply = vault.runner("alice").run({"command": "create", "path": NOTE, "file_text": text})
    assert not reply.is_error, reply.content


def _read(vault: Vault) -> str:
    reply = vault.runner("alice").run({"command": "view", "path": NOTE})
    assert not reply.is_error, reply.content
    return "\n".join(line.split("\t", 1)[1] for line in reply.content.split("\n")[1:])


@pytest.fixture
def fd_with() -> Iterator[Callable[[str], int]]:
    """Makes a pipe holding the given text and a newline; returns its read end."""
    opened: list[int] = []

    def make(text: str) -> int:
        read, write = os.pipe()
        os.write(write, f"{text}\n".encode())
        os.close(write)
        opened.append(read)
        return read

    yield make
    for fd in opened:
        os.close(fd)


@pytest.fixture
def passphrase_home(home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A vault created with a passphrase (at the floor's costs), holding one memory."""
    monkeypatch.setenv("MEMVAULT_PASSPHRASE", GOOD)
    with Vault.open(home, key_provider=PassphraseKey(cost=PASSPHRASE_FLOOR)) as vault:
        _write(vault)
    monkeypatch.delenv("MEMVAULT_PASSPHRASE")
    return home


def test_a_passphrase_vault_opens_with_its_passphrase(
    passphrase_home: Path, fd_with: Callable[[str], int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The vault records its provider: the passphrase alone opens it, from fd or env."""
    options = ProviderOptions(passphrase_fd=fd_with(GOOD))
    with Vault.open(passphrase_home, key_provider=options) as vault:
        assert _read(vault) == "kept\n"
        assert vault.key_source == "passphrase (argon2id)"
    monkeypatch.setenv("MEMVAULT_PASSPHRASE", GOOD)
    with Vault.open(passphrase_home) as vault:
        assert _read(vault) == "kept\n"


def test_a_wrong_passphrase_is_refused_and_changes_nothing(
    passphrase_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another passphrase: a clear error at open, and not a byte of the home changes."""
    before = _files(passphrase_home)
    monkeypatch.setenv("MEMVAULT_PASSPHRASE", OTHER)
    with pytest.raises(MasterKeyError) as caught:
        Vault.open(passphrase_home)
    assert str(caught.value).startswith("the master key from passphrase (argon2id) does not open")
    assert "the wrong passphrase was given" in (caught.value.hint or "")
    assert _files(passphrase_home) == before


def test_no_passphrase_without_a_terminal_changes_nothing(
    passphrase_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No fd, no environment, no terminal: the error says how to give it."""
    before = _files(passphrase_home)
    monkeypatch.setattr("sys.stdin", None)
    with pytest.raises(MasterKeyError, match="standard input is not a terminal to ask on"):
        Vault.open(passphrase_home)
    assert _files(passphrase_home) == before


def test_rotating_to_a_new_passphrase(
    passphrase_home: Path, fd_with: Callable[[str], int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """rotate-master with a new passphrase: the new one opens the vault, the old one not."""
    monkeypatch.setenv("MEMVAULT_PASSPHRASE", GOOD)
    with Vault.open(passphrase_home) as vault:
        result = vault.rotate_master_key(ProviderOptions(new_passphrase_fd=fd_with(OTHER)))
        assert (result.from_generation, result.to_generation) == (1, 2)
    with pytest.raises(MasterKeyError, match="does not open"):
        Vault.open(passphrase_home)
    monkeypatch.setenv("MEMVAULT_PASSPHRASE", OTHER)
    with Vault.open(passphrase_home) as vault:
        assert _read(vault) == "kept\n"


@pytest.fixture
def kms_home(kms: Kms, home: Path) -> tuple[Path, str]:
    """A vault whose master key is a data key under a new KMS key; (home, key ARN)."""
    arn = kms.create_key()
    options = ProviderOptions(kind="kms", kms_key_id=arn, kms_endpoint=kms.endpoint)
    with Vault.open(home, key_provider=options) as vault:
        _write(vault)
    return home, arn


def test_a_kms_vault_opens_through_the_endpoint(kms: Kms, kms_home: tuple[Path, str]) -> None:
    """The recorded key, region and wrapped key are all an open needs besides the endpoint."""
    home, arn = kms_home
    with Vault.open(home, key_provider=ProviderOptions(kms_endpoint=kms.endpoint)) as vault:
        assert _read(vault) == "kept\n"
        assert vault.key_source == f"kms:{arn}"


def test_an_unreachable_kms_fails_at_open_fast_and_changes_nothing(
    kms_home: tuple[Path, str],
) -> None:
    """A closed port: a clear error within seconds; the home is untouched."""
    home, arn = kms_home
    before = _files(home)
    endpoint = f"http://127.0.0.1:{free_port()}"
    started = time.monotonic()
    with pytest.raises(MasterKeyError) as caught:
        Vault.open(home, key_provider=ProviderOptions(kms_endpoint=endpoint))
    assert time.monotonic() - started < 5
    assert str(caught.value) == f"cannot reach AWS KMS at {endpoint} to use the key {arn}"
    assert _files(home) == before


def test_another_kms_key_id_at_open_changes_nothing(kms: Kms, kms_home: tuple[Path, str]) -> None:
    """--kms-key-id naming another key than the vault records: refused, nothing changed."""
    home, arn = kms_home
    other = kms.create_key()
    before = _files(home)
    options = ProviderOptions(kms_key_id=other, kms_endpoint=kms.endpoint)
    with pytest.raises(MasterKeyError) as caught:
        Vault.open(home, key_provider=options)
    assert str(caught.value) == (
        f"this vault's master key is wrapped by the KMS key {arn}, not {other}"
    )
    assert _files(home) == before


def test_a_wrapped_key_from_another_vault_fails_at_open_and_changes_nothing(
    kms: Kms, kms_home: tuple[Path, str], tmp_path: Path
) -> None:
    """A vault's record swapped for another vault's (same KMS key): KMS refuses the wrapped
    key under this vault's encryption context; nothing changes."""
    home, arn = kms_home
    other = tmp_path / "other"
    options = ProviderOptions(kind="kms", kms_key_id=arn, kms_endpoint=kms.endpoint)
    Vault.open(other, key_provider=options).close()
    foreign = _meta(other, "master")
    stores.execute(home, "UPDATE meta SET value = ? WHERE key = 'master'", (foreign,))
    before = _files(home)
    with pytest.raises(MasterKeyError) as caught:
        Vault.open(home, key_provider=ProviderOptions(kms_endpoint=kms.endpoint))
    assert str(caught.value) == (
        f"the KMS key {arn} refused the vault's wrapped master key: it belongs to another "
        f"vault or is damaged ({kms.endpoint})"
    )
    assert _files(home) == before


def test_rotating_to_another_kms_key(kms: Kms, kms_home: tuple[Path, str]) -> None:
    """rotate-master --new-kms-key-id: the vault moves to the new KMS key."""
    home, _ = kms_home
    other = kms.create_key()
    opening = ProviderOptions(kms_endpoint=kms.endpoint)
    with Vault.open(home, key_provider=opening) as vault:
        vault.rotate_master_key(ProviderOptions(kms_key_id=other))
    with Vault.open(home, key_provider=opening) as vault:
        assert _read(vault) == "kept\n"
        assert vault.key_source == f"kms:{other}"


def _meta(home: Path, key: str) -> bytes:
    ((value,),) = stores.execute(home, "SELECT value FROM meta WHERE key = ?", (key,))
    return bytes(value)


def _cli(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def test_rotate_master_raises_the_passphrase_costs(
    passphrase_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same passphrase under higher Argon2id costs: recorded, listed, and it opens."""
    monkeypatch.setenv("MEMVAULT_PASSPHRASE", GOOD)
    monkeypatch.setenv("MEMVAULT_NEW_PASSPHRASE", GOOD)
    home = ["--home", str(passphrase_home)]
    before = json.loads(_cli([*home, "keys", "list", "--json"])[1])["master"]["costs"]
    assert before == {"kdf": "argon2id", "memory_kib": 19456, "iterations": 2, "lanes": 1}
    code, _, err = _cli(
        [*home, "keys", "rotate-master", "--kdf-memory", "24", "--kdf-iterations", "3"]
    )
    assert (code, err) == (0, "")
    master = json.loads(_cli([*home, "keys", "list", "--json"])[1])["master"]
    assert master["generation"] == 2
    assert master["costs"] == {"kdf": "argon2id", "memory_kib": 24576, "iterations": 3, "lanes": 4}
    with Vault.open(passphrase_home) as vault:
        assert _read(vault) == "kept\n"


def test_passphrase_costs_out_of_bounds_or_for_another_provider_are_refused(
    passphrase_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Below the floor, or given for a key file: a usage error; nothing changes."""
    monkeypatch.setenv("MEMVAULT_PASSPHRASE", GOOD)
    monkeypatch.setenv("MEMVAULT_NEW_PASSPHRASE", GOOD)
    before = _files(passphrase_home)
    code, out, err = _cli(
        ["--home", str(passphrase_home), "keys", "rotate-master", "--kdf-memory", "8"]
    )
    assert (code, out) == (2, "")
    assert err == (
        "memvault: error: passphrase cost out of bounds: argon2id memory_kib 8192 is below the "
        "minimum 19456\nmemvault: hint: Argon2id takes 19 MiB to 4 GiB of memory, 2 to 64 "
        "passes and 1 to 64 lanes (PASSPHRASE_FLOOR, PASSPHRASE_CEILING); nothing was changed\n"
    )
    assert _files(passphrase_home) == before
    monkeypatch.delenv("MEMVAULT_MASTER_KEY", raising=False)
    other = tmp_path / "file-home"
    key = ["--master-key-file", str(tmp_path / "k" / "v.key")]
    assert _cli(["--home", str(other), *key, "init"])[0] == 0
    before = _files(other)
    code, out, err = _cli(["--home", str(other), *key, "keys", "rotate-master", "--kdf-lanes", "8"])
    assert (code, out) == (2, "")
    assert err.startswith(
        "memvault: error: passphrase costs were given, but the master key is kept by the "
        "file provider\n"
    )
    assert _files(other) == before
