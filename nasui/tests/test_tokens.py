"""Personal API tokens: created on the settings page, shown once, revocable."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from nasui import services
from nasui.models import ApiToken

pytestmark = pytest.mark.django_db


def _auth(key: str) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Token {key}"}


def test_a_token_authenticates_api_calls(client, admin_user):
    _, key = services.api_token_create(user=admin_user, name="script")
    response = client.get("/api/jobs/", **_auth(key))
    assert response.status_code == 200
    assert response.json()["results"] == []


def test_bearer_spelling_also_works(client, admin_user):
    _, key = services.api_token_create(user=admin_user, name="script")
    assert client.get("/api/jobs/", HTTP_AUTHORIZATION=f"Bearer {key}").status_code == 200


def test_a_revoked_token_fails(client, admin_user):
    token, key = services.api_token_create(user=admin_user, name="script")
    services.api_token_revoke(user=admin_user, token_id=token.pk)
    assert client.get("/api/jobs/", **_auth(key)).status_code == 401


def test_a_deactivated_users_token_fails(client, admin_user):
    _, key = services.api_token_create(user=admin_user, name="script")
    admin_user.is_active = False
    admin_user.save()
    assert client.get("/api/jobs/", **_auth(key)).status_code == 401


def test_an_unknown_or_malformed_key_fails(client, admin_user):
    services.api_token_create(user=admin_user, name="script")
    for key in ("nasui_unknown", "x' OR '1'='1", "%s"):
        assert client.get("/api/jobs/", **_auth(key)).status_code == 401, key


def test_the_token_brings_its_user(admin_user):
    from nasui.auth import active_token
    from nasui.tokens import hash_token_key

    token, key = services.api_token_create(user=admin_user, name="script")
    found = active_token(hash_token_key(key))
    assert found is not None
    assert (found.pk, found.user.pk, found.user.username) == (token.pk, admin_user.pk, "admin")
    assert found.user.is_superuser
    assert found.created_at == ApiToken.objects.get().created_at  # converted like the ORM's


def test_only_a_hash_is_stored(admin_user):
    token, key = services.api_token_create(user=admin_user, name="script")
    token.refresh_from_db()
    assert key not in (token.key_hash, token.prefix)
    assert key.startswith(token.prefix)


def test_use_is_recorded(client, admin_user):
    token, key = services.api_token_create(user=admin_user, name="script")
    client.get("/api/jobs/", **_auth(key))
    token.refresh_from_db()
    assert token.last_used_at is not None


def test_names_must_be_given_and_unique_among_active_tokens(admin_user):
    with pytest.raises(ValidationError) as empty:
        services.api_token_create(user=admin_user, name="  ")
    assert "name" in empty.value.message_dict
    token, _ = services.api_token_create(user=admin_user, name="script")
    with pytest.raises(ValidationError, match="already have an active token"):
        services.api_token_create(user=admin_user, name="script")
    services.api_token_revoke(user=admin_user, token_id=token.pk)
    services.api_token_create(user=admin_user, name="script")


def test_nobody_can_revoke_another_users_token(admin_user, django_user_model):
    other = django_user_model.objects.create_user("bob", password="x-long-password")
    token, _ = services.api_token_create(user=admin_user, name="script")
    with pytest.raises(ValidationError):
        services.api_token_revoke(user=other, token_id=token.pk)
    token.refresh_from_db()
    assert token.is_active


def test_settings_page_shows_the_key_once(admin_client):
    response = admin_client.post("/settings/tokens/", {"name": "backup script"})
    assert response.status_code == 200
    token = ApiToken.objects.get(name="backup script")
    key = response.context["new_key"]
    assert key.startswith(token.prefix)
    assert key in response.content.decode()
    later = admin_client.get("/settings/").content.decode()
    assert "backup script" in later
    assert key not in later


def test_settings_page_names_the_field_of_a_bad_token_name(admin_client):
    response = admin_client.post("/settings/tokens/", {"name": ""})
    assert response.status_code == 400
    assert "This field is required." in response.content.decode()
    assert ApiToken.objects.count() == 0


def test_revoking_from_the_page(admin_client, admin_user):
    token, _ = services.api_token_create(user=admin_user, name="script")
    response = admin_client.post(f"/settings/tokens/{token.pk}/revoke/")
    assert response.status_code == 302
    token.refresh_from_db()
    assert not token.is_active
