"""The first password, chosen by the machine, must be replaced at the first login."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from nasui import services
from nasui.models import PasswordChangeDue

pytestmark = pytest.mark.django_db
FIRST, OWN = "first-boot-Xq9w2", "a passphrase only I know"


@pytest.fixture
def due(client) -> User:
    """The admin as ensure_admin leaves it, signed in with the machine's password."""
    admin = User.objects.create_superuser("admin", password=FIRST)
    services.password_change_require(user=admin)
    client.force_login(admin)
    return admin


def _change(client, old=FIRST, new=OWN, again=OWN, next_url="/storage/"):
    body = {"old_password": old, "new_password1": new, "new_password2": again, "next": next_url}
    return client.post("/settings/password/", body)


@pytest.mark.parametrize("path", ["/", "/storage/", "/settings/", "/jobs/"])
def test_every_page_sends_the_admin_to_choose_a_password(client, due, path):
    response = client.get(path)
    assert response.status_code == 302
    assert response["Location"] == f"/settings/password/?next={path.replace('/', '%2F')}"


def test_the_password_page_says_why(client, due):
    page = client.get("/settings/password/?next=/storage/").content.decode()
    assert 'data-testid="first-password"' in page
    assert "Cancel" not in page  # nowhere to go back to
    assert 'name="next" value="/storage/"' in page


def test_a_post_elsewhere_changes_nothing(client, due):
    response = client.post("/settings/tokens/", {"name": "script"})
    assert response.status_code == 302
    assert due.api_tokens.count() == 0


def test_logging_out_stays_open(client, due):
    assert client.post("/logout/").status_code == 302
    assert "_auth_user_id" not in client.session


def test_the_api_refuses_in_words(client, due):
    response = client.get("/api/storage/pools/")
    assert response.status_code == 403
    assert "Choose your own password first" in response.json()["detail"]


def test_no_token_for_the_machines_password(client, due):
    body = {"username": "admin", "password": FIRST, "name": "script"}
    response = client.post("/api/tokens/", body, content_type="application/json")
    assert response.status_code == 403
    assert "Choose your own password first" in response.json()["detail"]
    assert due.api_tokens.count() == 0


def test_choosing_a_password_opens_the_panel_where_the_user_was_going(client, due):
    response = _change(client)
    assert response.status_code == 302
    assert response["Location"] == "/storage/"
    assert not PasswordChangeDue.objects.filter(user=due).exists()
    assert client.get("/storage/").status_code == 200
    assert client.get("/api/storage/pools/").status_code == 200
    due.refresh_from_db()
    assert due.check_password(OWN)
    assert not due.check_password(FIRST)  # the console's password stops working


def test_an_offsite_next_goes_to_the_dashboard(client, due):
    response = _change(client, next_url="https://elsewhere.example/")
    assert response["Location"] == "/"


def test_a_wrong_old_password_keeps_everything_as_it_was(client, due):
    response = _change(client, old="not it")
    assert response.status_code == 200
    assert PasswordChangeDue.objects.filter(user=due).exists()
    due.refresh_from_db()
    assert due.check_password(FIRST)


def test_an_admin_made_otherwise_is_not_asked(admin_client):
    assert admin_client.get("/").status_code == 200
