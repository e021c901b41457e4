"""Writes of the Services page and API: start, stop or restart a server now; start at boot.

"Start at boot" is a field of each service's settings row; Start and Stop act now, and a Stop
lasts until a Start or the next boot (nasui.lib.switch holds that rule).
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError

from nasui.lib.switch import ACTIONS
from sharing.control.selectors import service_get, service_runtime
from sharing.runtime import ApplyError


def service_act(*, name: str, action: str) -> dict[str, Any]:
    """Start, stop or restart a service now; ValidationError (naming `action`) if it refuses."""
    server = service_runtime(name)
    if action not in ACTIONS:
        raise ValidationError({"action": f"Unknown action {action!r}; use start, stop or restart."})
    try:
        server.control(action)
    except ApplyError as exc:
        raise ValidationError(str(exc)) from exc
    return service_get(name)


def service_enable_set(*, name: str, enable: bool) -> dict[str, Any]:
    """Turn a service's start at boot on or off; what runs now is left as it is."""
    row = service_runtime(name).settings()
    row.start_at_boot = enable
    row.save(update_fields=["start_at_boot"])
    return service_get(name)
