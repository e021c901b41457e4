"""Key pairs made on this box (Ed25519, by the cryptography library), in OpenSSH's formats."""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey


@dataclass(frozen=True)
class KeyPair:
    """A private key (OpenSSH PEM, unencrypted: the panel's database is owner-only) and its
    public line, the one to paste into the other side's authorized_keys."""

    private: str
    public: str

    @property
    def fingerprint(self) -> str:
        """SHA256:... as `ssh-keygen -l` prints it."""
        return fingerprint(self.public.split()[1])


def generate(comment: str) -> KeyPair:
    """A new Ed25519 key pair; `comment` ends the public line (who made it, for the other side)."""
    key = Ed25519PrivateKey.generate()
    private = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.OpenSSH,
        serialization.NoEncryption(),
    ).decode()
    public = key.public_key().public_bytes(
        serialization.Encoding.OpenSSH, serialization.PublicFormat.OpenSSH
    )
    return KeyPair(private, f"{public.decode()} {comment}".strip())


def fingerprint(blob: str) -> str:
    """The SHA256 fingerprint of a base64 key blob, without padding, as OpenSSH shows it."""
    digest = hashlib.sha256(base64.b64decode(blob)).digest()
    return "SHA256:" + base64.b64encode(digest).decode().rstrip("=")
