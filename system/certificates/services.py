"""The web certificate: put an uploaded pair in service, or a new self-signed one.

A pair is checked before anything is written (engine/certs.py); once written the web server
is told, and if it refuses, the pair before it is put back and served again: the panel never
stays behind a certificate its web server will not use.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from datetime import UTC, datetime

from nasui.validation import fail, refusal
from system.certificates import runtime, selectors
from system.certificates.engine import certs, files

MAX_PEM = 256 << 10  # a long chain is a few KiB


def certificate_upload(*, certificate: bytes, key: bytes) -> certs.CertInfo:
    """Serve `certificate` (PEM, the chain after it) with `key` once both are checked:
    the key is the certificate's and unsealed, the certificate valid now and naming this box."""
    for field, value in (("certificate", certificate), ("key", key)):
        if len(value) > MAX_PEM:
            raise fail(field, f"A PEM file here is at most {MAX_PEM >> 10} KiB.")
    try:
        info = certs.check(
            certificate,
            key,
            names=selectors.box_names(),
            addresses=selectors.box_addresses(),
            now=datetime.now(UTC),
        )
    except certs.CertificateError as exc:
        raise fail(exc.field, str(exc)) from exc
    _serve(certificate, key)
    return info


def certificate_self_signed(
    host: str | None = None, addresses: Sequence[str] = ()
) -> certs.CertInfo:
    """A new self-signed certificate for this box's names (`host`'s when given: a host name
    being set) and addresses (with `addresses`: those being set), in service."""
    every = list(dict.fromkeys([*selectors.box_addresses(), *addresses]))
    pem, key = certs.self_signed(selectors.box_names(host), every, datetime.now(UTC))
    _serve(pem, key)
    return certs.read(pem)


def _serve(certificate: bytes, key: bytes) -> None:
    folder = selectors.data_dir()
    files.install(folder, certificate, key)
    try:
        runtime.reload_web_server()
    except runtime.WebServerError as exc:
        files.put_back(folder)
        # The pair before it is in place again: if even that reload fails, the next start
        # serves it.
        with contextlib.suppress(runtime.WebServerError):
            runtime.reload_web_server()
        raise refusal(f"The web server refused the certificate, which was put back: {exc}") from exc
    runtime.refresh_console()
