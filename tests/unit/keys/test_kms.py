"""The AWS KMS provider against a real KMS-speaking HTTP endpoint (moto's server)."""

from __future__ import annotations

import base64
import json
import pickle
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from memvault import ConfigurationError, MasterKeyError, keys
from memvault.keys import KmsKey
from tests.support.kms import REGION, Kms, free_port, kms_answering

VAULT = "0123456789abcdef0123456789abcdef"
OTHER_VAULT = "fedcba9876543210fedcba9876543210"


def test_round_trip_gives_the_same_key(kms: Kms) -> None:
    """A data key minted under a KMS key is unwrapped again from the recorded params."""
    arn = kms.create_key()
    minted = KmsKey(arn, endpoint=kms.endpoint).mint(VAULT, replacing=False)
    opener = KmsKey(endpoint=kms.endpoint)
    assert opener.keys(VAULT, minted.params) == [minted.key]
    assert opener.describe() == f"kms:{arn}"


def test_params_record_the_arn_region_and_wrapped_key_only(kms: Kms) -> None:
    """The record names the key by the ARN KMS answered with; no key bytes anywhere."""
    key_id = kms.create_key().rsplit("/", 1)[1]
    minted = KmsKey(key_id, endpoint=kms.endpoint).mint(VAULT, replacing=False)
    assert set(minted.params) == {"key_id", "region", "wrapped"}
    assert minted.params["key_id"] == f"arn:aws:kms:{REGION}:123456789012:key/{key_id}"
    assert minted.params["region"] == REGION
    raw = minted.key.export_raw()
    text = json.dumps(minted.params)
    for secret in (base64.b64encode(raw).decode(), raw.hex(), raw.decode("latin-1")):
        assert secret not in text


def test_an_alias_mints_and_opens(kms: Kms) -> None:
    """A key named by its alias is recorded by ARN; the same alias opens the vault."""
    arn = kms.create_key()
    alias = f"alias/memvault-{uuid.uuid4().hex[:8]}"
    kms.client().create_alias(AliasName=alias, TargetKeyId=arn)
    minted = KmsKey(alias, endpoint=kms.endpoint).mint(VAULT, replacing=False)
    assert minted.params["key_id"] == arn
    assert KmsKey(alias, endpoint=kms.endpoint).keys(VAULT, minted.params) == [minted.key]
    key_id = arn.rsplit("/", 1)[1]
    assert KmsKey(key_id, endpoint=kms.endpoint).keys(VAULT, minted.params) == [minted.key]


def test_the_endpoint_comes_from_the_environment(kms: Kms, monkeypatch: pytest.MonkeyPatch) -> None:
    """$MEMVAULT_KMS_ENDPOINT is used when no endpoint is given."""
    monkeypatch.setenv(keys.ENV_KMS_ENDPOINT, kms.endpoint)
    minted = KmsKey(kms.create_key()).mint(VAULT, replacing=False)
    assert KmsKey().keys(VAULT, minted.params) == [minted.key]


