"""The ``memvault`` command: a thin shell over the library.

``main(argv) -> int`` parses, calls the library and formats; every library
error becomes ``memvault: error: ...`` (and a hint) on stderr with a non-zero
exit, in one place at the bottom of this module.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from .._vault import Vault
from ..errors import UsageError, VaultError
from ..memory import Runner
from ..redaction import load_policy
from . import _audit as audit_cli

ENV_HOME = "MEMVAULT_HOME"
DEFAULT_HOME = ".memvault"

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 70


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(message, hint=f"run '{self.prog} --help' for usage")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="memvault",
        description="An encrypted, audited memory vault for Claude's memory tool.",
    )
    parser.add_argument(
        "--home",
        metavar="DIR",
        help=f"the vault's home directory (default: ${ENV_HOME}, else ./{DEFAULT_HOME})",
    )
    parser.add_argument(
        "--master-key-file",
        metavar="FILE",
        help="the master key file, kept outside the home (default: $MEMVAULT_MASTER_KEY_FILE, "
        "else ~/.config/memvault/keys/<vault id>.key; $MEMVAULT_MASTER_KEY overrides both)",
    )
    parser.add_argument(
        "--policy",
        metavar="P",
        help="the redaction policy: a built-in name or a .toml file (default: default)",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.required = True

    commands.add_parser(
        "init",
        help="create the vault (idempotent)",
        description="Create the vault in the home, with its master key, if it does not exist yet.",
    )
    exec_ = commands.add_parser(
        "exec",
        help="run memory commands read as JSON lines from stdin",
        description="Read memory tool commands as JSON, one object per line, on stdin; write one "
        'JSON line {"is_error": bool, "content": str} per command on stdout.',
    )
    exec_.add_argument("--user", required=True, help="whose memories the commands act on")
    demo = commands.add_parser(
        "demo",
        help="show a memory session end to end on a fresh vault",
        description="Run a scripted memory session on a fresh, temporary vault: listings, edits, "
        "isolation between two users, and the ciphertext on disk.",
    )
    demo.add_argument(
        "--keep", action="store_true", help="keep the demo's home and key instead of removing them"
    )
    redact = commands.add_parser(
        "redact",
        help="show what a policy would do to a text",
        description="Run the redaction filter over a text, as a write would, and print the "
        "redacted text and a table of findings (type, detector, action, position). Nothing is "
        "stored; no vault is needed.",
    )
    redact.add_argument("file", nargs="?", default="-", help="the text to check (default: stdin)")
    redact.add_argument("--policy", dest="redact_policy", metavar="P", help="the policy to apply")
    redact.add_argument("--json", action="store_true", help="print one JSON object instead")
    policy = commands.add_parser(
        "policy", help="work with redaction policies", description="Work with redaction policies."
    )
    policy_commands = policy.add_subparsers(dest="policy_command", metavar="ACTION")
    policy_commands.required = True
    check = policy_commands.add_parser(
        "check",
        help="validate a policy file",
        description="Load a policy as Vault.open would and report what it enables, or the file, "
        "line and problem that make it invalid.",
    )
    check.add_argument("policy_file", metavar="P", help="a built-in policy name or a .toml file")
    audit_cli.add_parsers(commands)
    return parser


def _home(args: argparse.Namespace) -> str:
    return str(args.home or os.environ.get(ENV_HOME) or DEFAULT_HOME)


def _vault_options(args: argparse.Namespace) -> dict[str, Any]:
    return {"home": _home(args), "master_key_file": args.master_key_file, "policy": args.policy}


def _open(args: argparse.Namespace) -> Vault:
    return Vault.open(**_vault_options(args))


def _cmd_init(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    with _open(args) as vault:
        print(f"vault {vault.vault_id} is ready at {vault.home}", file=out)
        print(f"master key: {vault.key_source} (back it up apart from the home)", file=out)
    return EXIT_OK


def _cmd_exec(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    with _open(args) as vault:
        runner = vault.runner(args.user)
        for number, line in enumerate(sys.stdin.buffer, start=1):
            if not line.strip():
                continue
            out.write(json.dumps(_exec_line(runner, number, line), ensure_ascii=False) + "\n")
            out.flush()
    return EXIT_OK


def _exec_line(runner: Runner, number: int, line: bytes) -> dict[str, object]:
    try:
        text = line.rstrip(b"\r\n").decode("utf-8")
    except UnicodeDecodeError as exc:
        return _error(
            f"Error: line {number} is not valid UTF-8 (byte {exc.start}); send UTF-8 JSON."
        )
    try:
        command = json.loads(text)
    except json.JSONDecodeError as exc:
        return _error(
            f"Error: line {number} is not valid JSON ({exc.msg} at column {exc.colno}); "
            "send one JSON object per line."
        )
    reply = runner.run(command)
    return {"is_error": reply.is_error, "content": reply.content}


def _error(message: str) -> dict[str, object]:
    return {"is_error": True, "content": message}


def _cmd_demo(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    from ._demo import run

    return run(out, keep=args.keep)


def _cmd_redact(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    from ..redaction import redact_report

    policy = load_policy(args.redact_policy or args.policy)
    if args.file == "-":
        raw = sys.stdin.buffer.read()
        source = "stdin"
    else:
        try:
            raw = Path(args.file).read_bytes()
        except OSError as exc:
            raise UsageError(f"cannot read {args.file}: {exc.strerror}") from None
        source = args.file
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError(f"{source} is not UTF-8 text (byte {exc.start})") from None
    out.write(redact_report(policy, text, as_json=args.json))
    return EXIT_OK


def _cmd_policy(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    from ..redaction import policy_summary

    out.write(policy_summary(load_policy(args.policy_file)))
    return EXIT_OK


def _cmd_audit(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    return audit_cli.run(args, _vault_options(args), out, err)


_COMMANDS = {
    "audit": _cmd_audit,
    "init": _cmd_init,
    "exec": _cmd_exec,
    "demo": _cmd_demo,
    "redact": _cmd_redact,
    "policy": _cmd_policy,
}


def main(
    argv: Sequence[str] | None = None, *, out: IO[str] | None = None, err: IO[str] | None = None
) -> int:
    """Run the CLI; returns the exit code (0 ok, 1 error, 2 usage, 70 internal)."""
    out = out or sys.stdout
    err = err or sys.stderr
    try:
        with contextlib.redirect_stdout(out):  # --help writes to our stdout
            args = _parser().parse_args(argv)
        return _COMMANDS[args.command](args, out, err)
    except SystemExit as exc:  # --help
        return int(exc.code or 0)
    except UsageError as exc:
        _report(err, exc)
        return EXIT_USAGE
    except VaultError as exc:
        _report(err, exc)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print("memvault: interrupted", file=err)
        return 130
    except BrokenPipeError:
        return EXIT_ERROR
    except Exception as exc:
        # The message of a foreign exception could echo data; name only its type.
        print(f"memvault: error: internal error ({type(exc).__name__})", file=err)
        print("memvault: hint: nothing was changed; please report this", file=err)
        return EXIT_INTERNAL


def _report(err: IO[str], exc: VaultError) -> None:
    print(f"memvault: error: {exc.message}", file=err)
    if exc.hint:
        print(f"memvault: hint: {exc.hint}", file=err)


def main_entry() -> None:
    """Console-script entry point."""
    sys.exit(main())
