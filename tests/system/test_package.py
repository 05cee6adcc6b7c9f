"""The installed package: a wheel with every subpackage, py.typed and the policies; an import
that does not pay for the SDK."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import memvault

pytestmark = pytest.mark.system

ROOT = Path(__file__).resolve().parents[2]
SRC = Path(memvault.__file__).parent


def test_the_wheel_holds_every_subpackage_py_typed_and_the_policies(tmp_path: Path) -> None:
    """`pip wheel .` builds a wheel with every package directory, py.typed and the data files."""
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps",
         "-w", str(tmp_path), str(ROOT)],
        check=True,
        capture_output=True,
    )  # fmt: skip
    (wheel,) = tmp_path.glob("memvault-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    packages = {
        f"memvault/{p.relative_to(SRC).as_posix()}"
        for p in SRC.rglob("__init__.py")
        if "__pycache__" not in p.parts
    }
    data = {
        f"memvault/{p.relative_to(SRC).as_posix()}"
        for pattern in ("redaction/policies/*", "redaction/data/*.txt")
        for p in SRC.glob(pattern)
    }
    assert packages and "memvault/redaction/policies/default.toml" in data
    missing = sorted((packages | data | {"memvault/py.typed"}) - names)
    assert missing == []


def test_importing_memvault_does_not_import_the_sdk() -> None:
    """`import memvault` (and the CLI's modules) leave the anthropic SDK unloaded."""
    code = (
        "import sys, memvault, memvault.cli, memvault.audit, memvault.redaction; "
        "print('anthropic' in sys.modules)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert (result.returncode, result.stdout.strip()) == (0, "False"), result.stderr
