"""A plain in-memory model of the memory tool protocol (docs/protocol.md).

The model keeps a dict of file path -> text and a set of directories, both keyed by
the tuple of names below ``/memories``, and answers each command with
``(is_error, result)``. It knows nothing of the vault: the differential test runs the
two side by side and expects the same answer to every command.

Strings docs/protocol.md marks as memvault's (bad ``view_range``, an empty
``old_str``, a path below a file, the size limit, moving a directory into itself)
are the vault's wording; the rules deciding *when* they apply come from the
protocol description.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

ROOT = "/memories"
MAX_LINES = 999_999
DEFAULT_MAX_FILE_BYTES = 1024 * 1024

Key = tuple[str, ...]


def in_range(
    items: list[str], view_range: Sequence[int] | None, what: str
) -> tuple[list[str], int]:
    """The lines or listing rows a view_range selects, and the number of the first."""
    if view_range is None:
        return items, 1
    start, end = view_range
    if not 1 <= start <= len(items) or (end != -1 and end < start):
        raise Refused(
            f"Error: Invalid `view_range` parameter: [{start}, {end}]. Use 1 <= start <= "
            f"{len(items)} and start <= end, or end = -1 to read to the end of the {what}."
        )
    return (items[start - 1 :] if end == -1 else items[start - 1 : end]), start


class Refused(Exception):
    """A command the protocol answers with an error result; ``str()`` is that result."""


def human_size(size: int) -> str:
    """Bytes as the SDK reference backend shows them: 0B, 512B, 1K, 1.5K, 1M."""
    if size == 0:
        return "0B"
    units = ["B", "K", "M", "G"]
    unit = 0
    while unit < len(units) - 1 and size >= 1024 ** (unit + 1):
        unit += 1
    value = size / 1024**unit
    return f"{int(value)}{units[unit]}" if value.is_integer() else f"{value:.1f}{units[unit]}"


def numbered(lines: Iterable[str], first: int) -> str:
    """Lines in the view format: number right-aligned in 6 characters, a tab, the line."""
    return "\n".join(f"{n:>6}\t{line}" for n, line in enumerate(lines, start=first))


def key_of(path: str) -> Key:
    """The names below /memories in a valid path; a trailing slash is not a name."""
    rest = path[len(ROOT) :].strip("/")
    return tuple(rest.split("/")) if rest else ()


def text_of(key: Key) -> str:
    return "/".join((ROOT, *key))


def is_hidden(name: str) -> bool:
    return name.startswith(".") or name == "node_modules"


class SpecModel:
    """The memories of one user, as the protocol describes them."""

    def __init__(self, max_file_bytes: int = DEFAULT_MAX_FILE_BYTES) -> None:
        self.max_file_bytes = max_file_bytes
        self.files: dict[Key, str] = {}
        self.dirs: set[Key] = {()}  # invariant: every ancestor of an entry is a directory

    # -- queries ----------------------------------------------------------------------

    def exists(self, key: Key) -> bool:
        return key in self.files or key in self.dirs

    def children(self, key: Key) -> list[str]:
        entries = [*self.files, *self.dirs]
        return sorted({e[-1] for e in entries if len(e) == len(key) + 1 and e[:-1] == key})

    def size(self, key: Key) -> int:
        """A file's UTF-8 size, or the bytes of every file below a directory."""
        return sum(len(t.encode()) for k, t in self.files.items() if k[: len(key)] == key)

    def line_count(self, key: Key) -> int:
        """Lines as view numbers them (a final newline leaves an empty last line)."""
        return len(self.files[key].split("\n"))

    def insert_range(self, key: Key) -> int:
        """The largest valid ``insert_line`` for a file."""
        return len(_insert_lines(self.files[key]))

    # -- commands ---------------------------------------------------------------------

    def run(self, command: Mapping[str, Any]) -> tuple[bool, str]:
        """Run one command; (False, result) on success, (True, message) on an error."""
        handler = getattr(self, "_" + command["command"])
        try:
            return False, handler(command)
        except Refused as exc:
            return True, str(exc)

    def _view(self, c: Mapping[str, Any]) -> str:
        path, key, view_range = c["path"], key_of(c["path"]), c.get("view_range")
        if key in self.dirs:
            header = (
                f"Here're the files and directories up to 2 levels deep in {path}, "
                "excluding hidden items and node_modules:"
            )
            rows, _ = in_range(self._listing(path, key), view_range, "listing")
            return "\n".join([header, *rows])
        if key not in self.files:
            raise Refused(f"The path {path} does not exist. Please provide a valid path.")
        lines = self.files[key].split("\n")
        if len(lines) > MAX_LINES:
            raise Refused(f"File {path} exceeds maximum line limit of 999,999 lines.")
        lines, first = in_range(lines, view_range, "file")
        return f"Here's the content of {path} with line numbers:\n" + numbered(lines, first)

    def _listing(self, path: str, key: Key) -> list[str]:
        """The rows of a directory's listing (the directory's own first), no header."""
        base = path.rstrip("/") or ROOT
        rows = [f"{human_size(self.size(key))}\t{path}"]

        def visit(directory: Key, depth: int) -> None:
            for name in self.children(directory):
                if is_hidden(name):
                    continue
                child = (*directory, name)
                shown = "/".join(child[len(key) :])
                slash = "/" if child in self.dirs else ""
                rows.append(f"{human_size(self.size(child))}\t{base}/{shown}{slash}")
                if child in self.dirs and depth < 2:
                    visit(child, depth + 1)

        visit(key, 1)
        return rows

    def _create(self, c: Mapping[str, Any]) -> str:
        path, key, text = c["path"], key_of(c["path"]), c["file_text"]
        if self.exists(key):
            raise Refused(f"Error: File {path} already exists")
        if path.endswith("/"):
            raise Refused(f"Error: Cannot create {path}: a file path cannot end with '/'.")
        self._check_size(path, text)
        self._make_parents(path, key[:-1], "create")
        self.files[key] = text
        return f"File created successfully at: {path}"

    def _str_replace(self, c: Mapping[str, Any]) -> str:
        path, key, old, new = c["path"], key_of(c["path"]), c["old_str"], c["new_str"]
        if key not in self.files:
            raise Refused(f"Error: The path {path} does not exist. Please provide a valid path.")
        if old == "":
            raise Refused("Error: `old_str` is empty. Give the exact text to replace.")
        text = self.files[key]
        starts = [i for i in range(len(text)) if text.startswith(old, i)]  # overlapping too
        if not starts:
            raise Refused(
                f"No replacement was performed, old_str `{old}` did not appear verbatim in {path}."
            )
        if len(starts) > 1:
            line_numbers = sorted({text.count("\n", 0, i) + 1 for i in starts})
            raise Refused(
                f"No replacement was performed. Multiple occurrences of old_str `{old}` in lines: "
                f"{', '.join(map(str, line_numbers))}. Please ensure it is unique"
            )
        at = starts[0]
        result = text[:at] + new + text[at + len(old) :]
        self._check_size(path, result)
        self.files[key] = result
        first_changed = text.count("\n", 0, at)  # 0-based
        last_changed = first_changed + new.count("\n")
        lines = result.split("\n")
        lo, hi = max(0, first_changed - 2), min(len(lines), last_changed + 3)
        return (
            "The memory file has been edited. Here is the snippet showing the change "
            "(with line numbers):\n" + numbered(lines[lo:hi], lo + 1)
        )

    def _insert(self, c: Mapping[str, Any]) -> str:
        path, key = c["path"], key_of(c["path"])
        line, insert_text = c["insert_line"], c["insert_text"]
        if key not in self.files:
            raise Refused(f"Error: The path {path} does not exist")
        text = self.files[key]
        lines = _insert_lines(text)
        if not 0 <= line <= len(lines):
            raise Refused(
                f"Error: Invalid `insert_line` parameter: {line}. It should be within the range "
                f"of lines of the file: [0, {len(lines)}]"
            )
        # Each kept line with its newline; after a last line without one, this adds it.
        head = "".join(f"{kept}\n" for kept in lines[:line])
        block = insert_text if insert_text.endswith("\n") else insert_text + "\n"
        result = head + block + text[len(head) :]
        self._check_size(path, result)
        self.files[key] = result
        return f"The file {path} has been edited."

    def _delete(self, c: Mapping[str, Any]) -> str:
        path, key = c["path"], key_of(c["path"])
        if not key:
            raise Refused("Error: Cannot delete the /memories directory itself")
        if not self.exists(key):
            raise Refused(f"Error: The path {path} does not exist")
        self.files = {k: t for k, t in self.files.items() if k[: len(key)] != key}
        self.dirs = {d for d in self.dirs if d[: len(key)] != key}
        return f"Successfully deleted {path}"

    def _rename(self, c: Mapping[str, Any]) -> str:
        old, new = c["old_path"], c["new_path"]
        src, dst = key_of(old), key_of(new)
        if not src:
            raise Refused("Error: Cannot rename the /memories directory itself")
        if not self.exists(src):
            raise Refused(f"Error: The path {old} does not exist")
        if self.exists(dst):
            raise Refused(f"Error: The destination {new} already exists")
        if src in self.dirs and dst[: len(src)] == src:
            raise Refused(f"Error: Cannot move the directory {old} into itself ({new}).")
        if src in self.files and new.endswith("/"):
            raise Refused(
                f"Error: Cannot rename the file {old} to {new}: a file path cannot end with '/'."
            )
        self._make_parents(new, dst[:-1], "rename to")

        def moved(k: Key) -> Key:
            return (*dst, *k[len(src) :]) if k[: len(src)] == src else k

        self.files = {moved(k): t for k, t in self.files.items()}
        self.dirs = {moved(d) for d in self.dirs}
        return f"Successfully renamed {old} to {new}"

    # -- shared rules -----------------------------------------------------------------

    def _check_size(self, path: str, text: str) -> None:
        size = len(text.encode())
        if size > self.max_file_bytes:
            raise Refused(
                f"Error: The file {path} would be {size:,} bytes, over the limit of "
                f"{self.max_file_bytes:,} bytes. Split the content across smaller files."
            )
        if text.count("\n") + 1 > MAX_LINES:
            raise Refused(f"File {path} exceeds maximum line limit of 999,999 lines.")

    def _make_parents(self, path: str, parent: Key, verb: str) -> None:
        """Make ``parent`` and its missing ancestors directories, unless a file is in the way."""
        ancestors = [parent[:i] for i in range(1, len(parent) + 1)]
        for ancestor in ancestors:
            if ancestor in self.files:
                raise Refused(
                    f"Error: Cannot {verb} {path}: {text_of(ancestor)} is a file, not a directory."
                )
        self.dirs.update(ancestors)


def _insert_lines(text: str) -> list[str]:
    """A text's lines for insert: no empty element after a final newline ("" has none)."""
    lines = text.split("\n")
    return lines[:-1] if lines[-1] == "" else lines
