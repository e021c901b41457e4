"""Pages of "Try it on my data": forms, past runs, a run's results, and comparisons."""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from nasui.models import Job
from storage.datasets import services as storage
from storage.engine import get_engine

pytestmark = pytest.mark.django_db
MIB = 1024 * 1024

# fmt: off
ESTIMATE: dict[str, Any] = {
    "input": {
        "kind": "dataset", "name": "tank/docs", "path": "/mnt/tank/docs", "bytes": 6 * MIB,
        "files": 3, "blocks": 48, "block_size": 131072, "sector_size": 4096,
    },
    "sample": {"blocks": 48, "bytes": 6 * MIB, "seconds": 0.42, "complete": True, "note": ""},
    "compression": [
        {
            "algorithm": algorithm, "ratio": ratio, "ratio_low": ratio - 0.05,
            "ratio_high": ratio + 0.05, "stored_bytes": int(6 * MIB / ratio),
            "saved_bytes": int(6 * MIB - 6 * MIB / ratio), "compress_mb_s": speed,
            "compress_mb_s_low": speed * 0.9, "compress_mb_s_high": speed * 1.1,
            "decompress_mb_s": speed * 3, "decompress_mb_s_low": speed * 2.8,
            "decompress_mb_s_high": speed * 3.2,
        }
        for algorithm, ratio, speed in (("lz4", 1.52, 610.0), ("gzip-6", 1.81, 48.5),
                                        ("zstd", 1.74, 320.0))
    ],
    "dedup": {
        "ratio": 1.33, "unique_blocks": 36, "blocks": 48, "fraction": 1.0, "kept_hashes": 48,
        "compression": "lz4", "ddt_bytes": 36 * 320, "core_bytes_per_entry": 320,
        "per_entry_source": "rule of thumb", "ram_total": 8 * 1024 * MIB,
        "arc_max": 4 * 1024 * MIB, "verdict": "trap",
        "reason": "A third of the blocks repeat, but the table would cost RAM for little gain.",
        "complete": True, "read_mb_s": 850.0,
    },
    "zdb": {"ratio": 1.31, "unique_blocks": 37, "blocks": 48, "seconds": 1.8},
}

BENCHMARK: dict[str, Any] = {
    "source": {"kind": "dataset", "name": "tank/docs", "bytes": 6 * MIB, "files": 3},
    "pool": "tank",
    "sample_bytes": 64 * MIB,
    "read_method": "O_DIRECT reads (the ARC bypassed)",
    "arc_max": 4 * 1024 * MIB,
    "rows": [
        {
            "setting": setting, "label": label, "properties": {"compression": setting},
            "logical_bytes": 64 * MIB, "used_bytes": int(64 * MIB / ratio), "ratio": ratio,
            "write_mb_s": write, "read_mb_s": write * 2, "cpu_percent": cpu,
            "cpu_peak_percent": cpu + 10, "ram_used_bytes": 200 * MIB, "arc_bytes": 900 * MIB,
            "seconds_write": 64 / write, "seconds_read": 32 / write, "note": "",
        }
        for setting, label, ratio, write, cpu in (
            ("off", "No compression", 1.0, 410.0, 12.0), ("lz4", "LZ4", 1.5, 390.0, 18.0),
            ("gzip-6", "GZIP level 6", 1.8, 60.0, 95.0),
            ("zstd", "ZSTD (level 3)", 1.75, 250.0, 40.0),
        )
    ],
    "recommendation": {"setting": "lz4", "reason": "Saves a third of the space at full speed."},
}

