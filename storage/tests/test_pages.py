"""Storage pages: forms show field errors, save through services, and go back to the pool."""

from __future__ import annotations

import re

import pytest
from django.utils import timezone

from nasui.lib.units import format_bytes
from storage.datasets import selectors, services
from storage.pools import selectors as pool_selectors

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


def _resize_a_64m_zvol(client, size):
    """Make tank/vol at 64M, then post its edit page with a new size."""
    services.zvol_create(parent="tank", name="vol", size="64M", sparse=True)
    form = {"size": size, "compression": "inherit", "dedup": "inherit"}
    return client.post("/storage/zvols/tank/vol/edit/", form)


def test_growing_a_zvol_from_its_page(admin_client, tank):
    response = _resize_a_64m_zvol(admin_client, "128M")
    assert response.status_code == 302
    assert response["Location"] == "/storage/pools/tank/"
    assert selectors.dataset_get("tank/vol").volsize == 128 * 1024**2


def test_a_refused_shrink_shows_on_the_size_field(admin_client, tank):
    response = _resize_a_64m_zvol(admin_client, "32M")
    assert response.status_code == 400
    assert 'data-field-error="size"' in response.content.decode()
    assert "only grow" in response.content.decode()


def test_the_dedup_estimate_appears_only_when_dedup_is_on(admin_client, tank):
    off = admin_client.get("/storage/dedup-estimate/?dedup=off&parent=tank&size=1T")
    on = admin_client.get("/storage/dedup-estimate/?dedup=on&parent=tank&size=1T&volblocksize=4096")
    assert "Dedup needs RAM" not in off.content.decode()
    assert "Dedup needs RAM" in on.content.decode()
    assert "268435456 dedup-table entries" in on.content.decode()


def test_a_new_datasets_dedup_estimate_is_sized_for_the_pool_not_a_terabyte(admin_client, tank):
    body = admin_client.get("/storage/dedup-estimate/?dedup=on&parent=tank").content.decode()
    assert "the free space of tank" in body
    assert "1 TiB" not in body
    assert "Try it on my data" in body
    assert 'data-testid="dedup-measured"' not in body


def test_the_dedup_estimate_shows_what_the_advisor_measured_on_the_data(admin_client, tank):
    from nasui.models import Job

    result = {
        "dedup": {"ratio": 1.5, "unique_blocks": 4000, "ddt_bytes": 1_200_000,
                  "verdict": "worth", "reason": "It saves far more than it costs."},
        "zdb": {"ratio": 1.49},
    }  # fmt: skip
    job = Job.objects.create(
        kind="advisor.estimate", title="e", status=Job.Status.SUCCEEDED, result=result,
        arguments={"source": "tank"}, finished_at=timezone.now(),
    )  # fmt: skip
    body = admin_client.get("/storage/dedup-estimate/?dedup=on&parent=tank").content.decode()
    assert 'data-testid="dedup-measured" data-verdict="worth"' in body
    assert "1.50\u00d7" in body
    assert "4000 unique blocks" in body
    assert "zdb -S on the pool said 1.49\u00d7" in body
    assert f"/advisor/runs/{job.pk}/" in body


def test_pool_creation_form_names_the_disk_rule(admin_client, sandbox):
    response = admin_client.post(
        "/storage/pools/create/", {"name": "tank", "layout": "raidz2", "disks": ["sda", "sdb"]}
    )
    assert response.status_code == 400
    # The layout named as its choice says it (RAID-Z2), not as zpool spells it.
    assert "RAID-Z2 needs at least 4 disks per vdev." in response.content.decode()


def _message(response) -> str:
    """The text of the page a redirect leads to (where the success message shows)."""
    return response.client.get(response["Location"]).content.decode()


def test_adding_a_dataset_preselects_the_parent_and_goes_to_the_pool(admin_client, tank):
    form = admin_client.get("/storage/datasets/create/?parent=tank").content.decode()
    assert '<option value="tank" selected>tank</option>' in form
    response = admin_client.post(
        "/storage/datasets/create/", {**PROPS, "parent": "tank", "name": "docs"}
    )
    assert response["Location"] == "/storage/pools/tank/"
    assert "Dataset tank/docs created." in _message(response)


