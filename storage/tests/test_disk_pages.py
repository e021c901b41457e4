"""The disk pages of a pool: what each disk offers, confirmations, refusals said, jobs started."""

from __future__ import annotations

import pytest

from nasui.models import Job
from storage.engine import get_engine
from storage.pools import services as pool_services

pytestmark = pytest.mark.django_db
# A browser always posts something (the CSRF token): an empty form would read as a GET.
CONFIRM = {"confirm": ""}


@pytest.fixture
def mirror(sandbox, eager_jobs, admin_user):
    """A pool named m: one mirror of sda and sdb."""
    pool_services.pool_create(name="m", layout="mirror", disks=["sda", "sdb"], user=admin_user)
    return sandbox


def states() -> dict[str, str]:
    status = get_engine().pool_status("m")
    return {leaf.name: leaf.state for vdev in status.vdevs for leaf in vdev.leaves}


def test_the_pool_page_links_every_disk_and_adding_disks(admin_client, mirror) -> None:
    page = admin_client.get("/storage/pools/m/").content.decode()
    assert "/storage/pools/m/disks/sda/" in page
    assert "/storage/pools/m/grow/" in page


def test_a_mirror_side_offers_offline_detach_replace_and_attach(admin_client, mirror) -> None:
    page = admin_client.get("/storage/pools/m/disks/sda/").content.decode()
    for words in ("Take offline", "Detach from the mirror", "Replace sda", "Mirror sda"):
        assert words in page
    assert "sdc · " in page  # a free disk to pick


def test_offline_asks_first_then_the_pool_runs_degraded(admin_client, mirror) -> None:
    asked = admin_client.get("/storage/pools/m/disks/sda/offline/")
    assert "less redundancy" in asked.content.decode()
    assert states()["sda"] == "ONLINE"
    done = admin_client.post("/storage/pools/m/disks/sda/offline/", CONFIRM, follow=True)
    assert "sda is offline." in done.content.decode()
    assert states()["sda"] == "OFFLINE"
    admin_client.post("/storage/pools/m/disks/sda/online/", CONFIRM)
    assert states()["sda"] == "ONLINE"


def test_replace_starts_the_resilver_job(admin_client, mirror) -> None:
    response = admin_client.post(
        "/storage/pools/m/disks/sda/new/replace/", {"new_disk": "sdc"}, follow=True
    )
    assert "Replace sda with sdc in pool m: started." in response.content.decode()
    job = Job.objects.get(kind="pool.resilver")
    assert job.status == "succeeded", job.error
    assert set(states()) == {"sdb", "sdc"}


def test_a_refusal_comes_back_on_the_disk_page(admin_client, mirror) -> None:
    admin_client.post("/storage/pools/m/disks/sda/offline/", CONFIRM)
    refused = admin_client.post("/storage/pools/m/disks/sdb/offline/", CONFIRM, follow=True)
    assert "without a complete copy" in refused.content.decode()
    assert states()["sdb"] == "ONLINE"
    missing = admin_client.post("/storage/pools/m/disks/sdb/new/replace/", {}, follow=True)
    assert "Pick the new disk." in missing.content.decode()


def test_grow_adds_a_mirror_and_refuses_the_wrong_shape(admin_client, mirror) -> None:
    bad = admin_client.post(
        "/storage/pools/m/grow/",
        {"kind": "data", "layout": "raidz1", "disks": ["sdc", "sdd", "sde"]},
    )
    assert bad.status_code == 400
    assert "mirror" in bad.content.decode()
    good = admin_client.post(
        "/storage/pools/m/grow/", {"kind": "data", "layout": "mirror", "disks": ["sdc", "sdd"]}
    )
    assert good.status_code == 302
    assert len(get_engine().pool_status("m").vdevs) == 2
    spare = admin_client.post("/storage/pools/m/grow/", {"kind": "spare", "disks": ["sde"]})
    assert spare.status_code == 302
    assert [s.name for s in get_engine().pool_status("m").spares] == ["sde"]


def test_unknown_disks_and_actions_are_404(admin_client, mirror) -> None:
    assert admin_client.get("/storage/pools/m/disks/sdz/").status_code == 404
    assert admin_client.get("/storage/pools/m/disks/sda/explode/").status_code == 404
    assert admin_client.get("/storage/pools/nope/disks/sda/").status_code == 404
