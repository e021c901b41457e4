"""The share wizard over NFS or both: the export, whose folder it is, nothing left on failure."""

from __future__ import annotations

import os

import pytest
from django.core.exceptions import ValidationError

from sharing.accounts import services as accounts
from sharing.files import services as files_wizard
from sharing.models import LocalGroup, LocalUser, NfsShare, SmbShare
from sharing.nfs import services as nfs
from storage.datasets import selectors as storage
from storage.datasets import services as storage_services
from storage.ownership import services as permissions

pytestmark = pytest.mark.django_db
LAN = ["192.168.1.0/24"]


def _folder(dataset: str) -> tuple[int, int, int]:
    """(uid, gid, mode) of a dataset's folder."""
    info = os.stat(storage.dataset_get(dataset).mountpoint or "")
    return info.st_uid, info.st_gid, info.st_mode & 0o777


def _nothing_left(dataset: str) -> None:
    """No dataset, user, group, share or export is left from a failed run."""
    assert dataset not in storage.filesystem_names()
    assert not LocalUser.objects.exists()
    assert not LocalGroup.objects.exists()
    assert not SmbShare.objects.exists()
    assert not NfsShare.objects.exists()


def test_an_nfs_only_share_needs_no_smb_user(fake_files, tank):
    made = files_wizard.share_dataset(
        parent="tank", name="linux", protocols=["nfs"], networks=["192.168.1.7/24"]
    )
    assert (made.share, made.new_user) == (None, None)
    export = NfsShare.objects.get()
    assert (export.dataset, export.networks, export.map_mode) == (
        "tank/linux",
        ["192.168.1.0/24"],
        "none",
    )
    assert made.export == export
    assert made.path == storage.dataset_get("tank/linux").mountpoint
    assert not SmbShare.objects.exists()


def test_root_squash_opens_the_folder_to_the_clients_uids(fake_files, tank):
    ann = accounts.user_create(username="ann", password="ann secret 1")
    made = files_wizard.share_dataset(
        parent="tank", name="both", protocols=["smb", "nfs"], users=[ann], hosts=["pc.lan"]
    )
    assert made.share is not None
    assert made.export is not None
    assert _folder(made.dataset) == (ann.uid, ann.group.gid, 0o777)


def test_a_read_only_export_keeps_the_folder_the_smb_users(fake_files, tank):
    ann = accounts.user_create(username="ann", password="ann secret 1")
    made = files_wizard.share_dataset(
        parent="tank", name="ro", protocols=["smb", "nfs"], users=[ann], networks=LAN,
        read_only=True,
    )  # fmt: skip
    assert made.export is not None
    assert made.export.read_only
    assert made.share is not None
    assert made.share.read_only
    assert _folder(made.dataset) == (ann.uid, ann.group.gid, 0o770)


def test_map_all_to_the_new_user_gives_them_the_folder(fake_files, tank):
    made = files_wizard.share_dataset(
        parent="tank",
        name="family",
        protocols=["smb", "nfs"],
        new_username="mum",
        new_password="mum secret 1",
        networks=LAN,
        map_mode="all",
    )
    mum = made.new_user
    assert mum is not None
    assert made.export is not None
    assert made.share is not None
    assert (made.export.map_user, made.export.map_group) == (mum, mum.group)
    assert list(made.share.users.all()) == [mum]
    assert _folder(made.dataset) == (mum.uid, mum.group.gid, 0o770)
    assert "(everyone as mum)" in files_wizard.summary(made)


def test_map_all_to_a_chosen_user_makes_the_folder_theirs_open_to_other_smb_users(fake_files, tank):
    ann = accounts.user_create(username="ann", password="ann secret 1")
    ben = accounts.user_create(username="ben", password="ben secret 1")
    made = files_wizard.share_dataset(
        parent="tank", name="mixed", protocols=["smb", "nfs"], users=[ann, ben], networks=LAN,
        map_mode="all", map_user=ben,
    )  # fmt: skip
    assert _folder(made.dataset) == (ben.uid, ben.group.gid, 0o777)


def test_nfs_only_map_all_to_a_user_keeps_the_folder_closed(fake_files, tank):
    sam = accounts.user_create(username="sam", password="sam secret 1")
    made = files_wizard.share_dataset(
        parent="tank", name="esxi", protocols=["nfs"], hosts=["esxi.lan"], map_mode="all",
        map_user=sam,
    )  # fmt: skip
    assert _folder(made.dataset) == (sam.uid, sam.group.gid, 0o770)


def test_an_export_with_no_network_or_host_is_refused_naming_networks(fake_files, tank):
    with pytest.raises(ValidationError) as exc:
        files_wizard.share_dataset(parent="tank", name="open", protocols=["nfs"])
    assert "Name the networks or hosts" in exc.value.message_dict["networks"][0]
    _nothing_left("tank/open")


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"networks": ["not a net"]}, "networks"),
        ({"hosts": ["*.lan"]}, "hosts"),
        ({"networks": LAN, "map_mode": "sideways"}, "map_mode"),
    ],
)
def test_a_failing_export_undoes_the_share_user_and_dataset(fake_files, tank, fields, field):
    with pytest.raises(ValidationError) as exc:
        files_wizard.share_dataset(
            parent="tank", name="oops", protocols=["smb", "nfs"], new_username="kid",
            new_password="kid secret 1", **fields,
        )  # fmt: skip
    assert field in exc.value.message_dict
    _nothing_left("tank/oops")


def test_map_all_without_a_user_to_map_to_names_map_user(fake_files, tank):
    with pytest.raises(ValidationError) as exc:
        files_wizard.share_dataset(
            parent="tank", name="all", protocols=["nfs"], networks=LAN, map_mode="all"
        )
    assert "Pick the user" in exc.value.message_dict["map_user"][0]
    _nothing_left("tank/all")


