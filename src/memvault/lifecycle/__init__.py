"""The data lifecycle: key rotation, erasure, export, import and retention.

Each operation is a bounded, resumable sequence of store transactions over the
parts of an open vault (:class:`Parts`), recorded in the audit log through the
operator-record path. :class:`~memvault.Vault` exposes each as a method; the
``memvault`` command line calls those.
"""

from ._inventory import LIST_RECORD, UserSummary, list_users
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

__all__ = [
    "EXPIRE_RECORD",
    "LIST_RECORD",
    "RUN_RECORD",
    "Expired",
    "Expiry",
    "Found",
    "Parts",
    "UserSummary",
    "check_period",
    "expire",
    "list_users",
    "parse_period",
]
