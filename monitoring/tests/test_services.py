"""Storing samples, rates across cycles, rollups and retention."""

from __future__ import annotations

import pytest

from monitoring import services
from monitoring.models import Rollup, Sample
from monitoring.rollup import MINUTE_KEEP, QUARTER_KEEP, RAW_KEEP

pytestmark = pytest.mark.django_db
T0 = 1_700_000_000 - (1_700_000_000 % 900)  # a quarter-hour boundary


def test_a_cycle_stores_one_row_with_every_metric(host_sources):
    sample = services.sample_record(sources=host_sources, now=T0)
    assert Sample.objects.count() == 1
    assert sample.values["mem.total"] > 0
    assert sample.info["unavailable"]["arc"].startswith("not available")


def test_the_second_cycle_has_rates(host_sources, proc_dir):
    services.sample_record(sources=host_sources, now=T0)
    stat = (proc_dir / "stat").read_text().replace("cpu  262618", "cpu  262818", 1)
    (proc_dir / "stat").write_text(stat)
    second = services.sample_record(sources=host_sources, now=T0 + 2)
    assert second.values["cpu.busy"] == 100.0  # only user ticks grew
    assert second.values["swap.in"] == 0


def test_counters_from_long_ago_give_no_rates(host_sources):
    services.sample_record(sources=host_sources, now=T0)
    later = services.sample_record(sources=host_sources, now=T0 + 3600)
    assert "cpu.busy" not in later.values


def _raw(t: float, value: float) -> Sample:
    return Sample(t=t, values={"cpu.busy": value})


def test_finished_minutes_are_rolled_up_once():
    Sample.objects.bulk_create([_raw(T0 + i * 2, float(i)) for i in range(60)])  # two minutes
    made, _ = services.monitoring_maintain(now=T0 + 130)
    assert made == 2
    first = Rollup.objects.get(resolution=Rollup.MINUTE, t=T0)
    assert first.values["cpu.busy"] == [0.0, 14.5, 29.0, 30.0]
    assert services.monitoring_maintain(now=T0 + 170)[0] == 0


def test_quarter_hours_are_merged_from_minutes():
    Sample.objects.bulk_create([_raw(T0 + i * 10, 1.0 if i % 2 else 3.0) for i in range(90)])
    services.monitoring_maintain(now=T0 + 960)
    quarter = Rollup.objects.get(resolution=Rollup.QUARTER, t=T0)
    assert quarter.values["cpu.busy"] == [1.0, 2.0, 3.0, 90.0]


def test_old_rows_are_pruned():
    now = T0 + 400 * 86400
    Sample.objects.bulk_create([_raw(now - RAW_KEEP - 10, 1.0), _raw(now - 10, 1.0)])
    Rollup.objects.bulk_create([
        Rollup(resolution=Rollup.MINUTE, t=int(now - MINUTE_KEEP - 60)),
        Rollup(resolution=Rollup.QUARTER, t=int(now - QUARTER_KEEP - 900)),
        Rollup(resolution=Rollup.QUARTER, t=int(now - 2 * 86400)),
    ])  # fmt: skip
    services.samples_prune(now=now)
    assert Sample.objects.count() == 1
    assert list(Rollup.objects.values_list("resolution", "t")) == [
        (Rollup.QUARTER, int(now - 2 * 86400))
    ]


def test_the_database_stays_bounded_over_a_simulated_day(host_sources):
    # one sample a minute for a day, maintained every hour: raw rows never exceed an hour's worth
    for hour in range(24):
        rows = [_raw(T0 + hour * 3600 + m * 60, float(m)) for m in range(60)]
        Sample.objects.bulk_create(rows)
        services.monitoring_maintain(now=T0 + (hour + 1) * 3600)
        assert Sample.objects.count() <= 61
    assert Rollup.objects.filter(resolution=Rollup.MINUTE).count() == 24 * 60
    assert Rollup.objects.filter(resolution=Rollup.QUARTER).count() == 24 * 4
