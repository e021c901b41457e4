"""Making and checking API token secrets (no database access here)."""

from __future__ import annotations

import hashlib
import secrets

TOKEN_PREFIX = "nasui_"  # noqa: S105 (a label, not a secret)
PREFIX_LENGTH = len(TOKEN_PREFIX) + 6


def new_token_key() -> str:
    """A fresh secret: a recognisable prefix and 40 random URL-safe characters."""
    return TOKEN_PREFIX + secrets.token_urlsafe(30)


def hash_token_key(key: str) -> str:
    """SHA-256 of the secret: enough for random 240-bit keys, and fast on every request."""
    return hashlib.sha256(key.encode()).hexdigest()


def token_display_prefix(key: str) -> str:
    """The part of the key shown in lists so that users can tell tokens apart."""
    return key[:PREFIX_LENGTH]
