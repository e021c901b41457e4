"""The web certificate: check an uploaded certificate and key, make a self-signed one.

Plain Python over `cryptography`. A pair is used only if it would work in a browser's eyes
and nginx's: both are PEM, the key is not sealed with a passphrase (nginx would ask for it at
every start), the key is the certificate's, the certificate is valid now, and it names this
box (its host name, that name under .local or another domain, or one of its addresses).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from cryptography import x509
from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed448, ed25519, rsa
from cryptography.x509.oid import NameOID

SELF_SIGNED_DAYS = 3650  # a browser exception is made once; nothing else trusts it anyway
Address = ipaddress.IPv4Address | ipaddress.IPv6Address
ServedKey = rsa.RSAPrivateKey | ec.EllipticCurvePrivateKey
MIN_RSA_BITS = 2048  # what browsers still accept


class CertificateError(Exception):
    """A certificate or key nasui will not serve; `field` says which of the two is at fault."""

    field = "certificate"


class BadKey(CertificateError):
    """The key is not a private key in PEM, or is sealed with a passphrase."""

    field = "key"


class KeyMismatch(CertificateError):
    """The key is not the certificate's."""

    field = "key"


@dataclass(frozen=True)
class CertInfo:
    """What the panel shows of a certificate."""

    subject: str
    names: tuple[str, ...]  # its DNS names and addresses (subjectAltName, else the CN)
    not_before: datetime
    not_after: datetime
    fingerprint: str  # SHA-256, colon-separated hex, as browsers show it
    self_signed: bool
    key_type: str


def read(certificate: bytes) -> CertInfo:
    """The first certificate of a PEM chain, described; CertificateError if there is none."""
    return describe(_leaf(certificate))


def check(
    certificate: bytes, key: bytes, *, names: Sequence[str], addresses: Sequence[str], now: datetime
) -> CertInfo:
    """The pair described if it can be served now for a box called `names` at `addresses`;
    CertificateError (naming the field at fault) if not."""
    leaf = _leaf(certificate)
    private = _private_key(key)
    public = serialization.PublicFormat.SubjectPublicKeyInfo
    encoding = serialization.Encoding.DER
    try:
        certified = leaf.public_key().public_bytes(encoding, public)
    except (ValueError, UnsupportedAlgorithm) as exc:
        raise CertificateError("The certificate's key is of a kind browsers do not take.") from exc
    if private.public_key().public_bytes(encoding, public) != certified:
        raise KeyMismatch("This key does not belong to the certificate.")
    info = describe(leaf)
    if now < info.not_before:
        raise CertificateError(
            f"The certificate is valid only from {info.not_before:%Y-%m-%d %H:%M} UTC."
        )
    if now > info.not_after:
        raise CertificateError(f"The certificate expired on {info.not_after:%Y-%m-%d}.")
    if not covers(info.names, names, addresses):
        ours = ", ".join([*names, *addresses])
        theirs = ", ".join(info.names) or "no name"
        raise CertificateError(
            f"The certificate names {theirs}, not this box ({ours}): browsers would warn on "
            "every visit."
        )
    return info


def covers(cert_names: Sequence[str], names: Sequence[str], addresses: Sequence[str]) -> bool:
    """Whether one of the certificate's names is one of the box's: a host name matches itself
    and any domain under it (nas matches nas.home.example, also through a *. wildcard)."""
    ours = {_address(a) for a in addresses} - {None}
    hosts = [n.lower().rstrip(".") for n in names if n]
    for name in cert_names:
        if _address(name) in ours:
            return True
        if any(_host_matches(name.lower().rstrip("."), host) for host in hosts):
            return True
    return False


def self_signed(
    names: Sequence[str], addresses: Sequence[str], now: datetime
) -> tuple[bytes, bytes]:
    """A new P-256 key and a certificate for `names` and `addresses` signed by it (PEM)."""
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, names[0] if names else "nasui")])
    alt = [x509.DNSName(n) for n in names] + [
        x509.IPAddress(ipaddress.ip_address(a)) for a in addresses
    ]
    cert = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(minutes=5))  # a clock a little behind still trusts it
        .not_valid_after(now + timedelta(days=SELF_SIGNED_DAYS))
        .add_extension(x509.SubjectAlternativeName(alt), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(
            x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False
        )
        .sign(key, hashes.SHA256())
    )
    key_pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    return cert.public_bytes(serialization.Encoding.PEM), key_pem


def describe(cert: x509.Certificate) -> CertInfo:
    """The panel's view of one certificate."""
    fingerprint = cert.fingerprint(hashes.SHA256()).hex().upper()
    return CertInfo(
        subject=cert.subject.rfc4514_string(),
        names=_names(cert),
        not_before=cert.not_valid_before_utc,
        not_after=cert.not_valid_after_utc,
        fingerprint=":".join(fingerprint[i : i + 2] for i in range(0, len(fingerprint), 2)),
        self_signed=cert.issuer == cert.subject,
        key_type=_key_type(cert.public_key()),
    )


def _leaf(certificate: bytes) -> x509.Certificate:
    try:
        chain = x509.load_pem_x509_certificates(certificate)
    except ValueError as exc:
        raise CertificateError(
            "This is not a certificate in PEM form (-----BEGIN CERTIFICATE-----)."
        ) from exc
    return chain[0]


def _private_key(key: bytes) -> ServedKey:
    try:
        private = serialization.load_pem_private_key(key, password=None)
    except TypeError as exc:  # sealed with a passphrase
        raise BadKey("The key is protected by a passphrase: upload it without one.") from exc
    except (ValueError, UnsupportedAlgorithm) as exc:
        raise BadKey(
            "This is not a private key in PEM form (-----BEGIN PRIVATE KEY-----)."
        ) from exc
    # Browsers take web certificates with RSA and ECDSA keys only (not Ed25519 yet).
    if not isinstance(private, (rsa.RSAPrivateKey, ec.EllipticCurvePrivateKey)):
        raise BadKey("Browsers accept RSA and ECDSA keys only.")
    if isinstance(private, rsa.RSAPrivateKey) and private.key_size < MIN_RSA_BITS:
        raise BadKey(
            f"An RSA key needs {MIN_RSA_BITS} bits or more; this one has {private.key_size}."
        )
    return private


def _names(cert: x509.Certificate) -> tuple[str, ...]:
    try:
        alt = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    except x509.ExtensionNotFound:
        return tuple(str(a.value) for a in cert.subject.get_attributes_for_oid(NameOID.COMMON_NAME))
    dns = alt.get_values_for_type(x509.DNSName)
    ips = [str(ip) for ip in alt.get_values_for_type(x509.IPAddress)]
    return (*dns, *ips)


def _key_type(public: object) -> str:
    if isinstance(public, rsa.RSAPublicKey):
        return f"RSA {public.key_size}"
    if isinstance(public, ec.EllipticCurvePublicKey):
        return f"ECDSA {public.curve.name}"
    if isinstance(public, ed25519.Ed25519PublicKey):
        return "Ed25519"
    if isinstance(public, ed448.Ed448PublicKey):
        return "Ed448"
    return type(public).__name__


def _address(text: str) -> Address | None:
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def _host_matches(cert_name: str, host: str) -> bool:
    if cert_name == host or cert_name.startswith(host + "."):
        return True
    # *.home.example covers nas.home.example: a wildcard stands for the host name's one label.
    return cert_name.startswith("*.") and "." not in host
