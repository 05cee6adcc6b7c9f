"""``memvault init``, ``exec`` and ``demo``: a vault, and memory commands run through it."""

from __future__ import annotations

import argparse
import json
import sys
from typing import IO, Any

from .._vault import Vault
from ..agent import DEFAULT_MODEL
from ..memory import Runner

EXIT_OK = 0


def add_parsers(commands: Any) -> None:
    init = commands.add_parser(
        "init",
        help="create the vault (idempotent)",
        description="Create the vault in the home, with its master key, if it does not exist yet.",
    )
    init.set_defaults(run=_init)
    exec_ = commands.add_parser(
        "exec",
        help="run memory commands read as JSON lines from stdin",
        description="Read memory tool commands as JSON, one object per line, on stdin; write one "
        'JSON line {"is_error": bool, "content": str} per command on stdout.',
    )
    exec_.add_argument("--user", required=True, help="whose memories the commands act on")
    exec_.set_defaults(run=_exec)
    demo = commands.add_parser(
        "demo",
        help="show Claude's memory tool on a fresh vault, end to end",
        description="Play the memory tool documentation's customer-service example on a fresh, "
        "temporary vault: Claude views /memories, reads the guidelines, answers a ticket and "
        "keeps a note holding an e-mail address, a card number and an API key, through the "
        "anthropic SDK's tool runner and a scripted Messages API on 127.0.0.1 (with --live: "
        "Claude). Then what was stored, the audit trail, `audit verify`, and the bytes on disk.",
    )
    demo.add_argument(
        "--keep", action="store_true", help="keep the demo's home and key instead of removing them"
    )
    demo.add_argument(
        "--live",
        action="store_true",
        help="talk to Claude instead of the scripted endpoint (needs $ANTHROPIC_API_KEY)",
    )
    demo.add_argument("--model", help=f"the model for --live (default: {DEFAULT_MODEL})")
    demo.set_defaults(run=_demo)


def _init(args: argparse.Namespace, options: dict[str, Any], out: IO[str], err: IO[str]) -> int:
    with Vault.open(**options) as vault:
        print(f"vault {vault.vault_id} is ready at {vault.location}", file=out)
        print(f"master key: {vault.key_source} (back it up apart from the home)", file=out)
    return EXIT_OK


def _exec(args: argparse.Namespace, options: dict[str, Any], out: IO[str], err: IO[str]) -> int:
    with Vault.open(**options) as vault:
        runner = vault.runner(args.user)
        for number, line in enumerate(args.stdin, start=1):
            if not line.strip():
                continue
            out.write(json.dumps(_exec_line(runner, number, line), ensure_ascii=False) + "\n")
            out.flush()
    return EXIT_OK


def _exec_line(runner: Runner, number: int, line: bytes) -> dict[str, object]:
    """One line's answer. A line that is not one JSON value is answered with an error
    naming where it went wrong, and recorded as invalid input, like every command."""
    try:
        command = _read_line(number, line)
    except _Unreadable as exc:
        reply = runner.refuse_line(exc.message)
    else:
        reply = runner.run(command)
    return {"is_error": reply.is_error, "content": reply.content}


class _Unreadable(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _read_line(number: int, line: bytes) -> object:
    """The JSON value on one line; the errors quote nothing of the line."""
    try:
        text = line.rstrip(b"\r\n").decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _Unreadable(
            f"Error: line {number} is not valid UTF-8 (byte {exc.start}); send UTF-8 JSON."
        ) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        reason = f"{exc.msg} at column {exc.colno}"
        raise _Unreadable(
            f"Error: line {number} is not valid JSON ({reason}); send one JSON object per line."
        ) from None
    except ValueError:
        # The only other ValueError the decoder raises: an integer too long to convert.
        reason = f"an integer has more than {sys.get_int_max_str_digits()} digits"
    except RecursionError:
        reason = "it is nested too deeply"
    raise _Unreadable(
        f"Error: line {number} could not be read ({reason}); send one JSON object per line."
    )


def _demo(args: argparse.Namespace, options: dict[str, Any], out: IO[str], err: IO[str]) -> int:
    from ._demo import run

    return run(out, keep=args.keep, live=args.live, model=args.model)
