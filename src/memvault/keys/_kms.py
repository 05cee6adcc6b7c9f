"""Master keys from AWS KMS: envelope encryption, the vault keeping its key wrapped.

A mint calls GenerateDataKey (``AES_256``) under the operator's KMS key with the
encryption context ``{"memvault:vault": <vault id>}``. The plaintext is the master key
and stays in memory; the vault records the key's ARN (as KMS names it), the region and
the wrapped key (base64). An open calls Decrypt with the recorded key and the same
context, so KMS itself refuses a wrapped key copied from another vault or made under
another KMS key.

The region is ``kms_region``, else the one in the key's ARN (a KMS key lives in one
region, so a request elsewhere can only fail), else ``$AWS_REGION`` or
``$AWS_DEFAULT_REGION``, else the recorded one, else the AWS profile's. The endpoint is
``kms_endpoint``, else ``$MEMVAULT_KMS_ENDPOINT``, else boto3's (which honours
``$AWS_ENDPOINT_URL_KMS``).

boto3 is imported only when a key is minted or unwrapped, so ``import memvault`` stays
fast and an installation without the ``kms`` extra runs the other providers. Calls give
up after a few seconds (connect 3 s, read 10 s, 2 attempts): an unreachable KMS fails an
open at once instead of after minutes of retries. Every botocore failure becomes a
MasterKeyError naming the key and the endpoint, with what to do.
"""

from __future__ import annotations

import base64
import binascii
import os
from typing import Any, NoReturn

from .. import _crypto
from .._crypto import Key
from ..errors import ConfigurationError, MasterKeyError
from ._providers import Minted, Params

ENV_KMS_ENDPOINT = "MEMVAULT_KMS_ENDPOINT"
CONTEXT_NAME = "memvault:vault"
_CLIENT_CONFIG: dict[str, Any] = {
    "connect_timeout": 3,
    "read_timeout": 10,
    "retries": {"total_max_attempts": 2, "mode": "standard"},
}
_RESTORE = "restore the vault from a backup"
_CREDENTIALS = (
    "AWS rejected the credentials used to call KMS at {where} ({code})",
    "refresh them, or set valid ones (AWS_PROFILE, AWS_ACCESS_KEY_ID and "
    "AWS_SECRET_ACCESS_KEY, or a role)",
)
_BUSY = (
    "AWS KMS at {where} cannot serve the key {key} now ({code})",
    "try again in a moment",
)
# What each KMS error code means for the vault, and what to do: the rule table.
_REFUSALS: dict[str, tuple[str, str]] = {
    "NotFoundException": (
        "the KMS key {key} does not exist in {region} ({where})",
        "check the key id (--kms-key-id) and the region (--kms-region)",
    ),
    "DisabledException": (
        "the KMS key {key} is disabled ({where})",
        "enable it (aws kms enable-key --key-id {key}) and try again",
    ),
    "KMSInvalidStateException": (
        "the KMS key {key} cannot be used in its current state, e.g. pending deletion ({where})",
        "cancel its deletion (aws kms cancel-key-deletion) and enable it, then try again",
    ),
    "AccessDeniedException": (
        "AWS KMS denied the use of the key {key} ({where})",
        "grant kms:GenerateDataKey and kms:Decrypt on it to the credentials in use",
    ),
    "IncorrectKeyException": (
        "the vault's wrapped master key was not made with the KMS key {key} ({where})",
        f"the vault's record of its KMS key was changed; {_RESTORE}",
    ),
    "InvalidCiphertextException": (
        "the KMS key {key} refused the vault's wrapped master key: it belongs to another "
        "vault or is damaged ({where})",
        f"the wrapped key in the store was modified or copied from another vault; {_RESTORE}",
    ),
    "InvalidKeyUsageException": (
        "the KMS key {key} is not a symmetric encryption key ({where})",
        "choose a key with key spec SYMMETRIC_DEFAULT and key usage ENCRYPT_DECRYPT",
    ),
    "UnrecognizedClientException": _CREDENTIALS,
    "InvalidSignatureException": _CREDENTIALS,
    "ExpiredTokenException": _CREDENTIALS,
    "KeyUnavailableException": _BUSY,
    "KMSInternalException": _BUSY,
    "DependencyTimeoutException": _BUSY,
    "ThrottlingException": _BUSY,
    "LimitExceededException": _BUSY,
}
_REFUSED = (
    "AWS KMS refused to use the key {key} ({code}, {where})",
    "look up {code} in the AWS KMS API reference",
)
_UNREACHABLE = (
    "cannot reach AWS KMS at {where} to use the key {key}",
    "check the endpoint (--kms-endpoint or $" + ENV_KMS_ENDPOINT + "), the region "
    "(--kms-region) and the network",
)
_SILENT = ("AWS KMS at {where} did not answer in time (key {key})", "try again in a moment")
_NO_CREDENTIALS = (
    "no AWS credentials to call KMS at {where} (key {key})",
    "set AWS_PROFILE, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or run where a role "
    "provides them",
)


