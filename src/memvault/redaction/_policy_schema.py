"""What a policy file may hold, checked key by key: every problem is a :class:`PolicyError`
that names the file, the line and what to change.

TOML gives the values their types but not their lines, so the checker finds the
line of a key in the text itself: a section's header (``[allowlist]``, ``[[custom]]``)
or its ``key =`` line, then the key inside it. Where a key cannot be found (a dotted
key, an inline table), the problem is reported at the nearest line that can.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

from ..errors import PolicyError
from . import _re2
from ._rule import ACTIONS, Category, Rule
from .checks import VALIDATORS

FORMAT_VERSION = 1
SETTINGS = (
    "version",
    "name",
    "actions",
    "detectors",
    "allowlist",
    "custom",
    "retention",
    "limits",
)
CATEGORIES = ("secret", "personal")
_CUSTOM_KEYS = (
    "name",
    "kind",
    "category",
    "pattern",
    "validator",
    "context",
    "keywords",
    "action",
    "keep",
)
_ALLOWLIST_KEYS = ("exact", "patterns")
_RETENTION_KEYS = ("max_idle_days",)
MAX_IDLE_DAYS = 36_500  # a hundred years: a larger period is a typo
_IDENTIFIER = re.compile(r"[a-z][a-z0-9_]{0,39}")


class Checker:
    """Turns a problem at a key into ``file:line: problem``."""

    def __init__(self, path: Path, text: str) -> None:
        self.path = path
        self.lines = text.splitlines()

    def fail(self, line: int, problem: str) -> PolicyError:
        return PolicyError(
            f"{self.path}:{line}: {problem}", hint="see policies/README.md for the policy format"
        )

    def _find(self, pattern: str, start: int = 0, nth: int = 1) -> int | None:
        """The index of the ``nth`` line from ``start`` on that matches, or None."""
        regex = re.compile(pattern)
        for index in range(start, len(self.lines)):
            if regex.search(self.lines[index]):
                nth -= 1
                if not nth:
                    return index
        return None

    def section(self, name: str, nth: int = 1) -> int | None:
        """The index of a section's ``nth`` header (``[name]``, ``[[name]]``), else of its
        first sub-table's (``[name.key]``), else of the first line that sets it as a key
        (``name = ...``, ``name.key = ...``)."""
        escaped = re.escape(name)
        found = self._find(rf"^\s*\[\[?\s*{escaped}\s*\]", nth=nth)
        if found is None:  # a sub-table only: ``[limits.max_memories]``
            found = self._find(rf"^\s*\[\[?\s*{escaped}\s*\.", nth=nth)
        return found if found is not None else self._find(rf"^\s*[\"']?{escaped}[\"']?\s*[=.]")

    def setting(self, name: str) -> int:
        """The line where a top-level setting is set: its header or its ``name =`` line."""
        found = self.section(name)
        return 1 if found is None else found + 1

    def line(self, key: str, section: str | None = None) -> int:
        """The line of ``key = ...``, inside ``[section]`` when given; else the section's own
        line; else line 1."""
        start = 0
        if section is not None:
            found = self.section(section)
            if found is None:
                return 1
            start = found + 1
        at = self._find(rf"^\s*[\"']?{re.escape(key)}[\"']?\s*=", start)
        if at is None:
            return start or 1
        return at + 1

    def entry(self, section: str, index: int) -> int:
        """The line of the ``index``-th entry of an array of tables: its ``[[section]]``
        header, or the ``section = [...]`` line of an inline array."""
        found = self.section(section, nth=index + 1)
        return self.setting(section) if found is None else found + 1


def check_settings(check: Checker, data: dict[str, Any]) -> None:
    """The top level: known keys, the format version, the name, the sections' types."""
    for key in data:
        if key not in SETTINGS:
            raise check.fail(check.setting(key), f"unknown setting {key!r}")
    version = data.get("version")
    if type(version) is not int or version != FORMAT_VERSION:
        raise check.fail(
            check.line("version"),
            f"'version' must be {FORMAT_VERSION} (the policy format this memvault reads)",
        )
    name = data.get("name", "")
    if "name" in data and (not isinstance(name, str) or not name):
        raise check.fail(check.line("name"), "'name' must be a non-empty string")
    for section in ("actions", "detectors", "allowlist", "retention", "limits"):
        if not isinstance(data.get(section, {}), dict):
            raise check.fail(check.setting(section), f"[{section}] must be a table")
    custom = data.get("custom", [])
    if not isinstance(custom, list):
        raise check.fail(
            check.setting("custom"), "'custom' must be an array of tables ([[custom]] entries)"
        )


