"""The file system, used safely: private directories, whole writes, new files that appear
complete or not at all, and operating-system errors as messages.

Everything memvault writes outside its database goes through here, so the
rules hold in one place:

* directories memvault creates are 0700 at every level it creates, whatever
  the umask (``Path.mkdir(parents=True, mode=...)`` applies the mode to the
  last directory only, and leaves the parents to the umask: 0777 under
  ``umask 0``, where another local user could swap them);
* a write is retried until every byte is on its way: a short ``write(2)`` is
  not a full disk;
* a new file is written to a temporary file beside it, synced, then linked or
  renamed into place, so a crash or a full disk leaves either nothing or the
  whole file, never half of one;
* an ``OSError`` becomes a :class:`~memvault.errors.StorageError` that says
  what failed in words, never a raw exception.

Tests inject faults by replacing the functions of this module.
"""

from __future__ import annotations

import errno
import os
import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from .errors import StorageError, UsageError

PRIVATE_DIR = 0o700

_REASONS = {
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is exceeded",
    errno.EROFS: "the file system is read-only",
    errno.EACCES: "permission denied",
    errno.EPERM: "operation not permitted",
    errno.EIO: "an I/O error occurred",
    errno.ENOENT: "no such file or directory",
    errno.ENOTDIR: "a part of the path is not a directory",
    errno.ELOOP: "a part of the path is a symbolic link",
}


def reason(exc: OSError) -> str:
    """What an operating-system error means, in words (never a file's contents)."""
    return _REASONS.get(exc.errno or 0, exc.strerror or "an operating system error occurred")


def make_private_dirs(path: Path) -> None:
    """Create ``path`` and every missing parent, each one 0700, whatever the umask.

    Directories that already exist are left as they are. Raises ``OSError``.
    """
    missing: list[Path] = []
    at = path
    while not at.exists():
        missing.append(at)
        if at.parent == at:
            break
        at = at.parent
    for directory in reversed(missing):
        try:
            os.mkdir(directory, PRIVATE_DIR)
        except FileExistsError:
            if not directory.is_dir():
                raise
            continue  # another process made it meanwhile: its mode is its own
        # mkdir's mode passes through the umask, which may also take the owner's bits.
        os.chmod(directory, PRIVATE_DIR, follow_symlinks=False)


def fsync_dir(directory: Path) -> None:
    """Make a directory's entries (a new or renamed file) durable."""
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_all(fd: int, data: bytes) -> None:
    """Write every byte of ``data`` at the descriptor's position (or end, with O_APPEND).

    A short write is followed by the rest; a write that takes nothing at all
    means the disk is full, and raises ``OSError(ENOSPC)``.
    """
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        if written <= 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        view = view[written:]


def write_all_at(fd: int, data: bytes, offset: int) -> None:
    """Write every byte of ``data`` at ``offset`` (``pwrite``), retrying short writes."""
    view = memoryview(data)
    while view:
        written = os.pwrite(fd, view, offset)
        if written <= 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        view, offset = view[written:], offset + written


def truncate(fd: int, size: int) -> None:
    """Cut the file ``fd`` back to ``size`` bytes."""
    os.ftruncate(fd, size)


def append(fd: int, data: bytes, size: int) -> None:
    """Append ``data`` to ``fd`` (opened ``O_APPEND``), whose length is ``size``: all of
    it, or nothing. If the write fails part-way, the part that reached the file is cut
    off again before the error is raised, so the file never ends in half a line."""
    try:
        write_all(fd, data)
    except OSError:
        with suppress(OSError):
            truncate(fd, size)
        raise


@contextmanager
def new_file(path: Path, *, mode: int = 0o600, replace: bool = False) -> Iterator[Writer]:
    """Write a file that appears whole or not at all; yields a function that writes bytes.

    The bytes go to a temporary file in the same directory, which is synced
    and then moved into place: linked (never over an existing file) or, with
    ``replace``, renamed over it. On any failure the temporary file is removed
    and nothing is left. Raises :class:`UsageError` if ``path`` exists (and
    ``replace`` is off) or its directory does not, :class:`StorageError` if it
    cannot be written.
    """
    try:
        with _writing(path, mode, replace=replace) as write:
            yield write
    except FileExistsError:
        raise UsageError(
            f"{path} already exists; it was left as it is",
            hint="choose a new file name",
        ) from None
    except (FileNotFoundError, NotADirectoryError):
        raise UsageError(
            f"cannot write {path}: the directory {path.parent} does not exist",
            hint="create it first, or choose another place",
        ) from None
    except OSError as exc:
        raise _write_error(path, exc) from None


