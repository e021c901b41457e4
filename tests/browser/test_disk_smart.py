"""The Disks page: SMART figures, a self-test started from it, and the temperature graph."""

from __future__ import annotations

import time

import pytest

from monitoring.models import Rollup
from storage.smart import selectors as smart_selectors

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _store_temperatures(minutes: int) -> None:
    """Minute rollups of two disks' temperatures, as monitoring.maintain writes them."""
    now = int(time.time()) // 60 * 60
    for i in range(minutes):
        values = {
            "disk.sda.temperature": [33, 34, 35, 30],
            "disk.sdb.temperature": [40, 41, 42, 30],
        }
        Rollup.objects.create(resolution=Rollup.MINUTE, t=now - (minutes - i) * 60, values=values)


def test_the_disks_page_draws_the_temperature_graph(logged_in, sandbox):
    page = logged_in
    _store_temperatures(5)
    page.goto(page.base + "/storage/disks/")
    page.get_by_test_id("chart-disk-temperature").wait_for()
    page.wait_for_function(
        "() => Number(document.querySelector('[data-testid=chart-disk-temperature]')"
        ".dataset.points) === 5"
    )


def test_a_short_test_started_from_the_page_shows_as_the_last_self_test(logged_in, sandbox):
    page = logged_in
    source = smart_selectors.smart_source()
    source.set_override("sdb", temperature=49)  # type: ignore[attr-defined]
    page.goto(page.base + "/storage/disks/")
    row = page.locator("tr[data-disk=sdb]")
    assert row.get_by_test_id("smart-temperature").inner_text() == "49 °C"
    assert row.get_by_test_id("smart-last-test").inner_text() == "none yet"
    row.get_by_test_id("smart-test-short").click()
    page.get_by_text("Short self-test of sdb started.").wait_for()
    text = page.locator("tr[data-disk=sdb]").get_by_test_id("smart-last-test").inner_text()
    assert text.startswith("Short test: passed"), text


@pytest.mark.parametrize("width", [1366, 390])
def test_the_self_test_buttons_are_on_the_screen(logged_in, sandbox, width):
    page = logged_in
    page.set_viewport_size({"width": width, "height": 768})
    page.goto(page.base + "/storage/disks/")
    for kind in ("short", "long"):
        button = page.locator("tr[data-disk=sdb]").get_by_test_id(f"smart-test-{kind}")
        box = button.bounding_box()
        assert box is not None
        assert box["x"] >= 0
        assert box["x"] + box["width"] <= width, f"the {kind} test button is off the screen"
