"""What one ``view`` returns: a file's numbered lines or a directory's listing, in a range,
and never more than the policy's ``max_view_chars`` characters.

A view that would pass the cap returns what fits, whole lines or rows only, and a
note that says what was shown and the ``view_range`` that reads on; the model pages
through with it (``docs/protocol.md`` §2). A range on a directory selects rows of its
listing, the directory itself being row 1. A line too long to share a page with the
note is shown cut, and the note names the range that shows it whole; only a line longer
than a whole view cannot be read whole, since no range can split it, and the note says so.
"""

from __future__ import annotations

from ..errors import CommandError
from ._guard import MemoryPath
from ._results import number_lines

# Characters kept for the note: it holds numbers and fixed words only, never a path.
NOTE_ROOM = 400
_NUMBERING = 7  # six columns and a tab before each line of a file


def view_file(
    path: MemoryPath,
    text: str,
    view_range: tuple[int, int] | None,
    max_lines: int,
    max_chars: int,
) -> str:
    """The documented file view of ``text``, of the lines ``view_range`` selects."""
    lines = text.split("\n")
    if len(lines) > max_lines:
        raise CommandError(
            f"File {path.text} exceeds maximum line limit of 999,999 lines.", kind="limit"
        )
    lo, hi = _span(len(lines), view_range, "file")
    shown = lines if (lo, hi) == (0, len(lines)) else lines[lo:hi]
    header = f"Here's the content of {path.text} with line numbers:\n"
    room = max_chars - len(header)
    if sum(map(len, shown)) + (_NUMBERING + 1) * len(shown) - 1 <= room:
        return header + number_lines(shown, lo + 1)
    taken = _fitting(shown, _NUMBERING, room - NOTE_ROOM)
    end = _end(view_range)
    if taken:
        note = (
            f"Note: this view stops at its limit of {max_chars:,} characters: lines "
            f"{lo + 1:,}-{lo + taken:,} of {len(lines):,} are shown. To read on, view the file "
            f'again with "view_range": [{lo + taken + 1}, {end}].'
        )
        return f"{header}{number_lines(shown[:taken], lo + 1)}\n\n{note}"
    line = shown[0]
    cut = room - NOTE_ROOM - _NUMBERING
    if len(line) + _NUMBERING <= room:  # whole in a view of its own (lines follow it here)
        note = (
            f"Note: line {lo + 1:,} is {len(line):,} characters long: only its first {cut:,} "
            f'are shown here. View it whole with "view_range": [{lo + 1}, {lo + 1}], then '
            f'read on with "view_range": [{lo + 2}, {end}].'
        )
        return f"{header}{number_lines([line[:cut]], lo + 1)}\n\n{note}"
    note = (
        f"Note: line {lo + 1:,} is {len(line):,} characters long, more than one view returns "
        f"({max_chars:,}): only its first {cut:,} characters are shown."
    )
    if len(shown) > 1:
        note += f' To read on, view the file again with "view_range": [{lo + 2}, {end}].'
    return f"{header}{number_lines([line[:cut]], lo + 1)}\n\n{note}"


def page_listing(
    header: str, rows: list[str], view_range: tuple[int, int] | None, max_chars: int
) -> str:
    """A directory listing (``rows``, the directory's own first) of the rows
    ``view_range`` selects, cut at the cap."""
    lo, hi = _span(len(rows), view_range, "listing")
    shown = rows if (lo, hi) == (0, len(rows)) else rows[lo:hi]
    room = max_chars - len(header) - 1
    if sum(map(len, shown)) + len(shown) - 1 <= room:
        return header + "\n" + "\n".join(shown)
    taken = max(_fitting(shown, 0, room - NOTE_ROOM), 1)  # a row is short: one always fits
    note = (
        f"Note: this listing stops at its limit of {max_chars:,} characters: rows "
        f"{lo + 1:,}-{lo + taken:,} of {len(rows):,} are shown (row 1 is the directory "
        "itself). To read on, view the directory again with "
        f'"view_range": [{lo + taken + 1}, {_end(view_range)}].'
    )
    return header + "\n" + "\n".join(shown[:taken]) + "\n\n" + note


def _span(count: int, view_range: tuple[int, int] | None, what: str) -> tuple[int, int]:
    """The slice of ``count`` lines or rows that ``view_range`` selects; refuses a bad range."""
    if view_range is None:
        return 0, count
    start, end = view_range
    if start < 1 or start > count or (end != -1 and end < start):
        raise CommandError(
            f"Error: Invalid `view_range` parameter: [{start}, {end}]. Use 1 <= start <= "
            f"{count} and start <= end, or end = -1 to read to the end of the {what}.",
            kind="invalid_range",
        )
    return start - 1, count if end == -1 else min(end, count)


def _fitting(items: list[str], extra: int, room: int) -> int:
    """How many of ``items``, from the first, fit in ``room`` characters, each taking
    its length, ``extra`` characters and a newline between."""
    used, taken = -1, 0
    for item in items:
        used += len(item) + extra + 1
        if used > room:
            break
        taken += 1
    return taken


def _end(view_range: tuple[int, int] | None) -> int:
    """The end of the range to suggest next: the one asked for, else the end (-1)."""
    return -1 if view_range is None else view_range[1]
