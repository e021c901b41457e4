"""SMB shares and settings: a dataset's mountpoint only, rules with field messages, holders."""

from __future__ import annotations

import os

import pytest
from django.core.exceptions import ValidationError

from sharing.accounts import services as accounts
from sharing.models import LocalUser, SmbShare
from sharing.smb import services as smb
from storage.datasets import selectors as storage
from storage.datasets import services as storage_services
from storage.pools import services as pool_services

pytestmark = pytest.mark.django_db
JSON = "application/json"


@pytest.fixture
def media(fake_files, tank) -> str:
    """A file system tank/media; returns its mountpoint."""
    storage_services.dataset_create(parent="tank", name="media")
    mountpoint = storage.dataset_get("tank/media").mountpoint
    assert mountpoint
    return mountpoint


def _errors(exc: pytest.ExceptionInfo[ValidationError]) -> dict[str, list[str]]:
    return exc.value.message_dict


def test_a_share_serves_the_datasets_mountpoint_to_its_users(media, fake_files):
    alice = accounts.user_create(username="alice", password="alice pass 1")
    staff = accounts.group_create(name="staff")
    share = smb.smb_share_create(
        name="Media", path=media, comment="films", users=[alice], groups=[staff]
    )
    assert share.dataset == "tank/media"
    [spec] = fake_files.last.shares
    assert (spec.name, spec.path, spec.users, spec.groups) == (
        "Media",
        media,
        ("alice",),
        ("staff",),
    )


@pytest.mark.parametrize(
    "where",
    ["/etc", "parent-of-pool", "inside", "dotdot", "symlink-out"],
)
def test_only_a_datasets_own_mountpoint_can_be_shared(media, tmp_path, where):
    paths = {
        "/etc": "/etc",
        "parent-of-pool": os.path.dirname(os.path.dirname(media)),
        "inside": os.path.join(media, "sub"),
        "dotdot": os.path.join(media, "..", "..", ".."),
        "symlink-out": str(tmp_path / "link"),
    }
    os.makedirs(os.path.join(media, "sub"), exist_ok=True)
    (tmp_path / "link").symlink_to("/etc")
    with pytest.raises(ValidationError) as exc:
        smb.smb_share_create(name="x", path=paths[where])
    assert "path" in _errors(exc)
    assert not SmbShare.objects.exists()


def test_a_link_to_a_mountpoint_is_judged_where_it_leads(media, tmp_path):
    (tmp_path / "to-media").symlink_to(media)
    share = smb.smb_share_create(name="viaLink", path=str(tmp_path / "to-media"))
    assert share.dataset == "tank/media"


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"name": "bad/name"}, "name"),
        ({"name": "global"}, "name"),
        ({"name": "x" * 81}, "name"),
        ({"comment": "two\nlines"}, "comment"),
        ({"time_machine_limit": 10**9}, "time_machine_limit"),
    ],
)
def test_bad_share_input_names_the_field(media, fields, field):
    with pytest.raises(ValidationError) as exc:
        smb.smb_share_create(**{"name": "ok", "path": media, **fields})
    assert field in _errors(exc)
    assert not SmbShare.objects.exists()


def test_share_names_are_unique_ignoring_case(media):
    smb.smb_share_create(name="Media", path=media)
    with pytest.raises(ValidationError) as exc:
        smb.smb_share_create(name="MEDIA", path=media)
    assert "Windows ignores case" in _errors(exc)["name"][0]


def test_a_shared_dataset_cannot_be_destroyed_and_the_refusal_names_the_share(media):
    smb.smb_share_create(name="Media", path=media)
    with pytest.raises(ValidationError) as exc:
        storage_services.dataset_destroy(name="tank/media", confirm="tank/media")
    assert "SMB share Media" in str(exc.value)
    with pytest.raises(ValidationError) as exc:
        pool_services.pool_destroy(name="tank", confirm="tank")
    assert "SMB share Media" in str(exc.value)


