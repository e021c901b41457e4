"""Signed-in sessions: each user sees theirs and ends one; an administrator ends anyone's; a
new password signs the other browsers out; a token shows where it was last used from."""

from __future__ import annotations

import pytest
from django.test import Client

from access.sessions.models import SignedIn
from access.tests.conftest import PASSWORD
from access.users.engine import roles

pytestmark = pytest.mark.django_db


def browser(name: str, agent: str) -> Client:
    client = Client(HTTP_USER_AGENT=agent)
    assert client.post("/login/", {"username": name, "password": PASSWORD}).status_code == 302
    return client


def test_a_user_sees_their_sessions_and_ends_another_browsers(user_of):
    user_of(roles.READ_ONLY, "gran")
    laptop, tablet = browser("gran", "Laptop/1.0"), browser("gran", "Tablet/2.0")
    page = laptop.get("/settings/").content.decode()
    assert "Laptop/1.0" in page
    assert "Tablet/2.0" in page
    assert page.count("this browser") == 1
    other = SignedIn.objects.get(browser="Tablet/2.0")
    assert laptop.post(f"/settings/sessions/{other.pk}/end/").status_code == 302
    assert tablet.get("/settings/").status_code == 302  # sent to sign in again
    assert laptop.get("/settings/").status_code == 200


def test_nobody_ends_someone_elses_session_from_settings(user_of):
    user_of(roles.READ_ONLY, "gran")
    user_of(roles.READ_ONLY, "kid")
    grans, kids = browser("gran", "G"), browser("kid", "K")
    row = SignedIn.objects.get(browser="K")
    grans.post(f"/settings/sessions/{row.pk}/end/")
    assert kids.get("/settings/").status_code == 200


def test_an_administrator_ends_all_of_a_users_sessions(admin_client, user_of):
    kid = user_of(roles.READ_ONLY, "kid")
    one, two = browser("kid", "A"), browser("kid", "B")
    page = admin_client.get(f"/access/users/{kid.pk}/sessions/").content.decode()
    assert page.count("<tr><td>") == 2
    assert admin_client.post(f"/access/users/{kid.pk}/sessions/").status_code == 302
    assert one.get("/settings/").status_code == 302
    assert two.get("/settings/").status_code == 302
    assert not SignedIn.objects.filter(user=kid).exists()


def test_a_new_password_signs_the_other_browsers_out(user_of):
    user_of(roles.READ_ONLY, "gran")
    laptop, tablet = browser("gran", "Laptop"), browser("gran", "Tablet")
    new = "a brand new long passphrase"
    changed = laptop.post(
        "/settings/password/",
        {"old_password": PASSWORD, "new_password1": new, "new_password2": new},
    )
    assert changed.status_code == 302
    assert laptop.get("/settings/").status_code == 200
    assert tablet.get("/settings/").status_code == 302
    assert list(SignedIn.objects.values_list("browser", flat=True)) == ["Laptop"]


def test_a_token_shows_where_it_was_last_used_from(admin_client, token_client):
    api = token_client(roles.ADMIN, name="script")
    assert api.get("/api/storage/pools/", REMOTE_ADDR="192.0.2.7").status_code == 200
    from nasui.models import ApiToken

    assert ApiToken.objects.get(user__username="script").last_used_from == "192.0.2.7"
