"""``python -m memvault``: the same as the ``memvault`` command."""

from .cli import main_entry

main_entry()