FIO: dict[str, Any] = {
    "target": {"kind": "dataset", "name": "tank/docs", "path": "/mnt/tank/docs/fio.test"},
    "size_bytes": 1024 * MIB,
    "arc_max": 4 * 1024 * MIB,
    "arc_warning": "The test file is smaller than the ARC: reads may come from RAM.",
    "fio_version": "3.33",
    "profiles": [
        {
            "name": name, "label": label, "read_mb_s": read, "write_mb_s": write,
            "read_iops": read * 256, "write_iops": write * 256, "lat_mean_us": 120.0,
            "lat_p99_us": 900.0,
        }
        for name, label, read, write in (
            ("seq-read-1m", "Sequential read, 1 MiB, one stream", 900.0, 0.0),
            ("rand-write-4k-qd1", "Random write, 4 KiB, queue depth 1", 0.0, 12.5),
        )
    ],
}
# fmt: on

RESULTS = {"estimate": ESTIMATE, "benchmark": BENCHMARK, "fio": FIO}


def make_run(kind: str = "estimate", *, status: str = "succeeded", **changes: Any) -> Job:
    """A finished advisor run with a realistic result (pass result=... to change it)."""
    result = copy.deepcopy(RESULTS[kind]) if status == "succeeded" else None
    fields: dict[str, Any] = {
        "kind": f"advisor.{kind}",
        "title": f"{kind} on tank/docs",
        "status": status,
        "progress": 100 if status == "succeeded" else 40,
        "result": result,
        "cancellable": True,
        "finished_at": timezone.now() if status in Job.FINISHED else None,
    }
    return Job.objects.create(**(fields | changes))


def _charts(page: str) -> list[dict[str, Any]]:
    """The chart specs the page hands to advisor-charts.js."""
    start = page.index('<script id="advisor-charts" type="application/json">') + 52
    return json.loads(page[start : page.index("</script>", start)])


# -- the landing page ----------------------------------------------------------------------
def test_the_pages_need_a_login(client) -> None:
    run = make_run("fio")
    for url in ("/advisor/", f"/advisor/runs/{run.pk}/", "/advisor/compare/"):
        assert client.get(url).headers["Location"].startswith("/login/")


def test_the_nav_links_to_the_advisor(admin_client) -> None:
    page = admin_client.get("/").content.decode()
    assert 'href="/advisor/"' in page
    assert "Try my data" in page


def test_the_landing_page_explains_and_offers_three_forms(admin_client, sandbox) -> None:
    response = admin_client.get("/advisor/")
    page = response.content.decode()
    assert response.status_code == 200
    assert 'data-testid="advisor-intro"' in page
    for name in ("estimate", "benchmark", "fio"):
        assert f'data-testid="form-{name}"' in page
        assert f'action="/advisor/{name}/"' in page
    assert 'data-testid="no-runs"' in page


def test_the_forms_offer_the_datasets_zvols_and_pools(admin_client, tank) -> None:
    storage.dataset_create(parent="tank", name="docs")
    storage.zvol_create(parent="tank", name="vol", size="64M", sparse=True)
    page = admin_client.get("/advisor/").content.decode()
    assert '<option value="tank/docs">' in page
    assert '<option value="tank/vol">' in page
    assert 'name="benchmark-pool"' in page
    assert '<option value="tank">' in page
    # Only the input of the chosen kind is shown (nasui.js reads data-show-when).
    assert 'data-show-when="estimate-source_kind=path"' in page
    assert 'data-show-when="fio-target_kind=zvol"' in page


def test_the_defaults_are_a_256_mib_sample_and_every_setting_and_profile(admin_client, sandbox):
    page = admin_client.get("/advisor/").content.decode()
    assert 'name="estimate-sample_mib" value="256"' in page
    assert 'name="estimate-time_seconds" value="60"' in page
    assert 'name="benchmark-sample_mib" value="64"' in page
    for setting in ("off", "lz4", "gzip-6", "gzip-1", "zstd", "dedup"):
        assert (
            f'name="benchmark-settings" value="{setting}" class="form-selectgroup-input" checked'
            in page
        )
    assert 'name="benchmark-settings" value="zle" class="form-selectgroup-input">' in page
    assert page.count('name="fio-profiles"') == 7


