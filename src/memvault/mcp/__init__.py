"""The memory tool for MCP clients (``memvault mcp``): one tool, ``memory``, over stdio.

Another thin shell over :class:`memvault.memory.Runner`, like the SDK tool and
``memvault exec``: the same guard, redaction, audit and encryption, and the same strings.
Importing this package imports the ``mcp`` SDK; only the ``mcp`` command does.
"""

from ._protocol import ANNOTATIONS, DESCRIPTION, INPUT_SCHEMA, INSTRUCTIONS, TOOL_NAME
from ._server import EOF, GONE, SERVER_NAME, build_server, result_of, serve

__all__ = [
    "ANNOTATIONS",
    "DESCRIPTION",
    "EOF",
    "GONE",
    "INPUT_SCHEMA",
    "INSTRUCTIONS",
    "SERVER_NAME",
    "TOOL_NAME",
    "build_server",
    "result_of",
    "serve",
]
