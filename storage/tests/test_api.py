"""The storage API: the same rules and messages as the pages, through /api/storage/."""

from __future__ import annotations

import pytest

from nasui.models import Job

pytestmark = pytest.mark.django_db
JSON = "application/json"


@pytest.fixture
def api(admin_client):
    return admin_client


def test_creating_a_pool_returns_its_job(api, sandbox, eager_jobs):
    response = api.post(
        "/api/storage/pools/",
        {"name": "tank", "layout": "raidz1", "disks": ["sda", "sdb", "sdc"]},
        content_type=JSON,
    )
    assert response.status_code == 202
    job = Job.objects.get(pk=response.json()["id"])
    assert job.status == "succeeded", job.error
    pools = api.get("/api/storage/pools/").json()
    assert [p["name"] for p in pools["results"]] == ["tank"]
    assert pools["count"] == 1


def test_pool_input_errors_name_the_field(api, sandbox):
    response = api.post(
        "/api/storage/pools/",
        {"name": "mirror", "layout": "raidz1", "disks": ["sda", "sdb", "sdc"]},
        content_type=JSON,
    )
    assert response.status_code == 400
    assert response.json()["fields"] == {
        "name": ["“mirror” is reserved by ZFS for vdev types; pick another name."]
    }
    response = api.post(
        "/api/storage/pools/",
        {"name": "tank", "layout": "raidz2", "disks": ["sda", "sdb", "sdc"]},
        content_type=JSON,
    )
    # Named as the form's layout choices name it (RAID-Z2, not raidz2).
    assert response.json()["fields"] == {"disks": ["RAID-Z2 needs at least 4 disks per vdev."]}
    assert Job.objects.count() == 0


def test_pool_detail_has_the_vdev_tree_and_ratios(api, tank):
    body = api.get("/api/storage/pools/tank/").json()
    assert body["health"] == "ONLINE"
    assert body["vdevs"][0]["type"] == "raidz1"
    assert [c["name"] for c in body["vdevs"][0]["children"]] == ["sda", "sdb", "sdc"]
    assert body["compressratio"] >= 1.0
    assert body["scan"]["state"] == "none"


def test_unknown_pool_is_404(api, sandbox):
    response = api.get("/api/storage/pools/ghost/")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_disks_list_marks_used_ones(api, tank):
    disks = {d["name"]: d for d in api.get("/api/storage/disks/").json()["results"]}
    assert disks["sda"]["pool"] == "tank"
    assert disks["sdf"]["free"] is True


def test_dataset_lifecycle(api, tank):
    created = api.post(
        "/api/storage/datasets/", {"name": "tank/docs", "compression": "lz4"}, content_type=JSON
    )
    assert created.status_code == 201, created.json()
    assert created.json()["compression"] == "lz4"
    changed = api.patch("/api/storage/datasets/tank/docs/", {"dedup": "verify"}, content_type=JSON)
    assert changed.json()["dedup"] == "verify"
    refused = api.delete("/api/storage/datasets/tank/docs/")
    assert refused.status_code == 400
    assert refused.json()["fields"] == {"confirm": ["Type “tank/docs” to confirm."]}
    assert api.delete("/api/storage/datasets/tank/docs/?confirm=tank/docs").status_code == 204
    assert api.get("/api/storage/datasets/tank/docs/").status_code == 404


def test_the_same_mistake_gets_the_same_message_as_the_page(api, admin_client, tank):
    via_api = api.post(
        "/api/storage/datasets/", {"name": "tank/x", "quota": "lots"}, content_type=JSON
    ).json()["fields"]["quota"]
    page = admin_client.post(
        "/storage/datasets/create/",
        {
            "parent": "tank",
            "name": "x",
            "compression": "inherit",
            "dedup": "inherit",
            "atime": "inherit",
            "quota": "lots",
        },
    )
    assert page.status_code == 400
    assert via_api[0] in page.content.decode().replace("&quot;", '"')


def test_zvol_lifecycle_with_grow_and_refused_shrink(api, tank):
    created = api.post(
        "/api/storage/zvols/",
        {"name": "tank/vol", "size": "256M", "volblocksize": 4096, "dedup": "on", "sparse": True},
        content_type=JSON,
    )
    assert created.status_code == 201, created.json()
    body = created.json()
    assert (body["volsize"], body["volblocksize"], body["dedup"]) == (256 * 1024**2, 4096, "on")
    grown = api.patch("/api/storage/zvols/tank/vol/", {"size": "512M"}, content_type=JSON)
    assert grown.json()["volsize"] == 512 * 1024**2
    shrunk = api.patch("/api/storage/zvols/tank/vol/", {"size": "64M"}, content_type=JSON)
    assert shrunk.status_code == 400
    assert "only grow" in shrunk.json()["fields"]["size"][0]
    assert api.get("/api/storage/zvols/").json()["count"] == 1
    assert api.get("/api/storage/datasets/tank/vol/").status_code == 404
    assert api.delete("/api/storage/zvols/tank/vol/?confirm=tank/vol").status_code == 204


def test_dedup_estimate(api, sandbox):
    body = api.get("/api/storage/dedup-estimate/?size=1T&block_size=131072").json()
    assert body["entries"] == 8 * 1024**2
    assert body["verdict"] in ("ok", "tight", "trap")
    assert body["per_entry_source"] == "rule"


def test_pool_destroy_is_a_confirmed_job(api, tank, eager_jobs):
    assert api.delete("/api/storage/pools/tank/").status_code == 400
    response = api.delete("/api/storage/pools/tank/?confirm=tank")
    assert response.status_code == 202
    assert api.get("/api/storage/pools/").json()["count"] == 0


