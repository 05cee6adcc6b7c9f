"""The store: where a vault's rows live. It sees ciphertexts, keyed tokens and structure only.

:class:`Store` is the interface the layers above use, with its promises;
:class:`SqliteStore` is the embedded implementation, :class:`PgStore` the one on a
PostgreSQL server.
"""

from ._pg import PgStore
from ._protocol import Durability, NodeRow, StaleRow, Store, SubtreeRow, UserWraps
from ._schema import SCHEMA_VERSION
from ._sqlite import SqliteStore

__all__ = [
    "SCHEMA_VERSION",
    "Durability",
    "NodeRow",
    "PgStore",
    "SqliteStore",
    "StaleRow",
    "Store",
    "SubtreeRow",
    "UserWraps",
]
