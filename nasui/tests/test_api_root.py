"""The API root links to every section under /api/, and each link answers."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db
SECTIONS = {"storage", "monitoring", "alerts", "sharing/iscsi", "sharing", "services"}
SECTIONS |= {"advisor", "replication"}


def test_the_root_lists_every_section_the_schema_and_the_docs(admin_client):
    links = admin_client.get("/api/", HTTP_ACCEPT="application/json").json()
    assert SECTIONS | {"jobs", "tokens", "schema", "docs"} <= set(links)


def test_every_section_link_answers(admin_client):
    links = admin_client.get("/api/", HTTP_ACCEPT="application/json").json()
    for section in SECTIONS:
        assert links[section].endswith(f"/api/{section}/")
        response = admin_client.get(links[section], HTTP_ACCEPT="application/json")
        assert response.status_code == 200, (section, response.status_code)


def test_the_schema_is_built_once_per_process(admin_client, monkeypatch):
    from drf_spectacular.generators import SchemaGenerator

    from nasui.api.schema import CachedSchemaView

    monkeypatch.setattr(CachedSchemaView, "_built", {})
    built = []
    original = SchemaGenerator.get_schema

    def counted(self, *args, **kwargs):
        built.append(1)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(SchemaGenerator, "get_schema", counted)
    first = admin_client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    second = admin_client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert first.status_code == second.status_code == 200
    assert first.content == second.content
    assert b'"/api/storage/pools/"' in first.content
    assert len(built) == 1