def test_scrub_and_export_and_import(api, tank, eager_jobs):
    assert api.post("/api/storage/pools/tank/scrub/").status_code == 202
    assert api.post("/api/storage/pools/tank/export/").status_code == 204
    found = api.get("/api/storage/pools/importable/").json()["results"]
    assert [p["name"] for p in found] == ["tank"]
    imported = api.post(
        "/api/storage/pools/import/", {"pool": "tank", "new_name": "tank2"}, content_type=JSON
    )
    assert imported.status_code == 201
    assert imported.json()["name"] == "tank2"


def test_a_zfs_failure_is_a_503_with_the_engines_words(api, admin_client, monkeypatch):
    from storage.zfs.cli import CliZfsEngine
    from storage.zfs.runner import CommandResult

    def no_module(argv, *, timeout, stdin=None):
        return CommandResult(tuple(argv), 1, "", "The ZFS modules are not loaded.\n")

    monkeypatch.setattr("storage.pools.selectors.get_engine", lambda: CliZfsEngine(no_module))
    body = api.get("/api/storage/pools/")
    page = admin_client.get("/storage/")
    assert body.status_code == 503
    assert body.json() == {
        "detail": "The storage engine reported an error: The ZFS modules are not loaded.",
        "code": "storage_unavailable",
        "fields": {},
    }
    assert page.status_code == 503
    assert "The ZFS modules are not loaded." in page.content.decode()


@pytest.mark.parametrize(
    "url",
    [
        "/api/storage/datasets/tank/nosuch/",
        "/api/storage/zvols/tank/nosuch/",
        "/api/storage/pools/nosuch/",
    ],
)
def test_a_name_that_does_not_exist_is_404_not_an_outage(api, tank, url):
    response = api.get(url)
    assert response.status_code == 404, response.content
    assert response.json()["code"] == "not_found"


@pytest.mark.parametrize(
    "url", ["/api/storage/datasets/0/", "/api/storage/pools/-f/", "/api/storage/zvols/a/../b/"]
)
def test_a_malformed_name_is_not_an_outage(api, tank, url):
    response = api.get(url)
    assert response.status_code in (400, 404), response.content
    assert response.json()["code"] != "storage_unavailable"


def test_filtering_by_an_unknown_pool_names_the_parameter(api, tank):
    response = api.get("/api/storage/datasets/?pool=nosuch")
    assert response.status_code == 400
    assert response.json()["fields"] == {"pool": ["No pool is named “nosuch”."]}


@pytest.mark.parametrize("pool", ["tank/a", "-f", "nosuch"])
def test_the_pool_filter_takes_only_a_pool(api, tank, pool):
    from storage.datasets import services

    services.dataset_create(parent="tank", name="a")
    for query in ("", "&settle=true"):
        response = api.get(f"/api/storage/datasets/?pool={pool}{query}")
        assert response.status_code == 400, response.content
        assert response.json()["fields"] == {"pool": [f"No pool is named “{pool}”."]}


def test_a_list_request_lists_zfs_once(api, tank, monkeypatch):
    from storage.zfs.sandbox import SandboxZfsEngine

    calls = []

    def counted(method):
        real = getattr(SandboxZfsEngine, method)

        def call(self, *args):
            calls.append(method)
            return real(self, *args)

        return call

    for method in ("list_pools", "list_datasets", "list_all_datasets", "get_pool"):
        monkeypatch.setattr(SandboxZfsEngine, method, counted(method))
    for url in (
        "/api/storage/datasets/",
        "/api/storage/zvols/",
        "/api/storage/datasets/?pool=tank",
    ):
        calls.clear()
        assert api.get(url).status_code == 200
        assert len(calls) == 1, (url, calls)


def test_a_missing_dataset_page_is_404(admin_client, tank):
    assert admin_client.get("/storage/datasets/tank/nosuch/").status_code == 404


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("tank//x", "A part of the name is empty"),
        ("/tank/x", "starts with its pool, not /"),
        ("tank/ y", "spaces around a name part are not allowed"),
        ("tank/nope/x", "No such dataset"),
    ],
)
def test_a_bad_dataset_name_is_refused_on_name_and_nothing_is_made(api, tank, name, words):
    response = api.post("/api/storage/datasets/", {"name": name}, content_type=JSON)
    assert response.status_code == 400
    fields = response.json()["fields"]
    assert list(fields) == ["name"]  # the field the name was typed in, never "parent"
    assert words in fields["name"][0]
    listed = [d["name"] for d in api.get("/api/storage/datasets/").json()["results"]]
    assert listed == ["tank"]


def test_spaces_around_the_whole_name_are_trimmed_as_any_field_is(api, tank):
    created = api.post("/api/storage/datasets/", {"name": " tank/z "}, content_type=JSON)
    assert created.status_code == 201
    assert created.json()["name"] == "tank/z"


def test_a_reservation_beyond_the_pool_is_refused_on_reservation(api, tank):
    created = api.post(
        "/api/storage/datasets/", {"name": "tank/x", "reservation": "1P"}, content_type=JSON
    )
    assert created.status_code == 400
    assert list(created.json()["fields"]) == ["reservation"]
    api.post("/api/storage/datasets/", {"name": "tank/y"}, content_type=JSON)
    changed = api.patch("/api/storage/datasets/tank/y/", {"reservation": "1P"}, content_type=JSON)
    assert changed.status_code == 400
    assert list(changed.json()["fields"]) == ["reservation"]
    assert api.get("/api/storage/datasets/tank/y/").json()["reservation"] is None
