"""The README's integration examples, run as written against the real components.

Each test takes its blocks from README.md by the heading they sit under
(``tests/support/readme.py``) and runs them: the Python snippets in a fresh
namespace, with the ``anthropic`` client reaching a scripted Messages API through
``ANTHROPIC_BASE_URL``; the MCP configurations as a client starts the server; the
chat line as a shell would. What a reader must change to run them here is all that
is changed: the vault's home (``/var/lib/memvault``), the user's home directory
(``~``, ``$HOME``, ``/Users/jane``) and the memvault executable, which here is this
tree's ``python -m memvault``.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import threading
from collections.abc import Callable, Mapping
from pathlib import Path

import anyio
import pytest
from mcp import Client, StdioServerParameters, stdio_client

from memvault import Vault
from memvault.agent import ScriptedEndpoint, Turn, ok
from memvault.memory import COMMANDS
from tests.support.mcp_client import text_of
from tests.support.readme import Block, blocks
from tests.unit.cli.test_exec_lines import LISTING, run

VIEW = {"command": "view", "path": "/memories"}
VAULT_HOME = "/var/lib/memvault"  # the Python snippets' vault, moved under tmp_path
EXECUTABLES = ("memvault", "/opt/memvault/.venv/bin/memvault")
USER_HOMES = ("~/", "$HOME/", "/Users/jane/")  # the reader's home, as the README writes it
PointApi = Callable[[ScriptedEndpoint], None]


def _script(question: str, note: str, text: str, answer: str) -> list[Turn]:
    """Claude's side of one conversation: view /memories, keep a note, answer."""
    create = {"command": "create", "path": note, "file_text": text}
    return [
        Turn(calls=(VIEW,), user=question),
        Turn(calls=(create,), results=(ok(LISTING),)),
        Turn(text=answer, results=(ok(f"File created successfully at: {note}"),)),
    ]


def _stored(home: Path, user: str, note: str) -> str:
    with Vault.open(home) as vault:
        return vault.runner(user).run({"command": "view", "path": note}).content


def _shown(note: str, text: str) -> str:
    lines = "\n".join(f"{n:>6}\t{line}" for n, line in enumerate(text.split("\n"), 1))
    return f"Here's the content of {note} with line numbers:\n{lines}"


def _verified(*vault: str) -> None:
    """``memvault audit verify`` passes on the vault ``vault`` (its flags) names."""
    code, out, err = run([*vault, "audit", "verify"])
    assert (code, err) == (0, ""), out


def _audited(*vault: str, session: str | None = None) -> list[tuple[str, str, str]]:
    """(user, session, command) of each memory command the audit log of ``vault`` (its
    flags) holds, of ``session`` if given, as ``memvault audit show`` shows them."""
    filters = ["--session", session] if session is not None else []
    code, out, err = run([*vault, "audit", "show", *filters, "--json"])
    assert (code, err) == (0, "")
    records = [json.loads(line) for line in out.splitlines()]
    return [(r["user"], r["session"], r["command"]) for r in records if r["command"] in COMMANDS]


def _run_python(block: Block, home: Path) -> None:
    """The snippet as written, its vault's home moved to ``home``; a traceback names the
    README's lines."""
    assert block.text.count(VAULT_HOME) == 1, f"{block.where()}: no {VAULT_HOME} to move"
    source = "\n" * (block.line - 1) + block.text.replace(VAULT_HOME, str(home))
    exec(compile(source, "README.md", "exec"), {"__name__": "__readme__"})  # noqa: S102


@pytest.fixture
def api(monkeypatch: pytest.MonkeyPatch) -> PointApi:
    """Points ``anthropic.Anthropic()`` (no arguments, as in the README) at an endpoint."""

    def point(endpoint: ScriptedEndpoint) -> None:
        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-readme")
        monkeypatch.setenv("ANTHROPIC_BASE_URL", endpoint.url)

    return point


# -- Use it from Python --------------------------------------------------------------------


# The SDK warns when a model is deprecated: the README's model must not be.
MODEL_CURRENT = pytest.mark.filterwarnings("error:The model .* is deprecated:DeprecationWarning")


@MODEL_CURRENT
@pytest.mark.sync_tool_only("the README's snippet gives its tool to the sync tool runner")
def test_the_sync_python_snippet_runs_as_written(
    tmp_path: Path, api: PointApi, capsys: pytest.CaptureFixture[str]
) -> None:
    """The tool runner snippet views /memories, keeps a note in the vault and prints the
    answer; every tool result is the one expected and the audit log verifies."""
    sync, _ = blocks("Use it from Python", "python", 2)
    note, text = "/memories/tickets/4711.md", "- asked for a refund of order 1182\n"
    answer = "Refund approved; I noted the ticket."
    turns = _script("Help me answer this support ticket.", note, text, answer)
    home = tmp_path / "vault"
    with ScriptedEndpoint(turns) as endpoint:
        api(endpoint)
        _run_python(sync, home)
    assert endpoint.finished and endpoint.failures == []
    assert capsys.readouterr().out == answer + "\n"
    assert _stored(home, "customer-4711", note) == _shown(note, text)
    _verified("--home", str(home))


