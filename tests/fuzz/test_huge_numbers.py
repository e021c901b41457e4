"""Huge numbers in every integer field of every write: a clear 4xx, never a 5xx.

A lifetime of 10**30 days once answered 500 (a date out of range) and a large one broke every
periodic run; the schema's bounds do not stop a client that ignores them. Each write operation is
sent a plausible body with one integer field at a time set to ±10**30, on real objects (a pool,
a dataset, a zvol) where its path names one.
"""

from __future__ import annotations

from typing import Any

import pytest
from drf_spectacular.generators import SchemaGenerator

pytestmark = [pytest.mark.fuzz, pytest.mark.django_db]
HUGE = (10**30, -(10**30))
# A plausible value for each path parameter, naming objects the fixture made.
PATH_VALUES = {"id": "1", "name": "tank", "disk": "sda", "action": "restart"}
Schema = dict[str, Any]


@pytest.fixture(scope="module")
def schema() -> Schema:
    return SchemaGenerator().get_schema(request=None, public=True)


@pytest.fixture
def objects(tank) -> None:
    from storage.datasets import services

    services.dataset_create(parent="tank", name="media")
    services.zvol_create(parent="tank", name="disk", size="64M", sparse=True)


def _resolve(schema: Schema, node: Schema) -> Schema:
    ref = node.get("$ref", "")
    return schema["components"]["schemas"][ref.rsplit("/", 1)[-1]] if ref else node


def _plausible(schema: Schema, node: Schema) -> Any:
    node = _resolve(schema, node)
    kind = node.get("type")
    if "enum" in node:
        return node["enum"][0]
    if kind == "integer":
        return 1
    if kind == "number":
        return 1.0
    if kind == "boolean":
        return False
    if kind == "array":
        return []
    if kind == "object":
        return {}
    return "x"


def _writes(schema: Schema) -> list[tuple[str, str, Schema]]:
    """(method, path, body schema) of every JSON write that has integer fields."""
    found = []
    for path, item in schema["paths"].items():
        for method in ("post", "put", "patch"):
            operation = item.get(method)
            content = (operation or {}).get("requestBody", {}).get("content", {})
            body = content.get("application/json", {}).get("schema")
            if body is None:
                continue
            properties = _resolve(schema, body).get("properties", {})
            if any(_resolve(schema, p).get("type") == "integer" for p in properties.values()):
                found.append((method, path, body))
    return found


def _url(path: str) -> str:
    for key, value in PATH_VALUES.items():
        path = path.replace("{" + key + "}", value)
    return path


def test_huge_numbers_are_refused_in_words(admin_client, schema, objects):
    writes = _writes(schema)
    assert len(writes) >= 10, "the walk found too few writes with integer fields"
    failures = []
    for method, path, body in writes:
        properties = _resolve(schema, body).get("properties", {})
        plausible = {name: _plausible(schema, p) for name, p in properties.items()}
        for name, prop in properties.items():
            if _resolve(schema, prop).get("type") != "integer":
                continue
            for huge in HUGE:
                sent = {**plausible, name: huge}
                send = getattr(admin_client, method)
                response = send(_url(path), sent, content_type="application/json")
                if response.status_code >= 500:
                    failures.append(
                        f"{method.upper()} {path} {name}={huge}: {response.status_code}"
                    )
    assert failures == [], "\n".join(failures)
