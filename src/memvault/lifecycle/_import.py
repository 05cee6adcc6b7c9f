"""``memvault import``: a plaintext memory directory brought into one user's memories.

Each regular file of the source (read as :mod:`._source` describes, which also
says what is refused before the vault sees it) becomes one ``create`` command
run through the user's :class:`~memvault.memory.Runner`, so it meets exactly
what the model's own ``create`` meets: the path guard and the screen of new
names, the input and size limits, the redaction filter, and one audit record
committed with the memory. Those are ordinary ``create`` records; their
session id (``import-`` and 8 hex digits, new for each import) ties them to
the one ``users.import`` operator record that ends the import, with its counts.

Nothing is overwritten: a file whose path already holds a memory (or a
directory) is refused, and what the vault holds there stays as it is. The
source is never changed. A dry run makes the same checks (the guard, the
limits, UTF-8, what the filter finds, what already exists) and stores nothing;
its ``users.import`` record (``dry_run: true``) is the only trace it leaves,
since it looked into the user's memories.
"""

from __future__ import annotations

import secrets
from collections import Counter
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from .._text import clean_text
from ..audit import Event
from ..errors import BlockedError, CommandError, RedactionError, StorageError, VaultError
from ..memory import Create, MemoryPath, Node, Runner, Screen, Tree, Usage, check_usage
from ._parts import Parts
from ._source import Found, opened, walk

IMPORT_RECORD = "users.import"
IMPORTED, WOULD_IMPORT, REFUSED = "imported", "would_import", "refused"
EXISTS = "the vault already holds a memory or directory at this path; it was left as it is"
SHOWN_PATH = 1100  # characters of a path the summary shows: any path the guard accepts
# Error kinds of a reply that says the vault failed, not that the file was refused.
_VAULT_FAILURES = frozenset({"integrity", "audit", "storage", "internal"})

RunnerFor = Callable[[str, str | None], Runner]  # (user, session): Vault.runner


@dataclass(frozen=True, slots=True)
class FileResult:
    """What became of one entry of the source. ``path`` is as the summary shows it: as
    the guard passed it, or escaped and redacted if it was refused."""

    path: str
    status: str  # IMPORTED, WOULD_IMPORT (a dry run) or REFUSED
    size: int  # bytes of the source file (0 for what was not read)
    findings: dict[str, int] | None = None  # kinds and counts the filter removed
    note: str | None = None  # the same in words: "1 email was redacted"
    reason: str | None = None  # why it was refused, in one word
    message: str | None = None  # why, in words

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "status": self.status,
            "bytes": self.size,
            "findings": self.findings,
            "note": self.note,
            "reason": self.reason,
            "message": self.message,
        }


@dataclass
class ImportReport:
    """An import: where from, for whom, and each entry's result in the source's order."""

    user: str
    source: Path  # the memories directory read
    layout: str  # "base": the directory given holds memories/; "memories": it is that one
    dry_run: bool
    session: str | None  # the session id of the import's create records
    files: list[FileResult] = field(default_factory=list)

    @property
    def imported(self) -> int:
        """Files imported (or, in a dry run, that would be)."""
        return sum(f.status != REFUSED for f in self.files)

    @property
    def refused(self) -> int:
        return sum(f.status == REFUSED for f in self.files)

    @property
    def redacted(self) -> int:
        """Files imported with something removed by the filter."""
        return sum(f.findings is not None for f in self.files)

    def findings(self) -> dict[str, int]:
        """What the filter removed from all files, by kind."""
        total: Counter[str] = Counter()
        for result in self.files:
            total.update(result.findings or {})
        return dict(sorted(total.items()))

    def to_json(self) -> dict[str, Any]:
        return {
            "user": self.user,
            "source": clean_text(str(self.source)),
            "layout": self.layout,
            "dry_run": self.dry_run,
            "session": self.session,
            "files": [result.to_json() for result in self.files],
            "totals": {
                "imported": self.imported,
                "refused": self.refused,
                "redacted": self.redacted,
                "findings": self.findings(),
            },
        }


