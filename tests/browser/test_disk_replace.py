"""Replace a disk of a mirror from the pool page, and take one offline through its confirmation."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from storage.engine import get_engine
from storage.pools import services as pool_services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def mirror(logged_in, sandbox, eager_jobs):
    """Pool m: a mirror of sda and sdb, made in this process."""
    admin = User.objects.get(username="admin")
    pool_services.pool_create(name="m", layout="mirror", disks=["sda", "sdb"], user=admin)
    return logged_in


def leaves() -> dict[str, str]:
    status = get_engine().pool_status("m")
    return {leaf.name: leaf.state for vdev in status.vdevs for leaf in vdev.leaves}


def test_replace_a_disk_from_the_pool_page(mirror):
    page = mirror
    page.goto(page.base + "/storage/pools/m/")
    page.get_by_role("link", name="Manage disk sda").click()
    page.get_by_test_id("disk-state").wait_for()
    page.get_by_label("New disk").first.select_option("sdc")
    page.get_by_role("button", name="Replace sda").click()
    page.get_by_text("Replace sda with sdc in pool m: started.").wait_for()
    assert set(leaves()) == {"sdb", "sdc"}
    page.goto(page.base + "/storage/pools/m/")
    page.get_by_role("link", name="Manage disk sdc").wait_for()


def test_take_a_disk_offline_after_confirming(mirror):
    page = mirror
    page.goto(page.base + "/storage/pools/m/disks/sdb/")
    page.get_by_role("link", name="Take offline").click()
    page.get_by_text("less redundancy").wait_for()
    assert leaves()["sdb"] == "ONLINE"
    page.get_by_role("button", name="Take offline sdb").click()
    page.get_by_text("sdb is offline.").wait_for()
    assert leaves()["sdb"] == "OFFLINE"
