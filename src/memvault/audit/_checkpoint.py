"""Checkpoints: a signed statement of the log's size and head, kept away from the machine.

``memvault audit checkpoint`` signs (Ed25519, with a key derived from the
master key) the number of records and the hash of the newest; ``audit verify
--checkpoint FILE`` later proves the log still extends it, which is what
catches a log rewritten or cut back together with its store.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from .. import _crypto
from ..errors import IntegrityError, UsageError
from ._keys import AuditKeys

CHECKPOINT_FIELDS = ("format", "vault", "size", "head", "time", "public_key")


def make_checkpoint(keys: AuditKeys, size: int, head: str) -> dict[str, Any]:
    """A signed statement of the log's size and head hash, to keep away from this machine."""
    body: dict[str, Any] = {
        "format": "memvault-audit-checkpoint/1",
        "vault": keys.vault_id,
        "size": size,
        "head": head,
        "time": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
        "public_key": keys.public_key.hex(),
    }
    body["signature"] = keys.sign(_signed_bytes(body)).hex()
    return body


def _signed_bytes(body: dict[str, Any]) -> bytes:
    return json.dumps(
        {name: body[name] for name in CHECKPOINT_FIELDS}, separators=(",", ":"), sort_keys=True
    ).encode()


def read_checkpoint(text: str, keys: AuditKeys, source: str) -> dict[str, Any]:
    """Parse and authenticate a checkpoint; raises UsageError saying what is wrong."""
    try:
        body = json.loads(text)
        if not isinstance(body, dict):
            raise ValueError
        missing = [name for name in (*CHECKPOINT_FIELDS, "signature") if name not in body]
        if missing:
            raise UsageError(
                f"{source} is not a memvault checkpoint: it lacks {', '.join(missing)}"
            )
        signature = bytes.fromhex(body["signature"])
        public_key = bytes.fromhex(body["public_key"])
        size = body["size"]
        if not isinstance(size, int) or size < 0 or not isinstance(body["head"], str):
            raise ValueError
    except (ValueError, TypeError, AttributeError):
        raise UsageError(f"{source} is not a valid memvault checkpoint (malformed JSON)") from None
    if body["vault"] != keys.vault_id:
        raise UsageError(f"{source} is a checkpoint of vault {body['vault']}, not {keys.vault_id}")
    if public_key != keys.public_key:
        raise UsageError(
            f"{source} was not signed by this vault's checkpoint key (another key signed it)"
        )
    try:
        _crypto.verify_signature(public_key, signature, _signed_bytes(body))
    except IntegrityError:
        raise UsageError(
            f"{source}: the signature does not match: the checkpoint was altered"
        ) from None
    return body
