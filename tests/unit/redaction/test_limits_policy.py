"""``[limits]`` in a policy file: the defaults, each setting checked with the file and line of
a mistake, and `memvault policy check` showing what is in force."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from memvault.cli import main
from memvault.errors import PolicyError
from memvault.redaction import Limits, load

KEYS = "'max_memory_bytes', 'max_user_bytes', 'max_memories', 'max_directories', 'max_view_chars'"


def _policy(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "limits.toml"
    path.write_text("version = 1\n" + body)
    return path


def test_the_defaults_are_for_heavy_users() -> None:
    """At least 10,000 memories and 100 MB per user; a view cap well above an ordinary note."""
    limits = load("default").limits
    assert limits == Limits()
    assert limits.max_memories >= 10_000
    assert limits.max_user_bytes >= 100_000_000
    assert limits.max_memory_bytes == 1_048_576
    assert limits.max_view_chars == 100_000


def test_a_policy_sets_each_limit(tmp_path: Path) -> None:
    path = _policy(
        tmp_path,
        "[limits]\nmax_memory_bytes = 2_000\nmax_user_bytes = 50_000\nmax_memories = 12\n"
        "max_view_chars = 8_000\n",
    )
    assert load(path).limits == Limits(2_000, 50_000, 12, 8_000)


def test_a_policy_may_set_some_and_keep_the_rest(tmp_path: Path) -> None:
    limits = load(_policy(tmp_path, "[limits]\nmax_memories = 50_000\n")).limits
    assert limits == Limits(max_memories=50_000)


@pytest.mark.parametrize(
    ("body", "line", "problem"),
    [
        ("limits = 5\n", 2, "[limits] must be a table"),
        (
            "[limits.max_memories]\nvalue = 3\n",
            2,
            "'max_memories' must be a whole number of files from 1 to 1,099,511,627,776 "
            "(no quotes, no unit; underscores may group digits: 100_000)",
        ),
        (
            "[limits]\nmax_files = 3\n",
            3,
            f"unknown setting 'max_files' in [limits] (use {KEYS})",
        ),
        (
            '[limits]\nmax_memories = "10"\n',
            3,
            "'max_memories' must be a whole number of files from 1 to 1,099,511,627,776 "
            "(no quotes, no unit; underscores may group digits: 100_000)",
        ),
        (
            "[limits]\nmax_memories = 0\n",
            3,
            "'max_memories' must be a whole number of files from 1 to 1,099,511,627,776 "
            "(no quotes, no unit; underscores may group digits: 100_000)",
        ),
        (
            "[limits]\nmax_user_bytes = true\n",
            3,
            "'max_user_bytes' must be a whole number of bytes from 1 to "
            "1,125,899,906,842,624 (no quotes, no unit; underscores may group digits: 100_000)",
        ),
        (
            "[limits]\nmax_memory_bytes = 1.5\n",
            3,
            "'max_memory_bytes' must be a whole number of bytes from 1 to 268,435,456 "
            "(no quotes, no unit; underscores may group digits: 100_000)",
        ),
        (
            "[limits]\nmax_view_chars = 999\n",
            3,
            "'max_view_chars' must be a whole number of characters from 4,000 to "
            "1,099,511,627,776 (no quotes, no unit; underscores may group digits: 100_000)",
        ),
        (
            "[limits]\nmax_user_bytes = 500_000\n",
            3,
            "'max_memory_bytes' (1,048,576) is larger than 'max_user_bytes' (500,000): one "
            "memory can never be larger than all of them",
        ),
        (
            "[limits]\nmax_user_bytes = 500_000\nmax_memory_bytes = 600_000\n",
            4,
            "'max_memory_bytes' (600,000) is larger than 'max_user_bytes' (500,000): one "
            "memory can never be larger than all of them",
        ),
    ],
)
def test_a_bad_limit_names_the_file_and_line(
    tmp_path: Path, body: str, line: int, problem: str
) -> None:
    path = _policy(tmp_path, body)
    with pytest.raises(PolicyError) as caught:
        load(path)
    assert caught.value.message == f"{path}:{line}: {problem}"


def _cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(args), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def test_policy_check_shows_the_limits_in_force(tmp_path: Path) -> None:
    path = _policy(tmp_path, "[limits]\nmax_memories = 250\nmax_view_chars = 20_000\n")
    code, out, err = _cli("policy", "check", str(path))
    assert (code, err) == (0, "")
    start = out.index("limits ([limits]):\n")
    assert out[start:].splitlines()[1:6] == [
        "  max_memory_bytes    1,048,576  default  bytes in one memory file",
        "  max_user_bytes    104,857,600  default  bytes in all of one user's memory files",
        "  max_memories              250  policy   memory files one user may hold",
        "  max_directories        10,000  default  directories one user may hold",
        "  max_view_chars         20,000  policy   characters one view returns (past it: a "
        "page, and how to read on)",
    ]


def test_policy_check_of_a_bad_limit_exits_1(tmp_path: Path) -> None:
    path = _policy(tmp_path, "[limits]\nmax_memories = -1\n")
    code, out, err = _cli("policy", "check", str(path))
    assert (code, out) == (1, "")
    assert err.startswith(f"memvault: error: {path}:3: 'max_memories' must be a whole number")
