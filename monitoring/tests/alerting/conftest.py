"""Fixtures for the alerting tests: a real SMTP server (aiosmtpd), certificates, mail settings."""

from __future__ import annotations

import datetime as dt
import ipaddress
import ssl
from collections.abc import Iterator
from dataclasses import dataclass, field
from email import message_from_bytes
from email.message import Message
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from nasui.lib.net import free_loopback_port

USER, PASSWORD = "owner", "s3cret-pass"


@dataclass
class Received:
    """One mail as the server got it."""

    sender: str
    recipients: list[str]
    message: Message

    @property
    def subject(self) -> str:
        """The Subject header."""
        return str(self.message["Subject"])

    @property
    def body(self) -> str:
        """The plain-text body."""
        payload = self.message.get_payload(decode=True)
        return payload.decode() if isinstance(payload, bytes) else str(payload)


@dataclass
class Inbox:
    """What the test server received, and how to reach it."""

    port: int
    mails: list[Received] = field(default_factory=list)
    logins: list[str] = field(default_factory=list)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        """Keep every message."""
        self.mails.append(
            Received(
                envelope.mail_from, list(envelope.rcpt_tos), message_from_bytes(envelope.content)
            )
        )
        return "250 OK"

    def check_login(self, server: Any, session: Any, envelope: Any, mechanism: str,
                    data: Any) -> AuthResult:  # fmt: skip
        """Accept only USER / PASSWORD."""
        ok = isinstance(data, LoginPassword) and (data.login, data.password) == (
            USER.encode(), PASSWORD.encode(),
        )  # fmt: skip
        if ok:
            self.logins.append(USER)
        return AuthResult(success=ok, handled=False)


@pytest.fixture(scope="session")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 (its own CA), and its key."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "nasui test SMTP")])
    now = dt.datetime.now(dt.UTC)
    cert = (
        x509.CertificateBuilder().subject_name(name).issuer_name(name)
        .public_key(key.public_key()).serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(days=1)).not_valid_after(now + dt.timedelta(days=2))
        .add_extension(x509.SubjectAlternativeName(
            [x509.IPAddress(ipaddress.ip_address("127.0.0.1")), x509.DNSName("localhost")]),
            critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .sign(key, hashes.SHA256())
    )  # fmt: skip
    folder = tmp_path_factory.mktemp("tls")
    (folder / "cert.pem").write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    (folder / "key.pem").write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                          serialization.NoEncryption())
    )  # fmt: skip
    return folder / "cert.pem", folder / "key.pem"


def _server_context(certificate: tuple[Path, Path]) -> ssl.SSLContext:
    """The server side of TLS with the test certificate."""
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(*certificate)
    return context


def _serve(**options: Any) -> Iterator[Inbox]:
    """Run aiosmtpd on a free loopback port for the test; login=True requires USER / PASSWORD."""
    inbox = Inbox(port=free_loopback_port())
    if options.pop("login", False):
        options.update(authenticator=inbox.check_login, auth_required=True)
    controller = Controller(inbox, hostname="127.0.0.1", port=inbox.port, **options)
    controller.start()
    try:
        yield inbox
    finally:
        controller.stop()


@pytest.fixture
def smtp_server() -> Iterator[Inbox]:
    """A plain SMTP server on a free loopback port."""
    yield from _serve()


@pytest.fixture
def smtp_login_server(certificate: tuple[Path, Path]) -> Iterator[Inbox]:
    """An SMTP server that requires STARTTLS, then USER / PASSWORD."""
    yield from _serve(login=True, tls_context=_server_context(certificate), require_starttls=True)


@pytest.fixture
def starttls_server(certificate: tuple[Path, Path]) -> Iterator[Inbox]:
    """An SMTP server that requires STARTTLS with the self-signed certificate."""
    yield from _serve(tls_context=_server_context(certificate), require_starttls=True)


@pytest.fixture
def tls_server(certificate: tuple[Path, Path]) -> Iterator[Inbox]:
    """An SMTP server speaking TLS from the first byte (like port 465)."""
    yield from _serve(ssl_context=_server_context(certificate))


@pytest.fixture(autouse=True)
def data_dir(settings: Any, tmp_path: Path) -> Path:
    """A data directory of the test's own: an uploaded CA certificate is kept there."""
    settings.DATA_DIR = tmp_path / "data"
    return settings.DATA_DIR
