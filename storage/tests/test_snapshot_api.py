"""The snapshot API under /api/storage/: the services' rules, each error on its field."""

from __future__ import annotations

import re
from datetime import time
from urllib.parse import quote

import pytest
from drf_spectacular.generators import SchemaGenerator

from storage.datasets import services
from storage.engine import get_engine
from storage.models import SnapshotTask
from storage.snapshot_tasks import services as snapshot_task_services
from storage.snapshots import services as snapshot_services
from storage.tests.snapshot_helpers import names, snap

pytestmark = pytest.mark.django_db
JSON = "application/json"
BASE = "/api/storage/snapshots/"


@pytest.fixture
def api(admin_client):
    return admin_client


def test_taking_and_listing_snapshots(api, home):
    made = api.post(BASE, {"dataset": "tank/home", "name": "a"}, content_type=JSON)
    assert made.status_code == 201
    body = made.json()
    assert (body["name"], body["dataset"], body["short_name"], body["task"]) == (
        "tank/home@a", "tank/home", "a", None,
    )  # fmt: skip
    assert body["created"].endswith(("Z", "+00:00"))
    listed = api.get(BASE, {"dataset": "tank/home"}).json()
    assert [s["name"] for s in listed["results"]] == ["tank/home@a"]
    assert listed["count"] == 1


def test_recursive_listing_includes_children(api, home):
    services.dataset_create(parent="tank/home", name="kid")
    api.post(BASE, {"dataset": "tank/home", "name": "r", "recursive": True}, content_type=JSON)
    flat = api.get(BASE, {"dataset": "tank/home"}).json()["results"]
    deep = api.get(BASE, {"dataset": "tank/home", "recursive": "true"}).json()["results"]
    assert [s["name"] for s in flat] == ["tank/home@r"]
    assert {s["name"] for s in deep} == {"tank/home@r", "tank/home/kid@r"}


def test_bad_input_is_a_400_naming_the_field_and_changes_nothing(api, home):
    response = api.post(BASE, {"dataset": "tank/home", "name": "bad name"}, content_type=JSON)
    assert response.status_code == 400
    assert list(response.json()["fields"]) == ["name"]
    missing = api.post(BASE, {"dataset": "tank/nope"}, content_type=JSON)
    assert missing.status_code == 400
    assert list(missing.json()["fields"]) == ["dataset"]
    assert names() == []


@pytest.mark.parametrize("encode", [False, True])
def test_a_snapshot_by_its_name_with_and_without_url_encoding(api, home, encode):
    snap("a")
    name = quote("tank/home@a", safe="") if encode else "tank/home@a"
    response = api.get(f"{BASE}{name}/")
    assert response.status_code == 200
    assert response.json()["name"] == "tank/home@a"


def test_a_missing_or_malformed_snapshot_is_a_404(api, home):
    assert api.get(f"{BASE}tank/home@nope/").status_code == 404
    assert api.get(f"{BASE}tank/home/").status_code == 404  # no @: not a snapshot's address
    # ...nor is "<dataset>/rollback/" a snapshot named "tank/home/rollback" (was a 405)
    assert api.post(f"{BASE}tank/home/rollback/", {}, content_type=JSON).status_code == 404
    assert api.post(f"{BASE}tank/home@nope/rollback/", {}, content_type=JSON).status_code == 404


def test_deleting_one_snapshot(api, home):
    snap("a", "b")
    assert api.delete(f"{BASE}tank/home@a/").status_code == 204
    assert names() == ["b"]


def test_destroying_several_by_name_or_a_range(api, home):
    snap("a", "b", "c", "d", "e")
    several = api.post(
        f"{BASE}destroy/", {"dataset": "tank/home", "names": ["a", "e"]}, content_type=JSON
    )
    assert several.json() == {"destroyed": 2}
    ranged = api.post(
        f"{BASE}destroy/", {"dataset": "tank/home", "first": "b", "last": "c"}, content_type=JSON
    )
    assert ranged.json() == {"destroyed": 2}
    assert names() == ["d"]


def test_destroying_refuses_a_cloned_snapshot_and_keeps_all(api, home):
    snap("a", "b")
    snapshot_services.snapshot_clone(snapshot="tank/home@b", target="tank/copy")
    response = api.post(
        f"{BASE}destroy/", {"dataset": "tank/home", "names": ["a", "b"]}, content_type=JSON
    )
    assert response.status_code == 400
    assert "has clones" in response.json()["fields"]["names"][0]
    assert names() == ["a", "b"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"dataset": "tank/home"}, "names"),
        ({"dataset": "tank/home", "first": "a"}, "last"),
        ({"dataset": "tank/home", "names": ["a"], "first": "a", "last": "a"}, "names"),
        ({"dataset": "tank/home", "first": "b", "last": "a"}, "last"),
        ({"dataset": "tank/home", "names": ["zz"]}, "names"),
    ],
)
def test_a_bad_destroy_body_names_the_field(api, home, body, field):
    snap("a", "b")
    response = api.post(f"{BASE}destroy/", body, content_type=JSON)
    assert response.status_code == 400
    assert field in response.json()["fields"]
    assert names() == ["a", "b"]


