"""The monitoring API: current figures, series over ranges, alerts; and the pages."""

from __future__ import annotations

import time

import pytest

from monitoring.models import Rollup, Sample

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(client, django_user_model):
    user = django_user_model.objects.create_user(
        "ops", password="a long test passphrase", is_staff=True
    )
    client.force_login(user)
    return client


def _sample(t: float, **values: float) -> Sample:
    health = {"tank": "ONLINE"} if any(k.startswith("pool.tank") for k in values) else {}
    info = {"health": health, "unavailable": {"pool_io": "not available: sandbox"}}
    return Sample.objects.create(t=t, values=values, info=info)


def test_current_answers_with_the_newest_sample_and_units(api):
    now = time.time()
    _sample(now - 4, **{"cpu.busy": 10.0})
    _sample(now - 2, **{"cpu.busy": 20.0, "mem.used": 1024.0})
    body = api.get("/api/monitoring/current/").json()
    assert body["values"] == {"cpu.busy": 20.0, "mem.used": 1024.0}
    assert body["units"] == {"cpu.busy": "%", "mem.used": "bytes"}
    assert body["unavailable"] == {"pool_io": "not available: sandbox"}
    assert 0 <= body["age_seconds"] < 60


def test_current_with_no_samples_yet(api):
    assert api.get("/api/monitoring/current/").json()["t"] is None


def test_series_of_raw_samples_and_only_newer_points_with_since(api):
    now = time.time()
    for i in range(5):
        _sample(now - 10 + i * 2, **{"cpu.busy": float(i), "mem.used": 100.0 * i})
    body = api.get("/api/monitoring/series/?metric=cpu.busy,mem.used&range=10m").json()
    assert body["resolution"] == 0
    cpu, mem = body["series"]
    assert [p[1] for p in cpu["points"]] == [0.0, 1.0, 2.0, 3.0, 4.0]
    assert mem["unit"] == "bytes"
    since = cpu["points"][2][0]
    newer = api.get(f"/api/monitoring/series/?metric=cpu.busy&since={since}").json()
    assert [p[1] for p in newer["series"][0]["points"]] == [3.0, 4.0]


def test_a_metric_missing_from_a_sample_is_a_gap(api):
    now = time.time()
    _sample(now - 4, **{"cpu.busy": 1.5, "mem.used": 8.0})
    _sample(now - 2, **{"mem.used": 9.0})
    body = api.get("/api/monitoring/series/?metric=cpu.busy,mem.used&range=10m").json()
    assert [p[1] for p in body["series"][0]["points"]] == [1.5, None]
    assert [p[1] for p in body["series"][1]["points"]] == [8.0, 9.0]


def test_series_over_a_day_reads_minute_rollups(api):
    start = int(time.time()) // 60 * 60 - 600
    Rollup.objects.bulk_create(
        Rollup(resolution=Rollup.MINUTE, t=start + i * 60, values={"cpu.busy": [0, i, 9, 30]})
        for i in range(5)
    )
    body = api.get("/api/monitoring/series/?metric=cpu.busy&range=1d").json()
    assert body["resolution"] == 60
    assert body["series"][0]["points"] == [[start + i * 60, i] for i in range(5)]


@pytest.mark.parametrize(
    ("range_key", "resolution"),
    [("1d", Rollup.MINUTE), ("1w", Rollup.QUARTER), ("1y", Rollup.HOURS)],
)
def test_each_rollup_range_reads_its_own_level(api, range_key, resolution):
    # every level holds the same buckets; each level's average is its width, to tell them apart
    start = int(time.time()) // Rollup.HOURS * Rollup.HOURS - 2 * Rollup.HOURS
    Rollup.objects.bulk_create(
        Rollup(resolution=width, t=start + i * width, values={"cpu.busy": [0, width, 9e9, 1]})
        for width, _ in Rollup.RESOLUTIONS
        for i in range(2)
    )
    body = api.get(f"/api/monitoring/series/?metric=cpu.busy&range={range_key}").json()
    assert body["resolution"] == resolution
    assert body["series"][0]["points"] == [[start + i * resolution, resolution] for i in range(2)]


def test_series_refuses_a_bad_range_or_no_metric(api):
    assert api.get("/api/monitoring/series/?metric=cpu.busy&range=2h").status_code == 400
    assert api.get("/api/monitoring/series/").status_code == 400
    assert api.get("/api/monitoring/series/?metric=a%20b").status_code == 400


def test_alerts_explain_a_full_pool_and_swap(api):
    _sample(time.time(), **{"pool.tank.capacity": 91.0, "swap.used": 4096.0})
    body = api.get("/api/monitoring/alerts/").json()
    kinds = [a["kind"] for a in body["results"]]
    assert kinds == ["pool_full", "swap"]
    assert all(a["text"] for a in body["results"])


def test_alerts_warn_of_a_growing_dedup_table(api, settings):
    settings.NASUI_DDT_ALERT_SHARE = 0.25
    now = time.time()
    common = {"arc.c_max": 4.0 * 2**30}
    _sample(now - 900, **common, **{"pool.tank.ddt_in_core": 0.1 * 2**30})
    _sample(now, **common, **{"pool.tank.ddt_in_core": 0.5 * 2**30})
    (alert,) = api.get("/api/monitoring/alerts/").json()["results"]
    assert alert["kind"] == "ddt"
    assert alert["level"] == "warning"


def test_the_api_root_links_to_monitoring(api):
    assert api.get("/api/").json()["monitoring"].endswith("/api/monitoring/")
    assert set(api.get("/api/monitoring/").json()) == {"current", "series", "alerts"}


def test_the_monitoring_page_draws_charts_and_swaps_ranges(api):
    _sample(time.time(), **{"cpu.busy": 1.0, "pool.tank.capacity": 50.0})
    page = api.get("/monitoring/")
    html = page.content.decode()
    assert 'data-metrics="cpu.user,cpu.system,cpu.iowait"' in html
    assert "pool.tank.ddt_in_core" in html
    assert "not available: sandbox" in html
    partial = api.get("/monitoring/?range=1w", HTTP_HX_REQUEST="true").content.decode()
    assert 'id="graphs"' in partial
    assert "<html" not in partial
    assert 'data-range="1w"' in partial


def test_the_dashboard_has_live_graphs_and_alerts(api):
    _sample(time.time(), **{"pool.tank.capacity": 95.0})
    html = api.get("/").content.decode()
    assert "Live graphs" in html
    assert 'data-metrics="mem.used,mem.arc,mem.cached,mem.free"' in html
    assert "Pool tank is 95% full" in html


def test_the_pool_graphs_fragment(api):
    html = api.get("/monitoring/pools/tank/graphs/?range=1h").content.decode()
    assert "pool.tank.read_bw,pool.tank.write_bw" in html
    assert 'data-range="1h"' in html
