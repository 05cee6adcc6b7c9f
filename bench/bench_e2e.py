"""What a memory tool call costs end to end: the anthropic client's tool runner, over HTTP.

Run by hand; it prints figures and asserts nothing about them::

    .venv/bin/python bench/bench_e2e.py [--quick] [--json FILE] [--seed N] [--dir DIR]
                                        [--durability full|normal]

Six tool runners play the same scripted conversations, each against its own
``memvault.agent.ScriptedEndpoint`` (a Messages API on 127.0.0.1 that plays the
model's turns and checks every request; real HTTP, the connection kept alive):

* memvault: ``Vault.memory_tool(user)`` in ``client.beta.messages.tool_runner`` of a
  sync ``anthropic.Anthropic``;
* sdk: the SDK's ``BetaLocalFilesystemMemoryTool`` (plain files), the same runner;
* memvault async: ``Vault.async_memory_tool(user)`` in the tool runner of
  ``anthropic.AsyncAnthropic``;
* sdk async: ``BetaAsyncLocalFilesystemMemoryTool``, the same async runner;
* no-op and no-op async: a tool that does no work, one per runner (below).

A conversation is the request ``memvault chat`` sends (the model, the memory protocol
prompt, context editing, threaded), then one memory call per reply, the calls of a
session: a view of ``/memories`` (two levels: 10 directories, 100 notes), then
``bench_commands``' iteration (a view of a note, of a topic directory, the create of a
new note, a str_replace, an insert, a rename and a delete of it, so every conversation
finds the same notes), then a text reply: 9 requests, 8 calls. One call a reply: a
model reads a memory before it decides the next (the protocol begins with a view of
``/memories``), and it is where the round trip weighs most on each call; several
calls in one reply would share a round trip, not change what the tool adds to a call.
Each vault (one per memvault tool, in durability ``full``, memvault's default, or
``--durability``) and each base directory holds one user's 10 topic directories of 10
notes of 2 KB.

What the rows measure (``time.perf_counter_ns``):

* call: the tool's ``call`` as the runner makes it (the bench shadows the tool's
  ``call`` with a timed one): the command itself for the sync tools; for memvault's
  async tool also the hop to the vault's store thread and back to the event loop; for
  the SDK's async tool its hops to worker threads;
* turn: one step of the runner (``next(runner)``, ``await runner.__anext__()``): the
  last reply's call, its result appended, the next request sent and its reply read,
  checked and parsed: one call and one round trip. "added" is a tool's median turn less
  the no-op's on the same runner: the call's cost end to end, with whatever it does to
  the round trip around it;
* first request: the step before any call, the round trip alone, on every side;
* conversation: its ten steps summed, the first request to the runner's end (building
  the runner is not timed). Its "added per call" is (tool - no-op) / 8.

The no-op tool answers each call with the SDK tool's answer to the same command,
recorded before the run on a copy of the notes, so that its requests carry the same
bytes as the others': its turn is the round trip with no tool work, the baseline of
every "added". The endpoints check every result: no error, and a text both backends
write (the path in a listing, ``File created successfully at: <path>``, ...).

How: at every iteration each of the six starts a new conversation; they take turns in
a new shuffled order (seeded, printed), step by step: the first request on each, then
the first call on each, and so on, so that noise falls on all alike. Warm-up
iterations are dropped; the collector runs between iterations only.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import itertools
import random
import sys
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import anthropic
from anthropic.lib.tools import BetaAbstractMemoryTool, BetaAsyncAbstractMemoryTool
from anthropic.tools.memory import (
    BetaAsyncLocalFilesystemMemoryTool,
    BetaLocalFilesystemMemoryTool,
)
from bench_commands import (
    CREATE,
    DELETE,
    INSERT,
    NOTES_PER_TOPIC,
    RENAME,
    STR_REPLACE,
    TOPICS,
    VIEW_DIR,
    VIEW_FILE,
    Command,
    Mode,
    Step,
    iteration_steps,
    note_path,
    ratio,
    run_scratch,
    summarize,
    sync_latency,
    user_notes,
)

from memvault import Vault
from memvault.agent import (
    CONTEXT_MANAGEMENT_BETA,
    ContextEditing,
    Expect,
    ScriptedEndpoint,
    Settings,
    Turn,
    ok,
)

USER = "user-042"
NOTES_SEED = 42_000
PROMPT = "Please keep track of what we settle in this session."
VIEW_ROOT = "view /memories (10x10)"
CALLS = (VIEW_ROOT, VIEW_FILE, VIEW_DIR, CREATE, STR_REPLACE, INSERT, RENAME, DELETE)
FIRST = "first request (no call)"
ROWS = (FIRST, *CALLS)  # one per step that ends with a reply; then the runner's end
CONVERSATION = "conversation"

NOOP, SDK, MEMVAULT = "no-op", "sdk", "memvault"
SYNC = (NOOP, SDK, MEMVAULT)
ASYNC = tuple(f"{name} async" for name in SYNC)
RUNNERS = {
    "sync": (SYNC, "anthropic.Anthropic; sdk = BetaLocalFilesystemMemoryTool, "
             "memvault = Vault.memory_tool"),
    "async": (ASYNC, "anthropic.AsyncAnthropic; sdk = BetaAsyncLocalFilesystemMemoryTool, "
              "memvault = Vault.async_memory_tool"),
}  # fmt: skip


@dataclass(frozen=True)
class Plan:
    warmup: int
    iterations: int
    sync_probes: int


FULL = Plan(warmup=20, iterations=600, sync_probes=300)
QUICK = Plan(warmup=3, iterations=30, sync_probes=50)

# side -> "call" or "turn" -> row -> nanoseconds, one sample per conversation
Samples = dict[str, dict[str, dict[str, list[int]]]]


# -- the script ------------------------------------------------------------------------


def session_steps(i: int) -> list[Step]:
    return [(VIEW_ROOT, {"command": "view", "path": "/memories"}), *iteration_steps(i)]


def expect(label: str, command: Command) -> Expect:
    """What the result of ``command`` must hold: a text both backends write."""
    path = command.get("path", "")
    texts = {
        VIEW_ROOT: note_path(TOPICS - 1, NOTES_PER_TOPIC - 1),
        VIEW_FILE: f"Here's the content of {path} with line numbers:",
        VIEW_DIR: f"{path}/note-{NOTES_PER_TOPIC - 1:02d}.md",
        CREATE: f"File created successfully at: {path}",
        STR_REPLACE: "status: reviewed",
        INSERT: f"The file {path} has been edited.",
        RENAME: f"Successfully renamed {command.get('old_path')} to {command.get('new_path')}",
        DELETE: f"Successfully deleted {path}",
    }
    return ok(texts[label])


def conversation_turns(i: int) -> list[Turn]:
    """The model's side of conversation ``i``: a call a reply, then a text."""
    steps = session_steps(i)
    turns = [Turn(calls=(steps[0][1],), user=PROMPT)]
    for (label, command), (_, following) in itertools.pairwise(steps):
        turns.append(Turn(calls=(following,), results=(expect(label, command),)))
    turns.append(Turn(text="Noted.", results=(expect(*steps[-1]),)))
    return turns


