"""The path guard: every path is ``/memories`` or below it, or it is refused.

The guard does not resolve a path against anything; it refuses whatever could
mean something other than what it plainly says, or look like something it is
not. Refused, each with an error that names the path and the reason:

* anything not a string, empty, or over ``MAX_PATH_BYTES`` (UTF-8);
* control and format characters (NUL, newlines, bidi overrides, zero-width
  characters), unpaired surrogates, line and paragraph separators, and the
  characters that draw nothing although they are letters or symbols (Hangul
  fillers, the blank Braille pattern);
* backslashes, and percent-encoded bytes (``%2e``, ``%2f``, ``%25``...) and
  IIS-style ``%u002e`` escapes, which also covers double encoding: we never
  decode, so we refuse what would;
* Unicode look-alikes of ``.``, ``/`` and ``\\``: characters whose NFKC form
  contains them (``．``, ``／``, ``․``, ``‥``, ``…``), slashes and dots that
  NFKC keeps (``∕``, ``⁄``, ``∖``, ``⟋``, ``。``), the combining solidus
  overlays (U+0337, U+0338), and a Lisu tone letter (``ꓸ``) that does not
  follow a Lisu letter;
* anything that is not exactly ``/memories`` or ``/memories/...``
  (``/memoriesX``, ``memories/x``, ``/other``);
* empty segments (``//``), ``.`` and ``..`` and any all-dot segment, and a
  segment made only of dot look-alikes that are fine inside a name
  (``٠٠``, Arabic-Indic zeros);
* a name that is blank or made only of invisible characters, or that begins
  or ends with a space or an invisible character (``"notes.md "``);
* a segment over ``MAX_NAME_BYTES`` or more than ``MAX_DEPTH`` segments.

A trailing ``/`` is accepted (``/memories/``, ``/memories/dir/``). Segments are
compared in NFC, so a name typed with combining accents reaches the same file
as its precomposed spelling.

A refusal shows the path through ``echo`` (by default :func:`show`: escaped and
cut); the redaction screen passes its own, which also redacts.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

from .._text import REFUSED_CATEGORIES, json_type, show
from ..errors import PathError

ROOT = "/memories"
MAX_PATH_BYTES = 1024
MAX_NAME_BYTES = 255
MAX_DEPTH = 32

# Printable ASCII (and space): no character of it is refused or looks like '.' or '/'.
_PRINTABLE_ASCII = re.compile(r"[ -~]*")
# %XX, and the IIS form %uXXXX.
_PERCENT_ESCAPE = re.compile(r"%(?:[0-9A-Fa-f]{2}|[Uu][0-9A-Fa-f]{4})")
# Slash, backslash and dot look-alikes that NFKC leaves alone (or folds to another
# look-alike), and the combining overlays that draw a slash over any character.
_CONFUSABLES = frozenset(
    "\u2215\u2044\u29f8\u2571\u27cb\u1735\u2041\u31d3\u3033\u2f03\U0001d23a"  # slashes
    "\u2216\u29f5\u29f9\u2572\u27cd\u31d4\u2f02\U0001d20f\U0001d23b"  # backslashes
    "\u30fb\u2e31\u00b7\u2027\u3002\uff61\u0701\u0702\ua60e\U00010a50\U0001d16d"  # dots
    "\u0337\u0338\u20e5\u20eb"  # solidus overlays
)
_SEPARATORS = frozenset("./\\%")
# Lisu tone letters that read as ".", ".." and ".,"; in Lisu text they follow a Lisu letter.
_LISU_TONES = frozenset("\ua4f8\ua4fa\ua4fb")
_LISU = range(0xA4D0, 0xA500)
# Digits that look like a dot: fine in a name ("٢٠٢٥"), not as the whole of one ("٠٠").
_DOT_DIGITS = frozenset("\u0660\u06f0")
# Letters and symbols that draw nothing: refused anywhere, like format characters.
_BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5\U0001d159")


def _is_modifier(ch: str) -> bool:
    """An invisible mark that changes the character before it: a variation selector,
    a Mongolian free variation selector, the combining grapheme joiner."""
    code = ord(ch)
    return (
        0xFE00 <= code <= 0xFE0F
        or 0xE0100 <= code <= 0xE01EF
        or 0x180B <= code <= 0x180F
        or code == 0x034F
    )


def _is_invisible(ch: str) -> bool:
    return ch.isspace() or _is_modifier(ch)


@dataclass(frozen=True, slots=True)
class MemoryPath:
    """A path the guard accepted: ``parts`` are the segments below ``/memories`` (NFC)."""

    text: str
    parts: tuple[str, ...]
    trailing_slash: bool

    @property
    def is_root(self) -> bool:
        return not self.parts


class _Refused(Exception):
    """A path the guard refuses, and why; made into a message with the path shown."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _describe(ch: str) -> str:
    name = unicodedata.name(ch, "")
    return f"U+{ord(ch):04X} ({name})" if name else f"U+{ord(ch):04X}"


def _check_characters(text: str) -> bool:
    """Refuse ``text`` (the path as sent, or its NFC form) for what it contains; True if
    it is printable ASCII (no control, blank or look-alike character, and its own NFC)."""
    plain = _PRINTABLE_ASCII.fullmatch(text) is not None
    if not plain:
        for ch in text:
            if unicodedata.category(ch) in REFUSED_CATEGORIES or ch in _BLANKS:
                raise _Refused(f"it contains the control or invisible character {_describe(ch)}")
    if "\\" in text:
        raise _Refused("it contains a backslash")
    if _PERCENT_ESCAPE.search(text):
        raise _Refused("it contains a percent-encoded sequence (paths are never URL-decoded)")
    if plain:
        return True
    previous = ""
    for ch in text:
        if ord(ch) >= 128 and _lookalike(ch, previous):
            raise _Refused(f"it contains {_describe(ch)}, a look-alike of '.' or '/'")
        previous = ch
    return False


