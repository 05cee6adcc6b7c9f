"""The six memory commands, with the exact result strings of the protocol.

Each handler takes a user's :class:`~memvault.memory._tree.Tree` and a checked
command, runs inside the caller's transaction, and returns an
:class:`~memvault.memory._commands.Outcome`: the result, or the command's own
refusal, with what the audit record needs (texts read and stored, findings).
A refusal before anything was read may also be raised as a
:class:`~memvault.errors.CommandError`. Strings: ``docs/protocol.md``.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import islice

from ..errors import CommandError, RedactionError
from ..redaction import Limits, Pseudonymizer, Redacted
from ._commands import Command, Create, Delete, Insert, Outcome, Rename, StrReplace, View, texts_of
from ._guard import MAX_DEPTH, MAX_PATH_BYTES, MemoryPath, join
from ._listing import view_directory
from ._node import Node
from ._quota import check_room
from ._reading import view_file
from ._results import missing, missing_please, not_unique, number_lines, with_note
from ._screen import Screen
from ._tree import Stored, Tree

MAX_LINES = 999_999
DEFAULT_MAX_FILE_BYTES = Limits().max_memory_bytes
# A text field longer than this many times the file size limit (in characters) is
# refused before anything reads or screens it: it could fit the limit only if the
# redaction filter shrank it to a quarter, and screening it would cost more.
INPUT_FACTOR = 4
# A document at least this long is screened before the write lock is taken
# (Handlers.prepare): screening is most of a large write's time.
PREPARE_CHARS = 64 << 10


class Handlers:
    """The command logic, with the limits of one deployment (the policy's ``[limits]``)."""

    max_lines = MAX_LINES  # the protocol's limit, the same for every deployment

    def __init__(self, screen: Screen, *, limits: Limits | None = None) -> None:
        self.screen = screen
        self.limits = Limits() if limits is None else limits
        self.max_file_bytes = self.limits.max_memory_bytes
        self.max_input_chars = INPUT_FACTOR * self.max_file_bytes

    def run(self, tree: Tree, command: Command) -> Outcome:
        """Run one command in the caller's transaction."""
        self.check_input(command)
        match command:
            case View():
                return self.view(tree, command)
            case Create():
                return self.create(tree, command)
            case StrReplace():
                return self.str_replace(tree, command)
            case Insert():
                return self.insert(tree, command)
            case Delete():
                return self.delete(tree, command)
            case Rename():
                return self.rename(tree, command)

    def check_input(self, command: Command) -> None:
        """Refuse a text field too long to be worth screening or searching.

        It costs only the fields' lengths, so it can run before anything else,
        and a huge text never reaches the redaction filter, nor the store.
        """
        for field, value in texts_of(command):
            if len(value) > self.max_input_chars:
                raise CommandError(
                    f"Error: `{field}` is {len(value):,} characters long, over the input limit "
                    f"of {self.max_input_chars:,} characters. Send less text in one command.",
                    kind="limit",
                )

    def prepare(self, tree: Tree, command: Command) -> None:
        """Do a large write's screening early, before the runner takes the write lock:
        run inside :meth:`Screen.ahead`, every scan made here is remembered, and the
        command, run again in its write transaction, finds the results instead of
        scanning again (when the file did not change in between; otherwise it scans as
        always). A ``create`` needs nothing from the store for it; ``str_replace`` and
        ``insert`` read their file in a read transaction of their own. Other commands
        and small writes skip this."""
        try:
            self.check_input(command)
            match command:
                case Create() if len(command.file_text) >= PREPARE_CHARS:
                    self._screened(command.path, command.file_text, tree)
                case StrReplace() | Insert() if not _known_small(tree, command):
                    with tree.transaction(write=False):
                        self._prepare_edit(tree, command)
        except (CommandError, RedactionError):
            return  # remembered: the command meets the same refusal in its transaction

    def _prepare_edit(self, tree: Tree, command: StrReplace | Insert) -> None:
        chain = tree.walk(command.path.parts)
        node = chain[-1]
        if len(chain) != len(command.path.parts) + 1 or node.is_dir:
            return
        if node.size + sum(len(t) for _, t in texts_of(command)) < PREPARE_CHARS:
            return
        text = tree.read(node).text
        if isinstance(command, Insert):
            self._screened(command.path, _inserted(text, command), tree)
        else:
            first, old = self._locate(text, command.old_str, command.path, tree)
            document = text[:first] + command.new_str + text[first + len(old) :]
            self._screened(command.path, document, tree)

    # -- the commands --------------------------------------------------------------------

    def view(self, tree: Tree, command: View) -> Outcome:
        path = command.path
        node = tree.resolve(path.parts)
        if node is None:
            raise CommandError(
                f"The path {path.text} does not exist. Please provide a valid path.",
                kind="not_found",
            )
        cap = self.limits.max_view_chars
        if node.is_dir:
            return Outcome(view_directory(tree, path, node, command.view_range, cap))
        stored = tree.read(node)
        try:
            result = view_file(path, stored.text, command.view_range, self.max_lines, cap)
        except CommandError as exc:
            return Outcome.refusal(exc, before=stored)
        tree.used(node)  # a view of a file is a use of it; a listing uses no file
        tree.note_size(path.parts, len(stored.raw))
        return Outcome(result, before=stored)

    def create(self, tree: Tree, command: Create) -> Outcome:
        path = command.path
        chain = tree.walk(path.parts)
        if path.is_root or len(chain) == len(path.parts) + 1:
            raise CommandError(f"Error: File {path.text} already exists", kind="exists")
        if path.trailing_slash:
            raise CommandError(
                f"Error: Cannot create {path.text}: a file path cannot end with '/'.",
                kind="invalid_path",
            )
        redacted = self._screened(path, command.file_text, tree)
        check_room(tree, self.limits, path, "create", len(redacted.text.encode()), 1)
        parents = self._parent_for(tree, path, chain, "create")
        after = tree.create_file(parents, path.parts[-1], redacted.text)
        tree.note_size(path.parts, len(after.raw))
        result = with_note(f"File created successfully at: {path.text}", redacted)
        return Outcome(result, after=after, findings=redacted.findings)

    def str_replace(self, tree: Tree, command: StrReplace) -> Outcome:
        path = command.path
        chain = self._file(tree, path, missing_please)
        if not command.old_str:
            raise CommandError(
                "Error: `old_str` is empty. Give the exact text to replace.", kind="input"
            )
        before = tree.read(chain[-1])
        try:
            text = before.text
            first, old = self._locate(text, command.old_str, path, tree)
            redacted = self._screened(
                path, text[:first] + command.new_str + text[first + len(old) :], tree, before
            )
            check_room(tree, self.limits, path, "edit", _growth(redacted, before), 0)
        except CommandError as exc:
            return Outcome.refusal(exc, before=before)
        after = tree.write(chain, redacted.text)
        tree.note_size(path.parts, len(after.raw))
        start_line = text.count("\n", 0, first)
        end_line = start_line + command.new_str.count("\n")
        all_lines = redacted.text.split("\n")
        lo, hi = max(0, start_line - 2), min(len(all_lines), end_line + 3)
        result = with_note(
            "The memory file has been edited. Here is the snippet showing the change "
            "(with line numbers):\n" + number_lines(all_lines[lo:hi], lo + 1),
            redacted,
        )
        return Outcome(result, before=before, after=after, findings=redacted.findings)

    def insert(self, tree: Tree, command: Insert) -> Outcome:
        path = command.path
        chain = self._file(tree, path, missing)
        before = tree.read(chain[-1])
        try:
            redacted = self._screened(path, _inserted(before.text, command), tree, before)
            check_room(tree, self.limits, path, "edit", _growth(redacted, before), 0)
        except CommandError as exc:
            return Outcome.refusal(exc, before=before)
        after = tree.write(chain, redacted.text)
        tree.note_size(path.parts, len(after.raw))
        result = with_note(f"The file {path.text} has been edited.", redacted)
        return Outcome(result, before=before, after=after, findings=redacted.findings)

    def delete(self, tree: Tree, command: Delete) -> Outcome:
        path = command.path
        if path.is_root:
            raise CommandError(
                "Error: Cannot delete the /memories directory itself", kind="protected"
            )
        chain = tree.walk(path.parts)
        if len(chain) != len(path.parts) + 1:
            raise missing(path)
        node = chain[-1]
        # The record keeps a keyed digest of a file's text as it was removed.
        before = None if node.is_dir else tree.read(node)
        tree.delete(chain)
        return Outcome(f"Successfully deleted {path.text}", before=before)

    def rename(self, tree: Tree, command: Rename) -> Outcome:
        old, new = command.old_path, command.new_path
        if old.is_root:
            raise CommandError(
                "Error: Cannot rename the /memories directory itself", kind="protected"
            )
        chain = tree.walk(old.parts)
        if len(chain) != len(old.parts) + 1:
            raise missing(old)
        node = chain[-1]
        target = tree.walk(new.parts)
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
            _check_fits(tree, old, new, node)
        parents = self._parent_for(tree, new, target, "rename to")
        tree.move(chain, parents, new.parts[-1])
        return Outcome(f"Successfully renamed {old.text} to {new.text}")

    # -- steps shared by the commands ------------------------------------------------------

    def _screened(
        self, path: MemoryPath, text: str, tree: Tree, before: Stored | None = None
    ) -> Redacted:
        """The text to store: the whole document through the filter (so a secret pieced
        together over several edits is caught), then within the size limits. An edit of
        the file ``before`` that does not make it larger passes the size limit even if
        it is still over it (a policy may have lowered it since)."""
        return self.screened(path, text, tree.pseudonym, None if before is None else before.raw)

    def screened(
        self, path: MemoryPath, text: str, pseudonym: Pseudonymizer, before: bytes | None = None
    ) -> Redacted:
        """:meth:`_screened` with a user's pseudonyms, outside any transaction: what a
        ``create`` of ``text`` would store, for a dry run that stores nothing (and may
        be for a user the vault does not hold yet)."""
        redacted = self.screen.text(text, pseudonym)
        size = len(redacted.text.encode())
        if size > self.max_file_bytes and (before is None or size > len(before)):
            raise CommandError(
                f"Error: The file {path.text} would be {size:,} bytes, over the limit of "
                f"{self.max_file_bytes:,} bytes. Split the content across smaller files.",
                kind="file_size",
            )
        if redacted.text.count("\n") + 1 > self.max_lines:
            raise CommandError(
                f"File {path.text} exceeds maximum line limit of 999,999 lines.", kind="limit"
            )
        return redacted

    def _locate(self, text: str, old: str, path: MemoryPath, tree: Tree) -> tuple[int, str]:
        """(offset, old) of the one occurrence of ``old`` in ``text``; refuses none or several.

        The stored text is redacted: what the model wrote is also looked for in its
        redacted form, so a line that had an e-mail in it can still be edited.
        """
        first = text.find(old)
        if first == -1:
            screened = self.screen.text(old, tree.pseudonym).text
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
            raise not_unique(self.screen.render(old), text, old)
        return first, old

    def _file(
        self, tree: Tree, path: MemoryPath, absent: Callable[[MemoryPath], CommandError]
    ) -> list[Node]:
        """The chain from ``/memories`` to an existing file; ``absent(path)`` is raised
        otherwise."""
        chain = tree.walk(path.parts)
        if len(chain) != len(path.parts) + 1 or chain[-1].is_dir:
            raise absent(path)
        return chain

    def _parent_for(self, tree: Tree, path: MemoryPath, chain: list[Node], verb: str) -> list[Node]:
        """The chain of directories down to the one a new entry at ``path`` goes into,
        creating missing ones.

        ``chain`` is ``tree.walk(path.parts)``, taken once by the caller, who has
        already refused an existing entry at ``path``.
        """
        node = chain[-1]
        if not node.is_dir:
            blocker = join(path.parts[: len(chain) - 1])
            raise CommandError(
                f"Error: Cannot {verb} {path.text}: {blocker} is a file, not a directory.",
                kind="not_a_directory",
            )
        missing = path.parts[len(chain) - 1 : -1]
        check_room(tree, self.limits, path, verb, 0, 0, len(missing))
        return tree.mkdirs(chain, missing)


def _known_small(tree: Tree, command: StrReplace | Insert) -> bool:
    """Whether the edited file was small when this tree last saw it, so small that the edit
    cannot make it worth screening ahead (a hint: if another process grew the file since,
    the command screens it in its transaction, which is only slower)."""
    size = tree.size_hint(command.path.parts)
    return size is not None and size + sum(len(t) for _, t in texts_of(command)) < PREPARE_CHARS


def _growth(redacted: Redacted, before: Stored) -> int:
    """The bytes an edit adds to its file (negative: it frees some)."""
    return len(redacted.text.encode()) - len(before.raw)


def _inserted(text: str, command: Insert) -> str:
    """The document with ``insert_text`` after line ``insert_line``; refuses a bad line."""
    line = command.insert_line
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
    offset = sum(map(len, islice(lines, line))) + line
    block = command.insert_text
    block = block if block.endswith("\n") else block + "\n"
    if offset > len(text):  # appending to a text without a final newline
        offset = len(text)
        block = "\n" + block
    return text[:offset] + block + text[offset:]


def _check_fits(tree: Tree, old: MemoryPath, new: MemoryPath, node: Node) -> None:
    """Refuse a directory move that would put something below it past the guard's
    limits, where no command could reach it any more."""
    _, entries = tree.tree(node, depth=MAX_DEPTH)
    base = join(new.parts)
    for entry in entries:
        depth = len(new.parts) + len(entry.parts)
        size = len(base.encode()) + len("/".join(("", *entry.parts)).encode())
        if depth > MAX_DEPTH or size > MAX_PATH_BYTES:
            reason = (
                f"a path inside it would be {depth} levels deep; the limit is {MAX_DEPTH}"
                if depth > MAX_DEPTH
                else f"a path inside it would be {size} bytes long; the limit is {MAX_PATH_BYTES}"
            )
            raise CommandError(
                f"Error: Cannot rename {old.text} to {new.text}: {reason}.", kind="limit"
            )


__all__ = ["DEFAULT_MAX_FILE_BYTES", "INPUT_FACTOR", "MAX_LINES", "Handlers", "Stored"]