def request() -> dict[str, Any]:
    """What ``memvault chat`` sends besides the tool: model, prompt, context editing."""
    settings = Settings()
    return {
        "model": settings.model,
        "max_tokens": settings.max_tokens,
        "system": settings.system,
        "messages": [{"role": "user", "content": PROMPT}],
        "betas": [CONTEXT_MANAGEMENT_BETA],
        "context_management": ContextEditing().param(),
    }


# -- the tools -------------------------------------------------------------------------

Answers = Sequence[tuple[str, str]]  # (command, the reference's result), in script order


class Canned(BetaAbstractMemoryTool):
    """The no-op tool: every call answered with the next recorded answer, no work."""

    def __init__(self, answers: Answers) -> None:
        super().__init__()
        self._answers = iter(answers)

    def call(self, input: object) -> str:
        command, text = next(self._answers)
        assert isinstance(input, dict) and input.get("command") == command, input
        return text

    def _unused(self, command: Any) -> str:
        raise NotImplementedError("call answers every command")

    view = create = str_replace = insert = delete = rename = _unused


class AsyncCanned(BetaAsyncAbstractMemoryTool):
    """The no-op tool for the async runner."""

    def __init__(self, answers: Answers) -> None:
        super().__init__()
        self._answers = iter(answers)

    async def call(self, input: object) -> str:
        command, text = next(self._answers)
        assert isinstance(input, dict) and input.get("command") == command, input
        return text

    async def _unused(self, command: Any) -> str:
        raise NotImplementedError("call answers every command")

    view = create = str_replace = insert = delete = rename = _unused


def record_answers(base: Path, conversations: int) -> list[tuple[str, str]]:
    """The SDK tool's answers to every call of the run, on its own copy of the notes."""
    tool = BetaLocalFilesystemMemoryTool(base_path=str(base))
    for command in user_notes(NOTES_SEED):
        tool.call(command)
    return [
        (command["command"], str(tool.call(command)))
        for i in range(conversations)
        for _, command in session_steps(i)
    ]


