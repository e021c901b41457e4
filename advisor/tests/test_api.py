"""The advisor's REST API: starts (202 with the job), runs with their results, comparisons."""

from __future__ import annotations

import copy
from typing import Any

import jsonschema
import pytest
from drf_spectacular.generators import SchemaGenerator

from advisor.tests.test_views import BENCHMARK, make_run
from nasui.models import Job
from storage.datasets import services as storage

pytestmark = pytest.mark.django_db
JSON = "application/json"
MIB = 1024 * 1024


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    """The API's OpenAPI schema, as schemathesis reads it."""
    return SchemaGenerator().get_schema(request=None, public=True)


def _json_schema(node: Any) -> Any:
    """OpenAPI 3.0's `nullable: true` spelled as JSON Schema (a null is allowed too)."""
    if isinstance(node, list):
        return [_json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    converted = {k: _json_schema(v) for k, v in node.items() if k != "nullable"}
    return {"anyOf": [converted, {"type": "null"}]} if node.get("nullable") else converted


def conforms(schema: dict[str, Any], path: str, method: str, status: int, body: Any) -> None:
    """Fail unless `body` is what the schema declares for this answer."""
    declared = schema["paths"][path][method]["responses"][str(status)]["content"][JSON]["schema"]
    document = _json_schema({**declared, "components": schema["components"]})
    jsonschema.validate(body, document, cls=jsonschema.Draft4Validator)


@pytest.fixture
def docs(tank) -> str:
    """tank/docs with a little text in it."""
    from pathlib import Path

    from storage.engine import get_engine

    storage.dataset_create(parent="tank", name="docs")
    root = Path(get_engine().get_dataset("tank/docs").mountpoint or "")
    (root / "log.txt").write_bytes(b"pool tank scrub finished without errors\n" * 20_000)
    return "tank/docs"


# -- starts -----------------------------------------------------------------------------------
def test_starting_an_estimate_answers_202_with_the_job(admin_client, docs, schema) -> None:
    body = {"source_kind": "dataset", "source": docs, "sample_bytes": 8 * MIB, "time_seconds": 20}
    response = admin_client.post("/api/advisor/estimates/", body, content_type=JSON)
    assert response.status_code == 202
    job = response.json()
    assert (job["kind"], job["cancellable"]) == ("advisor.estimate", True)
    conforms(schema, "/api/advisor/estimates/", "post", 202, job)
    run = admin_client.get(f"/api/advisor/estimates/{job['id']}/").json()
    assert run["status"] == "succeeded", run["error"]
    assert run["result"]["compression"]
    conforms(schema, "/api/advisor/estimates/{id}/", "get", 200, run)


def test_the_estimate_defaults_are_a_256_mib_sample_and_a_minute(admin_client, docs) -> None:
    body = {"source_kind": "dataset", "source": docs}
    job = admin_client.post("/api/advisor/estimates/", body, content_type=JSON).json()
    assert job["arguments"] | {"sample_bytes": 256 * MIB, "time_seconds": 60} == job["arguments"]


def test_a_service_refusal_is_a_400_naming_the_field(admin_client, docs) -> None:
    body = {"source_kind": "path", "source": "/proc/self"}
    response = admin_client.post("/api/advisor/estimates/", body, content_type=JSON)
    assert response.status_code == 400
    assert "source" in response.json()["fields"]
    assert not Job.objects.filter(kind__startswith="advisor.").exists()


def test_a_body_off_the_serializer_is_a_400(admin_client, sandbox) -> None:
    body = {"source_kind": "tape", "source": "x", "sample_bytes": -1}
    response = admin_client.post("/api/advisor/estimates/", body, content_type=JSON)
    assert response.status_code == 400
    assert {"source_kind", "sample_bytes"} <= set(response.json()["fields"])


def test_starting_a_benchmark_queues_it(admin_client, docs, monkeypatch, schema) -> None:
    queued: list[dict[str, Any]] = []
    monkeypatch.setattr(
        "advisor.benchmarks.tasks.benchmark.apply_async",
        lambda args, kwargs, **options: queued.append(kwargs),
    )
    body = {"source_kind": "dataset", "source": docs, "pool": "tank", "sample_bytes": 4 * MIB}
    response = admin_client.post("/api/advisor/benchmarks/", body, content_type=JSON)
    assert response.status_code == 202, response.json()
    assert response.json()["kind"] == "advisor.benchmark"
    # Every setting of the issue by default.
    assert queued[0]["settings"] == ["off", "lz4", "gzip-6", "gzip-1", "zstd", "dedup"]
    conforms(schema, "/api/advisor/benchmarks/", "post", 202, response.json())


def test_a_benchmark_on_a_missing_pool_is_a_400_on_pool(admin_client, docs) -> None:
    body = {"source_kind": "dataset", "source": docs, "pool": "nope", "settings": ["lz4"]}
    response = admin_client.post("/api/advisor/benchmarks/", body, content_type=JSON)
    assert response.status_code == 400
    assert "pool" in response.json()["fields"]


def test_an_unknown_setting_is_refused(admin_client, docs) -> None:
    body = {"source_kind": "dataset", "source": docs, "pool": "tank", "settings": ["lzma"]}
    response = admin_client.post("/api/advisor/benchmarks/", body, content_type=JSON)
    assert response.status_code == 400
    assert "settings" in response.json()["fields"]


def test_starting_fio_queues_it(admin_client, docs, monkeypatch) -> None:
    queued: list[dict[str, Any]] = []
    monkeypatch.setattr(
        "advisor.benchmarks.tasks.fio.apply_async",
        lambda args, kwargs, **options: queued.append(kwargs),
    )
    body = {"target_kind": "dataset", "target": docs, "size_bytes": 8 * MIB, "runtime_seconds": 2}
    response = admin_client.post("/api/advisor/fio/", body, content_type=JSON)
    assert response.status_code == 202, response.json()
    assert len(queued[0]["profiles"]) == 7


def test_fio_on_a_zvol_as_a_dataset_is_a_400_on_target(admin_client, docs) -> None:
    storage.zvol_create(parent="tank", name="vol", size="64M", sparse=True)
    body = {"target_kind": "dataset", "target": "tank/vol", "size_bytes": 8 * MIB}
    response = admin_client.post("/api/advisor/fio/", body, content_type=JSON)
    assert response.status_code == 400
    assert "target" in response.json()["fields"]


def test_scripts_can_list_the_sources(admin_client, docs) -> None:
    assert admin_client.get("/api/advisor/sources/").json()["dataset"] == ["tank", "tank/docs"]


# -- reading runs -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("kind", "path"), [("estimate", "estimates"), ("benchmark", "benchmarks"), ("fio", "fio")]
)
def test_each_kind_lists_and_reads_its_runs_as_documented(admin_client, schema, kind, path):
    run = make_run(kind)
    make_run("fio" if kind != "fio" else "estimate")  # another kind, not listed
    listing = admin_client.get(f"/api/advisor/{path}/").json()
    assert [r["id"] for r in listing["results"]] == [run.pk]
    conforms(schema, f"/api/advisor/{path}/", "get", 200, listing)
    one = admin_client.get(f"/api/advisor/{path}/{run.pk}/")
    conforms(schema, f"/api/advisor/{path}/{{id}}/", "get", 200, one.json())


