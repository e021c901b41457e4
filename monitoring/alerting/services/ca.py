"""The extra CA certificate the mail server is verified with: a PEM file in a folder meant for
certificates, or one uploaded through the panel and kept in its data directory.

A typed path is resolved (symlinks and `..` followed) and must lie in an allowed folder; a path
elsewhere gets the same answer as a missing one, so the field cannot be used to learn which
files exist on the NAS.
"""

from __future__ import annotations

import os
import re
import ssl
from pathlib import Path

from cryptography import x509
from django.conf import settings

from nasui.lib.files import write_atomic

# Where a CA file may be named: the system's certificate folders and the panel's own uploads.
SYSTEM_CA_DIRS = (
    "/etc/ssl/certs",
    "/usr/share/ca-certificates",
    "/usr/local/share/ca-certificates",
)
UPLOAD_DIR = "mail-ca"  # under DATA_DIR
UPLOAD_NAME = "smtp-ca.pem"
MAX_PEM_BYTES = 256 * 1024  # a CA certificate is a few KiB; a whole bundle about 200 KiB
_PEM_LABEL = re.compile(rb"-----BEGIN ([A-Z0-9 ]+)-----")

NOT_FOUND = (
    "No certificate file at this path in the folders a CA file may be read from "
    f"({', '.join(SYSTEM_CA_DIRS)}): upload the PEM file instead."
)
NOT_PEM = (
    "Not a PEM certificate: expected text with -----BEGIN CERTIFICATE----- blocks "
    "(a .pem or .crt file)."
)


def upload_dir() -> Path:
    """Where an uploaded CA certificate is kept."""
    return Path(settings.DATA_DIR) / UPLOAD_DIR


def _allowed_dirs() -> list[Path]:
    """The allowed folders, resolved."""
    return [Path(os.path.realpath(d)) for d in (*SYSTEM_CA_DIRS, upload_dir())]


def _allowed_file(path: str) -> Path | None:
    """The resolved file when `path` names a regular file in an allowed folder, else None."""
    if not os.path.isabs(path):
        return None
    real = Path(os.path.realpath(path))
    if not any(folder in real.parents for folder in _allowed_dirs()):
        return None
    return real if real.is_file() else None


def pem_problem(data: bytes) -> str:
    """Why `data` is not a PEM file of certificates only, or "" when it is one."""
    if len(data) > MAX_PEM_BYTES:
        return f"The file is over {MAX_PEM_BYTES // 1024} KiB: a CA certificate is a few KiB."
    labels = {label.decode() for label in _PEM_LABEL.findall(data)}
    if not labels:
        return NOT_PEM
    if labels != {"CERTIFICATE"}:
        others = ", ".join(sorted(labels - {"CERTIFICATE"})).lower()
        return f"The file holds a {others}, not only certificates: give the CA's certificate alone."
    try:
        x509.load_pem_x509_certificates(data)
        ssl.create_default_context().load_verify_locations(cadata=data.decode("ascii"))
    except (ValueError, ssl.SSLError):  # UnicodeDecodeError is a ValueError
        return "The certificate in the file is damaged: it could not be read."
    return ""


def ca_file_problem(path: str) -> str:
    """Why the CA file at `path` cannot be used, or "" when it can."""
    found = _allowed_file(path)
    if found is None:
        return NOT_FOUND
    try:
        with found.open("rb") as handle:
            data = handle.read(MAX_PEM_BYTES + 1)
    except OSError:
        return NOT_FOUND
    return pem_problem(data)


def ca_store(data: bytes) -> str:
    """Keep an uploaded (already checked) PEM certificate; the path to use as the CA file."""
    folder = upload_dir()
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    target = folder / UPLOAD_NAME
    write_atomic(target, data.decode("ascii"), mode=0o644)
    return str(target)
