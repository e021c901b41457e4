"""The web certificate as the host's TLS client sees it, and pairs made here to upload."""

from __future__ import annotations

import hashlib
import ssl

from appliance.testlib.poll import poll
from appliance.testlib.vm import VM


def served_fingerprint(vm: VM) -> str:
    """The SHA-256 of the certificate nginx presents, as the panel writes it (AA:BB:...)."""
    pem = ssl.get_server_certificate(("127.0.0.1", vm.https_port), timeout=30)
    digest = hashlib.sha256(ssl.PEM_cert_to_DER_cert(pem)).hexdigest().upper()
    return ":".join(digest[i : i + 2] for i in range(0, len(digest), 2))


def assert_served(vm: VM, fingerprint: str) -> None:
    """nginx presents the certificate `fingerprint` (a reload lets old workers finish first)."""
    seen = poll(lambda: served_fingerprint(vm), lambda got: got == fingerprint, 30, step=1)
    assert seen == fingerprint, f"nginx serves {seen}, not {fingerprint}"
