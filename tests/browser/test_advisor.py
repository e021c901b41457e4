"""Try it on my data: keyboard-usable forms, drawn result charts, comparisons, a real benchmark."""

from __future__ import annotations

import copy
import shutil
from pathlib import Path

import pytest
from django.conf import settings

from advisor.tests.test_views import BENCHMARK, make_run
from storage.engine import get_engine
from storage.pools import services as pool_services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Chart.js drew on the canvas: it has a size, a Chart instance, and some non-blank pixels.
DRAWN = """(key) => {
  const canvas = document.querySelector(`canvas[data-advisor-chart="${key}"]`);
  if (!canvas || !window.Chart || !window.Chart.getChart(canvas)) { return false; }
  if (!(canvas.width > 0 && canvas.height > 0)) { return false; }
  const data = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
  return data.some((v, i) => i % 4 === 3 && v > 0);
}"""


def _drawn(page, key: str) -> None:
    """Wait until the chart `key` has been drawn."""
    page.wait_for_function(DRAWN, arg=key)


def test_the_forms_can_be_used_with_the_keyboard(logged_in, sandbox):
    page = logged_in
    page.get_by_role("list", name="Main").get_by_role("link", name="Try my data").click()
    page.get_by_role("heading", name="Try it on my data").wait_for()

    # The tabs answer the keyboard: Enter on a focused tab opens its form.
    page.get_by_role("tab", name="Settings benchmark").focus()
    page.keyboard.press("Enter")
    assert page.get_by_label("Pool to test on").is_visible()
    page.get_by_role("tab", name="Estimate").focus()
    page.keyboard.press("Enter")

    # Choosing "path" shows the path box (and hides the dataset select) so Tab reaches it next.
    estimate = page.get_by_test_id("form-estimate")
    kind = estimate.get_by_label("Read from")
    kind.focus()
    kind.select_option("path")
    assert not estimate.get_by_label("Dataset").is_visible()
    page.keyboard.press("Tab")
    path = estimate.get_by_label("Path")
    assert path.evaluate("e => e === document.activeElement")
    page.keyboard.type("/proc/1")
    page.keyboard.press("Enter")

    # The service's refusal comes back on that box, the form and its tab still open.
    error = page.locator('[data-field-error="estimate-source_path"]')
    error.wait_for()
    assert "/proc" in error.inner_text()
    assert estimate.get_by_label("Path").input_value() == "/proc/1"


def test_a_finished_estimate_draws_its_charts(logged_in):
    page = logged_in
    run = make_run("estimate")
    page.goto(f"{page.base}/advisor/runs/{run.pk}/")
    for key in ("ratio", "throughput"):
        _drawn(page, key)
    assert page.get_by_test_id("verdict").inner_text() == "Trap"
    assert page.locator('canvas[data-advisor-chart="ratio"]').get_attribute("data-drawn") == "3"


def test_a_finished_benchmark_and_fio_run_draw_theirs(logged_in):
    page = logged_in
    benchmark, fio = make_run("benchmark"), make_run("fio")
    page.goto(f"{page.base}/advisor/runs/{benchmark.pk}/")
    for key in ("space", "write", "read", "cpu"):
        _drawn(page, key)
    page.goto(f"{page.base}/advisor/runs/{fio.pk}/")
    assert page.get_by_test_id("arc-warning").is_visible()
    for key in ("mbs", "iops"):
        _drawn(page, key)


def test_two_runs_are_compared_from_the_list(logged_in):
    page = logged_in
    first = make_run("benchmark", title="Before the new disks")
    faster = copy.deepcopy(BENCHMARK)
    faster["rows"][1]["write_mb_s"] = 780.0
    second = make_run("benchmark", title="After the new disks", result=faster)
    page.goto(page.base + "/advisor/")
    page.get_by_label(f"Compare run {first.pk}").check()
    page.keyboard.press("Tab")  # the next run's box is reachable without a mouse
    page.get_by_label(f"Compare run {second.pk}").check()
    page.get_by_role("button", name="Compare selected").click()
    page.get_by_role("heading", name="Compare runs").wait_for()
    assert "780" in page.locator('tr[data-row="lz4"]').inner_text()
    _drawn(page, "write_mb_s")
    chart = page.evaluate(
        "() => window.Chart.getChart(document.querySelector("
        "'canvas[data-advisor-chart=\"write_mb_s\"]')).data.datasets.map(d => d.label)"
    )
    assert chart == [f"#{first.pk}", f"#{second.pk}"]


