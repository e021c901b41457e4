"""The wizard shares a zvol with everyone only when the user ticks that choice."""

from __future__ import annotations

import pytest

from sharing.models import Target

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_open_target_needs_the_box_ticked(logged_in, tank, target_service):
    page = logged_in
    page.goto(page.base + "/sharing/wizard/")
    page.get_by_label("Name").fill("open-disk")
    page.get_by_label("Pool or dataset").select_option("tank")
    page.locator("#id_size").fill("64M")
    page.get_by_role("button", name="Save").click()
    error = page.locator('[data-field-error="open_to_all"]')
    error.wait_for()
    assert "every computer on the network" in error.inner_text()
    assert not Target.objects.exists()
    page.get_by_label("Let any initiator connect (no IQN, no CHAP)").check()
    page.get_by_role("button", name="Save").click()
    page.get_by_text("The zvol is shared").wait_for()
    assert Target.objects.filter(name="open-disk").exists()


def test_the_wizard_shares_a_zvol_that_already_exists(logged_in, tank, target_service):
    from storage.datasets import services as storage

    storage.zvol_create(parent="tank", name="games", size="64M", sparse=True)
    page = logged_in
    page.goto(page.base + "/sharing/wizard/")
    assert page.locator("#id_size").is_visible()
    page.get_by_label("Zvol", exact=True).select_option("tank/games")
    assert not page.locator("#id_size").is_visible()  # a new zvol's settings step aside
    page.get_by_label("Initiator IQN of the PC").fill("iqn.1991-05.com.microsoft:pc")
    page.get_by_role("button", name="Save").click()
    page.get_by_text("The zvol is shared").wait_for()
    assert Target.objects.filter(name="games").exists()
