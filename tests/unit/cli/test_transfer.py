"""CLI transcripts of `memvault import` and `memvault users export`: stdout, stderr and
exit code."""

from __future__ import annotations

import io
import json
import os
import stat
from pathlib import Path

from memvault.cli import main

SECRETS = "aws AKIAQ3EGRT5XJ7KLMN2P\ncard 4111 1111 1111 1111\nmail jane.doe@fastmail.com\n"


def cli(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def source(tmp_path: Path, *, refused: bool = True) -> Path:
    base = tmp_path / "old"
    (base / "memories" / "notes").mkdir(parents=True)
    (base / "memories" / "notes" / "a.md").write_text("hello\n")
    (base / "memories" / "secrets.md").write_text(SECRETS)
    if refused:
        (base / "memories" / "link.md").symlink_to(base / "memories" / "notes" / "a.md")
        (base / "memories" / "latin1.md").write_bytes(b"caf\xe9\n")
    return base


def test_import_transcript(home: Path, tmp_path: Path) -> None:
    base = source(tmp_path)
    code, out, err = cli(["--home", str(home), "import", str(base), "--user", "alice"])
    assert code == 1
    assert out.splitlines() == [
        f"source: {base}/memories (DIR is a base directory: it holds memories/)",
        "refused       /memories/latin1.md: not UTF-8 text: byte 0xe9 at offset 3 does not "
        "decode; convert it to UTF-8 to import it",
        "refused       /memories/link.md: a symbolic link: links are never followed, to files "
        "or directories",
        "imported      /memories/notes/a.md",
        "imported      /memories/secrets.md: 1 api key and 1 email were redacted, and 1 card "
        "number was masked",
        "2 imported (1 of them redacted: 1 api key, 1 card number, 1 email), 2 refused",
        f"next: handle the 2 refused files, then remove the plaintext copy at {base} (it is not "
        "encrypted; memvault left it as it was)",
    ]
    assert err.splitlines() == [
        "memvault: error: the import refused 2 of 4 files",
        "memvault: hint: the summary says why for each; fix them and import again (what is "
        "already imported is then refused as existing, and left as it is)",
    ]


def test_import_of_everything_exits_0(home: Path, tmp_path: Path) -> None:
    memories = source(tmp_path, refused=False) / "memories"
    code, out, err = cli(["--home", str(home), "import", str(memories), "--user", "alice"])
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == f"source: {memories} (DIR is the memories/ directory itself)"
    assert lines[-2:] == [
        "2 imported (1 of them redacted: 1 api key, 1 card number, 1 email), 0 refused",
        f"next: remove the plaintext copy at {memories} (it is not encrypted; memvault left "
        "it as it was)",
    ]


def test_import_dry_run_transcript(home: Path, tmp_path: Path) -> None:
    base = source(tmp_path, refused=False)
    argv = ["--home", str(home), "import", str(base), "--user", "alice", "--dry-run"]
    code, out, err = cli(argv)
    assert (code, err) == (0, "")
    assert out.splitlines()[1:] == [
        "would import  /memories/notes/a.md",
        "would import  /memories/secrets.md: 1 api key and 1 email were redacted, and 1 card "
        "number was masked",
        "dry run: 2 would be imported (1 of them redacted: 1 api key, 1 card number, 1 email), "
        "0 refused; nothing was stored",
        "next: run the same command without --dry-run to import",
    ]
    code, out, _ = cli(["--home", str(home), "audit", "show", "--json", "--command", "create"])
    assert (code, out) == (0, "")  # nothing was created


def test_import_json_document(home: Path, tmp_path: Path) -> None:
    base = source(tmp_path)
    argv = ["--home", str(home), "import", str(base), "--user", "alice", "--json"]
    code, out, err = cli(argv)
    assert code == 1 and err.startswith("memvault: error: the import refused 2 of 4 files\n")
    document = json.loads(out)
    assert list(document) == ["user", "source", "layout", "dry_run", "session", "files", "totals"]
    assert document["session"].startswith("import-")
    assert document["files"][0] == {
        "path": "/memories/latin1.md",
        "status": "refused",
        "bytes": 5,
        "findings": None,
        "note": None,
        "reason": "not_utf8",
        "message": "not UTF-8 text: byte 0xe9 at offset 3 does not decode; convert it to "
        "UTF-8 to import it",
    }
    assert document["files"][3]["findings"] == {"api_key": 1, "card_number": 1, "email": 1}
    assert document["totals"] == {
        "imported": 2,
        "refused": 2,
        "redacted": 1,
        "findings": {"api_key": 1, "card_number": 1, "email": 1},
    }


def test_import_of_what_is_no_memory_directory_is_a_usage_error(home: Path, tmp_path: Path) -> None:
    code, out, err = cli(["--home", str(home), "import", str(tmp_path), "--user", "alice"])
    assert (code, out) == (2, "")
    assert err.splitlines() == [
        f"memvault: error: {tmp_path} holds no memories/ directory, and is not one",
        "memvault: hint: give the directory the reference backend was given as base_path (it "
        "holds memories/), or that memories/ directory itself",
    ]


def test_users_export_transcript(home: Path, tmp_path: Path) -> None:
    cli(["--home", str(home), "import", str(source(tmp_path, refused=False)), "--user", "alice"])
    out_file = tmp_path / "alice.json"
    argv = ["--home", str(home), "users", "export", "alice", "--out", str(out_file)]
    code, out, err = cli(argv)
    assert (code, err) == (0, "")
    size = out_file.stat().st_size
    assert out.splitlines() == [
        f"2 memories and 1 directory of alice written to {out_file} (json, {size:,} bytes, "
        "mode 0600)",
        "the file holds these memories in plaintext: hand it over by a safe channel, then "
        "delete it",
    ]
    assert stat.S_IMODE(out_file.stat().st_mode) == 0o600
    code, out, err = cli(argv)
    assert (code, out) == (2, "")
    assert err.splitlines() == [
        f"memvault: error: {out_file} already exists; it was left as it is",
        "memvault: hint: choose a new file name, or pass --overwrite to replace it",
    ]


def test_users_export_json_summary_and_tar(home: Path, tmp_path: Path) -> None:
    cli(["--home", str(home), "import", str(source(tmp_path, refused=False)), "--user", "alice"])
    out_file = tmp_path / "alice.tar"
    argv = ["--home", str(home), "users", "export", "alice", "--out", str(out_file)]
    code, out, err = cli([*argv, "--format", "tar", "--json"])
    assert (code, err) == (0, "")
    assert len(out.splitlines()) == 1
    summary = json.loads(out)
    assert {k: v for k, v in summary.items() if k != "exported"} == {
        "user": "alice",
        "out": str(out_file),
        "format": "tar",
        "memories": 2,
        "directories": 1,
        "bytes": os.path.getsize(out_file),
    }


def test_users_export_of_an_unknown_user(home: Path, tmp_path: Path) -> None:
    argv = ["--home", str(home), "users", "export", "nobody", "--out", str(tmp_path / "x")]
    code, out, err = cli(argv)
    assert (code, out) == (2, "")
    assert err.splitlines()[0] == "memvault: error: the vault has no user 'nobody'"
    assert not (tmp_path / "x").exists()


def test_users_needs_an_action(home: Path) -> None:
    code, out, err = cli(["--home", str(home), "users"])
    assert (code, out) == (2, "")
    assert err.startswith("memvault: error: the following arguments are required: ACTION")
