"""What the graphs show: a label in words for every series, "no swap" instead of an empty swap
graph, percent axes that stop at 100, and a time axis that ends at the newest sample."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from monitoring.metrics.engine import charts, labels
from monitoring.models import Sample

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "static" / "js" / "monitoring.js"
KEY = re.compile(r"^[a-z_]+(\.[\w-]+)+$")  # mem.arc, pool.tank.allocated
PATH = re.compile(r"(^|\s)/\w")


def _every_chart() -> list[charts.Chart]:
    brief = charts.pool_charts("tank", brief=True)
    return [*charts.HOST_CHARTS, *charts.pool_charts("tank"), *brief]


@pytest.mark.parametrize("chart", _every_chart(), ids=lambda c: c.key)
def test_every_series_of_every_graph_has_a_label_in_words(chart: charts.Chart) -> None:
    assert len(chart.legend) == len(chart.metrics)
    for metric, label in zip(chart.metrics, chart.legend, strict=True):
        assert label
        assert label != metric
        assert not KEY.match(label), label
        assert not PATH.search(label), label  # "I/O wait" is words, /dev/sda a path


@pytest.mark.parametrize(
    ("metric", "label"),
    [
        ("mem.arc", "ZFS ARC"),
        ("pool.tank.allocated", "tank: allocated"),
        ("pool.my.pool.ddt_in_core", "my.pool: dedup table in RAM"),
        ("disk.sda.temperature", "sda"),
        ("cpu.core3.user", "core 3 user"),
    ],
)
def test_a_metric_key_becomes_words(metric: str, label: str) -> None:
    assert labels.label_of(metric) == label


def test_a_chart_without_a_label_falls_back_to_words_not_the_key() -> None:
    bare = charts.Chart("x", "X", ("mem.arc", "pool.tank.free"), (), "bytes", "memory")
    assert bare.legend == ("ZFS ARC", "tank: free")


def test_a_missing_source_file_is_said_in_words_without_its_path() -> None:
    reason = "not available: /proc/spl/kstat/zfs/arcstats does not exist"
    assert labels.describe_unavailable({"arc": reason}) == {
        "ZFS ARC": "not available: the ZFS kernel module is not loaded, so there are no ARC "
        "statistics"
    }
    assert labels.unavailable_reason("pool_io", "not available: sandbox") == (
        "not available: sandbox"
    )


def test_percent_graphs_stop_at_100_and_others_scale_freely() -> None:
    assert charts.CPU.y_max == 100
    assert charts.ARC_HITS.y_max == 100
    assert charts.MEMORY.y_max is None


@pytest.mark.django_db
def test_the_monitoring_page_shows_no_keys_or_paths_and_no_swap_when_there_is_none(
    admin_client,
) -> None:
    unavailable = {"arc": "not available: /proc/spl/kstat/zfs/arcstats does not exist"}
    values = {"cpu.user": 1.0, "swap.total": 0, "swap.used": 0}
    Sample.objects.create(t=time.time(), values=values, info={"unavailable": unavailable})
    html = admin_client.get("/monitoring/").content.decode()
    assert "/proc/" not in html
    assert "ZFS ARC: not available: the ZFS kernel module is not loaded" in html
    assert 'data-testid="chart-absent-swap">No swap' in html
    assert 'data-testid="chart-swap"' not in html
    assert 'data-testid="chart-absent-swap_io"' in html
    assert 'data-labels="user|system|I/O wait"' in html
    assert re.search(r'data-testid="chart-cpu"[^>]*data-y-max="100"', html)


@pytest.mark.django_db
def test_with_swap_the_swap_graph_is_drawn(admin_client) -> None:
    Sample.objects.create(t=time.time(), values={"swap.total": 2**30, "swap.used": 0}, info={})
    html = admin_client.get("/monitoring/").content.decode()
    assert 'data-testid="chart-swap"' in html
    assert "chart-absent-swap" not in html


@pytest.mark.django_db
def test_the_series_api_gives_each_metric_its_label(admin_client) -> None:
    Sample.objects.create(t=time.time(), values={"mem.arc": 1.0}, info={})
    body = admin_client.get("/api/monitoring/series/?metric=mem.arc,pool.tank.allocated").json()
    assert [s["label"] for s in body["series"]] == ["ZFS ARC", "tank: allocated"]


# -- the chart code itself, run by Node with a stand-in for Chart.js ----------------------------
HARNESS = """
const fs = require("fs");
const made = [];
class FakeChart {
  constructor(canvas, config) {
    Object.assign(this, config);
    this.canvas = canvas;
    made.push(this);
  }
  update() {}
  destroy() {}
}
function canvas(data) {
  return { dataset: data, isConnected: true, attrs: {}, closest: () => null,
           setAttribute(k, v) { this.attrs[k] = v; } };
}
const canvases = JSON.parse(process.argv[2]).map(canvas);
const newest = Date.now() / 1000 - 3;
function answer(url) {
  const query = new URL(url, "http://panel").searchParams;
  const metrics = query.getAll("metric");
  return { range: "10m", resolution: 0, seconds: 600, series: metrics.map((m) => ({
    metric: m, label: "label of " + m, unit: "%",
    points: [[newest - 20, 10], [newest - 10, 20], [newest, 30]] })) };
}
global.window = { Chart: FakeChart };
global.document = { readyState: "complete", hidden: false, addEventListener() {},
                    querySelectorAll: () => canvases };
global.setInterval = () => 0;
global.fetch = (url) => Promise.resolve({ ok: true, json: () => Promise.resolve(answer(url)) });
eval(fs.readFileSync(process.argv[1], "utf8"));
setTimeout(() => {
  console.log(JSON.stringify({ newest: newest * 1000, charts: made.map((c) => ({
    x: c.options.scales.x, y: { max: c.options.scales.y.max,
                                suggestedMax: c.options.scales.y.suggestedMax },
    labels: c.data.datasets.map((d) => d.label) })) }));
}, 100);
"""


def _run_charts(*canvases: dict[str, str]) -> Any:
    node = shutil.which("node")
    # make test installs nodejs (npm vendors the front-end libraries): never a silent skip.
    assert node is not None, "Node.js is missing: run make test, which installs it"
    done = subprocess.run(
        [node, "-e", HARNESS, str(SCRIPT), json.dumps(canvases)],
        capture_output=True, text=True, timeout=30, check=True,
    )  # fmt: skip
    return json.loads(done.stdout)


def test_the_chart_code_caps_percent_axes_at_100_and_ends_time_at_the_newest_sample() -> None:
    cpu = {"metrics": "cpu.user,cpu.system", "labels": "user|system", "unit": "%"}
    memory = {"metrics": "mem.used", "labels": "programs", "unit": "bytes"}
    result = _run_charts(cpu, memory)
    (cpu_chart, memory_chart) = result["charts"]
    assert cpu_chart["y"] == {"max": 100, "suggestedMax": 100}
    assert memory_chart["y"] == {}  # free scale: undefined max
    for chart in (cpu_chart, memory_chart):
        assert chart["x"]["bounds"] == "data"
        assert chart["x"]["max"] == pytest.approx(result["newest"])


def test_the_chart_code_never_shows_a_key_or_a_path_as_a_legend() -> None:
    temperatures = {"metrics": "disk.a.temperature,disk.b.temperature",
                    "labels": "/dev/disk/by-id/ata-WDC_1|", "unit": "°C"}  # fmt: skip
    (chart,) = _run_charts(temperatures)["charts"]
    assert chart["labels"] == ["ata-WDC_1", "label of disk.b.temperature"]
