"""Helpers of the connection tests."""

from __future__ import annotations

from replication.models import SshConnection


def secrets_of(connection: SshConnection) -> list[str]:
    """The private key's base64 lines: none may appear in a page or an answer."""
    return [line for line in connection.private_key.splitlines() if not line.startswith("-----")]


def shows_no_secret(text: str, connection: SshConnection) -> bool:
    """True when `text` holds no part of the connection's private key."""
    return "PRIVATE KEY" not in text and not any(line in text for line in secrets_of(connection))
