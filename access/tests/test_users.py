"""Panel users through the API and the pages: add with a role, change, remove; the panel keeps
one administrator; a password never comes back."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError

from access.tests.conftest import PASSWORD
from access.users.engine import roles
from access.users.selectors import role_of

pytestmark = pytest.mark.django_db
JSON = "application/json"
USERS = "/api/access/users/"


def test_an_administrator_adds_a_read_only_user_who_can_sign_in(admin_client, client):
    made = admin_client.post(
        USERS, {"username": "gran", "password": PASSWORD, "role": "readonly"}, content_type=JSON
    )
    assert made.status_code == 201, made.json()
    assert made.json()["role"] == "readonly"
    assert PASSWORD not in made.content.decode()
    signed_in = client.post("/login/", {"username": "gran", "password": PASSWORD})
    assert signed_in.status_code == 302
    assert client.get("/storage/").status_code == 200


@pytest.mark.parametrize(
    ("body", "field", "words"),
    [
        ({"username": "gran", "password": "short", "role": "readonly"}, "password", "too short"),
        ({"username": "gran", "password": PASSWORD, "role": "king"}, "role", "valid choice"),
        ({"username": "bad name!", "password": PASSWORD}, "username", "letters"),
        ({"username": "admin", "password": PASSWORD}, "username", "already"),
        ({"username": "gran", "role": "readonly"}, "password", "Choose a password"),
    ],
)
def test_bad_input_names_the_field_and_changes_nothing(admin_client, body, field, words):
    before = User.objects.count()
    refused = admin_client.post(USERS, body, content_type=JSON)
    assert refused.status_code == 400
    assert words in " ".join(refused.json()["fields"][field])
    assert User.objects.count() == before


def test_nobody_demotes_or_switches_off_themselves(admin_client, admin_user):
    url = f"{USERS}{admin_user.pk}/"
    demoted = admin_client.patch(url, {"role": "readonly"}, content_type=JSON)
    assert demoted.status_code == 400
    assert "another administrator" in demoted.json()["fields"]["role"][0]
    off = admin_client.patch(url, {"is_active": False}, content_type=JSON)
    assert off.status_code == 400
    assert "another administrator" in off.json()["fields"]["is_active"][0]
    assert role_of(User.objects.get(pk=admin_user.pk)) == roles.ADMIN


def test_the_last_administrator_stays_one(admin_user, user_of):
    from access.users import services

    other = user_of(roles.READ_ONLY, "kid")
    with pytest.raises(ValidationError, match="at least one active administrator"):
        services.user_update(user=admin_user, role=roles.READ_ONLY, is_active=True, by=other)


def test_a_second_administrator_may_demote_the_first(admin_user, user_of, token_client):
    second = token_client(roles.ADMIN, name="second")
    url = f"{USERS}{admin_user.pk}/"
    assert second.patch(url, {"role": "sharing"}, content_type=JSON).status_code == 200
    assert role_of(User.objects.get(pk=admin_user.pk)) == roles.SHARING


def test_nobody_removes_themselves_and_a_name_cannot_change(admin_client, admin_user, user_of):
    gone = admin_client.delete(f"{USERS}{admin_user.pk}/")
    assert gone.status_code == 400
    other = user_of(roles.READ_ONLY, "kid")
    renamed = admin_client.patch(f"{USERS}{other.pk}/", {"username": "x"}, content_type=JSON)
    assert renamed.status_code == 400
    assert "cannot change" in renamed.json()["fields"]["username"][0]
    assert admin_client.delete(f"{USERS}{other.pk}/").status_code == 204
    assert not User.objects.filter(username="kid").exists()


def test_a_new_password_from_the_administrator_replaces_theirs(admin_client, user_of, client):
    kid = user_of(roles.READ_ONLY, "kid")
    new = "another long passphrase"
    answer = admin_client.patch(f"{USERS}{kid.pk}/", {"password": new}, content_type=JSON)
    assert answer.status_code == 200
    assert client.post("/login/", {"username": "kid", "password": new}).status_code == 302


def test_a_sharing_administrator_cannot_add_panel_users(token_client):
    api = token_client(roles.SHARING)
    body = {"username": "x", "password": PASSWORD, "role": "admin"}
    assert api.post(USERS, body, content_type=JSON).status_code == 403
    assert not User.objects.filter(username="x").exists()


def test_the_users_page_adds_a_user_and_lists_their_role(admin_client):
    form = {"username": "gran", "role": "sharing", "is_active": "on",
            "password": PASSWORD, "password_again": PASSWORD}  # fmt: skip
    saved = admin_client.post("/access/users/add/", form)
    assert saved.status_code == 302
    page = admin_client.get("/access/users/").content.decode()
    assert 'data-user="gran"' in page
    assert "Sharing administrator" in page


def test_the_form_says_when_the_two_passwords_differ(admin_client):
    form = {"username": "gran", "role": "readonly", "password": PASSWORD, "password_again": "x"}
    page = admin_client.post("/access/users/add/", form)
    assert page.status_code == 400
    assert "The two passwords differ" in page.content.decode()
    assert not User.objects.filter(username="gran").exists()