Writer = Callable[[bytes], None]


def write_new(path: Path, data: bytes, *, mode: int = 0o600) -> bool:
    """Create ``path`` holding ``data``, whole or not at all, never over an existing file.

    Returns False if ``path`` already exists (another process may have won a
    race to create it); raises :class:`StorageError` if it cannot be written.
    """
    try:
        with _writing(path, mode, replace=False) as write:
            write(data)
    except FileExistsError:
        return False
    except OSError as exc:
        raise _write_error(path, exc) from None
    return True


@contextmanager
def _writing(path: Path, mode: int, *, replace: bool) -> Iterator[Writer]:
    """:func:`new_file` without the translation of errors: raises ``OSError``
    (``FileExistsError`` when ``path`` exists and ``replace`` is off)."""
    fd, temp = _open_temp(path.parent, path.name, mode, named=replace)
    try:
        yield lambda data: write_all(fd, data)
        os.fsync(fd)
        _publish(fd, temp, path, replace=replace)
    finally:
        os.close(fd)
        if temp is not None:
            with suppress(OSError):
                os.unlink(temp)
    fsync_dir(path.parent)


def _open_temp(directory: Path, name: str, mode: int, *, named: bool) -> tuple[int, Path | None]:
    """A descriptor to write the new file through, and the temporary name to remove
    afterwards (None for an unnamed ``O_TMPFILE``, which no crash can leave behind)."""
    # An unnamed file is linked in through /proc; without /proc, a named one is used.
    if not named and hasattr(os, "O_TMPFILE") and os.path.isdir("/proc/self/fd"):
        try:
            return os.open(directory, os.O_TMPFILE | os.O_RDWR | os.O_CLOEXEC, mode), None
        except OSError as exc:
            if exc.errno not in (errno.EOPNOTSUPP, errno.EISDIR, errno.EINVAL):
                raise
    _remove_stale(directory, name)
    temp = directory / f".{name}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    return os.open(temp, flags, mode), temp


def _publish(fd: int, temp: Path | None, path: Path, *, replace: bool) -> None:
    if replace:
        assert temp is not None
        os.replace(temp, path)
    elif temp is not None:
        _link_named(temp, path)
    else:
        try:
            os.link(f"/proc/self/fd/{fd}", path, follow_symlinks=True)
        except FileExistsError:
            raise
        except OSError:
            # Some kernels and sandboxes refuse to link an unnamed file in: copy it to a
            # named one (which a crash may leave behind; the next writer removes it).
            _link_copy(fd, path)


def _link_named(temp: Path, path: Path) -> None:
    try:
        os.link(temp, path)  # fails if the target exists: no check-then-write race
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK):
            raise
        # A file system without hard links: a check just before is the best there is.
        if os.path.lexists(path):
            raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), str(path)) from None
        os.replace(temp, path)


def _link_copy(fd: int, path: Path) -> None:
    """Link a named copy of the unnamed file ``fd`` in at ``path``."""
    copy, temp = _open_temp(path.parent, path.name, 0o600, named=True)
    assert temp is not None
    try:
        os.fchmod(copy, os.fstat(fd).st_mode & 0o777)
        offset = 0
        while chunk := os.pread(fd, 1 << 20, offset):
            write_all(copy, chunk)
            offset += len(chunk)
        os.fsync(copy)
        _link_named(temp, path)
    finally:
        os.close(copy)
        with suppress(OSError):
            os.unlink(temp)


def _remove_stale(directory: Path, name: str) -> None:
    """Remove temporary files that crashed writers left for ``name`` (their process is gone)."""
    for stale in directory.glob(f".{name}.*.tmp"):
        try:
            os.kill(int(stale.name.rsplit(".", 3)[-3]), 0)
        except ProcessLookupError:
            stale.unlink(missing_ok=True)
        except (ValueError, IndexError, OSError):
            continue


def _write_error(path: Path, exc: OSError) -> StorageError:
    return StorageError(
        f"cannot write {path}: {reason(exc)}",
        hint="check free space and permissions there; nothing was written",
    )
