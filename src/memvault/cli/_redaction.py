"""``memvault redact`` and ``memvault policy check``: redaction policies, tried and checked.

Neither needs a vault: they load a policy as ``Vault.open`` would and report on it.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import IO, Any

from .. import _fs
from ..errors import UsageError
from ..redaction import load_policy, policy_summary, redact_report

EXIT_OK = 0


def add_parsers(commands: Any) -> None:
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
    redact.set_defaults(run=_redact)
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
    check.set_defaults(run=_policy_check)


def _redact(args: argparse.Namespace, options: dict[str, Any], out: IO[str], err: IO[str]) -> int:
    policy = load_policy(args.redact_policy or options["policy"])
    if args.file == "-":
        raw = args.stdin.read()
        source = "stdin"
    else:
        try:
            raw = Path(args.file).read_bytes()
        except OSError as exc:
            raise UsageError(f"cannot read {args.file}: {_fs.reason(exc)}") from None
        source = args.file
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError(f"{source} is not UTF-8 text (byte {exc.start})") from None
    out.write(redact_report(policy, text, as_json=args.json))
    return EXIT_OK


def _policy_check(
    args: argparse.Namespace, options: dict[str, Any], out: IO[str], err: IO[str]
) -> int:
    out.write(policy_summary(load_policy(args.policy_file)))
    return EXIT_OK
