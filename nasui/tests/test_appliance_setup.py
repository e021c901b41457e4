"""The appliance's boot-time set-up (appliance/rootfs/usr/local/lib/nasui/setup.py): what a later
boot skips (a migrate with nothing to do, a PBKDF2 of an unchanged password) and what it never
skips."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest
from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db
SETUP = Path(__file__).resolve().parents[2] / "appliance/rootfs/usr/local/lib/nasui/setup.py"


@pytest.fixture
def setup() -> ModuleType:
    spec = importlib.util.spec_from_file_location("nasui_boot_setup", SETUP)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def migrations(setup, monkeypatch):
    """Count the migrate commands the set-up runs."""
    runs: list[str] = []
    monkeypatch.setattr(setup, "call_command", lambda name, **_: runs.append(name))
    return runs


def test_migrate_runs_once_until_something_changes(setup, migrations, tmp_path):
    setup.migrate(tmp_path)
    setup.migrate(tmp_path)
    assert migrations == ["migrate"], "a second boot with nothing new migrated again"
    (tmp_path / "migrations.stamp").write_text("an older image's migrations")
    setup.migrate(tmp_path)
    assert migrations == ["migrate", "migrate"]


def test_a_database_that_lost_its_migrations_is_migrated(setup, migrations, tmp_path):
    from django.db import connection

    setup.migrate(tmp_path)
    with connection.cursor() as cursor:  # rolled back with the test's transaction
        cursor.execute("DELETE FROM django_migrations WHERE app = 'nasui'")
    setup.migrate(tmp_path)
    assert migrations == ["migrate", "migrate"]


def test_the_first_password_is_checked_by_pbkdf2_only_once(setup, tmp_path, monkeypatch):
    User.objects.create_superuser("admin", password="first-boot-secret")
    password_file = tmp_path / "admin-password"
    password_file.write_text("first-boot-secret\n")
    assert setup.first_password(password_file) == "first-boot-secret"
    assert (tmp_path / "admin-password.hash").stat().st_mode & 0o777 == 0o600

    def slow_check(*_args):
        raise AssertionError("an unchanged hash was checked again")

    monkeypatch.setattr(User, "check_password", slow_check)
    assert setup.first_password(password_file) == "first-boot-secret"


def test_a_changed_password_is_forgotten(setup, tmp_path):
    admin = User.objects.create_superuser("admin", password="first-boot-secret")
    password_file = tmp_path / "admin-password"
    password_file.write_text("first-boot-secret\n")
    assert setup.first_password(password_file) == "first-boot-secret"
    admin.set_password("the admin's own choice")
    admin.save()
    assert setup.first_password(password_file) == ""
    assert not password_file.exists()
    assert not (tmp_path / "admin-password.hash").exists()
    assert setup.first_password(password_file) == ""


def test_a_wrong_password_file_is_never_shown(setup, tmp_path):
    User.objects.create_superuser("admin", password="the admin's own choice")
    password_file = tmp_path / "admin-password"
    password_file.write_text("first-boot-secret\n")
    (tmp_path / "admin-password.hash").write_text("pbkdf2_sha256$stale")
    assert setup.first_password(password_file) == ""
    assert not password_file.exists()