def test_past_runs_are_listed_with_status_progress_and_a_link(admin_client, sandbox) -> None:
    done = make_run("benchmark")
    running = make_run("estimate", status="running", message="Hashing blocks")
    Job.objects.create(kind="pool.create", title="Create pool tank")
    page = admin_client.get("/advisor/").content.decode()
    assert f'href="/advisor/runs/{done.pk}/"' in page
    assert "Hashing blocks" in page
    assert f'hx-get="/advisor/runs/{running.pk}/row/"' in page
    assert f'hx-get="/advisor/runs/{done.pk}/row/"' not in page
    assert f'action="/jobs/{running.pk}/cancel/"' in page
    assert "Create pool tank" not in page
    assert f'name="runs" value="{done.pk}" form="compare-runs"' in page


def test_the_runs_list_filters_by_kind(admin_client, sandbox) -> None:
    make_run("benchmark", title="a benchmark")
    make_run("fio", title="a fio run")
    page = admin_client.get("/advisor/?kind=fio").content.decode()
    assert "a fio run" in page
    assert "a benchmark" not in page


def test_a_row_stops_polling_once_its_run_has_finished(admin_client) -> None:
    running = make_run("estimate", status="running")
    assert admin_client.get(f"/advisor/runs/{running.pk}/row/").status_code == 200
    Job.objects.filter(pk=running.pk).update(status="cancelled", error="Cancelled.")
    response = admin_client.get(f"/advisor/runs/{running.pk}/row/")
    assert response.status_code == 286
    assert "Cancelled" in response.content.decode()


# -- starting runs ----------------------------------------------------------------------------
@pytest.fixture
def docs(tank) -> Path:
    """tank/docs with 2 MiB of text and 1 MiB of random bytes."""
    storage.dataset_create(parent="tank", name="docs")
    root = Path(get_engine().get_dataset("tank/docs").mountpoint or "")
    (root / "log.txt").write_bytes(b"pool tank scrub finished without errors\n" * 50_000)
    (root / "noise.bin").write_bytes(os.urandom(MIB))
    return root


ESTIMATE_FORM = {
    "estimate-source_kind": "dataset",
    "estimate-source_dataset": "tank/docs",
    "estimate-sample_mib": "16",
    "estimate-time_seconds": "30",
}


def test_starting_an_estimate_runs_it_and_opens_its_page(admin_client, docs) -> None:
    response = admin_client.post("/advisor/estimate/", ESTIMATE_FORM, follow=True)
    job = Job.objects.get(kind="advisor.estimate")
    assert response.redirect_chain[-1][0] == f"/advisor/runs/{job.pk}/"
    assert job.status == "succeeded", job.error
    assert job.arguments["sample_bytes"] == 16 * MIB
    page = response.content.decode()
    assert "Estimate started." not in page  # it has finished: the note would be stale
    assert 'data-testid="compression-table"' in page
    assert 'data-testid="dedup-panel"' in page


def test_a_path_estimate_reads_the_path_field(admin_client, docs) -> None:
    form = {**ESTIMATE_FORM, "estimate-source_kind": "path", "estimate-source_path": str(docs)}
    admin_client.post("/advisor/estimate/", form)
    job = Job.objects.get(kind="advisor.estimate")
    assert (job.arguments["source_kind"], job.arguments["source"]) == ("path", str(docs))


def test_a_service_error_lands_on_the_shown_input(admin_client, docs) -> None:
    form = {**ESTIMATE_FORM, "estimate-source_kind": "path", "estimate-source_path": "/proc/1"}
    response = admin_client.post("/advisor/estimate/", form)
    assert response.status_code == 400
    page = response.content.decode()
    assert 'data-field-error="estimate-source_path"' in page
    assert "/proc" in page
    assert not Job.objects.filter(kind__startswith="advisor.").exists()
    # The estimate's tab stays open, its values kept.
    assert 'id="tab-estimate" href="#pane-estimate" data-bs-toggle="tab"' in page