class KmsKey:
    """A master key that AWS KMS wraps: made by GenerateDataKey, unwrapped by Decrypt."""

    kind = "kms"

    def __init__(
        self, key_id: str | None = None, *, region: str | None = None, endpoint: str | None = None
    ) -> None:
        """``key_id``: the KMS key to mint under (id, ARN or alias); at open, checked
        against the vault's record. ``region``/``endpoint``: see the module docstring."""
        self.key_id = key_id or None
        self.region = region or None
        self.endpoint = endpoint or os.environ.get(ENV_KMS_ENDPOINT) or None
        self.recorded: str | None = None  # the key ARN of the vault's record, once seen
        self._clients: dict[str | None, Any] = {}
        self._unwrapped: dict[tuple[str, str], Key] = {}

    def __repr__(self) -> str:
        return f"<KmsKey {self.describe()}>"

    def __reduce__(self) -> NoReturn:
        raise TypeError("KMS providers cannot be pickled")

    def describe(self) -> str:
        return f"kms:{self.recorded or self.key_id or '(no key id)'}"

    def mint(self, vault_id: str, *, replacing: bool) -> Minted:
        if not self.key_id:
            raise ConfigurationError(
                "the kms key provider needs the KMS key to make the vault's master key with",
                hint="pass --kms-key-id with a key id, key ARN or alias (alias/NAME)",
            )
        client = self._client(self._region(self.key_id, None))
        answer = _call(
            client,
            self.key_id,
            "generate_data_key",
            KeyId=self.key_id,
            KeySpec="AES_256",
            EncryptionContext={CONTEXT_NAME: vault_id},
        )
        key = _data_key(answer.get("Plaintext"), self.key_id)
        self.recorded = str(answer["KeyId"])
        wrapped = base64.b64encode(answer["CiphertextBlob"]).decode()
        self._unwrapped[(vault_id, wrapped)] = key
        params: dict[str, str | int] = {"key_id": self.recorded, "wrapped": wrapped}
        params["region"] = str(client.meta.region_name)
        return Minted(key, params)

    def keys(self, vault_id: str, params: Params) -> list[Key]:
        key_id, region, wrapped = _recorded(params)
        self.recorded = key_id
        cached = self._unwrapped.get((vault_id, wrapped))
        if cached is not None:
            return [cached]
        client = self._client(self._region(key_id, region))
        self._check_key_id(client, key_id)
        answer = _call(
            client,
            key_id,
            "decrypt",
            CiphertextBlob=base64.b64decode(wrapped),
            KeyId=key_id,
            EncryptionContext={CONTEXT_NAME: vault_id},
        )
        key = _data_key(answer.get("Plaintext"), key_id)
        self._unwrapped[(vault_id, wrapped)] = key
        return [key]

    def settle(self, vault_id: str, committed: Key | None = None) -> None:
        return None

    def _region(self, key_id: str, recorded: str | None) -> str | None:
        """The region to call (None: the AWS profile's)."""
        in_arn = (
            key_id.split(":")[3] if key_id.startswith("arn:") and key_id.count(":") >= 5 else ""
        )
        env = os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION")
        return self.region or in_arn or env or recorded or None

    def _client(self, region: str | None) -> Any:
        if region in self._clients:
            return self._clients[region]
        boto3, config = _boto()
        from botocore.exceptions import BotoCoreError

        try:
            session = boto3.session.Session()
            if not (region or session.region_name):
                raise ConfigurationError(
                    f"no AWS region to call KMS in for the key {self.key_id or '(none)'}",
                    hint="pass --kms-region, set $AWS_REGION, or name the key by its ARN",
                )
            client = session.client(
                "kms", region_name=region, endpoint_url=self.endpoint, config=config
            )
        except ValueError:
            raise ConfigurationError(
                f"the KMS endpoint {self.endpoint} is not a valid URL",
                hint="pass --kms-endpoint (or set $"
                + ENV_KMS_ENDPOINT
                + ") as https://HOST[:PORT]",
            ) from None
        except BotoCoreError as exc:  # a profile that does not exist, a broken config file
            raise ConfigurationError(
                f"cannot set up the AWS KMS client: {exc}",
                hint="check $AWS_PROFILE and the AWS configuration files",
            ) from None
        self._clients[region] = client
        return client

    def _check_key_id(self, client: Any, recorded: str) -> None:
        """MasterKeyError if the operator named another KMS key than the vault records.
        An alias is resolved with DescribeKey; a key id is compared with the ARN's tail."""
        asked = self.key_id
        alias = asked is not None and (asked.startswith("alias/") or ":alias/" in asked)
        if asked is None or asked == recorded:
            return
        if not alias and not asked.startswith("arn:") and recorded.endswith(f":key/{asked}"):
            return
        if (
            alias
            and _call(client, asked, "describe_key", KeyId=asked)["KeyMetadata"].get("Arn")
            == recorded
        ):
            return
        raise MasterKeyError(
            f"this vault's master key is wrapped by the KMS key {recorded}, not {asked}",
            hint="leave out --kms-key-id (the vault records its key) or pass that one; to move "
            "the vault to another KMS key, run: memvault keys rotate-master --new-kms-key-id NEW",
        )