def _lookalike(ch: str, previous: str) -> bool:
    if ch in _CONFUSABLES:
        return True
    if ch in _LISU_TONES:
        return not previous or ord(previous) not in _LISU
    return any(c in _SEPARATORS for c in unicodedata.normalize("NFKC", ch))


def _check_name(segment: str, plain: bool = False) -> None:
    """Refuse one name (NFC) that is empty, dots, blank, space-edged or too long.
    ``plain``: the name is known to be printable ASCII."""
    if not segment:
        raise _Refused("it contains an empty segment ('//')")
    if segment.strip(".") == "":
        raise _Refused(f"it contains a '{show(segment, 8)}' segment")
    if plain or _PRINTABLE_ASCII.fullmatch(segment):
        _check_ascii_name(segment)
        return
    if all(ch == "." or ch in _DOT_DIGITS for ch in segment):
        dots = "." * len(segment)
        raise _Refused(
            f"it contains a '{show(segment, 8)}' segment, a look-alike of '{show(dots, 8)}'"
        )
    if all(_is_invisible(ch) for ch in segment):
        raise _Refused("a name in it is blank or made only of invisible characters")
    edge = _edge(segment)
    if edge is not None:
        raise _Refused(
            f"a name in it begins or ends with the space or invisible character {_describe(edge)}"
        )
    size = len(segment.encode())
    if size > MAX_NAME_BYTES:
        raise _Refused(f"a name in it is {size} bytes long; the limit is {MAX_NAME_BYTES}")


def _check_ascii_name(segment: str) -> None:
    """:func:`_check_name`'s remaining checks for a name of printable ASCII, where the
    one invisible character is the space."""
    if segment.strip(" ") == "":
        raise _Refused("a name in it is blank or made only of invisible characters")
    if segment[0] == " " or segment[-1] == " ":
        raise _Refused(
            f"a name in it begins or ends with the space or invisible character {_describe(' ')}"
        )
    if len(segment) > MAX_NAME_BYTES:
        raise _Refused(f"a name in it is {len(segment)} bytes long; the limit is {MAX_NAME_BYTES}")


def _edge(segment: str) -> str | None:
    """The space or invisible character a name begins or ends with, if any.

    A name may end with a variation selector (or a grapheme joiner) right after a
    non-ASCII character it can modify, as an emoji does (``❤️``); never after a
    letter of ASCII, where it could only make ``notes.md`` look like another name.
    """
    first = segment[0]
    if _is_invisible(first):
        return first
    body = segment.rstrip("".join({ch for ch in segment if _is_modifier(ch)}))
    last = body[-1]
    if last.isspace():
        return last
    if len(body) < len(segment) and last.isascii():
        return segment[len(body)]
    return None


def parse_path(
    path: object, field: str = "path", *, echo: Callable[[str], str] = show
) -> MemoryPath:
    """Check a path from the model and split it; raises PathError with the reason.

    Every check runs on the path as sent and on its NFC form, which is what is
    stored, so normalization can neither smuggle in a refused character nor
    stretch a name past its limit. ``echo`` shows the path in the message.
    """
    if not isinstance(path, str):
        raise PathError(f"Error: `{field}` must be a string, got {json_type(path)}.")
    if not path:
        raise PathError(f"Error: `{field}` is empty. Use {ROOT} or a path below it.")
    try:
        return _parse(path)
    except _Refused as refused:
        raise PathError(
            f"Error: The path {echo(path)} is not allowed: {refused.reason}. "
            f"Use {ROOT} or a path below it, such as {ROOT}/notes.md."
        ) from None


def _parse(path: str) -> MemoryPath:
    if len(path) > MAX_PATH_BYTES * 4:  # cheap bound before any normalization work
        raise _Refused(f"it is over {MAX_PATH_BYTES} bytes long")
    plain = _check_characters(path)
    canonical = path if plain else unicodedata.normalize("NFC", path)
    if canonical != path:
        _check_characters(canonical)
    size = len(path) if plain else len(canonical.encode())
    if size > MAX_PATH_BYTES:
        raise _Refused(f"it is {size} bytes long; the limit is {MAX_PATH_BYTES}")
    if canonical != ROOT and not canonical.startswith(ROOT + "/"):
        raise _Refused(f"it is not {ROOT} or below it")

    body = canonical[len(ROOT) :]  # "", "/", or "/a/b" with perhaps one trailing "/"
    trailing = body.endswith("/")
    if body in ("", "/"):
        return MemoryPath(path, (), trailing)
    segments = (body[1:-1] if trailing else body[1:]).split("/")
    if len(segments) > MAX_DEPTH:
        raise _Refused(f"it is nested {len(segments)} levels deep; the limit is {MAX_DEPTH}")
    for segment in segments:
        _check_name(segment, plain)
    return MemoryPath(path, tuple(segments), trailing)


def join(parts: tuple[str, ...]) -> str:
    """The canonical text of a path below the root."""
    return "/".join((ROOT, *parts)) if parts else ROOT
