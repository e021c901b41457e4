"""The appliance's first-boot admin password, without Django (boot-time code reads it too).

`$NASUI_DATA_DIR/admin-password` holds the password the first boot gave the admin; the console
shows it while it is still the admin's. `admin-password.hash` holds the admin's password hash that
it was last found to match: while the hash in the database is that one, the password is known to
be unchanged without a PBKDF2 check (a million rounds: ~20 s of an emulated boot).
"""

from __future__ import annotations

from pathlib import Path

PASSWORD_FILE = "admin-password"  # noqa: S105 - a file name


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
