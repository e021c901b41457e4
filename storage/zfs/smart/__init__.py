"""SMART health of disks through smartctl's JSON (smartmontools 7.x), and its sandbox twin."""

from storage.zfs.smart.errors import SmartError, SmartNotSupported, SmartUnavailable
from storage.zfs.smart.report import SelfTest, SmartReport, parse_smart, parse_smart_json
from storage.zfs.smart.smartctl import TEST_KINDS, SmartctlSource, SmartSource

__all__ = [
    "TEST_KINDS",
    "SelfTest",
    "SmartError",
    "SmartNotSupported",
    "SmartReport",
    "SmartSource",
    "SmartUnavailable",
    "SmartctlSource",
    "parse_smart",
    "parse_smart_json",
]
