"""smartctl --json output -> a SmartReport (ATA, NVMe and SCSI disks), pure functions."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from storage.zfs.smart.errors import SmartError

NOT_SUPPORTED = "SMART not supported by this disk"
# ATA attributes whose raw value counts bad sectors: remapped, and waiting to be remapped.
REALLOCATED_ID = 5
PENDING_ID = 197
# smartctl's exit status is a bit mask: only bits 0-1 mean it could not talk to the disk.
OPEN_FAILED_BITS = 0b11


@dataclass(frozen=True)
class SelfTest:
    """One entry of the self-test log, newest first in SmartReport.tests."""

    type: str  # as smartctl names it: "Short offline", "Extended offline", "Short"...
    status: str
    passed: bool | None
    lifetime_hours: int | None
    remaining_percent: int | None = None

    @property
    def kind(self) -> str:
        """short, long or other, for the page's wording."""
        lowered = self.type.lower()
        if lowered.startswith("short"):
            return "short"
        if lowered.startswith(("extended", "long")):
            return "long"
        return "other"


@dataclass(frozen=True)
class SmartReport:
    """What the panel shows of one disk's SMART data."""

    device: str
    supported: bool
    model: str = ""
    serial: str = ""
    protocol: str = ""  # ATA, NVMe, SCSI
    enabled: bool = False
    health: str = "unknown"  # passed, failed, unknown
    temperature: int | None = None  # °C
    power_on_hours: int | None = None
    reallocated_sectors: int | None = None
    pending_sectors: int | None = None
    tests: tuple[SelfTest, ...] = ()
    test_running: bool = False
    message: str = ""  # why SMART data is missing, for the page
    detail: str = ""  # smartctl's own messages
    standby: bool = False  # asleep: not woken up to be read
    exit_status: int = 0

    @property
    def last_test(self) -> SelfTest | None:
        """The newest self-test, if the log has any."""
        return self.tests[0] if self.tests else None


def parse_smart_json(text: str, device: str = "") -> SmartReport:
    """smartctl --json text -> SmartReport; SmartError if it is not smartctl's JSON."""
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise SmartError(f"smartctl printed no JSON for {device or 'the disk'}") from exc
    if not isinstance(data, dict) or "smartctl" not in data:
        raise SmartError(f"smartctl printed no JSON for {device or 'the disk'}")
    return parse_smart(data, device)


def parse_smart(data: Mapping[str, Any], device: str = "") -> SmartReport:
    """A decoded smartctl --json document -> SmartReport."""
    status = int(data.get("smartctl", {}).get("exit_status", 0))
    name = data.get("device", {}).get("name") or device
    detail = _messages(data)
    if status & OPEN_FAILED_BITS or not data.get("device"):
        # virtio says "Unable to detect device type"; `-n standby` leaves sleeping disks asleep.
        standby = any(word in detail.upper() for word in ("STANDBY", "SLEEP"))
        message = "Disk asleep: not woken up to read SMART" if standby else NOT_SUPPORTED
        return SmartReport(name, False, message=message, detail=detail, standby=standby,
                           exit_status=status)  # fmt: skip
    support = data.get("smart_support", {})
    supported = bool(support.get("available", _is_nvme(data)))
    return SmartReport(
        device=name,
        supported=supported,
        model=str(data.get("model_name", "")),
        serial=str(data.get("serial_number", "")),
        protocol=str(data.get("device", {}).get("protocol", "")),
        enabled=bool(support.get("enabled", _is_nvme(data))),
        health=_health(data),
        temperature=_int(data.get("temperature", {}).get("current")),
        power_on_hours=_int(data.get("power_on_time", {}).get("hours")),
        reallocated_sectors=_reallocated(data),
        pending_sectors=_ata_raw(data, PENDING_ID),
        tests=_tests(data),
        test_running=_test_running(data),
        message="" if supported else NOT_SUPPORTED,
        detail=detail,
        exit_status=status,
    )


def _is_nvme(data: Mapping[str, Any]) -> bool:
    """NVMe disks have no smart_support block: SMART is always there."""
    return str(data.get("device", {}).get("protocol", "")) == "NVMe"


def _int(value: Any) -> int | None:
    """An int, or None when smartctl left the field out."""
    return int(value) if isinstance(value, int | float) else None


def _messages(data: Mapping[str, Any]) -> str:
    """smartctl's own messages, joined."""
    found = data.get("smartctl", {}).get("messages", [])
    return "; ".join(str(m.get("string", "")).strip() for m in found if m.get("string"))


def _health(data: Mapping[str, Any]) -> str:
    """The overall self-assessment: passed, failed, or unknown when it was not read."""
    passed = data.get("smart_status", {}).get("passed")
    if passed is None:
        return "unknown"
    return "passed" if passed else "failed"


def _ata_raw(data: Mapping[str, Any], attr_id: int) -> int | None:
    """An ATA attribute's raw value, None on disks without it."""
    for attr in data.get("ata_smart_attributes", {}).get("table", []):
        if attr.get("id") == attr_id:
            return _int(attr.get("raw", {}).get("value"))
    return None


def _reallocated(data: Mapping[str, Any]) -> int | None:
    """Remapped sectors: ATA attribute 5, or SCSI's grown defect list."""
    found = _ata_raw(data, REALLOCATED_ID)
    return found if found is not None else _int(data.get("scsi_grown_defect_list"))


def _tests(data: Mapping[str, Any]) -> tuple[SelfTest, ...]:
    """The self-test log, newest first (ATA extended or standard log, or NVMe's)."""
    log = data.get("ata_smart_self_test_log", {})
    table = log.get("extended", {}).get("table") or log.get("standard", {}).get("table") or []
    tests = [_ata_test(row) for row in table]
    for row in data.get("nvme_self_test_log", {}).get("table", []):
        tests.append(_nvme_test(row))
    return tuple(tests)


def _ata_test(row: Mapping[str, Any]) -> SelfTest:
    """One ATA self-test log row."""
    status = row.get("status", {})
    return SelfTest(
        type=str(row.get("type", {}).get("string", "")),
        status=str(status.get("string", "")),
        passed=status.get("passed"),
        lifetime_hours=_int(row.get("lifetime_hours")),
        remaining_percent=_int(status.get("remaining_percent")),
    )


def _nvme_test(row: Mapping[str, Any]) -> SelfTest:
    """One NVMe self-test log row (result 0 means completed without error)."""
    result = row.get("self_test_result", {})
    return SelfTest(
        type=str(row.get("self_test_code", {}).get("string", "")),
        status=str(result.get("string", "")),
        passed=result.get("value") == 0 if "value" in result else None,
        lifetime_hours=_int(row.get("power_on_hours")),
    )


def _test_running(data: Mapping[str, Any]) -> bool:
    """True while a self-test runs (ATA status 0xF?, NVMe current operation)."""
    value = data.get("ata_smart_data", {}).get("self_test", {}).get("status", {}).get("value")
    if isinstance(value, int) and value >> 4 == 0xF:
        return True
    return bool(
        data.get("nvme_self_test_log", {}).get("current_self_test_operation", {}).get("value")
    )
