"""The data lifecycle: key rotation, erasure, export, import and retention.

Each operation is a bounded, resumable sequence of store transactions over the
parts of an open vault (:class:`Parts`), recorded in the audit log through the
operator-record path. :class:`~memvault.Vault` exposes each as a method; the
``memvault`` command line calls those.
"""

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
from ._keylist import key_report
from ._master import MasterRotation, begin, commit, pending_rotation, rewrap_all, rotate_master
from ._parts import Parts
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
    "EXPORT_FORMATS",
    "EXPORT_RECORD",
    "IMPORT_RECORD",
    "Erasure",
    "ExportReport",
    "FileResult",
    "ImportReport",
    "MasterRotation",
    "Parts",
    "Progress",
    "Rotation",
    "RunnerFor",
    "Snapshot",
    "begin",
    "commit",
    "erase_user",
    "export_memories",
    "find_user",
    "import_memories",
    "key_report",
    "pending_memories",
    "pending_rotation",
    "read_snapshot",
    "rewrap_all",
    "rotate_master",
    "rotate_user",
    "start",
    "user_names",
]
