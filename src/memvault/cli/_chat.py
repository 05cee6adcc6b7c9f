"""``memvault chat --user U``: a conversation with Claude over U's memories.

Each line the operator types goes to Claude with U's memory tool, the documented
memory protocol as the system prompt, and context editing; Claude's words go to
stdout, each memory command as one dim line to stderr (the command, its path,
what the filter removed). ``/exit`` or the end of input ends it. On a pipe it
reads one message a line and prints the answers alone, so it can be scripted.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import secrets
import sys
from collections.abc import Iterator
from typing import IO, TYPE_CHECKING, Any

from .._vault import Vault
from ..agent import DEFAULT_MAX_TOKENS, DEFAULT_MODEL, ContextEditing
from ..errors import UsageError
from ._display import Show, describe_call, plural

if TYPE_CHECKING:
    from ..agent import Settings

ENV_KEY = "ANTHROPIC_API_KEY"
EXIT_WORDS = frozenset({"/exit", "/quit"})
_EDITING = ContextEditing()


def add_parsers(commands: Any) -> None:
    chat = commands.add_parser(
        "chat",
        help="talk with Claude, which keeps its memories in the vault",
        description="An interactive conversation with Claude using the user's memory tool, the "
        "memory protocol from the memory tool's documentation as the system prompt, and "
        "context editing. Each memory command is shown as one line on stderr. /exit or "
        f"end of input ends it. Needs ${ENV_KEY}.",
    )
    chat.add_argument("--user", required=True, help="whose memories Claude works with")
    chat.add_argument(
        "--session", help="the session id in the audit records (default: chat-<8 hex digits>)"
    )
    chat.add_argument("--model", default=DEFAULT_MODEL, help="the model (default: %(default)s)")
    chat.add_argument(
        "--max-tokens", type=_count(1), default=DEFAULT_MAX_TOKENS, metavar="N",
        help="the longest answer, in tokens (default: %(default)s)",
    )  # fmt: skip
    chat.add_argument(
        "--api-base", metavar="URL",
        help="the Messages API's base URL (default: $ANTHROPIC_BASE_URL, else Anthropic's)",
    )  # fmt: skip
    editing = chat.add_argument_group("context editing (clear_tool_uses_20250919)")
    editing.add_argument(
        "--clear-at-tokens", type=_count(1), default=_EDITING.clear_at_tokens, metavar="N",
        help="clear old tool results once a request's input passes N tokens (default: "
        "%(default)s)",
    )  # fmt: skip
    editing.add_argument(
        "--keep-tool-uses", type=_count(0), default=_EDITING.keep_tool_uses, metavar="N",
        help="the newest tool uses that are never cleared (default: %(default)s)",
    )  # fmt: skip
    editing.add_argument(
        "--clear-memory-results", action="store_true",
        help="let the memory tool's own results be cleared too (by default they are kept: "
        "with memory the only tool, nothing is cleared)",
    )  # fmt: skip
    editing.add_argument(
        "--no-context-editing", action="store_true", help="send no context_management at all"
    )
    chat.set_defaults(run=_chat)


def _count(least: int) -> Any:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < least:
            raise argparse.ArgumentTypeError(f"{value} is below {least}")
        return value

    return parse


def api_key() -> str:
    """The Anthropic API key from the environment; a usage error without one."""
    key = os.environ.get(ENV_KEY, "").strip()
    if not key:
        raise UsageError(
            f"{ENV_KEY} is not set: memvault chat talks to Claude through the Anthropic API",
            hint=f"export {ENV_KEY}=<your key>, or run `memvault demo`, which needs none",
        )
    return key


def _chat(args: argparse.Namespace, options: dict[str, Any], out: IO[str], err: IO[str]) -> int:
    from ..agent import Conversation, Settings

    key = api_key()
    session = args.session or f"chat-{secrets.token_hex(4)}"
    editing = None
    if not args.no_context_editing:
        editing = ContextEditing(
            args.clear_at_tokens, args.keep_tool_uses, clear_memory=args.clear_memory_results
        )
    settings = Settings(model=args.model, max_tokens=args.max_tokens, context_editing=editing)
    said, told = Show(out), Show(err)
    with Vault.open(**options) as vault:
        runner = vault.runner(args.user, session)
        with Conversation(
            runner,
            api_key=key,
            base_url=args.api_base,
            settings=settings,
            on_call=lambda call: told.line(("  memory " + describe_call(call), "dim")),
            on_text=lambda text: _answer(said, text),
        ) as talk:
            _banner(told, args.user, vault, talk.base_url, settings, session)
            for line in _lines(args.stdin, said):
                talk.ask(line)
            told.line((f"session {session} ended: {plural(len(talk.calls), 'memory command')}; "
                       f"memvault audit show --session {session}", "dim"))  # fmt: skip
    return 0


def _banner(
    told: Show, user: str, vault: Vault, base: str, settings: Settings, session: str
) -> None:
    told.line(
        ("memvault chat", "bold"),
        f": {user}'s memories in {vault.location}, {settings.model} at {base}, session {session}",
    )
    editing = settings.context_editing
    if editing is None:
        told.line(("context editing: off", "dim"))
    else:
        kept = "cleared too" if editing.clear_memory else "never cleared"
        told.line((f"context editing: tool results cleared past {editing.clear_at_tokens:,} "
                   f"input tokens, the newest {editing.keep_tool_uses} kept, memory's {kept}",
                   "dim"))  # fmt: skip
    told.line(("/exit or end of input (Ctrl-D) ends the conversation", "dim"))


def _answer(said: Show, text: str) -> None:
    if said.terminal:
        said.block("claude", text, "bold magenta")
        said.blank()
    else:
        said.stream.write(text + "\n")
        said.stream.flush()


def _lines(stdin: IO[bytes], said: Show) -> Iterator[str]:
    """The operator's messages, until /exit or the end of input."""
    interactive = stdin is sys.stdin.buffer and sys.stdin.isatty() and said.terminal
    if interactive:
        with contextlib.suppress(ImportError):  # not on every platform
            import readline  # noqa: F401  (line editing and history for input())
    while True:
        if interactive:
            try:
                line = input("you> ")
            except EOFError:
                said.blank()
                return
        else:
            raw = stdin.readline()
            if not raw:
                return
            line = raw.decode("utf-8", "replace")
        line = line.strip()
        if line in EXIT_WORDS:
            return
        if line:
            yield line
