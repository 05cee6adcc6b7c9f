"""Keys: where the master key comes from (sources behind one interface, key files), the
hierarchy derived from it, users' versioned data keys, and every label in one table."""

from . import _labels as labels
from ._hierarchy import (
    KEK_VERSION,
    Keyring,
    MasterKeys,
    SealerRing,
    UserKey,
    check_value,
    verify_master,
)
from ._keyfile import encode_key
from ._sources import (
    ENV_MASTER_KEY,
    ENV_MASTER_KEY_FILE,
    EnvKey,
    KeyFile,
    KeySource,
    default_key_file,
    resolve,
)

__all__ = [
    "ENV_MASTER_KEY",
    "ENV_MASTER_KEY_FILE",
    "KEK_VERSION",
    "EnvKey",
    "KeyFile",
    "KeySource",
    "Keyring",
    "MasterKeys",
    "SealerRing",
    "UserKey",
    "check_value",
    "default_key_file",
    "encode_key",
    "labels",
    "resolve",
    "verify_master",
]
