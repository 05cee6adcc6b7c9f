"""Exporting the audit log for a SIEM: Elastic Common Schema, OCSF API Activity, JSON Lines.

An export holds what ``audit show`` shows: users' names and opened paths, in
plaintext, and they stay in the file after a user's erasure. Keep exports as
sensitive as the data itself."""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .. import _fs
from .._text import clean_text
from ..errors import UsageError
from ._filters import Filters
from ._record import OUTCOMES
from ._render import dumps
from ._review import Entry, Scan, Source

EXPORT_FORMATS = ("ecs", "ocsf", "jsonl")
ECS_VERSION = "8.11.0"
OCSF_VERSION = "1.1.0"


# -- export ----------------------------------------------------------------------------


def export(
    vault: Source,
    filters: Filters | None,
    fmt: str,
    out_path: str | os.PathLike[str],
    *,
    overwrite: bool = False,
) -> int:
    """Write the filtered records to ``out_path`` as JSON Lines in ``fmt`` (``ecs``,
    ``ocsf`` or ``jsonl``, the form of ``show --json``); returns how many.

    The file is written whole or not at all (:func:`memvault._fs.new_file`),
    with mode 0600: it holds opened paths and
    user names, which stay readable there after an erasure. An existing file is
    kept unless ``overwrite``; a file inside the vault's home is always refused.
    """
    convert: Callable[[Entry, str], dict[str, Any]] | None = {
        "ecs": to_ecs,
        "ocsf": to_ocsf,
        "jsonl": lambda entry, _: entry.to_json(),
    }.get(fmt)
    if convert is None:
        raise UsageError(
            f"{clean_text(fmt)!r} is not an export format", hint=f"use {', '.join(EXPORT_FORMATS)}"
        )
    target = Path(out_path).absolute()
    _check_target(vault, target, overwrite)
    written = 0
    with _fs.new_file(target, mode=0o600, replace=overwrite) as write:
        batch: list[str] = []
        for entry in Scan(vault, filters):
            batch.append(dumps(convert(entry, vault.vault_id)) + "\n")
            written += 1
            if len(batch) >= _BATCH:
                write("".join(batch).encode())
                batch = []
        write("".join(batch).encode())
    return written


_BATCH = 512  # records per write


def _check_target(vault: Source, target: Path, overwrite: bool) -> None:
    if vault.home is not None:  # (a vault in a database has no files to overwrite)
        home = vault.home.resolve()
        where = target.parent.resolve() / target.name
        if where == home or home in where.parents:
            raise UsageError(
                f"{target} is inside the vault's home, where an export could replace the "
                "vault's own files",
                hint="write the export outside the home",
            )
    if not overwrite and os.path.lexists(target):
        raise UsageError(
            f"{target} already exists; it was left as it is",
            hint="choose a new file name, or pass --overwrite",
        )


# -- mappings to common schemas --------------------------------------------------------

# What each memory command does to a memory file, in ECS event.type and OCSF
# API Activity terms. ECS 8.11 expects creation, change, deletion or info
# with the file category (access is not among them there).
_ECS_FILE_TYPE = {
    "view": "info",
    "create": "creation",
    "str_replace": "change",
    "insert": "change",
    "rename": "change",
    "delete": "deletion",
}
_OCSF_ACTIVITY = {"create": 1, "view": 2, "str_replace": 3, "insert": 3, "rename": 3, "delete": 4}
_OCSF_ACTIVITY_NAME = {0: "Unknown", 1: "Create", 2: "Read", 3: "Update", 4: "Delete", 99: "Other"}
# An outcome's weight for a reviewer: refusals are routine, a blocked secret or a
# change that never committed needs a look, a failure of the vault needs action.
_OCSF_SEVERITY = {
    "ok": 1,
    "error": 1,
    "invalid": 1,
    "refused": 2,
    "limit": 2,
    "blocked": 3,
    "not_applied": 3,
    "failed": 4,
}
_OCSF_SEVERITY_NAME = {0: "Unknown", 1: "Informational", 2: "Low", 3: "Medium", 4: "High"}


def _ecs_outcome(outcome: str) -> str:
    if outcome == "ok":
        return "success"
    return "failure" if outcome in OUTCOMES else "unknown"


def _ecs_operator_type(command: str) -> str:
    action = command.rpartition(".")[2]
    if action == "create":
        return "creation"
    if action in ("change", "rotate"):
        return "change"
    if action in ("delete", "erase", "expire"):
        return "deletion"
    return "info"


def to_ecs(entry: Entry, vault_id: str) -> dict[str, Any]:
    """One record as an Elastic Common Schema (8.11) document."""
    memory = entry.command in _ECS_FILE_TYPE or entry.command == "invalid"
    event: dict[str, Any] = {
        "kind": "event",
        "module": "memvault",
        "dataset": "memvault.audit",
        "provider": "memvault",
        "id": f"{vault_id}-{entry.seq}",
        "sequence": entry.seq,
        "action": entry.command,
        "category": ["file"] if memory else ["configuration"],
        "type": [_ECS_FILE_TYPE.get(entry.command, "info")]
        if memory
        else [_ecs_operator_type(entry.command)],
        "outcome": _ecs_outcome(entry.outcome),
    }
    doc: dict[str, Any] = {
        "@timestamp": entry.time,
        "ecs": {"version": ECS_VERSION},
        "event": event,
    }
    if entry.pseudonym:
        doc["user"] = _compact({"id": entry.pseudonym, "name": entry.name})
    if entry.paths:
        doc["file"] = {"path": entry.paths[0]}
    if entry.error:
        doc["error"] = {"code": entry.error}
    doc["process"] = _compact(
        {"pid": entry.pid, "user": {"id": str(entry.uid)} if entry.uid is not None else None}
    )
    if entry.host:
        doc["host"] = {"hostname": entry.host}
    doc["memvault"] = _own_fields(entry, _ECS_OWN)
    return doc


