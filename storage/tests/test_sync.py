"""The sync property: offered with its risk, set and inherited on datasets and zvols, and shown."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from storage.datasets import selectors, services

pytestmark = pytest.mark.django_db
JSON = "application/json"


def test_a_zvol_made_with_sync_disabled_has_it_and_can_inherit_again(tank):
    services.zvol_create(parent="tank", name="vm", size="64M", sparse=True, sync="disabled")
    assert selectors.dataset_get("tank/vm").sync == "disabled"
    assert selectors.dataset_properties("tank/vm", ("sync",)) == {"sync": "disabled"}
    services.zvol_update(name="tank/vm", sync="inherit")
    assert selectors.dataset_get("tank/vm").sync == "standard"
    assert selectors.dataset_properties("tank/vm", ("sync",)) == {"sync": "inherit"}


def test_an_unknown_sync_value_is_refused_on_its_field_and_changes_nothing(tank):
    services.dataset_create(parent="tank", name="db")
    with pytest.raises(ValidationError) as refused:
        services.dataset_update(name="tank/db", sync="sometimes", compression="zstd")
    assert "sync" in refused.value.message_dict
    assert selectors.dataset_get("tank/db").compression != "zstd"


def test_the_api_sets_and_reports_sync(admin_client, tank):
    made = admin_client.post(
        "/api/storage/datasets/", {"name": "tank/db", "sync": "always"}, content_type=JSON
    )
    assert made.status_code == 201, made.content
    assert made.json()["sync"] == "always"
    bad = admin_client.patch("/api/storage/zvols/tank/db/", {"sync": "off"}, content_type=JSON)
    assert bad.status_code in (400, 404)
    refused = admin_client.patch(
        "/api/storage/datasets/tank/db/", {"sync": "off"}, content_type=JSON
    )
    assert refused.status_code == 400
    assert "sync" in refused.json()["fields"]


def test_the_forms_state_the_risk_and_the_pool_page_flags_it(admin_client, tank):
    page = admin_client.get("/storage/zvols/create/?parent=tank").content.decode()
    assert "power cut or crash" in page
    response = admin_client.post(
        "/storage/datasets/create/",
        {
            "parent": "tank",
            "name": "scratch",
            "compression": "inherit",
            "dedup": "inherit",
            "atime": "inherit",
            "acltype": "inherit",
            "sync": "disabled",
            "owner": "root",
            "group": "root",
        },
    )
    assert response.status_code == 302, response.content.decode()[-2000:]
    assert selectors.dataset_get("tank/scratch").sync == "disabled"
    edit = admin_client.get("/storage/datasets/tank/scratch/edit/").content.decode()
    assert '<option value="disabled" selected>' in edit
    pool = admin_client.get("/storage/pools/tank/").content.decode()
    assert "sync disabled" in pool
