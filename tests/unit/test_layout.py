"""The shape of the package, checked: seams between layers, module and function sizes.

The import-layers contract (``lint-imports``, run by ``check.sh``) says which layer
may import which; this says *how*: another layer is reached through its package
``__init__`` only, never through one of its private modules, and tests do the
same. Modules stay under about 400 lines and functions under about 60, so a
module can be read whole and a function at a glance.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

import memvault

SRC = Path(memvault.__file__).parent
TESTS = Path(__file__).resolve().parents[1]
LAYERS = (
    "agent",
    "audit",
    "cli",
    "keys",
    "lifecycle",
    "mcp",
    "memory",
    "redaction",
    "store",
    "tool",
)
MAX_MODULE_LINES = 420
MAX_FUNCTION_LINES = 60
# Modules that are tables of data (detector patterns, word lists), not logic.
DATA_MODULES: frozenset[str] = frozenset()


def _modules(root: Path) -> Iterator[tuple[str, Path]]:
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root.parent).with_suffix("").parts
        yield ".".join(p for p in parts if p != "__init__"), path


def _imports(name: str, path: Path) -> Iterator[tuple[int, str]]:
    """(line, absolute module) of every import in a module, relative ones resolved."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            yield node.lineno, target
            for alias in node.names:
                yield node.lineno, f"{target}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name


def _layer(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "memvault" else None


def _private_inside(module: str) -> bool:
    """Whether ``module`` names something private inside a layer package."""
    parts = module.split(".")
    return (
        len(parts) > 2
        and parts[0] == "memvault"
        and parts[1] in LAYERS
        and any(p.startswith("_") and not p.startswith("__") for p in parts[2:])
    )


def test_layers_meet_only_at_their_package_seams() -> None:
    """No module imports another layer's private module."""
    bad = [
        f"{path.relative_to(SRC.parent)}:{line}: {target}"
        for name, path in _modules(SRC)
        for line, target in _imports(name, path)
        if _private_inside(target) and _layer(target) != _layer(name)
    ]
    assert bad == []


def test_tests_use_the_seams_too() -> None:
    """Tests import layers through their packages; only the bottom layer's modules
    (``memvault._crypto``, ``_fs``, ``_text``) are imported directly, ``_fs`` to inject
    faults."""
    bad = [
        f"{path.relative_to(TESTS.parent)}:{line}: {target}"
        for name, path in _modules(TESTS)
        for line, target in _imports(name, path)
        if _private_inside(target)
    ]
    assert bad == []


def _function_lengths(path: Path) -> Iterator[tuple[str, int, int]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            # The docstring is prose, not logic: it does not count.
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                body = body[1:] or body
            length = (node.end_lineno or node.lineno) - body[0].lineno + 1
            yield node.name, node.lineno, length


def test_functions_are_short() -> None:
    """Every function's body is at most about 60 lines."""
    long = [
        f"{path.relative_to(SRC.parent)}:{line}: {name} ({length} lines)"
        for _, path in _modules(SRC)
        for name, line, length in _function_lengths(path)
        if length > MAX_FUNCTION_LINES
    ]
    assert long == []


@pytest.mark.parametrize("name", [name for name, _ in _modules(SRC)])
def test_modules_are_small(name: str) -> None:
    """Every module is under about 400 lines (split by concept when it grows)."""
    path = dict(_modules(SRC))[name]
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert name in DATA_MODULES or lines <= MAX_MODULE_LINES, f"{name}: {lines} lines"
