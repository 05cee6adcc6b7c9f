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
from ._providers import (
    ENV_KEY_PROVIDER,
    ENV_MASTER_KEY,
    ENV_MASTER_KEY_FILE,
    ENV_NEW_MASTER_KEY,
    KINDS,
    RAW_KINDS,
    EnvKey,
    KeyFile,
    KeyProvider,
    Minted,
    Params,
    ProviderOptions,
    chosen_kind,
    default_key_file,
    new_provider_for,
    provider_for,
)

__all__ = [
    "ENV_KEY_PROVIDER",
    "ENV_MASTER_KEY",
    "ENV_MASTER_KEY_FILE",
    "ENV_NEW_MASTER_KEY",
    "KEK_VERSION",
    "KINDS",
    "RAW_KINDS",
    "EnvKey",
    "KeyFile",
    "KeyProvider",
    "Keyring",
    "MasterKeys",
    "Minted",
    "Params",
    "ProviderOptions",
    "SealerRing",
    "UserKey",
    "check_value",
    "chosen_kind",
    "default_key_file",
    "encode_key",
    "labels",
    "new_provider_for",
    "provider_for",
    "verify_master",
]
