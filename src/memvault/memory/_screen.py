"""The redaction layer as the commands meet it, failing closed.

Every text the model writes goes through :meth:`Screen.text` before it can
reach the store; every path and every piece of model input that a message
echoes goes through :meth:`Screen.path`, :meth:`Screen.render` or
:meth:`Screen.echo` first, so no secret or personal data reaches the store, an
error message or a log. Any failure inside the filter refuses the command with
:class:`~memvault.errors.RedactionError`: nothing passes unfiltered.

An echo is redacted before it is escaped or cut, and whatever escaping and
cutting make of it is screened again: cutting ``jane.doe@example.org`` after
``jane.doe@exam`` would leave a value the filter no longer recognizes. Echoes
carry no pseudonym and no masked tail, only ``[REDACTED:kind]``: a pseudonym of
the model's own guess, compared with the ones in a file, would confirm the
guess.

Nothing here keeps model input beyond the call that brought it: a cache of
rendered paths would hold names (and whatever secrets they carry) in memory
for the life of the process. The one thing kept is which paths were scanned
clean, as HMACs under a key drawn for this screen (a path is scanned once, not
at every command that names it); a path with a finding is scanned every time.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager

from .. import _crypto
from .._log import log
from .._text import show
from ..errors import CommandError, RedactionError, VaultError
from ..redaction import Finding, Pseudonymizer, Redacted, Redactor, a_label, join_and
from ._guard import MemoryPath, parse_path

FAILED = (
    "Error: The redaction filter could not check this input, so nothing was stored. "
    "Try again; if it keeps failing, tell the operator."
)
_CLEAN_PATHS = 4096  # digests of clean paths kept at most (32 bytes each)
SHOWN_PATH = 120  # characters of a refused path a message shows
SHOWN_NAME = 40  # characters of an unknown command's name a message shows
# Each pass puts a marker where a finding was; a marker is never a finding, so real
# text settles in one or two passes, and this bound only stops a pathological case.
_PASSES = 4
# The markers that carry something of the value: a pseudonym (a keyed token that is
# the same wherever the value is) or a masked tail. An echo shows the kind alone.
_LINKABLE = re.compile(
    r"\[(?:PSEUDONYM:([a-z0-9_]{1,64}):[0-9a-f]{10}|MASKED:([a-z0-9_]{1,64}):[^\]\s]{0,16})\]"
)
_SURROGATE = re.compile(r"[\ud800-\udfff]")


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
        # Keyed digests of paths (as sent, and in NFC) the filter found nothing in.
        self._clean_mac = _crypto.mac_function(_crypto.new_key())
        self._clean: set[bytes] = set()
        # For one command run ahead of its write lock: every scan it made (see ahead()).
        self._memo: dict[tuple[str, str], Redacted | list[Finding] | VaultError] | None = None

    @contextmanager
    def ahead(self) -> Iterator[None]:
        """For one command, run once early (outside the store's write lock) and again in
        its write transaction: every scan and redaction is remembered in between, so
        each text is scanned once. The texts are held for this one command only; the
        caller holds the vault's lock (and uses one user's pseudonyms) throughout."""
        self._memo = {}
        try:
            yield
        finally:
            self._memo = None

    def text(self, text: str, pseudonym: Pseudonymizer) -> Redacted:
        """The text to store; raises BlockedError (policy) or RedactionError (fault)."""
        memo = self._memo
        if memo is not None:
            seen = memo.get(("text", text))
            if isinstance(seen, VaultError):
                raise seen
            if isinstance(seen, Redacted):
                return seen
        try:
            result = self.redactor.apply(text, pseudonym)
        except CommandError as exc:
            if memo is not None:
                memo["text", text] = exc
            raise
        except Exception as exc:
            log.error("redaction_failed", error=type(exc).__name__)
            raise RedactionError(FAILED) from None
        if memo is not None:
            memo["text", text] = result
        return result

    def render(self, text: str) -> str:
        """Model input as a message may echo it whole: every finding replaced by
        ``[REDACTED:kind]`` until the filter finds nothing more, and every pseudonym or
        masked marker in it shown as ``[REDACTED:kind]`` too. An unpaired surrogate,
        which no message or record can carry, is shown as U+FFFD."""
        return _unlinked(self._redacted(_encodable(text)))

    def echo(self, text: str, limit: int) -> str:
        """Model input as a message shows it: redacted whole, then escaped (invisible
        characters, backslashes, unpaired surrogates) and cut after ``limit``
        characters, each step screened again; what it returns passes the filter."""
        shown = self._redacted(show(_unlinked(self._redacted(text)), sys.maxsize))
        if len(shown) > limit:
            shown = self._redacted(shown[:limit] + "…")
        return shown

    def path(self, raw: object, field: str, *, refuse: bool) -> MemoryPath:
        """Guard a path, and screen it, as sent and in the NFC form the guard keeps.

        A path that would name something new (``refuse=True``: create, the target
        of rename) is refused if it carries a secret or personal data, rather than
        rewritten, so the model keeps a coherent view of its files. A path that
        names something that exists (view, delete, the source of rename) still
        reaches it, so a badly named file can be read, renamed or deleted; only
        messages echo it redacted. A value that only NFC reveals (``A\\u212aIA…``
        is ``AKIA…``) is caught the same, and such a path is echoed in NFC.
        """
        if not isinstance(raw, str):
            return parse_path(raw, field)  # the guard refuses it, naming only its type
        try:
            digest = self._clean_mac(raw.encode())
        except UnicodeEncodeError:  # an unpaired surrogate: the guard refuses it
            return parse_path(raw, field, echo=self._echo_path)
        if digest in self._clean:
            return parse_path(raw, field, echo=self._echo_path)
        source, found = raw, self._scan(raw)
        canonical = unicodedata.normalize("NFC", raw)
        if canonical != raw:
            in_canonical = self._scan(canonical)
            if in_canonical:
                source, found = canonical, found + in_canonical
        if not found:
            if len(self._clean) >= _CLEAN_PATHS:
                self._clean.clear()
            self._clean.add(digest)
            return parse_path(raw, field, echo=self._echo_path)
        if refuse:
            kinds = join_and([a_label(k) for k in sorted({f.kind for f in found})])
            raise CommandError(
                f"Error: The path {self._echo_path(source)} was refused: it contains {kinds}. "
                "File and directory names must not carry secrets or personal data; "
                "choose another name.",
                kind="path_content",
            )
        path = parse_path(raw, field, echo=lambda _: self._echo_path(source))
        return MemoryPath(self.render(source), path.parts, path.trailing_slash)

    def _echo_path(self, text: str) -> str:
        return self.echo(text, SHOWN_PATH)

    def _redacted(self, text: str) -> str:
        """``text`` with every finding replaced by ``[REDACTED:kind]``, to a fixed point.

        Unpaired surrogates (which cannot be encoded to scan) are scanned as U+FFFD,
        one character for one, so the findings fall on the same offsets.
        """
        scanned = _encodable(text)
        for _ in range(_PASSES):
            found = self._scan(scanned)
            if not found:
                return text
            text, scanned = _rendered(text, found), _rendered(scanned, found)
        if not self._scan(scanned):
            return text
        log.error("redaction_failed", error="no fixed point")
        raise RedactionError(FAILED)

    def _scan(self, text: str) -> list[Finding]:
        memo = self._memo
        if memo is not None:
            seen = memo.get(("scan", text))
            if isinstance(seen, list):
                return seen
        try:
            found = self.redactor.scan(text)
        except Exception as exc:
            log.error("redaction_failed", error=type(exc).__name__)
            raise RedactionError(FAILED) from None
        if memo is not None:
            memo["scan", text] = found
        return found


def _encodable(text: str) -> str:
    """``text`` with each unpaired surrogate replaced by U+FFFD, one for one."""
    return text if _encodes(text) else _SURROGATE.sub("\ufffd", text)


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


def _unlinked(text: str) -> str:
    """``text`` with every pseudonym and masked marker shown by its kind alone."""
    if "[" not in text:
        return text
    return _LINKABLE.sub(lambda m: f"[REDACTED:{m.group(1) or m.group(2)}]", text)
