"""The UPS on the appliance: NUT's dummy-ups driver reads a .dev file the test writes over SSH.

On battery raises the alert; low battery makes the panel shut the box down cleanly (sharing
stopped, synced, pools exported, powered off), which the shutdown's record on the stick's data
partition shows (read offline: the box is off); what was written just before reads back after
the next boot. The .dev file lives in /run (gone at power-off): the box does not boot into the
same low battery, as a real one would not once the power is back.
"""

from __future__ import annotations

import json
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from appliance.testlib.config import ResultDict
from appliance.testlib.image import gpt_partition
from appliance.testlib.panel import Client
from appliance.testlib.poll import poll
from appliance.testlib.ssh import root
from appliance.testlib.vm import VM
from replication.connections.engine import ssh

DEV = "/run/nasui-ups-test.dev"
WRITTEN = "/tank/family/written-before-the-power-failed.bin"
STATUS = "ups.status: {}\nbattery.charge: {}\nbattery.runtime: {}\nups.load: 20\n"
RECORD = "/ups/shutdown.json"  # under the data partition (/var/lib/nasui)


def _power(vm: VM, state: ResultDict, flags: str, charge: int, runtime: int) -> None:
    """What the simulated UPS says from now on."""
    text = STATUS.format(flags, charge, runtime)
    script = f"printf '%s' '{text}' > {DEV}.new && mv {DEV}.new {DEV}"
    ssh.run(root(vm, state), ["sh", "-c", script])


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


def power_fails(vm: VM, state: ResultDict, client: Client) -> float:
    """The panel on the simulated UPS, on line; then on battery (the alert rises), a file
    written, then low battery: the box powers itself off. Seconds from low battery to off."""
    _power(vm, state, "OL", 100, 1800)
    body = {"mode": "dummy", "dummy_file": DEV, "shutdown_policy": "low_battery"}
    status, saved = client.api("PUT", "/api/system/ups/", body)
    assert status == 200, saved
    assert poll(lambda: _status(client), lambda s: s == "OL", 120) == "OL", _ups(client)
    _power(vm, state, "OB", 60, 600)
    alerts = poll(lambda: _open_ups_alerts(client), bool, 150)
    assert any("battery" in a for a in alerts), (alerts, _ups(client))
    remote = root(vm, state)
    ssh.run(remote, ["sh", "-c", f"head -c 4M /dev/urandom > {WRITTEN}"], timeout=120)
    state["ups_written"] = ssh.run(remote, ["sha256sum", WRITTEN]).split()[0]
    _power(vm, state, "OB LB", 5, 60)
    started = time.monotonic()
    assert vm.proc is not None
    try:
        vm.proc.wait(240)
    except subprocess.TimeoutExpired:
        pytest.fail(f"the box did not power itself off at low battery:\n{vm.tail()}")
    return time.monotonic() - started


def assert_shut_down_cleanly(vm: VM) -> None:
    """The record the shutdown left on the (powered-off) stick: sharing stopped, synced, the
    pool exported, nothing failed. Its power-off line may be missing: systemd stops the writer
    as it powers off."""
    start, sectors, _ = gpt_partition(vm.system_disk, 5)
    with tempfile.TemporaryDirectory() as tmp:
        part = Path(tmp) / "data.ext4"
        copy = [
            "dd",
            f"if={vm.system_disk}",
            f"of={part}",
            "bs=4M",
            f"skip={start * 512}",
            f"count={sectors * 512}",
            "iflag=skip_bytes,count_bytes",
            "conv=sparse",
            "status=none",
        ]
        subprocess.run(copy, check=True)
        read = ["debugfs", "-R", f"cat {RECORD}", str(part)]
        text = subprocess.run(read, check=True, capture_output=True, text=True).stdout
    record = json.loads(text)
    assert record["failed"] == [], record
    steps = {s["name"]: s["detail"] for s in record["steps"] if s["ok"]}
    assert [name for name in steps if name != "power off"] == [
        "stop sharing",
        "sync",
        "export pools",
    ], record
    assert "tank" in steps["export pools"], record


def assert_written_reads_back(vm: VM, state: ResultDict) -> None:
    """The file written on battery, just before the power went, is whole after the boot."""
    read = ssh.run(root(vm, state), ["sha256sum", WRITTEN]).split()[0]
    assert read == state["ups_written"]
