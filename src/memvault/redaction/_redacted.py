"""What a pass of the filter returns: the text to store, and the note to the model."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ._rule import Action, Finding, label


@dataclass(frozen=True, slots=True)
class Redacted:
    """The text to store, and what was done to it (kinds and counts, never values)."""

    text: str
    findings: tuple[Finding, ...]

    def counts(self) -> dict[Action, Counter[str]]:
        out: dict[Action, Counter[str]] = {}
        for finding in self.findings:
            out.setdefault(finding.action, Counter())[finding.kind] += 1
        return out

    def note(self) -> str:
        """``Note: 1 email and 1 api key were redacted before storage.`` or ``""``."""
        verbs = {"redact": "redacted", "mask": "masked", "pseudonymize": "pseudonymized"}
        clauses = []
        for action, counter in self.counts().items():
            items = [f"{n} {label(kind, n)}" for kind, n in sorted(counter.items())]
            total = sum(counter.values())
            clauses.append(f"{join_and(items)} {'was' if total == 1 else 'were'} {verbs[action]}")
        return f"Note: {join_and(clauses, ', and ')} before storage." if clauses else ""


def join_and(items: Sequence[str], last: str = " and ") -> str:
    """``a``, ``a and b``, ``a, b and c`` (``last`` joins the final pair)."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + last + items[-1]
