"""UPS writes: the settings (checked, saved, NUT's files written), the watcher's step, and the
shutdown sequence it or upsmon starts (once per boot)."""

from __future__ import annotations

import json
import logging
import os
import secrets
import time
from typing import Any

from django.conf import settings
from django.db import transaction

from nasui.lib.commands import run_checked
from nasui.lib.files import read_json_object, write_atomic
from nasui.lib.locks import file_lock
from nasui.lib.switch import current_boot
from nasui.validation import fail
from sharing.runtime import runtimes
from storage.engine import get_engine
from system.models import UpsSettings
from system.ups import runtime, selectors
from system.ups.engine import config, policy
from system.ups.engine.shutdown import Report, Step, run_sequence

log = logging.getLogger(__name__)
FIELDS = (
    "mode", "name", "dummy_file", "remote_host", "remote_port", "remote_user",
    "remote_password", "shutdown_policy", "battery_seconds", "server_enabled",
    "server_address", "monitor_user", "monitor_password",
)  # fmt: skip
SECRETS = ("remote_password", "monitor_password")
POWEROFF = ["systemctl", "poweroff"]


def _checked(row: UpsSettings, values: dict[str, Any]) -> None:
    """Refuse what NUT cannot take or what the mode needs and lacks (ConfigRefused)."""
    if row.mode not in config.MODES:
        raise config.ConfigRefused("mode", f"Choose one of: {', '.join(config.MODES)}.")
    if row.shutdown_policy not in config.POLICIES:
        choices = ", ".join(config.POLICIES)
        raise config.ConfigRefused("shutdown_policy", f"Choose one of: {choices}.")
    config.check_name(row.name, "name", "A UPS name")
    config.check_port(row.remote_port, "remote_port")
    config.check_seconds(row.battery_seconds, "battery_seconds")
    config.check_name(row.monitor_user, "monitor_user", "A user name")
    row.server_address = config.check_address(row.server_address, "server_address")
    for name in SECRETS:
        if values.get(name):
            config.check_secret(values[name], name)
    if row.mode == UpsSettings.Mode.DUMMY:
        row.dummy_file = config.check_dev_file(row.dummy_file, "dummy_file")
    if row.mode == UpsSettings.Mode.NETWORK:
        _check_remote(row)
    if row.server_enabled:
        _check_server(row)


def _check_remote(row: UpsSettings) -> None:
    """A network UPS: the NUT server's host and a login on it; nothing to serve onwards."""
    if not row.remote_host:
        raise config.ConfigRefused("remote_host", "Give the host of the NUT server.")
    row.remote_host = config.check_host(row.remote_host, "remote_host")
    config.check_name(row.remote_user, "remote_user", "A user name")
    if not row.remote_password:
        raise config.ConfigRefused("remote_password", "Give the password of that NUT user.")
    if row.server_enabled:
        raise config.ConfigRefused(
            "server_enabled", "Only a UPS connected to this box can be served to others."
        )


def _check_server(row: UpsSettings) -> None:
    """Serving the UPS: a monitor user of its own, with a password."""
    if row.monitor_user == selectors.PANEL_USER:
        raise config.ConfigRefused("monitor_user", f"“{selectors.PANEL_USER}” is the panel's user.")
    if not row.monitor_password:
        raise config.ConfigRefused("monitor_password", "Give the monitor user a password.")


def ups_update(**values: Any) -> UpsSettings:
    """Change the UPS settings (fields left out, or a secret left empty, are kept); refusals
    name their field and change nothing. NUT's files are written; the supervisor applies them."""
    unknown = set(values) - set(FIELDS)
    if unknown:
        raise fail(sorted(unknown)[0], "Not a UPS setting.")
    with transaction.atomic():
        row = UpsSettings.objects.select_for_update().get(pk=selectors.ups_get().pk)
        for name, value in values.items():
            if name in SECRETS and not value:
                continue  # write-only: empty keeps the one set
            setattr(
                row,
                name,
                value.strip() if isinstance(value, str) and name not in SECRETS else value,
            )
        try:
            _checked(row, values)
        except config.ConfigRefused as exc:
            raise fail(exc.field, str(exc)) from exc
        if not row.panel_password:
            row.panel_password = secrets.token_hex(16)
        row.save()
        runtime.write_config(row)
    return row


