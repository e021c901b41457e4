"""The REST API: schema, root, pagination and error bodies."""

from __future__ import annotations

import pytest
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.validation import validate_schema

from nasui.models import Job

pytestmark = pytest.mark.django_db


def test_the_openapi_schema_validates():
    schema = SchemaGenerator().get_schema(request=None, public=True)
    validate_schema(schema)
    assert "tokenAuth" in schema["components"]["securitySchemes"]


def test_the_schema_is_served_to_logged_in_users(admin_client):
    response = admin_client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    assert "/api/jobs/" in response.json()["paths"]


def test_swagger_ui_is_served_offline(admin_client):
    page = admin_client.get("/api/docs/").content.decode()
    assert "swagger-ui" in page
    assert "cdn." not in page
    assert "https://" not in page.split("<body")[0]


def test_the_root_links_to_each_section(admin_client):
    body = admin_client.get("/api/").json()
    assert set(body) >= {"jobs", "schema", "docs"}


def test_lists_are_paginated(admin_client):
    Job.objects.bulk_create([Job(kind="k", title=f"t{i}") for i in range(60)])
    body = admin_client.get("/api/jobs/").json()
    assert body["count"] == 60
    assert len(body["results"]) == 50
    assert body["next"].endswith("?page=2")


def test_jobs_filter_by_status(admin_client):
    Job.objects.create(kind="k", title="a", status=Job.Status.FAILED)
    Job.objects.create(kind="k", title="b")
    body = admin_client.get("/api/jobs/?status=failed").json()
    assert [j["title"] for j in body["results"]] == ["a"]


def test_validation_errors_name_the_field_and_rule(admin_client):
    response = admin_client.post(
        "/api/jobs/self-test/", {"steps": 99}, content_type="application/json"
    )
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid"
    assert body["fields"] == {"steps": ["Ensure this value is less than or equal to 20."]}
    assert body["detail"] == "steps: Ensure this value is less than or equal to 20."
    assert Job.objects.count() == 0


def test_a_refusal_of_the_whole_object_is_said_without_a_key_before_it():
    from nasui.api.errors import exception_handler
    from nasui.validation import refusal

    response = exception_handler(refusal("Nothing answered."), {})
    assert response is not None
    assert response.status_code == 400
    assert response.data["detail"] == "Nothing answered."
    assert response.data["fields"] == {"__all__": ["Nothing answered."]}


def test_not_found_has_the_same_shape(admin_client):
    body = admin_client.get("/api/jobs/999/").json()
    assert body == {"detail": "No Job matches the given query.", "code": "not_found", "fields": {}}


def test_unsupported_method_has_the_same_shape(admin_client):
    response = admin_client.delete("/api/jobs/")
    assert response.status_code == 405
    assert response.json()["code"] == "method_not_allowed"


def test_a_body_over_the_limit_is_a_json_413(admin_client, settings):
    body = "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)
    response = admin_client.post("/api/jobs/self-test/", data=body, content_type="application/json")
    assert response.status_code == 413
    assert response.json()["code"] == "too_large"


def test_json_nested_too_deep_is_a_400_not_a_crash(admin_client):
    body = "[" * 1000 + "]" * 1000
    response = admin_client.post("/api/jobs/self-test/", data=body, content_type="application/json")
    assert response.status_code == 400
    assert "nested too deeply" in response.json()["detail"]


def test_a_url_no_route_matches_is_a_json_404(admin_client):
    response = admin_client.get("/api/sharing/iscsi/portals/-1.5e-38/")
    assert response.status_code == 404
    assert response.json() == {"detail": "Not found.", "code": "not_found", "fields": {}}


def test_a_page_no_route_matches_is_still_a_page(admin_client):
    response = admin_client.get("/storage/no/such/page/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


def test_every_operation_documents_the_error_body():
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    assert set(schema["components"]["schemas"]["Error"]["required"]) == {"detail", "code", "fields"}
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            assert {"400", "401", "404"} <= set(operation["responses"]), (method, path)


def test_the_dashboard_answers_htmx_with_only_its_tiles(admin_client):
    page = admin_client.get("/", HTTP_HX_REQUEST="true").content.decode()
    assert 'id="dashboard-tiles"' in page
    assert "dashboard-graphs" not in page
    assert "<html" not in page
