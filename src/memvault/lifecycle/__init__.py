"""The data lifecycle: key rotation, erasure, export, import and retention.

Each operation is a bounded, resumable sequence of store transactions over the
parts of an open vault (:class:`Parts`), recorded in the audit log through the
operator-record path. :class:`~memvault.Vault` exposes each as a method; the
``memvault`` command line calls those.
"""

from ._check import CHECK_RECORD, CheckReport, check_vault
from ._erase import Erasure, erase_user
from ._export import (
    EXPORT_FORMATS,
    EXPORT_RECORD,
    ExportReport,
    Snapshot,
    export_memories,
    read_snapshot,
)
from ._import import IMPORT_RECORD, FileResult, ImportReport, RunnerFor, import_memories
from ._inventory import LIST_RECORD, UserSummary, list_users
from ._keylist import key_report
from ._master import MasterRotation, begin, commit, pending_rotation, rewrap_all, rotate_master
from ._move import MARK as MOVE_MARK
from ._move import Move, move, read_mark, source_mark
from ._parts import Parts
from ._retention import (
    EXPIRE_RECORD,
    RUN_RECORD,
    Expired,
    Expiry,
    Found,
    check_period,
    expire,
    parse_period,
)
from ._rotate import (
    BATCH_BYTES,
    BATCH_NODES,
    Progress,
    Rotation,
    find_user,
    pending_memories,
    rotate_user,
    start,
    user_names,
)

__all__ = [
    "BATCH_BYTES",
    "BATCH_NODES",
    "CHECK_RECORD",
    "EXPIRE_RECORD",
    "EXPORT_FORMATS",
    "EXPORT_RECORD",
    "IMPORT_RECORD",
    "LIST_RECORD",
    "MOVE_MARK",
    "RUN_RECORD",
    "CheckReport",
    "Erasure",
    "Expired",
    "Expiry",
    "ExportReport",
    "FileResult",
    "Found",
    "ImportReport",
    "MasterRotation",
    "Move",
    "Parts",
    "Progress",
    "Rotation",
    "RunnerFor",
    "Snapshot",
    "UserSummary",
    "begin",
    "check_period",
    "check_vault",
    "commit",
    "erase_user",
    "expire",
    "export_memories",
    "find_user",
    "import_memories",
    "key_report",
    "list_users",
    "move",
    "parse_period",
    "pending_memories",
    "pending_rotation",
    "read_mark",
    "read_snapshot",
    "rewrap_all",
    "rotate_master",
    "rotate_user",
    "source_mark",
    "start",
    "user_names",
]
