"""The SQLite store's schema: what each table holds (every BLOB column is sealed or keyed).

``SCHEMA_VERSION`` is stored in ``meta``; a database of a newer version is refused.
"""

from __future__ import annotations

SCHEMA_VERSION = 2
# Format 1 lacks the ledger (and its nodes carry no write stamps): the vault upgrades it
# in place, once, and records that in the audit log.
READABLE_VERSIONS = (b"1", b"2")

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS users (
    id              INTEGER PRIMARY KEY,
    lookup          BLOB NOT NULL UNIQUE,     -- HMAC of the user name (master-derived key)
    name            BLOB NOT NULL,            -- the user name, sealed
    primary_version INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS data_keys (
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    version INTEGER NOT NULL,
    wrapped BLOB NOT NULL,                    -- the data key, sealed under the KEK
    PRIMARY KEY (user_id, version)
);
CREATE TABLE IF NOT EXISTS nodes (
    id          INTEGER PRIMARY KEY,
    user_id     INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    parent_id   INTEGER NOT NULL,             -- 0: the user's /memories
    lookup      BLOB NOT NULL,                -- HMAC(index key, parent identity, name)
    fid         BLOB NOT NULL,                -- random identity, bound into every ciphertext
    meta        BLOB NOT NULL,                -- sealed: kind, size, content id, name
    key_version INTEGER NOT NULL,
    UNIQUE (user_id, parent_id, lookup)
);
CREATE TABLE IF NOT EXISTS contents (
    node_id INTEGER PRIMARY KEY REFERENCES nodes(id) ON DELETE CASCADE,
    blob    BLOB NOT NULL                     -- the file text, sealed
);
CREATE TABLE IF NOT EXISTS audit_keys (
    user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    wrapped BLOB NOT NULL                     -- the user's audit key, sealed under the KEK
);
CREATE TABLE IF NOT EXISTS audit_pending (
    seq  INTEGER PRIMARY KEY,                 -- the newest audit record (the anchor), and
    line BLOB NOT NULL                        -- those the log file may not have synced yet
);
"""
