"""The error boundary: every foreign exception is translated where it enters.

Each test here is named after a hole it closes: a raw ``ValueError``,
``UnicodeDecodeError`` or ``OSError`` that once reached the operator as exit 70
("internal error") or the model as "internal", a read error reported as
tampering, a half-written file, a world-writable directory, a short write
taken for a full disk, model input kept in a cache, a key that hashed unlike
its equality.
"""

from __future__ import annotations

import contextlib
import errno
import gc
import hmac
import io
import json
import logging
import os
import secrets
import sqlite3
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import memvault._fs
from memvault import (
    IntegrityError,
    LogDamagedError,
    RedactionError,
    StorageError,
    UsageError,
    Vault,
)
from memvault._crypto import (
    Key,
    context,
    context_mac_function,
    mac,
    mac_function,
    new_key,
    verify_signature,
)
from memvault.audit import SEGMENT_ENV, examine, segments
from memvault.cli import main
from memvault.memory import AUDIT_MESSAGE

WRITE = {"command": "create", "path": "/memories/a.md", "file_text": "one\n"}


def cli(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def _sql(home: Path, statement: str, *args: Any) -> None:
    with contextlib.closing(sqlite3.connect(home / "vault.db")) as db:
        db.execute(statement, args)
        db.commit()


def _files_in(directory: Path) -> set[str]:
    return {p.name for p in directory.iterdir()}


# -- the store -------------------------------------------------------------------------


def test_a_non_numeric_audit_sync_mark_is_an_integrity_error(home: Path) -> None:
    """meta.audit_synced that is not a number: open and verify name the damage (exit 1)."""
    with Vault.open(home) as v:
        v.memory_tool("alice").call(WRITE)
    _sql(home, "INSERT OR REPLACE INTO meta (key, value) VALUES ('audit_synced', ?)", b"12x")
    with pytest.raises(IntegrityError, match="audit sync mark is damaged"):
        Vault.open(home)
    for argv in (["audit", "verify"], ["init"]):
        code, _, err = cli(["--home", str(home), *argv])
        assert code == 1, err
        assert err.startswith("memvault: error: ") and (
            "the vault database's audit sync mark is damaged" in err.splitlines()[0]
        ), err
        assert "internal error" not in err


# -- the audit log ---------------------------------------------------------------------


def test_verify_of_a_damaged_unchecked_forward_segment_exits_1(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bytes that are not UTF-8 in a forward-secure segment verified without its first key:
    reported as damage (exit 1), never a UnicodeDecodeError (exit 70)."""
    monkeypatch.setenv(SEGMENT_ENV, "2000")
    with Vault.open(home):
        pass
    assert (
        cli(["--home", str(home), "audit", "forward-secure", "--out", str(tmp_path / "fk")])[0] == 0
    )
    with Vault.open(home) as v:
        tool = v.memory_tool("alice")
        for n in range(12):
            tool.call({"command": "create", "path": f"/memories/{n}.md", "file_text": "x"})
    files = segments(home / "audit")
    target = files[-2][1]  # forward-secure, but not the segment whose key is on the machine
    data = target.read_bytes()
    at = data.index(b'"user":"u:') + len(b'"user":"u:')
    target.write_bytes(data[:at] + b"\xff\xfe" + data[at + 2 :])
    _sql(home, "DELETE FROM audit_pending")  # every write record now follows the anchor
    code, out, err = cli(["--home", str(home), "audit", "verify"])
    assert code == 1, err
    assert err.startswith("memvault: error: the audit log failed verification: ")
    assert out.startswith("audit log DAMAGED")


def test_an_unreadable_segment_is_a_storage_error_not_tampering(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A segment that cannot be read is an access problem, named as such (not 'DAMAGED')."""
    monkeypatch.setenv(SEGMENT_ENV, "1024")
    with Vault.open(home) as v:
        for n in range(4):
            v.memory_tool("alice").call({**WRITE, "path": f"/memories/{n}.md"})
    first = home / "audit" / "audit-000001.jsonl"
    first.unlink()
    first.mkdir()  # a name the log lists, that cannot be read as a file
    with Vault._open(home, audit_problems=[]) as v, pytest.raises(StorageError) as caught:
        examine(v.audit.directory, v.audit.keys)
    assert caught.value.message.startswith("cannot read the audit log segment audit-000001.jsonl: ")
    code, _, err = cli(["--home", str(home), "audit", "verify"])
    assert code == 1 and "cannot read the audit log segment audit-000001.jsonl" in err
    assert not isinstance(caught.value, IntegrityError)


def test_an_os_error_in_the_appender_is_an_audit_failure_not_internal(
    home: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """An I/O error while cutting a torn tail: the audit message and an audit_failure event."""
    with Vault.open(home) as v:
        tool = v.memory_tool("alice")
        tool.call(WRITE)
        segment = segments(home / "audit")[-1][1]
        with segment.open("ab") as handle:
            handle.write(b'{"v":1,"seq":')  # a torn append, to be cut off by the next one

        def broken(fd: int, size: int) -> None:
            raise OSError(errno.EIO, os.strerror(errno.EIO))

        monkeypatch.setattr(memvault._fs, "truncate", broken)
        with caplog.at_level(logging.ERROR, logger="memvault"):
            reply = v.runner("alice").run({"command": "view", "path": "/memories"})
        assert (reply.is_error, reply.content) == (True, AUDIT_MESSAGE)
        events = [json.loads(r.getMessage())["event"] for r in caplog.records]
        assert "audit_failure" in events and "internal_error" not in events


def test_short_writes_to_the_log_are_retried(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A write(2) that takes part of a record is followed by the rest, not taken for ENOSPC."""
    real_write = os.write
    shorts = []

    def short(fd: int, data: Any) -> int:
        if len(data) > 8:
            shorts.append(len(data))
            return real_write(fd, bytes(data[: len(data) // 2]))
        return real_write(fd, data)

    with Vault.open(home) as v:
        tool = v.memory_tool("alice")
        monkeypatch.setattr(os, "write", short)
        assert tool.call(WRITE) == "File created successfully at: /memories/a.md"
        monkeypatch.setattr(os, "write", real_write)
        assert shorts
        report = examine(v.audit.directory, v.audit.keys, anchor=v.audit.store_head())
    assert report.intact, report.problems


def test_verify_raises_on_damage_so_no_caller_takes_it_for_intact(home: Path) -> None:
    """verify() raises LogDamagedError with the report; examine() returns the same report."""
    from memvault.audit import verify

    with Vault.open(home) as v:
        v.memory_tool("alice").call(WRITE)
    segment = segments(home / "audit")[0][1]
    segment.write_bytes(segment.read_bytes().replace(b'"outcome":"ok"', b'"outcome":"no"', 1))
    with Vault._open(home, audit_problems=[]) as v:
        with pytest.raises(LogDamagedError) as caught:
            verify(v.audit.directory, v.audit.keys)
        report = examine(v.audit.directory, v.audit.keys)
    assert caught.value.report == report
    assert not report.intact
    assert caught.value.message == f"the audit log failed verification: {report.problems[0]}"


def test_a_bad_signature_raises() -> None:
    """Signature checks raise IntegrityError; they return nothing to be forgotten."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    private = Ed25519PrivateKey.generate()
    public = private.public_key().public_bytes_raw()
    signature = private.sign(b"data")
    assert verify_signature(public, signature, b"data") is None
    with pytest.raises(IntegrityError):
        verify_signature(public, signature, b"date")
    with pytest.raises(IntegrityError):
        verify_signature(b"short", signature, b"data")


# -- files written for the operator ----------------------------------------------------


@contextlib.contextmanager
def _disk_full(monkeypatch: pytest.MonkeyPatch, directory: Path) -> Iterator[None]:
    """Writes to files in ``directory`` fail as on a full disk (the audit log still works)."""
    real = memvault._fs.write_all

    def full(fd: int, data: bytes) -> None:
        if os.readlink(f"/proc/self/fd/{fd}").startswith(f"{directory}/"):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(fd, data)

    with monkeypatch.context() as patch:
        patch.setattr(memvault._fs, "write_all", full)
        yield


@pytest.mark.parametrize("command", ["export", "checkpoint"])
def test_a_full_disk_is_a_storage_error_and_leaves_no_file(
    command: str, home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Export and checkpoint on a full disk: exit 1 (not a usage error), nothing left."""
    with Vault.open(home) as v:
        v.memory_tool("alice").call(WRITE)
    outdir = tmp_path / "out"
    outdir.mkdir()
    target = outdir / "file.json"
    argv = (
        ["audit", "export", "--format", "jsonl", "--out", str(target)]
        if command == "export"
        else ["audit", "checkpoint", "--out", str(target)]
    )
    with _disk_full(monkeypatch, outdir):
        code, _, err = cli(["--home", str(home), *argv])
    assert code == 1, err
    assert err.startswith(f"memvault: error: cannot write {target}: the disk is full\n")
    assert _files_in(outdir) == set()


# -- directories, whatever the umask ---------------------------------------------------


@pytest.fixture
def umask_zero() -> Iterator[None]:
    previous = os.umask(0)
    try:
        yield
    finally:
        os.umask(previous)


def test_directories_memvault_creates_are_private_under_umask_zero(
    tmp_path: Path, umask_zero: None
) -> None:
    """The home's missing parents, the home, the audit directory and the key directories
    are all 0700 even under umask 0 (mkdir(parents=True) left the parents 0777)."""
    home = tmp_path / "a" / "b" / "home"
    with Vault.open(home) as v:
        v.memory_tool("alice").call(WRITE)
    created = [tmp_path / "a", tmp_path / "a" / "b", home, home / "audit"]
    keys = tmp_path / "config" / "memvault" / "keys"
    created += [tmp_path / "config", tmp_path / "config" / "memvault", keys]
    for directory in created:
        assert stat.S_IMODE(directory.stat().st_mode) == 0o700, directory
    (key_file,) = keys.iterdir()
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600


# -- secrets in memory -----------------------------------------------------------------


def test_no_cache_keeps_a_path_the_model_sent(home: Path) -> None:
    """A path with personal data in it is not kept in any container once the call is over."""
    marker = secrets.token_hex(8)
    with Vault.open(home) as v:
        tool = v.memory_tool("alice")
        for command in ("view", "delete"):
            raw = f"/memories/{marker}-jane.doe@example.com.md"
            with contextlib.suppress(Exception):
                tool.call({"command": command, "path": raw})
            del raw
        gc.collect()
        needle = f"{marker}-jane.doe@"
        holders = [
            type(o).__name__
            for o in gc.get_objects()
            if isinstance(o, dict | list | tuple | set)
            and any(isinstance(x, str) and needle in x for x in _values(o))
        ]
        assert holders == []


def _values(container: object) -> Iterator[object]:
    if isinstance(container, dict):
        yield from container.keys()
        yield from container.values()
    else:
        yield from container  # type: ignore[misc]


def test_keys_are_unhashable() -> None:
    """Key equality compares bytes; a hash that agreed would be one of the key, so there is none."""
    key = new_key()
    assert key == Key(key.export_raw())
    with pytest.raises(TypeError):
        hash(key)


def test_macs_are_hmac_sha256() -> None:
    """The MACs made from a keyed HMAC copied between calls are the hmac module's, for
    data on either side of SHA-256's block and for a key used many times over."""
    for size in (0, 1, 31, 55, 56, 63, 64, 65, 119, 120, 2048, 100_000):
        key = new_key()
        data = os.urandom(size)
        expected = hmac.digest(key.export_raw(), data, "sha256")
        assert mac(key, data) == mac(key, data) == expected
        assert mac_function(key)(data) == expected
        ident = os.urandom(16)
        assert context_mac_function(key)(ident, data) == hmac.digest(
            key.export_raw(), context(ident, data), "sha256"
        )


# -- the redaction filter --------------------------------------------------------------


def test_a_filter_fault_is_the_vaults_failure_not_bad_input(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """RedactionError is not a UsageError (bad input); its record says failed/redaction."""
    assert not issubclass(RedactionError, UsageError | ValueError)
    from memvault.redaction import Redactor

    def broken(self: Redactor, text: str, pseudonym: object) -> None:
        raise RuntimeError("boom")

    with Vault.open(home) as v:
        runner = v.runner("alice")
        monkeypatch.setattr(Redactor, "apply", broken)
        reply = runner.run(WRITE)
        assert reply.is_error and reply.content.startswith("Error: The redaction filter could")
    code, out, _ = cli(["--home", str(home), "audit", "show", "--json", "--command", "create"])
    assert code == 0
    (record,) = [json.loads(line) for line in out.splitlines()]
    assert (record["outcome"], record["error"]) == ("failed", "redaction")
