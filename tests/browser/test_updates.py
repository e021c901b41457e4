"""System -> Updates in Chromium: the release shown, and where the panel does not run the
appliance, an update refused in words (nothing written)."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_release_is_shown_and_an_update_refused_off_the_appliance(logged_in, settings) -> None:
    settings.NASUI_UPDATES = "none"
    page = logged_in
    page.get_by_role("list", name="Main").get_by_role("link", name="System").click()
    page.get_by_role("link", name="Updates", exact=True).click()
    assert page.get_by_test_id("update-release").inner_text() == settings.NASUI_VERSION
    assert page.get_by_role("button", name="Roll back").count() == 0  # no other slot here
    form = page.get_by_test_id("update-form")
    form.get_by_label("Update file").fill("/mnt/tank/share/nasui-update.tar")
    form.get_by_label("Update file").press("Enter")
    page.get_by_test_id("form-errors").wait_for()
    assert "updates are for the appliance" in page.get_by_test_id("form-errors").inner_text()
