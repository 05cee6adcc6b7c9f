"""``memvault demo``: the memory tool documentation's customer-service example, played
through the ``anthropic`` SDK's tool runner on a fresh vault, then what the vault made of it.

Without ``--live`` Claude's side is a script (``_session``) that a Messages API
endpoint on loopback plays; the client, the tool runner, HTTP and the vault are
all real. With ``--live`` the same conversation goes to Claude.
"""

from __future__ import annotations

import io
import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import IO

from .._vault import Vault
from ..errors import IntegrityError, UsageError
from . import _session as script
from ._display import Show, describe_call, findings_text, plural

ENV_KEY = "ANTHROPIC_API_KEY"
_WRITES = ("create", "str_replace", "insert")


def run(out: IO[str], *, keep: bool = False, live: bool = False, model: str | None = None) -> int:
    api_key = os.environ.get(ENV_KEY, "").strip()
    if live and not api_key:
        raise UsageError(
            f"--live needs {ENV_KEY}: the demo talks to Claude through the Anthropic API",
            hint=f"export {ENV_KEY}, or leave out --live to play the scripted conversation",
        )
    started = time.monotonic()
    workdir = Path(tempfile.mkdtemp(prefix="memvault-demo-"))
    show = Show(out)
    demo = _Demo(show, workdir, api_key=api_key if live else None, model=model)
    try:
        demo.run()
    finally:
        if keep:
            show.blank()
            show.line("Kept: home ", (str(demo.home), "bold"), ", master key ", str(demo.key))
            show.line(f"  memvault --home {demo.home} --master-key-file {demo.key} audit show")
        else:
            shutil.rmtree(workdir, ignore_errors=True)
    show.blank()
    show.line((f"Done in {time.monotonic() - started:.1f} s.", "bold green"), " Next:")
    show.line(f"  memvault chat --user alice   a conversation with Claude (needs ${ENV_KEY})")
    show.line("  memvault exec --user alice   memory commands as JSON lines on stdin")
    return 0


