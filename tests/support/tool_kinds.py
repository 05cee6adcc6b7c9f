"""Every test that makes a memory tool runs twice: against the sync tool and the async one.

The tests are written against the sync tool (``vault.memory_tool(...).call(...)``).
For the ``async`` run, ``Vault.memory_tool`` is replaced by a maker of
:class:`AsyncToolFacade`: an :class:`~memvault.AsyncMemoryTool` driven from
synchronous code, each call awaited in an event loop. The same assertions then
hold the async tool to the same results, errors, records and bytes at rest.

Which tests make a tool is read from their source (:func:`makes_tool`), and
checked as they run (:func:`check_made`): a test run against the async tool must
have made one, and a test that made a tool must have run against both, unless it
is marked ``sync_tool_only`` (with the reason).
"""

from __future__ import annotations

import ast
import asyncio
import inspect
import sys
import textwrap
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

import pytest

from memvault import AsyncMemoryTool, Vault

KINDS = ("sync", "async")
# Where the tests that make tools are held to both kinds.
DIRECTORIES = ("tests/protocol/", "tests/unit/")

_T = TypeVar("_T")


class Loops:
    """One test's event loops, one per thread that calls a facade (a test may call a tool
    from several threads at once, as it may the sync tool), closed when it ends."""

    def __init__(self) -> None:
        self._mine = threading.local()
        self._all: list[asyncio.Runner] = []
        self._lock = threading.Lock()

    def run(self, coroutine: Coroutine[Any, Any, _T]) -> _T:
        runner: asyncio.Runner | None = getattr(self._mine, "runner", None)
        if runner is None:
            runner = self._mine.runner = asyncio.Runner()
            with self._lock:
                self._all.append(runner)
        return runner.run(coroutine)

    def close(self) -> None:
        with self._lock:
            runners, self._all = self._all, []
        for runner in runners:
            runner.close()


class AsyncToolFacade:
    """An async tool with the sync tool's face: ``call`` runs ``await tool.call(...)``."""

    def __init__(self, tool: AsyncMemoryTool, loops: Loops) -> None:
        self.tool = tool
        self._loops = loops
        # The sync tool's maker opens the user, raising there what it cannot open.
        loops.run(tool.open())

    @property
    def user(self) -> str:
        return self.tool.user

    @property
    def session(self) -> str | None:
        return self.tool.session

    def __repr__(self) -> str:
        return f"<AsyncToolFacade {self.tool!r}>"

    def to_dict(self) -> Any:
        return self.tool.to_dict()

    def call(self, input: object) -> str:
        return self._loops.run(self.tool.call(input))


class Made:
    """How many tools a test made through ``Vault.memory_tool``, and the loops its async
    tools ran in."""

    def __init__(self) -> None:
        self.count = 0
        self.loops = Loops()


def install(monkeypatch: pytest.MonkeyPatch, kind: str) -> Made:
    """Count the tools the test makes; for ``async``, make facades of async tools."""
    made = Made()
    sync_maker = Vault.memory_tool

    def memory_tool(self: Vault, user: str, session: str | None = None) -> Any:
        made.count += 1
        if kind == "async":
            return AsyncToolFacade(self.async_memory_tool(user, session), made.loops)
        return sync_maker(self, user, session)

    monkeypatch.setattr(Vault, "memory_tool", memory_tool)
    return made


def held_to_both(nodeid: str) -> bool:
    return nodeid.replace("\\", "/").startswith(DIRECTORIES)


def check_made(request: pytest.FixtureRequest, kind: str, parametrized: bool, made: Made) -> None:
    """After the test: the parametrization matched what it did."""
    if parametrized and kind == "async" and made.count == 0:
        pytest.fail(
            "run against the async tool but made no tool: tests/support/tool_kinds.py "
            "misread its source",
            pytrace=False,
        )
    if not parametrized and made.count and not request.node.get_closest_marker("sync_tool_only"):
        pytest.fail(
            "made a memory tool but ran against the sync tool only: make the tool where "
            "tests/support/tool_kinds.py can see it, or mark the test sync_tool_only",
            pytrace=False,
        )


