"""The data lifecycle: key rotation, erasure, export, import and retention.

Each operation is a bounded, resumable sequence of store transactions over the
parts of an open vault (:class:`Parts`), recorded in the audit log through the
operator-record path. :class:`~memvault.Vault` exposes each as a method; the
``memvault`` command line calls those.
"""

from ._export import (
    EXPORT_FORMATS,
    EXPORT_RECORD,
    ExportReport,
    Snapshot,
    export_memories,
    read_snapshot,
)
from ._import import IMPORT_RECORD, FileResult, ImportReport, RunnerFor, import_memories
from ._parts import Parts

__all__ = [
    "EXPORT_FORMATS",
    "EXPORT_RECORD",
    "IMPORT_RECORD",
    "ExportReport",
    "FileResult",
    "ImportReport",
    "Parts",
    "RunnerFor",
    "Snapshot",
    "export_memories",
    "import_memories",
    "read_snapshot",
]
