"""The health check and first-start admin."""

from __future__ import annotations

import time

import pytest
from django.core.management import call_command

from nasui.health import record_worker_heartbeat
from nasui.models import PasswordChangeDue

pytestmark = pytest.mark.django_db
PBKDF2 = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]  # the tests' own hasher is MD5


def test_health_is_degraded_without_a_worker(client):
    response = client.get("/health/")
    assert response.status_code == 503
    body = response.json()
    assert body == {
        "status": "degraded",
        "database": True,
        "redis": True,
        "worker_seconds_ago": None,
        "worker": False,
    }


def test_a_stale_heartbeat_does_not_count(client, settings):
    record_worker_heartbeat(time.time() - 10 * settings.NASUI_HEARTBEAT_SECONDS)
    assert client.get("/health/").json()["worker"] is False


def test_a_fresh_heartbeat_makes_it_ok(client):
    record_worker_heartbeat()
    response = client.get("/health/")
    assert response.status_code == 200
    assert response.json()["status"] == "ok"


def test_first_start_creates_admin_once(django_user_model, capsys, tmp_path, settings):
    settings.PASSWORD_HASHERS = PBKDF2
    call_command("ensure_admin", password_file=str(tmp_path / "pw"))
    out = capsys.readouterr().out
    password = (tmp_path / "pw").read_text().strip()
    assert password in out
    assert django_user_model.objects.get(username="admin").check_password(password)
    assert PasswordChangeDue.objects.filter(user__username="admin").exists()
    call_command("ensure_admin")
    assert "nothing to do" in capsys.readouterr().out
    assert django_user_model.objects.count() == 1


def test_a_first_start_password_kept_in_a_file_is_hashed_lightly_until_used(
    django_user_model, tmp_path, settings
):
    from django.contrib.auth.hashers import PBKDF2PasswordHasher

    from nasui.lib.first_password import FIRST_START_ROUNDS

    settings.PASSWORD_HASHERS = PBKDF2
    call_command("ensure_admin", password_file=str(tmp_path / "pw"))
    admin = django_user_model.objects.get(username="admin")
    assert admin.password.startswith(f"pbkdf2_sha256${FIRST_START_ROUNDS}$")
    assert admin.check_password((tmp_path / "pw").read_text().strip())  # as a login does
    admin.refresh_from_db()
    assert admin.password.startswith(f"pbkdf2_sha256${PBKDF2PasswordHasher.iterations}$")


def test_a_first_start_password_only_printed_gets_the_full_hash(
    django_user_model, capsys, settings
):
    from django.contrib.auth.hashers import PBKDF2PasswordHasher

    settings.PASSWORD_HASHERS = PBKDF2
    call_command("ensure_admin")
    assert "First start" in capsys.readouterr().out
    admin = django_user_model.objects.get(username="admin")
    assert admin.password.startswith(f"pbkdf2_sha256${PBKDF2PasswordHasher.iterations}$")
