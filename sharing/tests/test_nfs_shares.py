"""NFS exports: a dataset's own mountpoint, named clients only, mapping, holders, API, page."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from sharing.accounts import services as accounts
from sharing.models import NfsShare
from sharing.nfs import selectors as nf_selectors
from sharing.nfs import services as nfs
from storage.datasets import selectors as storage
from storage.datasets import services as storage_services

pytestmark = pytest.mark.django_db
JSON = "application/json"


@pytest.fixture
def media(fake_files, tank) -> str:
    """A file system tank/media; returns its mountpoint."""
    storage_services.dataset_create(parent="tank", name="media")
    return storage.dataset_get("tank/media").mountpoint or ""


def _errors(exc: pytest.ExceptionInfo[ValidationError]) -> dict[str, list[str]]:
    return exc.value.message_dict


def test_an_export_becomes_one_spec_with_its_clients(media):
    nfs.nfs_share_create(path=media, networks=["192.168.1.7/24"], hosts=["ESXi.local"])
    [spec] = nf_selectors.build_nfs_state().exports
    assert (spec.path, spec.networks, spec.hosts) == (media, ("192.168.1.0/24",), ("esxi.local",))
    assert spec.map_mode == "none"


def test_mapall_maps_to_the_users_uid_and_its_group(media):
    sam = accounts.user_create(username="sam", password="sam secret 1")
    nfs.nfs_share_create(path=media, networks=["10.0.0.0/8"], map_mode="all", map_user=sam)
    [spec] = nf_selectors.build_nfs_state().exports
    assert (spec.map_mode, spec.anon_uid, spec.anon_gid) == ("all", sam.uid, sam.group.gid)


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"networks": [], "hosts": []}, "networks"),
        ({"networks": ["not a net"]}, "networks"),
        ({"hosts": ["*.lan"]}, "hosts"),
        ({"path": "/etc"}, "path"),
        ({"map_mode": "root"}, "map_user"),
        ({"map_mode": "sideways"}, "map_mode"),
    ],
)
def test_bad_input_names_the_field_and_changes_nothing(media, fields, field):
    with pytest.raises(ValidationError) as exc:
        nfs.nfs_share_create(**{"path": media, "networks": ["10.0.0.0/8"], **fields})
    assert field in _errors(exc)
    assert not NfsShare.objects.exists()


def test_one_export_per_dataset_and_the_refusal_says_where_to_add(media):
    nfs.nfs_share_create(path=media, networks=["10.0.0.0/8"])
    with pytest.raises(ValidationError) as exc:
        nfs.nfs_share_create(path=media, hosts=["pc1"])
    assert "add these clients to that export" in _errors(exc)["path"][0]


def test_an_exported_dataset_cannot_be_destroyed(media):
    nfs.nfs_share_create(path=media, networks=["10.0.0.0/8"])
    with pytest.raises(ValidationError) as exc:
        storage_services.dataset_destroy(name="tank/media", confirm="tank/media")
    assert "NFS export tank/media" in str(exc.value)


def test_the_api_and_the_page(admin_client, media):
    made = admin_client.post(
        "/api/sharing/nfs/shares/", {"path": media, "networks": ["10.1.0.0/16"]}, content_type=JSON
    )
    assert made.status_code == 201, made.json()
    assert (made.json()["dataset"], made.json()["path"]) == ("tank/media", media)
    bad = admin_client.post("/api/sharing/nfs/shares/", {"path": media}, content_type=JSON)
    assert bad.status_code == 400
    page = admin_client.get("/sharing/files/").content.decode()
    assert 'data-export="tank/media"' in page
    assert "NFS is not served on this machine: exports are saved" in page
    assert "NASUI_NFS" not in page  # words a user can act on, not a setting's name
    v3 = admin_client.put("/api/sharing/nfs/settings/", {"v3": True}, content_type=JSON)
    assert v3.status_code == 200
    assert nf_selectors.build_nfs_state().v3


def test_a_user_an_export_maps_to_cannot_be_deleted(media):
    sam = accounts.user_create(username="sam", password="sam secret 1")
    nfs.nfs_share_create(path=media, networks=["10.0.0.0/8"], map_mode="root", map_user=sam)
    with pytest.raises(ValidationError) as exc:
        accounts.user_delete(user=sam)
    assert "NFS export of tank/media maps to it" in str(exc.value)
    with pytest.raises(ValidationError):
        accounts.group_delete(group=sam.group)
