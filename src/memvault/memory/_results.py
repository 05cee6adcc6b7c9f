"""The strings commands answer with, beyond the per-command ones in the handlers.

Paths in results are the values as the model sent them (after the redaction
screen rendered them). The vault's own failure messages reveal nothing about
the failure: the operator log and the audit record say what happened.

The refusal of a ``str_replace`` whose ``old_str`` occurs more than once lists
the lines it occurs on, bounded (``… and N more``), and finds them in time
linear in the file's length whatever ``old_str`` is: a one-character
``old_str`` in the largest file allowed must not keep the vault busy.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..errors import CommandError
from ..redaction import Redacted
from ._guard import MemoryPath

INTEGRITY_MESSAGE = (
    "Error: The memory store could not read this memory: its stored data failed an integrity "
    "check (it was modified or corrupted outside memvault). Nothing was changed. Tell the "
    "operator; the vault should be restored from a backup."
)
AUDIT_MESSAGE = (
    "Error: The memory store could not record this command in its audit log, so it was "
    "refused and nothing was changed. Tell the operator."
)
UNAVAILABLE_MESSAGE = (
    "Error: The memory store could not complete the command; nothing was changed. "
    "Try again in a moment."
)


def format_size(size: int) -> str:
    """Human-readable bytes as the reference backend writes them: ``0B``, ``512B``, ``5.5K``."""
    if size == 0:
        return "0B"
    units = ["B", "K", "M", "G"]
    exponent = min((size.bit_length() - 1) // 10, len(units) - 1)
    scaled = size / (1024**exponent)
    return (
        f"{int(scaled)}{units[exponent]}"
        if scaled == int(scaled)
        else f"{scaled:.1f}{units[exponent]}"
    )


_NUMBERED = 2048  # line numbers whose prefixes are made once, not at every view
_PREFIXES = tuple(f"\n{n:>6}\t" for n in range(1, _NUMBERED + 1))


def number_lines(lines: list[str], first: int) -> str:
    """Lines as view shows them: the number right-aligned in six columns, a tab, the line.

    The prefixes of the first lines are made once; the lines are interleaved with
    them and joined in one go."""
    if not lines:
        return ""
    last = first + len(lines) - 1
    if first >= 1 and last <= _NUMBERED:
        prefixes: tuple[str, ...] | list[str] = _PREFIXES[first - 1 : last]
    else:
        prefixes = [f"\n{n:>6}\t" for n in range(first, last + 1)]
    parts = [""] * (2 * len(lines))
    parts[0::2] = prefixes
    parts[1::2] = lines
    parts[0] = parts[0][1:]  # no newline before the first line
    return "".join(parts)


def missing(path: MemoryPath) -> CommandError:
    """insert, delete, rename: the path does not exist (without the documents' "Please")."""
    return CommandError(f"Error: The path {path.text} does not exist", kind="not_found")


def missing_please(path: MemoryPath) -> CommandError:
    """str_replace: the path does not exist, or is a directory."""
    return CommandError(
        f"Error: The path {path.text} does not exist. Please provide a valid path.",
        kind="not_found",
    )


def with_note(result: str, stored: Redacted) -> str:
    """A result, followed by what the filter did (kinds and counts only), if anything."""
    note = stored.note()
    return f"{result}\n\n{note}" if note else result


LISTED_LINES = 100  # line numbers a not-unique refusal lists before "… and N more"

# Every byte but a newline and 0xFF, which never occurs in UTF-8: deleting them
# leaves, for each line, only the marks put where an occurrence was.
_ALL_BUT_MARKS = bytes(b for b in range(256) if b not in (0x0A, 0xFF))
_SMALL = 4096  # up to this length, an old_str's self-overlaps are worked out first
_PAIRS = 8  # at most this many self-overlaps are searched for one by one


def not_unique(shown: str, text: str, old: str) -> CommandError:
    """The documented refusal of an ``old_str`` found more than once in ``text``.

    ``shown`` is ``old_str`` as the message echoes it. The lines are the 1-based
    lines on which an occurrence starts, each once, ascending; past
    :data:`LISTED_LINES` of them, the rest are counted, not listed.
    """
    listed, more = occurrence_lines(text, old, LISTED_LINES)
    lines = ", ".join(map(str, listed)) + (f" … and {more} more" if more else "")
    return CommandError(
        f"No replacement was performed. Multiple occurrences of old_str `{shown}` in lines: "
        f"{lines}. Please ensure it is unique",
        kind="not_unique",
    )


def occurrence_lines(text: str, old: str, limit: int) -> tuple[list[int], int]:
    """The first ``limit`` lines on which an occurrence of ``old`` starts (overlapping
    occurrences count), and how many further lines hold one. ``old`` is not empty."""
    if "\n" not in old:
        return _lines_holding(
            text.encode("utf-8", "surrogatepass"), old.encode("utf-8", "surrogatepass"), limit
        )
    # An old_str with a newline starts at most once per line (its first newline
    # is the end of the line it starts on), so lines and occurrences are one.
    listed: list[int] = []
    line, counted = 1, 0
    for first, step, count in _runs(text, old):
        for at in range(first, first + step * min(count, limit - len(listed)), step):
            line += text.count("\n", counted, at)
            counted = at
            listed.append(line)
        if len(listed) == limit:
            return listed, _count(text, old) - limit
    return listed, 0


def _lines_holding(data: bytes, pat: bytes, limit: int) -> tuple[list[int], int]:
    """:func:`occurrence_lines` for a pattern without a newline, on UTF-8 bytes.

    Each occurrence is marked with 0xFF (the first one of each line is found,
    since none spans a newline), then everything but marks and newlines is
    deleted: a line holds one iff its newline follows a mark.
    """
    marks = data.replace(pat, b"\xff").translate(None, _ALL_BUT_MARKS)
    total = marks.count(b"\xff\n") + marks.endswith(b"\xff")
    listed: list[int] = []
    line, at = 1, 0
    while len(listed) < limit:
        hit = marks.find(b"\xff", at)
        if hit == -1:
            break
        line += marks.count(b"\n", at, hit)
        listed.append(line)
        at = marks.find(b"\n", hit) + 1
        if at == 0:
            break
        line += 1
    return listed, total - len(listed)


def _count(text: str, old: str) -> int:
    """How many times ``old`` occurs in ``text``, overlapping occurrences included.

    Occurrences that overlap come in clusters, each beginning where ``old``
    occurs twice a period of it apart; between clusters, counting without
    overlaps (one scan) is exact. Only the clusters are walked through.
    """
    periods = _periods(old) if len(old) <= _SMALL else None
    if periods == []:
        return text.count(old)
    if periods is None or len(periods) > _PAIRS:
        return sum(count for _, _, count in _runs(text, old))
    never = len(text)
    ahead = dict.fromkeys((old[:period] + old for period in periods), -1)  # next start of each
    total, at = 0, 0
    while True:
        for pair, where in ahead.items():
            if where < at:
                found = text.find(pair, at)
                ahead[pair] = never if found == -1 else found
        cluster = min(ahead.values())
        if cluster == never:
            return total + text.count(old, at)
        total += text.count(old, at, cluster)
        reach, at = cluster + 1, never  # reach: the end of the cluster's last occurrence
        for first, step, count in _runs(text, old, cluster):
            if first >= reach:
                at = first  # it overlaps none before it: the cluster is over
                break
            total += count
            reach = first + step * (count - 1) + len(old)


def _periods(old: str) -> list[int]:
    """The distances at which two consecutive occurrences of ``old`` can overlap.

    Such a distance is a period of ``old`` (``old[d:]`` is a prefix of it); one
    up to half its length is its smallest period (two periods that fit in it
    together make their common divisor one), so only that one and the longer
    ones are kept.
    """
    first, size = old[0], len(old)
    periods = [d for d in range(1, size) if old[d] == first and old.startswith(old[d:])]
    return periods[:1] + [d for d in periods[1:] if 2 * d > size]


def _runs(text: str, old: str, start: int = 0) -> Iterator[tuple[int, int, int]]:
    """Every position from ``start`` on where ``old`` starts in ``text``, in order, as
    runs ``(first, step, count)``: ``first``, ``first + step``, ... ``count`` of them.

    Overlapping occurrences ``step`` apart lie in a stretch of text that repeats
    with period ``step``; the stretch is measured once instead of searching for
    each occurrence again (which costs ``len(old)`` each time), so the whole is
    linear in ``len(text)``.
    """
    size = len(old)
    at = text.find(old, start)
    while at != -1:
        following = text.find(old, at + 1)
        step = following - at
        if following == -1 or step >= size:
            yield at, 1, 1
            at = following
            continue
        # ``old`` has period ``step``: it occurs wherever the stretch that repeats
        # with that period from ``at`` is at least as long as ``old``.
        end = _periodic_end(text, at + size, step)
        count = (end - at - size) // step + 1
        yield at, step, count
        at = text.find(old, at + step * (count - 1) + 1)


def _periodic_end(text: str, at: int, period: int) -> int:
    """The end of the stretch that keeps repeating with ``period`` from ``at`` on (the
    text before ``at`` does), found by comparing doubling, then halving, blocks."""
    size, growing = period, True
    while at < len(text):
        size = min(size, len(text) - at)
        if text.startswith(text[at - period : at - period + size], at):
            at += size
            size = size * 2 if growing else size
        elif size == 1:
            return at
        else:
            size, growing = size // 2, False
    return at
