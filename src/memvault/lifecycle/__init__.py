"""The data lifecycle: key rotation, erasure, export, import and retention.

Each operation is a bounded, resumable sequence of store transactions over the
parts of an open vault (:class:`Parts`), recorded in the audit log through the
operator-record path. :class:`~memvault.Vault` exposes each as a method; the
``memvault`` command line calls those.
"""

from ._master import MasterRotation, pending_rotation, rotate_master
from ._parts import Parts
from ._rotate import BATCH_BYTES, BATCH_NODES, Progress, Rotation, rotate_user, user_names

__all__ = [
    "BATCH_BYTES",
    "BATCH_NODES",
    "MasterRotation",
    "Parts",
    "Progress",
    "Rotation",
    "pending_rotation",
    "rotate_master",
    "rotate_user",
    "user_names",
]