def test_a_zvol_asked_for_on_the_dataset_edit_page_goes_to_its_own(admin_client, tank):
    services.zvol_create(parent="tank", name="vol", size="64M", sparse=True)
    response = admin_client.get("/storage/datasets/tank/vol/edit/")
    assert response["Location"] == "/storage/zvols/tank/vol/edit/"


def test_destroying_a_dataset_needs_its_name_typed(admin_client, tank):
    services.dataset_create(parent="tank", name="docs")
    refused = admin_client.post("/storage/datasets/tank/docs/delete/", {"confirm": "docs"})
    assert refused.status_code == 400
    assert "/storage/pools/tank/" in refused.content.decode()  # Cancel goes back to the pool
    done = admin_client.post("/storage/datasets/tank/docs/delete/", {"confirm": "tank/docs"})
    assert done["Location"] == "/storage/pools/tank/"
    assert "tank/docs destroyed." in _message(done)
    assert [d.name for d in selectors.dataset_list("tank")] == ["tank"]


def test_exporting_then_importing_a_pool_from_the_pages(admin_client, tank):
    exported = admin_client.post("/storage/pools/tank/export/", {"confirm": ""})
    assert exported["Location"] == "/storage/"
    assert "Pool tank exported." in _message(exported)
    assert 'data-importable="tank"' in admin_client.get("/storage/pools/import/").content.decode()
    imported = admin_client.post("/storage/pools/import/", {"pool": "tank", "new_name": ""})
    assert imported["Location"] == "/storage/"
    assert "Pool tank imported." in _message(imported)
    assert [p.name for p in pool_selectors.pool_list()] == ["tank"]


def test_a_pool_card_shows_what_datasets_can_use_not_raw_free(admin_client, tank):
    pool = pool_selectors.pool_get("tank")
    available = selectors.dataset_get("tank").available
    assert available < pool.free  # raidz1 of three: a third of the raw space is parity
    page = admin_client.get("/storage/").content.decode()
    shown = page.split('data-testid="available">')[1].split("<")[0]
    assert shown == format_bytes(available)


def _testid(page: str, testid: str) -> str:
    """The text of the element with that data-testid."""
    return page.split(f'data-testid="{testid}">')[1].split("<")[0]


def test_the_pool_page_shows_its_ashift(admin_client, tank):
    page = admin_client.get("/storage/pools/tank/").content.decode()
    assert _testid(page, "ashift") == "ashift 12 · 4.0 KiB sectors"


def test_a_zvol_page_shows_its_used_breakdown_in_readable_units(admin_client, tank):
    services.zvol_create(parent="tank", name="vol", size="64M")
    with tank.zvol_path("tank/vol").open("r+b") as vol:
        vol.write(bytes(range(256)) * 4096)
    tank.settle("tank")
    vol = selectors.dataset_get("tank/vol")
    page = admin_client.get("/storage/zvols/tank/vol/edit/").content.decode()

    assert _testid(page, "used") == "64.0 MiB"
    assert _testid(page, "logicalreferenced") == "1.0 MiB"
    assert _testid(page, "refreservation") == "64.0 MiB"
    for part in ("usedbydataset", "usedbyrefreservation", "usedbychildren"):
        assert _testid(page, part) == format_bytes(getattr(vol, part))
    assert vol.usedbyrefreservation > 60 * 1024**2


def test_every_page_says_which_time_zone_its_times_are_in(admin_client, settings):
    page = admin_client.get("/storage/").content.decode()
    assert f'data-testid="time-zone">times in {settings.TIME_ZONE}<' in page


def test_a_time_is_written_year_first_on_the_24_hour_clock(admin_client, tank):
    from storage.scrub import services as scrub_services

    scrub_services.scrub_task_of("tank")
    page = admin_client.get("/storage/pools/tank/").content.decode()
    next_check = page.split("Next check ")[1].split(".")[0]
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d", next_check), next_check
    assert "At 00:00, every day, a check" in page  # the scrub schedule in words
