"""``memvault demo``: a scripted memory session on a fresh vault, shown end to end."""

from __future__ import annotations

import io
import json
import shutil
import tempfile
from pathlib import Path
from typing import IO, Any

from .._vault import Vault
from ..errors import IntegrityError, LogDamagedError
from ..memory import Runner
from ._session import ACTS, SECRETS, USERS


def run(out: IO[str], *, keep: bool = False) -> int:
    workdir = Path(tempfile.mkdtemp(prefix="memvault-demo-"))
    home = workdir / "home"
    key_file = workdir / "keys" / "master.key"
    try:
        _session(out, home, key_file)
    finally:
        if keep:
            print(f"\nKept: home {home}, key {key_file}", file=out)
        else:
            shutil.rmtree(workdir, ignore_errors=True)
    return 0


def _audit(out: IO[str], home: Path, key_file: Path) -> None:
    """The audit trail of the session: reviewed, verified, then caught when edited."""
    from ..audit import parse_filters, segments, show, verify

    _say(out, "8. Every command left a record in the audit log; it verifies")
    with Vault.open(home, master_key_file=key_file) as vault:
        listing = io.StringIO()
        show(vault, parse_filters(user="alice"), listing, terminal=False)
        for line in listing.getvalue().splitlines()[:8]:
            _say(out, "  " + " ".join(line.split()))
        _say(out, "  ... (memvault audit show; the files hold pseudonyms and sealed paths only)")
        report = verify(vault.audit.directory, vault.audit.keys, anchor=vault.audit.store_head())
        _say(out, f"  memvault audit verify: intact, {report.records} records")
        _, segment = segments(vault.audit.directory)[0]
        data = segment.read_bytes()
        segment.write_bytes(data.replace(b'"outcome":"refused"', b'"outcome":"ok"', 1))
        try:
            verify(vault.audit.directory, vault.audit.keys, anchor=vault.audit.store_head())
        except LogDamagedError as damaged:
            problem = damaged.message.removeprefix("the audit log failed verification: ")
            _say(out, "  after turning one 'refused' into 'ok' in the file: " + problem)
        else:
            raise IntegrityError("verification missed the demo's edit of the audit log")
    _say(out)


def _say(out: IO[str], text: str = "") -> None:
    print(text, file=out)


def _call(out: IO[str], tool: Runner, command: dict[str, Any]) -> None:
    _say(out, f"[{tool.user}] {json.dumps(command, ensure_ascii=False)}")
    reply = tool.run(command)
    _say(out, f"  -> result{' (is_error)' if reply.is_error else ''}:")
    for line in reply.content.split("\n"):
        _say(out, f"     {line}")


def _session(out: IO[str], home: Path, key_file: Path) -> None:
    _say(out, "memvault demo: an encrypted memory session on a fresh vault")
    _say(out, "=" * 62)
    vault = Vault.open(home, master_key_file=key_file)
    _say(out, f"Created vault {vault.vault_id}")
    _say(out, f"  home (data):     {home}")
    _say(out, f"  master key file: {key_file} (outside the home, mode 0600)")
    _say(out)

    runners = {user: vault.runner(user=user) for user in USERS}
    for heading, steps in ACTS:
        _say(out, heading)
        for user, command in steps:
            _call(out, runners[user], command)
        _say(out)

    _say(out, "6. What is on disk, while the vault is open: ciphertext only")
    found = []
    total = 0
    for file in sorted(p for p in home.rglob("*") if p.is_file()):
        data = file.read_bytes()
        total += len(data)
        _say(out, f"  {file.relative_to(home)}: {len(data):,} bytes")
        for marker in SECRETS:
            if marker.encode() in data:
                found.append((file.name, marker))
    _say(
        out, f"  searched {total:,} bytes for the note text, the directory name and the user name:"
    )
    _say(out, "  found: " + (", ".join(f"{m!r} in {n}" for n, m in found) if found else "nothing"))
    vault.close()
    _say(out)

    _say(out, "7. A copy of the home without the master key decrypts nothing")
    stolen_key = key_file.with_name("copy-without-key.key")
    try:
        Vault.open(home, master_key_file=stolen_key)
    except Exception as exc:
        _say(out, f"  Vault.open(home) without the key: {type(exc).__name__}: {exc}")
    _say(out)

    _audit(out, home, key_file)
    _say(out, "Done. Try it yourself: memvault --home DIR exec --user alice  (JSON lines on stdin)")
