"""smartctl --json parsing, on output captured from smartctl 7.3 (tests/zfs/fixtures/smart/)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from storage.zfs.smart import SmartError, parse_smart, parse_smart_json
from storage.zfs.smart.report import NOT_SUPPORTED

SMART = Path(__file__).parent / "fixtures" / "smart"


def load(name: str) -> str:
    return (SMART / name).read_text()


def test_it_reads_health_temperature_and_hours_of_qemus_sata_disk() -> None:
    report = parse_smart_json(load("sata-a.json"))
    assert (report.device, report.model, report.serial) == (
        "/dev/sda",
        "QEMU HARDDISK",
        "QMSATA0001",
    )
    assert (report.supported, report.enabled, report.protocol) == (True, True, "ATA")
    assert (report.health, report.temperature, report.power_on_hours) == ("passed", 31, 1)


def test_it_reads_reallocated_sectors_and_leaves_missing_pending_sectors_out() -> None:
    report = parse_smart_json(load("sata-a.json"))
    assert report.reallocated_sectors == 0
    assert report.pending_sectors is None  # qemu's disk has no attribute 197


def test_an_empty_self_test_log_has_no_last_test() -> None:
    report = parse_smart_json(load("sata-a.json"))
    assert report.tests == ()
    assert report.last_test is None


def test_a_finished_short_test_is_the_last_test() -> None:
    last = parse_smart_json(load("sata-a-after-short-test.json")).last_test
    assert last is not None
    assert (last.type, last.kind, last.passed) == ("Short offline", "short", True)
    assert (last.status, last.lifetime_hours) == ("Completed without error", 4660)


def test_the_log_is_newest_first() -> None:
    tests = parse_smart_json(load("sata-x-after-long-test.json")).tests
    assert [t.kind for t in tests] == ["long", "short"]


def test_exit_status_bit_2_still_gives_the_data() -> None:
    report = parse_smart_json(load("sata-x.json"))
    assert report.exit_status == 4
    assert (report.supported, report.health, report.temperature) == (True, "passed", 31)


@pytest.mark.parametrize("name", ["virtio-x.json", "missing-x.json"])
def test_a_disk_without_smart_is_not_supported(name: str) -> None:
    report = parse_smart_json(load(name), "/dev/vda")
    assert not report.supported
    assert report.message == NOT_SUPPORTED
    assert "Unable to detect device type" in report.detail
    assert report.health == "unknown"


def test_a_failing_disk_says_failed() -> None:
    data = json.loads(load("sata-a.json"))
    data["smart_status"] = {"passed": False}
    data["smartctl"]["exit_status"] = 8
    assert parse_smart(data).health == "failed"


def test_a_sleeping_disk_is_left_asleep() -> None:
    data = {"smartctl": {"exit_status": 2, "messages": [{"string": "Device is in STANDBY mode"}]}}
    report = parse_smart(data, "/dev/sdb")
    assert (report.supported, report.standby, report.device) == (False, True, "/dev/sdb")
    assert "asleep" in report.message


def test_a_running_self_test_is_seen() -> None:
    data = json.loads(load("sata-a.json"))
    data["ata_smart_data"]["self_test"]["status"] = {"value": 249, "remaining_percent": 90}
    assert parse_smart(data).test_running


def test_nvme_figures_are_read() -> None:
    data = {
        "smartctl": {"exit_status": 0},
        "device": {"name": "/dev/nvme0", "protocol": "NVMe"},
        "model_name": "Some NVMe",
        "smart_status": {"passed": True},
        "temperature": {"current": 44},
        "power_on_time": {"hours": 1234},
        "nvme_self_test_log": {"table": [{"self_test_code": {"value": 1, "string": "Short"},
            "self_test_result": {"value": 0, "string": "Completed without error"},
            "power_on_hours": 1200}]},
    }  # fmt: skip
    report = parse_smart(data)
    assert (report.supported, report.temperature, report.power_on_hours) == (True, 44, 1234)
    assert report.last_test is not None
    assert (report.last_test.kind, report.last_test.passed) == ("short", True)


def test_text_that_is_not_smartctls_json_is_an_error() -> None:
    with pytest.raises(SmartError, match="no JSON"):
        parse_smart_json("smartctl: command not found", "/dev/sda")
    with pytest.raises(SmartError):
        parse_smart_json("{}", "/dev/sda")
