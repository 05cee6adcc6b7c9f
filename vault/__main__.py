"""``python -m vault``: the same as the ``memvault`` command."""

from ._cli import main_entry

main_entry()
