"""The UPS with real NUT: dummy-ups reads a .dev file the test rewrites (OL -> OB -> OB LB),
the panel's upsd listens on a free loopback port, and the panel reads, alerts and shuts down."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError

from monitoring.alerting.services.lifecycle import evaluate
from monitoring.models import AlertRecord
from nasui.lib.net import free_loopback_port
from system.models import UpsSettings
from system.ups import selectors, services
from system.ups.engine import daemons, status
from system.ups.runtime import UpsRuntime

pytestmark = [
    pytest.mark.django_db,
]


@dataclass
class Nut:
    dev: Path
    port: int
    runtime: UpsRuntime
    upsmon_called: Path
    stamp: int = 0

    def set(self, flags: str, charge: int = 100) -> None:
        """Rewrite the .dev file, then wait until upsd reports the new status."""
        text = (f"ups.status: {flags}\nbattery.charge: {charge}\nbattery.runtime: {charge * 12}\n"
                "ups.load: 23\ninput.voltage: 229.5\n")  # fmt: skip
        self.dev.write_text(text)
        # dummy-ups re-reads the file when its mtime (in whole seconds) moves on
        self.stamp = max(int(time.time()), self.stamp + 1)
        os.utime(self.dev, (self.stamp, self.stamp))
        wanted = set(flags.split())  # upsd may add FSD (a primary upsmon's forced shutdown)
        wait_for(lambda: set(status.read_status("127.0.0.1", self.port, "ups").flags) - {"FSD"}
                 == wanted, what=lambda: status.upsc("127.0.0.1", self.port, "ups"))  # fmt: skip


def wait_for(
    condition: Callable[[], object], timeout: float = 15.0, what: Callable[[], object] = str
) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if condition():
                return
        except status.NutError:
            pass  # upsd not yet connected to a restarted driver
        time.sleep(0.2)
    raise AssertionError(f"timed out: {what()}")


def logins(port: int) -> int:
    with status.NutClient("127.0.0.1", port) as client:
        return int(client.ask("GET NUMLOGINS ups").split()[-1])


@pytest.fixture
def nut(settings, tmp_path: Path, monkeypatch) -> Iterator[Nut]:
    """NUT run by the panel's runtime on a dummy UPS; upsmon's SHUTDOWNCMD only leaves a mark."""
    settings.DATA_DIR = tmp_path / "data"
    settings.NASUI_UPS_PORT = free_loopback_port()
    settings.NASUI_UPS_POWEROFF = "record"
    called = tmp_path / "upsmon-called"
    monkeypatch.setattr(selectors, "shutdown_command", lambda: ["/usr/bin/touch", str(called)])
    dev = tmp_path / "ups.dev"
    dev.write_text("ups.status: OL\nbattery.charge: 100\nbattery.runtime: 1200\nups.load: 23\n"
                   "input.voltage: 229.5\n")  # fmt: skip
    services.ups_update(mode="dummy", dummy_file=str(dev), shutdown_policy="low_battery")
    runtime = UpsRuntime()
    try:
        assert runtime.supervise() is not None
        found = Nut(dev, settings.NASUI_UPS_PORT, runtime, called)
        found.set("OL")  # upsd says WAIT until the driver's first data
        yield found
    finally:
        runtime.shutdown()


def test_the_status_is_shown_through_the_api_and_the_page(nut: Nut, admin_client) -> None:
    body = admin_client.get("/api/system/ups/").json()
    assert body["mode"] == "dummy"
    assert body["ups"]["status"] == "OL"
    assert body["ups"]["charge"] == 100.0
    assert body["ups"]["runtime"] == 1200
    assert body["ups"]["load"] == 23.0
    assert body["ups"]["input_voltage"] == 229.5
    page = admin_client.get("/system/ups/").content.decode()
    assert 'data-testid="ups-charge">100%' in page
    assert "On line" in page
    dashboard = admin_client.get("/").content.decode()
    assert 'data-testid="ups-tile-charge">100% charged' in dashboard


def test_nut_own_client_reads_what_the_panel_reads(nut: Nut) -> None:
    assert status.upsc("127.0.0.1", nut.port, "ups")["ups.status"] == "OL"
    nut.set("OB", charge=80)
    assert status.upsc("127.0.0.1", nut.port, "ups")["battery.charge"] == "80"


def test_on_battery_raises_the_alert_and_on_line_clears_it(nut: Nut) -> None:
    assert evaluate(only=["ups"]).raised == []
    nut.set("OB", charge=90)
    assert evaluate(only=["ups"]).raised == ["ups_on_battery:ups"]
    open_alert = AlertRecord.objects.get(cleared_at=None)
    assert open_alert.level == "warning"
    assert open_alert.title == "UPS on battery"
    nut.set("OB LB", charge=8)
    assert evaluate(only=["ups"]).raised == ["ups_battery_low:ups"]
    assert AlertRecord.objects.get(key="ups_battery_low:ups").level == "danger"
    nut.set("OL CHRG", charge=10)
    outcome = evaluate(only=["ups"])
    assert sorted(outcome.cleared) == ["ups_battery_low:ups", "ups_on_battery:ups"]
    assert not AlertRecord.objects.filter(cleared_at=None).exists()


def test_low_battery_runs_the_shutdown_once(nut: Nut, tank, smb_service) -> None:
    from sharing.smb import runtime as smb_runtime

    assert smb_runtime.smb_engine().is_running()
    nut.set("OB", charge=50)
    assert services.ups_watch() is None  # on battery, policy: low battery only
    nut.set("OB LB", charge=5)
    assert services.ups_watch() == "shutdown: the UPS battery is low"
    record = selectors.shutdown_record()
    assert record is not None
    assert record["failed"] == []
    assert [step["name"] for step in record["steps"]] == [
        "stop sharing", "sync", "export pools", "power off"]  # fmt: skip
    assert not smb_runtime.smb_engine().is_running()
    assert tank.list_pools() == []  # exported in the sandbox engine
    assert (Path(selectors.ups_root()) / "poweroff").exists()  # recorded, not powered off
    assert services.ups_shutdown(reason="again") is None  # once per boot
    wait_for(nut.upsmon_called.exists)  # NUT's own upsmon called its SHUTDOWNCMD too
    wait_for(lambda: "upsmon" not in nut.runtime.daemons.running())  # it exits after
    nut.runtime.supervise()
    assert "upsmon" not in nut.runtime.daemons.running()  # not started again in this boot


def test_after_n_seconds_on_battery_the_shutdown_runs_even_if_a_step_fails(
    nut, monkeypatch
) -> None:
    services.ups_update(shutdown_policy="battery_seconds", battery_seconds=30)

    def broken() -> None:
        raise RuntimeError("iSCSI would not stop")

    steps = [("stop sharing", broken), *services.STEPS[1:]]
    monkeypatch.setattr(services, "STEPS", steps)
    nut.set("OB", charge=70)
    assert services.ups_watch(now=1000.0) is None
    assert services.ups_watch(now=1029.0) is None
    assert services.ups_watch(now=1031.0) == "shutdown: on battery for 31 s (limit 30 s)"
    record = selectors.shutdown_record()
    assert record is not None
    assert record["failed"] == ["stop sharing"]
    assert record["steps"][-1]["ok"]  # powered off (recorded) all the same


def test_other_machines_read_the_ups_with_the_monitor_user(nut: Nut, admin_client) -> None:
    services.ups_update(server_enabled=True, server_address="127.0.0.1",
                        monitor_user="slave", monitor_password="m0nitor!")  # fmt: skip
    assert "restarted" in (nut.runtime.supervise() or "")
    nut.set("OL")
    with status.NutClient("127.0.0.1", nut.port) as client:
        client.login("slave", "m0nitor!", "ups")  # what a secondary upsmon does
        assert client.get("ups", "ups.status") == "OL"
    with status.NutClient("127.0.0.1", nut.port) as client, pytest.raises(status.NutError):
        client.login("slave", "wrong", "ups")
    users = (selectors.nut_paths().conf / "upsd.users").read_text()
    assert "[slave]" in users
    assert "upsmon secondary" in users
    body = admin_client.get("/api/system/ups/").json()
    assert "monitor_password" not in body
    assert body["monitor_password_set"] is True
    assert "m0nitor!" not in admin_client.get("/system/ups/").content.decode()


def test_a_secondary_upsmon_elsewhere_accepts_the_server(nut: Nut, tmp_path: Path) -> None:
    services.ups_update(server_enabled=True, server_address="127.0.0.1",
                        monitor_user="slave", monitor_password="m0nitor!")  # fmt: skip
    nut.runtime.supervise()
    nut.set("OL")
    nut.runtime.daemons.stop("upsmon")  # upsmon 2.8: one per machine (its pid file is fixed)
    conf = tmp_path / "other"
    conf.mkdir()
    (conf / "upsmon.conf").write_text(
        f'RUN_AS_USER root\nMONITOR ups@127.0.0.1:{nut.port} 1 slave "m0nitor!" secondary\n'
        f'SHUTDOWNCMD "/bin/true"\nPOWERDOWNFLAG {tmp_path}/killpower\n'
    )
    env = {"NUT_CONFPATH": str(conf), "NUT_STATEPATH": str(conf), "NUT_ALTPIDPATH": str(conf),
           "PATH": "/usr/bin:/bin"}  # fmt: skip
    daemons.clear_stale_pid(daemons.UPSMON_PID)  # its child may be a zombie nobody reaped yet
    with (tmp_path / "upsmon.log").open("wb") as log:
        proc = subprocess.Popen(["/lib/nut/upsmon", "-F"], env=env, stdout=log, stderr=log,
                                start_new_session=True)  # fmt: skip
    try:
        # upsd counts the logins on its UPS: the other machine's upsmon logged in as monitor.
        wait_for(lambda: logins(nut.port) == 1)
    finally:
        os.killpg(proc.pid, signal.SIGTERM)  # its privileged parent and its child
        proc.wait(timeout=10)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        (
            {
                "mode": "network",
                "remote_host": "bad host!",
                "remote_user": "u",
                "remote_password": "p",
            },
            "remote_host",
        ),
        ({"mode": "network", "remote_host": "10.0.0.2", "remote_port": 0}, "remote_port"),
        ({"name": "two words"}, "name"),
        ({"battery_seconds": 1}, "battery_seconds"),
        ({"battery_seconds": "soon"}, "battery_seconds"),
        ({"mode": "dummy", "dummy_file": "ups.dev"}, "dummy_file"),
        ({"mode": "usb", "server_enabled": True, "server_address": "0.0.0.0"}, "monitor_password"),  # noqa: S104
        ({"server_address": "everywhere"}, "server_address"),
        ({"mode": "teleport"}, "mode"),
    ],
)
def test_bad_input_is_refused_on_its_field_and_changes_nothing(
    admin_client, settings, tmp_path, body, field
) -> None:
    settings.DATA_DIR = tmp_path
    before = UpsSettings.load()
    answer = admin_client.put("/api/system/ups/", body, content_type="application/json")
    assert answer.status_code == 400, answer.content
    assert field in answer.json()["fields"]
    after = UpsSettings.load()
    assert [getattr(after, f) for f in services.FIELDS] == [
        getattr(before, f) for f in services.FIELDS
    ]
    form = {"mode": "off", "name": "ups", "remote_port": 3493, "shutdown_policy": "low_battery",
            "battery_seconds": 300, "server_address": "127.0.0.1", "monitor_user": "monitor",
            **body}  # fmt: skip
    page = admin_client.post("/system/ups/", {k: v for k, v in form.items() if v is not False})
    assert page.status_code == 400
    assert field in page.context["form"].errors
    assert UpsSettings.load().mode == before.mode


def test_secrets_are_write_only_and_kept_when_left_empty(admin_client, settings, tmp_path) -> None:
    settings.DATA_DIR = tmp_path
    body = {"mode": "network", "remote_host": "ups.example", "remote_user": "mon",
            "remote_password": "s3cret"}  # fmt: skip
    answer = admin_client.put("/api/system/ups/", body, content_type="application/json")
    assert answer.status_code == 200, answer.content
    assert "remote_password" not in answer.json()
    assert answer.json()["remote_password_set"]
    admin_client.put("/api/system/ups/", {"remote_password": ""}, content_type="application/json")
    assert UpsSettings.load().remote_password == "s3cret"
    with pytest.raises(ValidationError):
        services.ups_update(server_enabled=True, monitor_password="x")  # network UPS: not served
    page = admin_client.get("/system/ups/").content.decode()
    assert "s3cret" not in page
    assert "s3cret" in (tmp_path / "ups" / "conf" / "upsmon.conf").read_text()


def test_the_ups_figures_are_sampled_and_drawn_on_the_monitoring_page(
    nut: Nut, admin_client
) -> None:
    from monitoring.metrics.services import sample_record

    nut.set("OB", charge=80)
    values = sample_record().values
    assert (values["ups.charge"], values["ups.runtime"], values["ups.load"]) == (80, 960, 23)
    assert values["ups.input_voltage"] == 229.5
    page = admin_client.get("/monitoring/").content.decode()
    assert "UPS battery and load" in page
    assert "UPS runtime on battery" in page


def test_without_a_ups_nothing_is_sampled_and_no_ups_graph_is_drawn(admin_client) -> None:
    from monitoring.metrics.services import sample_record

    sample = sample_record()
    assert not [name for name in sample.values if name.startswith("ups.")]
    assert "ups" not in sample.info["unavailable"]
    assert "UPS battery" not in admin_client.get("/monitoring/").content.decode()