def _boto() -> tuple[Any, Any]:
    """boto3 and the client configuration; ConfigurationError if boto3 is not installed."""
    try:
        import boto3
        from botocore.config import Config
    except ImportError:
        raise ConfigurationError(
            "the kms key provider needs boto3, which is not installed",
            hint="pip install 'memvault[kms]' (or pip install boto3)",
        ) from None
    return boto3, Config(**_CLIENT_CONFIG)


def _call(client: Any, key_id: str, operation: str, **kwargs: Any) -> dict[str, Any]:
    """One KMS call; its failures translated (``from None``: no botocore traceback)."""
    from botocore.exceptions import BotoCoreError, ClientError

    try:
        answer: dict[str, Any] = getattr(client, operation)(**kwargs)
    except (BotoCoreError, ClientError) as exc:
        raise _failure(exc, key_id, client.meta.endpoint_url, client.meta.region_name) from None
    return answer


def _failure(exc: Exception, key: str, where: str, region: str) -> MasterKeyError:
    from botocore import exceptions as botocore

    code = type(exc).__name__
    if isinstance(exc, botocore.ClientError):
        code = str(exc.response.get("Error", {}).get("Code") or "no error code")
        message, hint = _REFUSALS.get(code, _REFUSED)
    elif isinstance(exc, botocore.NoCredentialsError | botocore.PartialCredentialsError):
        message, hint = _NO_CREDENTIALS
    elif isinstance(exc, botocore.ReadTimeoutError):
        message, hint = _SILENT
    elif isinstance(exc, botocore.ConnectionError | botocore.HTTPClientError):
        message, hint = _UNREACHABLE
    else:
        message, hint = _REFUSED
    fields = {"key": key, "where": where, "region": region, "code": code}
    return MasterKeyError(message.format(**fields), hint=hint.format(**fields))


def _data_key(plaintext: object, key_id: str) -> Key:
    if not isinstance(plaintext, bytes) or len(plaintext) != _crypto.KEY_SIZE:
        size = len(plaintext) if isinstance(plaintext, bytes) else 0
        raise MasterKeyError(
            f"AWS KMS returned a data key of {size} bytes for the key {key_id}; "
            f"the master key is {_crypto.KEY_SIZE}"
        )
    return Key(plaintext)


def _recorded(params: Params) -> tuple[str, str | None, str]:
    """The key ARN, region and wrapped key the vault recorded; MasterKeyError if damaged."""
    key_id, region, wrapped = params.get("key_id"), params.get("region"), params.get("wrapped")
    try:
        if not isinstance(key_id, str) or not key_id or not isinstance(wrapped, str):
            raise ValueError
        if region is not None and not isinstance(region, str):
            raise ValueError
        base64.b64decode(wrapped, validate=True)
    except (ValueError, binascii.Error):
        raise MasterKeyError(
            "the vault's record of its KMS key is missing or damaged",
            hint=f"the store was modified; {_RESTORE}",
        ) from None
    return key_id, region or None, wrapped
