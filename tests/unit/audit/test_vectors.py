"""Known-answer vectors for the audit log and its checkpoints (``tests/vectors/audit/``).

A frozen log of 12 records in four segments, written by memvault under a fixed
master key (``tests/support/make_audit_vector.py``), and a checkpoint signed
over it. The writer and the verifier can never change together unnoticed: the
MACs are recomputed here from the key derivation's own definition, the chain
from SHA-256, and the checkpoint's signature checked with Ed25519 directly.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from memvault import UsageError
from memvault._crypto import Key
from memvault.audit import MAC_SUFFIX_LEN, AuditKeys, examine, read_checkpoint

VECTORS = Path(__file__).resolve().parents[2] / "vectors" / "audit"
EXPECTED = json.loads((VECTORS / "expected.json").read_text())
MASTER = base64.b64decode(EXPECTED["master_key"])
VAULT_ID = EXPECTED["vault_id"]


@pytest.fixture
def log(tmp_path: Path) -> Path:
    directory = tmp_path / "audit"
    shutil.copytree(VECTORS / "log", directory)
    return directory


def keys() -> AuditKeys:
    return AuditKeys(Key(MASTER), VAULT_ID)


def _derive(label: bytes) -> bytes:
    return HKDF(hashes.SHA256(), 32, bytes.fromhex(VAULT_ID), label).derive(MASTER)


def _lines(directory: Path) -> list[bytes]:
    return [
        line
        for path in sorted(directory.glob("audit-*.jsonl"))
        for line in path.read_bytes().splitlines()
    ]


def test_the_vector_log_verifies_with_the_expected_head(log: Path) -> None:
    """The frozen log is intact, with the recorded count, segments and head hash."""
    report = examine(log, keys(), anchor=tuple(EXPECTED["anchor"]))  # type: ignore[arg-type]
    assert report.intact, report.problems
    assert (report.records, report.segments, report.last_hash) == (
        EXPECTED["records"],
        EXPECTED["segments"],
        EXPECTED["last_hash"],
    )


def test_macs_and_chain_follow_their_definitions(log: Path) -> None:
    """Each MAC is HMAC-SHA256 under HKDF(master, vault id, "memvault/v1/audit-mac") over the
    line up to ',"mac":' closed with '}'; each prev is SHA-256 of the line before, the first
    the genesis of this vault."""
    mac_key = _derive(b"memvault/v1/audit-mac")
    prev = hashlib.sha256(f"memvault audit v1 genesis {VAULT_ID}".encode()).hexdigest()
    lines = _lines(log)
    assert len(lines) == EXPECTED["records"]
    for seq, line in enumerate(lines, start=1):
        record = json.loads(line)
        assert (record["seq"], record["prev"]) == (seq, prev)
        body = line[:-MAC_SUFFIX_LEN] + b"}"
        assert record["mac"] == hmac.new(mac_key, body, "sha256").hexdigest()
        prev = hashlib.sha256(line).hexdigest()
    assert prev == EXPECTED["last_hash"]


@pytest.mark.parametrize(
    ("mutate", "first_problem"),
    [
        (
            lambda d: _replace(d / "audit-000002.jsonl", b'"outcome":"ok"', b'"outcome":"no"'),
            "segment 2, line 1: its MAC does not match: the record was modified or forged",
        ),
        (
            lambda d: (d / "audit-000003.jsonl").unlink(),
            "before segment 4: segment 3 missing",
        ),
        (
            lambda d: _drop_last(d / "audit-000004.jsonl"),
            "the end of the log: the log ends at record 11, but the store anchored record 12: "
            "the newest records were removed",
        ),
    ],
    ids=["modified", "segment removed", "truncated"],
)
def test_tampered_copies_name_their_first_problem(
    log: Path, mutate: Callable[[Path], object], first_problem: str
) -> None:
    """Three tampered copies of the vector, each with the exact first problem verify names."""
    mutate(log)
    report = examine(log, keys(), anchor=tuple(EXPECTED["anchor"]))  # type: ignore[arg-type]
    assert str(report.problems[0]) == first_problem


def _replace(path: Path, old: bytes, new: bytes) -> None:
    data = path.read_bytes()
    assert old in data
    path.write_bytes(data.replace(old, new, 1))


def _drop_last(path: Path) -> None:
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:-1]))


def test_the_checkpoint_vector_is_signed_as_documented() -> None:
    """The checkpoint's signature is Ed25519, by the key seeded with HKDF(master, vault id,
    "memvault/v1/audit-checkpoint"), over the compact sorted JSON of its fields."""
    body = json.loads((VECTORS / "checkpoint.json").read_text())
    signed = {k: body[k] for k in ("format", "vault", "size", "head", "time", "public_key")}
    data = json.dumps(signed, separators=(",", ":"), sort_keys=True).encode()
    public = bytes.fromhex(body["public_key"])
    Ed25519PublicKey.from_public_bytes(public).verify(bytes.fromhex(body["signature"]), data)
    assert public == keys().public_key
    assert (body["size"], body["head"]) == (EXPECTED["records"], EXPECTED["last_hash"])
    assert read_checkpoint(json.dumps(body), keys(), "cp.json")["size"] == EXPECTED["records"]


def test_an_altered_checkpoint_vector_is_refused() -> None:
    """A checkpoint whose size was changed after signing is refused, naming the alteration."""
    body = json.loads((VECTORS / "checkpoint.json").read_text())
    body["size"] += 1
    with pytest.raises(UsageError) as caught:
        read_checkpoint(json.dumps(body), keys(), "cp.json")
    assert caught.value.message == (
        "cp.json: the signature does not match: the checkpoint was altered"
    )
