"""Shared fixtures: every test gets its own home and its own key directory.

Tiers: tests under ``tests/system/`` (crash, concurrency, several processes) and
those that mount file systems are marked ``system``; ``pytest -m "not system"``
is the fast tier. Tests marked ``mounts`` run only when ``MEMVAULT_TEST_MOUNTS=1``
(they need root): never by default on a developer's machine.

Tests under ``tests/protocol/`` and ``tests/unit/`` that make a memory tool run
twice, ``[sync]`` and ``[async]``: against ``Vault.memory_tool`` and against
``Vault.async_memory_tool`` (``tests/support/tool_kinds.py``).

Tests in the suites ``tests/support/stores.py`` lists that use ``home`` (directly, or
through ``vault`` or ``tool``) run twice too, ``[sqlite]`` and ``[pg]``: in a ``[pg]``
run, ``home`` is the URI of a fresh migrated database. The two compose
(``[sync-pg]``); a test that works on a home's files is marked ``sqlite_only``.

PostgreSQL: ``postgres_cluster`` is a throwaway cluster for the session and ``pg_dsn``
a fresh database of it for one test (``tests/support/postgres.py``). They need the
server's binaries (Debian's ``postgresql`` package; ``.ci/run`` installs it). A cluster
that cannot start fails the tests that use it; they are skipped only when
``MEMVAULT_TEST_SKIP_POSTGRES=1`` is set.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from memvault import MemoryTool, Vault
from tests.support import postgres, stores, tool_kinds

SKIP_POSTGRES = "MEMVAULT_TEST_SKIP_POSTGRES"


@pytest.fixture(autouse=True)
def _isolated_keys(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Keys go to a per-test config directory; no master key leaks in from the environment."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("MEMVAULT_MASTER_KEY", raising=False)
    monkeypatch.delenv("MEMVAULT_MASTER_KEY_FILE", raising=False)
    monkeypatch.delenv("MEMVAULT_HOME", raising=False)


@pytest.fixture(autouse=True)
def tool_kind(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Which memory tool ``Vault.memory_tool`` makes for this run of the test."""
    parametrized = hasattr(request, "param")
    kind: str = request.param if parametrized else "sync"
    if not tool_kinds.held_to_both(request.node.nodeid):
        yield kind
        return
    made = tool_kinds.install(monkeypatch, kind)
    try:
        yield kind
    finally:
        made.loops.close()
    tool_kinds.check_made(request, kind, parametrized, made)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if (
        tool_kinds.held_to_both(metafunc.definition.nodeid)
        and not metafunc.definition.get_closest_marker("sync_tool_only")
        and tool_kinds.makes_tool(metafunc.function, metafunc.fixturenames)
    ):
        metafunc.parametrize("tool_kind", tool_kinds.KINDS, indirect=True)
    if (
        stores.held_to_both(metafunc.definition.nodeid)
        and "store_kind" in metafunc.fixturenames
        and not metafunc.definition.get_closest_marker("sqlite_only")
    ):
        metafunc.parametrize("store_kind", stores.KINDS, indirect=True)


@pytest.fixture
def store_kind(request: pytest.FixtureRequest) -> str:
    """Which store this run of the test uses: ``sqlite`` unless parametrized."""
    kind: str = getattr(request, "param", "sqlite")
    return kind


@pytest.fixture
def home(tmp_path: Path, store_kind: str, request: pytest.FixtureRequest) -> Iterator[Path]:
    """The vault's home: a directory, or, in a ``[pg]`` run, a migrated database's URI
    (typed as a Path for the tests written against homes; ``Vault.open`` takes either)."""
    if store_kind == "pg":
        cluster = request.getfixturevalue("postgres_cluster")
        with stores.migrated_database(cluster) as dsn:
            yield dsn  # type: ignore[misc]
        return
    yield tmp_path / "home"


@pytest.fixture
def vault(home: Path) -> Iterator[Vault]:
    with Vault.open(home) as v:
        yield v


@pytest.fixture
def tool(vault: Vault) -> MemoryTool:
    return vault.memory_tool(user="alice")


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[postgres.Cluster]:
    """A PostgreSQL cluster of our own for the whole session, on 127.0.0.1."""
    if os.environ.get(SKIP_POSTGRES) == "1":
        pytest.skip(f"PostgreSQL tests skipped: {SKIP_POSTGRES}=1 is set")
    try:
        cluster = postgres.start_cluster()
    except postgres.ClusterError as exc:
        raise pytest.fail.Exception(
            f"the PostgreSQL test cluster did not start: {exc}\n"
            f"(to run without the PostgreSQL tests, set {SKIP_POSTGRES}=1)",
            pytrace=False,
        ) from None
    try:
        yield cluster
    finally:
        postgres.stop_cluster(cluster)


@pytest.fixture
def pg_dsn(postgres_cluster: postgres.Cluster) -> Iterator[str]:
    """The DSN of a new, empty database for this test alone, dropped after it."""
    with postgres.fresh_database(postgres_cluster) as dsn:
        yield dsn


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    mounts_allowed = os.environ.get("MEMVAULT_TEST_MOUNTS") == "1"
    for item in items:
        mounts = item.get_closest_marker("mounts") is not None
        if mounts or "tests/system/" in item.nodeid:
            item.add_marker(pytest.mark.system)
        if mounts and not mounts_allowed:
            item.add_marker(
                pytest.mark.skip(reason="mounts a file system: set MEMVAULT_TEST_MOUNTS=1 (root)")
            )
        callspec = getattr(item, "callspec", None)
        on_pg = callspec is not None and callspec.params.get("store_kind") == "pg"
        if on_pg or {"pg_dsn", "postgres_cluster"} & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.pg)
