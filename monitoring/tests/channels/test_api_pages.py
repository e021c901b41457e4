"""The channels API and pages: secrets never come back, bad input names the field, test button."""

from __future__ import annotations

import pytest

from monitoring.models import Channel

pytestmark = pytest.mark.django_db

API = "/api/alerts/channels/"


def test_the_api_makes_a_channel_and_never_returns_its_secrets(admin_client) -> None:
    answer = admin_client.post(
        API,
        {
            "name": "phone",
            "kind": "ntfy",
            "levels": ["danger"],
            "server": "https://ntfy.example",
            "topic": "secret-topic-42",
            "token": "tk_secret",
        },
        content_type="application/json",
    )
    assert answer.status_code == 201, answer.content
    data = answer.json()
    assert data["stored_secrets"] == ["token", "topic"]
    assert data["server"] == "https://ntfy.example"
    assert data["target"] == "ntfy https://ntfy.example"
    listing = admin_client.get(API).content.decode()
    assert "secret-topic-42" not in listing
    assert "tk_secret" not in listing
    # a PATCH without secrets keeps them; forget drops the optional token
    pk = data["id"]
    patched = admin_client.patch(
        f"{API}{pk}/",
        {"levels": ["danger", "warning"], "forget": ["token"]},
        content_type="application/json",
    ).json()
    assert patched["levels"] == ["danger", "warning"]
    assert patched["stored_secrets"] == ["topic"]
    assert Channel.objects.get(pk=pk).secrets == {"topic": "secret-topic-42"}


def test_bad_input_names_the_field_and_changes_nothing(admin_client) -> None:
    answer = admin_client.post(
        API,
        {
            "name": "x",
            "kind": "telegram",
            "levels": ["danger"],
            "chat_id": "-100",
            "token": "not-a-bot-token",
        },
        content_type="application/json",
    )
    assert answer.status_code == 400
    assert "@BotFather" in answer.json()["fields"]["token"][0]
    answer = admin_client.post(
        API, {"name": "x", "kind": "slack", "levels": []}, content_type="application/json"
    )
    assert answer.status_code == 400
    assert "levels" in answer.json()["fields"]
    assert not Channel.objects.exists()


def test_the_test_action_says_what_the_service_answered(admin_client, receiver) -> None:
    receiver.expect_request("/h").respond_with_data("no such hook", status=404)
    pk = admin_client.post(
        API,
        {"name": "c", "kind": "discord", "levels": ["danger"], "url": receiver.url_for("/h")},
        content_type="application/json",
    ).json()["id"]
    answer = admin_client.post(f"{API}{pk}/test/")
    assert answer.status_code == 400
    assert "answered 404" in str(answer.json())
    assert "no such hook" in str(answer.json())
    assert admin_client.get(f"{API}{pk}/").json()["last_error"].startswith("http://127.0.0.1")


def test_the_pages_add_test_edit_and_remove_a_channel(admin_client, receiver) -> None:
    receiver.expect_request("/hook", method="PUT").respond_with_data("ok")
    assert 'data-testid="no-channels"' in admin_client.get("/alerts/channels/").content.decode()
    form = {
        "name": "home",
        "kind": "webhook",
        "enabled": "on",
        "levels": ["danger", "warning"],
        "url": receiver.url_for("/hook"),
        "method": "PUT",
        "headers": "X-Key: hdr-secret-77\n",
        "body_template": '{"msg": "{{headline}}"}',
    }
    answer = admin_client.post("/alerts/channels/new/", form)
    assert answer.status_code == 302, answer.content.decode()[-2000:]
    channel = Channel.objects.get()
    answer = admin_client.post(f"/alerts/channels/{channel.pk}/test/", follow=True)
    assert "Test message delivered to home" in answer.content.decode()
    request = receiver.log[0][0]
    assert request.headers["X-Key"] == "hdr-secret-77"
    assert request.get_json() == {"msg": "Test message from nasui"}
    # the edit form shows no secret and keeps it when left empty
    page = admin_client.get(f"/alerts/channels/{channel.pk}/").content.decode()
    assert receiver.url_for("/hook") not in page
    assert "hdr-secret-77" not in page
    form.update(url="", headers="", name="home2")
    assert admin_client.post(f"/alerts/channels/{channel.pk}/", form).status_code == 302
    channel.refresh_from_db()
    assert channel.name == "home2"
    assert channel.secrets["headers"] == {"X-Key": "hdr-secret-77"}
    bad = admin_client.post(f"/alerts/channels/{channel.pk}/", form | {"body_template": "{{nope}}"})
    assert bad.status_code == 400
    assert "is not an alert field" in bad.content.decode()
    assert admin_client.post(f"/alerts/channels/{channel.pk}/delete/").status_code == 302
    assert not Channel.objects.exists()
