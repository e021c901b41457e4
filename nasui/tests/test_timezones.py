"""The panel's time zone: the box's own where the panel sets the clock (followed live), else
the process's TIME_ZONE; schedules are read in it and pages show their times in it."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from nasui import timezones
from storage import periodic
from storage.schedule import Schedule


@pytest.fixture
def localtime(tmp_path: Path, monkeypatch) -> Path:
    link = tmp_path / "localtime"
    monkeypatch.setattr(timezones, "LOCALTIME", link)
    return link


def point(link: Path, zone: str) -> None:
    link.unlink(missing_ok=True)
    link.symlink_to(f"/usr/share/zoneinfo/{zone}")


def test_the_box_zone_follows_its_localtime_link(settings, localtime: Path) -> None:
    settings.NASUI_CLOCK = "systemd"
    point(localtime, "Europe/Paris")
    assert str(timezones.box_zone()) == "Europe/Paris"
    point(localtime, "America/New_York")  # System -> Time changed it: no restart needed
    assert str(periodic.zone()) == "America/New_York"


def test_without_a_link_or_a_known_zone_it_is_utc(settings, localtime: Path) -> None:
    settings.NASUI_CLOCK = "systemd"
    assert str(timezones.box_zone()) == "UTC"
    localtime.symlink_to("/usr/share/zoneinfo/Nowhere/Atlantis")
    assert str(timezones.box_zone()) == "UTC"


def test_elsewhere_the_process_time_zone_is_used(settings, localtime: Path) -> None:
    settings.NASUI_CLOCK = "none"
    settings.TIME_ZONE = "Asia/Tokyo"
    point(localtime, "Europe/Paris")
    assert str(periodic.zone()) == "Asia/Tokyo"


def test_a_schedule_at_three_runs_at_three_in_the_box_zone(settings, localtime: Path) -> None:
    settings.NASUI_CLOCK = "systemd"
    point(localtime, "Europe/Paris")
    at_three = Schedule.from_fields(minutes="0", hours="3", days="*")
    slot = at_three.latest(datetime(2026, 11, 27, 6, 0, tzinfo=UTC), periodic.zone())
    assert slot is not None
    assert slot.astimezone(UTC).hour == 2  # 03:00 in Paris, in winter


@pytest.mark.django_db
def test_pages_say_and_show_the_box_zone(settings, localtime: Path, admin_client) -> None:
    settings.NASUI_CLOCK = "systemd"
    point(localtime, "Europe/Paris")
    page = admin_client.get("/storage/").content.decode()
    assert 'data-testid="time-zone">times in Europe/Paris<' in page
