"""Errors land on the field at fault: an SMB share's path under `path`, a name the system keeps
under `username` or `name`, through the services, the pages and the API alike."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from sharing.accounts import services as accounts
from sharing.models import LocalGroup, LocalUser, SmbShare
from sharing.smb import services as smb
from storage.datasets import selectors as storage
from storage.datasets import services as storage_services

pytestmark = pytest.mark.django_db
JSON = "application/json"
PASSWORD = "a good pass 1"


@pytest.fixture
def media(fake_files, tank) -> str:
    """A file system tank/media; returns its mountpoint."""
    storage_services.dataset_create(parent="tank", name="media")
    return storage.dataset_get("tank/media").mountpoint or ""


def test_a_relative_share_path_is_refused_under_path(media):
    with pytest.raises(ValidationError) as exc:
        smb.smb_share_create(name="Media", path="tank/media")
    assert list(exc.value.message_dict) == ["path"]
    assert not SmbShare.objects.exists()


def test_the_api_names_path_for_a_bad_share_path_on_create_and_update(admin_client, media):
    made = admin_client.post(
        "/api/sharing/smb/shares/", {"name": "Media", "path": "tank/media"}, content_type=JSON
    )
    assert made.status_code == 400
    assert list(made.json()["fields"]) == ["path"]
    share = smb.smb_share_create(name="Media", path=media)
    changed = admin_client.patch(
        f"/api/sharing/smb/shares/{share.pk}/", {"path": "media"}, content_type=JSON
    )
    assert changed.status_code == 400
    assert list(changed.json()["fields"]) == ["path"]
    assert SmbShare.objects.get().dataset == "tank/media"


def test_an_engine_refusal_of_the_path_keeps_its_field():
    from sharing.smb.engine.desired import SmbError, SmbShareSpec

    with pytest.raises(SmbError) as exc:
        SmbShareSpec(name="Media", path="/tank/50%Used")
    assert exc.value.field == "path"
    with pytest.raises(SmbError) as exc:
        SmbShareSpec(name="Media", path="relative")
    assert exc.value.field == "path"


def test_a_netbios_name_that_mentions_the_workgroup_is_refused_under_its_own_field(fake_files):
    with pytest.raises(ValidationError) as exc:
        smb.smb_settings_update(netbios_name="workgroup!", workgroup="HOME")
    assert list(exc.value.message_dict) == ["netbios_name"]


@pytest.mark.parametrize("name", ["root", "nobody", "daemon", "nogroup", "www-data"])
def test_a_user_name_the_system_keeps_is_refused_under_username(fake_files, name):
    with pytest.raises(ValidationError) as exc:
        accounts.user_create(username=name, password=PASSWORD)
    assert exc.value.message_dict == {
        "username": [f"{name} is reserved for the system: choose another name."]
    }
    assert not LocalUser.objects.exists()
    assert not LocalGroup.objects.exists()


def test_a_group_name_the_system_keeps_is_refused_under_name(fake_files):
    with pytest.raises(ValidationError) as exc:
        accounts.group_create(name="daemon")
    assert "reserved for the system" in exc.value.message_dict["name"][0]
    family = accounts.group_create(name="family")
    with pytest.raises(ValidationError) as exc:
        accounts.group_update(group=family, name="root")
    assert "reserved for the system" in exc.value.message_dict["name"][0]
    assert LocalGroup.objects.get().name == "family"


def test_the_api_names_username_for_a_reserved_name(admin_client, fake_files):
    response = admin_client.post(
        "/api/sharing/users/", {"username": "root", "password": PASSWORD}, content_type=JSON
    )
    assert response.status_code == 400
    assert list(response.json()["fields"]) == ["username"]
    assert "reserved for the system" in response.json()["fields"]["username"][0]
    assert not LocalUser.objects.exists()


def test_the_user_page_shows_a_reserved_name_by_the_username_box(admin_client, fake_files):
    form = {"username": "nobody", "password": PASSWORD, "password_again": PASSWORD}
    response = admin_client.post("/sharing/files/users/add/", form)
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert list(errors) == ["username"]
    assert "reserved for the system" in errors["username"][0]
    assert not LocalUser.objects.exists()


def test_the_wizard_names_its_own_user_box_for_a_reserved_name(admin_client, media):
    response = admin_client.post(
        "/api/sharing/wizard/",
        {"existing": "tank/media", "new_username": "daemon", "new_password": PASSWORD},
        content_type=JSON,
    )
    assert response.status_code == 400
    assert list(response.json()["fields"]) == ["new_username"]
