"""The sizes of files a tree last read or wrote, kept between commands as a hint.

A ``str_replace`` or ``insert`` of a large document is screened before the write
lock is taken (``Handlers.prepare``), which costs a read transaction of its own.
A file this tree last saw small cannot become large through one small edit, so
that look ahead is skipped for it. The sizes are kept by a keyed digest of the
path under the user's index key, never by the path; they are a hint only: a file
another process grew since is screened in the write transaction, which is only
slower.
"""

from __future__ import annotations

from .. import _crypto
from ..keys import Keyring, UserKey

_DOMAIN = b"size-hint"  # the keyed digests' own domain
_MOST = 4096  # files a tree remembers the size of, at most


class SizeHints:
    """Mixed into :class:`~memvault.memory.Tree`."""

    _keyring: Keyring | None
    _sizes: dict[bytes, int]  # keyed digest of a file's path: its last size

    @property
    def _key(self) -> UserKey:
        raise NotImplementedError

    def note_size(self, parts: tuple[str, ...], size: int) -> None:
        """Remember the size the file at ``parts`` had in a command of this tree."""
        if self._keyring is not None:
            if len(self._sizes) >= _MOST:
                self._sizes.clear()
            self._sizes[self._size_key(parts)] = size

    def size_hint(self, parts: tuple[str, ...]) -> int | None:
        """The size the file at ``parts`` had when this tree last saw it, if it did."""
        return None if self._keyring is None else self._sizes.get(self._size_key(parts))

    def _size_key(self, parts: tuple[str, ...]) -> bytes:
        return _crypto.mac(self._key.index, _crypto.context(_DOMAIN, *parts))
