"""Roles enforced in the API and the pages alike: the server refuses, the pages hide."""

from __future__ import annotations

import pytest

from access.users.engine import roles
from sharing.models import LocalGroup

pytestmark = pytest.mark.django_db
JSON = "application/json"


def test_a_read_only_user_reads_the_api_but_every_write_is_refused(token_client, tank):
    api = token_client(roles.READ_ONLY)
    assert api.get("/api/storage/pools/").status_code == 200
    refused = api.post("/api/sharing/groups/", {"name": "family"}, content_type=JSON)
    assert refused.status_code == 403
    assert "read-only" in refused.json()["detail"]
    assert not LocalGroup.objects.exists()
    gone = api.delete("/api/storage/pools/tank/")
    assert gone.status_code == 403
    assert api.get("/api/storage/pools/tank/").status_code == 200


def test_a_sharing_administrator_writes_shares_but_not_pools_or_the_system(token_client, tank):
    api = token_client(roles.SHARING)
    made = api.post("/api/sharing/groups/", {"name": "family"}, content_type=JSON)
    assert made.status_code == 201, made.json()
    refused = api.post("/api/storage/datasets/", {"name": "tank/x"}, content_type=JSON)
    assert refused.status_code == 403
    assert "sharing administrator" in refused.json()["detail"]
    assert api.put("/api/system/clock/", {}, content_type=JSON).status_code == 403
    assert api.get("/api/storage/datasets/tank%2Fx/").status_code == 404


def test_a_read_only_token_of_an_administrator_only_reads(token_client, tank):
    api = token_client(roles.ADMIN, read_only=True)
    assert api.get("/api/sharing/groups/").status_code == 200
    assert api.post("/api/sharing/groups/", {"name": "x"}, content_type=JSON).status_code == 403
    full = token_client(roles.ADMIN, name="other-admin")
    assert full.post("/api/sharing/groups/", {"name": "x"}, content_type=JSON).status_code == 201


def test_a_user_without_a_role_is_refused_everything(django_user_model, client):
    user = django_user_model.objects.create_user("stranger", password="a long passphrase 1")
    client.force_login(user)
    page = client.get("/storage/")
    assert page.status_code == 403
    assert "panel users of this NAS" in page.content.decode()
    assert client.get("/api/storage/pools/").status_code == 403


def test_a_read_only_page_has_no_buttons_for_changes_and_a_posted_form_is_refused(client_of, tank):
    browser = client_of(roles.READ_ONLY)
    page = browser.get("/storage/")
    html = page.content.decode()
    assert page.status_code == 200
    assert "tank" in html
    assert "/storage/pools/create/" not in html  # the create-pool button
    assert 'method="post"' not in html.replace('action="/logout/"', "").split("<main")[1]
    refused = browser.post("/storage/pools/create/", {"name": "other"})
    assert refused.status_code == 403
    assert "read-only" in refused.content.decode()


def test_a_sharing_administrator_sees_sharing_buttons_but_not_storage_ones(client_of, tank):
    browser = client_of(roles.SHARING)
    files = browser.get("/sharing/files/").content.decode()
    assert "/sharing/files/users/add/" in files
    storage = browser.get("/storage/").content.decode()
    assert "/storage/pools/create/" not in storage


def test_an_administrator_sees_every_button(admin_client, tank):
    assert "/storage/pools/create/" in admin_client.get("/storage/").content.decode()


@pytest.fixture
def shared(tank):
    """tank/media shared over SMB, tank/private not shared."""
    from sharing.models import SmbShare
    from storage.datasets import services as datasets

    datasets.dataset_create(parent="tank", name="media")
    datasets.dataset_create(parent="tank", name="private")
    SmbShare.objects.create(name="media", dataset="tank/media")


def test_a_sharing_administrator_keeps_the_snapshots_of_shared_datasets_only(token_client, shared):
    api = token_client(roles.SHARING)
    made = api.post("/api/storage/snapshots/", {"dataset": "tank/media", "name": "before"},
                    content_type=JSON)  # fmt: skip
    assert made.status_code == 201, made.json()
    refused = api.post("/api/storage/snapshots/", {"dataset": "tank/private", "name": "x"},
                       content_type=JSON)  # fmt: skip
    assert refused.status_code == 403
    assert "snapshots of shared datasets" in refused.json()["detail"]
    clone = api.post("/api/storage/snapshots/tank%2Fmedia@before/clone/",
                     {"target": "tank/copy"}, content_type=JSON)  # fmt: skip
    assert clone.status_code == 403
    gone = api.delete("/api/storage/snapshots/tank%2Fmedia@before/")
    assert gone.status_code == 204


def test_a_sharing_administrators_snapshot_form_shows_for_a_shared_dataset_only(client_of, shared):
    browser = client_of(roles.SHARING)
    mine = browser.get("/storage/snapshots/create/?dataset=tank/media").content.decode()
    assert mine.split("<main")[1].count('method="post"') == 1
    theirs = browser.get("/storage/snapshots/create/?dataset=tank/private").content.decode()
    assert 'method="post"' not in theirs.split("<main")[1]
    posted = browser.post("/storage/snapshots/create/", {"dataset": "tank/private", "name": "x"})
    assert posted.status_code == 403
    done = browser.post("/storage/snapshots/create/", {"dataset": "tank/media", "name": "y"})
    assert done.status_code == 302
