"""Redaction policies: TOML files that pick detectors and say what each does.

The format is documented in ``policies/README.md``. Loading validates
everything (unknown detectors, actions, validators, bad patterns) and fails
with the file, the line and the problem, so an invalid policy never runs.
"""

from __future__ import annotations

import difflib
import hashlib
import os
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import re2

from ..errors import ConfigurationError, PolicyError
from ._engine import Configured, Redactor, re2_message
from ._rule import ACTIONS, Action, Rule
from .checks._validators import VALIDATORS
from .rules import BUILTIN

POLICY_DIR = Path(__file__).resolve().parent / "policies"
DEFAULT_POLICY = "default"
FORMAT_VERSION = 1


@dataclass(frozen=True)
class Policy:
    """A loaded, validated policy, ready to filter text."""

    name: str
    path: Path
    digest: str  # SHA-256 of the file, so a change of policy can be recorded
    redactor: Redactor


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


class _Checker:
    """Turns a problem at a key into ``file:line: problem``."""

    def __init__(self, path: Path, text: str) -> None:
        self.path = path
        self.lines = text.splitlines()

    def line_of(self, *patterns: str) -> int:
        """The first line matching the patterns in order (each after the previous one)."""
        at = 0
        for pattern in patterns:
            regex = re.compile(pattern)
            for i in range(at, len(self.lines)):
                if regex.search(self.lines[i]):
                    at = i
                    break
            else:
                return at + 1 if at else 1
        return at + 1

    def fail(self, line: int, problem: str) -> PolicyError:
        return PolicyError(
            f"{self.path}:{line}: {problem}", hint="see policies/README.md for the policy format"
        )


def _key(name: str) -> str:
    return rf"^\s*[\"']?{re.escape(name)}[\"']?\s*="


