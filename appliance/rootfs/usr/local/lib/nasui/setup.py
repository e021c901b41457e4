"""Boot-time set-up in one Python process: migrate, create the admin, report its password.

Prints the first-boot admin password on stdout while it is still the admin's password (the console
banner shows it until it is changed), or nothing.

Later boots do as little as they can (under emulation, a second of CPU is many of boot).
Migrations run only when the image's migration files or the database's count of applied ones
changed since the last run (a stamp on the data partition); the first-boot password is checked
against the admin's hash (a PBKDF2 of a million rounds) only when that hash changed since.
"""

import hashlib
import os
import sys
from pathlib import Path

import django
from django.core.management import call_command


def migrations_stamp() -> str:
    """What decides whether migrate has work: every app's migration files and what the database
    says it applied (a reset or another database file shows as another count)."""
    from django.apps import apps
    from django.db import connection

    digest = hashlib.sha256()
    for config in apps.get_app_configs():
        for path in sorted((Path(config.path) / "migrations").glob("*.py")):
            digest.update(f"{config.label}/{path.name}:{path.stat().st_size}\n".encode())
    applied = 0
    if "django_migrations" in connection.introspection.table_names():
        with connection.cursor() as cursor:
            cursor.execute("SELECT COUNT(*) FROM django_migrations")
            applied = cursor.fetchone()[0]
    digest.update(f"applied:{applied}\n".encode())
    return digest.hexdigest()


def migrate(data: Path) -> None:
    """Apply migrations unless nothing changed since they were last applied."""
    stamp_file = data / "migrations.stamp"
    if stamp_file.exists() and stamp_file.read_text() == migrations_stamp():
        return
    call_command("migrate", interactive=False, verbosity=0)
    stamp_file.write_text(migrations_stamp())


def first_password(password_file: Path) -> str:
    """The first-boot password while it is still the admin's, else "" (and it is forgotten)."""
    if not password_file.exists():
        return ""
    from django.contrib.auth import get_user_model

    password = password_file.read_text().strip()
    admin = get_user_model().objects.filter(username="admin").first()
    checked = password_file.with_name(password_file.name + ".hash")
    if admin is not None and checked.exists() and checked.read_text() == admin.password:
        return password  # the very hash it matched before: the password did not change
    if admin is not None and admin.check_password(password):
        # check_password may have re-hashed it (more rounds after an upgrade): keep the new one.
        checked.write_text(admin.password)
        checked.chmod(0o600)
        return password
    password_file.unlink()  # changed: never show or keep the old one
    checked.unlink(missing_ok=True)
    return ""


def main(password_file: Path) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "nasui.settings")
    sys.path.insert(0, "/opt/nasui/app")
    django.setup()
    migrate(password_file.parent)
    call_command("ensure_admin", password_file=str(password_file), stdout=sys.stderr)
    password = first_password(password_file)
    if password:
        print(password)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
