"""Untrusted text, made safe to show.

Two audiences, two forms:

* :func:`show` is for messages a model reads (tool results, errors): invisible
  and control characters and backslashes appear as Python escapes, and long
  values are cut, so a message can neither hide a character nor grow without
  bound.
* :func:`clean_text` is for a terminal or a file an operator reads: control,
  format and separator characters (escape sequences, bidi overrides, newlines)
  appear as escapes, never acted on.
"""

from __future__ import annotations

import unicodedata

# Characters no path, user id or message may carry unescaped: controls, format
# characters (bidi overrides, zero-width), unpaired surrogates, line and paragraph separators.
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})


def show(value: str, limit: int = 120) -> str:
    """A value as a message may echo it: invisible characters escaped, long ones cut."""
    out = []
    for ch in value:
        if unicodedata.category(ch) in REFUSED_CATEGORIES or ch == "\\":
            out.append(ch.encode("unicode_escape", "backslashreplace").decode("ascii"))
        else:
            out.append(ch)
    text = "".join(out)
    return text if len(text) <= limit else text[:limit] + "…"


def json_type(value: object) -> str:
    """How a value's type reads to a model that sent JSON."""
    if isinstance(value, bool):
        return "a boolean"
    names = {
        str: "a string",
        int: "an integer",
        float: "a number",
        list: "a list",
        dict: "an object",
        type(None): "null",
    }
    return names.get(type(value), type(value).__name__)


def clean_text(text: str) -> str:
    """Text from the log or the store, safe to print: control, format and separator
    characters (escape sequences, bidi overrides, newlines) are shown as escapes."""
    if text.isprintable():
        return text
    return "".join(_escape(ch) for ch in text)


def _escape(ch: str) -> str:
    if ch == " " or not unicodedata.category(ch).startswith(("C", "Z")):
        return ch
    code = ord(ch)
    return (
        f"\\x{code:02x}"
        if code < 0x100
        else f"\\u{code:04x}"
        if code < 0x10000
        else f"\\U{code:08x}"
    )