STRAY = json.dumps(
    {
        "type": "error",
        "error": {"type": "invalid_request_error", "message": "switchboard: no such conversation"},
    }
).encode()


class Switchboard(ScriptedEndpoint):
    """One base URL for conversations that run at once, each played by its own endpoint.

    A :class:`ScriptedEndpoint` plays one script, turn after turn, so two conversations
    interleaving on it would each find the other's turn next. This one serves nothing
    itself (its own script is empty): it hands each request to the endpoint of the
    conversation it belongs to, found by its first user message or by the message the
    thread it continues ended on. Ask those endpoints what they played.
    """

    def __init__(self, conversations: Mapping[str, ScriptedEndpoint]) -> None:
        super().__init__(())
        self.conversations = dict(conversations)
        self._threads: dict[str, ScriptedEndpoint] = {}
        self._threads_lock = threading.Lock()

    def answer(self, path: str, headers: Mapping[str, str], raw: bytes) -> tuple[int, bytes]:
        conversation = self._conversation_of(raw)
        if conversation is None:
            return 400, STRAY
        status, reply = conversation.answer(path, headers, raw)
        if status == 200:
            with self._threads_lock:
                self._threads[json.loads(reply)["id"]] = conversation
        return status, reply

    def _conversation_of(self, raw: bytes) -> ScriptedEndpoint | None:
        try:
            body = json.loads(raw)
            thread = body.get("thread") or {}
            if thread.get("type") == "continue":
                with self._threads_lock:
                    return self._threads.get(thread["previous_message_id"])
            first = body["messages"][0]["content"]
            said = first if isinstance(first, str) else "".join(b["text"] for b in first)
        except (ValueError, LookupError, TypeError, AttributeError):
            return None  # not a request of these conversations: refused as a stray
        return self.conversations.get(said)


@MODEL_CURRENT
def test_the_async_python_snippet_runs_two_conversations_at_once(
    tmp_path: Path, api: PointApi, capsys: pytest.CaptureFixture[str]
) -> None:
    """The asyncio snippet's two conversations, gathered on one vault, each view /memories,
    keep a note for their own customer under their own session, and print both answers."""
    _, concurrent = blocks("Use it from Python", "python", 2)
    cases = {  # question: (user, session, note, text, answer)
        "Help me answer this support ticket.": (
            "customer-4711", "conv-81", "/memories/refund.md", "- refund of order 1182\n",
            "Refund approved.",
        ),
        "What did we promise last week?": (
            "customer-4712", "conv-82", "/memories/asked.md", "- asked about a promise\n",
            "I have no record of a promise; I noted the question.",
        ),
    }  # fmt: skip
    conversations = {
        question: ScriptedEndpoint(_script(question, note, text, answer))
        for question, (_, _, note, text, answer) in cases.items()
    }
    home = tmp_path / "vault"
    with Switchboard(conversations) as endpoint:
        api(endpoint)
        _run_python(concurrent, home)
    for conversation in conversations.values():
        assert conversation.finished and conversation.failures == []
    answers = [answer for *_, answer in cases.values()]
    assert capsys.readouterr().out == "\n\n".join(answers) + "\n"
    for user, session, note, text, _ in cases.values():
        assert _stored(home, user, note) == _shown(note, text)
        audited = _audited("--home", str(home), session=session)
        assert audited == [(user, session, "view"), (user, session, "create")]
    _verified("--home", str(home))


# -- Use it from Claude Code or Claude Desktop (MCP) ---------------------------------------


def _localized(word: str, user_home: Path) -> list[str]:
    """A word of a README command as it runs here: the memvault executable as this tree's
    module, a path in the reader's home directory under ``user_home``."""
    if word in EXECUTABLES:
        return [sys.executable, "-m", "memvault"]
    for prefix in USER_HOMES:
        if word.startswith(prefix):
            word = str(user_home / word.removeprefix(prefix))
    assert not re.search(r"[$~]|/Users/|/opt/", word), f"{word!r} was not localized"
    return [word]


def _command(words: list[str], user_home: Path) -> list[str]:
    return [piece for word in words for piece in _localized(word, user_home)]


def _client_env(user_home: Path, env: Mapping[str, str]) -> dict[str, str]:
    """What a client gives its server: HOME and PATH, the config's ``env``, and PYTHONPATH
    so that the child imports this tree."""
    given = {"HOME": str(user_home), "PATH": os.environ["PATH"]}
    if "PYTHONPATH" in os.environ:
        given["PYTHONPATH"] = os.environ["PYTHONPATH"]
    return {**given, **{k: _localized(v, user_home)[0] for k, v in env.items()}}