def test_a_user_a_share_names_cannot_be_deleted(media):
    bob = accounts.user_create(username="bob", password="bob pass 12")
    smb.smb_share_create(name="Media", path=media, users=[bob])
    with pytest.raises(ValidationError) as exc:
        accounts.user_delete(user=bob)
    assert "SMB share Media admits this user" in str(exc.value)


def test_settings_refuse_smb1_era_names_and_bad_addresses(fake_files):
    with pytest.raises(ValidationError) as exc:
        smb.smb_settings_update(netbios_name="A-NAME-LONGER-THAN-15", workgroup="WG")
    assert "netbios_name" in _errors(exc)
    with pytest.raises(ValidationError) as exc:
        smb.smb_settings_update(netbios_name="NAS", workgroup="WG", bind=["not-an-ip"])
    assert "bind" in _errors(exc)
    row = smb.smb_settings_update(netbios_name="NAS", workgroup="HOME", bind=["127.0.0.1"])
    assert fake_files.last.globals.bind == ("127.0.0.1",)
    assert row.workgroup == "HOME"


def test_the_api_makes_a_user_and_a_share_and_never_shows_the_password(admin_client, media):
    user = admin_client.post(
        "/api/sharing/users/",
        {"username": "kim", "password": "kim secret 9"},
        content_type=JSON,
    )
    assert user.status_code == 201, user.json()
    assert "password" not in user.json()
    assert user.json()["has_password"] is True
    share = admin_client.post(
        "/api/sharing/smb/shares/",
        {"name": "kims", "path": media, "users": [user.json()["id"]]},
        content_type=JSON,
    )
    assert share.status_code == 201, share.json()
    assert (share.json()["dataset"], share.json()["path"]) == ("tank/media", media)
    bad = admin_client.post(
        "/api/sharing/smb/shares/", {"name": "etc", "path": "/etc"}, content_type=JSON
    )
    assert bad.status_code == 400
    assert "path" in bad.json()["fields"]


def test_the_files_page_lists_shares_users_and_groups(admin_client, media):
    bob = accounts.user_create(username="bob", password="bob pass 12", full_name="Bob B")
    smb.smb_share_create(name="Media", path=media, users=[bob])
    page = admin_client.get("/sharing/files/").content.decode()
    for text in ('data-share="Media"', 'data-user="bob"', "Bob B", 'data-group="bob"'):
        assert text in page


def test_the_user_page_makes_a_user_and_refuses_differing_passwords(admin_client, fake_files):
    form = {"username": "lena", "password": "lena pass 1", "password_again": "typo pass 1"}
    response = admin_client.post("/sharing/files/users/add/", form)
    assert response.status_code == 400
    assert "The two passwords differ." in response.content.decode()
    form["password_again"] = form["password"]
    assert admin_client.post("/sharing/files/users/add/", form).status_code == 302
    assert LocalUser.objects.get(username="lena").has_password


def test_the_share_page_saves_a_time_machine_limit(admin_client, media):
    form = {
        "name": "Backups",
        "path": media,
        "time_machine": "on",
        "time_machine_limit": "500G",
        "enabled": "on",
    }
    response = admin_client.post("/sharing/files/shares/add/", form)
    assert response.status_code == 302, response.content.decode()
    assert SmbShare.objects.get(name="Backups").time_machine_limit == 500 << 30
    edit = admin_client.get(f"/sharing/files/shares/{SmbShare.objects.get().pk}/").content
    assert b'value="500G"' in edit


def test_a_share_behind_a_folder_nobody_may_pass_is_refused_in_words(media, fake_files):
    from pathlib import Path

    above = Path(media).parent
    mode = above.stat().st_mode
    above.chmod(0o700)
    try:
        with pytest.raises(ValidationError) as exc:
            smb.smb_share_create(name="media", path=media)
    finally:
        above.chmod(mode)
    [message] = _errors(exc)["path"]
    assert f"{above}, above it, lets nobody else pass through" in message
    assert f"chmod o+x {above}" in message
    assert not SmbShare.objects.exists()
