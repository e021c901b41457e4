"""Logins are throttled after repeated failures."""

from __future__ import annotations

import pytest
from django.conf import settings

pytestmark = pytest.mark.django_db
PASSWORD = "correct horse battery"


@pytest.fixture
def alice(django_user_model):
    return django_user_model.objects.create_user("alice", password=PASSWORD, is_staff=True)


def _login(client, password: str):
    return client.post("/login/", {"username": "alice", "password": password})


def test_a_good_login_reaches_the_dashboard(client, alice):
    response = _login(client, PASSWORD)
    assert response.status_code == 302
    assert response["Location"] == "/"


def test_a_bad_password_says_so(client, alice):
    response = _login(client, "wrong")
    assert response.status_code == 200
    assert "enter a correct username and password" in response.content.decode()


def test_repeated_failures_lock_out_even_the_right_password(client, alice):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        _login(client, "wrong")
    response = _login(client, PASSWORD)
    assert response.status_code == 429
    assert "Too many failed logins" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_failures_below_the_limit_do_not_lock(client, alice):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        _login(client, "wrong")
    assert _login(client, PASSWORD).status_code == 302


def test_logout_ends_the_session(admin_client):
    assert admin_client.get("/").status_code == 200
    assert admin_client.post("/logout/").status_code == 302
    assert admin_client.get("/").status_code == 302


def test_password_change(client, alice):
    client.force_login(alice)
    response = client.post(
        "/settings/password/",
        {
            "old_password": PASSWORD,
            "new_password1": "a much better passphrase",
            "new_password2": "a much better passphrase",
        },
    )
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password("a much better passphrase")