def import_memories(
    parts: Parts, source: Path, user: str, runner_for: RunnerFor, *, dry_run: bool = False
) -> ImportReport:
    """Import the memory directory ``source`` (a reference backend's ``base_path``, or
    its ``memories/``) into ``user``'s memories, or only check it (``dry_run``).

    Refused files are reported and the rest still imported. ``runner_for`` is
    called once the first file is ready to be stored, so the user is created
    (as on their first command) only if something is. Ends with one
    ``users.import`` record. Raises :class:`UsageError` for a source that is not
    a memory directory, and :class:`StorageError` if the vault fails while
    storing (the memories stored until then stay).
    """
    screen = parts.handlers.screen
    with opened(source) as (fd, root, layout):
        session = None if dry_run else f"import-{secrets.token_hex(4)}"
        report = ImportReport(user, root, layout, dry_run, session)
        step: _Step = _Plan(parts, user) if dry_run else _Store(runner_for, user, session, screen)
        try:
            for found in walk(fd, parts.handlers.max_file_bytes, partial(_refused_dir, screen)):
                report.files.append(step(found))
        except _Stopped as stop:
            with suppress(VaultError):
                _record(parts, report, failed=stop.error)
            raise StorageError(
                f"the import stopped at {stop.shown}: the vault could not store it "
                f"({stop.error}); {report.imported:,} files were imported before it",
                hint="the operator log says why; once that is fixed, import again: the "
                "memories already imported are refused as existing and stay as they are",
            ) from None
    _record(parts, report)
    return report


def _record(parts: Parts, report: ImportReport, *, failed: str | None = None) -> None:
    details = {
        "dry_run": report.dry_run,
        "layout": report.layout,
        "imported": report.imported,
        "refused": report.refused,
        "redacted": report.redacted,
    }
    event = Event(
        IMPORT_RECORD,
        user=parts.user_key(report.user),
        session=report.session,
        outcome="failed" if failed else "ok",
        error=failed,
        details=details,
    )
    parts.record(event)


def _refused_dir(screen: Screen, parts: tuple[str, ...]) -> tuple[str, str] | None:
    """A directory whose name the guard (or the screen of new names) refuses is not read:
    every file below it would be refused for it."""
    try:
        screen.path("/".join(("/memories", *parts)), "path", refuse=True)
    except CommandError as exc:
        return exc.kind, _words(exc.message)
    except RedactionError as exc:
        return "redaction", _words(exc.message)
    return None


class _Stopped(Exception):
    """The vault failed to store a file: the import ends there."""

    def __init__(self, shown: str, error: str) -> None:
        super().__init__(error)
        self.shown = shown
        self.error = error


_Step = Callable[[Found], FileResult]


class _Store:
    """Each file as a ``create`` through the user's runner, in a session of its own."""

    def __init__(
        self, runner_for: RunnerFor, user: str, session: str | None, screen: Screen
    ) -> None:
        self._runner_for = runner_for
        self._screen = screen
        self._user = user
        self._session = session
        self._runner: Runner | None = None

    def __call__(self, found: Found) -> FileResult:
        if found.text is None:
            return _refusal(found, self._screen)
        if self._runner is None:
            self._runner = self._runner_for(self._user, self._session)
        command = {"command": "create", "path": found.path, "file_text": found.text}
        reply = self._runner.run(command)
        if not reply.is_error:
            findings = dict(reply.findings) or None
            note = _note(reply.content.partition("\n\n")[2])  # the result, then its note
            # The guard passed the path and the screen found nothing in it: shown as it is.
            return FileResult(found.path, IMPORTED, found.size, findings, note)
        shown = _shown(self._screen, found.path)
        if reply.error in _VAULT_FAILURES:
            raise _Stopped(shown, reply.error or "internal")
        message = EXISTS if reply.error == "exists" else _words(reply.content)
        return FileResult(shown, REFUSED, found.size, reason=reply.error, message=message)


