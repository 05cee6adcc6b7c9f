"""The scripted session ``memvault demo`` runs: acts of (user, tool input) steps, as data."""

from __future__ import annotations

from typing import Any

MARKER = "Prefers-Oat-Milk-7731"  # written as content, then searched for on disk
NAME_MARKER = "kestrel-project"  # written as a file name, then searched for on disk
USERS = ("alice", "bob")
# Strings that must appear nowhere in the home's bytes.
SECRETS = (MARKER, NAME_MARKER, "alice", "# Alice", "jane.doe", "4111 1111 1111")

_PROJECT = f"/memories/{NAME_MARKER}"

Step = tuple[str, dict[str, Any]]  # (user, tool input)

ACTS: tuple[tuple[str, tuple[Step, ...]], ...] = (
    (
        "1. Alice's agent keeps notes",
        (
            ("alice", {"command": "view", "path": "/memories"}),
            (
                "alice",
                {
                    "command": "create",
                    "path": f"{_PROJECT}/preferences.md",
                    "file_text": f"# Alice\n- coffee: {MARKER}\n- meetings: mornings\n",
                },
            ),
            (
                "alice",
                {
                    "command": "create",
                    "path": f"{_PROJECT}/progress.md",
                    "file_text": "- [x] outline\n- [ ] draft\n",
                },
            ),
            (
                "alice",
                {
                    "command": "str_replace",
                    "path": f"{_PROJECT}/progress.md",
                    "old_str": "- [ ] draft",
                    "new_str": "- [x] draft",
                },
            ),
            (
                "alice",
                {
                    "command": "insert",
                    "path": f"{_PROJECT}/progress.md",
                    "insert_line": 2,
                    "insert_text": "- [ ] review\n",
                },
            ),
            ("alice", {"command": "view", "path": f"{_PROJECT}/progress.md"}),
            ("alice", {"command": "view", "path": "/memories"}),
        ),
    ),
    (
        "2. Secrets and personal data are stripped before anything is stored",
        (
            (
                "alice",
                {
                    "command": "create",
                    "path": "/memories/tickets/4711.md",
                    "file_text": "Customer: jane.doe@acme-health.io\n"
                    "Card on file: 4111 1111 1111 1111\nDeploy key: AKIAQ3EGRT5XJ7KLMN2P\n",
                },
            ),
            ("alice", {"command": "view", "path": "/memories/tickets/4711.md"}),
            (
                "alice",
                {
                    "command": "str_replace",
                    "path": "/memories/tickets/4711.md",
                    "old_str": "Customer: jane.doe@acme-health.io",
                    "new_str": "Customer: (see CRM)",
                },
            ),
            (
                "alice",
                {
                    "command": "create",
                    "path": "/memories/jane.doe@acme-health.io/notes.md",
                    "file_text": "x",
                },
            ),
        ),
    ),
    (
        "3. Bob's agent uses the same paths, and sees none of Alice's memories",
        (
            ("bob", {"command": "view", "path": "/memories"}),
            ("bob", {"command": "view", "path": f"{_PROJECT}/preferences.md"}),
            (
                "bob",
                {
                    "command": "create",
                    "path": f"{_PROJECT}/preferences.md",
                    "file_text": "# Bob\n- tea, no sugar\n",
                },
            ),
            ("bob", {"command": "delete", "path": _PROJECT}),
            ("alice", {"command": "view", "path": f"{_PROJECT}/preferences.md"}),
        ),
    ),
    (
        "4. Hostile paths are refused before anything is touched",
        tuple(
            ("alice", {"command": "view", "path": path})
            for path in (
                "/memories/../etc/passwd",
                "/memories/%2e%2e/secrets",
                "/memoriesX/notes",
                "/memories/\uff0e\uff0e/x",
            )
        ),
    ),
    (
        "5. Renames move whole directories",
        (
            (
                "alice",
                {"command": "rename", "old_path": _PROJECT, "new_path": "/memories/archive/2026"},
            ),
            ("alice", {"command": "view", "path": "/memories"}),
        ),
    ),
)
