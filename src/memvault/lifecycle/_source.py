"""A plaintext memory directory, read without trusting it.

The SDK's reference backend, ``BetaLocalFilesystemMemoryTool(base_path)``, keeps
``/memories/notes/a.md`` as the plain file ``<base_path>/memories/notes/a.md``.
An import reads such a tree, which anyone who could write there may have laid
traps in, so the walk:

* opens every directory and file relative to its parent's descriptor, with
  ``O_NOFOLLOW``: a symbolic link (to a file or a directory, inside the tree or
  out of it) is reported and never followed, and one swapped in during the walk
  fails to open rather than being followed;
* opens no special file: a FIFO, device or socket is seen by ``lstat`` and
  reported unopened; one swapped in before the open is opened ``O_NONBLOCK`` (a
  FIFO does not wait for a writer) and refused by ``fstat`` before a byte is read;
* reads no file past the size limit: a larger file is refused by its size before
  it is opened, and reading stops one byte past the limit (a file that grew);
* decodes UTF-8 strictly: anything else is refused, never guessed at;
* leaves out hidden entries (names that begin with ``.``), unopened: the
  reference backend lists none of them to the model, and names its own
  temporary files so (``.tmp-<pid>-<uuid>``, left behind by a crash);
* writes nothing: the source's bytes and modification times stay as they were.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from .. import _fs
from .._text import clean_text
from ..errors import UsageError
from ..memory import MAX_DEPTH

BASE = "base"  # the directory given holds memories/
MEMORIES = "memories"  # the directory given is memories/ itself

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_FILE_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC
_CHUNK = 1 << 20

HIDDEN = (
    "a hidden name: the reference backend lists none to the model and gives its temporary "
    "files such names; rename it to import it"
)
SYMLINK = "a symbolic link: links are never followed, to files or directories"

# Why an entry can be refused by the walk, before the vault sees it.
DirCheck = Callable[[tuple[str, ...]], tuple[str, str] | None]


@dataclass(frozen=True, slots=True)
class Found:
    """One entry of the source: a file read whole (``text``), or an entry refused, with
    ``kind`` (one word) and ``reason`` (words)."""

    parts: tuple[str, ...]
    size: int = 0
    text: str | None = None
    kind: str | None = None
    reason: str | None = None

    @property
    def path(self) -> str:
        """Where the reference backend showed it to the model: ``/memories/...``."""
        return "/".join(("/memories", *self.parts))


@contextmanager
def opened(directory: Path) -> Iterator[tuple[int, Path, str]]:
    """The memories directory of ``directory``, opened: its descriptor, its path, and
    :data:`BASE` (``directory`` holds ``memories/``) or :data:`MEMORIES` (it is
    that directory, by its name). Anything else is a :class:`UsageError`."""
    base = _open_given(directory)
    fd: int | None = None
    try:
        try:
            fd = os.open("memories", _DIR_FLAGS, dir_fd=base)
        except OSError as exc:
            link = _is_link(exc, "memories", base)
            absent = exc.errno in (errno.ENOENT, errno.ENOTDIR)
            if link or not absent or directory.name != "memories":
                raise _layout_error(directory, exc, link=link) from None
        if fd is None:
            yield base, directory, MEMORIES
        else:
            yield fd, directory / "memories", BASE
    finally:
        if fd is not None:
            os.close(fd)
        os.close(base)


def _open_given(directory: Path) -> int:
    try:
        return os.open(directory, _DIR_FLAGS)
    except OSError as exc:
        shown = clean_text(str(directory))
        if _is_link(exc, directory):
            raise UsageError(
                f"{shown} is a symbolic link; import follows none",
                hint="give the directory it points to",
            ) from None
        if exc.errno == errno.ENOTDIR:
            raise UsageError(f"{shown} is not a directory") from None
        raise UsageError(f"cannot open {shown}: {_fs.reason(exc)}") from None


def _is_link(exc: OSError, path: str | Path, dir_fd: int | None = None) -> bool:
    """Whether an open with ``O_NOFOLLOW`` failed on a symbolic link (``ELOOP``, or
    ``ENOTDIR`` with ``O_DIRECTORY``)."""
    if exc.errno == errno.ELOOP:
        return True
    if exc.errno != errno.ENOTDIR:
        return False
    try:
        return stat.S_ISLNK(os.stat(path, dir_fd=dir_fd, follow_symlinks=False).st_mode)
    except OSError:
        return False


def _layout_error(directory: Path, exc: OSError, *, link: bool) -> UsageError:
    shown = clean_text(str(directory / "memories"))
    if link:
        return UsageError(
            f"{shown} is a symbolic link; import follows none",
            hint="give the directory it points to",
        )
    if exc.errno in (errno.ENOENT, errno.ENOTDIR):
        return UsageError(
            f"{clean_text(str(directory))} holds no memories/ directory, and is not one",
            hint="give the directory the reference backend was given as base_path (it "
            "holds memories/), or that memories/ directory itself",
        )
    return UsageError(f"cannot open {shown}: {_fs.reason(exc)}")


def walk(fd: int, limit: int, check_dir: DirCheck) -> Iterator[Found]:
    """Every entry below the directory ``fd``, in pre-order, each directory's entries
    sorted by name. Files of at most ``limit`` bytes are read; ``check_dir(parts)``
    may refuse a directory (kind, reason), which is then neither opened nor read."""
    yield from _entries(fd, (), limit, check_dir)


def _entries(fd: int, parts: tuple[str, ...], limit: int, check: DirCheck) -> Iterator[Found]:
    try:
        names = sorted(os.listdir(fd))
    except OSError as exc:
        yield Found(parts, kind="unreadable", reason=f"cannot list it: {_fs.reason(exc)}")
        return
    for name in names:
        yield from _entry(fd, (*parts, name), limit, check)


def _entry(fd: int, parts: tuple[str, ...], limit: int, check: DirCheck) -> Iterator[Found]:
    name = parts[-1]
    if name.startswith("."):
        yield Found(parts, kind="hidden", reason=HIDDEN)
        return
    try:
        mode, size = _lstat(fd, name)
    except OSError as exc:
        yield Found(parts, kind="unreadable", reason=f"cannot read it: {_fs.reason(exc)}")
        return
    if stat.S_ISLNK(mode):
        yield Found(parts, kind="symlink", reason=SYMLINK)
    elif stat.S_ISDIR(mode):
        yield from _directory(fd, parts, limit, check)
    elif not stat.S_ISREG(mode):
        yield _special(parts, mode)
    elif size > limit:
        yield _too_large(parts, size, limit)
    else:
        yield _read(fd, parts, limit)


def _lstat(fd: int, name: str) -> tuple[int, int]:
    st = os.stat(name, dir_fd=fd, follow_symlinks=False)
    return st.st_mode, st.st_size


def _directory(fd: int, parts: tuple[str, ...], limit: int, check: DirCheck) -> Iterator[Found]:
    refused = check(parts)
    if refused is not None:
        yield Found(parts, kind=refused[0], reason=refused[1])
        return
    if len(parts) >= MAX_DEPTH:
        yield Found(
            parts,
            kind="limit",
            reason=f"a directory {len(parts)} levels deep: a memory may be at most "
            f"{MAX_DEPTH} levels deep, so nothing below it was read",
        )
        return
    try:
        child = os.open(parts[-1], _DIR_FLAGS, dir_fd=fd)
    except OSError as exc:
        yield _unopened(parts, exc, fd)
        return
    try:
        yield from _entries(child, parts, limit, check)
    finally:
        os.close(child)


def _read(fd: int, parts: tuple[str, ...], limit: int) -> Found:
    """A regular file's text, or why it is refused. ``O_NONBLOCK``: a file swapped for a
    FIFO since the ``lstat`` opens at once, and ``fstat`` refuses it unread."""
    try:
        file = os.open(parts[-1], _FILE_FLAGS, dir_fd=fd)
    except OSError as exc:
        return _unopened(parts, exc, fd)
    try:
        st = os.fstat(file)
        if not stat.S_ISREG(st.st_mode):
            return _special(parts, st.st_mode)
        if st.st_size > limit:
            return _too_large(parts, st.st_size, limit)
        data = _read_at_most(file, limit + 1)
    except OSError as exc:
        return Found(parts, kind="unreadable", reason=f"cannot read it: {_fs.reason(exc)}")
    finally:
        os.close(file)
    if len(data) > limit:
        return _too_large(parts, len(data), limit, growing=True)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return Found(
            parts,
            size=len(data),
            kind="not_utf8",
            reason=f"not UTF-8 text: byte 0x{data[exc.start]:02x} at offset {exc.start:,} "
            "does not decode; convert it to UTF-8 to import it",
        )
    return Found(parts, size=len(data), text=text)


def _read_at_most(fd: int, size: int) -> bytes:
    chunks: list[bytes] = []
    left = size
    while left > 0:
        chunk = os.read(fd, min(left, _CHUNK))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _unopened(parts: tuple[str, ...], exc: OSError, fd: int) -> Found:
    if _is_link(exc, parts[-1], fd):  # replaced by a link since it was looked at
        return Found(parts, kind="symlink", reason=SYMLINK)
    return Found(parts, kind="unreadable", reason=f"cannot open it: {_fs.reason(exc)}")


def _special(parts: tuple[str, ...], mode: int) -> Found:
    what = (
        "a FIFO"
        if stat.S_ISFIFO(mode)
        else "a socket"
        if stat.S_ISSOCK(mode)
        else "a character device"
        if stat.S_ISCHR(mode)
        else "a block device"
        if stat.S_ISBLK(mode)
        else "not a regular file"
    )
    return Found(parts, kind="special", reason=f"{what}: only regular files are read")


def _too_large(parts: tuple[str, ...], size: int, limit: int, *, growing: bool = False) -> Found:
    amount = f"over {limit:,} bytes (it grew while being read)" if growing else f"{size:,} bytes"
    return Found(
        parts,
        size=size,
        kind="too_large",
        reason=f"{amount}, over the limit of {limit:,} bytes a memory may hold; "
        "split it to import it",
    )
