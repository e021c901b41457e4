"""Create the `admin` user on first start, with a random password printed once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from nasui import services
from nasui.lib.first_password import light_hash, new_password, write_password


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
        password = new_password()
        admin = users.objects.create_superuser(username="admin", email="", password=None)
        if options.get("password_file"):
            # The password itself sits in that file until it is changed: a light hash until
            # the first login re-hashes it at full strength.
            admin.password = light_hash(password)
        else:
            admin.set_password(password)
        admin.save(update_fields=["password"])
        services.password_change_require(user=admin)  # the first login asks for their own
        # Written after the hash: the hash watcher (nasui.first_password) has nothing to check.
        if options.get("password_file"):
            write_password(Path(options["password_file"]), password)
        banner = "=" * 64
        self.stdout.write(
            f"{banner}\n  First start: log in as 'admin' with password: {password}\n"
            f"  It is shown only now; the first login asks you to choose your own.\n{banner}"
        )