def _init(user_home: Path) -> list[str]:
    """The README's ``init`` line, run first as it tells the reader to; the flags that
    name the vault it made (``--home``, ``--master-key-file``)."""
    (block,) = blocks("Use it from Claude Code or Claude Desktop (MCP)", "sh", 1)
    words = shlex.split(block.text)
    assert words[0] == "memvault" and words[-1] == "init", block.where()
    done = subprocess.run(
        _command(words, user_home),
        env=_client_env(user_home, {}),
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return _command(words[1:-1], user_home)


def _serve(
    command: list[str], env: dict[str, str], cwd: Path, errfile: Path
) -> tuple[list[str], str, bool]:
    """Start the server as a client does, list its tools and view /memories."""

    async def session() -> tuple[list[str], str, bool]:
        params = StdioServerParameters(command=command[0], args=command[1:], env=env, cwd=cwd)
        with errfile.open("w", encoding="utf-8") as errlog:
            async with Client(stdio_client(params, errlog=errlog), mode="legacy") as client:
                tools = [tool.name for tool in (await client.list_tools()).tools]
                result = await client.call_tool("memory", VIEW)
                return tools, text_of(result), result.is_error

    return anyio.run(session)


def _claude_mcp_add(block: Block) -> tuple[dict[str, str], list[str]]:
    """The ``--env`` entries and the server command of a ``claude mcp add`` line."""
    words = shlex.split(block.text.replace("\\\n", " "))
    assert words[:3] == ["claude", "mcp", "add"], block.where()
    split = words.index("--")
    options, server = words[3:split], words[split + 1 :]
    env, number = {}, 0
    while number < len(options):
        if options[number] in ("--env", "-e"):
            name, _, value = options[number + 1].partition("=")
            env[name] = value
            number += 1
        elif options[number] == "--transport":
            assert options[number + 1] == "stdio", block.where()
        number += 1
    return env, server


def test_the_claude_code_command_serves_the_vault_made_by_init(tmp_path: Path) -> None:
    """`init`, then the server `claude mcp add` configures, started as Claude Code starts it
    (its --env applied): one tool, `memory`, whose view answers from the vault init made,
    with the key init wrote; its audit log verifies."""
    (block,) = blocks("Claude Code", "sh", 1)
    user_home = tmp_path / "jane"
    vault = _init(user_home)
    env, server = _claude_mcp_add(block)
    assert Path(server[0]).is_absolute(), "clients start servers with a minimal PATH"
    served = _serve(
        _command(server, user_home), _client_env(user_home, env), tmp_path, tmp_path / "err"
    )
    assert served == (["memory"], LISTING, False), (tmp_path / "err").read_text()
    ((user, session, command),) = _audited(*vault)
    assert (user, command) == ("jane", "view")
    assert re.fullmatch(r"mcp-[0-9a-f]{8}", session)
    _verified(*vault)


def test_the_claude_desktop_config_serves_the_vault_under_its_session(tmp_path: Path) -> None:
    """`init`, then the server `claude_desktop_config.json` describes, started with a
    client's minimal environment and the config's env: one tool, `memory`, whose view
    answers, and whose records carry the config's session id."""
    (block,) = blocks("Claude Desktop", "json", 1)
    user_home = tmp_path / "jane"
    vault = _init(user_home)
    server = json.loads(block.text)["mcpServers"]["memvault"]
    assert Path(server["command"]).is_absolute(), "clients start servers with a minimal PATH"
    command = _command([server["command"], *server["args"]], user_home)
    served = _serve(command, _client_env(user_home, server["env"]), tmp_path, tmp_path / "err")
    assert served == (["memory"], LISTING, False), (tmp_path / "err").read_text()
    session = server["env"]["MEMVAULT_SESSION"]
    assert _audited(*vault, session=session) == [("jane", session, "view")]
    _verified(*vault)


# -- memvault chat -------------------------------------------------------------------------


def test_the_chat_line_answers_from_stdin_and_keeps_the_note(tmp_path: Path) -> None:
    """The chat lines, run as a shell runs them (the exports in the environment) in a fresh
    directory, the endpoint as the API: a piped message is answered on stdout, the note is
    kept in ./vault, exit 0."""
    (block,) = blocks("`memvault chat --user U`", "sh", 1)
    exports = dict(
        line.removeprefix("export ").split("=", 1)
        for line in block.text.splitlines()
        if line.startswith("export ")
    )
    (line,) = [line for line in block.text.splitlines() if not line.startswith("export ")]
    note, text = "/memories/preferences.md", "- prefers e-mail\n"
    answer = "Noted: you prefer e-mail."
    turns = _script("I prefer e-mail.", note, text, answer)
    env = _client_env(tmp_path, exports)  # the key as written: the endpoint takes any
    env["XDG_CONFIG_HOME"] = os.environ["XDG_CONFIG_HOME"]  # where this test finds the key
    with ScriptedEndpoint(turns) as endpoint:
        done = subprocess.run(
            _command(shlex.split(line), tmp_path),
            input="I prefer e-mail.\n",
            env={**env, "ANTHROPIC_BASE_URL": endpoint.url},
            cwd=tmp_path,
            capture_output=True,
            text=True,
            check=False,
            timeout=60,
        )
    assert (done.returncode, done.stdout) == (0, answer + "\n"), done.stderr
    assert endpoint.finished and endpoint.failures == []
    assert f"  memory create {note}" in done.stderr.splitlines()
    assert _stored(tmp_path / "vault", "alice", note) == _shown(note, text)
    _verified("--home", str(tmp_path / "vault"))
