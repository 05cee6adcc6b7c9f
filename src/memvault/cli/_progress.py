"""Progress of a long lifecycle command: a bar on a terminal (memories, bytes, rate, time
left), nothing otherwise (the command prints a one-line summary when it is done)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO, Any


class Bar:
    """Called with ``(items, bytes)`` as work is done; :meth:`resize` sets the total when it
    becomes known. Draws nothing unless it was given a terminal."""

    def __init__(self, progress: Any = None, task: Any = None) -> None:
        self._progress, self._task, self._bytes = progress, task, 0

    def __call__(self, items: int, nbytes: int) -> None:
        if self._progress is not None:
            self._bytes += nbytes
            self._progress.update(self._task, advance=items, size=f"{self._bytes / 1e6:.1f} MB")

    def resize(self, total: int) -> None:
        if self._progress is not None:
            self._progress.update(self._task, total=total)


@contextmanager
def progress_bar(
    err: IO[str], total: int | None, unit: str, *, show: bool, label: str = "re-sealing"
) -> Iterator[Bar]:
    """A :class:`Bar` of ``total`` items (None: not known yet) drawn on ``err`` if it is a
    terminal and ``show`` is set; one that draws nothing otherwise."""
    if not show or not err.isatty() or (total is not None and total <= 0):
        yield Bar()
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TaskProgressColumn,
        TextColumn,
        TimeRemainingColumn,
    )

    columns = (
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn(unit),
        TextColumn("{task.fields[size]}"),
        TaskProgressColumn(show_speed=True),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=Console(file=err), transient=True) as progress:
        yield Bar(progress, progress.add_task(label, total=total, size=""))
