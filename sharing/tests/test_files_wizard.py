"""The "Share a dataset" wizard over SMB: dataset, user and share at once, or nothing."""

from __future__ import annotations

import os

import pytest
from django.conf import settings
from django.core.exceptions import ValidationError

from sharing.accounts import services as accounts
from sharing.files import services as files_wizard
from sharing.models import LocalGroup, LocalUser, SmbShare
from storage.datasets import selectors as storage

pytestmark = pytest.mark.django_db


def test_a_new_dataset_and_user_get_a_share_and_the_folder_is_the_users(fake_files, tank):
    made = files_wizard.share_dataset(
        parent="tank", name="family", new_username="mum", new_password="mum secret 1"
    )
    assert made.dataset == "tank/family"
    assert made.share is not None
    assert made.share.name == "family"
    assert [u.username for u in made.share.users.all()] == ["mum"]
    info = os.stat(storage.dataset_get("tank/family").mountpoint or "")
    assert made.new_user is not None
    assert (info.st_uid, info.st_gid, info.st_mode & 0o777) == (
        made.new_user.uid,
        made.new_user.group.gid,
        0o770,
    )


def test_several_users_or_guests_open_the_folder(fake_files, tank):
    a = accounts.user_create(username="ann", password="ann secret 1")
    b = accounts.user_create(username="ben", password="ben secret 1")
    made = files_wizard.share_dataset(parent="tank", name="shared", users=[a, b])
    info = os.stat(storage.dataset_get(made.dataset).mountpoint or "")
    assert info.st_mode & 0o777 == 0o777


def test_the_wizard_asks_who_may_use_the_share(fake_files, tank):
    with pytest.raises(ValidationError) as exc:
        files_wizard.share_dataset(parent="tank", name="nobody")
    assert "Pick who may use the share" in exc.value.message_dict["users"][0]
    assert "tank/nobody" not in storage.filesystem_names()


def test_a_failing_step_undoes_the_dataset_and_the_user(fake_files, tank):
    with pytest.raises(ValidationError) as exc:
        files_wizard.share_dataset(
            parent="tank",
            name="oops",
            share_name="global",
            new_username="kid",
            new_password="kid secret 1",
        )
    assert "share_name" in exc.value.message_dict
    assert "tank/oops" not in storage.filesystem_names()
    assert not LocalUser.objects.exists()
    assert not LocalGroup.objects.exists()
    assert not SmbShare.objects.exists()


def test_an_existing_dataset_is_shared_under_its_name(fake_files, tank):
    from storage.datasets import services as storage_services

    storage_services.dataset_create(parent="tank", name="photos")
    made = files_wizard.share_dataset(existing="tank/photos", guest_ok=True)
    assert made.share is not None
    assert (made.share.name, made.share.guest_ok, made.new_user) == ("photos", True, None)


def test_the_wizard_page_shares_a_new_dataset(admin_client, fake_files, tank):
    form = {
        "existing": "",
        "parent": "tank",
        "name": "media",
        "compression": "lz4",
        "smb": "on",
        "new_username": "dad",
        "new_password": "dad secret 1",
        "new_password_again": "dad secret 1",
    }
    response = admin_client.post("/sharing/files/wizard/", form, follow=True)
    assert response.redirect_chain, response.content.decode()
    assert SmbShare.objects.get().dataset == "tank/media"
    assert storage.dataset_get("tank/media").compression == "lz4"
    port = settings.NASUI_SMB_PORT
    assert f"(connect to smb://127.0.0.1:{port}/media)" in response.content.decode()


def test_a_new_users_password_is_typed_twice(admin_client, fake_files, tank):
    form = {"existing": "", "parent": "tank", "name": "media", "smb": "on",
            "new_username": "dad", "new_password": "dad secret 1",
            "new_password_again": "dad secret 2"}  # fmt: skip
    response = admin_client.post("/sharing/files/wizard/", form)
    assert response.status_code == 400
    assert "The two passwords differ" in response.content.decode()
    assert not SmbShare.objects.exists()


def test_on_the_appliance_the_address_is_the_servers_name(settings):
    from sharing.smb.selectors import connect_address

    settings.NASUI_SMB_PORT = 445
    assert connect_address("media") == "\\\\NASUI\\media (Windows) or smb://NASUI/media"


def test_the_api_wizard_shares_and_names_the_field_it_refuses(admin_client, fake_files, tank):
    body = {"parent": "tank", "name": "docs", "new_username": "eve", "new_password": "eve pass 12"}
    made = admin_client.post("/api/sharing/smb/wizard/", body, content_type="application/json")
    assert made.status_code == 201, made.json()
    assert (made.json()["name"], made.json()["dataset"]) == ("docs", "tank/docs")
    assert "eve pass 12" not in made.content.decode()
    nobody = admin_client.post(
        "/api/sharing/smb/wizard/", {"parent": "tank", "name": "x"}, content_type="application/json"
    )
    assert nobody.status_code == 400
    assert "users" in nobody.json()["fields"]
