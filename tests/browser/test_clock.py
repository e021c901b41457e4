"""System -> Time in Chromium: a zone picked from the list, a bad NTP server refused on its
field, then the change saved and the time shown in the new zone."""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def data_dir(settings, tmp_path: Path) -> Path:
    settings.DATA_DIR = tmp_path
    settings.NASUI_CLOCK = "none"
    return tmp_path


def test_pick_a_zone_and_servers_by_keyboard(logged_in) -> None:
    page = logged_in
    page.get_by_role("list", name="Main").get_by_role("link", name="System").click()
    page.get_by_role("link", name="Time", exact=True).click()
    form = page.get_by_test_id("clock-form")
    form.get_by_label("Time zone").select_option("Europe/Paris")
    servers = form.get_by_label("NTP servers")
    servers.fill("ntp.home.example bad_name")
    servers.press("Enter")
    error = page.locator('[data-field-error="ntp_servers"]')
    error.wait_for()
    assert "'bad_name' is neither a host name nor an address" in error.inner_text()
    form = page.get_by_test_id("clock-form")
    form.get_by_label("NTP servers").fill("ntp.home.example")
    form.get_by_label("NTP servers").press("Enter")
    page.get_by_text("The box keeps Europe/Paris time.").wait_for()
    assert page.get_by_test_id("clock-now").inner_text().endswith(("CET", "CEST"))
