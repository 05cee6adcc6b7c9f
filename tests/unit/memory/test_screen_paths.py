"""Paths are scanned once: the screen remembers which paths the filter found clean, as
keyed digests only, and scans a path with a finding every time it is named."""

from __future__ import annotations

import pytest

from memvault import PathError
from memvault.errors import CommandError
from memvault.memory import Screen
from memvault.redaction import Redactor, load_policy

CLEAN = "/memories/customers/acme/ticket-4711.md"
SECRET = "/memories/people/jane.doe@northwind-mail.com.md"


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> tuple[Screen, list[str]]:
    """A screen over the default policy, and every text its filter scans."""
    redactor = load_policy(None).redactor
    scanned: list[str] = []
    real_scan = Redactor.scan

    def scan(self: Redactor, text: str) -> object:
        scanned.append(text)
        return real_scan(self, text)

    monkeypatch.setattr(Redactor, "scan", scan)
    return Screen(redactor), scanned


def test_a_clean_path_is_scanned_once(counted: tuple[Screen, list[str]]) -> None:
    screen, scanned = counted
    first = screen.path(CLEAN, "path", refuse=True)
    again = screen.path(CLEAN, "path", refuse=True)
    assert first == again and first.parts == ("customers", "acme", "ticket-4711.md")
    assert scanned == [CLEAN]


def test_a_path_with_a_finding_is_scanned_and_refused_every_time(
    counted: tuple[Screen, list[str]],
) -> None:
    screen, scanned = counted
    for _ in range(3):
        with pytest.raises(CommandError) as caught:
            screen.path(SECRET, "path", refuse=True)
        assert str(caught.value).startswith(
            "Error: The path /memories/people/[REDACTED:email].md was refused: it contains an "
            "email."
        )
        assert "jane.doe" not in str(caught.value)
    assert scanned.count(SECRET) >= 3  # at least once a time (the echo scans it again)


def test_a_remembered_path_still_meets_the_guard(counted: tuple[Screen, list[str]]) -> None:
    """The digest spares the filter, never the guard: an escape is refused each time."""
    screen, _ = counted
    for _ in range(2):
        with pytest.raises(PathError):
            screen.path("/memories/../etc/passwd", "path", refuse=False)


def test_the_screen_keeps_digests_never_the_paths(counted: tuple[Screen, list[str]]) -> None:
    screen, _ = counted
    for n in range(50):
        screen.path(f"/memories/notes/day-{n}.md", "path", refuse=False)
    kept = screen._clean
    assert len(kept) == 50
    assert all(len(digest) == 32 for digest in kept)
    assert not any(b"day-" in digest or b"notes" in digest for digest in kept)