@pytest.mark.parametrize("error", [ValidationError({"mode": ["no"]}), OSError("disk gone")])
def test_a_failing_last_step_undoes_the_export_too(fake_files, tank, monkeypatch, error):
    def refuse(**kwargs):
        raise error

    monkeypatch.setattr(permissions, "dataset_permissions_set", refuse)
    with pytest.raises(type(error)):
        files_wizard.share_dataset(
            parent="tank", name="late", protocols=["smb", "nfs"], new_username="kid",
            new_password="kid secret 1", networks=LAN, map_mode="all",
        )  # fmt: skip
    _nothing_left("tank/late")


def test_an_exported_dataset_is_refused_naming_existing_and_its_share_undone(fake_files, tank):
    storage_services.dataset_create(parent="tank", name="media")
    mountpoint = storage.dataset_get("tank/media").mountpoint or ""
    nfs.nfs_share_create(path=mountpoint, networks=LAN)
    with pytest.raises(ValidationError) as exc:
        files_wizard.share_dataset(
            existing="tank/media", protocols=["smb", "nfs"], guest_ok=True, networks=LAN
        )
    assert "exported already" in exc.value.message_dict["existing"][0]
    assert not SmbShare.objects.exists()
    assert NfsShare.objects.count() == 1
    assert "tank/media" in storage.filesystem_names()


def test_a_new_user_nfs_does_not_map_to_is_refused(fake_files, tank):
    with pytest.raises(ValidationError) as exc:
        files_wizard.share_dataset(
            parent="tank", name="x", protocols=["nfs"], networks=LAN, new_username="kid",
            new_password="kid secret 1",
        )  # fmt: skip
    assert "would use nothing" in exc.value.message_dict["new_username"][0]
    _nothing_left("tank/x")


@pytest.mark.parametrize("protocols", [[], ["ftp"], ["smb", "afp"]])
def test_protocols_must_be_smb_or_nfs(fake_files, tank, protocols):
    with pytest.raises(ValidationError) as exc:
        files_wizard.share_dataset(parent="tank", name="x", protocols=protocols, guest_ok=True)
    assert "protocols" in exc.value.message_dict
    assert "tank/x" not in storage.filesystem_names()


def test_the_page_exports_over_nfs_and_says_what_it_made(admin_client, fake_files, tank):
    form = {
        "parent": "tank",
        "name": "linux",
        "compression": "inherit",
        "nfs": "on",
        "networks": "192.168.1.0/24\n10.0.0.0/8",
        "hosts": "pc.lan",
        "map_mode": "none",
    }
    response = admin_client.post("/sharing/files/wizard/", form, follow=True)
    page = response.content.decode()
    mountpoint = storage.dataset_get("tank/linux").mountpoint
    assert f"tank/linux is shared over NFS at {mountpoint} to 10.0.0.0/8" in page
    assert "pc.lan" in page
    assert 'data-export="tank/linux"' in page
    assert not SmbShare.objects.exists()


def test_the_page_maps_everyone_to_the_new_user(admin_client, fake_files, tank):
    form = {
        "parent": "tank", "name": "home", "compression": "inherit", "smb": "on", "nfs": "on",
        "new_username": "dad", "new_password": "dad secret 1",
        "new_password_again": "dad secret 1", "networks": "10.0.0.0/8",
        "map_mode": "all", "map_user": "",
    }  # fmt: skip
    response = admin_client.post("/sharing/files/wizard/", form)
    assert response.status_code == 302, response.content.decode()
    export = NfsShare.objects.get()
    assert export.map_user is not None
    assert export.map_user.username == "dad"


def test_the_page_asks_for_a_protocol(admin_client, fake_files, tank):
    form = {"parent": "tank", "name": "x", "compression": "inherit", "guest_ok": "on"}
    response = admin_client.post("/sharing/files/wizard/", form)
    assert response.status_code == 400
    assert 'data-field-error="smb">Pick SMB, NFS or both.' in response.content.decode()
    assert "tank/x" not in storage.filesystem_names()


def test_the_page_names_the_bad_network_and_makes_nothing(admin_client, fake_files, tank):
    form = {
        "parent": "tank", "name": "x", "compression": "inherit", "nfs": "on",
        "networks": "192.168.1.0/99",
    }  # fmt: skip
    response = admin_client.post("/sharing/files/wizard/", form)
    assert response.status_code == 400
    assert 'data-field-error="networks"' in response.content.decode()
    _nothing_left("tank/x")


def test_the_page_shows_nfs_fields_only_while_nfs_is_ticked(admin_client, fake_files, tank):
    page = admin_client.get("/sharing/files/wizard/").content.decode()
    nfs_part = page.split('data-show-when="nfs=on"', 1)[1].split("</fieldset>\n", 1)[0]
    assert 'name="networks"' in nfs_part
    assert 'name="map_mode"' in nfs_part
    assert 'name="networks"' not in page.split('data-show-when="nfs=on"', 1)[0]
    assert 'name="smb" id="id_smb" class="form-check-input" checked' in " ".join(page.split())


def test_where_nfs_is_not_served_the_wizard_says_so_in_words(fake_files, tank, settings):
    from sharing.nfs import runtime as nfs_runtime

    settings.NASUI_NFS = "none"
    nfs_runtime.nfs_engine.cache_clear()
    made = files_wizard.share_dataset(
        parent="tank", name="linux", protocols=["nfs"], networks=["192.168.1.7/24"]
    )
    said = files_wizard.summary(made)
    assert "NFS is not served on this machine: exports are saved" in said
    assert "NASUI_NFS" not in said