class Side(ABC):
    """One tool in its runner, one conversation at a time, stepped by the bench.

    ``call_ns`` is the last call's time: the tool's ``call`` is shadowed by a timed one
    (an instance attribute, which the runner's ``tool.call(...)`` finds first).

    ``reply``, the last reply, outlives its conversation, as an application's replies
    do: the SDK parses replies into ``ParsedBetaMessage[ResponseFormatT]``, a generic
    pydantic class that pydantic's cache holds only weakly. Collected between two
    conversations (which the collection between iterations would do), it is built again
    at the next reply: 20 to 40 ms here, once an iteration, on whichever side came first.
    """

    def __init__(self, name: str, tool: Any, endpoint: ScriptedEndpoint) -> None:
        self.name = name
        self.tool = tool
        self.endpoint = endpoint
        self.call_ns: int | None = None
        self.reply: object = None
        self._runner: Any = None
        tool.call = self._timed(tool.call)

    def _timed(self, call: Callable[[object], Any]) -> Callable[[object], Any]:
        def timed(input: object) -> Any:
            start = time.perf_counter_ns()
            try:
                return call(input)
            finally:
                self.call_ns = time.perf_counter_ns() - start

        return timed

    @abstractmethod
    def begin(self) -> None:
        """A new conversation: a new runner."""

    @abstractmethod
    async def step(self) -> bool:
        """One step of the runner; False once the conversation is over."""

    def end(self) -> None:
        self._runner = None

    @abstractmethod
    async def close(self) -> None:
        """Close the client."""


class SyncSide(Side):
    def __init__(self, name: str, tool: Any, endpoint: ScriptedEndpoint) -> None:
        super().__init__(name, tool, endpoint)
        self._client = anthropic.Anthropic(api_key="scripted", base_url=endpoint.url, max_retries=0)

    def begin(self) -> None:
        self._runner = self._client.beta.messages.tool_runner(tools=[self.tool], **request())

    async def step(self) -> bool:
        try:
            self.reply = next(self._runner)
        except StopIteration:
            return False
        return True

    async def close(self) -> None:
        self._client.close()


class AsyncSide(Side):
    def __init__(self, name: str, tool: Any, endpoint: ScriptedEndpoint) -> None:
        super().__init__(name, tool, endpoint)
        self._client = anthropic.AsyncAnthropic(
            api_key="scripted", base_url=endpoint.url, max_retries=0
        )

    def _timed(self, call: Callable[[object], Any]) -> Callable[[object], Any]:
        async def timed(input: object) -> Any:
            start = time.perf_counter_ns()
            try:
                return await call(input)
            finally:
                self.call_ns = time.perf_counter_ns() - start

        return timed

    def begin(self) -> None:
        self._runner = self._client.beta.messages.tool_runner(tools=[self.tool], **request())

    async def step(self) -> bool:
        try:
            self.reply = await self._runner.__anext__()
        except StopAsyncIteration:
            return False
        return True

    async def close(self) -> None:
        await self._client.close()


# -- timing ----------------------------------------------------------------------------


async def conversations(order: Sequence[Side]) -> dict[str, tuple[list[int], list[int]]]:
    """One conversation on every side, step by step in ``order``: per side, each step's
    time and the time of the call it ran (0 for the first request and the end)."""
    steps: dict[str, tuple[list[int], list[int]]] = {side.name: ([], []) for side in order}
    for side in order:
        side.begin()
    for step in range(len(ROWS) + 1):
        for side in order:
            side.call_ns = None
            start = time.perf_counter_ns()
            more = await side.step()
            elapsed = time.perf_counter_ns() - start
            assert more == (step < len(ROWS)), (side.name, step)
            assert (side.call_ns is None) == (step in (0, len(ROWS))), (side.name, step)
            steps[side.name][0].append(elapsed)
            steps[side.name][1].append(side.call_ns or 0)
    for side in order:
        side.end()
    return steps


async def measure(sides: Sequence[Side], plan: Plan, rng: random.Random) -> Samples:
    samples: Samples = {
        side.name: {kind: {row: [] for row in (*ROWS, CONVERSATION)} for kind in ("call", "turn")}
        for side in sides
    }
    gc.collect()
    gc.disable()
    try:
        for i in range(plan.warmup + plan.iterations):
            order = list(sides)
            rng.shuffle(order)
            got = await conversations(order)
            if i >= plan.warmup:
                for name, (turns, calls) in got.items():
                    for kind, values in (("turn", turns), ("call", calls)):
                        # the last step, the runner's end, counts in the conversation only
                        for row, ns in zip(ROWS, values, strict=False):
                            samples[name][kind][row].append(ns)
                        samples[name][kind][CONVERSATION].append(sum(values))
            gc.collect(generation=0)  # the conversations' garbage, out of every timed step
    finally:
        gc.enable()
    return samples


