"""Progress of a long lifecycle command: a bar on a terminal (memories, bytes, rate, time
left), nothing otherwise (the command prints a one-line summary when it is done)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import IO


@contextmanager
def progress_bar(
    err: IO[str], total: int, unit: str, *, show: bool
) -> Iterator[Callable[[int, int], None]]:
    """A callback ``(items, bytes)`` that advances a bar of ``total`` items on ``err`` if it
    is a terminal and ``show`` is set; a callback that does nothing otherwise."""
    if not show or not err.isatty() or total <= 0:
        yield lambda items, nbytes: None
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
    with Progress(*columns, console=Console(file=err), transient=True) as bar:
        task = bar.add_task("re-sealing", total=total, size="")
        done = [0]

        def advance(items: int, nbytes: int) -> None:
            done[0] += nbytes
            bar.update(task, advance=items, size=f"{done[0] / 1e6:.1f} MB")

        yield advance
