"""The UPS as the panel reads it: the settings row, NUT's plan made from it, the live status,
the last shutdown's record, and the alerts it raises."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings

from monitoring.metrics.engine.alerts import Alert
from nasui.lib.files import read_json_object
from nasui.lib.switch import current_boot
from system.models import UpsSettings
from system.ups.engine import config, status
from system.ups.engine.daemons import NutPaths

PANEL_USER = "nasui"  # the panel's own upsmon account on its upsd
TILE_TIMEOUT = 1.0


@dataclass(frozen=True)
class Reading:
    """The UPS now: not set up, read, or why it could not be read."""

    configured: bool
    status: status.UpsStatus | None = None
    error: str = ""


def ups_get() -> UpsSettings:
    """The UPS settings row."""
    return UpsSettings.load()


def ups_root() -> Path:
    """Where the panel keeps NUT's files and the UPS's records."""
    return Path(settings.DATA_DIR) / "ups"


def nut_paths() -> NutPaths:
    """The panel's NUT directories (NUT_CONFPATH, NUT_STATEPATH, logs)."""
    return NutPaths.under(ups_root())


def shutdown_command() -> list[str]:
    """What upsmon runs at low battery: this panel's own shutdown sequence."""
    return [
        sys.executable,
        str(Path(settings.BASE_DIR) / "manage.py"),
        "ups_shutdown",
        "--reason",
        "upsmon",
    ]


def _listen(row: UpsSettings) -> list[tuple[str, int]]:
    port = settings.NASUI_UPS_PORT
    if row.server_enabled and row.server_address in ("0.0.0.0", "::"):  # noqa: S104
        return [(row.server_address, port)]  # every address, loopback included
    addresses = ["127.0.0.1"]
    if row.server_enabled and row.server_address != "127.0.0.1":
        addresses.append(row.server_address)
    return [(address, port) for address in addresses]


def plan_of(row: UpsSettings) -> config.NutPlan:
    """NUT's configuration for the row."""
    accounts = [config.Account(PANEL_USER, row.panel_password or "-", "primary")]
    if row.server_enabled and row.monitor_password:
        accounts.append(config.Account(row.monitor_user, row.monitor_password, "secondary"))
    remote = row.mode == UpsSettings.Mode.NETWORK
    return config.NutPlan(
        mode=row.mode,
        name=row.name,
        port=row.dummy_file if row.mode == UpsSettings.Mode.DUMMY else "auto",
        remote_host=row.remote_host if remote else "",
        remote_port=row.remote_port,
        remote_user=row.remote_user if remote else "",
        remote_password=row.remote_password if remote else "",
        listen=[] if remote else _listen(row),
        accounts=[] if remote else accounts,
        shutdown_command=shutdown_command(),
        state_dir=nut_paths().state,
    )


def ups_reading(row: UpsSettings | None = None, *, timeout: float = status.TIMEOUT) -> Reading:
    """The UPS's status read from upsd now (the panel's own, or the remote one)."""
    row = row or ups_get()
    if row.mode == UpsSettings.Mode.OFF:
        return Reading(configured=False)
    host, port, name = plan_of(row).monitor_target()
    try:
        return Reading(True, status.read_status(host, port, name, timeout=timeout))
    except status.NutError as exc:
        return Reading(True, error=str(exc))


def ups_gauges() -> dict[str, float]:
    """The UPS's figures for the graphs ({} when there is no UPS or it cannot be read now:
    the graphs then have a gap, and the page and the alerts say why)."""
    reading = ups_reading(timeout=TILE_TIMEOUT)
    ups = reading.status
    if ups is None:
        return {}
    figures = {"ups.charge": ups.charge, "ups.runtime": ups.runtime, "ups.load": ups.load,
               "ups.input_voltage": ups.input_voltage}  # fmt: skip
    return {name: float(value) for name, value in figures.items() if value is not None}


def tile_reading() -> Reading:
    """The dashboard's tile: a short wait, so an unreachable UPS never holds the page."""
    return ups_reading(timeout=TILE_TIMEOUT)


def shutdown_record() -> dict[str, Any] | None:
    """The last UPS shutdown this box ran (its steps and failures), if any."""
    return read_json_object(ups_root() / "shutdown.json")


def shutdown_ran_this_boot() -> bool:
    """Whether the UPS shutdown has run (or is running) since this boot."""
    record = shutdown_record()
    return record is not None and record.get("boot") == current_boot()


def ups_alerts() -> list[Alert]:
    """The alert source: on battery (warning), battery low (danger); none on line."""
    row = ups_get()
    reading = ups_reading(row)
    if not reading.configured:
        return []
    if reading.status is None:
        raise status.NutError(reading.error)  # unreadable: keep the alerts as they are
    found = []
    when = (
        f"after {row.battery_seconds} s on battery"
        if row.shutdown_policy == UpsSettings.Policy.BATTERY_SECONDS
        else "when the battery is low"
    )
    figures = _figures(reading.status)
    if reading.status.on_battery:
        text = f"The power is out and the box runs on its UPS ({figures}). It shuts down {when}."
        found.append(Alert("warning", "ups_on_battery", row.name, "UPS on battery", text))
    if reading.status.low_battery:
        text = f"The UPS battery is nearly empty ({figures}): the box shuts down now."
        found.append(Alert("danger", "ups_battery_low", row.name, "UPS battery low", text))
    return found


def _figures(ups: status.UpsStatus) -> str:
    parts = []
    if ups.charge is not None:
        parts.append(f"charge {ups.charge:g}%")
    if ups.runtime is not None:
        parts.append(f"about {ups.runtime // 60} min left")
    return ", ".join(parts) or ups.text
