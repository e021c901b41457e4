"""Names and text that reach smb.conf, passwd or the exports file refuse invisible characters
(Unicode Cc, Cf, Zl, Zp: DEL, NEL, U+2028, the BOM, RLO...), naming the code point, through
the services, the pages and the API alike, and change nothing."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from sharing.accounts import services as accounts
from sharing.accounts.engine.desired import invisible_character
from sharing.models import LocalGroup, LocalUser, NfsShare, SmbShare
from sharing.nfs import services as nfs
from sharing.smb import services as smb
from storage.datasets import selectors as storage
from storage.datasets import services as storage_services

pytestmark = pytest.mark.django_db
JSON = "application/json"
PASSWORD = "a good pass 1"
# (character, its code point): a control, a C1 control, a line separator, the byte order
# mark, a bidirectional override, a paragraph separator, a zero-width space.
INVISIBLE = [
    ("\x7f", "U+007F"),
    ("\x85", "U+0085"),
    ("\u2028", "U+2028"),
    ("\ufeff", "U+FEFF"),
    ("\u202e", "U+202E"),
    ("\u2029", "U+2029"),
    ("\u200b", "U+200B"),
]


@pytest.fixture
def media(fake_files, tank) -> str:
    """A file system tank/media; returns its mountpoint."""
    storage_services.dataset_create(parent="tank", name="media")
    return storage.dataset_get("tank/media").mountpoint or ""


@pytest.mark.parametrize(("char", "point"), INVISIBLE)
def test_the_rule_finds_each_invisible_character(char, point):
    assert invisible_character(f"Me{char}dia") == point


def test_the_rule_lets_letters_of_every_script_and_symbols_through():
    assert invisible_character("Médias · Фото 写真 😀 ok") is None


@pytest.mark.parametrize(("char", "point"), INVISIBLE)
def test_a_share_name_with_an_invisible_character_is_refused(media, char, point):
    with pytest.raises(ValidationError) as exc:
        smb.smb_share_create(name=f"Me{char}dia", path=media)
    [message] = exc.value.message_dict["name"]
    assert f"may not contain the invisible character {point}" in message
    assert not SmbShare.objects.exists()


def test_a_share_comment_with_a_bidi_override_is_refused(media):
    with pytest.raises(ValidationError) as exc:
        smb.smb_share_create(name="Media", path=media, comment="films\u202egpj.exe")
    [message] = exc.value.message_dict["comment"]
    assert "may not contain the invisible character U+202E" in message


def test_the_server_description_with_a_nel_is_refused(fake_files):
    with pytest.raises(ValidationError) as exc:
        smb.smb_settings_update(netbios_name="NAS", workgroup="HOME", description="my\x85nas")
    [message] = exc.value.message_dict["description"]
    assert "U+0085" in message


def test_the_share_page_names_the_character_by_the_name_box(admin_client, media):
    form = {"name": "Me\u202edia", "path": media, "enabled": "on"}
    response = admin_client.post("/sharing/files/shares/add/", form)
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert list(errors) == ["name"]
    assert "may not contain the invisible character U+202E" in errors["name"][0]
    assert not SmbShare.objects.exists()


def test_the_api_names_the_character_of_a_share_name(admin_client, media):
    response = admin_client.post(
        "/api/sharing/smb/shares/", {"name": "Me\ufeffdia", "path": media}, content_type=JSON
    )
    assert response.status_code == 400
    assert list(response.json()["fields"]) == ["name"]
    assert "U+FEFF" in response.json()["fields"]["name"][0]
    assert not SmbShare.objects.exists()


def test_a_renamed_share_with_a_delete_character_keeps_its_name(admin_client, media):
    share = smb.smb_share_create(name="Media", path=media)
    response = admin_client.patch(
        f"/api/sharing/smb/shares/{share.pk}/", {"name": "Me\x7fdia"}, content_type=JSON
    )
    assert response.status_code == 400
    assert "U+007F" in response.json()["fields"]["name"][0]
    assert SmbShare.objects.get().name == "Media"


@pytest.mark.parametrize(("char", "point"), INVISIBLE)
def test_a_full_name_with_an_invisible_character_is_refused(fake_files, char, point):
    with pytest.raises(ValidationError) as exc:
        accounts.user_create(username="ann", password=PASSWORD, full_name=f"Ann{char} Lee")
    [message] = exc.value.message_dict["full_name"]
    assert f"may not contain the invisible character {point}" in message
    assert not LocalUser.objects.exists()


def test_the_api_names_the_character_of_a_full_name(admin_client, fake_files):
    response = admin_client.post(
        "/api/sharing/users/",
        {"username": "ann", "password": PASSWORD, "full_name": "Ann\u2028Lee"},
        content_type=JSON,
    )
    assert response.status_code == 400
    assert list(response.json()["fields"]) == ["full_name"]
    assert "U+2028" in response.json()["fields"]["full_name"][0]


def test_the_user_page_names_the_character_by_the_full_name_box(admin_client, fake_files):
    form = {
        "username": "ann",
        "full_name": "Ann\u202eLee",
        "password": PASSWORD,
        "password_again": PASSWORD,
    }
    response = admin_client.post("/sharing/files/users/add/", form)
    assert response.status_code == 400
    assert "U+202E" in response.context["form"].errors["full_name"][0]
    assert not LocalUser.objects.exists()


def test_a_group_comment_with_an_invisible_character_is_refused(fake_files):
    with pytest.raises(ValidationError) as exc:
        accounts.group_create(name="family", comment="our\u202efiles")
    assert "U+202E" in exc.value.message_dict["comment"][0]
    assert not LocalGroup.objects.exists()


def test_an_export_comment_names_the_invisible_character(media):
    with pytest.raises(ValidationError) as exc:
        nfs.nfs_share_create(path=media, networks=["10.0.0.0/8"], comment="lan\ufeff")
    assert "may not contain the invisible character U+FEFF" in exc.value.message_dict["comment"][0]
    assert not NfsShare.objects.exists()
