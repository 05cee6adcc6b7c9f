"""``memvault users``: one user's memories as a whole."""

from __future__ import annotations

from typing import Any

from . import _transfer


def add_parsers(commands: Any) -> None:
    """The ``users`` command and its actions, on the CLI's subparsers."""
    users = commands.add_parser(
        "users",
        help="act on one user's memories as a whole",
        description="Act on one user's memories as a whole.",
    )
    actions = users.add_subparsers(dest="users_command", metavar="ACTION")
    actions.required = True
    _transfer.add_export(actions)
