"""Adapters that put the memory protocol in front of an agent framework."""

from ._async import AsyncMemoryTool
from ._sdk import MemoryTool

__all__ = ["AsyncMemoryTool", "MemoryTool"]
