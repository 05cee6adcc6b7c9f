"""The store: where a vault's rows live. It sees ciphertexts, keyed tokens and structure only.

:class:`Store` is the interface the layers above use, with its promises;
:class:`SqliteStore` is the embedded implementation, :class:`PgStore` the one on a
PostgreSQL server.
"""

from ._dsn import describe_dsn, is_dsn
from ._pg import PgStore
from ._pg_migrate import Migration
from ._pg_schema import DEFAULT_CHAINS, MAX_CHAINS, PG_SCHEMA_VERSION
from ._protocol import Durability, LogStore, NodeRow, StaleRow, Store, SubtreeRow, UserWraps
from ._rows_log import ARCHIVE, CHAIN_BITS, chain_of_seq, chain_range
from ._schema import SCHEMA_VERSION
from ._sqlite import SqliteStore

__all__ = [
    "ARCHIVE",
    "CHAIN_BITS",
    "DEFAULT_CHAINS",
    "MAX_CHAINS",
    "PG_SCHEMA_VERSION",
    "SCHEMA_VERSION",
    "Durability",
    "LogStore",
    "Migration",
    "NodeRow",
    "PgStore",
    "SqliteStore",
    "StaleRow",
    "Store",
    "SubtreeRow",
    "UserWraps",
    "chain_of_seq",
    "chain_range",
    "describe_dsn",
    "is_dsn",
]
