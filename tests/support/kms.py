"""A KMS that speaks HTTP for the tests: moto's server, and a stub that answers an error.

:func:`kms_server` starts ``python -m moto.server`` once per session on a free port of
127.0.0.1 and stops it at the end; :func:`aws_env` gives a test fake credentials and a
region, and nothing from the host's AWS configuration; :func:`kms` both.

moto does not model a key's state for data keys: GenerateDataKey and Decrypt succeed
under a disabled key. :func:`kms_answering` is a real HTTP endpoint that answers every
call with one KMS error, as AWS does (``{"__type": ..., "message": ...}``, status 400),
so the vault's translation of that answer goes through botocore's own parsing.

Import the fixtures into a ``conftest.py`` next to the tests that use them.
"""

from __future__ import annotations

import contextlib
import json
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

REGION = "us-east-1"
START_WAIT = 30.0  # seconds for the server to answer; it starts in about one
AWS_ENV = {
    "AWS_ACCESS_KEY_ID": "testing",
    "AWS_SECRET_ACCESS_KEY": "testing",
    "AWS_SESSION_TOKEN": "testing",
    "AWS_DEFAULT_REGION": REGION,
    "AWS_EC2_METADATA_DISABLED": "true",  # never wait for an instance role
}
AWS_UNSET = (
    "AWS_REGION",
    "AWS_PROFILE",
    "AWS_DEFAULT_PROFILE",
    "AWS_ENDPOINT_URL",
    "AWS_ENDPOINT_URL_KMS",
    "AWS_CA_BUNDLE",
    "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
    "AWS_CONTAINER_CREDENTIALS_FULL_URI",
    "AWS_WEB_IDENTITY_TOKEN_FILE",
    "AWS_ROLE_ARN",
    "MEMVAULT_KMS_ENDPOINT",
    "MEMVAULT_KEY_PROVIDER",
)


def free_port() -> int:
    """A TCP port of 127.0.0.1 that nothing listens on (at the time of asking)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _answers(port: int) -> bool:
    with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
        return True
    return False


@pytest.fixture(scope="session")
def kms_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """moto's server in a subprocess for the whole session; yields its endpoint URL."""
    port = free_port()
    log = tmp_path_factory.mktemp("moto") / "server.log"
    with log.open("wb") as out:
        server = subprocess.Popen(
            [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + START_WAIT
        while not _answers(port):
            if server.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"the moto server did not start:\n{log.read_text()[-2000:]}")
            time.sleep(0.05)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


@dataclass(frozen=True)
class Kms:
    """The test's view of the KMS server: its endpoint, and an admin client for setup."""

    endpoint: str

    def client(self) -> Any:
        import boto3

        return boto3.session.Session().client("kms", region_name=REGION, endpoint_url=self.endpoint)

    def create_key(self) -> str:
        """A new symmetric encryption key; returns its ARN."""
        return str(self.client().create_key()["KeyMetadata"]["Arn"])


@pytest.fixture
def aws_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Fake credentials and a region; nothing from the host's AWS configuration."""
    for name, value in AWS_ENV.items():
        monkeypatch.setenv(name, value)
    for name in AWS_UNSET:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "aws-config-absent"))
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(tmp_path / "aws-credentials-absent"))


@pytest.fixture
def kms(kms_server: str, aws_env: None) -> Kms:
    """The session's KMS server, with this test's AWS environment set."""
    return Kms(kms_server)


@contextlib.contextmanager
def kms_answering(code: str, message: str = "") -> Iterator[str]:
    """An HTTP endpoint on 127.0.0.1 that answers every KMS call with the error ``code``."""
    body = json.dumps({"__type": code, "message": message}).encode()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            self.send_response(400)
            self.send_header("Content-Type", "application/x-amz-json-1.1")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            return None

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
