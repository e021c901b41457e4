"""POST /api/tokens/: scripts get a token from a user name and password, under the lock-out."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client

from nasui.models import ApiToken

pytestmark = pytest.mark.django_db
PASSWORD = "correct horse battery"
JSON = "application/json"


@pytest.fixture
def alice(django_user_model):
    return django_user_model.objects.create_user("alice", password=PASSWORD, is_staff=True)


def _ask(client: Client, password: str, name: str = "nightly"):
    body = {"username": "alice", "password": password, "name": name}
    return client.post("/api/tokens/", body, content_type=JSON)


def test_good_credentials_give_a_token_that_opens_the_api(alice):
    response = _ask(Client(enforce_csrf_checks=True), PASSWORD)
    assert response.status_code == 201, response.content
    key = response.json()["token"]
    assert key.startswith(response.json()["prefix"])
    assert ApiToken.objects.get().name == "nightly"
    jobs = Client().get("/api/jobs/", HTTP_AUTHORIZATION=f"Token {key}")
    assert jobs.status_code == 200


def test_a_wrong_password_is_401_and_makes_no_token(alice):
    response = _ask(Client(), "wrong")
    assert response.status_code == 401
    assert response.json()["code"] == "authentication_failed"
    assert not ApiToken.objects.exists()


def test_missing_fields_are_named(alice):
    response = Client().post("/api/tokens/", {"username": "alice"}, content_type=JSON)
    assert response.status_code == 400
    assert set(response.json()["fields"]) == {"password", "name"}


def test_repeated_failures_lock_out_even_the_right_password(alice):
    client = Client()
    statuses = [_ask(client, "wrong").status_code for _ in range(settings.AXES_FAILURE_LIMIT)]
    assert statuses[:-1] == [401] * (settings.AXES_FAILURE_LIMIT - 1)
    response = _ask(client, PASSWORD)
    assert response.status_code == 429
    assert response.json()["code"] == "locked_out"
    assert "Too many failed logins" in response.json()["detail"]
    assert not ApiToken.objects.exists()


def test_the_login_page_lock_out_is_still_a_page(alice):
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post("/login/", {"username": "alice", "password": "wrong"})
    response = client.post("/login/", {"username": "alice", "password": PASSWORD})
    assert response.status_code == 429
    assert "Too many failed logins" in response.content.decode()
    assert response["Content-Type"].startswith("text/html")
