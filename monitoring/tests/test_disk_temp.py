"""Disk temperatures in the monitoring sample (read from storage's SMART refresh)."""

from __future__ import annotations

import pytest

from monitoring.metrics.engine import Sources, take_sample
from monitoring.metrics.engine.base import NotAvailable
from monitoring.metrics.engine.disk_temp import read_disk_temperatures
from monitoring.metrics.engine.units import unit_of


def test_each_disk_with_a_sensor_becomes_a_metric() -> None:
    reading = read_disk_temperatures(lambda: {"sdb": 41, "sda": 35, "vda": None})
    assert reading.gauges == {"disk.sda.temperature": 35.0, "disk.sdb.temperature": 41.0}


def test_no_readings_yet_is_not_available() -> None:
    with pytest.raises(NotAvailable, match="every few minutes"):
        read_disk_temperatures(lambda: {})
    with pytest.raises(NotAvailable):
        read_disk_temperatures(None)


def test_the_sample_carries_the_temperatures() -> None:
    files = {"/proc/loadavg": "0.1 0.2 0.3 1/100 42\n"}

    def read(path: str) -> str:
        if path not in files:
            raise NotAvailable(path)
        return files[path]

    sample = take_sample(Sources(read_text=read, disk_temperatures=lambda: {"sda": 33}))
    assert sample.values["disk.sda.temperature"] == 33.0
    assert "disk_temp" not in sample.unavailable


def test_temperatures_are_in_degrees_celsius() -> None:
    assert unit_of("disk.sda.temperature") == "°C"
