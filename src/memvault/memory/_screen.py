"""The redaction layer as the commands meet it, failing closed.

Every text the model writes goes through :meth:`Screen.text` before it can
reach the store; every path and every piece of model input that a message
echoes goes through :meth:`Screen.path` or :meth:`Screen.render` first, so no
secret or personal data reaches the store, an error message or a log. Any
failure inside the filter refuses the command with
:class:`~memvault.errors.RedactionError`: nothing passes unfiltered.

Nothing here keeps model input beyond the call that brought it: a cache of
rendered paths would hold names (and whatever secrets they carry) in memory
for the life of the process.
"""

from __future__ import annotations

from .._log import log
from .._text import show
from ..errors import CommandError, PathError, RedactionError
from ..redaction import Finding, Pseudonymizer, Redacted, Redactor, a_label, join_and
from ._guard import MemoryPath, parse_path

FAILED = (
    "Error: The redaction filter could not check this input, so nothing was stored. "
    "Try again; if it keeps failing, tell the operator."
)


def _encodes(text: str) -> bool:
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return True


class Screen:
    """A policy's redactor, wrapped so that it can only refuse, never leak."""

    def __init__(self, redactor: Redactor) -> None:
        self.redactor = redactor

    def text(self, text: str, pseudonym: Pseudonymizer) -> Redacted:
        """The text to store; raises BlockedError (policy) or RedactionError (fault)."""
        try:
            return self.redactor.apply(text, pseudonym)
        except CommandError:
            raise
        except Exception as exc:
            log.error("redaction_failed", error=type(exc).__name__)
            raise RedactionError(FAILED) from None

    def render(self, text: str) -> str:
        """Model input as a message may echo it: every finding replaced by its marker."""
        return _rendered(text, self._scan(text))

    def path(self, raw: object, field: str, *, refuse: bool) -> MemoryPath:
        """Guard a path, and screen it.

        A path that would name something new (``refuse=True``: create, the target
        of rename) is refused if it carries a secret or personal data, rather than
        rewritten, so the model keeps a coherent view of its files. A path that
        names something that exists (view, delete, the source of rename) still
        reaches it, so a badly named file can be read, renamed or deleted; only
        messages echo it redacted.
        """
        if not isinstance(raw, str) or (not raw.isascii() and not _encodes(raw)):
            return parse_path(raw, field)  # the guard refuses it, with a safe message
        found = self._scan(raw)
        if not found:
            return parse_path(raw, field)
        rendered = _rendered(raw, found)
        if refuse:
            kinds = join_and([a_label(k) for k in sorted({f.kind for f in found})])
            raise CommandError(
                f"Error: The path {show(rendered)} was refused: it contains {kinds}. "
                "File and directory names must not carry secrets or personal data; "
                "choose another name.",
                kind="path_content",
            )
        try:
            path = parse_path(raw, field)
        except PathError as exc:
            raise PathError(exc.message.replace(show(raw), show(rendered))) from None
        return MemoryPath(rendered, path.parts, path.trailing_slash)

    def _scan(self, text: str) -> list[Finding]:
        try:
            return self.redactor.scan(text)
        except Exception as exc:
            log.error("redaction_failed", error=type(exc).__name__)
            raise RedactionError(FAILED) from None


def _rendered(text: str, found: list[Finding]) -> str:
    if not found:
        return text
    out, last = [], 0
    for finding in found:
        out.append(text[last : finding.start])
        out.append(f"[REDACTED:{finding.kind}]")
        last = finding.end
    out.append(text[last:])
    return "".join(out)
