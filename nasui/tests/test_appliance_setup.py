"""The appliance's boot-time set-up (appliance/rootfs/usr/local/lib/nasui/setup.py): what a later
boot skips (Django itself when nothing changed, a PBKDF2 check of an unchanged password) and what
it never skips (a changed password, new migrations, a database without users)."""

from __future__ import annotations

import importlib.util
import sqlite3
from contextlib import closing
from pathlib import Path
from types import ModuleType

import django.core.management
import pytest
from django.contrib.auth.models import User

from nasui.models import PasswordChangeDue

SETUP = Path(__file__).resolve().parents[2] / "appliance/rootfs/usr/local/lib/nasui/setup.py"
PASSWORD = "first-boot-secret"


@pytest.fixture
def setup() -> ModuleType:
    spec = importlib.util.spec_from_file_location("nasui_boot_setup", SETUP)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def code(tmp_path) -> Path:
    """An app tree with one migration file."""
    root = tmp_path / "app"
    (root / "things/migrations").mkdir(parents=True)
    (root / "things/migrations/0001_initial.py").write_text("# one\n")
    return root


def make_database(path: Path, *, applied: int, admin_hash: str | None) -> None:
    """An SQLite file with Django's migrations and users tables, as far as the set-up reads."""
    with closing(sqlite3.connect(path)) as db:
        db.execute("CREATE TABLE django_migrations (id INTEGER PRIMARY KEY, name TEXT)")
        db.executemany("INSERT INTO django_migrations (name) VALUES (?)", [("m",)] * applied)
        db.execute("CREATE TABLE auth_user (id INTEGER PRIMARY KEY, username TEXT, password TEXT)")
        if admin_hash is not None:
            db.execute(
                "INSERT INTO auth_user (username, password) VALUES ('admin', ?)", [admin_hash]
            )
        db.commit()


@pytest.fixture
def booted(setup, code, tmp_path, monkeypatch):
    """A data directory as a previous boot left it: database, stamp, password and its hash."""
    monkeypatch.delenv("NASUI_DATABASE_URL", raising=False)
    data = tmp_path / "data"
    data.mkdir()
    make_database(data / "nasui.sqlite3", applied=3, admin_hash="pbkdf2_sha256$1$salt$x")
    with closing(sqlite3.connect(data / "nasui.sqlite3")) as db:
        (data / "migrations.stamp").write_text(setup.migrations_stamp(db, [code]))
    (data / "admin-password").write_text(PASSWORD + "\n")
    (data / "admin-password.hash").write_text("pbkdf2_sha256$1$salt$x")
    return data


def quick(setup, data: Path, code: Path) -> str | None:
    return setup.quick_boot(data, data / "admin-password", [code])


def test_a_boot_with_nothing_to_do_needs_no_django(setup, booted, code):
    assert quick(setup, booted, code) == PASSWORD
    (booted / "admin-password").unlink()
    assert quick(setup, booted, code) == "", "no password to show, and still no Django"


def test_a_new_migration_file_needs_django(setup, booted, code):
    (code / "things/migrations/0002_more.py").write_text("# two\n")
    assert quick(setup, booted, code) is None


def test_a_database_that_lost_its_migrations_needs_django(setup, booted, code):
    with closing(sqlite3.connect(booted / "nasui.sqlite3")) as db:
        db.execute("DELETE FROM django_migrations WHERE id = 1")
        db.commit()
    assert quick(setup, booted, code) is None


def test_a_changed_admin_password_needs_django(setup, booted, code):
    with closing(sqlite3.connect(booted / "nasui.sqlite3")) as db:
        db.execute("UPDATE auth_user SET password = 'pbkdf2_sha256$1$salt$changed'")
        db.commit()
    assert quick(setup, booted, code) is None


@pytest.mark.parametrize("missing", ["nasui.sqlite3", "migrations.stamp"])
def test_a_first_boot_needs_django(setup, booted, code, missing):
    (booted / missing).unlink()
    assert quick(setup, booted, code) is None


def test_no_users_or_another_database_needs_django(setup, booted, code, monkeypatch):
    with closing(sqlite3.connect(booted / "nasui.sqlite3")) as db:
        db.execute("DELETE FROM auth_user")
        db.commit()
    assert quick(setup, booted, code) is None
    with closing(sqlite3.connect(booted / "nasui.sqlite3")) as db:
        db.execute("INSERT INTO auth_user (username, password) VALUES ('admin', 'x')")
        db.commit()
    (booted / "admin-password").unlink()
    assert quick(setup, booted, code) == ""
    monkeypatch.setenv("NASUI_DATABASE_URL", "postgres://db/nasui")
    assert quick(setup, booted, code) is None


