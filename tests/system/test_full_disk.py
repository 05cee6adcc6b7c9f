"""A full disk: deletes still run, and verify still reports.

The whole home sits on a small tmpfs, filled to the last page. A command that
adds something is refused, as before; a ``delete`` runs, its record written
into the space the log keeps for deletes (``<home>/audit/.reserve``), which it
gives back to the file system so the store's commit fits too. ``audit
verify``, which writes nothing but its record, still opens the vault (the
reserve makes room for the store's shared-memory file) and reports.

These mount a file system: they run only with ``MEMVAULT_TEST_MOUNTS=1``, as root.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from anthropic.lib.tools import ToolError

from memvault import Vault
from memvault.audit import segments
from memvault.cli import main
from tests.support.filesystems import fill

FILES = 12


def cli(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, out=out, err=err)
    return code, out.getvalue(), err.getvalue()


@contextlib.contextmanager
def home_on_tmpfs(home: Path, size: str = "4m") -> Iterator[Path]:
    """``home`` on a small tmpfs, with the vault's files copied onto it."""
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a file system needs root and mount(8)")
    files = {p.relative_to(home): p.read_bytes() for p in home.rglob("*") if p.is_file()}
    result = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size},mode=0700", "tmpfs", str(home)],
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode:
        pytest.skip(f"cannot mount here: {result.stderr.strip()}")
    try:
        for name, data in sorted(files.items()):
            path = home / name
            path.parent.mkdir(mode=0o700, exist_ok=True)
            path.write_bytes(data)
            path.chmod(0o600)
        yield home
    finally:
        if subprocess.run(["umount", str(home)], capture_output=True, check=False).returncode:
            subprocess.run(["umount", "-l", str(home)], capture_output=True, check=False)


def _vault(home: Path) -> None:
    with Vault.open(home) as v:
        tool = v.memory_tool("alice")
        for i in range(FILES):
            tool.call({"command": "create", "path": f"/memories/f{i}.md", "file_text": "x" * 3000})


def _last_record(home: Path) -> dict[str, object]:
    _, path = segments(home / "audit")[-1]
    record: dict[str, object] = json.loads(path.read_bytes().splitlines()[-1])
    return record


@pytest.mark.mounts
def test_a_delete_runs_on_a_full_disk_and_a_create_does_not(home: Path) -> None:
    _vault(home)
    with home_on_tmpfs(home), Vault.open(home) as v:
        tool = v.memory_tool("alice")
        tool.call({"command": "view", "path": "/memories/f0.md"})
        fill(home)
        with pytest.raises(ToolError):
            tool.call({"command": "create", "path": "/memories/new.md", "file_text": "y" * 3000})
        for i in (1, 2, 3):
            path = f"/memories/f{i}.md"
            assert tool.call({"command": "delete", "path": path}) == f"Successfully deleted {path}"
            record = _last_record(home)
            assert (record["command"], record["outcome"]) == ("delete", "ok")
        listing = tool.call({"command": "view", "path": "/memories"})
        assert "f1.md" not in listing and "new.md" not in listing and "f4.md" in listing


@pytest.mark.mounts
def test_verify_reports_on_a_full_disk(home: Path) -> None:
    _vault(home)
    with home_on_tmpfs(home):
        fill(home)
        code, out, err = cli(["--home", str(home), "audit", "verify"])
        assert code == 0, err
        assert out.startswith("audit log intact: ")
        assert err == "" or err.startswith("memvault: warning: the log verified intact, but ")


@pytest.mark.mounts
def test_a_fresh_process_can_open_and_delete_on_a_full_disk(home: Path) -> None:
    """Opened only once the disk is full (SQLite cannot make its shared-memory file):
    the log's reserve is given back, the vault opens, and a delete frees space."""
    _vault(home)
    with home_on_tmpfs(home):
        fill(home)
        with Vault.open(home) as v:
            tool = v.memory_tool("alice")
            path = "/memories/f1.md"
            assert tool.call({"command": "delete", "path": path}) == f"Successfully deleted {path}"
        assert (_last_record(home)["command"], _last_record(home)["outcome"]) == ("delete", "ok")
