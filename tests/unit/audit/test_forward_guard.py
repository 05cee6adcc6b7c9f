"""Forward security cannot be turned off quietly.

The store remembers that forward security is on, from which segment, in the
transaction that turned it on. A key file (``<home>/audit/.fskey``) that is
missing, damaged, or older than the log makes every append fail closed with
an operator error that names the cause; ``audit verify`` names the same cause
instead of calling the genuine records forged; ``audit forward-secure
--restore FILE`` puts the key file back from the operator's first key.
"""

from __future__ import annotations

import base64
import contextlib
import io
import itertools
import json
import logging
import sqlite3
from pathlib import Path

import pytest
from anthropic.lib.tools import ToolError

from memvault import Vault, _crypto
from memvault.audit import SEGMENT_ENV, segments
from memvault.cli import main
from memvault.memory import AUDIT_MESSAGE

RESTORE_HINT = (
    "run `memvault audit forward-secure --restore FILE` with the first forward-secure key "
    "(kept off this machine); until then every command is refused and nothing is changed"
)
REFUSED = (
    "no record can be appended until `memvault audit forward-secure --restore FILE` puts "
    "the key back"
)
VIEW = {"command": "view", "path": "/memories"}


def cli(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, out=out, err=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(autouse=True)
def small_segments(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(SEGMENT_ENV, "2000")


_COUNT = itertools.count()


def _commands(home: Path, n: int) -> None:
    with Vault.open(home) as v:
        tool = v.memory_tool("alice")
        for _ in range(n):
            path = f"/memories/n{next(_COUNT)}.md"
            tool.call({"command": "create", "path": path, "file_text": "x\n"})


def _enable(home: Path, key_file: Path) -> int:
    code, out, err = cli(["--home", str(home), "audit", "forward-secure", "--out", str(key_file)])
    assert (code, err) == (0, ""), err
    return int(out.split("from audit segment ")[1].split()[0])


def _meta(home: Path, key: str) -> bytes | None:
    with contextlib.closing(sqlite3.connect(home / "vault.db")) as db:
        row = db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return None if row is None else bytes(row[0])


def _log(home: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for _, p in segments(home / "audit")}


def _refused_everything(home: Path, caplog: pytest.LogCaptureFixture, detail: str) -> None:
    """Every command is refused with the audit message, the operator's log says why, and
    neither the log nor the store changes."""
    before = _log(home), (home / "vault.db").read_bytes()
    with Vault.open(home) as v:
        tool = v.memory_tool("alice")
        with caplog.at_level(logging.ERROR, logger="memvault"):
            for command in (
                VIEW,
                {"command": "create", "path": "/memories/z.md", "file_text": "z"},
            ):
                with pytest.raises(ToolError) as caught:
                    tool.call(command)
                assert caught.value.content == AUDIT_MESSAGE
    details = [json.loads(r.getMessage()).get("detail") for r in caplog.records]
    assert details == [detail, detail]
    assert _log(home) == before[0]


@pytest.mark.sqlite_only("forward security is for a log of files")
def test_the_store_remembers_where_forward_security_began(home: Path, tmp_path: Path) -> None:
    """Turning it on stores the first segment in the store, with the record saying so."""
    _commands(home, 2)
    first = _enable(home, tmp_path / "forward.json")
    assert _meta(home, "audit_forward") == str(first).encode()
    with Vault.open(home) as v:
        assert v.audit.forward_since() == first
    code, out, _ = cli(["--home", str(home), "audit", "show", "--json", "--command", "audit.f*"])
    assert code == 0
    assert [json.loads(line)["details"] for line in out.splitlines()] == [{"first_segment": first}]


@pytest.mark.sqlite_only("forward security is for a log of files")
def test_a_missing_key_file_refuses_every_command(
    home: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """No key file, the store says on: nothing is MACed with the vault's key instead."""
    _commands(home, 1)
    first = _enable(home, tmp_path / "forward.json")
    _commands(home, 4)
    key_path = home / "audit" / ".fskey"
    key_path.unlink()
    _refused_everything(
        home,
        caplog,
        f"forward security is on since audit segment {first}, but its key file {key_path} is "
        "missing, so no record can be MACed",
    )
    code, out, err = cli(["--home", str(home), "audit", "show"])
    assert (code, out) == (1, "")
    assert err == (
        f"memvault: error: forward security is on since audit segment {first}, but its key "
        f"file {key_path} is missing, so no record can be MACed\n"
        f"memvault: hint: {RESTORE_HINT}\n"
    )


@pytest.mark.sqlite_only("forward security is for a log of files")
def test_verify_names_a_missing_key_file_and_calls_no_record_forged(
    home: Path, tmp_path: Path
) -> None:
    """The forward-secure segments are checked for their chain; the cause is named once."""
    _commands(home, 1)
    first = _enable(home, tmp_path / "forward.json")
    _commands(home, 4)
    newest = segments(home / "audit")[-1][0]
    (home / "audit" / ".fskey").unlink()
    code, out, err = cli(["--home", str(home), "audit", "verify"])
    reason = f"forward security is on since segment {first}, but .fskey is missing: {REFUSED}"
    assert code == 1
    assert out.splitlines()[1:] == [
        f"  the forward-secure key file: {reason}",
        f"note: segments {first} to {newest} are forward-secure: their chain was checked, "
        "their MACs need the first forward-secure key (--forward-key FILE)",
    ]
    assert "forged" not in out
    assert err.splitlines()[0] == (
        f"memvault: error: the audit log failed verification: the forward-secure key file: {reason}"
    )


@pytest.mark.sqlite_only("forward security is for a log of files")
def test_an_older_key_file_refuses_every_command_and_verify_says_so(
    home: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A key file put back from a copy holds a key the log had erased: refused, named."""
    _commands(home, 1)
    first = _enable(home, tmp_path / "forward.json")
    key_path = home / "audit" / ".fskey"
    old = key_path.read_bytes()
    _commands(home, 6)
    newest = segments(home / "audit")[-1][0]
    assert newest >= first + 2
    key_path.write_bytes(old)
    _refused_everything(
        home,
        caplog,
        f"the forward-secure key file {key_path} is at audit segment {first}, behind the log "
        f"(segment {newest}): it was put back from an older copy, with keys the log had erased",
    )
    code, out, _ = cli(["--home", str(home), "audit", "verify"])
    assert code == 1
    assert out.splitlines()[1] == (
        f"  the forward-secure key file: forward security is on since segment {first}, but "
        f".fskey is older than the log (at segment {first}, the log at {newest}): it was put "
        f"back from a copy, with keys the log had erased; {REFUSED}"
    )


@pytest.mark.sqlite_only("forward security is for a log of files")
def test_a_damaged_key_file_refuses_every_command_and_verify_still_runs(
    home: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A damaged key file does not keep verify from opening the vault and saying so."""
    _commands(home, 1)
    _enable(home, tmp_path / "forward.json")
    key_path = home / "audit" / ".fskey"
    data = bytearray(key_path.read_bytes())
    data[-1] ^= 1
    key_path.write_bytes(bytes(data))
    _refused_everything(
        home,
        caplog,
        f"the forward-secure key file {key_path} is damaged (modified outside memvault)",
    )
    code, out, _ = cli(["--home", str(home), "audit", "verify"])
    assert code == 1
    assert out.splitlines()[1] == (
        f"  the forward-secure key file: .fskey is damaged (modified outside memvault): {REFUSED}"
    )


@pytest.mark.sqlite_only("forward security is for a log of files")
def test_restore_puts_the_key_file_back_and_is_recorded(home: Path, tmp_path: Path) -> None:
    """From the first key: the key file is made for the newest segment, commands run again,
    and the whole log verifies with the first key."""
    key_file = tmp_path / "forward.json"
    _commands(home, 1)
    first = _enable(home, key_file)
    _commands(home, 4)
    newest = segments(home / "audit")[-1][0]
    (home / "audit" / ".fskey").unlink()
    code, out, err = cli(
        ["--home", str(home), "audit", "forward-secure", "--restore", str(key_file)]
    )
    assert (code, err) == (0, "")
    assert out == (
        f"the forward-secure key file is back, at audit segment {newest} (forward security "
        f"is on since segment {first})\n"
    )
    _commands(home, 3)
    code, out, err = cli(["--home", str(home), "audit", "verify", "--forward-key", str(key_file)])
    assert (code, err) == (0, ""), out
    code, out, _ = cli(["--home", str(home), "audit", "show", "--json", "--command", "*restore"])
    assert [json.loads(line)["details"] for line in out.splitlines()] == [
        {"first_segment": first, "segment": newest}
    ]


@pytest.mark.sqlite_only("forward security is for a log of files")
def test_restore_refuses_a_key_that_does_not_mac_the_log(home: Path, tmp_path: Path) -> None:
    """Another key of the right form is refused, and the key file is left as it is."""
    key_file = tmp_path / "forward.json"
    _commands(home, 1)
    first = _enable(home, key_file)
    _commands(home, 2)
    (home / "audit" / ".fskey").unlink()
    body = json.loads(key_file.read_text())
    body["key"] = base64.b64encode(_crypto.new_key().export_raw()).decode()
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps(body))
    newest = segments(home / "audit")[-1][0]
    code, out, err = cli(["--home", str(home), "audit", "forward-secure", "--restore", str(wrong)])
    assert (code, out) == (2, "")
    assert err.splitlines()[0] == (
        f"memvault: error: this key does not MAC the newest record (in audit segment {newest}): "
        "it is not this log's first forward-secure key, or that record was changed"
    )
    assert not (home / "audit" / ".fskey").exists()
    body["first_segment"] = first + 1
    wrong.write_text(json.dumps(body))
    code, _, err = cli(["--home", str(home), "audit", "forward-secure", "--restore", str(wrong)])
    assert code == 2
    assert err.splitlines()[0] == (
        f"memvault: error: this key starts at audit segment {first + 1}, but forward security "
        f"is on since segment {first}"
    )


@pytest.mark.sqlite_only("forward security is for a log of files")
def test_the_ledger_keeps_forward_security_on_when_the_stores_word_is_removed(
    home: Path, tmp_path: Path
) -> None:
    """The plain meta row and the key file both removed: the sealed ledger still says
    forward security is on, so nothing is MACed with the vault's key instead."""
    _commands(home, 1)
    first = _enable(home, tmp_path / "forward.json")
    _commands(home, 1)
    with contextlib.closing(sqlite3.connect(home / "vault.db")) as db:
        db.execute("DELETE FROM meta WHERE key = 'audit_forward'")
        db.commit()
    key_path = home / "audit" / ".fskey"
    key_path.unlink()
    records = {name: data for name, data in _log(home).items() if data}
    with Vault.open(home) as v:
        assert v.audit.forward_since() == first
        with pytest.raises(ToolError) as caught:
            v.memory_tool("alice").call(VIEW)
    assert caught.value.content == AUDIT_MESSAGE
    assert {name: data for name, data in _log(home).items() if data} == records
