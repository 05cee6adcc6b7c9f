"""Helpers for the tests that run on a small mounted file system (marked ``mounts``)."""

from __future__ import annotations

import errno
import os
from pathlib import Path


def fill(directory: Path) -> Path:
    """Take every free page of the file system under ``directory``; returns the filler."""
    filler = directory / "filler.bin"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        chunk = b"\0" * 65536
        while True:
            try:
                if os.write(fd, chunk) < len(chunk):
                    chunk = chunk[:4096]
            except OSError as exc:
                assert exc.errno == errno.ENOSPC
                if len(chunk) == 1:
                    break
                chunk = chunk[: max(1, len(chunk) // 16)]
    finally:
        os.close(fd)
    return filler
