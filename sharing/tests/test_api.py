"""The iSCSI API: same rules as the pages, secrets write-only, the wizard in one call."""

from __future__ import annotations

import pytest

from sharing.models import AuthGroup

pytestmark = pytest.mark.django_db
JSON = "application/json"
SECRET = "s3cret-secret"


def test_secrets_are_write_only(admin_client, fake_target):
    created = admin_client.post(
        "/api/sharing/iscsi/auth-groups/",
        {
            "tag": 7,
            "user": "alice",
            "secret": SECRET,
            "peer_user": "nas",
            "peer_secret": "an0ther-secret",
        },
        content_type=JSON,
    )
    assert created.status_code == 201, created.json()
    body = created.json()
    assert body == {"id": body["id"], "tag": 7, "user": "alice", "peer_user": "nas"}
    listing = admin_client.get("/api/sharing/iscsi/auth-groups/").content.decode()
    assert SECRET not in listing
    assert "an0ther-secret" not in listing
    assert AuthGroup.objects.get().secret == SECRET


def test_a_bad_secret_names_the_field(admin_client, fake_target):
    response = admin_client.post(
        "/api/sharing/iscsi/auth-groups/",
        {"tag": 1, "user": "alice", "secret": "short"},
        content_type=JSON,
    )
    assert response.status_code == 400
    assert response.json()["fields"] == {"secret": ["The secret must be 12 to 16 bytes long."]}


def test_the_wizard_creates_target_extent_and_lun(admin_client, fake_target, tank):
    response = admin_client.post(
        "/api/sharing/iscsi/wizard/",
        {"name": "pc", "dataset": "tank", "size": "64M", "volblocksize": 4096, "open_to_all": True},
        content_type=JSON,
    )
    assert response.status_code == 201, response.json()
    target = response.json()
    assert target["iqn"] == "iqn.2026-11.local.nasui:pc"
    assert target["luns"][0]["lun_id"] == 1
    extents = admin_client.get("/api/sharing/iscsi/extents/").json()["results"]
    assert [(e["zvol"], e["blocksize"]) for e in extents] == [("tank/pc", 4096)]


def test_a_target_portal_entry_round_trips(admin_client, fake_target):
    portal = admin_client.post(
        "/api/sharing/iscsi/portals/", {"addresses": ["127.0.0.1", "::1"]}, content_type=JSON
    ).json()
    assert portal["addresses"] == ["127.0.0.1", "::1"]
    created = admin_client.post(
        "/api/sharing/iscsi/targets/",
        {"name": "disk", "groups": [{"portal": portal["id"], "auth_method": "none"}]},
        content_type=JSON,
    )
    assert created.status_code == 201, created.json()
    renamed = admin_client.patch(
        f"/api/sharing/iscsi/targets/{created.json()['id']}/",
        {"alias": "PC disk"},
        content_type=JSON,
    )
    assert renamed.json()["alias"] == "PC disk"
    assert renamed.json()["groups"][0]["portal"] == portal["id"]
    in_use = admin_client.delete(f"/api/sharing/iscsi/portals/{portal['id']}/")
    assert in_use.status_code == 400
    assert "in use by a target" in in_use.json()["detail"]


def test_settings_validate_the_base_name(admin_client, fake_target):
    response = admin_client.put(
        "/api/sharing/iscsi/settings/", {"basename": "nas.local", "port": 3260}, content_type=JSON
    )
    assert response.status_code == 400
    assert "basename" in response.json()["fields"]


@pytest.mark.parametrize("secret", [f" {SECRET}", f"{SECRET} ", f"\t{SECRET}"])
def test_a_secret_with_surrounding_space_is_refused_not_trimmed(admin_client, fake_target, secret):
    response = admin_client.post(
        "/api/sharing/iscsi/auth-groups/",
        {"tag": 3, "user": "alice", "secret": secret},
        content_type=JSON,
    )
    assert response.status_code == 400
    assert "secret" in response.json()["fields"]
    assert not AuthGroup.objects.exists()


def test_the_form_refuses_a_secret_with_surrounding_space(admin_client, fake_target):
    response = admin_client.post(
        "/sharing/auth-groups/add/",
        {"tag": 4, "user": "alice", "secret": f"{SECRET} "},
    )
    assert response.status_code == 400
    assert "must not start or end with whitespace" in response.content.decode()
    assert not AuthGroup.objects.exists()


def test_an_auth_group_without_a_secret_names_the_field(admin_client, fake_target):
    response = admin_client.post(
        "/api/sharing/iscsi/auth-groups/", {"tag": 1, "user": "bob"}, content_type=JSON
    )
    assert response.status_code == 400
    assert list(response.json()["fields"]) == ["secret"]
    assert not AuthGroup.objects.exists()


def test_putting_settings_without_the_port_names_the_field(admin_client, fake_target):
    response = admin_client.put(
        "/api/sharing/iscsi/settings/", {"basename": "iqn.2026-11.local.nasui"}, content_type=JSON
    )
    assert response.status_code == 400
    assert response.json()["fields"] == {"port": ["This field is required."]}


def test_the_wizard_api_shares_an_existing_zvol(admin_client, fake_target, zvol):
    response = admin_client.post(
        "/api/sharing/iscsi/wizard/",
        {"existing": zvol, "name": "pc", "initiator": "iqn.1991-05.com.microsoft:pc"},
        content_type=JSON,
    )
    assert response.status_code == 201, response.json()
    assert response.json()["iqn"] == "iqn.2026-11.local.nasui:pc"


def test_the_wizard_api_needs_a_dataset_for_a_new_zvol(admin_client, fake_target, tank):
    response = admin_client.post(
        "/api/sharing/iscsi/wizard/", {"name": "pc", "size": "64M"}, content_type=JSON
    )
    assert response.status_code == 400
    assert list(response.json()["fields"]) == ["dataset"]


def test_a_portal_put_answers_with_the_addresses_now_saved(admin_client, fake_target):
    portal = admin_client.post(
        "/api/sharing/iscsi/portals/", {"addresses": ["127.0.0.1"]}, content_type=JSON
    ).json()
    response = admin_client.put(
        f"/api/sharing/iscsi/portals/{portal['id']}/",
        {"addresses": ["127.0.0.2", "::1"], "comment": "lan"},
        content_type=JSON,
    )
    assert response.status_code == 200, response.json()
    assert response.json() == {
        "id": portal["id"],
        "addresses": ["127.0.0.2", "::1"],
        "comment": "lan",
    }
    read_back = admin_client.get(f"/api/sharing/iscsi/portals/{portal['id']}/").json()
    assert read_back == response.json()


def test_a_portal_patch_answers_with_the_addresses_now_saved(admin_client, fake_target):
    portal = admin_client.post(
        "/api/sharing/iscsi/portals/", {"addresses": ["127.0.0.1", "::1"]}, content_type=JSON
    ).json()
    response = admin_client.patch(
        f"/api/sharing/iscsi/portals/{portal['id']}/", {"addresses": ["::1"]}, content_type=JSON
    )
    assert response.status_code == 200, response.json()
    assert response.json()["addresses"] == ["::1"]
