"""A pool's disks through the API: the flows answer 202/204, refusals a 400 naming the field."""

from __future__ import annotations

import pytest

from storage.pools import selectors as pool_selectors

pytestmark = pytest.mark.django_db
URL = "/api/storage/pools/tank/"


@pytest.fixture
def api(admin_client):
    return admin_client


def _leaves() -> dict[str, str]:
    status = pool_selectors.pool_detail("tank").status
    return {leaf.name: leaf.state for v in status.vdevs for leaf in v.leaves}


def test_offline_and_online_answer_204(api, tank):
    response = api.post(f"{URL}disks/offline/", {"disk": "sda"}, content_type="application/json")
    assert response.status_code == 204
    assert _leaves()["sda"] == "OFFLINE"
    response = api.post(f"{URL}disks/online/", {"disk": "sda"}, content_type="application/json")
    assert response.status_code == 204
    assert _leaves()["sda"] == "ONLINE"


def test_a_refused_offline_is_a_400_naming_the_disk(api, tank):
    api.post(f"{URL}disks/offline/", {"disk": "sda"}, content_type="application/json")
    response = api.post(f"{URL}disks/offline/", {"disk": "sdb"}, content_type="application/json")
    assert response.status_code == 400
    assert list(response.json()["fields"]) == ["disk"]


def test_replace_answers_202_with_the_resilver_job(api, tank):
    body = {"disk": "sda", "new_disk": "sdd"}
    response = api.post(f"{URL}disks/replace/", body, content_type="application/json")
    assert response.status_code == 202
    assert response.json()["kind"] == "pool.resilver"
    assert set(_leaves()) == {"sdb", "sdc", "sdd"}


def test_add_vdev_with_the_wrong_width_is_a_400_on_disks(api, tank):
    body = {"layout": "raidz1", "disks": ["sdd", "sde"]}
    response = api.post(f"{URL}vdevs/", body, content_type="application/json")
    assert response.status_code == 400
    assert list(response.json()["fields"]) == ["disks"]


def test_aux_disks_are_added_and_removed(api, tank):
    body = {"kind": "cache", "disks": ["sdd"]}
    assert api.post(f"{URL}aux/", body, content_type="application/json").status_code == 204
    assert [v.name for v in pool_selectors.pool_detail("tank").status.cache] == ["sdd"]
    assert api.delete(f"{URL}aux/sdd/").status_code == 204
    assert pool_selectors.pool_detail("tank").status.cache == ()


def test_the_schema_documents_the_disk_actions(api):
    paths = api.get("/api/schema/?format=json").json()["paths"]
    assert "post" in paths["/api/storage/pools/{name}/disks/replace/"]
    assert "delete" in paths["/api/storage/pools/{name}/aux/{disk}/"]
