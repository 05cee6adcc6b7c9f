"""Master key files: read with their permissions checked, written whole or not at all.

A key file holds the standard base64 of 32 random bytes and a newline. It is
created with mode 0600 through :func:`memvault._fs.write_new`, so a crash
leaves either no file or the whole key, never a stray partial copy; a file
that other users can read, or that is not a regular file, is refused.
"""

from __future__ import annotations

import base64
import binascii
import os
import stat
from pathlib import Path

from .. import _crypto, _fs
from .._crypto import Key
from ..errors import MasterKeyError, StorageError

_MAX_FILE = 4096


def decode_key(text: str, source: str) -> Key:
    """The key in ``text`` (base64 of 32 bytes); MasterKeyError naming ``source`` if not."""
    try:
        raw = base64.b64decode(text.strip(), validate=True)
    except (binascii.Error, ValueError):
        raise MasterKeyError(
            f"the master key in {source} is not valid base64",
            hint="it must be the standard base64 encoding of 32 random bytes",
        ) from None
    if len(raw) != _crypto.KEY_SIZE:
        raise MasterKeyError(
            f"the master key in {source} is {len(raw)} bytes long; it must be 32",
            hint="generate one with: python -c 'import os,base64;"
            "print(base64.b64encode(os.urandom(32)).decode())'",
        )
    return Key(raw)


def encode_key(key: Key) -> str:
    """Standard base64, the form ``MEMVAULT_MASTER_KEY`` and key files take."""
    return base64.b64encode(key.export_raw()).decode()


def read_key_file(path: Path) -> Key | None:
    """The key in ``path``, None if there is no such file; MasterKeyError if it is
    unreadable, too widely readable, not a regular file, or not a key."""
    try:
        # O_NONBLOCK: a FIFO (or a device) given as the key file is refused below at
        # once, instead of waiting for a writer that may never come.
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise MasterKeyError(f"cannot read the master key file {path}: {_fs.reason(exc)}") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise MasterKeyError(
                f"the master key file {path} is not a regular file",
                hint="point it at the 0600 file that holds the key (not a pipe or a device)",
            )
        if mode & 0o077:
            raise MasterKeyError(
                f"the master key file {path} is accessible to other users "
                f"(mode {stat.S_IMODE(mode):04o})",
                hint=f"run: chmod 600 {path}",
            )
        text = os.read(fd, _MAX_FILE).decode("ascii", "replace")
    except OSError as exc:
        raise MasterKeyError(f"cannot read the master key file {path}: {_fs.reason(exc)}") from None
    finally:
        os.close(fd)
    return decode_key(text, str(path))


def write_key_file(path: Path, key: Key, hint: str) -> bool:
    """Create ``path`` (mode 0600, in 0700 directories) holding ``key``; False if it exists."""
    try:
        _fs.make_private_dirs(path.parent)
    except OSError as exc:
        raise MasterKeyError(
            f"cannot create the key directory {path.parent}: {_fs.reason(exc)}", hint=hint
        ) from None
    try:
        return _fs.write_new(path, (encode_key(key) + "\n").encode(), mode=0o600)
    except StorageError as exc:
        raise MasterKeyError(exc.message, hint=hint) from None


def remove_key_file(path: Path) -> None:
    """Overwrite a retired key file in place, then unlink it (the file system may still
    keep the old blocks: SECURITY.md says so). A missing file is no error."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise MasterKeyError(
            f"cannot remove the old master key file {path}: {_fs.reason(exc)}"
        ) from None
    try:
        size = os.fstat(fd).st_size
        _fs.write_all_at(fd, b"\0" * size, 0)
        os.fsync(fd)
    except OSError as exc:
        raise MasterKeyError(
            f"cannot overwrite the old master key file {path}: {_fs.reason(exc)}"
        ) from None
    finally:
        os.close(fd)
    try:
        path.unlink()
        _fs.fsync_dir(path.parent)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise MasterKeyError(
            f"cannot remove the old master key file {path}: {_fs.reason(exc)}"
        ) from None
