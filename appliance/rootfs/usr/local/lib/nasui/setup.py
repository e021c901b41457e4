"""Boot-time set-up in one Python process: migrate, create the admin, report its password.

Prints the first-boot admin password on stdout while it is still the admin's password (the console
banner shows it until it is changed), or nothing.
"""

import os
import sys
from pathlib import Path

import django
from django.core.management import call_command


def main(password_file: Path) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "nasui.settings")
    sys.path.insert(0, "/opt/nasui/app")
    django.setup()
    call_command("migrate", interactive=False, verbosity=0)
    call_command("ensure_admin", password_file=str(password_file), stdout=sys.stderr)
    if not password_file.exists():
        return
    from django.contrib.auth import get_user_model

    password = password_file.read_text().strip()
    admin = get_user_model().objects.filter(username="admin").first()
    if admin is not None and admin.check_password(password):
        print(password)
    else:
        password_file.unlink()  # changed: never show or keep the old one


if __name__ == "__main__":
    main(Path(sys.argv[1]))
