"""Forward security: each segment's records under a key of its own, the old keys erased."""

from __future__ import annotations

import io
import itertools
import json
import os
import stat
from pathlib import Path

import pytest
from anthropic.lib.tools import ToolError

from memvault import Vault, _crypto
from memvault.audit import (
    MAC_SUFFIX_LEN,
    SEGMENT_ENV,
    ForwardState,
    line_hash,
    read_forward_key,
    segments,
)
from memvault.cli import main
from memvault.memory import AUDIT_MESSAGE


def cli(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, out=out, err=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def small_segments(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(SEGMENT_ENV, "2000")


_COUNT = itertools.count()


def _commands(home: Path, n: int) -> None:
    with Vault.open(home) as v:
        tool = v.memory_tool("alice")
        for _ in range(n):
            path = f"/memories/n{next(_COUNT)}.md"
            tool.call({"command": "create", "path": path, "file_text": "x\n"})
            tool.call({"command": "view", "path": path})


def _enable(home: Path, key_file: Path) -> int:
    code, out, err = cli(["--home", str(home), "audit", "forward-secure", "--out", str(key_file)])
    assert (code, err) == (0, ""), err
    first = int(out.split("from audit segment ")[1].split()[0])
    assert out == (
        f"forward security is on from audit segment {first}\n"
        f"first key written to {key_file}: move it off this machine now\n"
    )
    return first


def _here(home: Path) -> ForwardState:
    with Vault._open(home, audit_problems=[]) as v:
        state = v.audit.forward_state
    assert state is not None
    return state


@pytest.mark.sqlite_only("forward security is for a log of files")
def test_forward_security_starts_at_a_new_segment_and_moves_its_key_on(
    home: Path, tmp_path: Path, small_segments: None
) -> None:
    """The first key goes to the operator's file (0600); the key file on the machine always
    holds the newest segment's key only, and every segment verifies with the first key."""
    _commands(home, 2)
    key_file = tmp_path / "forward.json"
    first = _enable(home, key_file)
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    with Vault.open(home) as v:
        offline = read_forward_key(key_file.read_text(), v.vault_id, "forward.json")
    assert offline.first == first
    _commands(home, 12)
    newest = segments(home / "audit")[-1][0]
    assert newest >= first + 3
    here = _here(home)
    assert (here.first, here.segment) == (first, newest)
    assert here.key != offline.key and here.key == offline.at(newest).key
    code, out, err = cli(["--home", str(home), "audit", "verify"])
    assert (code, err) == (0, "")
    assert out.splitlines()[1] == (
        f"note: segments {first} to {newest - 1} are forward-secure: their chain was checked, "
        "their MACs need the first forward-secure key (--forward-key FILE)"
    )
    code, out, err = cli(["--home", str(home), "audit", "verify", "--forward-key", str(key_file)])
    assert (code, err) == (0, "")
    assert out.startswith("audit log intact:") and "note:" not in out


@pytest.mark.sqlite_only("forward security is for a log of files")
def test_a_rewrite_with_the_machines_keys_is_caught_with_the_first_key(
    home: Path, tmp_path: Path, small_segments: None
) -> None:
    """Whoever holds the machine (master key and key file) can re-MAC the current segment
    only: a record rewritten in an earlier segment, with the chain made whole again, is not
    found there by the checks the machine can make, and is found, where it was changed, with
    the first key."""
    key_file = tmp_path / "forward.json"
    first = _enable(home, key_file)
    _commands(home, 12)
    here = _here(home)
    files = segments(home / "audit")
    lines = {n: p.read_bytes().splitlines() for n, p in files}
    target = first + 1
    assert target < here.segment
    # The attack: change a record in an earlier forward-secure segment and MAC it, and
    # everything after it, with the only forward key the machine still has.
    original = lines[target][0]
    forged_body = original[:-MAC_SUFFIX_LEN].replace(b'"outcome":"ok"', b'"x":"y"')
    assert forged_body != original[:-MAC_SUFFIX_LEN]
    prev = None
    for number, _ in files:
        if number < target:
            continue
        for index, line in enumerate(lines[number]):
            body = line[:-MAC_SUFFIX_LEN]
            if number == target and index == 0:
                body = forged_body
            if prev is not None:
                at = body.rfind(b',"prev":"') + len(b',"prev":"')
                body = body[:at] + prev.encode() + body[at + 64 :]
            mac = here.mac(body + b"}")
            lines[number][index] = body + b',"mac":"' + mac.encode() + b'"}'
            prev = line_hash(lines[number][index])
    for number, path in files:
        path.write_bytes(b"".join(line + b"\n" for line in lines[number]))
    _, here_out, _ = cli(["--home", str(home), "audit", "verify"])
    assert f"segment {target}, line 1" not in here_out
    code, out, _ = cli(["--home", str(home), "audit", "verify", "--forward-key", str(key_file)])
    assert code == 1
    assert out.splitlines()[1] == (
        f"  segment {target}, line 1: its MAC does not match: the record was modified or forged"
    )


@pytest.mark.sqlite_only("forward security is for a log of files")
def test_a_crash_before_the_key_file_moved_on_is_carried_forward(
    home: Path, tmp_path: Path, small_segments: None
) -> None:
    """A process that started a segment and died before updating the key file leaves the
    key of the segment before, and the new segment empty: the next appender derives the
    missing key and goes on. (A key file further behind is refused: test_forward_guard.py.)"""
    key_file = tmp_path / "forward.json"
    _enable(home, key_file)
    _commands(home, 4)
    newest = segments(home / "audit")[-1][0]
    assert _here(home).segment == newest
    # The crash: the next segment exists, empty; the key file was not moved on.
    fd = os.open(home / "audit" / f"audit-{newest + 1:06d}.jsonl", os.O_CREAT | os.O_EXCL, 0o600)
    os.close(fd)
    _commands(home, 2)
    assert _here(home).segment > newest
    code, out, err = cli(["--home", str(home), "audit", "verify", "--forward-key", str(key_file)])
    assert (code, err) == (0, ""), out


@pytest.mark.sqlite_only("forward security is for a log of files")
def test_forward_security_is_turned_on_once_and_its_key_kept_off_the_home(
    home: Path, tmp_path: Path
) -> None:
    """A second start, a key file inside the home, or over an existing file is refused."""
    _commands(home, 1)
    inside = home / "forward.json"
    code, out, err = cli(["--home", str(home), "audit", "forward-secure", "--out", str(inside)])
    assert code == 2 and out == "" and not inside.exists()
    assert err.startswith(f"memvault: error: {inside} is inside the vault's home\n")
    key_file = tmp_path / "forward.json"
    _enable(home, key_file)
    again = tmp_path / "again.json"
    code, _, err = cli(["--home", str(home), "audit", "forward-secure", "--out", str(again)])
    assert code == 2 and "forward security is already on" in err and not again.exists()


@pytest.mark.sqlite_only("forward security is for a log of files")
def test_a_forward_key_of_another_vault_or_damaged_is_refused(home: Path, tmp_path: Path) -> None:
    """verify --forward-key checks the file: another vault's key, or no key file at all."""
    _commands(home, 1)
    key_file = tmp_path / "forward.json"
    _enable(home, key_file)
    body = json.loads(key_file.read_text())
    body["vault"] = "0" * 32
    other = tmp_path / "other.json"
    other.write_text(json.dumps(body))
    code, _, err = cli(["--home", str(home), "audit", "verify", "--forward-key", str(other)])
    assert code == 2 and f"{other} is the forward-secure key of vault {'0' * 32}" in err
    junk = tmp_path / "junk.json"
    junk.write_text("{}")
    code, _, err = cli(["--home", str(home), "audit", "verify", "--forward-key", str(junk)])
    assert code == 2 and f"{junk} is not a memvault forward-secure key file" in err


@pytest.mark.sqlite_only("forward security is for a log of files")
def test_a_wrong_first_key_fails_every_forward_secure_record(home: Path, tmp_path: Path) -> None:
    """The first key decides: with another key every forward-secure record fails its MAC."""
    _commands(home, 1)
    key_file = tmp_path / "forward.json"
    first = _enable(home, key_file)
    _commands(home, 1)
    body = json.loads(key_file.read_text())
    body["key"] = __import__("base64").b64encode(_crypto.new_key().export_raw()).decode()
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps(body))
    code, out, _ = cli(["--home", str(home), "audit", "verify", "--forward-key", str(wrong)])
    assert code == 1
    assert f"segment {first}, line 1: its MAC does not match" in out


@pytest.mark.sqlite_only("forward security is for a log of files")
def test_a_damaged_key_file_refuses_every_record(home: Path, tmp_path: Path) -> None:
    """The key file on the machine is sealed: damage refuses every record, with a clear
    error for the operator (and `audit verify` still opens the vault to say so:
    test_forward_guard.py)."""
    _commands(home, 1)
    _enable(home, tmp_path / "forward.json")
    key_path = home / "audit" / ".fskey"
    data = bytearray(key_path.read_bytes())
    data[-1] ^= 1
    key_path.write_bytes(bytes(data))
    with Vault.open(home) as v, pytest.raises(ToolError) as caught:
        v.memory_tool("alice").call({"command": "view", "path": "/memories"})
    assert caught.value.content == AUDIT_MESSAGE
