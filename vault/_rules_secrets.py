"""Detection rules for secrets: provider tokens, keys, credentials.

Each rule is data (see :mod:`vault._rules`). Provider tokens are matched by
their documented prefixes and shapes, with their checksums where the format has
one; generic credentials only where a keyword or an assignment says so.
"""

from __future__ import annotations

from . import _validators as v
from ._rules import Rule

RULES: tuple[Rule, ...] = (
    Rule(
        name="github_token",
        kind="api_key",
        category="secret",
        pattern=r"\b(?P<value>gh[pousr]_[A-Za-z0-9]{36})\b",
        keywords=("gh",),
        validator=v.github_token,
        priority=20,
        description="GitHub classic, OAuth, user-to-server, server-to-server and refresh tokens",
    ),
    Rule(
        name="aws_access_key_id",
        kind="api_key",
        category="secret",
        pattern=r"\b(?P<value>(?:AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16})\b",
        priority=20,
        description="AWS access key ids",
    ),
    Rule(
        name="private_key",
        kind="private_key",
        category="secret",
        pattern=(
            r"-----BEGIN (?:[A-Z0-9]+ )?PRIVATE KEY(?: BLOCK)?-----"
            r"[\s\S]*?-----END (?:[A-Z0-9]+ )?PRIVATE KEY(?: BLOCK)?-----"
        ),
        keywords=("private key",),
        priority=50,
        description="PEM and OpenSSH private keys, multi-line",
    ),
    Rule(
        name="password_assignment",
        kind="password",
        category="secret",
        pattern=(
            r"(?i)\b(?:password|passwd|pwd|secret|api[_-]?key|token|access[_-]?key)"
            r"[\"']?\s*[:=]\s*[\"']?(?P<value>[^\s\"',;]{6,})"
        ),
        keywords=("pass", "pwd", "secret", "key", "token"),
        min_entropy=2.5,
        priority=5,
        description="password/secret/token/api_key assignments in .env, YAML, JSON, INI and code",
    ),
)
