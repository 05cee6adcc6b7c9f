"""The SQLite store's schema: what each table holds (every BLOB column is sealed or keyed).

``SCHEMA_VERSION`` is stored in ``meta``; a database of a newer version is refused.
"""

from __future__ import annotations

SCHEMA_VERSION = 4
# Format 1 lacks the ledger (and its nodes carry no write stamps): the vault upgrades it
# in place, once, and records that in the audit log. Format 2 lacks the columns of the
# key and data lifecycle (when each data key was made, when each memory was last used);
# format 3 lacks the tally of each user's /memories: the store adds the columns (empty)
# when it is opened, and the memory layer fills them as it writes.
READABLE_VERSIONS = (b"1", b"2", b"3", b"4")

# The tables a store of each format has: one missing from a store that holds a format
# version was dropped outside memvault (creating it anew would hide what it held).
TABLES_OF_FORMAT_1 = ("meta", "users", "data_keys", "nodes", "contents")
TABLES = (*TABLES_OF_FORMAT_1, "audit_keys", "audit_pending")

# Statements that bring a store of an older format to the current one: (table, column
# added, statement), each run only where its column is missing.
MIGRATIONS = (
    ("data_keys", "created", "ALTER TABLE data_keys ADD COLUMN created INTEGER"),
    ("nodes", "touched", "ALTER TABLE nodes ADD COLUMN touched BLOB"),
    ("users", "root", "ALTER TABLE users ADD COLUMN root BLOB"),
)

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS users (
    id              INTEGER PRIMARY KEY,
    lookup          BLOB NOT NULL UNIQUE,     -- HMAC of the user name (master-derived key)
    name            BLOB NOT NULL,            -- the user name, sealed
    primary_version INTEGER NOT NULL,
    root            BLOB                      -- sealed: entries in /memories, bytes below it
);
CREATE TABLE IF NOT EXISTS data_keys (
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    version INTEGER NOT NULL,
    wrapped BLOB NOT NULL,                    -- the data key, sealed under the KEK
    created INTEGER,                          -- when it was made, in Unix time (NULL: format 2)
    PRIMARY KEY (user_id, version)
);
CREATE TABLE IF NOT EXISTS nodes (
    id          INTEGER PRIMARY KEY,
    user_id     INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    parent_id   INTEGER NOT NULL,             -- 0: the user's /memories
    lookup      BLOB NOT NULL,                -- HMAC(index key, parent identity, name)
    fid         BLOB NOT NULL,                -- random identity, bound into every ciphertext
    meta        BLOB NOT NULL,                -- sealed: kind, size, content id or tally, name
    key_version INTEGER NOT NULL,
    touched     BLOB,                         -- sealed: the day it was last read or written
    UNIQUE (user_id, parent_id, lookup)
);
-- A user's nodes in id order: key rotation walks them in batches from a cursor.
CREATE INDEX IF NOT EXISTS nodes_by_user ON nodes(user_id);
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
-- The audit log, for a vault that keeps it in its database (one moved here from
-- PostgreSQL, see store/_rows_log.py), empty while the log is the home's files.
CREATE TABLE IF NOT EXISTS audit_log (
    seq  INTEGER PRIMARY KEY,                 -- (chain + 1) << 40 | place in the chain
    line BLOB NOT NULL                        -- the record
);
"""
