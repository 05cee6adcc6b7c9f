"""The store: where the vault's rows live. It sees ciphertexts, keyed tokens and structure only."""

from ._sqlite import Durability, Store

__all__ = ["Durability", "Store"]
