"""Create the `admin` user on first start, with a random password printed once."""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand


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
        users.objects.create_superuser(username="admin", email="", password=password)
        if options.get("password_file"):
            with open(options["password_file"], "w", opener=_private) as handle:
                handle.write(password + "\n")
        banner = "=" * 64
        self.stdout.write(
            f"{banner}\n  First start: log in as 'admin' with password: {password}\n"
            f"  It is shown only now; change it under Settings.\n{banner}"
        )


def _private(path: str, flags: int) -> int:
    """Open a file readable by its owner only."""
    import os

    return os.open(path, flags, 0o600)
