"""A reply tells its caller what its audit record says (the error kind, what the filter
removed), beside what the model is shown; the model is shown nothing more."""

from __future__ import annotations

from memvault import Vault
from memvault.memory import AUDIT_MESSAGE, Reply

SECRET = "mail jane.doe@fastmail.com, card 4111 1111 1111 1111\n"


def test_a_stored_text_reply_carries_the_kinds_and_counts_removed(vault: Vault) -> None:
    runner = vault.runner("alice")
    reply = runner.run({"command": "create", "path": "/memories/a.md", "file_text": SECRET})
    assert (reply.is_error, reply.error) == (False, None)
    assert reply.findings == (("card_number", 1), ("email", 1))
    plain = runner.run({"command": "create", "path": "/memories/b.md", "file_text": "x"})
    assert plain.findings == ()


def test_a_refusal_carries_its_error_kind(vault: Vault) -> None:
    runner = vault.runner("alice")
    runner.run({"command": "create", "path": "/memories/a.md", "file_text": "x"})
    cases = {
        "exists": {"command": "create", "path": "/memories/a.md", "file_text": "y"},
        "path": {"command": "create", "path": "/memories/../etc", "file_text": "y"},
        "input": {"command": "nope"},
        "not_found": {"command": "view", "path": "/memories/missing"},
    }
    for kind, command in cases.items():
        reply = runner.run(command)
        assert (reply.is_error, reply.error) == (True, kind)


def test_equality_is_what_the_model_sees() -> None:
    assert Reply(AUDIT_MESSAGE, is_error=True, error="audit") == Reply(AUDIT_MESSAGE, True)
    assert Reply("ok", findings=(("email", 1),)) == Reply("ok")
