"""The vault's side of asyncio: the async memory tool, and the thread its store work runs on.

A vault runs one command at a time: every command holds the vault's lock over
its one SQLite connection from parse to commit. More threads would only wait
on that lock, so the async tools of a vault share one thread of their own,
started when the first is made. That thread's queue is first in, first out (a
task's calls run in the order it made them); the commands take none of the
threads of the event loop's default executor, where an application's other
blocking work runs; and :meth:`~memvault.Vault.close` lets the commands
already queued finish before it closes the store.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from .errors import StorageError
from .memory import Runner, check_user

if TYPE_CHECKING:
    from concurrent.futures import Executor, ThreadPoolExecutor

    from .tool import AsyncMemoryTool


class AsyncMethods:
    """Mixed into :class:`~memvault.Vault`."""

    _worker: ThreadPoolExecutor | None
    _worker_lock: threading.Lock
    _closed: bool

    def _check_open(self) -> None:
        raise NotImplementedError

    def _check_session(self, session: object) -> str | None:
        raise NotImplementedError

    def _open_runner(self, user: str, session: str | None) -> Runner:
        raise NotImplementedError

    def async_memory_tool(self, user: str, session: str | None = None) -> AsyncMemoryTool:
        """The memory tool for one user, for asyncio: a ``BetaAsyncAbstractMemoryTool``.

        ``await tool.call(input)`` answers exactly as :meth:`memory_tool`'s ``call``
        does (the same results, ``ToolError`` messages, redaction, encryption and
        audit records), and never blocks the event loop: the command runs on the
        vault's store thread while the loop goes on. ``user`` and ``session`` are
        checked here, as for :meth:`memory_tool`; making the tool touches no store, so
        it does not wait either: the user is opened (created on first use) by the
        first command, or by ``await tool.open()``.
        """
        self._check_open()
        user = check_user(user)
        session = self._check_session(session)
        from .tool import AsyncMemoryTool  # the SDK is imported when a tool is first asked for

        def open_runner() -> Runner:
            return self._open_runner(user, session)

        return AsyncMemoryTool(open_runner, self._store_thread(), user, session)

    def _store_thread(self) -> Executor:
        """The thread the async tools' commands run on, started on first use."""
        with self._worker_lock:
            if self._closed:
                raise StorageError("the vault is closed")
            if self._worker is None:
                from concurrent.futures import ThreadPoolExecutor

                self._worker = ThreadPoolExecutor(1, thread_name_prefix="memvault-store")
            return self._worker

    def _stop_worker(self) -> None:
        """At close, once no tool can be made: the commands already queued run to their
        end, then the thread stops. A tool that outlives its vault runs its later calls
        on the loop's default executor, where they fail as the sync tool's do."""
        with self._worker_lock:
            worker, self._worker = self._worker, None
        if worker is not None:
            worker.shutdown(wait=True)
