"""The certificate engine: every refusal names its field; a fitting pair is described."""

from __future__ import annotations

from datetime import timedelta

import pytest
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa

from system.certificates.engine import certs, files
from system.tests.certs_helpers import NOW, certificate, issued, key_pem

WEAK = rsa.generate_private_key(65537, 1024)  # noqa: S505 - the key size refused here


def box_check(pem: bytes, key: bytes) -> certs.CertInfo:
    """The check for a box called nas (nas.local) at 192.168.1.20, at NOW."""
    return certs.check(pem, key, names=["nas", "nas.local"], addresses=["192.168.1.20"], now=NOW)


def checked(names: list[str], **kwargs) -> certs.CertInfo:
    pem, key = certificate(names, **kwargs)
    return box_check(pem, key_pem(key))


@pytest.mark.parametrize(
    "names", [["nas"], ["nas.local"], ["nas.home.example"], ["*.home.example"], ["192.168.1.20"]]
)
def test_a_certificate_naming_the_box_is_taken(names: list[str]) -> None:
    info = checked(names)
    assert info.names == tuple(names)
    assert info.self_signed
    assert info.key_type == "ECDSA secp256r1"
    assert len(info.fingerprint.split(":")) == 32


def test_a_chain_from_a_certificate_authority_is_described_by_its_first_certificate() -> None:
    chain, key = issued(["nas.home.example"])
    info = box_check(chain, key)
    assert not info.self_signed
    assert info.subject == "CN=nas.home.example"


@pytest.mark.parametrize(
    ("names", "words"),
    [
        (["printer.home.example"], "names printer.home.example, not this box"),
        (["10.0.0.9"], r"not this box \(nas, nas.local, 192.168.1.20\)"),
    ],
)
def test_a_certificate_for_another_box_is_refused(names: list[str], words: str) -> None:
    with pytest.raises(certs.CertificateError, match=words) as refused:
        checked(names)
    assert refused.value.field == "certificate"


def test_an_expired_or_future_certificate_is_refused() -> None:
    with pytest.raises(certs.CertificateError, match="expired on 2026-11-"):
        checked(["nas"], start=NOW - timedelta(days=30), days=10)
    with pytest.raises(certs.CertificateError, match="valid only from 2026-12-"):
        checked(["nas"], start=NOW + timedelta(days=7))


def test_a_key_that_is_not_the_certificates_is_refused_on_the_key() -> None:
    pem, _ = certificate(["nas"])
    other = key_pem(ec.generate_private_key(ec.SECP256R1()))
    with pytest.raises(certs.KeyMismatch, match="does not belong") as refused:
        box_check(pem, other)
    assert refused.value.field == "key"


@pytest.mark.parametrize(
    ("key", "words"),
    [
        (key_pem(ec.generate_private_key(ec.SECP256R1()), b"secret"), "protected by a passphrase"),
        (
            b"-----BEGIN PRIVATE KEY-----\nnot base64\n-----END PRIVATE KEY-----\n",
            "not a private key",
        ),
        (key_pem(ed25519.Ed25519PrivateKey.generate()), "RSA and ECDSA keys only"),
        (key_pem(WEAK), "2048 bits or more; this one has 1024"),
    ],
)
def test_keys_nginx_or_browsers_cannot_use_are_refused(key: bytes, words: str) -> None:
    pem, _ = certificate(["nas"])
    with pytest.raises(certs.BadKey, match=words) as refused:
        box_check(pem, key)
    assert refused.value.field == "key"


def test_an_rsa_2048_pair_is_taken() -> None:
    key = rsa.generate_private_key(65537, 2048)
    assert checked(["nas"], key=key).key_type == "RSA 2048"


def test_what_is_not_a_certificate_is_refused() -> None:
    with pytest.raises(certs.CertificateError, match="not a certificate in PEM"):
        certs.read(b"hello")


def test_a_self_signed_pair_fits_its_own_check() -> None:
    pem, key = certs.self_signed(["nas", "nas.local"], ["192.168.1.20"], NOW)
    info = box_check(pem, key)
    assert info.names == ("nas", "nas.local", "192.168.1.20")
    assert info.not_after - NOW > timedelta(days=3600)


def test_ensure_makes_a_pair_once_and_again_after_a_new_host_name(tmp_path) -> None:
    assert (
        files.ensure(tmp_path, ["nas", "nas.local"], NOW)
        == "made a self-signed certificate for nas, nas.local"
    )
    first = files.current(tmp_path)
    assert (tmp_path / "tls" / "key.pem").stat().st_mode & 0o777 == 0o600
    assert files.ensure(tmp_path, ["nas", "nas.local"], NOW) is None
    assert files.current(tmp_path) == first
    assert files.ensure(tmp_path, ["attic", "attic.local"], NOW)  # the host was renamed
    assert certs.read(files.current(tmp_path) or b"").names == ("attic", "attic.local")


def test_ensure_leaves_an_uploaded_certificate_alone(tmp_path) -> None:
    chain, key = issued(["nas.home.example"])
    files.install(tmp_path, chain, key)
    assert files.ensure(tmp_path, ["attic", "attic.local"], NOW) is None
    assert files.current(tmp_path) == chain


def test_put_back_restores_the_pair_before(tmp_path) -> None:
    first = certs.self_signed(["nas"], [], NOW)
    files.install(tmp_path, *first)
    files.install(tmp_path, *certs.self_signed(["other"], [], NOW))
    files.put_back(tmp_path)
    assert files.current(tmp_path) == first[0]
    assert (tmp_path / "tls" / "key.pem").read_bytes() == first[1]
