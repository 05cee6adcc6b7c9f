"""The ``memvault`` command: a thin shell over the library.

``main(argv) -> int`` parses, calls the library and formats; every library
error becomes ``memvault: error: ...`` (and a hint) on stderr with a non-zero
exit, in one place at the bottom of this module. Each command group lives in a
module of its own (``_memory``, ``_chat``, ``_redaction``, ``_audit``, ``_retention``,
``_users``), which adds its parsers and names the function that runs each command.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Sequence
from typing import IO, Any

from ..errors import UsageError, VaultError
from ..keys import KINDS, ProviderOptions
from . import (
    _audit,
    _chat,
    _check,
    _db,
    _keys,
    _mcp,
    _memory,
    _move,
    _redaction,
    _retention,
    _transfer,
    _users,
)

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
        metavar="DIR|URI",
        help=f"the vault's home directory, or a PostgreSQL URI (postgresql://user@host/db) "
        f"(default: ${ENV_HOME}, else ./{DEFAULT_HOME})",
    )
    parser.add_argument(
        "--master-key-file",
        metavar="FILE",
        help="the master key file, kept outside the home (default: $MEMVAULT_MASTER_KEY_FILE, "
        "else ~/.config/memvault/keys/<vault id>.key; $MEMVAULT_MASTER_KEY overrides both)",
    )
    _add_provider_options(parser)
    parser.add_argument(
        "--policy",
        metavar="P",
        help="the redaction policy: a built-in name or a .toml file (default: default)",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.required = True
    _memory.add_parsers(commands)
    _chat.add_parsers(commands)
    _mcp.add_parsers(commands)
    _redaction.add_parsers(commands)
    _audit.add_parsers(commands)
    _check.add_parsers(commands)
    _keys.add_parsers(commands)
    _transfer.add_parsers(commands)
    _retention.add_parsers(commands)
    _users.add_parsers(commands)
    _db.add_parsers(commands)
    _move.add_parsers(commands)
    return parser


def _add_provider_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--key-provider",
        choices=KINDS,
        help="where the master key is kept: file, env ($MEMVAULT_MASTER_KEY), passphrase or "
        "kms (default: $MEMVAULT_KEY_PROVIDER, else what the vault recorded, else file)",
    )
    parser.add_argument(
        "--passphrase-fd",
        type=int,
        metavar="FD",
        help="read the passphrase from this file descriptor (else $MEMVAULT_PASSPHRASE, "
        "else a prompt); never give it as an argument",
    )
    parser.add_argument("--kms-key-id", metavar="ID", help="the AWS KMS key (id, ARN or alias)")
    parser.add_argument("--kms-region", metavar="REGION", help="the AWS region of the KMS key")
    parser.add_argument(
        "--kms-endpoint",
        metavar="URL",
        help="the KMS endpoint (default: $MEMVAULT_KMS_ENDPOINT, else AWS's)",
    )


def _vault_options(args: argparse.Namespace) -> dict[str, Any]:
    """What ``Vault.open`` takes, from the global options and the environment."""
    home = str(args.home or os.environ.get(ENV_HOME) or DEFAULT_HOME)
    provider = ProviderOptions(
        kind=args.key_provider,
        key_file=args.master_key_file,
        passphrase_fd=args.passphrase_fd,
        kms_key_id=args.kms_key_id,
        kms_region=args.kms_region,
        kms_endpoint=args.kms_endpoint,
    )
    return {"home": home, "key_provider": provider, "policy": args.policy}


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: IO[bytes] | None = None,
    out: IO[str] | None = None,
    err: IO[str] | None = None,
) -> int:
    """Run the CLI; returns the exit code (0 ok, 1 error, 2 usage, 70 internal).

    ``stdin`` (bytes), ``out`` and ``err`` default to the process's streams, so the
    whole command runs in-process in tests.
    """
    out = out or sys.stdout
    err = err or sys.stderr
    try:
        with contextlib.redirect_stdout(out):  # --help writes to our stdout
            args = _parser().parse_args(argv)
        args.stdin = stdin if stdin is not None else sys.stdin.buffer
        code: int = args.run(args, _vault_options(args), out, err)
        return code
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
