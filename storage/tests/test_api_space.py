"""Space figures through the API: ashift, the used breakdown, and settled reads."""

from __future__ import annotations

import os
from datetime import datetime

import pytest

from storage.datasets import services

pytestmark = pytest.mark.django_db
MIB = 1 << 20
BREAKDOWN = ("usedbydataset", "usedbychildren", "usedbysnapshots", "usedbyrefreservation")


@pytest.fixture
def api(admin_client):
    return admin_client


@pytest.fixture
def thick(tank):
    """A 64 MiB thick zvol, tank/vol, with 4 MiB of random data written (not yet scanned)."""
    services.zvol_create(parent="tank", name="vol", size="64M", volblocksize=16384)
    with tank.zvol_path("tank/vol").open("r+b") as vol:
        vol.write(os.urandom(4 * MIB))
    return "tank/vol"


def test_pools_report_their_ashift(api, tank):
    listed = api.get("/api/storage/pools/").json()["results"]
    assert [p["ashift"] for p in listed] == [12]
    assert api.get("/api/storage/pools/tank/").json()["ashift"] == 12


def test_a_settled_zvol_shows_what_was_written(api, thick):
    stale = api.get("/api/storage/zvols/tank/vol/").json()
    settled = api.get("/api/storage/zvols/tank/vol/?settle=true").json()

    assert stale["referenced"] == 0  # the sandbox's figures wait for its rescan
    assert settled["logicalreferenced"] == 4 * MIB
    # random data does not compress; raidz1 on 3 disks deflates it a little, as ZFS does
    assert 0.99 * 4 * MIB < settled["referenced"] <= 4 * MIB
    assert settled["usedbyrefreservation"] == settled["refreservation"] - settled["referenced"]
    assert settled["used"] == sum(settled[key] for key in BREAKDOWN) == 64 * MIB


def test_every_listed_dataset_says_when_its_figures_were_read(api, thick):
    before = datetime.now().astimezone()
    body = api.get("/api/storage/datasets/?settle=1").json()
    zvols = api.get("/api/storage/zvols/?pool=tank").json()["results"]

    read_at = [datetime.fromisoformat(d["figures_read_at"]) for d in body["results"] + zvols]
    assert len(read_at) == 2
    assert all(moment >= before.replace(microsecond=0) for moment in read_at)
    assert zvols[0]["logicalreferenced"] == 4 * MIB  # settled by the list call before it


def test_a_file_system_has_no_refreservation(api, tank):
    services.dataset_create(parent="tank", name="docs")
    docs = api.get("/api/storage/datasets/tank/docs/").json()
    assert docs["refreservation"] is None
    assert docs["usedbyrefreservation"] == 0


@pytest.mark.parametrize(
    "url", ["/api/storage/zvols/tank/vol/?settle=maybe", "/api/storage/zvols/?settle=2"]
)
def test_a_bad_settle_value_is_a_400_naming_the_field(api, thick, url):
    response = api.get(url)
    assert response.status_code == 400
    assert list(response.json()["fields"]) == ["settle"]


def test_settling_a_dataset_of_an_unknown_pool_is_a_404(api, tank):
    assert api.get("/api/storage/datasets/nosuch/x/?settle=true").status_code == 404


def test_the_schema_documents_settle_and_the_new_figures(api):
    schema = api.get("/api/schema/?format=json").json()
    params = schema["paths"]["/api/storage/zvols/{name}/"]["get"]["parameters"]
    assert {p["name"]: p["schema"]["type"] for p in params}["settle"] == "boolean"
    dataset = schema["components"]["schemas"]["Dataset"]["properties"]
    assert dataset["figures_read_at"]["format"] == "date-time"
    assert set(BREAKDOWN) | {"logicalreferenced", "refreservation"} <= set(dataset)
    assert "ashift" in schema["components"]["schemas"]["Pool"]["properties"]
