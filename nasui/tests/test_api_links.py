"""The schema's links chain a create, a list or a job start to what they name."""

from __future__ import annotations

import pytest
from drf_spectacular.generators import SchemaGenerator

from nasui.api.links import _only_key


@pytest.fixture(scope="module")
def schema():
    return SchemaGenerator().get_schema(request=None, public=True)


def _links(schema, path, method, code):
    return schema["paths"][path][method]["responses"][code].get("links", {})


def test_a_create_links_to_the_detail_update_and_delete_of_what_it_made(schema):
    links = _links(schema, "/api/sharing/smb/shares/", "post", "201")
    for operation in ("retrieve", "update", "partial_update", "destroy"):
        link = links[f"sharing_smb_shares_{operation}"]
        assert link["parameters"] == {"id": "$response.body#/id"}


def test_a_list_links_its_first_object(schema):
    links = _links(schema, "/api/storage/datasets/", "get", "200")
    assert links["storage_datasets_retrieve"]["parameters"] == {
        "name": "$response.body#/results/0/name"
    }


def test_a_job_start_links_to_the_job(schema):
    links = _links(schema, "/api/storage/pools/", "post", "202")
    assert set(links) == {"jobs_retrieve", "jobs_cancel_create"}
    assert links["jobs_retrieve"]["parameters"] == {"id": "$response.body#/id"}


def test_every_operation_on_one_object_is_reachable_by_a_link(schema):
    targets = {
        link["operationId"]
        for item in schema["paths"].values()
        for operation in item.values()
        if isinstance(operation, dict)
        for response in operation.get("responses", {}).values()
        for link in response.get("links", {}).values()
    }
    single_key = [
        operation["operationId"]
        for path, item in schema["paths"].items()
        if path.count("{") == 1
        for operation in item.values()
        if isinstance(operation, dict) and "operationId" in operation
    ]
    unreachable = [o for o in single_key if o not in targets]
    assert unreachable == [], unreachable


@pytest.mark.parametrize(
    ("collection", "path", "key"),
    [
        ("/api/x/", "/api/x/{id}/", "id"),
        ("/api/x/", "/api/x/{id}/cancel/", "id"),
        ("/api/x/", "/api/x/{name}/aux/{disk}/", None),
        ("/api/x/", "/api/xy/{id}/", None),
        ("/api/x/", "/api/x/", None),
    ],
)
def test_only_a_path_with_one_key_under_the_collection_is_linked(collection, path, key):
    assert _only_key(collection, path) == key