def test_a_sample_out_of_bounds_lands_on_the_sample_field(admin_client, docs) -> None:
    form = {**ESTIMATE_FORM, "estimate-sample_mib": str(10**6)}
    response = admin_client.post("/advisor/estimate/", form)
    assert response.status_code == 400
    assert 'data-field-error="estimate-sample_mib"' in response.content.decode()


def test_an_empty_input_is_asked_for(admin_client, docs) -> None:
    form = {**ESTIMATE_FORM, "estimate-source_dataset": ""}
    response = admin_client.post("/advisor/estimate/", form)
    assert response.status_code == 400
    assert 'data-field-error="estimate-source_dataset"' in response.content.decode()


def test_a_benchmark_error_opens_the_benchmark_tab(admin_client, docs) -> None:
    form = {
        "benchmark-source_kind": "dataset",
        "benchmark-source_dataset": "tank/docs",
        "benchmark-pool": "tank",
        "benchmark-sample_mib": str(64 * 1024),
        "benchmark-settings": ["lz4", "zstd"],
    }
    response = admin_client.post("/advisor/benchmark/", form)
    assert response.status_code == 400
    page = response.content.decode()
    assert 'data-field-error="benchmark-sample_mib"' in page
    assert 'class="tab-pane active show" id="pane-benchmark"' in page


def test_starting_a_benchmark_queues_it_with_the_settings_picked(admin_client, docs, monkeypatch):
    queued: list[dict[str, Any]] = []
    monkeypatch.setattr(
        "advisor.benchmarks.tasks.benchmark.apply_async",
        lambda args, kwargs, **options: queued.append(kwargs),
    )
    form = {
        "benchmark-source_kind": "dataset",
        "benchmark-source_dataset": "tank/docs",
        "benchmark-pool": "tank",
        "benchmark-sample_mib": "4",
        "benchmark-settings": ["off", "lz4"],
    }
    response = admin_client.post("/advisor/benchmark/", form)
    job = Job.objects.get(kind="advisor.benchmark")
    assert response.headers["Location"] == f"/advisor/runs/{job.pk}/"
    assert queued[0]["settings"] == ["off", "lz4"]
    assert queued[0]["sample_bytes"] == 4 * MIB


def test_starting_fio_on_a_zvol_names_the_pool(admin_client, docs, monkeypatch) -> None:
    queued: list[dict[str, Any]] = []
    monkeypatch.setattr(
        "advisor.benchmarks.tasks.fio.apply_async",
        lambda args, kwargs, **options: queued.append(kwargs),
    )
    form = {
        "fio-target_kind": "zvol",
        "fio-target_zvol": "tank",
        "fio-size_mib": "16",
        "fio-profiles": ["seq-read-1m"],
        "fio-runtime_seconds": "2",
    }
    response = admin_client.post("/advisor/fio/", form)
    assert response.status_code == 302, response.content.decode()[-3000:]
    assert queued[0] | {"target": "tank", "target_kind": "zvol"} == queued[0]


def test_the_start_urls_refuse_get(admin_client, sandbox) -> None:
    assert admin_client.get("/advisor/estimate/").status_code == 405


# -- a run's page --------------------------------------------------------------------------
def test_an_estimate_shows_its_table_charts_and_dedup_verdict(admin_client) -> None:
    run = make_run("estimate")
    page = admin_client.get(f"/advisor/runs/{run.pk}/").content.decode()
    assert 'data-algorithm="gzip-6"' in page
    assert "1.81x" in page
    assert "(1.76x\u20131.86x)" in page
    assert 'data-testid="chart-ratio"' in page
    assert 'data-testid="chart-throughput"' in page
    assert 'data-verdict="trap"' in page
    assert ">Trap<" in page
    assert "the table would cost RAM" in page
    assert 'data-testid="zdb-ratio">1.31x' in page
    assert "vendor/chart.umd.min.js" in page
    assert "js/advisor-charts.js" in page
    charts = {c["key"]: c for c in _charts(page)}
    assert charts["ratio"]["labels"] == ["lz4", "gzip-6", "zstd"]
    assert charts["ratio"]["series"][0]["values"] == [1.52, 1.81, 1.74]
    assert [s["label"] for s in charts["throughput"]["series"]] == ["Compress", "Decompress"]


