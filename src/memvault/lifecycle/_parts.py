"""What a lifecycle operation works with: the parts of one open vault."""

from __future__ import annotations

import os
import pwd
import threading
from dataclasses import dataclass
from pathlib import Path

from ..audit import Event, Log, UserAuditKey
from ..keys import KeyProvider, MasterKeys
from ..memory import Handlers
from ..store import LogStore


@dataclass(frozen=True)
class Parts:
    """An open vault's store, keys, log and handlers, and the lock that serializes its
    use by threads of this process (other processes are excluded by the store's
    write transactions)."""

    home: Path | None
    store: LogStore
    master: MasterKeys
    audit: Log
    handlers: Handlers
    lock: threading.RLock
    provider: KeyProvider | None = None  # where the current master key came from

    def user_key(self, user: str) -> UserAuditKey:
        """How the log names ``user`` (their keyed pseudonym), for an operator record
        about them: it seals no paths and keys no digests."""
        return UserAuditKey(None, self.audit.keys.user(user))

    def record(self, event: Event) -> int:
        """Append an operator record in a write transaction of its own; returns its
        sequence number. Raises if the record cannot be written."""
        with (
            self.lock,
            self.audit.holding(),
            self.store.transaction(write=True, action="recording an operation"),
        ):
            return self.audit.record(event, txn=True)


def operator() -> str:
    """Who runs a lifecycle command, for its record: the operating-system account."""
    try:
        return pwd.getpwuid(os.geteuid()).pw_name
    except (KeyError, OSError):
        return f"uid {os.geteuid()}"
