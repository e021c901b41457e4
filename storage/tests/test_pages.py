"""Storage pages: forms show field errors, save through services, and go back to the pool."""

from __future__ import annotations

import pytest

from storage import selectors, services

pytestmark = pytest.mark.django_db
PROPS = {"compression": "inherit", "dedup": "inherit", "atime": "inherit"}


def test_the_overview_lists_pools_with_their_health(admin_client, tank):
    page = admin_client.get("/storage/").content.decode()
    assert 'data-pool="tank"' in page
    assert "ONLINE" in page


def test_editing_a_dataset_changes_its_compression(admin_client, tank):
    services.dataset_create(parent="tank", name="docs")
    response = admin_client.post(
        "/storage/datasets/tank/docs/edit/", {**PROPS, "compression": "zstd"}
    )
    assert response.status_code == 302
    assert response["Location"] == "/storage/pools/tank/"
    assert selectors.dataset_get("tank/docs").compression == "zstd"


def test_growing_a_zvol_from_its_page(admin_client, tank):
    services.zvol_create(parent="tank", name="vol", size="64M", sparse=True)
    response = admin_client.post(
        "/storage/zvols/tank/vol/edit/",
        {"size": "128M", "compression": "inherit", "dedup": "inherit"},
    )
    assert response.status_code == 302
    assert selectors.dataset_get("tank/vol").volsize == 128 * 1024**2


def test_a_refused_shrink_shows_on_the_size_field(admin_client, tank):
    services.zvol_create(parent="tank", name="vol", size="64M", sparse=True)
    response = admin_client.post(
        "/storage/zvols/tank/vol/edit/",
        {"size": "32M", "compression": "inherit", "dedup": "inherit"},
    )
    assert response.status_code == 400
    assert 'data-field-error="size"' in response.content.decode()
    assert "only grow" in response.content.decode()


def test_the_dedup_estimate_appears_only_when_dedup_is_on(admin_client, tank):
    off = admin_client.get("/storage/dedup-estimate/?dedup=off&parent=tank&size=1T")
    on = admin_client.get("/storage/dedup-estimate/?dedup=on&parent=tank&size=1T&volblocksize=4096")
    assert "Dedup needs RAM" not in off.content.decode()
    assert "Dedup needs RAM" in on.content.decode()
    assert "268435456 dedup-table entries" in on.content.decode()


def test_pool_creation_form_names_the_disk_rule(admin_client, sandbox):
    response = admin_client.post(
        "/storage/pools/create/", {"name": "tank", "layout": "raidz2", "disks": ["sda", "sdb"]}
    )
    assert response.status_code == 400
    assert "raidz2 needs at least 4 disks per vdev." in response.content.decode()