def test_the_dedup_table_is_shown_against_ram_and_the_arc(admin_client) -> None:
    run = make_run("estimate")
    page = admin_client.get(f"/advisor/runs/{run.pk}/").content.decode()
    assert 'data-testid="ddt-bytes">11.2 KiB' in page
    assert "of 8.0 GiB" in page
    assert "of 4.0 GiB" in page


def test_an_estimate_without_zdb_has_no_zdb_column(admin_client) -> None:
    run = make_run("estimate", result={**ESTIMATE, "zdb": None})
    page = admin_client.get(f"/advisor/runs/{run.pk}/").content.decode()
    assert "zdb -S (whole pool)" not in page


def test_a_benchmark_shows_the_articles_table_and_four_charts(admin_client) -> None:
    run = make_run("benchmark")
    page = admin_client.get(f"/advisor/runs/{run.pk}/").content.decode()
    assert 'data-testid="benchmark-table"' in page
    assert 'data-setting="gzip-6"' in page
    assert "Recommended: lz4" in page
    assert "O_DIRECT reads" in page
    for key in ("space", "write", "read", "cpu"):
        assert f'data-testid="chart-{key}"' in page
    charts = {c["key"]: c for c in _charts(page)}
    assert charts["write"]["series"][0]["values"] == [410.0, 390.0, 60.0, 250.0]
    assert charts["space"]["labels"][0] == "No compression"


def test_a_fio_run_shows_its_profiles_and_the_arc_warning(admin_client) -> None:
    run = make_run("fio")
    page = admin_client.get(f"/advisor/runs/{run.pk}/").content.decode()
    assert 'data-testid="arc-warning"' in page
    assert "reads may come from RAM" in page
    assert 'data-profile="seq-read-1m"' in page
    charts = {c["key"]: c for c in _charts(page)}
    assert set(charts) == {"mbs", "iops"}


def test_a_fio_run_without_a_warning_shows_no_alert(admin_client) -> None:
    run = make_run("fio", result={**FIO, "arc_warning": ""})
    assert (
        'data-testid="arc-warning"'
        not in admin_client.get(f"/advisor/runs/{run.pk}/").content.decode()
    )


def test_a_running_run_shows_progress_polls_and_offers_cancel(admin_client) -> None:
    run = make_run("benchmark", status="running", message="Writing with gzip-6")
    page = admin_client.get(f"/advisor/runs/{run.pk}/").content.decode()
    assert 'data-testid="run-progress"' in page
    assert "Writing with gzip-6" in page
    assert f'hx-get="/advisor/runs/{run.pk}/"' in page
    assert f'action="/jobs/{run.pk}/cancel/"' in page
    assert f'name="next" value="/advisor/runs/{run.pk}/"' in page


def test_the_polled_part_stops_and_brings_the_results_once_finished(admin_client) -> None:
    run = make_run("fio", status="running")
    partial = admin_client.get(f"/advisor/runs/{run.pk}/", headers={"HX-Request": "true"})
    assert partial.status_code == 200
    assert "<html" not in partial.content.decode()
    Job.objects.filter(pk=run.pk).update(status="succeeded", result=FIO, progress=100)
    done = admin_client.get(f"/advisor/runs/{run.pk}/", headers={"HX-Request": "true"})
    assert done.status_code == 286
    assert 'data-testid="fio-table"' in done.content.decode()
    assert 'id="advisor-charts"' in done.content.decode()


