"""The panel's services (iSCSI, SMB, NFS) as the Services page and API see them: one shape each.

Reads (`service_list`, `service_get`) and the two writes (`service_act`, `service_enable_set`).
"Start at boot" is a field of each service's settings row; Start and Stop act now, and a Stop
lasts until a Start or the next boot (nasui.lib.switch holds that rule).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError

from nasui.lib.switch import ACTIONS
from sharing.iscsi import runtime
from sharing.models import IscsiSettings, NfsSettings, SmbSettings
from sharing.smb import runtime as files_runtime


class UnknownService(LookupError):
    """A service name the panel does not have."""


@dataclass(frozen=True)
class Service:
    """How to read, control and enable one service."""

    label: str
    row: Callable[[], Any]  # the settings row holding start_at_boot
    status: Callable[[], dict[str, Any]]
    control: Callable[[str], None]
    describe: Callable[[dict[str, Any]], dict[str, Any]]


def _iscsi(status: dict[str, Any]) -> dict[str, Any]:
    """The target's engine and port; its connected initiators."""
    names = {"lio": "LIO (kernel target)", "tgt": "tgt (userspace tgtd)"}
    return {
        "engine": names.get(status["engine"], status["engine"]),
        "port": IscsiSettings.load().port,
        "sessions": status.get("sessions", []),
    }


def _smb(status: dict[str, Any]) -> dict[str, Any]:
    """Whose smbd runs (the panel's wrapped one or the system's) and its port."""
    mode = "system smbd" if status["mode"] == "system" else "wrapped smbd (private accounts)"
    return {"engine": mode, "port": status["port"]}


def _nfs(status: dict[str, Any]) -> dict[str, Any]:
    """The kernel server, or why exports are not served here."""
    if not status["served"]:
        return {"engine": f"not served here (NASUI_NFS={settings.NASUI_NFS})", "port": None}
    return {"engine": "kernel NFS server", "port": 2049}


SERVICES: dict[str, Service] = {
    "iscsi": Service("iSCSI", IscsiSettings.load, runtime.service_status, runtime.control, _iscsi),
    "smb": Service(
        "SMB", SmbSettings.load, files_runtime.service_status, files_runtime.control, _smb
    ),
    "nfs": Service(
        "NFS", NfsSettings.load, files_runtime.nfs_status, files_runtime.nfs_control, _nfs
    ),
}
ERRORS = (runtime.IscsiApplyError, files_runtime.FilesApplyError)


def _service(name: str) -> Service:
    """The service called `name`; UnknownService naming the ones there are."""
    try:
        return SERVICES[name]
    except KeyError:
        known = ", ".join(SERVICES)
        raise UnknownService(f"Unknown service {name!r}; the services are {known}.") from None


def service_check(name: str) -> None:
    """UnknownService unless `name` is one of the services."""
    _service(name)


def service_get(name: str) -> dict[str, Any]:
    """One service: engine, port, running state, start at boot, the actions that make sense."""
    service = _service(name)
    status = service.status()
    return {
        "name": name,
        "label": service.label,
        "served": status.get("served", True),
        "running": bool(status["running"]),
        "enable": bool(service.row().start_at_boot),
        "actions": list(status.get("actions", [])),
        "message": status.get("message", ""),
        "sessions": [],
        **service.describe(status),
    }


def service_list() -> list[dict[str, Any]]:
    """Every service, in the order of the page."""
    return [service_get(name) for name in SERVICES]


def service_act(*, name: str, action: str) -> dict[str, Any]:
    """Start, stop or restart a service now; ValidationError (naming `action`) if it refuses."""
    service = _service(name)
    if action not in ACTIONS:
        raise ValidationError({"action": f"Unknown action {action!r}; use start, stop or restart."})
    try:
        service.control(action)
    except ERRORS as exc:
        raise ValidationError(str(exc)) from exc
    return service_get(name)


def service_enable_set(*, name: str, enable: bool) -> dict[str, Any]:
    """Turn a service's start at boot on or off; what runs now is left as it is."""
    row = _service(name).row()
    row.start_at_boot = enable
    row.save(update_fields=["start_at_boot"])
    return service_get(name)


__all__ = [
    "SERVICES",
    "UnknownService",
    "service_act",
    "service_check",
    "service_enable_set",
    "service_get",
    "service_list",
]
