"""The directory listing ``view`` returns: two levels, sorted, with sizes (``docs/protocol.md``)."""

from __future__ import annotations

from ._guard import MemoryPath
from ._node import Node
from ._reading import page_listing
from ._results import format_size
from ._tree import Tree

_HIDDEN_NAMES = frozenset({"node_modules"})


def view_directory(
    tree: Tree,
    path: MemoryPath,
    node: Node,
    view_range: tuple[int, int] | None,
    max_chars: int,
) -> str:
    """The listing of the directory ``node`` at ``path``: itself first, then its entries
    two levels deep in pre-order, by name, leaving out hidden items and node_modules;
    the rows ``view_range`` selects, at most ``max_chars`` characters (``_reading``)."""
    total, entries = tree.two_levels(node)
    base = path.text.rstrip("/") if path.trailing_slash else path.text
    rows = [f"{format_size(total)}\t{path.text}"]
    hidden_below: tuple[str, ...] | None = None
    for entry in entries:
        if hidden_below is not None and entry.parts[: len(hidden_below)] == hidden_below:
            continue
        name = entry.parts[-1]
        if name.startswith(".") or name in _HIDDEN_NAMES:
            hidden_below = entry.parts
            continue
        hidden_below = None
        suffix = "/" if entry.node.is_dir else ""
        rows.append(f"{format_size(entry.total_size)}\t{base}/{'/'.join(entry.parts)}{suffix}")
    header = (
        f"Here're the files and directories up to 2 levels deep in {path.text}, "
        "excluding hidden items and node_modules:"
    )
    return page_listing(header, rows, view_range, max_chars)
