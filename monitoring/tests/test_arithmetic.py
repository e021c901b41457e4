"""Rates, rollups, downsampling and alerts: the arithmetic, with no database."""

from __future__ import annotations

import pytest

from monitoring.metrics.engine import alerts, rollup
from monitoring.metrics.engine.rates import deltas, per_second, rates


def test_counters_become_rates_per_second():
    assert per_second(deltas({"swap.in": 4096}, {"swap.in": 4096 * 11}), 2.0) == {
        "swap.in": 4096 * 5
    }


def test_a_counter_that_went_down_was_reset_and_gives_no_rate():
    assert deltas({"arc.hits": 100}, {"arc.hits": 5}) == {}


def test_no_previous_reading_gives_no_rates():
    assert rates(None, {"arc.hits": 5}, 2.0) == {}
    assert rates({"arc.hits": 1}, {"arc.hits": 5}, 0.0) == {}


def test_hit_ratio_needs_accesses_in_the_interval():
    same = {"arc.hits": 10, "arc.misses": 10}
    assert "arc.hit_ratio" not in rates(same, same, 2.0)
    later = {"arc.hits": 40, "arc.misses": 20}
    assert rates(same, later, 2.0)["arc.hit_ratio"] == 75.0


def test_cpu_ticks_become_percentages_not_rates():
    before = {"cpu.user": 0, "cpu.idle": 0, "cpu.system": 0}
    after = {"cpu.user": 30, "cpu.idle": 60, "cpu.system": 10}
    values = rates(before, after, 1.0)
    assert values["cpu.busy"] == 40.0
    assert "cpu.user" in values
    assert values["cpu.user"] == 30.0


def test_buckets_start_on_whole_minutes_and_quarters():
    assert rollup.bucket(125.5, 60) == 120
    assert rollup.bucket(1799.9, 900) == 900


def test_a_rollup_keeps_min_avg_max_and_count():
    summary = rollup.summarize([{"a": 1.0, "b": 5.0}, {"a": 3.0}, {"a": 2.0}])
    assert summary == {"a": [1.0, 2.0, 3.0, 3.0], "b": [5.0, 5.0, 5.0, 1.0]}


def test_merged_rollups_weight_averages_by_sample_count():
    merged = rollup.merge([{"a": [1.0, 2.0, 3.0, 30.0]}, {"a": [0.0, 5.0, 9.0, 10.0]}])
    assert merged["a"] == [0.0, pytest.approx(2.75), 9.0, 40.0]


def test_grouping_rows_by_bucket():
    groups = rollup.group_by_bucket([(59.0, {"a": 1}), (60.0, {"a": 2}), (61.0, {"a": 3})], 60)
    assert groups == {0: [{"a": 1}], 60: [{"a": 2}, {"a": 3}]}


def test_downsampling_averages_neighbours_and_keeps_gaps():
    points = [(float(t), float(t)) for t in range(10)]
    assert rollup.downsample(points, 5) == [(0.0, 0.5), (2.0, 2.5), (4.0, 4.5), (6.0, 6.5),
                                            (8.0, 8.5)]  # fmt: skip
    assert rollup.downsample([(0.0, None), (1.0, None)], 1) == [(0.0, None)]
    assert rollup.downsample(points, 100) == points


def test_a_pool_not_online_and_a_full_pool_raise_alerts():
    found = alerts.pool_alerts({"pool.tank.capacity": 85.0}, {"tank": "DEGRADED"})
    assert [(a.kind, a.level) for a in found] == [
        ("pool_health", "danger"),
        ("pool_full", "warning"),
    ]
    assert "replace" in found[0].text


def test_eighty_percent_is_not_yet_over_eighty():
    assert alerts.pool_alerts({"pool.tank.capacity": 80.0}, {"tank": "ONLINE"}) == []


def test_swap_in_use_raises_an_alert():
    assert alerts.swap_alert({"swap.used": 0.0}) == []
    (alert,) = alerts.swap_alert({"swap.used": 3 * 2**20})
    assert alert.title == "Swap in use: 3.0 MiB"


def test_a_ddt_over_its_share_of_the_arc_maximum_is_the_dedup_trap():
    values = {"arc.c_max": 4 * 2**30, "pool.tank.ddt_in_core": 1.5 * 2**30}
    (alert,) = alerts.ddt_alerts(values, ["tank"], 0.25)
    assert alert.level == "danger"
    assert "25% of the ARC maximum, 1.0 GiB" in alert.text
    assert alerts.ddt_alerts(values, ["tank"], 0.5) == []


def test_a_ddt_growing_past_its_share_within_a_day_warns():
    values = {"arc.c_max": 4 * 2**30, "pool.tank.ddt_in_core": 0.5 * 2**30}
    per_second = 0.5 * 2**30 / (10 * 3600)  # reaches 1 GiB in 10 hours
    (alert,) = alerts.ddt_alerts(values, ["tank"], 0.25, {"tank": per_second})
    assert alert.level == "warning"
    assert "in about 10 h" in alert.title
    slow = {"tank": per_second / 10}
    assert alerts.ddt_alerts(values, ["tank"], 0.25, slow) == []


def test_without_arc_figures_the_ddt_share_is_of_half_the_ram():
    assert alerts.ddt_limit({"mem.total": 8.0}, 0.25) == (
        1.0,
        "half the RAM (the default ARC maximum)",
    )
    assert alerts.ddt_limit({}, 0.25) is None


def test_growth_per_second_between_two_samples():
    newer, older = {"pool.a.ddt_in_core": 700.0}, {"pool.a.ddt_in_core": 100.0}
    assert alerts.growth_per_second(newer, older, 600.0, ["a", "b"]) == {"a": 1.0}