def actions(check: Checker, table: dict[str, Any]) -> dict[str, str]:
    """The action of each category, the defaults where the table says nothing."""
    defaults = {"secret": "redact", "personal": "redact"}
    for category, action in table.items():
        line = check.line(category, "actions")
        if category not in CATEGORIES:
            raise check.fail(line, f"unknown category {category!r} (use 'secret' or 'personal')")
        defaults[category] = _action(check, line, action, "", f"the action for {category!r}")
    return defaults


def _action(
    check: Checker, line: int, action: Any, prefix: str, subject: str, *, off: bool = True
) -> str:
    """An action name, checked: a string, one of the actions, or ``off`` where a detector
    may be turned off. ``prefix`` and ``subject`` name what the action is for."""
    allowed = (*ACTIONS, "off") if off else ACTIONS
    listed = ", ".join(repr(a) for a in allowed)
    if not isinstance(action, str):
        raise check.fail(line, f"{prefix}{subject} must be a string (use {listed})")
    if action not in allowed:
        raise check.fail(line, f"{prefix}unknown action {action!r} (use {listed})")
    return action


def setting(check: Checker, line: int, name: str, value: Any, rule: Rule) -> tuple[str, int]:
    """A detector's entry in ``[detectors]``: an action, or a table of action and keep."""
    if isinstance(value, str):
        value = {"action": value}
    if not isinstance(value, dict):
        raise check.fail(line, f"detector {name!r}: give an action string or a table")
    unknown = set(value) - {"action", "keep"}
    if unknown:
        raise check.fail(line, f"detector {name!r}: unknown setting {sorted(unknown)[0]!r}")
    action = _action(
        check, line, value.get("action", "redact"), f"detector {name!r}: ", "the action"
    )
    return action, _keep(check, line, value.get("keep", rule.keep), f"detector {name!r}")


def _keep(check: Checker, line: int, keep: Any, what: str) -> int:
    if isinstance(keep, bool) or not isinstance(keep, int) or not 0 <= keep <= 8:
        raise check.fail(line, f"{what}: 'keep' must be a whole number from 0 to 8")
    return keep


def check_pattern(check: Checker, line: int, pattern: str) -> None:
    """An RE2 pattern that compiles; RE2's own complaint goes into the message."""
    try:
        _re2.compile_pattern(pattern)
    except _re2.error as exc:
        raise check.fail(
            line, f"pattern {pattern!r} is not valid RE2 syntax ({_re2.message(exc)})"
        ) from None


def allowlist(check: Checker, table: dict[str, Any]) -> tuple[frozenset[str], list[str]]:
    """The values never to find, exactly, and the RE2 patterns a whole value may match."""
    for key in table:
        if key not in _ALLOWLIST_KEYS:
            raise check.fail(
                check.line(key, "allowlist"),
                f"unknown setting {key!r} in [allowlist] (use 'exact' or 'patterns')",
            )
    found = {}
    for key in _ALLOWLIST_KEYS:
        value = table.get(key, [])
        if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
            raise check.fail(check.line(key, "allowlist"), f"{key!r} must be a list of strings")
        found[key] = value
    for pattern in found["patterns"]:
        check_pattern(check, check.line("patterns", "allowlist"), pattern)
    return frozenset(found["exact"]), found["patterns"]


