"""Word lists shipped beside the code (``data/*.txt``), read when a module first needs one.

A list is UTF-8 text: entries separated by white space, one or several to a line, and
lines that start with ``#`` are comments (each file opens with one saying what the
list is). No entry holds a space or starts with ``#``. Lists of words live here; RE2
alternations stay in the rule modules, where their syntax is read.
"""

from __future__ import annotations

from importlib import resources

from ..errors import ConfigurationError


def word_list(name: str) -> tuple[str, ...]:
    """The entries of ``data/<name>``, in the file's order."""
    try:
        text = (resources.files(__package__) / "data" / name).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        # The filter cannot run without its lists: refuse, as for any fault inside it.
        raise ConfigurationError(
            f"the redaction word list data/{name} is missing or unreadable",
            hint="reinstall memvault; the package data is incomplete",
        ) from None
    return tuple(
        word
        for line in text.splitlines()
        if not line.lstrip().startswith("#")
        for word in line.split()
    )


def word_set(name: str) -> frozenset[str]:
    """The entries of ``data/<name>`` as a set."""
    return frozenset(word_list(name))
