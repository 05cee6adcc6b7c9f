"""Random command sequences give the same answers from the vault and the protocol model (§2-§7)."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest
from anthropic.lib.tools import ToolError
from hypothesis import HealthCheck, event, note, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    rule,
    run_state_machine_as_test,
)

from memvault import Vault
from tests.support.spec_model import ROOT, SpecModel, key_of, text_of

pytestmark = pytest.mark.slow

# Few names, so that commands keep running into each other's paths; two are hidden.
NAMES = ("a", "b", "notes.md", ".hidden", "node_modules", "dir")
LINES = ("alpha", "beta", "", "alpha beta", "aa", "ünï ✓ 🙂", "tab\there", "cr\r", "a", "é" * 350)
# Low enough that long texts sometimes run into it, so the limit is compared too.
MAX_FILE_BYTES = 4096

random_paths = st.lists(st.sampled_from(NAMES), min_size=1, max_size=3).map(
    lambda names: "/".join((ROOT, *names))
)
texts = st.builds(
    lambda lines, final: "\n".join(lines) + ("\n" if final and lines else ""),
    st.lists(st.sampled_from(LINES), max_size=6),
    st.booleans(),
)
short_strings = st.sampled_from(["", "a", "aa", "alpha", "\n", "beta\n", "zzz", "\r", "🙂"])


def run_tool(tool: Any, command: dict[str, Any]) -> tuple[bool, str]:
    try:
        return False, tool.call(command)
    except ToolError as exc:
        return True, exc.content


class VaultAgainstModel(RuleBasedStateMachine):
    """Every command goes to a fresh vault and to the model; the answers must be equal."""

    def __init__(self) -> None:
        super().__init__()
        self.tmp = tempfile.TemporaryDirectory()
        self.home = Path(self.tmp.name) / "home"
        self.key_file = Path(self.tmp.name) / "keys" / "master.key"
        self.vault = Vault.open(
            self.home,
            master_key_file=self.key_file,
            max_file_bytes=MAX_FILE_BYTES,
            durability="normal",
        )
        self.tool = self.vault.memory_tool(user="alice")
        self.model = SpecModel(max_file_bytes=MAX_FILE_BYTES)

    # -- drawing inputs from the current state --------------------------------------------

    def path(self, data: st.DataObject, *, kind: str = "any") -> str:
        known = sorted(self.model.files) if kind == "file" else []
        if kind == "any":
            known = sorted({*self.model.files, *self.model.dirs} - {()})
        if known and data.draw(st.integers(0, 3)) > 0:
            return text_of(data.draw(st.sampled_from(known)))
        return data.draw(random_paths)

    def check(self, command: dict[str, Any]) -> None:
        note(repr(command))
        expected = self.model.run(command)
        words = expected[1].split()[:6] if expected[0] else ["ok"]
        event(command["command"] + ": " + " ".join("P" if ROOT in w else w for w in words))
        assert run_tool(self.tool, command) == expected

    # -- the six commands -------------------------------------------------------------

    @initialize(files=st.lists(st.tuples(random_paths, texts), min_size=1, max_size=3))
    def seed(self, files: list[tuple[str, str]]) -> None:
        for path, text in files:
            self.check({"command": "create", "path": path, "file_text": text})

    @rule(data=st.data())
    def view(self, data: st.DataObject) -> None:
        path = data.draw(st.sampled_from([ROOT, ROOT + "/", "path", "path", "path", "path/"]))
        if path.startswith("path"):
            path = self.path(data) + path[len("path") :]
        command: dict[str, Any] = {"command": "view", "path": path}
        if key_of(path) in self.model.dirs and data.draw(st.integers(0, 9)) == 0:
            command["view_range"] = [1, -1]
        if key_of(path) in self.model.files and data.draw(st.integers(0, 2)) > 0:
            n = self.model.line_count(key_of(path))
            start = data.draw(st.integers(1, n))
            shape = data.draw(st.sampled_from(["inside", "inside", "to end", "past end", "bad"]))
            if shape == "inside":
                end = data.draw(st.integers(start, n))
            elif shape == "to end":
                end = -1
            elif shape == "past end":
                end = data.draw(st.integers(n + 1, n + 3))
            else:
                bad = [(0, n), (0, -1), (-1, -1), (n + 1, -1), (n + 1, n + 2), (start, start - 1)]
                start, end = data.draw(st.sampled_from([*bad, (start, -2)]))
            command["view_range"] = [start, end]
        self.check(command)

    @rule(data=st.data(), text=texts)
    def create(self, data: st.DataObject, text: str) -> None:
        self.check({"command": "create", "path": self.path(data), "file_text": text})

    @rule(data=st.data(), new=st.one_of(texts, short_strings))
    def str_replace(self, data: st.DataObject, new: str) -> None:
        path = self.path(data, kind="file")
        old = data.draw(short_strings)
        text = self.model.files.get(key_of(path), "")
        if text and data.draw(st.integers(0, 3)) > 0:
            i = data.draw(st.integers(0, len(text) - 1))
            j = data.draw(st.integers(i + 1, min(len(text), i + 12)))
            old = text[i:j]
        self.check({"command": "str_replace", "path": path, "old_str": old, "new_str": new})

    @rule(data=st.data(), insert_text=st.one_of(texts, short_strings))
    def insert(self, data: st.DataObject, insert_text: str) -> None:
        path = self.path(data, kind="file")
        key = key_of(path)
        n = self.model.insert_range(key) if key in self.model.files else 3
        line = data.draw(st.integers(-1, n + 1))
        self.check(
            {"command": "insert", "path": path, "insert_line": line, "insert_text": insert_text}
        )

    @rule(data=st.data())
    def delete(self, data: st.DataObject) -> None:
        path = data.draw(st.sampled_from(["path", "path", "path", ROOT, ROOT + "/"]))
        if path == "path":
            path = self.path(data)
        self.check({"command": "delete", "path": path})

    @rule(data=st.data())
    def rename(self, data: st.DataObject) -> None:
        old = self.path(data)
        where = data.draw(st.sampled_from(["anywhere", "anywhere", "below", "root"]))
        if where == "anywhere":
            new = self.path(data)
        elif where == "below":
            new = old + "/" + data.draw(st.sampled_from(NAMES))
        else:
            new = ROOT
        self.check({"command": "rename", "old_path": old, "new_path": new})

    # -- persistence ------------------------------------------------------------------

    def teardown(self) -> None:
        """Re-open the vault: every directory listing and every file reads as the model's."""
        try:
            self.vault.close()
            with Vault.open(self.home, master_key_file=self.key_file) as reopened:
                tool = reopened.memory_tool(user="alice")
                for key in sorted({*self.model.files, *self.model.dirs}):
                    command = {"command": "view", "path": text_of(key)}
                    assert run_tool(tool, command) == self.model.run(command)
        finally:
            self.tmp.cleanup()


def test_vault_answers_as_the_model() -> None:
    """250 random sequences of up to 25 commands: the vault answers exactly as the model."""
    run_state_machine_as_test(
        VaultAgainstModel,
        settings=settings(
            max_examples=250,
            stateful_step_count=25,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        ),
    )