def retention(check: Checker, data: dict[str, Any]) -> int | None:
    """``[retention] max_idle_days``: how many days a memory may go unused before
    ``memvault expire`` deletes it; None when the policy has no ``[retention]`` table."""
    if "retention" not in data:
        return None
    table = data["retention"]
    for key in table:
        if key not in _RETENTION_KEYS:
            raise check.fail(
                check.line(key, "retention"),
                f"unknown setting {key!r} in [retention] (use 'max_idle_days')",
            )
    if "max_idle_days" not in table:
        raise check.fail(
            check.setting("retention"), "[retention] must set 'max_idle_days' (such as 90)"
        )
    days = table["max_idle_days"]
    if isinstance(days, bool) or not isinstance(days, int) or not 1 <= days <= MAX_IDLE_DAYS:
        raise check.fail(
            check.line("max_idle_days", "retention"),
            f"'max_idle_days' must be a whole number of days from 1 to {MAX_IDLE_DAYS}",
        )
    return days


def custom_rule(
    check: Checker, index: int, entry: Any, taken: dict[str, Rule]
) -> tuple[Rule, str | None, int]:
    """The ``index``-th ``[[custom]]`` entry as a rule, its action (None: the category's)
    and its mask length."""
    line = check.entry("custom", index)
    if not isinstance(entry, dict):
        raise check.fail(line, "each [[custom]] entry must be a table")
    for key in entry:
        if key not in _CUSTOM_KEYS:
            raise check.fail(line, f"custom detector: unknown setting {key!r}")
    name = entry.get("name")
    if not isinstance(name, str) or not _IDENTIFIER.fullmatch(name):
        raise check.fail(line, "custom detector: 'name' must be lower-case letters, digits and _")
    if name in taken:
        raise check.fail(line, f"custom detector {name!r}: a detector with this name exists")
    what = f"custom detector {name!r}"
    pattern = entry.get("pattern")
    if not isinstance(pattern, str) or not pattern:
        raise check.fail(line, f"{what}: 'pattern' must be a non-empty string")
    check_pattern(check, line, pattern)
    category = entry.get("category", "personal")
    if not isinstance(category, str) or category not in CATEGORIES:
        raise check.fail(line, f"{what}: 'category' must be 'secret' or 'personal'")
    kind = entry.get("kind", name)
    if not isinstance(kind, str) or not _IDENTIFIER.fullmatch(kind):
        raise check.fail(line, f"{what}: 'kind' must be lower-case letters, digits and _")
    validator = _validator(check, line, entry.get("validator"), what)
    context = _words(check, line, entry, "context", what)
    keywords = _words(check, line, entry, "keywords", what)
    action = entry.get("action")
    if action is not None:
        action = _action(check, line, action, f"{what}: ", "'action'", off=False)
    keep = _keep(check, line, entry.get("keep", 4), what)
    rule = Rule(
        name=name,
        kind=kind,
        category=cast(Category, category),
        pattern=pattern,
        keywords=keywords,
        validator=validator,
        context=context,
        keep=keep,
        priority=30,
    )
    return rule, action, keep


def _words(
    check: Checker, line: int, entry: dict[str, Any], key: str, what: str
) -> tuple[str, ...]:
    value = entry.get(key, [])
    if not isinstance(value, list) or not all(isinstance(w, str) and w for w in value):
        raise check.fail(line, f"{what}: {key!r} must be a list of strings")
    return tuple(w.lower() for w in value)


def _validator(check: Checker, line: int, name: Any, what: str) -> Callable[[str], bool] | None:
    if name is None:
        return None
    names = ", ".join(sorted(VALIDATORS))
    if not isinstance(name, str):
        raise check.fail(line, f"{what}: 'validator' must be a string (use one of {names})")
    if name not in VALIDATORS:
        raise check.fail(line, f"{what}: unknown validator {name!r} (use one of {names})")
    return VALIDATORS[name]