# -- reading which tests make a tool -------------------------------------------------------


def makes_tool(function: Any, fixtures: list[str]) -> bool:
    """Whether a test function, the fixtures it asks for, or anything they name from the
    test modules reaches ``Vault.memory_tool``."""
    module = sys.modules[function.__module__]
    seen: set[tuple[str, str]] = set()
    if _reaches(function, module.__name__, seen, fixtures_asked=True):
        return True
    return any(
        _reaches(target, owner, seen, fixtures_asked=True)
        for name in fixtures
        if (found := _lookup(name, module.__name__)) is not None
        for target, owner in [found]
    )


def _is_fixture(target: Any) -> bool:
    return hasattr(target, "_fixture_function_marker") or hasattr(target, "_pytestfixturefunction")


def _scope(fixture: Any) -> str:
    """A fixture's scope: one shared beyond a test (a module's log built once) is made
    before the test's tool kind is chosen, and is the same for both runs."""
    marker = getattr(fixture, "_fixture_function_marker", None)  # pytest >= 8.4
    marker = marker or getattr(fixture, "_pytestfixturefunction", None)
    scope = getattr(marker, "scope", "function")
    return scope if isinstance(scope, str) else "function"


_verdicts: dict[tuple[int, bool], bool] = {}


def _reaches(target: Any, module: str, seen: set[tuple[str, str]], fixtures_asked: bool) -> bool:
    """Whether ``target``'s source uses ``memory_tool``, or names (as a global, or as a
    fixture when it is a test or a fixture) something of the tests that does."""
    key = (id(target), fixtures_asked)
    if key in _verdicts:
        return _verdicts[key]
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(target)))
    except (OSError, TypeError, SyntaxError):
        return False
    if any(isinstance(n, ast.Attribute) and n.attr == "memory_tool" for n in ast.walk(tree)):
        _verdicts[key] = True
        return True
    verdict = False
    for name in sorted(_names(tree, fixtures_asked)):
        if (module, name) in seen:
            continue
        seen.add((module, name))
        found = _lookup(name, module)
        if found is not None and _reaches(*found, seen, _is_fixture(found[0])):
            verdict = True
            break
    _verdicts[key] = verdict
    return verdict


def _names(tree: ast.Module, fixtures_asked: bool) -> set[str]:
    """The names a definition reads from outside itself: the fixtures a test or fixture
    asks for, and the globals it uses (a local variable named like a fixture is no use
    of it, nor is a helper's parameter)."""
    top = tree.body[0]
    asked: set[str] = set()
    if fixtures_asked and isinstance(top, ast.FunctionDef | ast.AsyncFunctionDef):
        asked = {a.arg for a in (*top.args.posonlyargs, *top.args.args, *top.args.kwonlyargs)}
    read: set[str] = set()
    bound: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (read if isinstance(node.ctx, ast.Load) else bound).add(node.id)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
    return asked | (read - bound)


def _lookup(name: str, module: str) -> tuple[Any, str] | None:
    """A function, class or fixture of the test modules, by the name ``module`` uses for
    it: its own or an imported one, else a fixture of a conftest above it."""
    owners = [module]
    parts = module.split(".")
    owners += [".".join([*parts[:n], "conftest"]) for n in range(len(parts) - 1, 0, -1)]
    for owner in owners:
        namespace = sys.modules.get(owner)
        target = getattr(namespace, name, None) if namespace is not None else None
        if not (
            inspect.isfunction(target) or inspect.isclass(target) or hasattr(target, "__wrapped__")
        ):
            continue
        home = getattr(inspect.unwrap(target), "__module__", None) or ""
        if home.startswith("tests.") and _scope(target) == "function":
            return target, home
    return None
