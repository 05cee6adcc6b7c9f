"""The six memory commands, with the exact result strings of the protocol.

Each handler takes a user's :class:`~vault._namespace.Namespace` and a checked
command, runs inside the caller's transaction, and returns the tool result or
raises :class:`~vault._errors.CommandError` whose message is the error result.
Paths in results are the values as the model sent them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..errors import CommandError
from ..redaction import Redacted
from ._guard import MAX_DEPTH, MAX_PATH_BYTES, MemoryPath, join
from ._parse import Command
from ._screen import Screen
from ._tree import Namespace, Node

MAX_LINES = 999_999
DEFAULT_MAX_FILE_BYTES = 1024 * 1024
_HIDDEN_NAMES = frozenset({"node_modules"})


# -- formatting ----------------------------------------------------------------------


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


def number_lines(lines: list[str], first: int) -> str:
    return "\n".join(f"{n:>6}\t{line}" for n, line in enumerate(lines, start=first))


def _missing(path: MemoryPath) -> CommandError:
    return CommandError(f"Error: The path {path.text} does not exist", kind="not_found")


def _missing_please(path: MemoryPath) -> CommandError:
    return CommandError(
        f"Error: The path {path.text} does not exist. Please provide a valid path.",
        kind="not_found",
    )


# -- handlers --------------------------------------------------------------------------


class Handlers:
    """The command logic, with the limits of one deployment."""

    def __init__(self, screen: Screen, *, max_file_bytes: int = DEFAULT_MAX_FILE_BYTES) -> None:
        self.screen = screen
        self.max_file_bytes = max_file_bytes

    def run(self, ns: Namespace, command: Command) -> str:
        handler: Callable[[Handlers, Namespace, Mapping[str, Any]], str] = _HANDLERS[command.name]
        return handler(self, ns, command.args)

    def _check_size(self, path: MemoryPath, text: str) -> None:
        size = len(text.encode())
        if size > self.max_file_bytes:
            raise CommandError(
                f"Error: The file {path.text} would be {size:,} bytes, over the limit of "
                f"{self.max_file_bytes:,} bytes. Split the content across smaller files.",
                kind="limit",
            )
        if text.count("\n") + 1 > MAX_LINES:
            raise CommandError(
                f"File {path.text} exceeds maximum line limit of 999,999 lines.", kind="limit"
            )

    def _file(self, ns: Namespace, path: MemoryPath) -> tuple[Node, Node] | None:
        """(parent, file) for an existing file, else None."""
        chain = ns.walk(path.parts)
        if len(chain) != len(path.parts) + 1 or chain[-1].is_dir:
            return None
        return chain[-2], chain[-1]

    def _check_fits(self, ns: Namespace, old: MemoryPath, new: MemoryPath, node: Node) -> None:
        """Refuse a directory move that would put something below it past the guard's
        limits, where no command could reach it any more."""
        _, entries = ns.tree(node, depth=MAX_DEPTH)
        base = join(new.parts)
        for entry in entries:
            depth = len(new.parts) + len(entry.parts)
            size = len(base.encode()) + len("/".join(("", *entry.parts)).encode())
            if depth > MAX_DEPTH or size > MAX_PATH_BYTES:
                reason = (
                    f"a path inside it would be {depth} levels deep; the limit is {MAX_DEPTH}"
                    if depth > MAX_DEPTH
                    else f"a path inside it would be {size} bytes long; the limit is "
                    f"{MAX_PATH_BYTES}"
                )
                raise CommandError(
                    f"Error: Cannot rename {old.text} to {new.text}: {reason}.", kind="limit"
                )

    def _parent_for(self, ns: Namespace, path: MemoryPath, chain: list[Node], verb: str) -> Node:
        """The directory a new entry at ``path`` goes into, creating missing ones.

        ``chain`` is ``ns.walk(path.parts)``, taken once by the caller, who has
        already refused an existing entry at ``path``.
        """
        node = chain[-1]
        if not node.is_dir:
            blocker = join(path.parts[: len(chain) - 1])
            raise CommandError(
                f"Error: Cannot {verb} {path.text}: {blocker} is a file, not a directory.",
                kind="not_a_directory",
            )
        for name in path.parts[len(chain) - 1 : -1]:
            node = ns.mkdir(node, name)
        return node

    def view(self, ns: Namespace, args: Mapping[str, Any]) -> str:
        path: MemoryPath = args["path"]
        node = ns.resolve(path.parts)
        if node is None:
            raise CommandError(
                f"The path {path.text} does not exist. Please provide a valid path.",
                kind="not_found",
            )
        view_range: tuple[int, int] | None = args.get("view_range")
        if node.is_dir:
            if view_range is not None:
                raise CommandError(
                    f"Error: `view_range` applies to files; {path.text} is a directory.",
                    kind="invalid_range",
                )
            return self._view_dir(ns, path, node)
        text = ns.read(node)
        lines = text.split("\n")
        if len(lines) > MAX_LINES:
            raise CommandError(
                f"File {path.text} exceeds maximum line limit of 999,999 lines.", kind="limit"
            )
        first = 1
        if view_range is not None:
            start, end = view_range
            if start < 1 or start > len(lines) or (end != -1 and end < start):
                raise CommandError(
                    f"Error: Invalid `view_range` parameter: [{start}, {end}]. Use 1 <= start <= "
                    f"{len(lines)} and start <= end, or end = -1 to read to the end of the file.",
                    kind="invalid_range",
                )
            lines = lines[start - 1 :] if end == -1 else lines[start - 1 : end]
            first = start
        return f"Here's the content of {path.text} with line numbers:\n" + number_lines(
            lines, first
        )

    def _view_dir(self, ns: Namespace, path: MemoryPath, node: Node) -> str:
        total, entries = ns.tree(node, depth=2)
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
        return header + "\n" + "\n".join(rows)

    def create(self, ns: Namespace, args: Mapping[str, Any]) -> str:
        path: MemoryPath = args["path"]
        text: str = args["file_text"]
        chain = ns.walk(path.parts)
        if path.is_root or len(chain) == len(path.parts) + 1:
            raise CommandError(f"Error: File {path.text} already exists", kind="exists")
        if path.trailing_slash:
            raise CommandError(
                f"Error: Cannot create {path.text}: a file path cannot end with '/'.",
                kind="invalid_path",
            )
        stored = self.screen.text(text, ns.pseudonym)
        ns.trace.findings.extend(stored.findings)
        self._check_size(path, stored.text)
        parent = self._parent_for(ns, path, chain, "create")
        ns.create_file(parent, path.parts[-1], stored.text)
        return _with_note(f"File created successfully at: {path.text}", stored)

    def str_replace(self, ns: Namespace, args: Mapping[str, Any]) -> str:
        path: MemoryPath = args["path"]
        old: str = args["old_str"]
        new: str = args["new_str"]
        found = self._file(ns, path)
        if found is None:
            raise _missing_please(path)
        parent, node = found
        if not old:
            raise CommandError(
                "Error: `old_str` is empty. Give the exact text to replace.", kind="input"
            )
        text = ns.read(node)
        first = text.find(old)
        if first == -1:
            # The stored text is redacted: match what the model wrote in its redacted form,
            # so a line that had an e-mail in it can still be edited.
            screened = self.screen.text(old, ns.pseudonym).text
            if screened != old:
                old = screened
                first = text.find(old)
        if first == -1:
            raise CommandError(
                f"No replacement was performed, old_str `{self.screen.render(old)}` did not "
                f"appear verbatim in {path.text}.",
                kind="no_match",
            )
        if text.find(old, first + 1) != -1:
            lines: list[int] = []
            at = first
            while at != -1:
                line = text.count("\n", 0, at) + 1
                if not lines or lines[-1] != line:
                    lines.append(line)
                at = text.find(old, at + 1)
            raise CommandError(
                f"No replacement was performed. Multiple occurrences of old_str "
                f"`{self.screen.render(old)}` in lines: {', '.join(map(str, lines))}. "
                "Please ensure it is unique",
                kind="not_unique",
            )
        # The whole result is screened again: a secret assembled across edits is caught.
        stored = self.screen.text(text[:first] + new + text[first + len(old) :], ns.pseudonym)
        ns.trace.findings.extend(stored.findings)
        self._check_size(path, stored.text)
        ns.write(parent, node, stored.text)
        start_line = text.count("\n", 0, first)
        end_line = start_line + new.count("\n")
        all_lines = stored.text.split("\n")
        lo, hi = max(0, start_line - 2), min(len(all_lines), end_line + 3)
        return _with_note(
            "The memory file has been edited. Here is the snippet showing the change "
            "(with line numbers):\n" + number_lines(all_lines[lo:hi], lo + 1),
            stored,
        )

    def insert(self, ns: Namespace, args: Mapping[str, Any]) -> str:
        path: MemoryPath = args["path"]
        line: int = args["insert_line"]
        insert_text: str = args["insert_text"]
        found = self._file(ns, path)
        if found is None:
            raise _missing(path)
        parent, node = found
        text = ns.read(node)
        lines = text.split("\n")
        if lines[-1] == "":
            lines.pop()
        if line < 0 or line > len(lines):
            raise CommandError(
                f"Error: Invalid `insert_line` parameter: {line}. It should be within the range "
                f"of lines of the file: [0, {len(lines)}]",
                kind="invalid_range",
            )
        # Offset of the start of line ``line + 1``; past the end for an append.
        offset = sum(len(s) + 1 for s in lines[:line])
        block = insert_text if insert_text.endswith("\n") else insert_text + "\n"
        if offset > len(text):  # appending to a text without a final newline
            offset = len(text)
            block = "\n" + block
        stored = self.screen.text(text[:offset] + block + text[offset:], ns.pseudonym)
        ns.trace.findings.extend(stored.findings)
        self._check_size(path, stored.text)
        ns.write(parent, node, stored.text)
        return _with_note(f"The file {path.text} has been edited.", stored)

    def delete(self, ns: Namespace, args: Mapping[str, Any]) -> str:
        path: MemoryPath = args["path"]
        if path.is_root:
            raise CommandError(
                "Error: Cannot delete the /memories directory itself", kind="protected"
            )
        node = ns.resolve(path.parts)
        if node is None:
            raise _missing(path)
        ns.delete(node)
        return f"Successfully deleted {path.text}"

    def rename(self, ns: Namespace, args: Mapping[str, Any]) -> str:
        old: MemoryPath = args["old_path"]
        new: MemoryPath = args["new_path"]
        if old.is_root:
            raise CommandError(
                "Error: Cannot rename the /memories directory itself", kind="protected"
            )
        chain = ns.walk(old.parts)
        if len(chain) != len(old.parts) + 1:
            raise _missing(old)
        node = chain[-1]
        target = ns.walk(new.parts)
        if new.is_root or len(target) == len(new.parts) + 1:
            raise CommandError(f"Error: The destination {new.text} already exists", kind="exists")
        if node.is_dir and new.parts[: len(old.parts)] == old.parts:
            raise CommandError(
                f"Error: Cannot move the directory {old.text} into itself ({new.text}).",
                kind="invalid_move",
            )
        if not node.is_dir and new.trailing_slash:
            raise CommandError(
                f"Error: Cannot rename the file {old.text} to {new.text}: a file path cannot "
                "end with '/'.",
                kind="invalid_path",
            )
        if node.is_dir:
            self._check_fits(ns, old, new, node)
        parent = self._parent_for(ns, new, target, "rename to")
        ns.move(node, parent, new.parts[-1])
        return f"Successfully renamed {old.text} to {new.text}"


def _with_note(result: str, stored: Redacted) -> str:
    """A result, followed by what the filter did (kinds and counts only), if anything."""
    note = stored.note()
    return f"{result}\n\n{note}" if note else result


_HANDLERS: dict[str, Callable[[Handlers, Namespace, Mapping[str, Any]], str]] = {
    "view": Handlers.view,
    "create": Handlers.create,
    "str_replace": Handlers.str_replace,
    "insert": Handlers.insert,
    "delete": Handlers.delete,
    "rename": Handlers.rename,
}

__all__ = ["Handlers", "format_size", "number_lines"]
