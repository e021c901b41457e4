"""SMART for the sandbox's disks: a real smartctl answer (qemu's SATA disk) made theirs.

Each disk answers with `smart_disk.json` (captured from smartctl 7.3) carrying its own name,
serial, model and size. A `<disk>.smart.json` file next to the image overrides figures, so
tests can make a disk hot or failing: {"health": "failed", "temperature": 61,
"reallocated": 8, "pending": 2, "power_on_hours": 40000, "supported": false}.
Self-tests complete at once, as on qemu's disk, and are kept in `<disk>.smart-tests.json`.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from nasui.lib.files import write_if_changed
from storage.zfs.sandbox.disks import DiskShelf
from storage.zfs.smart.errors import SmartNotSupported
from storage.zfs.smart.report import PENDING_ID, REALLOCATED_ID, SmartReport, parse_smart
from storage.zfs.smart.smartctl import selftest_argv

TEMPLATE = Path(__file__).with_name("smart_disk.json")
LOG_SIZE = 21  # entries an ATA self-test log holds
TEST_NAMES = {"short": "Short offline", "long": "Extended offline"}
_UNSUPPORTED = {
    "smartctl": {"exit_status": 1, "messages": [
        {"string": "Unable to detect device type", "severity": "error"}]},
}  # fmt: skip


class SandboxSmart:
    """SmartSource over a DiskShelf."""

    def __init__(self, shelf: DiskShelf) -> None:
        self.shelf = shelf

    def override_path(self, name: str) -> Path:
        """Where a disk's figures are overridden."""
        return self.shelf.dir / f"{name}.smart.json"

    def log_path(self, name: str) -> Path:
        """Where a disk's self-test log is kept."""
        return self.shelf.dir / f"{name}.smart-tests.json"

    def set_override(self, disk: str, **figures: Any) -> None:
        """Merge figures into the disk's override file (tests, demos)."""
        name = self.shelf.resolve(disk)
        self._write(self.override_path(name), json.dumps({**self._override(name), **figures}))

    def report(self, disk: str) -> SmartReport:
        """The disk's SMART data, as smartctl would print it for a disk of this size."""
        return parse_smart(self.document(disk), f"/dev/{self.shelf.resolve(disk)}")

    def document(self, disk: str) -> dict[str, Any]:
        """The smartctl JSON document of the disk."""
        name = self.shelf.resolve(disk)
        override = self._override(name)
        if override.get("supported") is False:
            return copy.deepcopy(_UNSUPPORTED)
        data: dict[str, Any] = json.loads(TEMPLATE.read_text())
        device = self.shelf.device(name, in_pool=False)
        data["device"] = {**data["device"], "name": f"/dev/{name}", "info_name": f"/dev/{name}"}
        data["smartctl"]["argv"] = ["smartctl", "--json", "-a", f"/dev/{name}"]
        data["model_name"], data["serial_number"] = device.model, device.serial
        data["user_capacity"] = {"blocks": device.size // 512, "bytes": device.size}
        data["temperature"] = {"current": _base_temperature(name)}
        data["ata_smart_self_test_log"]["standard"].update(table=self._log(name))
        _set_raw(data, PENDING_ID, 0)  # qemu's disk lacks attribute 197; real disks have it
        return _apply(data, override)

    def start_test(self, disk: str, kind: str) -> None:
        """Log a self-test of that kind, completed without error (as qemu's disk does)."""
        name = self.shelf.resolve(disk)
        selftest_argv("smartctl", name, kind)  # the same refusal of unknown kinds
        if self._override(name).get("supported") is False:
            raise SmartNotSupported("SMART not supported by this disk", argv=("smartctl", name))
        hours = self.report(name).power_on_hours or 0
        entry = {
            "type": {"value": 1 if kind == "short" else 2, "string": TEST_NAMES[kind]},
            "status": {"value": 0, "string": "Completed without error", "passed": True},
            "lifetime_hours": hours,
        }
        table = [entry, *self._log(name)][:LOG_SIZE]
        self._write(self.log_path(name), json.dumps(table))

    def _write(self, path: Path, text: str) -> None:
        """Write a disk's side file atomically (the shelf's directory made first)."""
        self.shelf.ensure()
        write_if_changed(path, text, mode=0o644)

    def _override(self, name: str) -> dict[str, Any]:
        """The disk's override figures ({} without a file)."""
        path = self.override_path(name)
        return dict(json.loads(path.read_text())) if path.exists() else {}

    def _log(self, name: str) -> list[dict[str, Any]]:
        """The disk's self-test log, newest first."""
        path = self.log_path(name)
        return list(json.loads(path.read_text())) if path.exists() else []


def _base_temperature(name: str) -> int:
    """30-37 °C, steady per disk, so that the graph has distinct lines."""
    return 30 + hashlib.sha256(name.encode()).digest()[0] % 8


def _apply(data: dict[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    """Write the override's figures where smartctl puts them."""
    if "health" in override:
        data["smart_status"] = {"passed": override["health"] != "failed"}
        if override["health"] == "failed":
            data["smartctl"]["exit_status"] |= 0b1000  # bit 3: "disk failing"
    if "temperature" in override:
        data["temperature"] = {"current": override["temperature"]}
    if "power_on_hours" in override:
        data["power_on_time"] = {"hours": override["power_on_hours"]}
    for key, attr_id in (("reallocated", REALLOCATED_ID), ("pending", PENDING_ID)):
        if key in override:
            _set_raw(data, attr_id, int(override[key]))
    return data


def _set_raw(data: dict[str, Any], attr_id: int, value: int) -> None:
    """Set (or add) an ATA attribute's raw value."""
    table = data["ata_smart_attributes"]["table"]
    for attr in table:
        if attr["id"] == attr_id:
            attr["raw"] = {"value": value, "string": str(value)}
            return
    name = "Current_Pending_Sector" if attr_id == PENDING_ID else "Reallocated_Sector_Ct"
    table.append({"id": attr_id, "name": name, "raw": {"value": value, "string": str(value)}})
