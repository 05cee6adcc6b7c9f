"""The bytes of a record are the JSON module's own, whatever the fields hold.

The appender encodes a record without going through ``json.dumps`` each time
(the encoder is made once, the sealed path list is joined by hand); these
tests hold it to the documented form: compact, ASCII only, fields in order, so
that decoding a line and encoding it again with ``json.dumps`` gives the same
bytes, for odd details, odd paths and every command outcome.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest

from memvault import Vault
from memvault._crypto import Key, Sealer, context, derive, open_blob
from memvault.audit import FIELDS, MAC_SUFFIX_LEN, UserAuditKey, segments
from memvault.keys import labels

ODD = 'é ü 中文 🙂 \u2028 \x00 \x1f " \\ / \ud7ff \ue000 \U0010ffff'
DETAILS: list[dict[str, Any]] = [
    {"text": ODD, "nested": {"list": [1, -2, 3.5, True, False, None, "x"], "empty": {}}},
    {"big": 2**70, "neg": -(2**63), "float": 1e-300, "inf_free": 0.1 + 0.2, "list": []},
    {"1": "key that looks like a number", "": "empty key", ODD: ODD},
]


def _bodies(home: Path) -> list[bytes]:
    lines = [line for _, p in segments(home / "audit") for line in p.read_bytes().splitlines()]
    return [line[:-MAC_SUFFIX_LEN] + b"}" for line in lines]


@pytest.mark.sqlite_only("works on the home directory's files")
def test_every_record_is_byte_for_byte_what_json_dumps_writes(home: Path) -> None:
    with Vault.open(home) as v:
        for details in DETAILS:
            v.record_operation("audit.checkpoint", details=details)
        v.record_operation("audit.checkpoint", outcome="failed", error="storage")
        runner = v.runner("alice", session="s-1")
        runner.run({"command": "create", "path": "/memories/é 中.md", "file_text": "a\nb\n"})
        runner.run({"command": "view", "path": "/memories/é 中.md"})
        runner.run(
            {
                "command": "str_replace",
                "path": "/memories/é 中.md",
                "old_str": "a",
                "new_str": "jane.doe@example.org",
            }
        )
        runner.run(
            {"command": "rename", "old_path": "/memories/é 中.md", "new_path": "/memories/d/x.md"}
        )
        runner.run({"command": "view", "path": "/memories/../x"})
        runner.run({"command": "nope"})
        runner.run({"command": "delete", "path": "/memories/d"})
    bodies = _bodies(home)
    assert len(bodies) >= 12
    for body in bodies:
        record = json.loads(body)
        assert list(record) == list(FIELDS)
        again = json.dumps(record, ensure_ascii=True, separators=(",", ":")).encode()
        assert again == body
    details = [json.loads(b)["details"] for b in bodies if b'"audit.checkpoint"' in b]
    assert details[: len(DETAILS)] == DETAILS


def test_a_sealed_path_list_holds_the_json_of_the_paths() -> None:
    """The sealed plaintext is ``json.dumps(paths, ensure_ascii=False)``, which opens back
    to the same list, for any text a path may be rendered as."""
    raw, pseudonym = Key(b"k" * 32), "u:0123456789abcdef0123"
    key = UserAuditKey(raw, pseudonym)
    sealer = Sealer(derive(raw, labels.KDF_AUDIT_PATHS), 1)
    ctx = context(labels.AAD_AUDIT_PATHS, pseudonym)
    for paths in (["/memories"], ["/memories/a b.md", f"/memories/{ODD}"], ['"', "\\", ""]):
        sealed = key.seal_paths(paths)
        assert sealed is not None
        plain = open_blob(base64.b64decode(sealed), ctx, lambda _: sealer)
        assert plain == json.dumps(paths, ensure_ascii=False).encode()
        assert key.open_paths(sealed) == paths