class _Demo:
    def __init__(self, show: Show, workdir: Path, *, api_key: str | None, model: str | None):
        self.show = show
        self.home = workdir / "home"
        self.key = workdir / "keys" / "master.key"
        self.api_key = api_key
        self.model = model

    def run(self) -> None:
        self.show.line(("memvault demo", "bold"), ": Claude's memory tool on an encrypted vault")
        with Vault.open(self.home, master_key_file=self.key) as vault:
            self._setup(vault)
            written = self._talk(vault)
            self._stored(vault, written)
            self._trail(vault)
        self._verify()
        self._disk()

    def _setup(self, vault: Vault) -> None:
        self.show.heading("1. A fresh vault, holding the support team's guidelines")
        self.show.line("   home  ", str(self.home), ("   the data, ciphertext only", "dim"))
        self.show.line("   key   ", str(self.key), ("   outside the home, mode 0600", "dim"))
        team = vault.runner(script.USER, session="demo-setup")
        for path, text in script.SEEDS.items():
            reply = team.run({"command": "create", "path": path, "file_text": text})
            if reply.is_error:
                raise IntegrityError(f"the demo could not write {path}: {reply.content}")
            self.show.line("   ", path, (f"   {len(text.encode()):,} bytes", "dim"))

    def _talk(self, vault: Vault) -> list[str]:
        """The conversation; returns the paths Claude wrote to."""
        from ..agent import Conversation, ScriptedEndpoint, Settings

        endpoint = None if self.api_key else ScriptedEndpoint(script.turns()).start()
        self.show.heading("2. Claude answers a support ticket")
        where = (
            "the Messages API (--live)"
            if endpoint is None
            else f"a scripted Messages API at {endpoint.url} (--live: Claude)"
        )
        self.show.line((f"   the anthropic SDK's tool runner, over HTTP to {where}", "dim"))
        self.show.blank()
        self.show.block("user  ", script.TICKET, "bold cyan")
        settings = Settings(model=self.model) if self.model else Settings()
        runner = vault.runner(script.USER, session=script.SESSION)
        try:
            with Conversation(
                runner,
                api_key=self.api_key or "scripted",
                base_url=None if endpoint is None else endpoint.url,
                settings=settings,
                on_text=lambda text: self.show.block("claude", text, "bold magenta"),
                on_call=lambda call: self.show.block("memory", describe_call(call), "yellow"),
                max_retries=2 if endpoint is None else 0,
            ) as talk:
                talk.ask(script.TICKET)
        finally:
            if endpoint is not None:
                endpoint.close()
        if endpoint is not None:
            self.show.line(
                (f"   {plural(len(endpoint.requests), 'request')}, each checked by the endpoint: "
                 "the memory tool declared, every tool result sent back and as expected", "dim")
            )  # fmt: skip
        calls = talk.calls
        return list(dict.fromkeys(c.paths[0] for c in calls if c.command in _WRITES and c.paths))

    def _stored(self, vault: Vault, written: list[str]) -> None:
        self.show.heading("3. What the vault stored: filtered before it was encrypted")
        reader = vault.runner(script.USER)  # no session: this look is not the conversation's
        stored = ""
        for path in written:
            reply = reader.run({"command": "view", "path": path})
            if reply.is_error:
                continue
            stored += reply.content
            self.show.line("   ", (path, "bold"))
            for row in reply.content.split("\n")[1:]:
                self.show.line("   ", row.replace("\t", "  "))
        if not written:
            self.show.line("   Claude wrote no memory in this conversation.")
        secrets = (("e-mail address", script.EMAIL), ("card number", script.CARD),
                   ("API key", script.API_KEY))  # fmt: skip
        kept = [name for name, value in secrets if value in stored]
        if kept:
            raise IntegrityError(f"the stored text holds the ticket's {', '.join(kept)}")
        self.show.line(
            ("   the ticket's e-mail address, card number and API key: none is in what was "
             "stored", "green")
        )  # fmt: skip

    def _trail(self, vault: Vault) -> None:
        from ..audit import Scan, parse_filters

        self.show.heading(
            f"4. The conversation's audit trail (memvault audit show --session {script.SESSION})"
        )
        for entry in Scan(vault, parse_filters(session=script.SESSION)):
            paths = " -> ".join(entry.paths or ())
            found = findings_text(tuple((entry.findings or {}).items()))
            self.show.line(
                f"   {entry.seq:>3}  {entry.time[11:19]}  {entry.command:<11} {entry.outcome:<8} ",
                paths,
                (f"   filtered: {found}" if found else "", "yellow"),
            )
        self.show.line(
            ("   In the log's files the user is a keyed pseudonym and the paths are sealed; each "
             "record is chained to the one before it and carries a MAC.", "dim")
        )  # fmt: skip

    def _verify(self) -> None:
        from ._main import main

        out, err = io.StringIO(), io.StringIO()
        argv = ["--home", str(self.home), "--master-key-file", str(self.key), "audit", "verify"]
        code = main(argv, out=out, err=err)
        self.show.heading("5. The log verifies (memvault audit verify)")
        for row in out.getvalue().splitlines():
            self.show.line("   ", (row, "green" if code == 0 else "red"))
        if code != 0:
            raise IntegrityError(f"audit verify failed on the demo's log: {err.getvalue().strip()}")

    def _disk(self) -> None:
        self.show.heading("6. On disk: ciphertext only")
        files = sorted(p for p in self.home.rglob("*") if p.is_file())
        data = {p: p.read_bytes() for p in files}
        for path, blob in data.items():
            name = str(path.relative_to(self.home))
            self.show.line(f"   {name:<28}", (f"{len(blob):>10,} bytes", "dim"))
        found = [
            name
            for name, value in script.ON_DISK
            if any(value.encode() in b for b in data.values())
        ]
        total = sum(len(b) for b in data.values())
        self.show.line(f"   searched {total:,} bytes for {script.ON_DISK_TEXT}:")
        if found:
            raise IntegrityError(f"the home holds {', '.join(found)} in plaintext")
        self.show.line(("   none found", "bold green"))
        record = _create_record(data)
        if record:
            self.show.line("   the note's audit record, as written:")
            self.show.line(("   " + record, "dim"))


def _create_record(data: dict[Path, bytes]) -> str:
    """The log's line for the conversation's ``create``, cut after its sealed paths."""
    marker = f'"session":"{script.SESSION}","command":"create"'.encode()
    for path, blob in data.items():
        if path.parent.name == "audit" and marker in blob:
            line = next(x for x in blob.split(b"\n") if marker in x)
            text = line.decode("ascii", "replace")
            cut = text.find('"outcome"')
            return text[:cut] + "..." if cut > 0 else text[:240] + "..."
    return ""
