"""The memory protocol prompt, as the memory tool's documentation gives it ("Prompting
guidance"): what the Messages API adds to the system prompt when the built-in tool is
included. Adapters that reach Claude without it (an MCP server's instructions, a chat's
system prompt) send it themselves, word for word."""

from __future__ import annotations

MEMORY_PROTOCOL_PROMPT = """\
IMPORTANT: ALWAYS VIEW YOUR MEMORY DIRECTORY BEFORE DOING ANYTHING ELSE.
MEMORY PROTOCOL:
1. Use the `view` command of your `memory` tool to check for earlier progress.
2. ... (work on the task) ...
     - As you make progress, record status / progress / thoughts etc in your memory.
ASSUME INTERRUPTION: Your context window might be reset at any moment, so you risk \
losing any progress that is not recorded in your memory directory."""
