"""Private pages and API answers are never cached; every page carries the CSP."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_a_logged_in_page_is_not_stored(admin_client):
    response = admin_client.get("/")
    assert "no-store" in response["Cache-Control"]
    assert "script-src 'self'" in response["Content-Security-Policy"]
    assert "unsafe-eval" not in response["Content-Security-Policy"]


def test_an_api_answer_is_not_stored_even_when_refused(client):
    response = client.get("/api/jobs/")
    assert response.status_code in (401, 403)
    assert "no-store" in response["Cache-Control"]


def test_an_api_answer_with_a_token_is_not_stored(admin_client):
    assert "no-store" in admin_client.get("/api/jobs/")["Cache-Control"]


def test_the_login_page_has_the_policy(client):
    response = client.get("/login/")
    assert "frame-ancestors 'none'" in response["Content-Security-Policy"]