# -- a real settings benchmark on the worker ----------------------------------------------------
@pytest.fixture
def docs(admin_user):
    """Pool tank and tank/docs with some text, in the sandbox the worker shares."""
    from nasui.celery import app
    from storage.datasets import services

    assert settings.NASUI_ZFS_ENGINE == "sandbox"
    shutil.rmtree(settings.NASUI_SANDBOX_DIR, ignore_errors=True)
    get_engine.cache_clear()
    # The pool is made here at once; the benchmark itself goes to the real worker.
    app.conf.task_always_eager = True
    try:
        pool_services.pool_create(
            name="tank", layout="raidz1", disks=["sda", "sdb", "sdc"], user=admin_user
        )
    finally:
        app.conf.task_always_eager = False
    services.dataset_create(parent="tank", name="docs")
    root = Path(get_engine().get_dataset("tank/docs").mountpoint or "")
    (root / "log.txt").write_bytes(b"2026-11-23 pool tank scrub finished without errors\n" * 60_000)
    yield root
    shutil.rmtree(settings.NASUI_SANDBOX_DIR, ignore_errors=True)
    get_engine.cache_clear()


def test_a_benchmark_runs_on_the_worker_and_its_results_appear_live(
    logged_in, docs, celery_worker_process
):
    page = logged_in
    page.goto(page.base + "/advisor/")
    page.get_by_role("tab", name="Settings benchmark").click()
    form = page.get_by_test_id("form-benchmark")
    form.get_by_label("Dataset").select_option("tank/docs")
    form.get_by_label("Pool to test on").select_option("tank")
    form.get_by_label("Sample (MiB)").fill("2")
    for setting in ("GZIP level 6", "GZIP level 1", "ZSTD (level 3)", "Dedup (with LZ4)"):
        form.get_by_text(setting, exact=True).click()  # untick: two settings are enough here
    form.get_by_role("button", name="Start benchmark").click()

    # The run's page follows the job, then swaps its results in and draws them.
    page.get_by_text("Settings benchmark started.").wait_for()
    page.locator('#run[data-status="succeeded"]').wait_for(timeout=90_000)
    table = page.get_by_test_id("benchmark-table")
    assert table.locator("tr[data-setting]").count() == 2
    assert "LZ4" in table.inner_text()
    for key in ("space", "write", "read", "cpu"):
        _drawn(page, key)

    # The recommendation heads the page and names the algorithm; the sandbox does not compress
    # while writing, so it rests on space and says speeds were not used.
    card = page.get_by_test_id("recommendation")
    assert card.is_visible()
    assert card.get_by_role("heading").inner_text() == "Recommended: LZ4"
    assert "saved" in page.get_by_test_id("recommendation-reason").inner_text()
    assert "Speeds are not used" in card.get_by_test_id("speed-note").inner_text()
    assert page.get_by_test_id("sample").inner_text().startswith("Sample: ")


def test_an_estimate_runs_on_the_worker_and_heads_its_result_with_a_recommendation(
    logged_in, docs, celery_worker_process
):
    page = logged_in
    page.goto(page.base + "/advisor/")
    form = page.get_by_test_id("form-estimate")
    form.get_by_label("Dataset").select_option("tank/docs")
    form.get_by_label("Time budget (seconds)").fill("20")
    form.get_by_role("button", name="Start estimate").click()

    page.locator('#run[data-status="succeeded"]').wait_for(timeout=90_000)
    card = page.get_by_test_id("recommendation")
    algorithm = card.get_attribute("data-algorithm") or ""
    assert algorithm in ("lz4", "gzip-1", "gzip-6", "gzip-9", "zstd-1", "zstd-3", "zstd-19")
    assert card.get_by_role("heading").inner_text() == f"Recommendation: compression={algorithm}"
    reason = page.get_by_test_id("recommendation-reason").inner_text()
    assert reason.startswith(f"Use {algorithm}: it saves")  # repeated log lines compress
    assert "MB/s on one core" in reason
    assert page.get_by_test_id("recommendation-dedup").inner_text().startswith("Dedup: ")
    # Each algorithm's row says how many sampled blocks it measured (here: all of them).
    row = page.get_by_test_id("compression-table").locator(f'tr[data-algorithm="{algorithm}"]')
    assert row.locator("td").nth(1).inner_text().strip() == "24"
