"""Boot-time set-up: migrate, create the admin, report its password.

Prints the first-boot admin password on stdout while it is still the admin's password (the console
banner shows it until it is changed), or nothing.

Under emulation a second of CPU is many of boot, so a boot does as little as it can. A later boot
with nothing to do never imports Django: plain sqlite3 shows that the migrations stamp (the image's
migration files and the count the database applied) is unchanged, that a user exists, and that
the admin's password hash is the one the first-boot password was last checked against (a PBKDF2
check costs ~20 s there). A first boot needs no Django either: the database is a copy of the
image's template (migrated by appliance/build.sh with this image's code, no users), and the admin
is one row with a light hash, like ensure_admin's. Otherwise Django migrates, makes the admin and
checks the password.
"""

import hashlib
import os
import shutil
import sqlite3
import sys
import sysconfig
from collections.abc import Sequence
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path

APP = Path("/opt/nasui/app")
sys.path.insert(0, str(APP))
from nasui.lib import first_password  # noqa: E402 - found through APP; imports no Django

TEMPLATE = Path("/opt/nasui/template.sqlite3")  # built by appliance/build.sh: migrated, no users
MIGRATIONS = ("*/migrations/*.py", "*/contrib/*/migrations/*.py")


def code_roots() -> tuple[Path, ...]:
    """Where the apps' migration files live: the panel and the venv's packages."""
    return APP, Path(sysconfig.get_paths()["purelib"])


def migrations_stamp(db: sqlite3.Connection, roots: Sequence[Path]) -> str:
    """Whether migrate has work: every migration file (name, size) and how many were applied."""
    digest = hashlib.sha256()
    for root in roots:
        for pattern in MIGRATIONS:
            for path in sorted(root.glob(pattern)):
                digest.update(f"{path.relative_to(root)}:{path.stat().st_size}\n".encode())
    applied = 0
    if db.execute("SELECT 1 FROM sqlite_master WHERE name = 'django_migrations'").fetchone():
        applied = db.execute("SELECT COUNT(*) FROM django_migrations").fetchone()[0]
    digest.update(f"applied:{applied}\n".encode())
    return digest.hexdigest()


def quick_boot(data: Path, password_file: Path, roots: Sequence[Path]) -> str | None:
    """The password to show ("" for none) when nothing needs Django; None when something does."""
    database, stamp = data / "nasui.sqlite3", data / "migrations.stamp"
    if os.environ.get("NASUI_DATABASE_URL") or not database.exists() or not stamp.exists():
        return None
    with closing(sqlite3.connect(database)) as db:
        if stamp.read_text() != migrations_stamp(db, roots):
            return None
        if not db.execute("SELECT COUNT(*) FROM auth_user").fetchone()[0]:
            return None  # ensure_admin has work
        admin = db.execute("SELECT password FROM auth_user WHERE username = 'admin'").fetchone()
    if not password_file.exists():
        return ""
    return first_password.known_password(password_file, admin[0] if admin else None)


def first_boot(data: Path, password_file: Path, roots: Sequence[Path]) -> str | None:
    """The first boot's database and admin without Django: the password to show, or None.

    None (Django does it) with another database, or a database already there, or no template.
    """
    database = data / "nasui.sqlite3"
    if os.environ.get("NASUI_DATABASE_URL") or database.exists() or not TEMPLATE.exists():
        return None
    staged = database.with_name(database.name + ".new")  # in place only once it has the admin
    shutil.copyfile(TEMPLATE, staged)
    staged.chmod(0o600)  # it will hold CHAP and SMTP secrets
    password = first_password.new_password()
    admin_hash = first_password.light_hash(password)
    try:
        with closing(sqlite3.connect(staged)) as db:
            insert_admin(db, admin_hash)
            db.commit()
            stamp = migrations_stamp(db, roots)
    except sqlite3.Error as exc:  # a template whose users table is not Django's: Django does it
        print(f"nasui-setup: the template database refused the admin ({exc})", file=sys.stderr)
        staged.unlink()
        return None
    first_password.write_password(password_file, password)
    first_password.remember(password_file, admin_hash)
    staged.replace(database)
    (data / "migrations.stamp").write_text(stamp)
    return password


def insert_admin(db: sqlite3.Connection, admin_hash: str) -> None:
    """The `admin` superuser, as ensure_admin's create_superuser makes it (Django's columns)."""
    if db.execute("SELECT COUNT(*) FROM auth_user").fetchone()[0]:
        raise sqlite3.IntegrityError("the template has users")
    joined = datetime.now(UTC).replace(tzinfo=None).isoformat(" ")  # naive UTC, as Django's
    db.execute(
        "INSERT INTO auth_user (password, last_login, is_superuser, username, first_name,"
        " last_name, email, is_staff, is_active, date_joined)"
        " VALUES (?, NULL, 1, 'admin', '', '', '', 1, 1, ?)",
        (admin_hash, joined),
    )
    # As ensure_admin: the first login asks the admin to choose a password of their own.
    admin_id = db.execute("SELECT id FROM auth_user WHERE username = 'admin'").fetchone()[0]
    db.execute(
        "INSERT INTO nasui_passwordchangedue (user_id, since) VALUES (?, ?)", (admin_id, joined)
    )


def migrate(data: Path, roots: Sequence[Path]) -> None:
    """Bring the database up to date; a new SQLite one starts as the image's template."""
    from django.conf import settings
    from django.core.management import call_command

    default = settings.DATABASES["default"]
    sqlite = default["ENGINE"] == "django.db.backends.sqlite3"
    database = Path(str(default["NAME"]))
    if sqlite and not database.exists() and TEMPLATE.exists():
        shutil.copyfile(TEMPLATE, database)
    # Without the system checks (they import every view: seconds of an emulated boot); the test
    # suite runs them on the same code.
    call_command("migrate", interactive=False, verbosity=0, skip_checks=True)
    if sqlite:
        with closing(sqlite3.connect(database)) as db:
            (data / "migrations.stamp").write_text(migrations_stamp(db, roots))


def set_up(data: Path, password_file: Path, roots: Sequence[Path]) -> str:
    """The work that needs Django; returns the password to show ("" for none)."""
    import django
    from django.core.management import call_command

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "nasui.settings")
    django.setup()
    migrate(data, roots)
    fresh = not password_file.exists()
    call_command("ensure_admin", password_file=str(password_file), stdout=sys.stderr)
    from django.contrib.auth import get_user_model

    from nasui.first_password import password_to_show

    if fresh and password_file.exists():  # the admin was made just now with this password
        first_password.remember(
            password_file, get_user_model().objects.get(username="admin").password
        )
    return password_to_show(password_file)


def main(password_file: Path) -> None:
    data, roots = password_file.parent, code_roots()
    password = quick_boot(data, password_file, roots)
    if password is None:
        password = first_boot(data, password_file, roots)
    if password is None:
        password = set_up(data, password_file, roots)
    if password:
        print(password)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
