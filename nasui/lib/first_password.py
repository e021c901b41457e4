"""The appliance's first-boot admin password, without Django (boot-time code reads it too).

`$NASUI_DATA_DIR/admin-password` holds the password the first boot gave the admin; the console
shows it while it is still the admin's. `admin-password.hash` holds the admin's password hash that
it was last found to match: while the hash in the database is that one, the password is known to
be unchanged without a PBKDF2 check (a million rounds: ~20 s of an emulated boot).
"""

from __future__ import annotations

import base64
import hashlib
import os
import secrets
import string
from pathlib import Path

PASSWORD_FILE = "admin-password"  # noqa: S105 - a file name
# A fiftieth of Django's rounds: ~0.5 s instead of ~24 s at the appliance's first boot under TCG.
FIRST_START_ROUNDS = 20_000
SALT_CHARACTERS = string.ascii_letters + string.digits  # as Django's salts


def new_password() -> str:
    """A random first-start password: 16 URL-safe characters (96 bits)."""
    return secrets.token_urlsafe(12)


def light_hash(password: str) -> str:
    """`password` as a Django pbkdf2_sha256 hash of FIRST_START_ROUNDS rounds.

    The password sits in a file beside it anyway, so a slow hash adds no safety here; the first
    login re-hashes it at full strength (Django's must_update). Plain hashlib in Django's format,
    so that the first boot makes the admin without importing Django.
    """
    salt = "".join(secrets.choice(SALT_CHARACTERS) for _ in range(22))
    digest = hashlib.pbkdf2_hmac("sha256", password.encode(), salt.encode(), FIRST_START_ROUNDS)
    return f"pbkdf2_sha256${FIRST_START_ROUNDS}${salt}${base64.b64encode(digest).decode()}"


def write_password(password_file: Path, password: str) -> None:
    """Keep the first-start password in an owner-only file (a new one, whatever was there)."""
    password_file.unlink(missing_ok=True)
    with open(password_file, "w", opener=_owner_only) as handle:
        handle.write(password + "\n")


def _owner_only(path: str, flags: int) -> int:
    """Open a new file readable by its owner only."""
    return os.open(path, flags, 0o600)


def checked_file(password_file: Path) -> Path:
    """Where the matching hash is kept, beside the password."""
    return password_file.with_name(password_file.name + ".hash")


def known_password(password_file: Path, admin_hash: str | None) -> str | None:
    """The first-boot password if `admin_hash` is the hash it was last found to match, else None."""
    checked = checked_file(password_file)
    if admin_hash is None or not password_file.exists() or not checked.exists():
        return None
    if checked.read_text() != admin_hash:
        return None
    return password_file.read_text().strip()


def remember(password_file: Path, admin_hash: str) -> None:
    """Note that the first-boot password matches this hash (owner-only file)."""
    checked = checked_file(password_file)
    temporary = checked.with_name(checked.name + ".tmp")
    temporary.write_text(admin_hash)
    temporary.chmod(0o600)
    temporary.replace(checked)


def forget(password_file: Path) -> None:
    """The admin's password changed: the first-boot one is never shown or kept again."""
    password_file.unlink(missing_ok=True)
    checked_file(password_file).unlink(missing_ok=True)