def to_ocsf(entry: Entry, vault_id: str) -> dict[str, Any]:
    """One record as an OCSF 1.1.0 API Activity event (class 6003)."""
    if entry.command in _OCSF_ACTIVITY:
        activity = _OCSF_ACTIVITY[entry.command]
        activity_name = _OCSF_ACTIVITY_NAME[activity]
    elif entry.command == "invalid":
        activity, activity_name = 0, "Unknown"  # the input named no command we know
    else:
        activity, activity_name = 99, entry.command  # 99 Other: the name is the source's own
    severity = _OCSF_SEVERITY.get(entry.outcome, 0)
    status_id = 1 if entry.outcome == "ok" else 2 if entry.outcome in OUTCOMES else 0
    actor = _ocsf_actor(entry)
    event: dict[str, Any] = {
        "activity_id": activity,
        "activity_name": activity_name,
        "category_uid": 6,
        "category_name": "Application Activity",
        "class_uid": 6003,
        "class_name": "API Activity",
        "type_uid": 6003 * 100 + activity,
        "type_name": f"API Activity: {_OCSF_ACTIVITY_NAME.get(activity, 'Other')}",
        "time": _epoch_ms(entry.time),
        "severity_id": severity,
        "severity": _OCSF_SEVERITY_NAME[severity],
        "status_id": status_id,
        "status": {0: "Unknown", 1: "Success", 2: "Failure"}[status_id],
        "status_code": entry.outcome,
        "actor": actor,
        "api": _compact(
            {
                "operation": entry.command,
                "service": {"name": "memvault"},
                "response": {"error": entry.error} if entry.error else None,
            }
        ),
        "src_endpoint": {"hostname": entry.host} if entry.host else {},
        "metadata": _ocsf_metadata(entry, vault_id),
    }
    if entry.error:
        event["status_detail"] = entry.error
    if entry.paths:
        event["resources"] = [{"name": path, "type": "memory"} for path in entry.paths]
    event["unmapped"] = _own_fields(entry, _OCSF_UNMAPPED)
    return event


# memvault's own fields, which neither schema has a place for: (name in the export, getter).
# ECS keeps them under "memvault", OCSF under "unmapped"; each keeps only what it does not
# map elsewhere already.
_OWN: dict[str, Callable[[Entry], Any]] = {
    "schema": lambda e: e.v,
    "seq": lambda e: e.seq,
    "outcome": lambda e: e.outcome,
    "session": lambda e: e.session,
    "paths": lambda e: e.paths,
    "paths_sealed": lambda e: e.sealed or None,
    "findings": lambda e: e.findings,
    "before": lambda e: e.before,
    "after": lambda e: e.after,
    "key_version": lambda e: e.key_version,
    "txn": lambda e: e.txn,
    "ref": lambda e: e.ref,
    "details": lambda e: e.details,
}
_ECS_OWN = ("schema", "outcome", "session", "paths", "paths_sealed", "findings", "before",
            "after", "key_version", "txn", "ref", "details")  # fmt: skip
_OCSF_UNMAPPED = ("seq", "paths_sealed", "findings", "before", "after", "key_version", "txn",
                  "ref", "details")  # fmt: skip


def _own_fields(entry: Entry, names: tuple[str, ...]) -> dict[str, Any]:
    return _compact({name: _OWN[name](entry) for name in names})


def _ocsf_actor(entry: Entry) -> dict[str, Any]:
    """Who acted: the user (pseudonym and, while known, name), the session, the process."""
    return _compact(
        {
            "user": _compact({"uid": entry.pseudonym, "name": entry.name})
            if entry.pseudonym
            else None,
            "session": {"uid": entry.session} if entry.session else None,
            "process": _compact(
                {
                    "pid": entry.pid,
                    "user": {"uid": str(entry.uid)} if entry.uid is not None else None,
                }
            ),
        }
    )


def _ocsf_metadata(entry: Entry, vault_id: str) -> dict[str, Any]:
    return _compact(
        {
            "version": OCSF_VERSION,
            "product": _compact(
                {"name": "memvault", "vendor_name": "memvault", "version": _product_version()}
            ),
            "uid": f"{vault_id}-{entry.seq}",
            "log_name": "audit",
            "log_version": str(entry.v) if entry.v is not None else None,
            "original_time": entry.time,
        }
    )


def _epoch_ms(time: str) -> int | None:
    try:
        moment = datetime.fromisoformat(time)
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return int(moment.timestamp() * 1000)


def _compact(fields: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in fields.items() if value is not None}


@functools.cache
def _product_version() -> str | None:
    from importlib import metadata  # here: importing it costs every process ~50 ms

    try:
        return metadata.version("memvault")
    except metadata.PackageNotFoundError:
        return None