@pytest.mark.django_db
def test_set_up_makes_the_admin_and_remembers_its_hash(setup, tmp_path, monkeypatch):
    real = django.core.management.call_command
    migrated: list[str] = []

    def call_command(name, **options):
        if name == "migrate":  # the test database is migrated already
            migrated.append(name)
            return None
        return real(name, **options)

    monkeypatch.setattr(django.core.management, "call_command", call_command)
    password_file = tmp_path / "admin-password"
    password = setup.set_up(tmp_path, password_file, [])
    assert migrated == ["migrate"]
    assert password == password_file.read_text().strip()
    assert (tmp_path / "admin-password.hash").read_text() == User.objects.get().password
    assert (tmp_path / "admin-password.hash").stat().st_mode & 0o777 == 0o600
    assert (tmp_path / "migrations.stamp").exists()


@pytest.mark.django_db
def test_set_up_forgets_a_password_that_changed(setup, tmp_path, monkeypatch):
    monkeypatch.setattr(django.core.management, "call_command", lambda *_a, **_k: None)
    User.objects.create_superuser("admin", password="the admin's own choice")
    password_file = tmp_path / "admin-password"
    password_file.write_text(PASSWORD + "\n")
    assert setup.set_up(tmp_path, password_file, []) == ""
    assert not password_file.exists()


@pytest.fixture
def template(setup, tmp_path, monkeypatch, transactional_db) -> Path:
    """The image's template: a copy of the migrated test database as committed (no users)."""
    from django.db import connection

    path = tmp_path / "template.sqlite3"
    with (
        closing(sqlite3.connect(connection.settings_dict["NAME"])) as src,
        closing(sqlite3.connect(path)) as dst,
    ):
        src.backup(dst)
    monkeypatch.setattr(setup, "TEMPLATE", path)
    monkeypatch.delenv("NASUI_DATABASE_URL", raising=False)
    return path


def test_a_first_boot_makes_the_database_and_admin_without_django(
    setup, template, code, tmp_path, settings
):
    from django.contrib.auth.hashers import check_password

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]
    data = tmp_path / "data"
    data.mkdir()
    password = setup.first_boot(data, data / "admin-password", [code])
    assert password, "no password"
    assert (data / "admin-password").read_text().strip() == password
    assert (data / "admin-password").stat().st_mode & 0o777 == 0o600
    assert (data / "nasui.sqlite3").stat().st_mode & 0o777 == 0o600
    with closing(sqlite3.connect(data / "nasui.sqlite3")) as db:
        rows = db.execute("SELECT username, password, is_superuser FROM auth_user").fetchall()
    assert [(name, superuser) for name, _, superuser in rows] == [("admin", 1)]
    assert check_password(password, rows[0][1])
    assert quick(setup, data, code) == password, "the next boot needs no Django either"
    assert not (data / "nasui.sqlite3.new").exists()


def test_the_admin_row_is_one_django_logs_in_with_and_re_hashes(setup, template, settings):
    from django.contrib.auth.hashers import PBKDF2PasswordHasher
    from django.db import connection
    from django.utils import timezone

    from nasui.lib import first_password

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]
    password = first_password.new_password()
    with closing(sqlite3.connect(connection.settings_dict["NAME"])) as db:
        setup.insert_admin(db, first_password.light_hash(password))
        db.commit()
    admin = User.objects.get(username="admin")
    assert (admin.is_superuser, admin.is_staff, admin.is_active) == (True, True, True)
    assert PasswordChangeDue.objects.filter(user=admin).exists()  # the first login asks
    assert abs((timezone.now() - admin.date_joined).total_seconds()) < 60
    assert admin.check_password(password)  # as a login does: the light hash is upgraded
    admin.refresh_from_db()
    assert admin.password.startswith(f"pbkdf2_sha256${PBKDF2PasswordHasher.iterations}$")


def test_a_first_boot_leaves_other_databases_to_django(
    setup, template, code, tmp_path, monkeypatch
):
    data = tmp_path / "data"
    data.mkdir()
    with closing(sqlite3.connect(template)) as db:  # not a template as build.sh makes it
        db.execute(
            "INSERT INTO auth_user (password, is_superuser, username, first_name,"
            " last_name, email, is_staff, is_active, date_joined)"
            " VALUES ('x', 0, 'someone', '', '', '', 0, 1, '2026-01-01 00:00:00')"
        )
        db.commit()
    assert setup.first_boot(data, data / "admin-password", [code]) is None
    assert sorted(p.name for p in data.iterdir()) == [], "nothing half-made"
    monkeypatch.setenv("NASUI_DATABASE_URL", "postgres://db/nasui")
    assert setup.first_boot(data, data / "admin-password", [code]) is None
    monkeypatch.delenv("NASUI_DATABASE_URL")
    (data / "nasui.sqlite3").write_bytes(b"")  # a database is there: Django migrates it
    assert setup.first_boot(data, data / "admin-password", [code]) is None
    monkeypatch.setattr(setup, "TEMPLATE", tmp_path / "missing.sqlite3")
    (data / "nasui.sqlite3").unlink()
    assert setup.first_boot(data, data / "admin-password", [code]) is None
