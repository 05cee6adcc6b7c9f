"""Where keys come from and how they relate: the master key's sources and the hierarchy below it."""

from ._hierarchy import ENV_MASTER_KEY, ENV_MASTER_KEY_FILE, Keyring, KeySource, MasterKeys, UserKey

__all__ = ["ENV_MASTER_KEY", "ENV_MASTER_KEY_FILE", "KeySource", "Keyring", "MasterKeys", "UserKey"]
