"""The share wizard's API: /api/sharing/wizard/ (SMB, NFS or both) and the SMB-only address."""

from __future__ import annotations

import pytest
from drf_spectacular.generators import SchemaGenerator

from sharing.models import LocalUser, NfsShare, SmbShare
from storage.datasets import selectors as storage

pytestmark = pytest.mark.django_db
JSON = "application/json"
WIZARD, SMB_WIZARD = "/api/sharing/wizard/", "/api/sharing/smb/wizard/"


def test_the_wizard_shares_over_both_and_reports_each_part(admin_client, fake_files, tank):
    body = {
        "parent": "tank",
        "name": "home",
        "protocols": ["smb", "nfs"],
        "new_username": "eve",
        "new_password": "eve pass 12",
        "networks": ["192.168.1.0/24"],
        "map_mode": "all",
    }
    response = admin_client.post(WIZARD, body, content_type=JSON)
    assert response.status_code == 201, response.json()
    made = response.json()
    mountpoint = storage.dataset_get("tank/home").mountpoint
    assert (made["dataset"], made["path"]) == ("tank/home", mountpoint)
    assert made["smb_share"]["name"] == "home"
    assert made["nfs_share"]["networks"] == ["192.168.1.0/24"]
    assert made["nfs_share"]["map_user"] == made["new_user"]["id"]
    assert made["new_user"]["username"] == "eve"
    assert f"over NFS at {mountpoint}" in made["summary"]
    assert "eve pass 12" not in response.content.decode()


def test_the_wizard_exports_over_nfs_alone(admin_client, fake_files, tank):
    body = {"parent": "tank", "name": "linux", "protocols": ["nfs"], "hosts": ["pc.lan"]}
    response = admin_client.post(WIZARD, body, content_type=JSON)
    assert response.status_code == 201, response.json()
    assert (response.json()["smb_share"], response.json()["new_user"]) == (None, None)
    assert NfsShare.objects.get().hosts == ["pc.lan"]
    assert not SmbShare.objects.exists()


def test_the_wizard_left_at_its_defaults_shares_over_smb(admin_client, fake_files, tank):
    body = {"parent": "tank", "name": "docs", "guest_ok": True}
    response = admin_client.post(WIZARD, body, content_type=JSON)
    assert response.status_code == 201, response.json()
    assert (response.json()["smb_share"]["guest_ok"], response.json()["nfs_share"]) == (True, None)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"protocols": ["nfs"]}, "networks"),
        ({"protocols": ["nfs"], "networks": ["10.0.0.0/33"]}, "networks"),
        ({"protocols": ["smb", "nfs"], "guest_ok": True, "hosts": ["a b"]}, "hosts"),
        ({"protocols": ["ftp"], "guest_ok": True}, "protocols"),
        ({"protocols": [], "guest_ok": True}, "protocols"),
        ({"protocols": ["nfs"], "networks": ["10.0.0.0/8"], "map_mode": "up"}, "map_mode"),
        ({"protocols": ["nfs"], "networks": ["10.0.0.0/8"], "map_mode": "root"}, "map_user"),
        ({"protocols": ["smb"]}, "users"),
    ],
)
def test_the_wizard_names_the_field_it_refuses_and_makes_nothing(
    admin_client, fake_files, tank, body, field
):
    response = admin_client.post(WIZARD, {"parent": "tank", "name": "x", **body}, content_type=JSON)
    assert response.status_code == 400
    assert field in response.json()["fields"], response.json()
    assert "tank/x" not in storage.filesystem_names()
    assert not SmbShare.objects.exists()
    assert not NfsShare.objects.exists()


def test_the_smb_address_answers_as_before(admin_client, fake_files, tank):
    body = {"parent": "tank", "name": "docs", "new_username": "eve", "new_password": "eve pass 12"}
    response = admin_client.post(SMB_WIZARD, body, content_type=JSON)
    assert response.status_code == 201, response.json()
    user = LocalUser.objects.get()
    assert response.json()["users"] == [user.pk]
    assert {"name", "path", "dataset", "guest_ok"} <= set(response.json())
    assert not NfsShare.objects.exists()


def test_the_smb_address_refuses_nfs_naming_protocols(admin_client, fake_files, tank):
    body = {"parent": "tank", "name": "x", "protocols": ["smb", "nfs"], "guest_ok": True}
    response = admin_client.post(SMB_WIZARD, body, content_type=JSON)
    assert response.status_code == 400
    assert "/api/sharing/wizard/" in response.json()["fields"]["protocols"][0]
    assert "tank/x" not in storage.filesystem_names()


def test_the_schema_shows_both_wizards_and_keeps_passwords_write_only():
    schema = SchemaGenerator().get_schema(request=None, public=True)
    assert {WIZARD, SMB_WIZARD} <= set(schema["paths"])
    request = schema["components"]["schemas"]["ShareWizardRequest"]["properties"]
    assert {"protocols", "networks", "hosts", "map_mode", "map_user", "map_group"} <= set(request)
    for name, component in schema["components"]["schemas"].items():
        if not name.endswith("Request"):
            assert "new_password" not in component.get("properties", {}), name
            assert "password" not in component.get("properties", {}), name
