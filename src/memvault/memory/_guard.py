"""The path guard: every path is ``/memories`` or below it, or it is refused.

The guard does not resolve a path against anything; it refuses whatever could
mean something other than what it plainly says. Refused, each with an error
that names the path and the reason:

* anything not a string, empty, or over ``MAX_PATH_BYTES`` (UTF-8);
* control and format characters (NUL, newlines, bidi overrides, zero-width
  characters), unpaired surrogates, line and paragraph separators;
* backslashes, and percent-encoded bytes (``%2e``, ``%2f``, ``%25``...), which
  also covers double encoding: we never decode, so we refuse what would;
* Unicode look-alikes of ``.`` and ``/``: characters whose NFKC form contains
  them (``．``, ``／``, ``․``, ``‥``) and slashes that NFKC keeps (``∕``, ``⁄``);
* anything that is not exactly ``/memories`` or ``/memories/...``
  (``/memoriesX``, ``memories/x``, ``/other``);
* empty segments (``//``), ``.`` and ``..`` and any all-dot segment;
* a segment over ``MAX_NAME_BYTES`` or more than ``MAX_DEPTH`` segments.

A trailing ``/`` is accepted (``/memories/``, ``/memories/dir/``). Segments are
compared in NFC, so a name typed with combining accents reaches the same file
as its precomposed spelling.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from .._text import REFUSED_CATEGORIES, json_type, show
from ..errors import PathError

ROOT = "/memories"
MAX_PATH_BYTES = 1024
MAX_NAME_BYTES = 255
MAX_DEPTH = 32

_PERCENT_ESCAPE = re.compile(r"%[0-9A-Fa-f]{2}")
# Slash and dot look-alikes that NFKC leaves alone.
_CONFUSABLES = frozenset(
    "\u2215\u2044\u29f8\u29f5\u2571\u3033\u30fb\u2e31\u00b7\u2027\u3002\uff61\u0701\u0702\ua60e"
)
_SEPARATORS = frozenset("./\\%")


@dataclass(frozen=True, slots=True)
class MemoryPath:
    """A path the guard accepted: ``parts`` are the segments below ``/memories`` (NFC)."""

    text: str
    parts: tuple[str, ...]
    trailing_slash: bool

    @property
    def is_root(self) -> bool:
        return not self.parts


def _refuse(path: str, reason: str) -> PathError:
    return PathError(
        f"Error: The path {show(path)} is not allowed: {reason}. "
        f"Use {ROOT} or a path below it, such as {ROOT}/notes.md."
    )


def _describe(ch: str) -> str:
    name = unicodedata.name(ch, "")
    return f"U+{ord(ch):04X} ({name})" if name else f"U+{ord(ch):04X}"


def _check_characters(path: str, text: str) -> None:
    """Refuse ``text`` (the path as sent, or its NFC form) for what it contains."""
    for ch in text:
        if unicodedata.category(ch) in REFUSED_CATEGORIES:
            raise _refuse(path, f"it contains the control or invisible character {_describe(ch)}")
    if "\\" in text:
        raise _refuse(path, "it contains a backslash")
    if _PERCENT_ESCAPE.search(text):
        raise _refuse(path, "it contains a percent-encoded sequence (paths are never URL-decoded)")
    for ch in text:
        if ord(ch) < 128:
            continue
        folded = unicodedata.normalize("NFKC", ch)
        if ch in _CONFUSABLES or any(c in _SEPARATORS for c in folded):
            raise _refuse(path, f"it contains {_describe(ch)}, a look-alike of '.' or '/'")


def parse_path(path: object, field: str = "path") -> MemoryPath:
    """Check a path from the model and split it; raises PathError with the reason.

    Every check runs on the path as sent and on its NFC form, which is what is
    stored, so normalization can neither smuggle in a refused character nor
    stretch a name past its limit.
    """
    if not isinstance(path, str):
        raise PathError(f"Error: `{field}` must be a string, got {json_type(path)}.")
    if not path:
        raise PathError(f"Error: `{field}` is empty. Use {ROOT} or a path below it.")
    if len(path) > MAX_PATH_BYTES * 4:  # cheap bound before any normalization work
        raise _refuse(path, f"it is over {MAX_PATH_BYTES} bytes long")
    _check_characters(path, path)
    canonical = unicodedata.normalize("NFC", path)
    if canonical != path:
        _check_characters(path, canonical)
    size = len(canonical.encode())
    if size > MAX_PATH_BYTES:
        raise _refuse(path, f"it is {size} bytes long; the limit is {MAX_PATH_BYTES}")
    if canonical != ROOT and not canonical.startswith(ROOT + "/"):
        raise _refuse(path, f"it is not {ROOT} or below it")

    body = canonical[len(ROOT) :]  # "", "/", or "/a/b" with perhaps one trailing "/"
    trailing = body.endswith("/")
    if body in ("", "/"):
        return MemoryPath(path, (), trailing)
    segments = (body[1:-1] if trailing else body[1:]).split("/")
    if len(segments) > MAX_DEPTH:
        raise _refuse(path, f"it is nested {len(segments)} levels deep; the limit is {MAX_DEPTH}")
    for segment in segments:
        if not segment:
            raise _refuse(path, "it contains an empty segment ('//')")
        if segment.strip(".") == "":
            raise _refuse(path, f"it contains a '{show(segment, 8)}' segment")
        if len(segment.encode()) > MAX_NAME_BYTES:
            raise _refuse(
                path,
                f"a name in it is {len(segment.encode())} bytes long; "
                f"the limit is {MAX_NAME_BYTES}",
            )
    return MemoryPath(path, tuple(segments), trailing)


def join(parts: tuple[str, ...]) -> str:
    """The canonical text of a path below the root."""
    return "/".join((ROOT, *parts)) if parts else ROOT
