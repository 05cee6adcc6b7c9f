"""Write the audit-log known-answer vector in ``tests/vectors/audit/`` (run by hand, once).

    .venv/bin/python -m tests.support.make_audit_vector

It opens a fresh vault under a fixed master key, runs a short session of two
users (every command, refusals included) with segments small enough that the
log spans three files, writes a signed checkpoint, and copies out the segment
files, the master key, the vault id, and what verify must say: the record
count, the head hash, and the first problem of a few tampered copies. The
files are then frozen: a change to how records are written or checked that
alters any of it fails ``tests/unit/audit/test_vectors.py``.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import tempfile
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "vectors" / "audit"
MASTER = bytes(range(32))
SESSION = [
    ("alice", {"command": "create", "path": "/memories/a.md", "file_text": "one\ntwo\n"}),
    ("bob", {"command": "create", "path": "/memories/b.md", "file_text": "bee\n"}),
    (
        "alice",
        {"command": "str_replace", "path": "/memories/a.md", "old_str": "one", "new_str": "1"},
    ),
    ("alice", {"command": "view", "path": "/memories"}),
    ("bob", {"command": "view", "path": "/etc/passwd"}),
    (
        "alice",
        {"command": "insert", "path": "/memories/a.md", "insert_line": 0, "insert_text": "t"},
    ),
    ("bob", {"command": "frob"}),
    ("alice", {"command": "rename", "old_path": "/memories/a.md", "new_path": "/memories/c.md"}),
    ("bob", {"command": "delete", "path": "/memories/b.md"}),
    ("alice", {"command": "view", "path": "/memories/c.md"}),
]


def main() -> None:
    work = Path(tempfile.mkdtemp())
    os.environ["MEMVAULT_MASTER_KEY"] = base64.b64encode(MASTER).decode()
    os.environ["MEMVAULT_AUDIT_SEGMENT_BYTES"] = "2048"
    from memvault import Vault
    from memvault.audit import examine, make_checkpoint

    home = work / "home"
    with Vault.open(home) as vault:
        for user, command in SESSION:
            vault.runner(user).run(command)
        size, head = vault.audit.head()
        checkpoint = make_checkpoint(vault.audit.keys, size, head)
        vault_id = vault.vault_id
    with Vault._open(home, audit_problems=[]) as vault:
        report = examine(vault.audit.directory, vault.audit.keys, anchor=vault.audit.store_head())
        anchor = vault.audit.store_head()
    assert report.intact, report.problems
    shutil.rmtree(OUT, ignore_errors=True)
    (OUT / "log").mkdir(parents=True)
    for segment in sorted((home / "audit").glob("audit-*.jsonl")):
        shutil.copy(segment, OUT / "log" / segment.name)
    expected = {
        "vault_id": vault_id,
        "master_key": base64.b64encode(MASTER).decode(),
        "records": report.records,
        "segments": report.segments,
        "last_hash": report.last_hash,
        "anchor": [anchor[0], anchor[1]],
    }
    (OUT / "expected.json").write_text(json.dumps(expected, indent=2) + "\n")
    (OUT / "checkpoint.json").write_text(json.dumps(checkpoint, indent=2) + "\n")
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