def _build(path: Path, text: str, data: dict[str, Any], digest: str) -> Policy:
    check = _Checker(path, text)
    known = {"version", "name", "actions", "detectors", "allowlist", "custom"}
    for key in data:
        if key not in known:
            raise check.fail(
                check.line_of(_key(key), rf"^\s*\[+{re.escape(key)}"), f"unknown setting {key!r}"
            )
    if data.get("version") != FORMAT_VERSION:
        raise check.fail(
            check.line_of(_key("version")),
            f"'version' must be {FORMAT_VERSION} (the policy format this memvault reads)",
        )
    policy_name = data.get("name", path.stem)
    if not isinstance(policy_name, str) or not policy_name:
        raise check.fail(check.line_of(_key("name")), "'name' must be a non-empty string")

    defaults = {"secret": "redact", "personal": "redact"}
    actions = data.get("actions", {})
    if not isinstance(actions, dict):
        raise check.fail(check.line_of(_key("actions")), "[actions] must be a table")
    for category, action in actions.items():
        line = check.line_of(r"^\s*\[actions\]", _key(category))
        if category not in defaults:
            raise check.fail(line, f"unknown category {category!r} (use 'secret' or 'personal')")
        if action not in (*ACTIONS, "off"):
            raise check.fail(line, f"unknown action {action!r} (use {_choices()})")
        defaults[category] = action

    rules: dict[str, Rule] = dict(BUILTIN)
    chosen: dict[str, tuple[str, int]] = {}
    for index, custom in enumerate(data.get("custom", [])):
        rule, action, keep = _custom(check, index, custom, rules)
        rules[rule.name] = rule
        chosen[rule.name] = (action or defaults[rule.category], keep)

    detectors = data.get("detectors", {})
    if not isinstance(detectors, dict):
        raise check.fail(check.line_of(_key("detectors")), "[detectors] must be a table")
    kinds: dict[str, list[str]] = {}
    for rule in rules.values():
        kinds.setdefault(rule.kind, []).append(rule.name)
    # A key names a detector, or a kind (every detector of that kind); a detector's
    # own entry wins over its kind's, whatever their order in the file.
    for by_kind in (True, False):
        for name, setting in detectors.items():
            if (name not in rules) != by_kind:
                continue
            line = check.line_of(r"^\s*\[detectors\]", _key(name))
            if name not in rules and name not in kinds:
                close = difflib.get_close_matches(name, [*rules, *kinds], n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                raise check.fail(line, f"unknown detector or kind {name!r}{hint}")
            for target in kinds[name] if by_kind else [name]:
                chosen[target] = _setting(check, line, name, setting, rules[target])

    configured = []
    for name, rule in rules.items():
        action, keep = chosen.get(name, (defaults[rule.category], rule.keep))
        if action != "off":
            configured.append(Configured(rule, action, keep))  # type: ignore[arg-type]

    allow = data.get("allowlist", {})
    exact, patterns = allow.get("exact", []), allow.get("patterns", [])
    if not isinstance(exact, list) or not all(isinstance(x, str) for x in exact):
        raise check.fail(
            check.line_of(r"^\s*\[allowlist\]", _key("exact")), "'exact' must be a list of strings"
        )
    if not isinstance(patterns, list) or not all(isinstance(x, str) for x in patterns):
        raise check.fail(
            check.line_of(r"^\s*\[allowlist\]", _key("patterns")),
            "'patterns' must be a list of strings",
        )
    for pattern in patterns:
        _check_pattern(check, check.line_of(r"^\s*\[allowlist\]", _key("patterns")), pattern)
    try:
        redactor = Redactor(configured, allow_exact=frozenset(exact), allow_patterns=patterns)
    except ConfigurationError as exc:
        raise check.fail(1, exc.message) from None
    return Policy(name=policy_name, path=path, digest=digest, redactor=redactor)


def _choices() -> str:
    return ", ".join(repr(a) for a in (*ACTIONS, "off"))


def _setting(check: _Checker, line: int, name: str, setting: Any, rule: Rule) -> tuple[str, int]:
    if isinstance(setting, str):
        setting = {"action": setting}
    if not isinstance(setting, dict):
        raise check.fail(line, f"detector {name!r}: give an action string or a table")
    unknown = set(setting) - {"action", "keep"}
    if unknown:
        raise check.fail(line, f"detector {name!r}: unknown setting {sorted(unknown)[0]!r}")
    action = setting.get("action", "redact")
    if action not in (*ACTIONS, "off"):
        raise check.fail(line, f"detector {name!r}: unknown action {action!r} (use {_choices()})")
    keep = setting.get("keep", rule.keep)
    if isinstance(keep, bool) or not isinstance(keep, int) or not 0 <= keep <= 8:
        raise check.fail(line, f"detector {name!r}: 'keep' must be a whole number from 0 to 8")
    return action, keep


def _check_pattern(check: _Checker, line: int, pattern: str) -> None:
    try:
        re2.compile(pattern)
    except re2.error as exc:
        raise check.fail(
            line, f"pattern {pattern!r} is not valid RE2 syntax ({re2_message(exc)})"
        ) from None


def _custom(
    check: _Checker, index: int, entry: Any, rules: dict[str, Rule]
) -> tuple[Rule, Action | None, int]:
    line = check.line_of(*([r"^\s*\[\[custom\]\]"] * (index + 1)))
    if not isinstance(entry, dict):
        raise check.fail(line, "each [[custom]] entry must be a table")
    allowed = {
        "name",
        "kind",
        "category",
        "pattern",
        "validator",
        "context",
        "keywords",
        "action",
        "keep",
    }
    for key in entry:
        if key not in allowed:
            raise check.fail(line, f"custom detector: unknown setting {key!r}")
    name = entry.get("name")
    if not isinstance(name, str) or not re.fullmatch(r"[a-z][a-z0-9_]{0,39}", name):
        raise check.fail(line, "custom detector: 'name' must be lower-case letters, digits and _")
    if name in rules:
        raise check.fail(line, f"custom detector {name!r}: a detector with this name exists")
    pattern = entry.get("pattern")
    if not isinstance(pattern, str) or not pattern:
        raise check.fail(line, f"custom detector {name!r}: 'pattern' must be a non-empty string")
    _check_pattern(check, line, pattern)
    category = entry.get("category", "personal")
    if category not in ("secret", "personal"):
        raise check.fail(
            line, f"custom detector {name!r}: 'category' must be 'secret' or 'personal'"
        )
    kind = entry.get("kind", name)
    if not isinstance(kind, str) or not re.fullmatch(r"[a-z][a-z0-9_]{0,39}", kind):
        raise check.fail(
            line, f"custom detector {name!r}: 'kind' must be lower-case letters, digits and _"
        )
    validator = entry.get("validator")
    if validator is not None and validator not in VALIDATORS:
        raise check.fail(
            line,
            f"custom detector {name!r}: unknown validator {validator!r} "
            f"(use one of {', '.join(sorted(VALIDATORS))})",
        )
    words = {}
    for field in ("context", "keywords"):
        value = entry.get(field, [])
        if not isinstance(value, list) or not all(isinstance(w, str) and w for w in value):
            raise check.fail(line, f"custom detector {name!r}: {field!r} must be a list of strings")
        words[field] = tuple(w.lower() for w in value)
    action = entry.get("action")
    if action is not None and action not in ACTIONS:
        raise check.fail(line, f"custom detector {name!r}: unknown action {action!r}")
    keep = entry.get("keep", 4)
    if isinstance(keep, bool) or not isinstance(keep, int) or not 0 <= keep <= 8:
        raise check.fail(
            line, f"custom detector {name!r}: 'keep' must be a whole number from 0 to 8"
        )
    rule = Rule(
        name=name,
        kind=kind,
        category=category,
        pattern=pattern,
        keywords=words["keywords"],
        validator=VALIDATORS[validator] if validator else None,
        context=words["context"],
        keep=keep,
        priority=30,
    )
    return rule, action, keep
