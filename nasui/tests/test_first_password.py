"""The first-boot admin password: shown while it is the admin's, remembered by hash so that a
boot needs no PBKDF2, checked by the worker when the admin's hash changes, forgotten when changed.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from nasui import first_password
from nasui.lib import first_password as files

pytestmark = pytest.mark.django_db
PASSWORD = "first-boot-secret"


@pytest.fixture
def password_file(settings, tmp_path):
    settings.DATA_DIR = tmp_path
    path = tmp_path / files.PASSWORD_FILE
    path.write_text(PASSWORD + "\n")
    return path


def test_an_unchanged_hash_is_not_checked_again(password_file, monkeypatch):
    User.objects.create_superuser("admin", password=PASSWORD)
    assert first_password.password_to_show(password_file) == PASSWORD
    assert files.checked_file(password_file).stat().st_mode & 0o777 == 0o600

    def slow_check(*_args):
        raise AssertionError("an unchanged hash was checked again")

    monkeypatch.setattr(first_password, "check_password", slow_check)
    assert first_password.password_to_show(password_file) == PASSWORD


def test_a_wrong_password_file_is_never_shown(password_file):
    User.objects.create_superuser("admin", password="the admin's own choice")
    files.checked_file(password_file).write_text("pbkdf2_sha256$stale")
    assert first_password.password_to_show(password_file) == ""
    assert not password_file.exists()
    assert not files.checked_file(password_file).exists()
    assert first_password.password_to_show(password_file) == ""


def test_changing_the_admin_password_forgets_the_first_one_at_once(password_file, eager_jobs):
    admin = User.objects.create_superuser("admin", password=PASSWORD)
    assert first_password.password_to_show(password_file) == PASSWORD
    admin.set_password("the admin's own choice")
    admin.save()  # eager_jobs: the commit hook and the worker's task run here
    assert not password_file.exists(), "the worker's check did not forget the old password"


def test_a_login_that_re_hashes_it_is_remembered(password_file, eager_jobs, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]
    from nasui.lib.first_password import light_hash

    password_file.unlink()  # made after the admin, as ensure_admin does
    User.objects.create_superuser("admin", password=None)
    User.objects.filter(username="admin").update(password=light_hash(PASSWORD))
    password_file.write_text(PASSWORD + "\n")
    admin = User.objects.get(username="admin")
    assert first_password.password_to_show(password_file) == PASSWORD
    light = admin.password
    assert admin.check_password(PASSWORD)  # a login: the light hash is upgraded and saved
    admin.refresh_from_db()
    assert admin.password != light
    assert files.checked_file(password_file).read_text() == admin.password
    assert files.known_password(password_file, admin.password) == PASSWORD


def test_other_users_and_other_fields_are_not_watched(password_file, eager_jobs, monkeypatch):
    admin = User.objects.create_superuser("admin", password=PASSWORD)
    first_password.password_to_show(password_file)
    calls: list[str] = []
    monkeypatch.setattr("django.db.transaction.on_commit", lambda *a, **k: calls.append("x"))
    admin.email = "a@example.org"
    admin.save(update_fields=["email"])
    User.objects.create_user("bob", password="another")
    assert calls == []


def test_a_login_never_fails_for_want_of_a_broker(password_file, monkeypatch, caplog):
    from nasui.celery import app
    from nasui.lib.net import free_loopback_port

    # Nothing listens where the job queue should be.
    monkeypatch.setattr(app.conf, "broker_url", f"redis://127.0.0.1:{free_loopback_port()}/0")
    monkeypatch.setattr("django.db.transaction.on_commit", lambda callback: callback())
    admin = User.objects.create_superuser("admin", password=PASSWORD)
    admin.set_password("the admin's own choice")
    admin.save()
    assert "the next boot checks it" in caplog.text
    assert password_file.exists(), "only a check may forget it"
