"""OpenAPI links: how one answer leads to the operations on what it names.

A create answers with the new object, a list with its first page, a job start with the job: each
names an object whose detail, update, delete and actions live under `<collection>/{key}/`. The
schema says so with links (`$response.body#/...`), so that a client, or a fuzzer's stateful phase,
can chain a create to the reads, updates and deletes of what it made.
"""

from __future__ import annotations

from typing import Any

METHODS = ("get", "post", "put", "patch", "delete")
JOBS = "/api/jobs/"
JOB_SCHEMA = "#/components/schemas/Job"
Schema = dict[str, Any]


def add_links(result: Schema, generator: Any, request: Any, public: bool) -> Schema:
    """drf-spectacular post-processing hook: links from creates, lists and job starts."""
    paths: dict[str, Schema] = result.get("paths", {})
    schemas: dict[str, Schema] = result.get("components", {}).get("schemas", {})
    for path, item in paths.items():
        for method, operation in _operations(item):
            for code, response in operation.get("responses", {}).items():
                if code.startswith("2"):
                    links = _links_of(path, method, _body_schema(response), paths, schemas)
                    if links:
                        response["links"] = links
    return result


def _operations(item: Schema) -> list[tuple[str, Schema]]:
    return [(m, op) for m, op in item.items() if m in METHODS and isinstance(op, dict)]


def _body_schema(response: Schema) -> Schema:
    body: Schema = response.get("content", {}).get("application/json", {}).get("schema", {})
    return body


def _links_of(
    path: str, method: str, body: Schema, paths: dict[str, Schema], schemas: dict[str, Schema]
) -> Schema:
    """The links of one answer: to the job it started, or to the objects it shows."""
    if body.get("$ref") == JOB_SCHEMA:
        return _links_to(JOBS, "", _resolve(body, schemas), paths)
    if method == "post":
        return _links_to(path, "", _resolve(body, schemas), paths)
    if method == "get":
        item, pointer = _first_item(_resolve(body, schemas), schemas)
        return _links_to(path, pointer, item, paths) if item else {}
    return {}


def _first_item(body: Schema, schemas: dict[str, Schema]) -> tuple[Schema, str]:
    """The schema of a list's first object and its JSON pointer (a page, or a plain array)."""
    results = body.get("properties", {}).get("results")
    if body.get("type") == "object" and results and results.get("type") == "array":
        return _resolve(results.get("items", {}), schemas), "/results/0"
    if body.get("type") == "array":
        return _resolve(body.get("items", {}), schemas), "/0"
    return {}, ""


def _links_to(collection: str, pointer: str, item: Schema, paths: dict[str, Schema]) -> Schema:
    """Links to every operation under `<collection>/{key}/` whose only key `item` carries."""
    properties = item.get("properties", {})
    links: Schema = {}
    for path, path_item in paths.items():
        key = _only_key(collection, path)
        if key is None or key not in properties:
            continue
        for _, operation in _operations(path_item):
            if "operationId" in operation:
                links[operation["operationId"]] = {
                    "operationId": operation["operationId"],
                    "parameters": {key: f"$response.body#{pointer}/{key}"},
                }
    return links


def _only_key(collection: str, path: str) -> str | None:
    """`id` for `<collection>{id}/...` when that is the path's only parameter, else None."""
    if not path.startswith(collection + "{"):
        return None
    rest = path[len(collection) + 1 :]
    key, _, tail = rest.partition("}")
    return key if key and "{" not in tail else None


def _resolve(schema: Schema, schemas: dict[str, Schema]) -> Schema:
    """The schema a $ref points to (one level: components are not nested refs of refs)."""
    ref = schema.get("$ref", "")
    return schemas.get(ref.rsplit("/", 1)[-1], {}) if ref else schema
