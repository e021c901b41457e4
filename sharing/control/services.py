"""Writes of the Services page and API: start, stop or restart a server now; start at boot.

"Start at boot" is a field of each service's settings row; Start and Stop act now, and a Stop
lasts until a Start or the next boot (nasui.lib.switch holds that rule).
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.exceptions import ValidationError

from nasui import events
from nasui.lib.switch import ACTIONS
from nasui.validation import refusal
from sharing.apply import configuration_lock
from sharing.control.selectors import service_get, service_runtime
from sharing.runtime import ApplyError, runtimes

log = logging.getLogger(__name__)


def service_act(*, name: str, action: str) -> dict[str, Any]:
    """Start, stop or restart a service now; ValidationError (naming `action`) if it refuses."""
    server = service_runtime(name)
    if action not in ACTIONS:
        raise ValidationError({"action": f"Unknown action {action!r}; use start, stop or restart."})
    try:
        server.control(action)
    except ApplyError as exc:
        raise ValidationError(str(exc)) from exc
    return _announced(service_get(name))


def service_enable_set(*, name: str, enable: bool) -> dict[str, Any]:
    """Turn a service's start at boot on or off; what runs now is left as it is."""
    row = service_runtime(name).settings()
    row.start_at_boot = enable
    row.save(update_fields=["start_at_boot"])
    return _announced(service_get(name))


def _announced(service: dict[str, Any]) -> dict[str, Any]:
    """Tell the event stream where a service stands now; hand the description on."""
    events.publish("service", **{k: v for k, v in service.items() if k != "actions"})
    return service


def keys_changed(name: str, locked: bool) -> None:
    """Give every server the shares and LUNs it may serve now that `name` locks or unlocked.

    Before a lock (locked=True) the servers must let go, or ZFS cannot unmount: a refusal
    then stops the lock. After an unlock a refusal is logged: the data is open either way,
    and the Services page shows what each server serves.
    """
    for server in runtimes():
        try:
            with configuration_lock(server.lock):
                server.apply()
        except ApplyError as exc:
            if locked:
                raise refusal(f"{name} stays unlocked: {exc}") from exc
            log.warning("after unlocking %s, %s could not be applied: %s", name, server.name, exc)
