"""The vault's lifecycle methods: key rotation, erasure, and the listings of keys and
users, each delegating to :mod:`memvault.lifecycle` with the parts of the open vault."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import keys, lifecycle
from ._opening import open_store
from .audit import DbAuditLog, Log, Problem, examine
from .errors import IntegrityError, UsageError
from .keys import KeyProvider, ProviderOptions
from .memory import Runner, check_user
from .store import DEFAULT_CHAINS


class LifecycleMethods:
    """Mixed into :class:`~memvault.Vault`."""

    home: Path | None
    location: str
    _provider: KeyProvider

    @property
    def audit(self) -> Log:
        raise NotImplementedError

    def verify_store(self) -> list[Problem]:
        raise NotImplementedError

    @property
    def vault_id(self) -> str:
        raise NotImplementedError

    def _parts(self) -> lifecycle.Parts:
        raise NotImplementedError

    def runner(self, user: str, session: str | None = None) -> Runner:
        raise NotImplementedError

    def rotate_user_key(
        self, user: str, progress: lifecycle.Progress | None = None
    ) -> lifecycle.Rotation:
        """Re-seal every memory of ``user`` under a new data key, then destroy the old one
        (``memvault keys rotate``); finishes an interrupted rotation instead if one is
        under way. Safe to interrupt at any point; agents keep working meanwhile."""
        return lifecycle.rotate_user(self._parts(), check_user(user), progress)

    def rotate_master_key(
        self,
        new: ProviderOptions | KeyProvider | None = None,
        progress: Callable[[int], None] | None = None,
    ) -> lifecycle.MasterRotation:
        """Replace the master key (``memvault keys rotate-master``): every wrapped key is
        re-wrapped under the new one and the old one is retired; no memory is
        re-encrypted. ``new`` says where the new key is kept (default: where the
        current one is; a key file writes ``<file>.next`` first). Finishes a rotation
        under way instead, if there is one."""
        return lifecycle.rotate_master(self._parts(), self._new_provider(new), progress=progress)

    def _new_provider(
        self, new: ProviderOptions | KeyProvider | None
    ) -> Callable[[str | None], KeyProvider]:
        def build(kind: str | None) -> KeyProvider:
            if (
                new is not None
                and not isinstance(new, ProviderOptions)
                and (kind is None or kind == new.kind)
            ):
                return new
            options = new if isinstance(new, ProviderOptions) else ProviderOptions()
            if kind is not None:
                options = dataclasses.replace(options, kind=kind)
            return keys.new_provider_for(options, self.vault_id, self.home, self._provider)

        return build

    def move_to(
        self,
        target: str | os.PathLike[str],
        *,
        chains: int = DEFAULT_CHAINS,
        progress: Callable[[str, int], None] | None = None,
    ) -> lifecycle.Move:
        """Move this vault to ``target`` (a home directory, or a migrated PostgreSQL
        database's URI), copying every row as stored, and its audit log
        (``memvault migrate``); or finish a move an earlier run began. The vault must
        verify intact first, and does not open here afterwards. ``chains``: the audit
        chains of a home that takes a log of files (a database's are its schema's)."""
        self._verify_before_move()
        _, target_where, store = open_store(target, "full")
        try:
            if target_where == self.location:
                raise UsageError("the target is the vault's own location")
            done = lifecycle.move(
                self._parts(), self.location, store, target_where, chains, progress
            )
        finally:
            store.close()
        with type(self).open(target, key_provider=self._provider) as moved:  # type: ignore[attr-defined]
            problems = moved.audit.examine().problems if isinstance(moved.audit, DbAuditLog) else []
            problems = problems or moved.verify_store()
        if problems:
            raise IntegrityError(f"the moved vault fails verification: {problems[0]}")
        return done

    def _verify_before_move(self) -> None:
        """A vault moves only whole: its log and its store must verify intact."""
        audit = self.audit
        if isinstance(audit, DbAuditLog):
            report = audit.examine()
        else:
            if audit.forward_since() is not None or audit.read_forward_file() is not None:
                raise UsageError(
                    "the audit log is forward-secure: its segments' MACs need keys a log in "
                    "a database does not keep, so it cannot move",
                    hint="keep this vault in its home",
                )
            report = examine(
                audit.directory, audit.keys, anchor=audit.store_head(), pending=audit.pending()
            )
        problems = report.problems or self.verify_store()
        if problems:
            raise IntegrityError(
                f"the vault fails verification, so it does not move: {problems[0]}",
                hint="run memvault audit verify; move a vault only once it verifies intact",
            )

    def erase_user(
        self,
        user: str,
        new: ProviderOptions | KeyProvider | None = None,
        progress: Callable[[int], None] | None = None,
    ) -> lifecycle.Erasure:
        """Crypto-erase ``user`` (``memvault users erase``): their keys and rows are
        deleted and the master key is rotated (``new`` as for :meth:`rotate_master_key`),
        so neither this store nor a copy of it made before opens anything of theirs
        with the key material left. Their audit records keep their pseudonym; their
        paths stay sealed for good. Irreversible."""
        user = check_user(user)
        return lifecycle.erase_user(self._parts(), user, self._new_provider(new), progress)

    def key_report(self) -> dict[str, Any]:
        """Every user's data-key versions and the master key (``memvault keys list``)."""
        return lifecycle.key_report(self._parts())

    def pending_rotation_size(self, user: str) -> int:
        """How many of the user's memories a key rotation starting now would re-seal."""
        parts = self._parts()
        user_id, _ = lifecycle.find_user(parts, check_user(user))
        return lifecycle.pending_memories(parts, user_id)

    def user_ids(self) -> list[str]:
        """Every user's id, in the order they were created."""
        return lifecycle.user_names(self._parts())

    # -- import and export

    def import_memories(
        self, source: str | os.PathLike[str], user: str, *, dry_run: bool = False
    ) -> lifecycle.ImportReport:
        """Bring a plaintext memory directory (the SDK's reference backend's ``base_path``,
        or its ``memories/``) into ``user``'s memories, each file as a ``create``; or,
        with ``dry_run``, only check it. See ``memvault import``."""
        user, where = check_user(user), Path(os.path.abspath(source))
        return lifecycle.import_memories(self._parts(), where, user, self.runner, dry_run=dry_run)

    def export_memories(
        self, user: str, out: str | os.PathLike[str], *, fmt: str = "json", overwrite: bool = False
    ) -> lifecycle.ExportReport:
        """Write ``user``'s memories as stored to the new file ``out`` (``json`` or
        ``tar``), recorded as ``users.export``. See ``memvault users export``."""
        user = check_user(user)
        return lifecycle.export_memories(
            self._parts(), user, Path(out), fmt=fmt, overwrite=overwrite
        )

    # -- retention and the users list

    retention_days: int | None = None  # the policy's [retention] max_idle_days, if it sets one

    def expire(
        self, older_than_days: int | None = None, *, user: str | None = None, dry_run: bool = False
    ) -> lifecycle.Expiry:
        """Delete the memories of ``user`` (default: every user) unused for more than
        ``older_than_days`` days (default: :attr:`retention_days`), each recorded;
        ``dry_run`` changes nothing. See :func:`memvault.lifecycle.expire`."""
        name = None if user is None else check_user(user)
        return lifecycle.expire(
            self._parts(), older_than_days, self.retention_days, user=name, dry_run=dry_run
        )

    def users(self) -> list[lifecycle.UserSummary]:
        """Every user with their memories, directories, bytes and last activity; recorded
        (``users.list``). See :func:`memvault.lifecycle.list_users`."""
        return lifecycle.list_users(self._parts())

    def check(
        self,
        progress: lifecycle.Progress | None = None,
        *,
        sized: Callable[[int], None] | None = None,
    ) -> lifecycle.CheckReport:
        """Read every page, count and memory of the store, and say what is wrong
        (``memvault check``): what opening a vault leaves out, because it reads every
        row. Changes nothing; the run is recorded (``vault.check``). See
        :func:`memvault.lifecycle.check_vault`."""
        return lifecycle.check_vault(self._parts(), progress, sized)
