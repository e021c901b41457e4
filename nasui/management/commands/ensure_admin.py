"""Create the `admin` user on first start, with a random password printed once."""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.core.management.base import BaseCommand

# A fiftieth of Django's rounds: ~0.5 s instead of ~24 s at the appliance's first boot under TCG.
FIRST_START_ROUNDS = 20_000


class Command(BaseCommand):
    """First-start set-up: make sure somebody can log in."""

    help = "Create an 'admin' superuser with a random password if no user exists yet."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--password-file", help="Also write the password to this file (0600).")

    def handle(self, *args: Any, **options: Any) -> None:
        users = get_user_model()
        if users.objects.exists():
            self.stdout.write("Users exist already; nothing to do.")
            return
        password = secrets.token_urlsafe(12)
        admin = users.objects.create_superuser(username="admin", email="", password=None)
        if options.get("password_file"):
            # The password itself sits in that file until it is changed, so a slow hash adds no
            # safety here and costs the appliance's first boot ~24 s under emulation: a light one
            # is kept until the first login re-hashes it at full strength (Django's must_update).
            admin.password = first_start_hash(password)
        else:
            admin.set_password(password)
        admin.save(update_fields=["password"])
        # Written after the hash: the hash watcher (nasui.first_password) has nothing to check.
        if options.get("password_file"):
            with open(options["password_file"], "w", opener=_private) as handle:
                handle.write(password + "\n")
        banner = "=" * 64
        self.stdout.write(
            f"{banner}\n  First start: log in as 'admin' with password: {password}\n"
            f"  It is shown only now; change it under Settings.\n{banner}"
        )


def first_start_hash(password: str) -> str:
    """A PBKDF2 hash of a password kept in a file beside it anyway: FIRST_START_ROUNDS rounds."""
    hasher = PBKDF2PasswordHasher()
    return hasher.encode(password, hasher.salt(), iterations=FIRST_START_ROUNDS)


def _private(path: str, flags: int) -> int:
    """Open a file readable by its owner only."""
    import os

    return os.open(path, flags, 0o600)