# -- the watcher ----------------------------------------------------------------------------


def ups_watch(*, now: float | None = None) -> str | None:
    """One look at the UPS (the supervisor's every check): keep since when it is on battery,
    and start the shutdown when the policy says so; what happened, in words, or None."""
    row = selectors.ups_get()
    reading = selectors.ups_reading(row)
    state_file = selectors.ups_root() / "watch.json"
    if reading.status is None:
        return None  # off, or unreadable: the alert source and the page say why
    state = read_json_object(state_file) or {}
    since = state.get("on_battery_since")
    decision = policy.decide(
        reading.status,
        since=since if isinstance(since, (int, float)) else None,
        now=time.time() if now is None else now,
        policy=row.shutdown_policy,
        seconds=row.battery_seconds,
    )
    if decision.on_battery_since != since:
        state_file.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        write_atomic(state_file, json.dumps({"on_battery_since": decision.on_battery_since}))
    if decision.reason and ups_shutdown(reason=decision.reason) is not None:
        return f"shutdown: {decision.reason}"
    return None


# -- the shutdown ---------------------------------------------------------------------------


def _stop_sharing() -> str:
    """Stop every file and block server (SMB, NFS, iSCSI) through its runtime."""
    stopped, failed = [], []
    for server in runtimes():
        try:
            if not server.status().served:
                continue  # no such server on this machine
            server.control("stop")
        except Exception as exc:  # one refusing server must not keep the others serving
            failed.append(f"{server.label}: {exc}")
        else:
            stopped.append(server.label)
    if failed:
        raise RuntimeError(
            "; ".join(failed) + (f" (stopped: {', '.join(stopped)})" if stopped else "")
        )
    return "stopped " + (", ".join(stopped) or "nothing")


def _sync() -> str:
    os.sync()
    return "file systems synced"


def _export_pools() -> str:
    """Export every pool (forced: the shares were just stopped), each tried."""
    engine = get_engine()
    exported, failed = [], []
    for pool in engine.list_pools():
        try:
            engine.export_pool(pool.name, force=True)
        except Exception as exc:
            failed.append(f"{pool.name}: {exc}")
        else:
            exported.append(pool.name)
    if failed:
        raise RuntimeError("; ".join(failed))
    return "exported " + (", ".join(exported) or "no pool")


def _power_off() -> str:
    """The last step: NASUI_UPS_POWEROFF says whether it powers off or only records it."""
    if settings.NASUI_UPS_POWEROFF == "systemd":
        run_checked(POWEROFF, timeout=60)
        return "systemctl poweroff"
    write_atomic(selectors.ups_root() / "poweroff", f"{time.time()}\n")
    return "recorded (NASUI_UPS_POWEROFF=record): this machine stays on"


STEPS: list[Step] = [
    ("stop sharing", _stop_sharing),
    ("sync", _sync),
    ("export pools", _export_pools),
    ("power off", _power_off),
]


def ups_shutdown(*, reason: str) -> Report | None:
    """The shutdown sequence, once per boot (None when it already ran or is running)."""
    root = selectors.ups_root()
    record = root / "shutdown.json"
    with file_lock(root / "shutdown.lock"):
        boot = current_boot()
        if selectors.shutdown_ran_this_boot():
            log.info("UPS shutdown already ran in this boot")
            return None
        write_atomic(record, json.dumps({"boot": boot, "reason": reason, "running": True}))
        steps = STEPS[:-1]
        report = run_sequence(reason, steps)
        # The record is written before the power goes: what failed stays readable after boot.
        write_atomic(record, json.dumps({"boot": boot, **report.as_dict()}))
        final = run_sequence(reason, STEPS[-1:])
        report.steps += final.steps
        write_atomic(record, json.dumps({"boot": boot, **report.as_dict()}))
    return report
