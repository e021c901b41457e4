"""The sandbox's disks answer SMART like qemu's SATA disk; overrides make them hot or failing."""

from __future__ import annotations

from pathlib import Path

import pytest

from storage.zfs.errors import DeviceNotFound
from storage.zfs.sandbox.disks import DiskShelf
from storage.zfs.sandbox.smart import SandboxSmart
from storage.zfs.smart import SmartError, SmartNotSupported


@pytest.fixture
def smart(tmp_path: Path) -> SandboxSmart:
    return SandboxSmart(DiskShelf(tmp_path, 3, 2**30))


def test_a_sandbox_disk_answers_with_its_own_name_serial_and_size(smart: SandboxSmart) -> None:
    report = smart.report("sdb")
    device = smart.shelf.device("sdb", in_pool=False)
    assert (report.device, report.serial, report.model) == ("/dev/sdb", device.serial, device.model)
    assert (report.supported, report.health) == (True, "passed")
    assert report.temperature is not None
    assert 30 <= report.temperature <= 37
    assert (report.reallocated_sectors, report.pending_sectors) == (0, 0)
    assert smart.document("sdb")["user_capacity"]["bytes"] == 2**30


def test_a_self_test_is_logged_at_once_newest_first(smart: SandboxSmart) -> None:
    smart.start_test("sda", "short")
    smart.start_test("/dev/sda", "long")
    tests = smart.report("sda").tests
    assert [(t.kind, t.passed) for t in tests] == [("long", True), ("short", True)]
    assert smart.report("sdb").tests == ()


def test_an_override_makes_a_disk_hot_and_failing(smart: SandboxSmart) -> None:
    smart.set_override("sdc", health="failed", temperature=61, reallocated=8, pending=2)
    smart.set_override("sdc", power_on_hours=40000)
    report = smart.report("sdc")
    assert (report.health, report.temperature, report.power_on_hours) == ("failed", 61, 40000)
    assert (report.reallocated_sectors, report.pending_sectors) == (8, 2)
    assert report.exit_status & 8


def test_an_override_can_take_smart_away(smart: SandboxSmart) -> None:
    smart.set_override("sda", supported=False)
    assert smart.report("sda").message == "SMART not supported by this disk"
    with pytest.raises(SmartNotSupported):
        smart.start_test("sda", "short")


def test_unknown_disks_and_test_kinds_are_refused(smart: SandboxSmart) -> None:
    with pytest.raises(DeviceNotFound):
        smart.report("sdz")
    with pytest.raises(SmartError):
        smart.start_test("sda", "conveyance")
