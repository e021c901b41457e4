"""Certificates made for the tests with `cryptography`: valid, expired, for other names, signed by
a CA, with keys of every kind the panel is asked to take."""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

NOW = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)


def key_pem(key: Any, passphrase: bytes | None = None) -> bytes:
    sealed = (
        serialization.BestAvailableEncryption(passphrase)
        if passphrase
        else serialization.NoEncryption()
    )
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, sealed)


def certificate(
    names: Sequence[str],
    key: Any = None,
    *,
    start: datetime = NOW - timedelta(days=1),
    days: int = 90,
    issuer: tuple[x509.Name, Any] | None = None,
    ca: bool = False,
) -> tuple[bytes, Any]:
    """A PEM certificate for `names` (DNS names or addresses) and its private key."""
    key = key or ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, names[0] if names else "x")])
    issuer_name, signer = issuer or (subject, key)
    alt: list[x509.GeneralName] = []
    for name in names:
        try:
            alt.append(x509.IPAddress(ipaddress.ip_address(name)))
        except ValueError:
            alt.append(x509.DNSName(name))
    builder = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(issuer_name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(start)
        .not_valid_after(start + timedelta(days=days))
        .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
    )
    if alt:
        builder = builder.add_extension(x509.SubjectAlternativeName(alt), critical=False)
    cert = builder.sign(signer, hashes.SHA256())
    return cert.public_bytes(serialization.Encoding.PEM), key


def issued(names: Sequence[str]) -> tuple[bytes, bytes]:
    """A leaf signed by a CA of its own, as fullchain.pem (leaf, then CA) and its key."""
    ca_pem, ca_key = certificate(["Family CA"], ca=True)
    ca_name = x509.load_pem_x509_certificate(ca_pem).subject
    leaf_pem, leaf_key = certificate(names, issuer=(ca_name, ca_key))
    return leaf_pem + ca_pem, key_pem(leaf_key)


def other_key() -> bytes:
    """A fresh key that belongs to no certificate (PEM)."""
    return key_pem(ec.generate_private_key(ec.SECP256R1()))
