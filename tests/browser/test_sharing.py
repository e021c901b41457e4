"""The wizard shares a new zvol; the pages show it; deletes work in the right order only."""

from __future__ import annotations

import pytest

from sharing.iscsi import services as sharing
from tests.iscsi.iscsi_clients import read_capacity, url

pytestmark = [pytest.mark.browser, pytest.mark.iscsi, pytest.mark.django_db(transaction=True)]
PC = "iqn.1991-05.com.microsoft:my-pc"
SECRET = "browser-secret1"


def test_wizard_then_delete_in_order(logged_in, tank, target_service):
    page = logged_in
    sharing.settings_update(basename="iqn.2026-11.local.nasui", port=target_service)
    page.goto(page.base + "/sharing/")
    page.get_by_role("link", name="Share a new zvol").first.click()
    page.get_by_label("Name").fill("pc-disk")
    page.get_by_label("Pool or dataset").select_option("tank")
    page.locator("#id_size").fill("64M")
    page.get_by_label("Block size").select_option("4096")
    page.get_by_label("Initiator IQN of the PC").fill(PC)
    page.get_by_label("CHAP user").fill("pc")
    page.get_by_label("CHAP secret").fill(SECRET)
    page.get_by_role("button", name="Save").click()
    page.get_by_text("The zvol is shared").wait_for()
    row = page.locator('tr[data-target="pc-disk"]')
    assert "LUN 1: pc-disk" in row.inner_text()
    assert "CHAP (pc)" in row.inner_text()
    assert SECRET not in page.content()

    # A real initiator sees the disk the wizard made.
    lun = url("127.0.0.1", target_service, "iqn.2026-11.local.nasui:pc-disk", 1,
              user="pc", secret=SECRET)  # fmt: skip
    result, size, _block = read_capacity(lun, PC)
    assert size == 67108864, result.output

    # The zvol cannot go while its extent serves it.
    page.goto(page.base + "/storage/datasets/tank/pc-disk/delete/")
    page.get_by_label("Type tank/pc-disk to confirm").fill("tank/pc-disk")
    page.get_by_role("button", name="Destroy tank/pc-disk").click()
    page.get_by_text("In use by iSCSI extent pc-disk").wait_for()

    # Target first, then the extent, then the zvol.
    page.goto(page.base + "/sharing/")
    row.get_by_role("link", name="Delete").click()
    page.get_by_role("button", name="Delete").click()
    page.get_by_text("deleted.").wait_for()
    page.locator('tr[data-extent="pc-disk"]').get_by_role("link", name="Delete").click()
    page.get_by_role("button", name="Delete").click()
    page.get_by_text("No extents yet.").wait_for()
    assert not read_capacity(lun, PC)[0].ok

    page.goto(page.base + "/storage/datasets/tank/pc-disk/delete/")
    page.get_by_label("Type tank/pc-disk to confirm").fill("tank/pc-disk")
    page.get_by_role("button", name="Destroy tank/pc-disk").click()
    page.get_by_text("tank/pc-disk destroyed.").wait_for()
