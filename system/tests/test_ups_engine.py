"""The UPS engine without daemons: NUT's files, its answers parsed, the shutdown policy and the
shutdown sequence that goes on to power-off whatever fails."""

from __future__ import annotations

from pathlib import Path

import pytest

from system.ups.engine import config, policy, shutdown, status


def plan(**kwargs: object) -> config.NutPlan:
    base: dict[str, object] = {
        "mode": "dummy",
        "name": "ups",
        "port": "/tmp/ups.dev",
        "listen": [("127.0.0.1", 3493)],
        "accounts": [config.Account("nasui", "p4ss", "primary")],
        "shutdown_command": ["/usr/bin/python3", "/opt/manage.py", "ups_shutdown"],
        "state_dir": Path("/var/lib/nasui/ups/state"),
    }
    return config.NutPlan(**{**base, **kwargs})  # type: ignore[arg-type]


def test_a_dummy_ups_gets_a_driver_a_listener_and_a_primary_upsmon() -> None:
    files = config.render(plan())
    assert files["nut.conf"].endswith("MODE=netserver\n")
    assert '[ups]\n  driver = dummy-ups\n  port = "/tmp/ups.dev"' in files["ups.conf"]
    assert "LISTEN 127.0.0.1 3493" in files["upsd.conf"]
    assert '[nasui]\n  password = "p4ss"\n  upsmon primary' in files["upsd.users"]
    monitor = files["upsmon.conf"]
    assert 'MONITOR ups@127.0.0.1:3493 1 nasui "p4ss" primary' in monitor
    assert 'SHUTDOWNCMD "/usr/bin/python3 /opt/manage.py ups_shutdown"' in monitor


def test_a_network_ups_runs_only_a_secondary_upsmon() -> None:
    remote = plan(mode="network", remote_host="10.0.0.9", remote_port=3500, remote_user="mon",
                  remote_password='a"b', listen=[], accounts=[])  # fmt: skip
    files = config.render(remote)
    assert files["nut.conf"].endswith("MODE=netclient\n")
    assert "driver" not in files["ups.conf"]
    assert 'MONITOR ups@10.0.0.9:3500 1 mon "a\\"b" secondary' in files["upsmon.conf"]
    assert remote.monitor_target() == ("10.0.0.9", 3500, "ups")


def test_files_are_written_owner_only_and_only_when_changed(tmp_path: Path) -> None:
    files = config.render(plan())
    assert config.write_config(tmp_path, files)
    assert not config.write_config(tmp_path, files)
    assert (tmp_path / "upsd.users").stat().st_mode & 0o777 == 0o600


@pytest.mark.parametrize(
    ("check", "value", "field"),
    [
        (config.check_name, "bad name", "name"),
        (config.check_name, "x" * 33, "name"),
        (config.check_host, "host;rm", "remote_host"),
        (config.check_address, "example.com", "server_address"),
        (config.check_port, 0, "remote_port"),
        (config.check_port, 70000, "remote_port"),
        (config.check_secret, "with space", "monitor_password"),
        (config.check_seconds, 2, "battery_seconds"),
        (config.check_dev_file, "relative.dev", "dummy_file"),
    ],
)
def test_what_nut_cannot_take_is_refused_on_its_field(check, value, field) -> None:
    with pytest.raises(config.ConfigRefused) as refused:
        check(value, field)
    assert refused.value.field == field


def test_upsd_answers_are_parsed() -> None:
    lines = ['BEGIN LIST VAR ups', 'VAR ups ups.status "OB LB"', 'VAR ups battery.charge "9"',
             'VAR ups ups.mfr "A \\"quoted\\" maker"', "END LIST VAR ups"]  # fmt: skip
    found = status.parse_list(lines, "ups")
    assert found["ups.mfr"] == 'A "quoted" maker'
    ups = status.status_of(found)
    assert ups.on_battery
    assert ups.low_battery
    assert not ups.online
    assert ups.charge == 9.0
    assert ups.text == "on battery, battery low"
    assert status.parse_upsc("ups.status: OL\nbattery.runtime: 1200\n")["battery.runtime"] == "1200"


def ups(flags: str) -> status.UpsStatus:
    return status.status_of({"ups.status": flags})


def test_the_policy_counts_seconds_on_battery_and_always_acts_at_low_battery() -> None:
    def seconds(flags: str, since: float | None, now: float) -> policy.Decision:
        return policy.decide(ups(flags), since=since, now=now, policy="battery_seconds", seconds=60)

    def low(flags: str, since: float | None, now: float) -> policy.Decision:
        return policy.decide(ups(flags), since=since, now=now, policy="low_battery", seconds=60)

    assert seconds("OB", None, 1000.0) == policy.Decision(1000.0)
    assert seconds("OB", 1000.0, 1059.0).reason == ""
    assert "on battery for 60 s" in seconds("OB", 1000.0, 1060.0).reason
    assert seconds("OL", 1000.0, 1070.0) == policy.Decision(None)
    assert low("OB", 1000.0, 9999.0).reason == ""
    assert low("OB LB", None, 1.0).reason == "the UPS battery is low"
    assert "FSD" in low("FSD OL", None, 1.0).reason


def test_the_sequence_goes_on_to_power_off_when_a_step_fails() -> None:
    done: list[str] = []

    def broken() -> None:
        raise RuntimeError("pool busy")

    report = shutdown.run_sequence("test", [
        ("stop sharing", lambda: done.append("stop")),
        ("export pools", broken),
        ("power off", lambda: done.append("off")),
    ])  # fmt: skip
    assert done == ["stop", "off"]
    assert report.failed == ["export pools"]
    assert report.steps[1].detail == "pool busy"
