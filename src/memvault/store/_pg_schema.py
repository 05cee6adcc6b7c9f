"""The PostgreSQL store's schema: the SQLite store's tables, in PostgreSQL's types.

Every BYTEA column is sealed or keyed, as in ``_schema.py``; ids are BIGINT identities
(from 1: a ``parent_id`` of 0 still means the user's ``/memories``). A PostgreSQL store
starts at the current format, so it has no older formats to migrate: a store holding a
version other than :data:`~memvault.store._schema.SCHEMA_VERSION` either comes from a
newer memvault (refused) or was modified outside memvault.
"""

from __future__ import annotations

PG_SCHEMA = (
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

# The tables that hold ciphertexts or wrapped keys: what purge_wal vacuums.
SEALED_TABLES = ("users", "data_keys", "nodes", "contents", "audit_keys", "audit_pending", "meta")
