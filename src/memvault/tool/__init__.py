"""Adapters that put the memory protocol in front of an agent framework."""

from ._sdk import MemoryTool

__all__ = ["MemoryTool"]
