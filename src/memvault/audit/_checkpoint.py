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
FORMAT = "memvault-audit-checkpoint/1"
# A log in chains (a vault on PostgreSQL): every chain's head, signed together.
CHAINS_FORMAT = "memvault-audit-checkpoint/2"


def make_checkpoint(
    keys: AuditKeys, size: int, head: str, chains: dict[int, tuple[int, str]] | None = None
) -> dict[str, Any]:
    """A signed statement of the log's size and head hash, to keep away from this machine.
    For a log in chains, ``chains`` holds each chain's (newest number, its hash); ``size``
    counts the records of all, and ``head`` is the hash of the chains' heads."""
    body: dict[str, Any] = {
        "format": FORMAT if chains is None else CHAINS_FORMAT,
        "vault": keys.vault_id,
        "size": size,
        "head": head,
        "time": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
        "public_key": keys.public_key.hex(),
    }
    if chains is not None:
        body["chains"] = {str(c): [seq, digest] for c, (seq, digest) in sorted(chains.items())}
    body["signature"] = keys.sign(_signed_bytes(body)).hex()
    return body


def _fields(body: dict[str, Any]) -> tuple[str, ...]:
    return CHECKPOINT_FIELDS + (("chains",) if body.get("format") == CHAINS_FORMAT else ())


def _signed_bytes(body: dict[str, Any]) -> bytes:
    return json.dumps(
        {name: body[name] for name in _fields(body)}, separators=(",", ":"), sort_keys=True
    ).encode()


def chain_heads(body: dict[str, Any]) -> dict[int, tuple[int, str]] | None:
    """The chains' heads a checkpoint signed (None: a checkpoint of a log of files)."""
    if body.get("format") != CHAINS_FORMAT:
        return None
    return {int(c): (int(v[0]), str(v[1])) for c, v in body["chains"].items()}


def heads_in_chains(body: dict[str, Any]) -> dict[int, tuple[int, str]]:
    """The heads a checkpoint signed, as a log in chains holds them: a checkpoint of a log
    of files (taken before the vault moved into a database) signed the record that is now
    the archive's (chain -1) record of that number."""
    heads = chain_heads(body)
    if heads is not None:
        return heads
    size = int(body["size"])
    return {-1: (size, str(body["head"]))} if size else {}


def read_checkpoint(text: str, keys: AuditKeys, source: str) -> dict[str, Any]:
    """Parse and authenticate a checkpoint; raises UsageError saying what is wrong."""
    try:
        body = json.loads(text)
        if not isinstance(body, dict):
            raise ValueError
        if body.get("format") not in (FORMAT, CHAINS_FORMAT):
            raise UsageError(
                f"{source} is not a checkpoint this memvault reads (format "
                f"{str(body.get('format'))[:60]!r})"
            )
        missing = [name for name in (*_fields(body), "signature") if name not in body]
        if missing:
            raise UsageError(
                f"{source} is not a memvault checkpoint: it lacks {', '.join(missing)}"
            )
        signature = bytes.fromhex(body["signature"])
        public_key = bytes.fromhex(body["public_key"])
        size = body["size"]
        if not isinstance(size, int) or size < 0 or not isinstance(body["head"], str):
            raise ValueError
        if body["format"] == CHAINS_FORMAT:
            _check_chains(body["chains"])
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


def _check_chains(chains: object) -> None:
    """A checkpoint's chains: ``{"<chain>": [<number>, "<hash>"], ...}``; ValueError if not."""
    if not isinstance(chains, dict):
        raise ValueError
    for chain, head in chains.items():
        if not (
            isinstance(chain, str)
            and (chain.isdigit() or chain == "-1")  # -1: the archive of a moved log of files
            and isinstance(head, list)
            and len(head) == 2
            and type(head[0]) is int
            and isinstance(head[1], str)
        ):
            raise ValueError