def test_cancel_from_the_run_page_asks_the_job_to_stop_and_comes_back(admin_client) -> None:
    run = make_run("estimate", status="running")
    next_url = f"/advisor/runs/{run.pk}/"
    response = admin_client.post(f"/jobs/{run.pk}/cancel/", {"next": next_url}, follow=True)
    assert response.redirect_chain[-1][0] == next_url
    assert Job.objects.get(pk=run.pk).cancel_requested
    assert "Stopping…" in response.content.decode()


def test_a_failed_and_a_cancelled_run_say_so(admin_client) -> None:
    failed = make_run("estimate", status="failed", error="The dataset vanished.")
    cancelled = make_run("estimate", status="cancelled", error="Cancelled by the user.")
    assert (
        "The dataset vanished." in admin_client.get(f"/advisor/runs/{failed.pk}/").content.decode()
    )
    page = admin_client.get(f"/advisor/runs/{cancelled.pk}/").content.decode()
    assert 'data-testid="run-cancelled"' in page


def test_a_job_that_is_not_an_advisor_run_has_no_run_page(admin_client) -> None:
    other = Job.objects.create(kind="pool.create", title="Create pool tank")
    assert admin_client.get(f"/advisor/runs/{other.pk}/").status_code == 404
    assert admin_client.get("/advisor/runs/999999/").status_code == 404


# -- comparisons ----------------------------------------------------------------------------
def test_two_benchmarks_compare_side_by_side(admin_client) -> None:
    first = make_run("benchmark")
    changed = copy.deepcopy(BENCHMARK)
    changed["rows"][1]["write_mb_s"] = 999.0
    second = make_run("benchmark", result=changed)
    page = admin_client.get(f"/advisor/compare/?runs={first.pk},{second.pk}").content.decode()
    assert 'data-testid="compare-table"' in page
    assert 'data-row="lz4"' in page
    assert ">999<" in page
    charts = {c["key"]: c for c in _charts(page)}
    assert [s["label"] for s in charts["write_mb_s"]["series"]] == [f"#{first.pk}", f"#{second.pk}"]
    assert charts["write_mb_s"]["series"][1]["values"][1] == 999.0


def test_the_compare_form_sends_runs_as_repeated_fields(admin_client) -> None:
    a, b = make_run("fio"), make_run("fio")
    response = admin_client.get(f"/advisor/compare/?runs={a.pk}&runs={b.pk}")
    assert response.status_code == 200
    assert 'data-row="seq-read-1m"' in response.content.decode()


def test_estimates_compare_with_their_dedup_ratio(admin_client) -> None:
    a, b = make_run("estimate"), make_run("estimate")
    page = admin_client.get(f"/advisor/compare/?runs={a.pk},{b.pk}").content.decode()
    assert 'data-row="dedup"' in page
    charts = {c["key"]: c for c in _charts(page)}
    assert "dedup" in charts["ratio"]["labels"]
    assert "dedup" not in charts["compress_mb_s"]["labels"]


def test_runs_of_different_kinds_do_not_compare(admin_client) -> None:
    a, b = make_run("fio"), make_run("benchmark")
    response = admin_client.get(f"/advisor/compare/?runs={a.pk},{b.pk}")
    assert response.status_code == 400
    assert "same kind" in response.content.decode()


def test_compare_without_runs_explains_how(admin_client) -> None:
    response = admin_client.get("/advisor/compare/")
    assert response.status_code == 200
    assert 'data-testid="compare-empty"' in response.content.decode()


def test_a_run_without_results_does_not_compare(admin_client) -> None:
    a, b = make_run("fio"), make_run("fio", status="running")
    response = admin_client.get(f"/advisor/compare/?runs={a.pk},{b.pk}")
    assert response.status_code == 400
    assert f"No results yet: #{b.pk}" in response.content.decode()
