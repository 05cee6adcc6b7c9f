"""The data lifecycle: key rotation, erasure, export, import and retention.

Each operation is a bounded, resumable sequence of store transactions over the
parts of an open vault (:class:`Parts`), recorded in the audit log through the
operator-record path. :class:`~memvault.Vault` exposes each as a method; the
``memvault`` command line calls those.
"""

from ._import import IMPORT_RECORD, FileResult, ImportReport, RunnerFor, import_memories
from ._parts import Parts

__all__ = [
    "IMPORT_RECORD",
    "FileResult",
    "ImportReport",
    "Parts",
    "RunnerFor",
    "import_memories",
]