class _Plan:
    """Each file through the checks a ``create`` makes, storing nothing: the guard,
    the limits, the place (what the vault and this import already hold there), the
    filter, with the user's own pseudonyms, and the user's limits, counting what the
    import would have stored before."""

    def __init__(self, parts: Parts, user: str) -> None:
        self._handlers = parts.handlers
        self._lock = parts.lock
        token = parts.master.user_token(user)
        self._pseudonym = partial(parts.master.pseudonym, token)
        with parts.lock, parts.store.transaction(write=False, action="reading the users"):
            found = parts.store.user_by_lookup(token)
        self._tree = None if found is None else Tree(parts.store, parts.master, found[0], token)
        self._planned: set[tuple[str, ...]] = set()
        self._usage: Usage | None = None  # what the user holds, with what is planned
        self._planned_dirs: set[tuple[str, ...]] = set()

    def __call__(self, found: Found) -> FileResult:
        if found.text is None:
            return _refusal(found, self._handlers.screen)
        handlers = self._handlers
        try:
            path = handlers.screen.path(found.path, "path", refuse=True)
            handlers.check_input(Create(path, found.text))
            chain = self._walk(path)
            place = self._place(path, chain)
            if place is not None and place.kind == "exists":
                raise place
            redacted = handlers.screened(path, found.text, self._pseudonym)
            size = len(redacted.text.encode())
            dirs = self._new_directories(path, chain)
            check_usage(handlers.limits, path, "create", self._used(), size, 1, len(dirs))
            if place is not None:
                raise place
        except CommandError as exc:
            kind = "blocked" if isinstance(exc, BlockedError) else exc.kind
            message = EXISTS if kind == "exists" else _words(exc.message)
            shown = _shown(handlers.screen, found.path)
            return FileResult(shown, REFUSED, found.size, reason=kind, message=message)
        except RedactionError as exc:
            shown, message = _shown(handlers.screen, found.path), _words(exc.message)
            return FileResult(shown, REFUSED, found.size, reason="redaction", message=message)
        self._planned.add(path.parts)
        self._planned_dirs.update(dirs)
        used = self._used()
        self._usage = Usage(used.bytes + size, used.files + 1, used.directories + len(dirs))
        counts = Counter(finding.kind for finding in redacted.findings)
        findings = dict(sorted(counts.items())) or None
        note = _note(redacted.note())
        return FileResult(found.path, WOULD_IMPORT, found.size, findings, note)

    def _used(self) -> Usage:
        """What the user holds, with what the import would have stored so far."""
        if self._usage is None:
            self._usage = Usage(0, 0, 0)
            if self._tree is not None:
                with self._lock, self._tree.transaction(write=False):
                    self._usage = self._tree.usage()
        return self._usage

    def _walk(self, path: MemoryPath) -> list[Node] | None:
        """What the vault holds along ``path`` (None: the user is not in the vault)."""
        if self._tree is None:
            return None
        with self._lock, self._tree.transaction(write=False):
            return self._tree.walk(path.parts)

    def _new_directories(self, path: MemoryPath, chain: list[Node] | None) -> list[tuple[str, ...]]:
        """The directories above ``path`` that neither the vault (``chain``, the walk of
        ``path``) nor the plan holds."""
        prefixes = [path.parts[:n] for n in range(1, len(path.parts))]
        held = 0 if chain is None else len(chain) - 1
        return [p for p in prefixes if p not in self._planned_dirs and len(p) > held]

    def _place(self, path: MemoryPath, chain: list[Node] | None) -> CommandError | None:
        """Why ``create`` would refuse the place: something there, or a file above it
        (``chain``: the walk of ``path`` in the vault)."""
        prefixes = [path.parts[:n] for n in range(1, len(path.parts))]
        if path.parts in self._planned:
            return CommandError(EXISTS, kind="exists")
        blocker = next((p for p in prefixes if p in self._planned), None)
        if blocker is None and chain is not None:
            if len(chain) == len(path.parts) + 1:
                return CommandError(EXISTS, kind="exists")
            if not chain[-1].is_dir:
                blocker = path.parts[: len(chain) - 1]
        if blocker is None:
            return None
        shown = "/".join(("/memories", *blocker))
        return CommandError(
            f"Cannot create {path.text}: {shown} is a file, not a directory.",
            kind="not_a_directory",
        )


def _refusal(found: Found, screen: Screen) -> FileResult:
    shown = _shown(screen, found.path)
    return FileResult(shown, REFUSED, found.size, reason=found.kind, message=found.reason)


def _shown(screen: Screen, path: str) -> str:
    """A path the vault did not accept, as the summary shows it: escaped, and redacted
    (a name may carry what the filter removes)."""
    return screen.echo(path, SHOWN_PATH)


def _words(message: str) -> str:
    """A refusal as the operator reads it: the tool's message without its ``Error:``."""
    return message.removeprefix("Error: ")


def _note(note: str) -> str | None:
    """What the filter did, in words, from the note a ``create`` result ends with
    (``Note: 1 email was redacted before storage.`` → ``1 email was redacted``)."""
    return note.removeprefix("Note: ").removesuffix(" before storage.") or None
