"""The PostgreSQL store's schema, in numbered steps that ``memvault db migrate`` applies.

Step 1 is the SQLite store's tables, in PostgreSQL's types: every BYTEA column is sealed
or keyed, as in ``_schema.py``; ids are BIGINT identities (from 1: a ``parent_id`` of 0
still means the user's ``/memories``). Step 2 is the audit log's table: the log of a
vault on PostgreSQL lives in its database, in chains (``audit/_db_log.py``).

The database's version is the ``meta`` row ``pg_schema`` (a database made before it
was kept has step 1 only). A vault opens only a database at :data:`PG_SCHEMA_VERSION`:
an older one must be migrated first, explicitly, by whoever may change its tables; a
newer one needs a newer memvault. The store's row format (``meta`` ``schema``) is
:data:`~memvault.store._schema.SCHEMA_VERSION` from step 1 on: PostgreSQL stores never
held an older format.
"""

from __future__ import annotations

PG_SCHEMA_VERSION = 2
DEFAULT_CHAINS = 16  # the audit log's chains of users' records (chain 0 is the operator's)
MAX_CHAINS = 1024

STORE_TABLES = (
    "CREATE TABLE IF NOT EXISTS meta ( key TEXT PRIMARY KEY, value BYTEA NOT NULL)",
    "CREATE TABLE IF NOT EXISTS users ("
    " id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,"
    " lookup BYTEA NOT NULL UNIQUE,"  # HMAC of the user name (master-derived key)
    " name BYTEA NOT NULL,"  # the user name, sealed
    " primary_version BIGINT NOT NULL,"
    " root BYTEA)",  # sealed: entries in /memories, bytes below it
    "CREATE TABLE IF NOT EXISTS data_keys ("
    " user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,"
    " version BIGINT NOT NULL,"
    " wrapped BYTEA NOT NULL,"  # the data key, sealed under the KEK
    " created BIGINT,"  # when it was made, in Unix time
    " PRIMARY KEY (user_id, version))",
    "CREATE TABLE IF NOT EXISTS nodes ("
    " id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,"
    " user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,"
    " parent_id BIGINT NOT NULL,"  # 0: the user's /memories
    " lookup BYTEA NOT NULL,"  # HMAC(index key, parent identity, name)
    " fid BYTEA NOT NULL,"  # random identity, bound into every ciphertext
    " meta BYTEA NOT NULL,"  # sealed: kind, size, content id or tally, name
    " key_version BIGINT NOT NULL,"
    " touched BYTEA,"  # sealed: the day it was last read or written
    " UNIQUE (user_id, parent_id, lookup))",
    # A user's nodes in id order: key rotation walks them in batches from a cursor.
    "CREATE INDEX IF NOT EXISTS nodes_by_user ON nodes (user_id, id)",
    "CREATE TABLE IF NOT EXISTS contents ("
    " node_id BIGINT PRIMARY KEY REFERENCES nodes(id) ON DELETE CASCADE,"
    " blob BYTEA NOT NULL)",  # the file text, sealed
    "CREATE TABLE IF NOT EXISTS audit_keys ("
    " user_id BIGINT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,"
    " wrapped BYTEA NOT NULL)",  # the user's audit key, sealed under the KEK
    "CREATE TABLE IF NOT EXISTS audit_pending ("
    " seq BIGINT PRIMARY KEY,"  # the newest audit record (the anchor), and
    " line BYTEA NOT NULL)",  # those the log file may not have synced yet
)

LOG_TABLES = (
    "CREATE TABLE IF NOT EXISTS audit_log ("
    " seq BIGINT PRIMARY KEY,"  # the chain's number << 40 | the record's place in it
    " line BYTEA NOT NULL)",  # the record: pseudonyms, sealed paths, keyed digests
)

# What each step runs, in order: step n takes the database from version n - 1 to n.
MIGRATIONS = (STORE_TABLES, LOG_TABLES)
PG_TABLES = ("meta", "users", "data_keys", "nodes", "contents", "audit_keys", "audit_pending")
PG_TABLES_BY_VERSION = {1: PG_TABLES, 2: (*PG_TABLES, "audit_log")}

# The tables that hold ciphertexts or wrapped keys: what purge_wal vacuums.
SEALED_TABLES = ("users", "data_keys", "nodes", "contents", "audit_keys", "audit_pending", "meta")
