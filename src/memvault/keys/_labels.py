"""Every key-derivation label and every associated-data tag, in one table.

Each derived key has a purpose of its own, named by its HKDF label, and each
sealed blob is bound to what it is by the first part of its associated data.
No two purposes share a label or a tag (a test checks it), so a key or a blob
made for one purpose is useless for any other.

These strings are part of the stored format: changing one makes every
existing vault unreadable. New purposes get new strings.
"""

from __future__ import annotations

from typing import Final

# -- HKDF labels ---------------------------------------------------------------------------
# From the master key (salted with the vault id):
KDF_CHECK: Final = "memvault/v1/check"  # seals the key check value
KDF_KEK: Final = "memvault/v1/kek"  # wraps data keys and audit keys
KDF_USER_NAMES: Final = "memvault/v1/user-names"  # seals user names
KDF_USER_INDEX: Final = "memvault/v1/user-index"  # HMAC of user names: look-up tokens
KDF_PSEUDONYMS: Final = "memvault/v1/pseudonyms"  # the redaction policy's pseudonyms
KDF_AUDIT_MAC: Final = "memvault/v1/audit-mac"  # MACs of audit records
KDF_AUDIT_USERS: Final = "memvault/v1/audit-users"  # users' pseudonyms in the log
KDF_AUDIT_CHECKPOINT: Final = "memvault/v1/audit-checkpoint"  # Ed25519 seed for checkpoints
KDF_AUDIT_FORWARD_WRAP: Final = "memvault/v1/audit-forward-wrap"  # seals the forward key file
KDF_AUDIT_LEDGER: Final = "memvault/v1/audit-ledger"  # seals the store's ledger
KDF_SECRETS_WRAP: Final = "memvault/v1/secrets-wrap"  # seals the stable secrets (after rotation)
KDF_NEXT_MASTER: Final = "memvault/v1/next-master"  # seals a rotation's next master key
KDF_KEY_ID: Final = "memvault/v1/key-id"  # a master key's public fingerprint
# From a user's data key:
KDF_MEMORY: Final = "memvault/v1/memory"  # seals names, metadata and contents
KDF_INDEX: Final = "memvault/v1/index"  # HMAC look-up tokens of names in a directory
# From a user's audit key:
KDF_AUDIT_PATHS: Final = "memvault/v1/audit-paths"  # seals the paths in the user's records
KDF_AUDIT_DIGEST: Final = "memvault/v1/audit-digest"  # keys the before/after digests
# From one forward-secure segment key to the next (the segment number follows):
KDF_AUDIT_FORWARD_PREFIX: Final = "memvault/v1/audit-forward/"

KDF_LABELS: Final = (
    KDF_CHECK,
    KDF_KEK,
    KDF_USER_NAMES,
    KDF_USER_INDEX,
    KDF_PSEUDONYMS,
    KDF_AUDIT_MAC,
    KDF_AUDIT_USERS,
    KDF_AUDIT_CHECKPOINT,
    KDF_AUDIT_FORWARD_WRAP,
    KDF_AUDIT_LEDGER,
    KDF_SECRETS_WRAP,
    KDF_NEXT_MASTER,
    KDF_KEY_ID,
    KDF_MEMORY,
    KDF_INDEX,
    KDF_AUDIT_PATHS,
    KDF_AUDIT_DIGEST,
    KDF_AUDIT_FORWARD_PREFIX,
)

# -- associated-data tags: the first part of a sealed blob's context -----------------------
AAD_CHECK: Final = "check"  # the key check value (+ vault id)
AAD_USER_NAME: Final = "user-name"  # a sealed user name (+ look-up token)
AAD_DATA_KEY: Final = "data-key"  # a wrapped data key (+ token, version)
AAD_AUDIT_KEY: Final = "audit-key"  # a wrapped audit key (+ token)
AAD_NODE: Final = "node"  # a node's metadata (+ token, parent identity, identity)
AAD_CONTENT: Final = "content"  # a file's text (+ token, identity, content id)
AAD_AUDIT_PATHS: Final = "audit-paths"  # a record's paths (+ user pseudonym)
AAD_AUDIT_FORWARD: Final = "audit-forward"  # the forward-secure key file (+ vault id)
AAD_AUDIT_LEDGER: Final = "audit-ledger"  # the store's ledger (+ vault id)
AAD_TOUCHED: Final = "touched"  # the day a memory was last used (+ token, identity)
AAD_SECRETS: Final = "secrets"  # the vault's stable secrets (+ vault id)
AAD_NEXT_MASTER: Final = "next-master"  # a rotation's next master key (+ vault id, generation)
AAD_ROOT_TALLY: Final = "root-tally"  # entries in a user's /memories, bytes below it (+ token)

AAD_TAGS: Final = (
    AAD_CHECK,
    AAD_USER_NAME,
    AAD_DATA_KEY,
    AAD_AUDIT_KEY,
    AAD_NODE,
    AAD_CONTENT,
    AAD_AUDIT_PATHS,
    AAD_AUDIT_FORWARD,
    AAD_AUDIT_LEDGER,
    AAD_TOUCHED,
    AAD_SECRETS,
    AAD_NEXT_MASTER,
    AAD_ROOT_TALLY,
)