def test_a_run_of_another_kind_is_a_404(admin_client) -> None:
    run = make_run("fio")
    assert admin_client.get(f"/api/advisor/estimates/{run.pk}/").status_code == 404


def test_a_pending_run_has_a_null_result_as_documented(admin_client, schema) -> None:
    run = make_run("benchmark", status="pending")
    body = admin_client.get(f"/api/advisor/benchmarks/{run.pk}/").json()
    assert body["result"] is None
    conforms(schema, "/api/advisor/benchmarks/{id}/", "get", 200, body)


def test_all_runs_filter_by_kind(admin_client) -> None:
    make_run("fio")
    estimate = make_run("estimate")
    Job.objects.create(kind="pool.create", title="Create pool tank")
    assert admin_client.get("/api/advisor/runs/").json()["count"] == 2
    only = admin_client.get("/api/advisor/runs/?kind=estimate").json()
    assert [r["id"] for r in only["results"]] == [estimate.pk]


def test_runs_need_a_login(client) -> None:
    assert client.get("/api/advisor/runs/").status_code == 401


# -- comparisons ----------------------------------------------------------------------------
def test_two_benchmarks_compare_as_documented(admin_client, schema) -> None:
    first = make_run("benchmark")
    faster = copy.deepcopy(BENCHMARK)
    faster["rows"][0]["write_mb_s"] = 800.0
    second = make_run("benchmark", result=faster)
    response = admin_client.get(f"/api/advisor/compare/?runs={first.pk},{second.pk}")
    assert response.status_code == 200
    body = response.json()
    conforms(schema, "/api/advisor/compare/", "get", 200, body)
    assert body["kind"] == "benchmark"
    assert [r["id"] for r in body["runs"]] == [first.pk, second.pk]
    off = next(row for row in body["rows"] if row["key"] == "off")
    assert off["values"]["write_mb_s"] == [410.0, 800.0]
    assert "cells" not in off


def test_runs_may_also_come_as_repeated_parameters(admin_client) -> None:
    a, b = make_run("fio"), make_run("fio")
    response = admin_client.get(f"/api/advisor/compare/?runs={a.pk}&runs={b.pk}")
    assert [r["id"] for r in response.json()["runs"]] == [a.pk, b.pk]


@pytest.mark.parametrize("runs", ["", "1", "a,b", "1,1", "99999,99998"])
def test_bad_run_lists_are_a_400_on_runs(admin_client, runs) -> None:
    response = admin_client.get(f"/api/advisor/compare/?runs={runs}")
    assert response.status_code == 400
    assert "runs" in response.json()["fields"]


def test_different_kinds_are_a_400(admin_client) -> None:
    a, b = make_run("fio"), make_run("estimate")
    response = admin_client.get(f"/api/advisor/compare/?runs={a.pk},{b.pk}")
    assert response.status_code == 400
    assert "same kind" in response.json()["detail"]
