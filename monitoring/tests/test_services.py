"""Storing samples, rates across cycles, rollups and retention."""

from __future__ import annotations

import pytest

from monitoring.metrics import services
from monitoring.metrics.engine import rollup
from monitoring.metrics.engine.rollup import HOURS_KEEP, MINUTE_KEEP, QUARTER_KEEP, RAW_KEEP
from monitoring.models import Rollup, Sample

pytestmark = pytest.mark.django_db
T0 = 1_700_000_000 - (1_700_000_000 % 900)  # a quarter-hour boundary
H0 = T0 - T0 % Rollup.HOURS  # a 3-hour boundary


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


def test_every_level_is_built_and_pruned_by_maintenance():
    levels = [level.resolution for level in services.LEVELS]
    assert levels == [resolution for resolution, _ in Rollup.RESOLUTIONS]
    assert Rollup.HOURS == rollup.HOURS


def _quarter(t: int, low: float, avg: float, high: float, n: float) -> Rollup:
    return Rollup(resolution=Rollup.QUARTER, t=t, values={"cpu.busy": [low, avg, high, n]})


def test_three_hours_are_merged_from_quarter_hours_once_finished():
    # twelve quarter-hours, as the migration finds them: averages weighted by their counts
    Rollup.objects.bulk_create(
        [_quarter(H0 + i * 900, float(i), 2.0 * i, 10.0 + i, 1.0 + i) for i in range(12)]
    )
    assert services.monitoring_maintain(now=H0 + 3 * 3600 - 1)[0] == 0
    services.monitoring_maintain(now=H0 + 3 * 3600)
    hours = Rollup.objects.get(resolution=Rollup.HOURS)
    weighted = sum(2.0 * i * (1.0 + i) for i in range(12)) / sum(1.0 + i for i in range(12))
    assert hours.t == H0
    assert hours.values["cpu.busy"] == [0.0, pytest.approx(weighted), 21.0, 78.0]


def test_three_hours_summarize_every_raw_sample_behind_them():
    # a sample every 30 s for three hours, maintained after each quarter-hour
    values = [float(i % 37) for i in range(360)]
    for quarter in range(12):
        rows = [_raw(H0 + quarter * 900 + i * 30, values[quarter * 30 + i]) for i in range(30)]
        Sample.objects.bulk_create(rows)
        services.monitoring_maintain(now=H0 + (quarter + 1) * 900)
    (hours,) = Rollup.objects.filter(resolution=Rollup.HOURS)
    mean = sum(values) / len(values)
    assert hours.values["cpu.busy"] == [0.0, pytest.approx(mean), 36.0, 360.0]


def test_old_rows_are_pruned():
    now = T0 + 400 * 86400
    Sample.objects.bulk_create([_raw(now - RAW_KEEP - 10, 1.0), _raw(now - 10, 1.0)])
    Rollup.objects.bulk_create([
        Rollup(resolution=Rollup.MINUTE, t=int(now - MINUTE_KEEP - 60)),
        Rollup(resolution=Rollup.QUARTER, t=int(now - QUARTER_KEEP - 900)),
        Rollup(resolution=Rollup.QUARTER, t=int(now - 2 * 86400)),
        Rollup(resolution=Rollup.HOURS, t=int(now - HOURS_KEEP - 3 * 3600)),
        Rollup(resolution=Rollup.HOURS, t=int(now - 364 * 86400)),
    ])  # fmt: skip
    services.samples_prune(now=now)
    assert Sample.objects.count() == 1
    assert list(Rollup.objects.values_list("resolution", "t")) == [
        (Rollup.QUARTER, int(now - 2 * 86400)),
        (Rollup.HOURS, int(now - 364 * 86400)),  # the year graph keeps a year
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
    assert Rollup.objects.filter(resolution=Rollup.HOURS).count() == 24 // 3
