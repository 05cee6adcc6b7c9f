"""Redaction policies: TOML files that pick detectors and say what each does.

The format is documented in ``policies/README.md``. Loading validates
everything (unknown settings, wrong types, unknown detectors, actions and
validators, bad patterns; ``_policy_schema``) and fails with the file, the
line and the problem, so an invalid policy never runs.
"""

from __future__ import annotations

import dataclasses
import difflib
import hashlib
import os
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import ConfigurationError, PolicyError
from . import _policy_schema as schema
from ._engine import Redactor
from ._limits import Limits, limits
from ._rule import Configured, Rule
from .rules import BUILTIN

POLICY_DIR = Path(__file__).resolve().parent / "policies"
DEFAULT_POLICY = "default"


@dataclass(frozen=True)
class Policy:
    """A loaded, validated policy, ready to filter text."""

    name: str
    path: Path
    digest: str  # SHA-256 of the file, so a change of policy can be recorded
    redactor: Redactor
    max_idle_days: int | None = None  # [retention]: days unused before `memvault expire`
    # [limits]: what one user may keep, what one view returns
    limits: Limits = dataclasses.field(default_factory=Limits)


def resolve(source: str | os.PathLike[str] | None) -> Path:
    """A policy name (``default``, ``strict``) or a path to a TOML file."""
    if source is None:
        source = DEFAULT_POLICY
    text = os.fspath(source)
    if os.sep not in text and not text.endswith(".toml"):
        path = POLICY_DIR / f"{text}.toml"
        if not path.exists():
            names = sorted(p.stem for p in POLICY_DIR.glob("*.toml"))
            raise PolicyError(
                f"no policy named {text!r}; the built-in policies are: {', '.join(names)}",
                hint="pass a path to a .toml file to use your own",
            )
        return path
    return Path(text).expanduser()


def load(source: str | os.PathLike[str] | None = None) -> Policy:
    """The policy named by ``source`` (see :func:`resolve`), validated and compiled."""
    path = resolve(source)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise PolicyError(f"cannot read the policy {path}: {exc.strerror}") from None
    try:
        text = raw.decode("utf-8")
        data = tomllib.loads(text)
    except UnicodeDecodeError:
        raise PolicyError(f"{path}: the policy is not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise PolicyError(f"{path}: not valid TOML: {exc}") from None
    digest = hashlib.sha256(raw).hexdigest()
    cached = _LOADED.get((str(path), digest))
    if cached is None:
        cached = _LOADED[(str(path), digest)] = _build(path, text, data, digest)
    return cached


# Compiled policies by file and content: compiling every pattern takes milliseconds, and a
# process opens vaults with the same policy again and again. A changed file is a new key.
_LOADED: dict[tuple[str, str], Policy] = {}


def _build(path: Path, text: str, data: dict[str, Any], digest: str) -> Policy:
    check = schema.Checker(path, text)
    schema.check_settings(check, data)
    defaults = schema.actions(check, data.get("actions", {}))
    rules: dict[str, Rule] = dict(BUILTIN)
    chosen: dict[str, tuple[str, int]] = {}
    for index, entry in enumerate(data.get("custom", [])):
        rule, own_action, keep = schema.custom_rule(check, index, entry, rules)
        rules[rule.name] = rule
        chosen[rule.name] = (own_action or defaults[rule.category], keep)
    chosen.update(_detectors(check, data.get("detectors", {}), rules))
    configured = []
    for name, rule in rules.items():
        action, keep = chosen.get(name, (defaults[rule.category], rule.keep))
        if action != "off":
            configured.append(Configured(rule, action, keep))  # type: ignore[arg-type]
    exact, patterns = schema.allowlist(check, data.get("allowlist", {}))
    max_idle_days = schema.retention(check, data)
    chosen_limits = limits(check, data)
    try:
        redactor = Redactor(configured, allow_exact=exact, allow_patterns=patterns)
    except ConfigurationError as exc:
        raise check.fail(1, exc.message) from None
    return Policy(
        name=data.get("name", path.stem),
        path=path,
        digest=digest,
        redactor=redactor,
        max_idle_days=max_idle_days,
        limits=chosen_limits,
    )


def _detectors(
    check: schema.Checker, table: dict[str, Any], rules: dict[str, Rule]
) -> dict[str, tuple[str, int]]:
    """The action and mask length ``[detectors]`` sets for each detector it names.

    A key names a detector, or a kind (every detector of that kind); a detector's own
    entry wins over its kind's, whatever their order in the file.
    """
    kinds: dict[str, list[str]] = {}
    for rule in rules.values():
        kinds.setdefault(rule.kind, []).append(rule.name)
    chosen: dict[str, tuple[str, int]] = {}
    for by_kind in (True, False):
        for name, setting in table.items():
            if (name not in rules) != by_kind:
                continue
            line = check.line(name, "detectors")
            if name not in rules and name not in kinds:
                close = difflib.get_close_matches(name, [*rules, *kinds], n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                raise check.fail(line, f"unknown detector or kind {name!r}{hint}")
            for target in kinds[name] if by_kind else [name]:
                chosen[target] = schema.setting(check, line, name, setting, rules[target])
    return chosen
