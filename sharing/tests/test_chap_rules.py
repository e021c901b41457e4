"""CHAP secrets are 12 to 16 bytes of printable ASCII without spaces (what tgt, LIO and every
initiator carry unchanged); user names are ASCII, whole. Refusals name the field and the rule,
through the services, the pages and the API, and change nothing."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from sharing.iscsi import services
from sharing.iscsi.engine.desired import chap_secret_problems
from sharing.models import AuthGroup

pytestmark = pytest.mark.django_db
JSON = "application/json"
GOOD = "s3cret-secret"
ASCII_RULE = "must be printable ASCII without spaces (! to ~)"


@pytest.mark.parametrize(
    ("secret", "point"),
    [
        ("secret\tsecret", "U+0009"),
        ("secret\nsecret", "U+000A"),
        ("secret secret", "U+0020"),
        ("secret\u200bsecret", "U+200B"),
        ("secret\u202esecret", "U+202E"),
        ("secretsecret😀", "U+1F600"),
        ("sécretsecret", "U+00E9"),
        ("secret\x7fsecret", "U+007F"),
    ],
)
def test_a_secret_outside_printable_ascii_is_refused_naming_the_character(
    fake_target, secret, point
):
    with pytest.raises(ValidationError) as exc:
        services.auth_group_create(tag=1, user="alice", secret=secret)
    [message] = exc.value.message_dict["secret"]
    assert f"{ASCII_RULE}, not {point}" in message
    assert not AuthGroup.objects.exists()


def test_the_length_counts_bytes_not_characters():
    # 16 and 14 characters, 17 bytes each: within a count of characters, past the wire's.
    assert "must be 12 to 16 bytes long" not in chap_secret_problems("x" * 16)
    assert "must be 12 to 16 bytes long" in chap_secret_problems("x" * 15 + "é")
    assert "must be 12 to 16 bytes long" in chap_secret_problems("x" * 13 + "😀")


def test_every_printable_ascii_character_but_hash_is_taken():
    ascii_marks = "".join(chr(c) for c in range(0x21, 0x7F) if chr(c) != "#")
    for start in range(0, len(ascii_marks), 16):
        chunk = ascii_marks[start : start + 16].ljust(12, "x")
        assert chap_secret_problems(chunk) == [], chunk


def test_a_peer_secret_follows_the_same_rule(fake_target):
    with pytest.raises(ValidationError) as exc:
        services.auth_group_create(
            tag=1, user="alice", secret=GOOD, peer_user="nas", peer_secret="peer\tsecret-1"
        )
    assert list(exc.value.message_dict) == ["peer_secret"]
    assert "U+0009" in exc.value.message_dict["peer_secret"][0]


def test_a_chap_user_with_a_trailing_newline_is_refused(fake_target):
    with pytest.raises(ValidationError) as exc:
        services.auth_group_create(tag=1, user="alice\n", secret=GOOD)
    assert list(exc.value.message_dict) == ["user"]
    assert "ASCII letters, digits" in exc.value.message_dict["user"][0]
    assert not AuthGroup.objects.exists()


def test_a_chap_user_in_another_script_is_refused(fake_target):
    with pytest.raises(ValidationError) as exc:
        services.auth_group_create(tag=1, user="алиса", secret=GOOD)
    assert list(exc.value.message_dict) == ["user"]


def test_the_api_names_the_secret_and_its_rule(admin_client, fake_target):
    response = admin_client.post(
        "/api/sharing/iscsi/auth-groups/",
        {"tag": 1, "user": "alice", "secret": "secret\tsecret"},
        content_type=JSON,
    )
    assert response.status_code == 400
    assert response.json()["fields"] == {"secret": [f"The secret {ASCII_RULE}, not U+0009."]}
    assert not AuthGroup.objects.exists()


def test_an_api_update_with_an_emoji_secret_keeps_the_stored_one(admin_client, fake_target):
    group = services.auth_group_create(tag=1, user="alice", secret=GOOD)
    response = admin_client.patch(
        f"/api/sharing/iscsi/auth-groups/{group.pk}/",
        {"secret": "secretsecret😀"},
        content_type=JSON,
    )
    assert response.status_code == 400
    assert list(response.json()["fields"]) == ["secret"]
    assert AuthGroup.objects.get().secret == GOOD


def test_the_page_names_the_secret_and_its_rule(admin_client, fake_target):
    response = admin_client.post(
        "/sharing/auth-groups/add/", {"tag": 4, "user": "alice", "secret": "secret\u202esecret"}
    )
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert list(errors) == ["secret"]
    assert f"{ASCII_RULE}, not U+202E" in errors["secret"][0]
    assert not AuthGroup.objects.exists()


def test_the_iscsi_wizard_names_its_own_secret_box(admin_client, fake_target, tank):
    response = admin_client.post(
        "/api/sharing/iscsi/wizard/",
        {
            "name": "pc",
            "dataset": "tank",
            "size": "64M",
            "chap_user": "pc",
            "chap_secret": "tab\tin-secret",
        },
        content_type=JSON,
    )
    assert response.status_code == 400
    assert list(response.json()["fields"]) == ["chap_secret"]
    assert "U+0009" in response.json()["fields"]["chap_secret"][0]


def test_the_forms_say_the_rule():
    from sharing.iscsi.forms import AuthGroupForm

    assert "printable ASCII" in str(AuthGroupForm.base_fields["secret"].help_text)
