"""The ``memvault`` command."""

from ._main import main, main_entry

__all__ = ["main", "main_entry"]