async def run_pass(
    root: Path, homes: Sequence[Path], plan: Plan, seed: int, durability: Mode
) -> Samples:
    total = plan.warmup + plan.iterations
    script = [turn for i in range(total) for turn in conversation_turns(i)]
    answers = record_answers(root / "canned", total)
    with ExitStack() as stack:
        vaults = [stack.enter_context(Vault.open(home, durability=durability)) for home in homes]
        tools: list[tuple[type[Side], str, Any]] = [
            (SyncSide, NOOP, Canned(answers)),
            (SyncSide, SDK, BetaLocalFilesystemMemoryTool(str(root / "sdk"))),
            (SyncSide, MEMVAULT, vaults[0].memory_tool(user=USER)),
            (AsyncSide, ASYNC[0], AsyncCanned(answers)),
            (AsyncSide, ASYNC[1], BetaAsyncLocalFilesystemMemoryTool(str(root / "sdk-async"))),
            (AsyncSide, ASYNC[2], vaults[1].async_memory_tool(user=USER)),
        ]
        sides = [
            kind(name, tool, stack.enter_context(ScriptedEndpoint(script)))
            for kind, name, tool in tools
        ]
        try:
            samples = await measure(sides, plan, random.Random(seed))
        finally:
            for side in sides:
                await side.close()
        for side in sides:
            assert side.endpoint.finished and not side.endpoint.failures, side.name
    print(f"order: a new shuffle of the six at every iteration, step by step, seed {seed}")
    return samples


def build(root: Path, homes: Sequence[Path]) -> None:
    for home in homes:
        # "normal" only to build faster; the pass opens the vaults in its own mode.
        with Vault.open(home, durability="normal") as vault:
            tool = vault.memory_tool(user=USER)
            for command in user_notes(NOTES_SEED):
                tool.call(command)
    for base in ("sdk", "sdk-async"):
        reference = BetaLocalFilesystemMemoryTool(base_path=str(root / base))
        for command in user_notes(NOTES_SEED):
            reference.call(command)


# -- reporting -------------------------------------------------------------------------


def row_figures(samples: Samples, names: Sequence[str], row: str) -> dict[str, dict[str, float]]:
    """Medians and p99s (µs) of one row on one runner; ``names`` = (no-op, sdk, memvault)."""
    noop, *tools = names
    out: dict[str, dict[str, float]] = {}
    for kind in ("call", "turn"):
        got = {name: summarize(samples[name][kind][row]) for name in names}
        out[f"{kind}_median_us"] = {name: got[name].median_us for name in names}
        out[f"{kind}_p99_us"] = {name: got[name].p99_us for name in names}
    turn = out["turn_median_us"]
    out["added_median_us"] = {name: turn[name] - turn[noop] for name in tools}
    return out


def fmt(value: float | None, width: int, digits: int = 0) -> str:
    return f"{'-':>{width}}" if value is None else f"{value:>{width},.{digits}f}"


