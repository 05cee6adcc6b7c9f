"""Reports for operators tuning redaction: what a policy enables, what it does to a text."""

from __future__ import annotations

import json
import os
from collections import Counter

from .. import _crypto
from ..errors import BlockedError
from ._limits import Limits
from ._policy import Policy


def _position(text: str, offset: int) -> str:
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return f"{line}:{column}"


def redact_report(policy: Policy, text: str, *, as_json: bool = False) -> str:
    """The redacted text and a findings table (kind, detector, action, position), never values.

    Pseudonyms use a key drawn for this run only: equal values get equal tokens
    within one report, and nothing links them to any vault.
    """
    key = _crypto.new_key()

    def pseudonym(kind: str, value: str) -> str:
        return _crypto.mac(key, _crypto.context(kind, value)).hex()[:10]

    findings = policy.redactor.scan(text)
    blocked = sorted({f.kind for f in findings if f.action == "block"})
    try:
        redacted = policy.redactor.apply(text, pseudonym).text
    except BlockedError:
        redacted = None
    rows = [
        {
            "kind": f.kind,
            "detector": f.rule,
            "action": f.action,
            "position": _position(text, f.start),
            "length": f.end - f.start,
        }
        for f in findings
    ]
    if as_json:
        return (
            json.dumps(
                {"policy": policy.name, "text": redacted, "blocked": blocked, "findings": rows},
                ensure_ascii=False,
            )
            + "\n"
        )
    parts = []
    if redacted is None:
        parts.append(
            f"(the write would be refused: policy {policy.name!r} blocks {', '.join(blocked)})\n"
        )
    else:
        parts.append(redacted if redacted.endswith("\n") else redacted + "\n")
    parts.append("\n")
    if not rows:
        parts.append(f"no findings (policy {policy.name!r})\n")
        return "".join(parts)
    headers = ("kind", "detector", "action", "position", "length")
    table = [headers] + [tuple(str(r[h]) for h in headers) for r in rows]
    widths = [max(len(row[i]) for row in table) for i in range(len(headers))]
    for row in table:
        parts.append("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
        parts.append("\n")
    counts = Counter(f.kind for f in findings)
    summary = ", ".join(f"{n} {kind}" for kind, n in sorted(counts.items()))
    parts.append(f"{len(rows)} findings ({summary}); policy {policy.name!r}\n")
    return "".join(parts)


def policy_summary(policy: Policy) -> str:
    """One paragraph: the policy is valid, and what it turns on."""
    actions: Counter[str] = Counter()
    categories: Counter[str] = Counter()
    for configured in policy.redactor.rules:
        actions[configured.action] += 1
        categories[configured.rule.category] += 1
    by_action = ", ".join(f"{n} {a}" for a, n in sorted(actions.items()))
    rows = [("detector", "kind", "category", "action")] + [
        (c.rule.name, c.rule.kind, c.rule.category, c.action)
        for c in sorted(policy.redactor.rules, key=lambda c: (c.rule.category, c.rule.name))
    ]
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    table = "".join(
        "  " + "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip() + "\n"
        for row in rows
    )
    retention = (
        "none set ([retention] max_idle_days; `memvault expire` needs --older-than)"
        if policy.max_idle_days is None
        else f"memories unused for more than {policy.max_idle_days} days expire"
    )
    return (
        f"policy {policy.name!r} ({os.fspath(policy.path)}) is valid\n"
        f"detectors on: {sum(categories.values())} ({categories['secret']} secret, "
        f"{categories['personal']} personal); actions: {by_action}\n"
        f"retention: {retention}\n"
        f"{_limits_table(policy.limits)}"
        f"sha256: {policy.digest}\n{table}"
    )


_LIMIT_MEANINGS = {
    "max_memory_bytes": "bytes in one memory file",
    "max_user_bytes": "bytes in all of one user's memory files",
    "max_memories": "memory files one user may hold",
    "max_directories": "directories one user may hold",
    "max_view_chars": "characters one view returns (past it: a page, and how to read on)",
}


def _limits_table(limits: Limits) -> str:
    """The ``[limits]`` in force, each marked as the policy's or the default."""
    default = Limits()
    rows = [
        (
            name,
            f"{getattr(limits, name):,}",
            "default" if getattr(limits, name) == getattr(default, name) else "policy",
            meaning,
        )
        for name, meaning in _LIMIT_MEANINGS.items()
    ]
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    lines = [
        f"  {name.ljust(widths[0])}  {value.rjust(widths[1])}  {origin.ljust(widths[2])}  {what}"
        for name, value, origin, what in rows
    ]
    return "limits ([limits]):\n" + "\n".join(lines) + "\n"
