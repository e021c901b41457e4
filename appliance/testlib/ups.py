"""The UPS on the appliance: NUT's dummy-ups driver reads a .dev file the test writes over SSH.

On battery raises the alert; low battery makes the panel shut the box down cleanly (sharing
stopped, synced, pools exported, powered off); what was written just before reads back after
the next boot. The .dev file lives in /run (gone at power-off): the box must not boot into
the same low battery and shut down again, as a real one would not once the power is back.
"""

from __future__ import annotations

import time

import pytest

from appliance.testlib.config import ResultDict
from appliance.testlib.panel import Client
from appliance.testlib.poll import poll
from appliance.testlib.vm import VM
from replication.connections.engine import ssh
from replication.connections.engine.hostkeys import HostKey

DEV = "/run/nasui-ups-test.dev"
WRITTEN = "/tank/family/written-before-the-power-failed.bin"
STATUS = "ups.status: {}\nbattery.charge: {}\nbattery.runtime: {}\nups.load: 20\n"


def _remote(vm: VM, state: ResultDict) -> ssh.Remote:
    """Root on the appliance with the key pairing authorized, under its pinned host key; at
    the static address when a network change gave it one (state["ups_port"])."""
    pinned = tuple(HostKey(kind, blob) for kind, blob in state["ssh"]["host_keys"])
    port = state.get("ups_port", vm.ssh_port)
    return ssh.Remote("127.0.0.1", port, "root", state["ssh"]["private"], pinned)


def _power(vm: VM, state: ResultDict, flags: str, charge: int, runtime: int) -> None:
    """What the simulated UPS says from now on."""
    text = STATUS.format(flags, charge, runtime)
    script = f"printf '%s' '{text}' > {DEV}.new && mv {DEV}.new {DEV}"
    ssh.run(_remote(vm, state), ["sh", "-c", script])


def _ups(client: Client) -> ResultDict:
    status, body = client.api("GET", "/api/system/ups/")
    assert status == 200, body
    return dict(body)


def _status(client: Client) -> str:
    return str((_ups(client).get("ups") or {}).get("status", ""))


def _open_ups_alerts(client: Client) -> list[str]:
    status, body = client.api("GET", "/api/alerts/?state=open")
    assert status == 200, body
    return [a["title"] for a in body["results"] if "UPS" in a["title"]]


def use_dummy_ups(vm: VM, state: ResultDict, client: Client) -> None:
    """The panel on the simulated UPS, on line, shutting down at low battery (the box is at
    its static address: SSH through that address's forwarded port)."""
    state["ups_port"] = vm.new_address_ssh_port
    _power(vm, state, "OL", 100, 1800)
    body = {"mode": "dummy", "dummy_file": DEV, "shutdown_policy": "low_battery"}
    status, saved = client.api("PUT", "/api/system/ups/", body)
    assert status == 200, saved
    seen = poll(lambda: _status(client), lambda s: s == "OL", 120)
    assert seen == "OL", _ups(client)


def power_fails(vm: VM, state: ResultDict, client: Client) -> float:
    """On battery (the alert rises), a file written, then low battery: the box powers itself
    off. Returns the seconds from low battery to qemu's exit."""
    _power(vm, state, "OB", 60, 600)
    alerts = poll(lambda: _open_ups_alerts(client), bool, 150)
    assert any("battery" in a for a in alerts), (alerts, _ups(client))
    remote = _remote(vm, state)
    ssh.run(remote, ["sh", "-c", f"head -c 4M /dev/urandom > {WRITTEN}"], timeout=120)
    state["ups_written"] = ssh.run(remote, ["sha256sum", WRITTEN]).split()[0]
    _power(vm, state, "OB LB", 5, 60)
    started = time.monotonic()
    assert vm.proc is not None
    try:
        vm.proc.wait(240)
    except Exception:
        pytest.fail(f"the box did not power itself off at low battery:\n{vm.tail()}")
    return time.monotonic() - started


def check_after_boot(vm: VM, state: ResultDict, client: Client) -> None:
    """The last boot's UPS shutdown: every step done, the pool exported; the file written just
    before reads back; the power is back: the alert clears. (Back on DHCP: the usual port.)"""
    state.pop("ups_port", None)
    record = _ups(client)["last_shutdown"]
    assert record is not None, _ups(client)
    assert record["failed"] == [], record
    steps = {s["name"]: s["detail"] for s in record["steps"]}
    assert "tank" in steps["export pools"], record
    assert steps["power off"] == "systemctl poweroff", record
    read = ssh.run(_remote(vm, state), ["sha256sum", WRITTEN]).split()[0]
    assert read == state["ups_written"]
    _power(vm, state, "OL", 100, 1800)
    assert poll(lambda: _status(client), lambda s: s == "OL", 120) == "OL", _ups(client)
    assert poll(lambda: _open_ups_alerts(client), lambda a: not a, 150) == [], _ups(client)
