"""System -> UPS in Chromium: a bad .dev path refused on its field, then the simulated UPS
(dummy-ups) chosen and saved; with NUT running on it (as manage.py ups_service runs it), the
page shows its status and charge, follows it on battery, and the dashboard has its tile."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from nasui.lib.net import free_loopback_port
from system.ups import selectors
from system.ups.runtime import UpsRuntime

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture(autouse=True)
def data_dir(settings, tmp_path: Path, monkeypatch) -> Path:
    settings.DATA_DIR = tmp_path / "data"
    settings.NASUI_UPS_PORT = free_loopback_port()
    called = tmp_path / "upsmon-called"  # upsmon's SHUTDOWNCMD only leaves a mark here
    monkeypatch.setattr(selectors, "shutdown_command", lambda: ["/usr/bin/touch", str(called)])
    return tmp_path


@pytest.fixture
def nut() -> Iterator[UpsRuntime]:
    runtime = UpsRuntime()
    try:
        yield runtime
    finally:
        runtime.shutdown()


def write_dev(dev: Path, flags: str, charge: int, stamp: int) -> None:
    dev.write_text(f"ups.status: {flags}\nbattery.charge: {charge}\nbattery.runtime: 900\n"
                   "ups.load: 31\ninput.voltage: 231.0\n")  # fmt: skip
    os.utime(dev, (stamp, stamp))  # dummy-ups re-reads when the whole-second mtime moves


def test_the_simulated_ups_shows_its_status_and_charge(logged_in, data_dir, nut) -> None:
    dev = data_dir / "ups.dev"
    now = int(time.time())
    write_dev(dev, "OL", 97, now)
    page = logged_in
    page.goto(page.base + "/system/ups/")
    form = page.get_by_test_id("ups-form")
    form.get_by_label("UPS", exact=True).select_option("dummy")
    path = form.get_by_label("Simulation file (.dev)")
    path.fill("ups.dev")
    form.get_by_label("Shut down").select_option("low_battery")
    form.get_by_role("button", name="Save").click()
    error = page.locator('[data-field-error="dummy_file"]')
    error.wait_for()
    assert "absolute path" in error.inner_text()
    form = page.get_by_test_id("ups-form")
    form.get_by_label("Simulation file (.dev)").fill(str(dev))
    form.get_by_role("button", name="Save").click()
    page.get_by_text("UPS settings saved.").wait_for()
    assert nut.supervise() is not None  # what ups_service's next check does
    status = page.get_by_test_id("ups-status")
    page.get_by_test_id("ups-charge").filter(has_text="97%").wait_for(timeout=20_000)
    assert "On line" in status.inner_text()
    assert "231.0 V" in status.inner_text()
    write_dev(dev, "OB DISCHRG", 64, now + 1)
    page.get_by_test_id("ups-charge").filter(has_text="64%").wait_for(timeout=20_000)
    assert "On battery" in page.get_by_test_id("ups-status").inner_text()
    page.get_by_role("list", name="Main").get_by_role("link", name="Dashboard").click()
    tile = page.get_by_test_id("ups-tile")
    tile.wait_for()
    assert "64% charged" in tile.inner_text()
    assert "On battery" in tile.inner_text()
