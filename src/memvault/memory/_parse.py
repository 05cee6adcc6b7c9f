"""Tool input, checked: the right fields with the right types, paths guarded and screened.

Nothing of the input is trusted before it passes here. Paths go through the
guard and the redaction screen; texts must be strings that encode as UTF-8.
What a refusal echoes of the input (an unknown command's name, a path) passes
the screen first, as a whole, and is cut only after.
Every refusal is a :class:`~memvault.errors.CommandError` whose message is the
tool result (``docs/protocol.md`` §8).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._text import json_type
from ..errors import CommandError
from ._commands import COMMANDS, Command, Create, Delete, Insert, Rename, StrReplace, View
from ._screen import SHOWN_NAME, Screen


def parse_command(raw: object, screen: Screen) -> Command:
    """Turn a tool input into a :data:`Command`, or refuse it with a clear error."""
    if not isinstance(raw, Mapping):
        raise CommandError(
            "Error: The tool input must be an object with a `command` field, "
            f"got {json_type(raw)}.",
            kind="input",
        )
    if "command" not in raw:
        raise CommandError(
            "Error: The tool input has no `command` field. Use one of: view, create, "
            "str_replace, insert, delete, rename.",
            kind="input",
        )
    name = raw["command"]
    if not isinstance(name, str) or name not in COMMANDS:
        # Redacted whole, then cut: a cut first could break a value so that the
        # filter no longer recognizes what is left of it.
        shown = screen.echo(name, SHOWN_NAME) if isinstance(name, str) else json_type(name)
        raise CommandError(
            f"Error: Unknown command {shown}. Use one of: view, create, str_replace, insert, "
            "delete, rename.",
            kind="input",
        )
    if name == "rename":
        return Rename(
            old_path=screen.path(_field(raw, "old_path", name), "old_path", refuse=False),
            new_path=screen.path(_field(raw, "new_path", name), "new_path", refuse=True),
        )
    # A path that would name something new is refused if it carries a finding.
    path = screen.path(_field(raw, "path", name), "path", refuse=name == "create")
    if name == "view":
        return View(path, _view_range(raw.get("view_range")))
    if name == "create":
        return Create(path, _text(raw, "file_text", name))
    if name == "str_replace":
        return StrReplace(path, _text(raw, "old_str", name), _text(raw, "new_str", name))
    if name == "insert":
        line = _int(_field(raw, "insert_line", name), "insert_line")
        return Insert(path, line, _text(raw, "insert_text", name))
    return Delete(path)


def _field(raw: Mapping[str, Any], name: str, command: str) -> Any:
    if name not in raw:
        raise CommandError(
            f"Error: The `{command}` command requires the `{name}` parameter.", kind="input"
        )
    return raw[name]


def _text(raw: Mapping[str, Any], name: str, command: str) -> str:
    value = _field(raw, name, command)
    if not isinstance(value, str):
        raise CommandError(
            f"Error: `{name}` must be a string, got {json_type(value)}.", kind="input"
        )
    try:
        value.encode()
    except UnicodeEncodeError as exc:
        raise CommandError(
            f"Error: `{name}` is not valid UTF-8 text (an unpaired surrogate at position "
            f"{exc.start}). Send text as UTF-8.",
            kind="input",
        ) from None
    return value


def _int(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise CommandError(
            f"Error: `{name}` must be an integer, got {json_type(value)}.", kind="input"
        )
    return value


def _view_range(value: object) -> tuple[int, int] | None:
    if value is None:
        return None
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise CommandError(
            "Error: `view_range` must be a list of two integers [start, end] "
            "(end = -1 reads to the end of the file).",
            kind="input",
        )
    return _int(value[0], "view_range"), _int(value[1], "view_range")
