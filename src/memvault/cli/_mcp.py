"""``memvault mcp``: one user's memories served to an MCP client over stdio.

An MCP client starts the server itself, with a minimal environment (HOME, PATH and a
few more) and its protocol pipe as standard input, so everything the server needs is a
flag (for the client's ``args``) or a variable (for its ``env``). There is no terminal to
ask on: a key that cannot be had otherwise (a passphrase given neither by descriptor nor
variable) is refused before anything is served.
The ``mcp`` SDK is imported here only when the command runs, so no other command pays
for it.
"""

from __future__ import annotations

import argparse
import os
import secrets
import sys
from pathlib import Path
from typing import IO, Any

from .._vault import Vault
from ..errors import ConfigurationError, MasterKeyError, UsageError
from ..store import describe_dsn, is_dsn

ENV_USER = "MEMVAULT_USER"
ENV_SESSION = "MEMVAULT_SESSION"
EXIT_OK = 0
EXIT_INTERRUPTED = 130

_CLIENT_HINT = (
    "an MCP client starts this server without a terminal and with few environment "
    "variables: give the key's settings as flags in the server's args (--key-provider, "
    "--master-key-file) or as variables in its env (MEMVAULT_MASTER_KEY_FILE, "
    "MEMVAULT_MASTER_KEY, MEMVAULT_PASSPHRASE)"
)


def add_parsers(commands: Any) -> None:
    mcp = commands.add_parser(
        "mcp",
        help="serve one user's memories to an MCP client over stdio",
        description="Serve the memory tool to an MCP client (Claude Code, Claude Desktop) over "
        "MCP's stdio transport: one tool, memory, taking the memory_20250818 commands, and the "
        "memory protocol's guidance as the server's instructions. Stops when the client closes "
        "standard input, or on SIGTERM or SIGINT once the running command is done.",
    )
    mcp.add_argument(
        "--user", help=f"whose memories the client works on (default: ${ENV_USER}); required"
    )
    mcp.add_argument(
        "--session",
        help=f"the session id written into every audit record (default: ${ENV_SESSION}, else "
        "mcp- and 8 random hex digits, new at each start)",
    )
    mcp.set_defaults(run=_mcp)


def _mcp(args: argparse.Namespace, options: dict[str, Any], out: IO[str], err: IO[str]) -> int:
    user = args.user or os.environ.get(ENV_USER)
    if not user:
        raise UsageError(
            "no user: give --user U, or set $MEMVAULT_USER in the server's env",
            hint="each MCP server serves one user's memories; configure one server per user",
        )
    session = args.session or os.environ.get(ENV_SESSION) or f"mcp-{secrets.token_hex(4)}"
    with _open(options) as vault:
        runner = vault.runner(user, session)
        from .. import __version__  # read from the metadata: only here
        from ..mcp import serve  # the SDK, for this command only

        print(
            f"memvault: mcp: serving the memories of {user} from vault {vault.vault_id} "
            f"on stdio (session {session})",
            file=err,
            flush=True,
        )
        own = args.stdin is sys.stdin.buffer and out is sys.stdout
        stopped = serve(
            runner,
            version=__version__,
            stdin=None if own else args.stdin,
            stdout=None if own else out,
        )
    print(f"memvault: mcp: stopped ({stopped}); the vault is closed", file=err, flush=True)
    return EXIT_INTERRUPTED if stopped == "SIGINT" else EXIT_OK


def _open(options: dict[str, Any]) -> Vault:
    """The vault, or the reason it cannot be opened with what the client's config gives.

    A server serves a vault that exists; it never makes one. A client starts it with
    whatever home its configuration names, and a mistyped one would otherwise become a
    new, empty vault, whose memories the model would take for all it has."""
    given = str(options["home"])
    home = describe_dsn(given) if is_dsn(given) else str(Path(given).expanduser().absolute())
    if not Vault.exists(given if is_dsn(given) else home):
        raise ConfigurationError(
            f"no vault at {home}: an MCP server serves an existing vault and never makes one",
            hint=f"check the home in the client's configuration, or make the vault first, in "
            f"a terminal: memvault --home {home} init (with the same key settings)",
        )
    try:
        return Vault.open(**options)
    except MasterKeyError as exc:
        hint = f"{exc.hint}; {_CLIENT_HINT}" if exc.hint else _CLIENT_HINT
        raise MasterKeyError(exc.message, hint=hint) from None