def test_boto3s_own_endpoint_variable_is_honoured(
    kms: Kms, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With no endpoint given, $AWS_ENDPOINT_URL_KMS (boto3's default chain) applies."""
    monkeypatch.setenv("AWS_ENDPOINT_URL_KMS", kms.endpoint)
    minted = KmsKey(kms.create_key()).mint(VAULT, replacing=False)
    assert KmsKey().keys(VAULT, minted.params) == [minted.key]


def test_the_recorded_region_is_used_when_none_is_set(
    kms: Kms, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With no region in the options or the environment, the record's (and the ARN's) serves;
    an environment region does not send a request for an ARN's key elsewhere."""
    minted = KmsKey(kms.create_key(), endpoint=kms.endpoint).mint(VAULT, replacing=False)
    monkeypatch.delenv("AWS_DEFAULT_REGION")
    assert KmsKey(endpoint=kms.endpoint).keys(VAULT, minted.params) == [minted.key]
    monkeypatch.setenv("AWS_REGION", "eu-west-1")
    assert KmsKey(endpoint=kms.endpoint).keys(VAULT, minted.params) == [minted.key]


def test_no_region_at_all_is_a_clear_error(kms: Kms, monkeypatch: pytest.MonkeyPatch) -> None:
    """A key id that names no region, and no region anywhere: say where to give one."""
    monkeypatch.delenv("AWS_DEFAULT_REGION")
    with pytest.raises(ConfigurationError) as caught:
        KmsKey("alias/anything", endpoint=kms.endpoint).mint(VAULT, replacing=False)
    assert str(caught.value) == "no AWS region to call KMS in for the key alias/anything"
    assert caught.value.hint == "pass --kms-region, set $AWS_REGION, or name the key by its ARN"


def test_an_unreachable_kms_fails_fast(aws_env: None) -> None:
    """A closed port is a clear error within seconds, at mint and at open."""
    endpoint = f"http://127.0.0.1:{free_port()}"
    arn = f"arn:aws:kms:{REGION}:123456789012:key/{uuid.uuid4()}"
    started = time.monotonic()
    with pytest.raises(MasterKeyError) as caught:
        KmsKey(arn, endpoint=endpoint).mint(VAULT, replacing=False)
    assert str(caught.value) == f"cannot reach AWS KMS at {endpoint} to use the key {arn}"
    assert caught.value.hint == (
        "check the endpoint (--kms-endpoint or $MEMVAULT_KMS_ENDPOINT), the region "
        "(--kms-region) and the network"
    )
    params = {"key_id": arn, "region": REGION, "wrapped": "AAAA"}
    with pytest.raises(MasterKeyError, match=r"^cannot reach AWS KMS at "):
        KmsKey(endpoint=endpoint).keys(VAULT, params)
    assert time.monotonic() - started < 5
    assert caught.value.__cause__ is None and caught.value.__suppress_context__


def test_an_unknown_key_id_at_mint(kms: Kms) -> None:
    """A key id that does not exist is named, with the region and endpoint."""
    key_id = str(uuid.uuid4())
    with pytest.raises(MasterKeyError) as caught:
        KmsKey(key_id, endpoint=kms.endpoint).mint(VAULT, replacing=False)
    assert str(caught.value) == (
        f"the KMS key {key_id} does not exist in {REGION} ({kms.endpoint})"
    )
    assert caught.value.hint == "check the key id (--kms-key-id) and the region (--kms-region)"


def test_a_wrapped_key_from_another_vault_is_refused(kms: Kms) -> None:
    """The encryption context binds the wrapped key to its vault: KMS refuses it elsewhere."""
    arn = kms.create_key()
    minted = KmsKey(arn, endpoint=kms.endpoint).mint(VAULT, replacing=False)
    with pytest.raises(MasterKeyError) as caught:
        KmsKey(endpoint=kms.endpoint).keys(OTHER_VAULT, minted.params)
    assert str(caught.value) == (
        f"the KMS key {arn} refused the vault's wrapped master key: it belongs to another "
        f"vault or is damaged ({kms.endpoint})"
    )
    assert caught.value.hint == (
        "the wrapped key in the store was modified or copied from another vault; "
        "restore the vault from a backup"
    )


def test_a_damaged_wrapped_key_is_refused(kms: Kms) -> None:
    """A changed byte in the wrapped key fails like a wrong context does."""
    minted = KmsKey(kms.create_key(), endpoint=kms.endpoint).mint(VAULT, replacing=False)
    blob = bytearray(base64.b64decode(str(minted.params["wrapped"])))
    blob[-1] ^= 1
    params = {**minted.params, "wrapped": base64.b64encode(bytes(blob)).decode()}
    with pytest.raises(MasterKeyError, match="refused the vault's wrapped master key"):
        KmsKey(endpoint=kms.endpoint).keys(VAULT, params)


@pytest.mark.parametrize(
    "change",
    [{"key_id": ""}, {"key_id": 7}, {"wrapped": "not base64!"}, {"region": 1}],
)
def test_a_damaged_record_is_refused(change: dict[str, object]) -> None:
    """A record with a missing or mistyped field is refused before any call."""
    params = {"key_id": "arn:aws:kms:us-east-1:1:key/x", "region": REGION, "wrapped": "AAAA"}
    with pytest.raises(MasterKeyError, match=r"^the vault's record of its KMS key is missing"):
        KmsKey().keys(VAULT, {**params, **change})  # type: ignore[dict-item]


def test_another_kms_key_id_than_recorded_is_refused(kms: Kms) -> None:
    """--kms-key-id naming another key than the vault records: a clear error, no call."""
    arn, other = kms.create_key(), kms.create_key()
    minted = KmsKey(arn, endpoint=kms.endpoint).mint(VAULT, replacing=False)
    alias = f"alias/other-{uuid.uuid4().hex[:8]}"
    kms.client().create_alias(AliasName=alias, TargetKeyId=other)
    for asked in (other, other.rsplit("/", 1)[1], alias):
        with pytest.raises(MasterKeyError) as caught:
            KmsKey(asked, endpoint=kms.endpoint).keys(VAULT, minted.params)
        assert str(caught.value) == (
            f"this vault's master key is wrapped by the KMS key {arn}, not {asked}"
        )
        assert "memvault keys rotate-master --new-kms-key-id NEW" in (caught.value.hint or "")


@pytest.mark.parametrize(
    ("code", "message", "hint"),
    [
        (
            "DisabledException",
            "the KMS key {key} is disabled ({where})",
            "enable it (aws kms enable-key --key-id {key}) and try again",
        ),
        (
            "KMSInvalidStateException",
            "the KMS key {key} cannot be used in its current state, e.g. pending deletion",
            "cancel its deletion",
        ),
        (
            "AccessDeniedException",
            "AWS KMS denied the use of the key {key} ({where})",
            "grant kms:GenerateDataKey and kms:Decrypt",
        ),
        (
            "IncorrectKeyException",
            "the vault's wrapped master key was not made with the KMS key {key} ({where})",
            "the vault's record of its KMS key was changed",
        ),
        (
            "UnrecognizedClientException",
            "AWS rejected the credentials used to call KMS at {where} "
            "(UnrecognizedClientException)",
            "refresh them",
        ),
        (
            "SomethingNewException",
            "AWS KMS refused to use the key {key} (SomethingNewException, {where})",
            "look up SomethingNewException in the AWS KMS API reference",
        ),
    ],
)
def test_kms_refusals_are_translated(aws_env: None, code: str, message: str, hint: str) -> None:
    """What AWS KMS answers for a disabled key, a key pending deletion, a denied caller, a
    wrong key and bad credentials becomes a clear error. moto does not model key states
    for data keys, so a stub endpoint gives the answers as AWS sends them."""
    arn = f"arn:aws:kms:{REGION}:123456789012:key/{uuid.uuid4()}"
    params = {"key_id": arn, "region": REGION, "wrapped": "AAAA"}
    with kms_answering(code, "refused") as endpoint:
        fields = {"key": arn, "where": endpoint}
        for attempt in (
            lambda: KmsKey(arn, endpoint=endpoint).mint(VAULT, replacing=False),
            lambda: KmsKey(endpoint=endpoint).keys(VAULT, params),
        ):
            with pytest.raises(MasterKeyError) as caught:
                attempt()
            assert str(caught.value).startswith(message.format(**fields))
            assert hint.format(**fields) in (caught.value.hint or "")


@pytest.mark.xfail(
    strict=True, reason="moto does not enforce key state for data keys; the stub test does"
)
def test_a_disabled_key_on_the_server(kms: Kms) -> None:
    """disable_key, then a mint under the key is refused as disabled (when moto models key
    states, this passes and the xfail must go)."""
    arn = kms.create_key()
    kms.client().disable_key(KeyId=arn)
    with pytest.raises(MasterKeyError, match="is disabled"):
        KmsKey(arn, endpoint=kms.endpoint).mint(VAULT, replacing=False)


def test_no_credentials_is_a_clear_error(kms: Kms, monkeypatch: pytest.MonkeyPatch) -> None:
    """No AWS credentials anywhere: say how to provide them."""
    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"):
        monkeypatch.delenv(name)
    key = f"arn:aws:kms:{REGION}:123456789012:key/{uuid.uuid4()}"
    with pytest.raises(MasterKeyError) as caught:
        KmsKey(key, endpoint=kms.endpoint).mint(VAULT, replacing=False)
    assert str(caught.value) == f"no AWS credentials to call KMS at {kms.endpoint} (key {key})"
    assert "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY" in (caught.value.hint or "")


def test_kms_without_a_key_id_at_mint() -> None:
    """Creating a vault with the kms provider needs the KMS key to use."""
    with pytest.raises(ConfigurationError) as caught:
        KmsKey().mint(VAULT, replacing=False)
    assert str(caught.value) == (
        "the kms key provider needs the KMS key to make the vault's master key with"
    )
    assert caught.value.hint == "pass --kms-key-id with a key id, key ARN or alias (alias/NAME)"


def test_a_malformed_endpoint_is_a_clear_error(aws_env: None) -> None:
    """An endpoint that is no URL is named."""
    with pytest.raises(ConfigurationError, match=r"^the KMS endpoint not a url is not a valid URL"):
        KmsKey("alias/x", endpoint="not a url").mint(VAULT, replacing=False)


def test_without_boto3_the_error_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    """An installation without the kms extra gets a hint instead of an ImportError."""
    monkeypatch.setitem(sys.modules, "boto3", None)
    with pytest.raises(ConfigurationError) as caught:
        KmsKey("alias/x").mint(VAULT, replacing=False)
    assert str(caught.value) == "the kms key provider needs boto3, which is not installed"
    assert caught.value.hint == "pip install 'memvault[kms]' (or pip install boto3)"


def test_boto3_loads_only_when_kms_is_used() -> None:
    """import memvault, and building a KMS provider, leave boto3 unimported."""
    code = (
        "import sys, memvault\n"
        "from memvault import keys\n"
        "keys.KmsKey('alias/x'); keys.ProviderOptions(kind='kms')\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('boto3', 'botocore')))\n"
    )
    src = str(Path(keys.__file__).resolve().parents[2])
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": src, "PATH": "/usr/bin:/bin"},
    )
    assert out.stdout.strip() == "[]"


def test_providers_hide_the_key(kms: Kms) -> None:
    """repr names the KMS key only; a provider cannot be pickled."""
    arn = kms.create_key()
    provider = KmsKey(arn, endpoint=kms.endpoint)
    provider.mint(VAULT, replacing=False)
    assert repr(provider) == f"<KmsKey kms:{arn}>"
    with pytest.raises(TypeError):
        pickle.dumps(provider)


def test_options_choose_the_kms_provider(kms: Kms, tmp_path: Path) -> None:
    """provider_for builds the provider from the options; a rotation's provider mints under
    the current KMS key unless --kms-key-id names another."""
    home = tmp_path / "home"
    arn, other = kms.create_key(), kms.create_key()
    options = keys.ProviderOptions(kind="kms", kms_key_id=arn, kms_endpoint=kms.endpoint)
    current = keys.provider_for(options, VAULT, home, None)
    minted = current.mint(VAULT, replacing=False)
    assert current.keys(VAULT, minted.params) == [minted.key]
    opening = keys.ProviderOptions(kms_endpoint=kms.endpoint)
    reopened = keys.provider_for(opening, VAULT, home, "kms")
    assert reopened.keys(VAULT, minted.params) == [minted.key]
    same = keys.new_provider_for(keys.ProviderOptions(), VAULT, home, reopened)
    assert same.mint(VAULT, replacing=True).params["key_id"] == arn
    moved = keys.new_provider_for(keys.ProviderOptions(kms_key_id=other), VAULT, home, reopened)
    assert moved.mint(VAULT, replacing=True).params["key_id"] == other
