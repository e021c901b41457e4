"""SMART on qemu's emulated SATA disk (scripts/zfsvm.sh adds it; virtio disks have no SMART).

smartctl is the host's own binary, staged by zfsvm.sh on the guest's PATH.
"""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from storage.zfs.smart import SmartctlSource, SmartNotSupported, parse_smart_json
from storage.zfs.smart.smartctl import report_argv

SATA_SERIAL = "QMSATA0001"


def _sata_disk() -> str:
    """The SATA disk's device path, found by its serial."""
    out = subprocess.run(["lsblk", "-J", "-d", "-o", "PATH,SERIAL"], capture_output=True,
                         text=True, check=True).stdout  # fmt: skip
    for dev in json.loads(out)["blockdevices"]:
        if dev.get("serial") == SATA_SERIAL:
            return str(dev["path"])
    pytest.skip("no emulated SATA disk in this VM (NASUI_ZFSVM_SATA=0?)")


@pytest.fixture(scope="module")
def sata() -> str:
    """The SATA disk, with smartctl available."""
    if shutil.which("smartctl") is None:
        pytest.skip("no smartctl in the guest (the host has no smartmontools)")
    return _sata_disk()


def _smartctl(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["smartctl", "--json", *args], capture_output=True, text=True,
                          timeout=60, check=False)  # fmt: skip


@pytest.mark.parametrize("flag", ["-x", "-a"])
def test_smartctl_on_an_emulated_sata_disk_is_parsed(sata: str, flag: str) -> None:
    proc = _smartctl(flag, sata)
    assert proc.returncode & 0b11 == 0, proc.stdout
    report = parse_smart_json(proc.stdout, sata)
    assert (report.supported, report.health, report.serial) == (True, "passed", SATA_SERIAL)
    assert report.model == "QEMU HARDDISK"
    assert report.temperature is not None
    assert 0 < report.temperature < 100
    assert report.power_on_hours is not None
    assert report.reallocated_sectors == 0


def test_the_panels_own_argv_reads_the_sata_disk(sata: str) -> None:
    report = SmartctlSource().report(sata)
    assert (report.supported, report.health) == (True, "passed")
    assert report_argv("smartctl", sata)[-1] == sata


def test_a_short_self_test_shows_in_the_log(sata: str) -> None:
    source = SmartctlSource()
    before = len(source.report(sata).tests)
    source.start_test(sata, "short")
    # qemu's disk completes a self-test at once and logs it with a fixed lifetime (0x1234 h)
    report = source.report(sata)
    assert len(report.tests) == min(before + 1, 21)
    last = report.last_test
    assert last is not None
    assert (last.kind, last.passed, last.status) == ("short", True, "Completed without error")


def test_a_long_self_test_shows_in_the_log(sata: str) -> None:
    source = SmartctlSource()
    source.start_test(sata, "long")
    last = source.report(sata).last_test
    assert last is not None
    assert (last.kind, last.passed) == ("long", True)


def test_a_virtio_disk_says_smart_is_not_supported(sata: str, all_disks: list[str]) -> None:
    report = SmartctlSource().report(all_disks[0])
    assert not report.supported
    assert report.message == "SMART not supported by this disk"
    assert "Unable to detect device type" in report.detail
    with pytest.raises(SmartNotSupported):
        SmartctlSource().start_test(all_disks[0], "short")