def test_rollback_needs_destroy_newer_when_newer_snapshots_exist(api, home):
    snap("one", "two")
    (home / "notes.txt").write_text("v2")
    url = f"{BASE}{quote('tank/home@one', safe='')}/rollback/"
    refused = api.post(url, {}, content_type=JSON)
    assert refused.status_code == 400
    assert "tank/home@two" in refused.json()["fields"]["destroy_newer"][0]
    assert (home / "notes.txt").read_text() == "v2"
    done = api.post(url, {"destroy_newer": True}, content_type=JSON)
    assert done.json() == {"destroyed": ["tank/home@two"]}
    assert (home / "notes.txt").read_text() == "v1"


def test_cloning_a_snapshot(api, home):
    snap("a")
    url = f"{BASE}tank/home@a/clone/"
    assert api.post(url, {"target": "other/x"}, content_type=JSON).json()["fields"].keys() == {
        "target"
    }
    made = api.post(url, {"target": "tank/copy"}, content_type=JSON)
    assert made.status_code == 201
    assert made.json() == {"name": "tank/copy"}
    assert get_engine().get_dataset("tank/copy").name == "tank/copy"


def test_diff_lists_changes_and_refuses_zvols(api, home):
    snap("a")
    (home / "notes.txt").write_text("v2")
    body = api.get(f"{BASE}tank/home@a/diff/").json()
    assert {"change": "modified", "file_type": "file"}.items() <= body["results"][-1].items()
    assert body["results"][-1]["path"].endswith("notes.txt")
    services.zvol_create(parent="tank", name="vol", size="16M", sparse=True)
    snap("z", dataset="tank/vol")
    refused = api.get(f"{BASE}tank/vol@z/diff/")
    assert refused.status_code == 400
    assert "snapshot" in refused.json()["fields"]


# -- periodic snapshot tasks ----------------------------------------------------------------
TASKS = "/api/storage/snapshot-tasks/"


def test_task_crud_goes_through_the_services(api, home):
    made = api.post(
        TASKS, {"dataset": "tank/home", "minutes": "0", "hours": "*"}, content_type=JSON
    )
    assert made.status_code == 201, made.json()
    body = made.json()
    assert body["schedule_text"] == "Every hour, on the hour"
    assert body["next_run"]
    assert body["lifetime_text"] == "2 weeks"
    url = f"{TASKS}{body['id']}/"
    changed = api.patch(url, {"lifetime_value": 3, "lifetime_unit": "day"}, content_type=JSON)
    assert changed.json()["lifetime_text"] == "3 days"
    assert api.get(TASKS).json()["count"] == 1
    assert api.delete(url).status_code == 204
    assert not SnapshotTask.objects.exists()


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"dataset": "tank/nope"}, "dataset"),
        ({"dataset": "tank/home", "naming_schema": "auto-%Y"}, "naming_schema"),
        ({"dataset": "tank/home", "hours": "25"}, "hours"),
        ({"dataset": "tank/home", "lifetime_unit": "decade"}, "lifetime_unit"),
        ({"dataset": "tank/home", "begin": "10:00", "end": "09:00"}, "end"),
        ({"dataset": "tank/home", "begin": "09:00", "end": "09:00"}, "end"),
        ({"dataset": "tank/home", "begin": "9am"}, "begin"),
        ({"dataset": "tank/home", "end": "24:00"}, "end"),
    ],
)
def test_a_bad_task_is_a_400_on_its_field(api, home, body, field):
    response = api.post(TASKS, body, content_type=JSON)
    assert response.status_code == 400
    assert field in response.json()["fields"]
    assert not SnapshotTask.objects.exists()


def test_a_refused_task_update_changes_nothing(api, home):
    task = snapshot_task_services.snapshot_task_create(dataset="tank/home")
    response = api.patch(f"{TASKS}{task.pk}/", {"minutes": "61"}, content_type=JSON)
    assert response.status_code == 400
    assert "minutes" in response.json()["fields"]
    task.refresh_from_db()
    assert task.minutes == "0"


def test_the_schema_documents_the_snapshot_endpoints():
    paths = SchemaGenerator().get_schema(request=None, public=True)["paths"]
    for path in (
        "/api/storage/snapshots/",
        "/api/storage/snapshots/{name}/",
        "/api/storage/snapshots/{name}/rollback/",
        "/api/storage/snapshots/{name}/clone/",
        "/api/storage/snapshots/{name}/diff/",
        "/api/storage/snapshots/destroy/",
        "/api/storage/snapshot-tasks/",
        "/api/storage/snapshot-tasks/{id}/",
    ):
        assert path in paths, path


def test_a_tasks_window_is_hh_mm_as_its_schema_says(api, home):
    made = api.post(
        TASKS,
        {"dataset": "tank/home", "begin": "08:30:00", "end": "18:00"},
        content_type=JSON,
    )
    assert made.status_code == 201, made.json()
    assert (made.json()["begin"], made.json()["end"]) == ("08:30", "18:00")
    task = SnapshotTask.objects.get()
    assert (task.begin, task.end) == (time(8, 30), time(18, 0))
    schema = SchemaGenerator().get_schema(request=None, public=True)
    for field in ("begin", "end"):
        declared = schema["components"]["schemas"]["SnapshotTask"]["properties"][field]
        assert declared["type"] == "string"
        assert "format" not in declared  # OpenAPI's time format wants an offset: "08:30:00Z"
        assert declared["description"].startswith("local time of day, HH:MM")
        assert re.fullmatch(declared["pattern"].strip("^$"), made.json()[field])
