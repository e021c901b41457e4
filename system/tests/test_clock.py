"""The clock: a zone of the tz database and NTP servers, checked, saved, written for the
appliance's boot and applied through systemd where the panel sets the clock; refusals name
their field and change nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.exceptions import ValidationError

from system.clock import selectors, services
from system.clock.engine import clock
from system.models import ClockSettings

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def data_dir(settings, tmp_path: Path) -> Path:
    settings.DATA_DIR = tmp_path
    settings.NASUI_CLOCK = "none"
    return tmp_path


def test_zones_come_from_the_tz_database() -> None:
    assert clock.zones()[0] == "UTC"
    assert "Europe/Paris" in clock.zones()
    assert clock.check_zone("America/New_York") == "America/New_York"
    with pytest.raises(clock.ClockError, match="'Mars/Olympus' is not a time zone") as refused:
        clock.check_zone("Mars/Olympus")
    assert refused.value.field == "time_zone"


@pytest.mark.parametrize("bad", ["-pool.example", "a b", "pool..example", "x" * 64, "1.2.3.4;rm"])
def test_a_server_must_be_a_host_name_or_an_address(bad: str) -> None:
    with pytest.raises(clock.ClockError, match="neither a host name nor an address"):
        clock.check_servers([bad])


def test_servers_are_kept_in_order_without_repeats() -> None:
    assert clock.check_servers(["Pool.NTP.org.", "10.0.2.2", "pool.ntp.org", "fe80::1"]) == [
        "pool.ntp.org",
        "10.0.2.2",
        "fe80::1",
    ]
    with pytest.raises(clock.ClockError, match="At most 8"):
        clock.check_servers([f"ntp{i}.example" for i in range(9)])


def test_systemd_properties_are_read_as_key_value() -> None:
    text = (
        "Timezone=Europe/Paris\nNTP=yes\nNTPSynchronized=no\nTimeUSec=Fri 2026-11-27 07:00:00 CET\n"
    )
    assert clock.parse_properties(text)["TimeUSec"] == "Fri 2026-11-27 07:00:00 CET"


def test_a_change_is_saved_and_written_for_the_next_boot(data_dir: Path) -> None:
    row = services.clock_update(time_zone="Europe/Paris", ntp_servers="10.0.2.2, ntp.home.example")
    assert ClockSettings.load().servers() == ["10.0.2.2", "ntp.home.example"]
    assert (data_dir / "clock" / "timezone").read_text() == "Europe/Paris\n"
    conf = (data_dir / "clock" / "timesyncd.conf").read_text()
    assert conf == "[Time]\nNTP=10.0.2.2 ntp.home.example\n"
    status = selectors.clock_status(row)
    assert status.now.utcoffset() is not None
    assert str(status.now.tzinfo) == "Europe/Paris"
    assert not status.applied


def test_a_refusal_changes_nothing(data_dir: Path) -> None:
    services.clock_update(time_zone="Europe/Paris")
    with pytest.raises(ValidationError) as refused:
        services.clock_update(time_zone="Asia/Tokyo", ntp_servers="ok.example bad_name")
    assert "ntp_servers" in refused.value.message_dict
    assert ClockSettings.load().time_zone == "Europe/Paris"
    assert (data_dir / "clock" / "timezone").read_text() == "Europe/Paris\n"


def test_where_systemd_refuses_the_row_and_files_go_back(settings, data_dir, monkeypatch) -> None:
    services.clock_update(time_zone="Europe/Paris")
    settings.NASUI_CLOCK = "systemd"
    zones: list[str] = []

    def set_zone(zone: str) -> None:  # timedatectl refuses the new zone, takes the old one back
        zones.append(zone)
        if zone == "Asia/Tokyo":
            raise clock.ClockError("time_zone", "Failed to set time zone: Access denied")

    monkeypatch.setattr(clock, "set_zone", set_zone)
    monkeypatch.setattr(clock, "restart_timesyncd", lambda conf: None)
    with pytest.raises(ValidationError, match="Access denied"):
        services.clock_update(time_zone="Asia/Tokyo")
    assert zones == ["Asia/Tokyo", "Europe/Paris"]
    assert ClockSettings.load().time_zone == "Europe/Paris"
    assert (data_dir / "clock" / "timezone").read_text() == "Europe/Paris\n"


def test_the_api_reads_and_sets(admin_client) -> None:
    shown = admin_client.get("/api/system/clock/").json()
    assert shown["time_zone"] == "UTC"
    assert shown["applied"] is False
    assert shown["synchronized"] is None
    body = {"time_zone": "Europe/Paris", "ntp_servers": ["10.0.2.2"]}
    changed = admin_client.put("/api/system/clock/", body, content_type="application/json")
    assert changed.status_code == 200, changed.content
    assert changed.json()["ntp_servers"] == ["10.0.2.2"]
    assert changed.json()["now"].endswith(("+01:00", "+02:00"))
    wrong = admin_client.put(
        "/api/system/clock/", {"time_zone": "Nowhere"}, content_type="application/json"
    )
    assert wrong.status_code == 400
    assert "not a time zone" in str(wrong.json()["fields"]["time_zone"])


def test_the_page_saves_and_says_why_not(admin_client) -> None:
    page = admin_client.get("/system/clock/")
    assert b"Europe/Paris" in page.content  # among the zones offered
    refused = admin_client.post(
        "/system/clock/", {"time_zone": "Europe/Paris", "ntp_servers": "bad_name"}
    )
    assert refused.status_code == 400
    assert b"neither a host name nor an address" in refused.content
    done = admin_client.post(
        "/system/clock/", {"time_zone": "Europe/Paris", "ntp_servers": "pool.ntp.org"}, follow=True
    )
    assert b"The box keeps Europe/Paris time." in done.content


@pytest.mark.parametrize(
    ("text", "offset"),
    [
        ("       Server: 10.0.2.2\n       Offset: -1.218ms\n        Delay: 2ms\n", -1.218),
        ("Offset: +229us", 0.229),
        ("Offset: +2min 3.500s", 123_500.0),
        ("Offset: +0", 0.0),
        ("       Server: 10.0.2.2 (10.0.2.2)\nPoll interval: 0 (min: 32s; max 34min 8s)\n", None),
        ("Offset: soon", None),
    ],
)
def test_the_offset_is_read_from_timesync_status(text: str, offset: float | None) -> None:
    assert clock.parse_offset(text) == offset


def test_systemds_view_carries_the_offset(monkeypatch) -> None:
    answers = {
        "show": "Timezone=Europe/Paris\nNTP=yes\nNTPSynchronized=yes\n",
        "show-timesync": "ServerName=10.0.2.2\nServerAddress=10.0.2.2\n",
        "timesync-status": "       Server: 10.0.2.2 (10.0.2.2)\n       Offset: -3.5ms\n",
    }
    monkeypatch.setattr(clock, "run_checked", lambda argv, timeout: answers[argv[1]])
    assert clock.sync_state() == clock.SyncState("Europe/Paris", True, True, "10.0.2.2", -3.5)


def test_timesyncd_gets_a_copy_it_can_read(tmp_path: Path, monkeypatch) -> None:
    ran: list[list[str]] = []
    monkeypatch.setattr(clock, "_run", lambda argv, field: ran.append(argv))
    dropin = tmp_path / "timesyncd.conf.d" / "nasui.conf"
    clock.restart_timesyncd("[Time]\nNTP=10.0.2.2\n", dropin)
    assert dropin.read_text() == "[Time]\nNTP=10.0.2.2\n"
    assert not dropin.is_symlink()
    assert dropin.stat().st_mode & 0o777 == 0o644  # timesyncd runs as its own user
    assert ran == [["systemctl", "restart", "systemd-timesyncd.service"]]
