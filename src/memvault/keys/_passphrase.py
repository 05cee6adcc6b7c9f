"""Master keys made from a passphrase: Argon2id, scrypt where Argon2id is missing.

Nothing secret is stored: the vault records the KDF, a fresh 16-byte salt drawn at
each mint and the costs (``kdf``, ``salt``, ``memory_kib``, ``iterations``, ``lanes``;
for scrypt ``n``, ``r``, ``p``), and the key is derived again at every open.

Costs. The default is RFC 9106's second recommended option (section 4): Argon2id with
64 MiB, 3 passes and 4 lanes, about 0.2 s on a current laptop; its first option (2 GiB)
is too heavy for a command run many times a day. The floor is the OWASP Password
Storage Cheat Sheet's minimum, 19 MiB and 2 passes (1 lane). The scrypt fallback
defaults to n=2^17, r=8, p=1 (128 MiB, OWASP's recommendation) with a floor of n=2^15
(32 MiB). A vault whose recorded costs fall below the floor is refused: lowering them
is how someone with write access to the store would make the passphrase cheaper to
guess. Costs above the ceiling (4 GiB, 64 passes or lanes) are refused too: deriving
would exhaust the machine. Constructor arguments choose other costs between the two.

Passphrases. Read once per provider from a file descriptor (up to EOF or the first
newline, which is dropped), else ``$MEMVAULT_PASSPHRASE``, else asked for without echo
when standard input is a terminal; the next key of a rotation comes from the "new"
sources (``new_passphrase_fd``, ``$MEMVAULT_NEW_PASSPHRASE``, a prompt). A passphrase
being set is typed twice. Never from a command-line argument, which other users can
read in the process list. Text is NFC-normalized and UTF-8 encoded, so the same
passphrase typed on another system derives the same key. A new passphrase must be at
least 12 characters long.
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
import getpass
import hmac
import os
import sys
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import NoReturn

from .. import _crypto, _fs
from .._crypto import Key
from ..errors import MasterKeyError, UsageError
from ._providers import Minted, Params

ENV_PASSPHRASE = "MEMVAULT_PASSPHRASE"  # noqa: S105 - a variable's name, not a secret
ENV_NEW_PASSPHRASE = "MEMVAULT_NEW_PASSPHRASE"  # noqa: S105 - a variable's name, not a secret
MIN_PASSPHRASE_CHARS = 12
_MAX_PASSPHRASE_BYTES = 1024
_MAX_MEMORY_BYTES = 4 << 30
_COSTS = {"argon2id": ("memory_kib", "iterations", "lanes"), "scrypt": ("n", "r", "p")}
_RESTORE = "restore the vault from a backup"


@dataclass(frozen=True)
class PassphraseCost:
    """What deriving a key costs: Argon2id's memory (KiB), passes and lanes; scrypt's
    n, r and p where the installed cryptography lacks Argon2id."""

    memory_kib: int = 64 * 1024
    iterations: int = 3
    lanes: int = 4
    n: int = 2**17
    r: int = 8
    p: int = 1

    def of(self, kdf: str) -> dict[str, int]:
        """The costs ``kdf`` takes, as the vault records them."""
        return {name: int(getattr(self, name)) for name in _COSTS[kdf]}


PASSPHRASE_FLOOR = PassphraseCost(memory_kib=19 * 1024, iterations=2, lanes=1, n=2**15, r=8, p=1)
PASSPHRASE_CEILING = PassphraseCost(
    memory_kib=_MAX_MEMORY_BYTES >> 10, iterations=64, lanes=64, n=2**22, r=16, p=16
)


def cost_of(given: Mapping[str, int] | None) -> PassphraseCost | None:
    """The costs ``given`` by name over the defaults (None: the defaults); UsageError for
    a name :class:`PassphraseCost` does not have (bounds are checked by the provider)."""
    if not given:
        return None
    unknown = sorted(set(given) - {name for names in _COSTS.values() for name in names})
    if unknown:
        raise UsageError(
            f"unknown passphrase cost {unknown[0]!r}",
            hint="name memory_kib, iterations or lanes (Argon2id), or n, r or p (scrypt)",
        )
    return dataclasses.replace(PassphraseCost(), **given)


def _cost_problem(kdf: str, cost: Mapping[str, int]) -> str | None:
    """What keeps ``cost`` out of bounds for ``kdf``, or None."""
    for name, value in cost.items():
        low, high = getattr(PASSPHRASE_FLOOR, name), getattr(PASSPHRASE_CEILING, name)
        if value < low:
            return f"{kdf} {name} {value} is below the minimum {low}"
        if value > high:
            return f"{kdf} {name} {value} is above the maximum {high}"
    if kdf == "scrypt":
        if cost["n"] & (cost["n"] - 1):
            return f"scrypt n {cost['n']} is not a power of two"
        if 128 * cost["n"] * cost["r"] > _MAX_MEMORY_BYTES:
            return "scrypt n and r together need more than 4 GiB of memory"
    return None


def _recorded(params: Params) -> tuple[str, bytes, dict[str, int]]:
    """The KDF, salt and costs a vault recorded; MasterKeyError if damaged or out of bounds."""
    kdf = params.get("kdf")
    if not isinstance(kdf, str) or kdf not in _COSTS:
        raise MasterKeyError(
            "the vault's passphrase record names no key derivation this version knows",
            hint=f"the store was modified, or written by a newer memvault: {_RESTORE}, or "
            "open it with that version",
        )
    damaged = MasterKeyError(
        "the vault's passphrase record is damaged", hint=f"the store was modified; {_RESTORE}"
    )
    cost: dict[str, int] = {}
    for name in _COSTS[kdf]:
        value = params.get(name)
        if not isinstance(value, int) or isinstance(value, bool):
            raise damaged
        cost[name] = value
    try:
        salt = base64.b64decode(str(params.get("salt")), validate=True)
    except (binascii.Error, ValueError):
        raise damaged from None
    if len(salt) < _crypto.SALT_SIZE:
        raise damaged
    problem = _cost_problem(kdf, cost)
    if problem is not None:
        raise MasterKeyError(
            f"the vault's recorded passphrase costs are refused: {problem}",
            hint="they were changed, to make the passphrase cheaper to guess or to exhaust "
            f"this machine; {_RESTORE}",
        )
    return kdf, salt, cost


class PassphraseKey:
    """A master key derived from a passphrase, read or asked for once per provider."""

    __slots__ = ("_cost", "_derived", "_fd", "_kdf", "_new", "_shown", "_text")
    kind = "passphrase"

    def __init__(
        self,
        *,
        fd: int | None = None,
        new: bool = False,
        cost: PassphraseCost | None = None,
        kdf: str | None = None,
    ) -> None:
        """``fd``: the descriptor to read the passphrase from; ``new``: the next key of a
        rotation (the "new" sources); ``cost``/``kdf``: what a mint uses (default: the
        defaults above, the best KDF available)."""
        self._cost = cost or PassphraseCost()
        for name in _COSTS:
            problem = _cost_problem(name, self._cost.of(name))
            if problem is not None:
                raise UsageError(
                    f"passphrase cost out of bounds: {problem}",
                    hint="Argon2id takes 19 MiB to 4 GiB of memory, 2 to 64 passes and 1 to "
                    "64 lanes (PASSPHRASE_FLOOR, PASSPHRASE_CEILING); nothing was changed",
                )
        if kdf is not None and kdf not in _COSTS:
            raise UsageError(f"unknown passphrase KDF {kdf!r}", hint="choose argon2id or scrypt")
        self._fd, self._new, self._kdf = fd, new, kdf
        self._shown: str | None = None
        self._text: str | None = None
        self._derived: dict[tuple[object, ...], Key] = {}

    def __repr__(self) -> str:
        return f"<PassphraseKey {self.describe()}>"

    def __reduce__(self) -> NoReturn:
        raise TypeError("passphrase providers cannot be pickled")

    def describe(self) -> str:
        return f"passphrase ({self._shown or self._kdf or _crypto.passphrase_kdfs()[0]})"

    def mint(self, vault_id: str, *, replacing: bool) -> Minted:
        kdf = self._kdf or _crypto.passphrase_kdfs()[0]
        text = self._passphrase(vault_id, minting=True)
        salt, cost = _crypto.new_salt(), self._cost.of(kdf)
        key = self._derive(text, kdf, salt, cost)
        self._shown = kdf
        return Minted(key, {"kdf": kdf, "salt": base64.b64encode(salt).decode(), **cost})

    def keys(self, vault_id: str, params: Params) -> list[Key]:
        kdf, salt, cost = _recorded(params)
        self._shown = kdf
        cached = self._derived.get(_cache_key(kdf, salt, cost))
        if cached is not None:
            return [cached]
        return [self._derive(self._passphrase(vault_id, minting=False), kdf, salt, cost)]

    def settle(self, vault_id: str, committed: Key | None = None) -> None:
        return None

    def _derive(self, text: str, kdf: str, salt: bytes, cost: dict[str, int]) -> Key:
        key = _crypto.derive_from_passphrase(text.encode("utf-8"), salt, kdf=kdf, cost=cost)
        self._derived[_cache_key(kdf, salt, cost)] = key
        return key

    def _passphrase(self, vault_id: str, *, minting: bool) -> str:
        """The passphrase (read once); MasterKeyError if empty, or too short to mint with."""
        what = "new passphrase" if self._new else "passphrase"
        if self._text is None:
            text = unicodedata.normalize("NFC", self._ask(vault_id, what, confirm=minting))
            if not text:
                raise MasterKeyError(f"the {what} is empty", hint=self._sources_hint(what))
            if len(text.encode("utf-8")) > _MAX_PASSPHRASE_BYTES:
                raise MasterKeyError(
                    f"the {what} is longer than {_MAX_PASSPHRASE_BYTES} bytes",
                    hint="choose a shorter one",
                )
            self._text = text
        if minting and len(self._text) < MIN_PASSPHRASE_CHARS:
            raise MasterKeyError(
                f"the {what} is too short: a vault's passphrase must be at least "
                f"{MIN_PASSPHRASE_CHARS} characters long",
                hint="choose a longer one; four or five random words are easy to type "
                "and hard to guess",
            )
        return self._text

    def _ask(self, vault_id: str, what: str, *, confirm: bool) -> str:
        if self._fd is not None:
            return _read_fd(self._fd, what)
        value = os.environ.get(ENV_NEW_PASSPHRASE if self._new else ENV_PASSPHRASE)
        if value is not None:
            return value
        if not _is_terminal():
            raise MasterKeyError(
                f"no {what} for vault {vault_id}: standard input is not a terminal to ask on",
                hint=self._sources_hint(what),
            )
        return _prompt(f"{what[0].upper()}{what[1:]} for vault {vault_id}: ", what, confirm)

    def _sources_hint(self, what: str) -> str:
        flag = "--new-passphrase-fd" if self._new else "--passphrase-fd"
        env = ENV_NEW_PASSPHRASE if self._new else ENV_PASSPHRASE
        return f"give the {what} on a file descriptor ({flag} N), in ${env}, or at a terminal"


def _cache_key(kdf: str, salt: bytes, cost: Mapping[str, int]) -> tuple[object, ...]:
    return (kdf, salt, *sorted(cost.items()))


def _is_terminal() -> bool:
    try:
        return sys.stdin is not None and sys.stdin.isatty()
    except (AttributeError, ValueError, OSError):  # replaced, closed or detached stdin
        return False


def _prompt(prompt: str, what: str, confirm: bool) -> str:
    """Ask without echo; a passphrase being set is asked twice and must match."""
    try:
        text = getpass.getpass(prompt)
        if confirm:
            again = getpass.getpass(f"Repeat the {what}: ")
            if not hmac.compare_digest(text.encode("utf-8"), again.encode("utf-8")):
                raise MasterKeyError(
                    f"the two {what}s typed do not match",
                    hint="run the command again and type the same passphrase twice",
                )
    except EOFError:
        raise MasterKeyError(f"no {what} was typed (end of input)") from None
    return text


def _read_fd(fd: int, what: str) -> str:
    """The first line on ``fd`` (up to EOF or a newline, a CR before it dropped). Read a
    byte at a time so that nothing past the line is taken from the descriptor."""
    data = bytearray()
    try:
        while len(data) <= _MAX_PASSPHRASE_BYTES:
            byte = os.read(fd, 1)
            if not byte or byte == b"\n":
                break
            data += byte
    except OSError as exc:
        raise MasterKeyError(
            f"cannot read the {what} from file descriptor {fd}: {_fs.reason(exc)}",
            hint="pass the number of a descriptor open for reading, e.g. 3 with 3<FILE",
        ) from None
    if len(data) > _MAX_PASSPHRASE_BYTES:
        raise MasterKeyError(
            f"the {what} on file descriptor {fd} is longer than {_MAX_PASSPHRASE_BYTES} bytes",
            hint="the descriptor must hold the passphrase alone, on its first line",
        )
    try:
        return bytes(data.removesuffix(b"\r")).decode("utf-8")
    except UnicodeDecodeError:
        raise MasterKeyError(
            f"the {what} on file descriptor {fd} is not UTF-8 text",
            hint="write the passphrase as UTF-8",
        ) from None
