"""smartctl command lines and how its exit status bits are read (scripted runner)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from storage.zfs.errors import ZfsTimeout, ZfsUnavailable
from storage.zfs.runner import CommandResult, Runner, ScriptedRunner
from storage.zfs.smart import SmartctlSource, SmartError, SmartNotSupported, SmartUnavailable
from storage.zfs.smart.smartctl import device_path, report_argv, selftest_argv

SMART = Path(__file__).parent / "fixtures" / "smart"


def answer(name: str, returncode: int) -> CommandResult:
    return CommandResult((), returncode, (SMART / name).read_text(), "")


def test_the_report_reads_everything_as_json_without_waking_a_sleeping_disk() -> None:
    assert report_argv("smartctl", "sda") == [
        "smartctl", "--json", "-a", "-n", "standby", "/dev/sda"
    ]  # fmt: skip


@pytest.mark.parametrize("kind", ["short", "long"])
def test_a_self_test_is_started_with_t(kind: str) -> None:
    assert selftest_argv("smartctl", "/dev/sdb", kind) == [
        "smartctl",
        "--json",
        "-t",
        kind,
        "/dev/sdb",
    ]


def test_an_unknown_test_kind_is_refused() -> None:
    with pytest.raises(SmartError, match="unknown self-test"):
        selftest_argv("smartctl", "sda", "conveyance")


@pytest.mark.parametrize("disk", ["-d", "--all", "../etc/passwd", "/tmp/x/sda", "sd a", ""])
def test_only_disk_names_reach_the_command_line(disk: str) -> None:
    with pytest.raises(SmartError, match="not a disk name"):
        device_path(disk)


def test_a_report_with_exit_status_4_is_still_read() -> None:
    runner = ScriptedRunner({("smartctl",): answer("sata-x.json", 4)})
    report = SmartctlSource(runner=runner).report("sda")
    assert (report.supported, report.temperature) == (True, 31)
    assert runner.last[-1] == "/dev/sda"
    assert runner.timeouts == [30.0]


def test_a_virtio_disk_reports_no_smart_instead_of_failing() -> None:
    runner = ScriptedRunner({("smartctl",): answer("virtio-x.json", 1)})
    report = SmartctlSource(runner=runner).report("vda")
    assert not report.supported
    assert report.message == "SMART not supported by this disk"


def test_starting_a_test_on_a_virtio_disk_is_refused() -> None:
    runner = ScriptedRunner({("smartctl",): answer("virtio-x.json", 1)})
    with pytest.raises(SmartNotSupported, match="not supported"):
        SmartctlSource(runner=runner).start_test("vda", "short")


def test_a_started_test_returns_quietly() -> None:
    runner = ScriptedRunner({("smartctl",): answer("sata-test-short.json", 0)})
    SmartctlSource(runner=runner).start_test("sda", "short")
    assert runner.last == ("smartctl", "--json", "-t", "short", "/dev/sda")


def test_a_test_the_disk_refuses_is_an_error() -> None:
    runner = ScriptedRunner({("smartctl",): answer("sata-test-short.json", 4)})
    with pytest.raises(SmartError, match="refused the long self-test"):
        SmartctlSource(runner=runner).start_test("sda", "long")


def _raising(exc: Exception) -> Runner:
    def run(argv: Sequence[str], *, timeout: float, stdin: str | None = None) -> CommandResult:
        raise exc

    return run


def test_a_missing_smartctl_says_to_install_smartmontools() -> None:
    source = SmartctlSource(runner=_raising(ZfsUnavailable("smartctl not found")))
    with pytest.raises(SmartUnavailable, match="install smartmontools"):
        source.report("sda")


def test_a_hanging_smartctl_is_unavailable() -> None:
    source = SmartctlSource(runner=_raising(ZfsTimeout("timed out")), timeout=5)
    with pytest.raises(SmartUnavailable, match="within 5s"):
        source.report("sda")
