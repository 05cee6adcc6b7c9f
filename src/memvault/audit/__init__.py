"""The audit log: one chained, keyed record per command, anchored in the store.

The layer's public names; everything else in the package is private. See
``docs/audit-schema.md`` for the record format and ``docs/architecture.md``
for how a record is made durable together with the change it describes.
"""

from ._anchor import ANCHOR_EVERY
from ._appender import AuditLog
from ._chain import Problem, Report
from ._chains import ChainLedger, ChainState, chain_of, label
from ._checkpoint import make_checkpoint, read_checkpoint
from ._db_log import DbAuditLog, DbLedger
from ._export import EXPORT_FORMATS, export, to_ecs, to_ocsf
from ._files import DIR_NAME, MIN_SEGMENT_BYTES, SEGMENT_ENV
from ._filters import Filters, parse_filters
from ._keys import AuditKeys, ForwardState, UserAuditKey, forward_key_text, read_forward_key
from ._ledger import Bound, Change, Ledger, LedgerState, committed_changes
from ._record import FIELDS, MAC_SUFFIX_LEN, MEMORY_COMMANDS, OUTCOMES, Event
from ._render import count, show, stats
from ._review import SEALED, Scan, Source
from ._segments import line_hash, segments
from ._verify import examine, verify

# Either kind of audit log: files in the home, or the vault database's (PostgreSQL).
Log = AuditLog | DbAuditLog

__all__ = [
    "ANCHOR_EVERY",
    "DIR_NAME",
    "EXPORT_FORMATS",
    "FIELDS",
    "MAC_SUFFIX_LEN",
    "MEMORY_COMMANDS",
    "MIN_SEGMENT_BYTES",
    "OUTCOMES",
    "SEALED",
    "SEGMENT_ENV",
    "AuditKeys",
    "AuditLog",
    "Bound",
    "ChainLedger",
    "ChainState",
    "Change",
    "DbAuditLog",
    "DbLedger",
    "Event",
    "Filters",
    "ForwardState",
    "Ledger",
    "LedgerState",
    "Log",
    "Problem",
    "Report",
    "Scan",
    "Source",
    "UserAuditKey",
    "chain_of",
    "committed_changes",
    "count",
    "examine",
    "export",
    "forward_key_text",
    "label",
    "line_hash",
    "make_checkpoint",
    "parse_filters",
    "read_checkpoint",
    "read_forward_key",
    "segments",
    "show",
    "stats",
    "to_ecs",
    "to_ocsf",
    "verify",
]
