"""The operator-facing event log (not the audit log).

Events go through the standard ``logging`` logger ``memvault`` as one JSON
object per line, so an application routes them with its own logging setup (by
default Python prints warnings and errors to stderr). Events carry kinds,
commands and counts; never memory text, names, secrets or key material.
"""

from __future__ import annotations

import logging

import structlog

log: structlog.stdlib.BoundLogger = structlog.wrap_logger(
    logging.getLogger("memvault"),
    wrapper_class=structlog.stdlib.BoundLogger,
    processors=[
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
        structlog.processors.JSONRenderer(),
    ],
)