def print_runner(runner: str, samples: Samples) -> dict[str, Any]:
    """The runner's two tables, medians then p99s; returns the figures."""
    names, what = RUNNERS[runner]
    noop, sdk, mv = names
    figures: dict[str, Any] = {
        row: row_figures(samples, names, row) for row in (*ROWS, CONVERSATION)
    }
    print(f"\n{runner} runner: {what}")
    calls = f"{'call: sdk':>10}{'mv':>8}{'mv/sdk':>7}   {'turn: no-op':>11}{'sdk':>8}{'mv':>8}"
    header = f"{calls}{'mv/sdk':>7}   {'added: sdk':>10}{'mv':>8}{'mv/sdk':>7}"
    print(f"{'median, µs':<26}{header}")
    print("-" * (26 + len(header)))
    for row, got in figures.items():
        call, turn, added = got["call_median_us"], got["turn_median_us"], got["added_median_us"]
        first = row == FIRST
        print(
            f"{row:<26}{fmt(None if first else call[sdk], 10)}{fmt(None if first else call[mv], 8)}"
            f"{fmt(None if first else ratio(call[mv], call[sdk]), 7, 2)}   "
            f"{fmt(turn[noop], 11)}{fmt(turn[sdk], 8)}{fmt(turn[mv], 8)}"
            f"{fmt(ratio(turn[mv], turn[sdk]), 7, 2)}   {fmt(added[sdk], 10)}{fmt(added[mv], 8)}"
            f"{fmt(None if first else ratio(added[mv], added[sdk]), 7, 2)}"
        )
    tails = f"{calls}{'mv/sdk':>7}   {'mv p99/median: call':>19}{'turn':>6}{'n':>6}"
    print(f"\n{'p99, µs':<26}{tails}")
    print("-" * (26 + len(tails)))
    for row, got in figures.items():
        call, turn = got["call_p99_us"], got["turn_p99_us"]
        first = row == FIRST
        print(
            f"{row:<26}{fmt(None if first else call[sdk], 10)}{fmt(None if first else call[mv], 8)}"
            f"{fmt(None if first else ratio(call[mv], call[sdk]), 7, 2)}   "
            f"{fmt(turn[noop], 11)}{fmt(turn[sdk], 8)}{fmt(turn[mv], 8)}"
            f"{fmt(ratio(turn[mv], turn[sdk]), 7, 2)}   "
            f"{fmt(None if first else call[mv] / got['call_median_us'][mv], 19, 2)}"
            f"{fmt(turn[mv] / got['turn_median_us'][mv], 6, 2)}{len(samples[mv]['turn'][row]):>6}"
        )
    whole = figures[CONVERSATION]
    per_call = {name: whole["added_median_us"][name] / len(CALLS) for name in (sdk, mv)}
    share = {name: whole["call_median_us"][name] / whole["turn_median_us"][name] for name in names}
    whole["added_per_call_us"] = per_call
    print(
        f"a conversation: {len(ROWS)} requests, {len(CALLS)} calls. Added per call: sdk "
        f"{per_call[sdk]:,.0f} µs, memvault {per_call[mv]:,.0f} µs. The calls' share of it: "
        f"sdk {share[sdk]:.0%}, memvault {share[mv]:.0%}.\nA round trip with no tool work "
        f"(the no-op's first request): {figures[FIRST]['turn_median_us'][noop]:,.0f} µs"
    )
    return figures


def print_legend() -> None:
    print(
        "\ncall = the tool's call as the runner makes it; turn = one runner step: that call, "
        "its result sent,\nthe next reply read (one round trip); added = turn - the no-op "
        "tool's turn (medians); the no-op\nanswers from a table: the sdk tool's bytes, no "
        "work. conversation = its steps summed (each figure\nis over conversations, not a "
        "sum of the rows above); n = conversations"
    )


# -- the run ---------------------------------------------------------------------------


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="far fewer samples (a smoke run)")
    parser.add_argument("--json", metavar="FILE", type=Path, help="write the raw figures here")
    parser.add_argument("--seed", type=int, default=None, help="the order's seed (default: random)")
    parser.add_argument(
        "--durability",
        choices=("full", "normal"),
        default="full",
        help="the vaults' durability (default: full, memvault's own default)",
    )
    parser.add_argument(
        "--dir",
        metavar="DIR",
        type=Path,
        help="where to make the temporary directory (default: the system's); "
        "pick a real disk, not a tmpfs",
    )
    return parser.parse_args(argv)


def _run(args: argparse.Namespace, root: Path, clock: Callable[[], float]) -> dict[str, Any]:
    plan = QUICK if args.quick else FULL
    seed = args.seed if args.seed is not None else random.randrange(1 << 32)
    homes = (root / "memvault", root / "memvault-async")
    print(
        f"building two vaults and two base directories of {TOPICS * NOTES_PER_TOPIC} notes "
        "of 2 KB ...",
        flush=True,
    )
    build(root, homes)
    sync = sync_latency(root, plan.sync_probes)
    print(
        f"  built in {clock():.0f} s; {plan.warmup} warm-up + {plan.iterations} conversations "
        f"per tool; vaults in durability {args.durability!r}\n  disk floor, 4 KB write + "
        f"fdatasync: median {sync.median_us:.0f}, p99 {sync.p99_us:.0f} µs",
        flush=True,
    )
    samples = asyncio.run(run_pass(root, homes, plan, seed, args.durability))
    figures = {runner: print_runner(runner, samples) for runner in RUNNERS}
    print_legend()
    return {
        "seed": seed,
        "plan": asdict(plan),
        "durability": args.durability,
        "sync_probe_us": asdict(sync),
        "runners": figures,
        "samples_ns": samples,
    }


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    return run_scratch("memvault-bench-e2e-", args, lambda root, clock: _run(args, root, clock))


if __name__ == "__main__":
    sys.exit(main())
