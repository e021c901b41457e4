"""Reading SMART and starting self-tests with smartctl: argument lists, never a shell."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol

from storage.zfs.errors import ZfsTimeout, ZfsUnavailable
from storage.zfs.runner import CommandResult, Runner, subprocess_runner
from storage.zfs.smart.errors import SmartError, SmartNotSupported, SmartUnavailable
from storage.zfs.smart.report import OPEN_FAILED_BITS, SmartReport, parse_smart_json

TEST_KINDS = ("short", "long")
# Bit 2: a SMART command failed. Harmless when reading (qemu's disk fails one log read),
# fatal when it was the self-test command itself.
COMMAND_FAILED_BIT = 0b100
_DISK_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


class SmartSource(Protocol):
    """Where SMART data comes from: smartctl, or the sandbox's imitation."""

    def report(self, disk: str) -> SmartReport:
        """The disk's SMART data (supported=False when it has none)."""
        ...

    def start_test(self, disk: str, kind: str) -> None:
        """Start a short or long self-test; it runs inside the disk."""
        ...


def device_path(disk: str) -> str:
    """'sda' or '/dev/sda' -> '/dev/sda'; anything else (an option, a path elsewhere) refused."""
    name = disk.removeprefix("/dev/")
    if not _DISK_NAME.fullmatch(name):
        raise SmartError(f"not a disk name: {disk!r}")
    return f"/dev/{name}"


def report_argv(binary: str, disk: str) -> list[str]:
    """Everything -a prints, as JSON; a disk in standby is left asleep (exit status 2)."""
    return [binary, "--json", "-a", "-n", "standby", device_path(disk)]


def selftest_argv(binary: str, disk: str, kind: str) -> list[str]:
    """Start a self-test of that kind (it runs in the disk's firmware, smartctl returns)."""
    if kind not in TEST_KINDS:
        raise SmartError(f"unknown self-test {kind!r}: use short or long")
    return [binary, "--json", "-t", kind, device_path(disk)]


@dataclass
class SmartctlSource:
    """SMART through smartmontools' smartctl (7.x for --json)."""

    runner: Runner = subprocess_runner
    binary: str = "smartctl"
    timeout: float = 30.0

    def _run(self, argv: list[str]) -> CommandResult:
        """Run smartctl; a missing binary or a hang becomes SmartUnavailable."""
        try:
            return self.runner(argv, timeout=self.timeout)
        except ZfsUnavailable as exc:
            raise SmartUnavailable(
                f"{self.binary} not found: install smartmontools", argv=argv
            ) from exc
        except ZfsTimeout as exc:
            raise SmartUnavailable(
                f"smartctl did not answer within {self.timeout:g}s", argv=argv
            ) from exc

    def report(self, disk: str) -> SmartReport:
        """Read the disk's SMART data; only bits 0-1 of the exit status mean no data."""
        result = self._run(report_argv(self.binary, disk))
        return parse_smart_json(result.stdout, device_path(disk))

    def start_test(self, disk: str, kind: str) -> None:
        """Start a self-test; SmartNotSupported when the disk has no SMART."""
        argv = selftest_argv(self.binary, disk, kind)
        result = self._run(argv)
        report = parse_smart_json(result.stdout, device_path(disk))
        if result.returncode & OPEN_FAILED_BITS:
            raise SmartNotSupported(report.message, argv=argv, returncode=result.returncode,
                                    stderr=report.detail)  # fmt: skip
        if result.returncode & COMMAND_FAILED_BIT:
            raise SmartError(
                f"the disk refused the {kind} self-test",
                argv=argv,
                returncode=result.returncode,
                stderr=report.detail,
            )
