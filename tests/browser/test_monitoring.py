"""Live graphs: the dashboard draws its charts and a new point arrives without a reload."""

from __future__ import annotations

import time

import pytest

from monitoring.models import Sample

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "a long test passphrase"


@pytest.fixture
def admin(django_user_model):
    return django_user_model.objects.create_superuser("admin", password=PASSWORD)


def _log_in(page) -> None:
    page.goto(page.base + "/login/")
    page.get_by_label("User name").fill("admin")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(page.base + "/")


def _store(t: float, busy: float) -> None:
    values = {"cpu.user": busy, "cpu.system": 1.0, "cpu.iowait": 0.5, "swap.used": 0.0}
    values |= {"mem.used": 2.0 * 2**30, "mem.arc": 2**30, "mem.cached": 2**29, "mem.free": 2**32}
    Sample.objects.create(t=t, values=values, info={"health": {}, "unavailable": {}})


def _points(page, key: str) -> int:
    return int(page.get_by_test_id(f"chart-{key}").get_attribute("data-points") or 0)


def test_the_dashboard_draws_charts_and_appends_a_new_point(page, admin):
    now = time.time()
    for i in range(5):
        _store(now - 10 + i * 2, float(i))
    _log_in(page)
    cpu = page.get_by_test_id("chart-cpu")
    cpu.wait_for()
    page.wait_for_function(
        "() => Number(document.querySelector('[data-testid=chart-cpu]').dataset.points) === 5"
    )
    # Chart.js drew something: the canvas is no longer blank
    drawn = page.evaluate(
        "() => { const c = document.querySelector('[data-testid=chart-memory]');"
        " const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;"
        " return d.some((v, i) => i % 4 === 3 && v > 0); }"
    )
    assert drawn
    url = page.url
    _store(time.time(), 42.0)
    page.wait_for_function(
        "() => Number(document.querySelector('[data-testid=chart-cpu]').dataset.points) === 6",
        timeout=10_000,
    )
    assert page.url == url
    tooltip = page.evaluate("() => window.nasuiMonitoring.format(3 * 1024 * 1024, 'bytes')")
    assert tooltip == "3.00 MiB"


def test_a_range_change_swaps_the_graphs_and_binds_them_again(page, admin):
    _store(time.time(), 5.0)
    _log_in(page)
    page.goto(page.base + "/monitoring/")
    page.get_by_test_id("chart-cpu").wait_for()
    page.get_by_role("button", name="1 week").click()
    page.wait_for_function(
        "() => document.querySelector('[data-testid=chart-cpu]').dataset.range === '1w'"
        " && document.querySelector('[data-testid=chart-cpu]').dataset.points === '0'"
    )
    charts = page.evaluate("() => window.nasuiMonitoring.charts.size")
    assert charts == page.locator("canvas[data-metrics]").count()


def _tick_labels(page, key: str, axis: str) -> list[str]:
    return page.evaluate(
        "([key, axis]) => window.Chart"
        ".getChart(document.querySelector(`[data-testid=chart-${key}]`))"
        ".scales[axis].ticks.map(t => t.label)",
        [key, axis],
    )


def test_a_young_panel_s_axes_label_each_tick_differently(page, admin):
    now = time.time()
    for i in range(10):  # 20 s of samples; swap stays at zero
        _store(now - 20 + i * 2, float(i))
    _log_in(page)
    page.wait_for_function(
        "() => Number(document.querySelector('[data-testid=chart-swap]').dataset.points) === 10"
    )
    times = _tick_labels(page, "cpu", "x")
    assert len(times) >= 2
    assert len(set(times)) == len(times), times  # seconds shown: not six "10:41 AM"
    swap = _tick_labels(page, "swap", "y")
    assert len(set(swap)) == len(swap), swap  # an all-zero byte series: no "1 B, 1 B, 0 B"
    assert "0 B" in swap
