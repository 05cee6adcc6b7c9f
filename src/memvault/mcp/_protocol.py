"""What the MCP server shows a client: one tool, ``memory``, its schema, and the guidance.

One tool whose input is the ``memory_20250818`` command union, rather than one tool per
command: Claude knows that input by heart (the same fields, the same six command names),
the documented memory-protocol prompt names "the ``view`` command of your ``memory``
tool" and can be sent word for word, and the results are the protocol's strings either
way. The schema is flat (``command`` required, every other field optional and described
with the commands that take it) because the Messages API refuses a custom tool whose
``input_schema`` has ``oneOf``/``anyOf``/``allOf`` at the top level, and an MCP tool
reaches Claude as a custom tool. The runner, not the schema, decides what a command
needs: a missing field gets the protocol's error and an audit record, as with the SDK
tool.

An MCP tool is a custom tool to Claude, so the prompt the API adds for the built-in
memory tool does not come with it: :data:`INSTRUCTIONS` carries it, as the server's
``instructions``, which clients put in Claude's system prompt.
"""

from __future__ import annotations

from typing import Any

from ..memory import MEMORY_PROTOCOL_PROMPT

TOOL_NAME = "memory"
TOOL_TITLE = "Memory"

# The prompt the API adds to the system prompt when the built-in tool is included.
INSTRUCTIONS = MEMORY_PROTOCOL_PROMPT

DESCRIPTION = """\
Your persistent memory: a directory, /memories, of text files that stays between \
conversations. Every path starts with /memories.
Commands (the `command` field) and the fields each takes:
- view: `path`; a directory is listed two levels deep with sizes, a file is shown with \
line numbers; `view_range` [start, end] shows lines start..end (end -1: to the end).
- create: `path`, `file_text`; creates a new file (missing directories are made).
- str_replace: `path`, `old_str`, `new_str`; `old_str` must appear exactly once.
- insert: `path`, `insert_line`, `insert_text`; inserts after that line (0: at the top).
- delete: `path`; a file, or a directory with everything in it.
- rename: `old_path`, `new_path`; moves a file or directory; never overwrites.
Secrets and personal data are removed from what you write before it is stored."""


def _text(description: str) -> dict[str, str]:
    return {"type": "string", "description": description}


INPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "command": {
            "type": "string",
            "enum": ["view", "create", "str_replace", "insert", "delete", "rename"],
            "description": "The memory command to run.",
        },
        "path": _text(
            "view, create, str_replace, insert, delete: the file or directory, "
            "e.g. /memories/notes.md."
        ),
        "view_range": {
            "type": "array",
            "items": {"type": "integer"},
            "minItems": 2,
            "maxItems": 2,
            "description": "view of a file: [start, end], 1-based lines, inclusive; "
            "end -1 reads to the end.",
        },
        "file_text": _text("create: the text of the new file."),
        "old_str": _text("str_replace: the text to replace, exactly as it appears, once."),
        "new_str": _text("str_replace: the text to put in its place."),
        "insert_line": {
            "type": "integer",
            "description": "insert: the line after which the text goes (0: at the top).",
        },
        "insert_text": _text("insert: the text to insert."),
        "old_path": _text("rename: the file or directory to move."),
        "new_path": _text("rename: where it goes; it must not exist yet."),
    },
    "required": ["command"],
}

# Hints for clients (MCP calls them untrusted, and so should a client): the tool changes
# and deletes files, a repeated call is not a no-op, and it touches nothing but the
# vault (a closed world).
ANNOTATIONS: dict[str, Any] = {
    "title": TOOL_TITLE,
    "read_only_hint": False,
    "destructive_hint": True,
    "idempotent_hint": False,
    "open_world_hint": False,
}
