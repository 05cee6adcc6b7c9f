"""``memvault users``: the vault's users."""

from __future__ import annotations

from typing import Any

from . import _retention


def add_parsers(commands: Any) -> None:
    """The ``users`` command and its actions, on the CLI's subparsers."""
    users = commands.add_parser(
        "users", help="the vault's users", description="Work with the vault's users."
    )
    group = users.add_subparsers(dest="users_command", metavar="ACTION")
    group.required = True
    _retention.add_list(group)
