"""The collector's output from stored figures, parsed as Prometheus parses it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import cache as django_cache
from django.utils import timezone
from prometheus_client.parser import text_string_to_metric_families

from monitoring.exporter import selectors
from monitoring.exporter.engine import Snapshot, render
from monitoring.models import AlertRecord
from nasui.models import Job
from replication.models import ReplicationRun, ReplicationTask
from storage.smart.selectors import CACHE_KEY, TEMPERATURES_KEY
from storage.zfs.smart import SmartReport

pytestmark = pytest.mark.django_db


def scrape() -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """{(sample name, sorted labels): value} of one rendering of the stored figures."""
    text = render(selectors.snapshot()).decode()
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def test_pool_figures_come_from_the_newest_sample_in_bytes_and_ratios(stored_sample):
    found = scrape()
    assert found[("nasui_pool_size_bytes", (("pool", "tank"),))] == 3 * 2**30
    assert found[("nasui_pool_allocated_bytes", (("pool", "tank"),))] == 2**30
    assert found[("nasui_pool_free_bytes", (("pool", "back"),))] == 2**30
    assert found[("nasui_pool_fragmentation_ratio", (("pool", "tank"),))] == pytest.approx(0.12)
    assert found[("nasui_pool_dedup_ratio", (("pool", "tank"),))] == 1.5
    assert found[("nasui_pool_ddt_entries", (("pool", "tank"),))] == 1000
    assert found[("nasui_pool_ddt_in_core_bytes", (("pool", "tank"),))] == 320000
    assert ("nasui_pool_ddt_entries", (("pool", "back"),)) not in found


def test_pool_health_is_one_for_its_state_and_zero_for_the_others(stored_sample):
    found = scrape()
    assert found[("nasui_pool_health", (("pool", "tank"), ("state", "ONLINE")))] == 1
    assert found[("nasui_pool_health", (("pool", "tank"), ("state", "DEGRADED")))] == 0
    assert found[("nasui_pool_health", (("pool", "back"), ("state", "DEGRADED")))] == 1
    assert found[("nasui_pool_health", (("pool", "back"), ("state", "ONLINE")))] == 0


def test_host_figures_arc_cpu_memory_swap_and_disk_temperatures(stored_sample):
    found = scrape()
    assert found[("nasui_arc_size_bytes", ())] == 512 * 2**20
    assert found[("nasui_arc_target_bytes", ())] == 600 * 2**20
    assert found[("nasui_arc_hit_ratio", ())] == pytest.approx(0.975)
    assert found[("nasui_cpu_busy_ratio", ())] == pytest.approx(0.25)
    assert found[("nasui_memory_total_bytes", ())] == 8 * 2**30
    assert found[("nasui_swap_used_bytes", ())] == 0
    assert found[("nasui_disk_temperature_celsius", (("disk", "sda"),))] == 38
    assert found[("nasui_disk_temperature_celsius", (("disk", "nvme0n1"),))] == 45
    assert found[("nasui_sample_timestamp_seconds", ())] == pytest.approx(stored_sample.t)


def test_arc_hits_and_misses_are_counters_from_the_kept_cycle(stored_sample):
    django_cache.cache.set(
        "monitoring:counters", {"t": 1.0, "counters": {"arc.hits": 900, "arc.misses": 7}}
    )
    text = render(selectors.snapshot()).decode()
    families = {f.name: f for f in text_string_to_metric_families(text)}
    assert families["nasui_arc_hits"].type == "counter"
    assert families["nasui_arc_hits"].samples[0].name == "nasui_arc_hits_total"
    assert families["nasui_arc_hits"].samples[0].value == 900
    assert families["nasui_arc_misses"].samples[0].value == 7


def test_datasets_come_from_the_cached_listing(stored_sample, cached_datasets):
    cached_datasets(3)
    found = scrape()
    label = (("dataset", "tank/d1"), ("pool", "tank"))
    assert found[("nasui_dataset_used_bytes", label)] == 2000
    assert found[("nasui_dataset_referenced_bytes", label)] == 1000
    assert found[("nasui_dataset_compress_ratio", label)] == 1.5
    assert ("nasui_datasets_read_timestamp_seconds", ()) in found


def test_without_a_cached_listing_there_are_no_dataset_series(stored_sample):
    found = scrape()
    assert not [key for key in found if key[0].startswith("nasui_dataset")]


def test_smart_verdicts_from_the_cached_reports(stored_sample):
    django_cache.cache.set(TEMPERATURES_KEY, {"sda": 38, "sdb": None, "sdc": 40})
    django_cache.cache.set(
        CACHE_KEY.format("sda"), SmartReport(device="sda", supported=True, health="passed")
    )
    django_cache.cache.set(
        CACHE_KEY.format("sdb"), SmartReport(device="sdb", supported=True, health="failed")
    )
    django_cache.cache.set(CACHE_KEY.format("sdc"), SmartReport(device="sdc", supported=False))
    found = scrape()
    assert found[("nasui_disk_smart_healthy", (("disk", "sda"),))] == 1
    assert found[("nasui_disk_smart_healthy", (("disk", "sdb"),))] == 0
    assert ("nasui_disk_smart_healthy", (("disk", "sdc"),)) not in found  # unknown


def test_jobs_by_status_and_open_alerts_by_level_count_every_value(stored_sample):
    Job.objects.create(kind="pool.scrub", title="Scrub", status=Job.Status.RUNNING)
    Job.objects.create(kind="pool.scrub", title="Scrub", status=Job.Status.FAILED)
    Job.objects.create(kind="pool.scrub", title="Scrub", status=Job.Status.FAILED)
    now = timezone.now()
    alert = {"source": "s", "kind": "k", "subject": "tank", "title": "t", "text": "",
             "raised_at": now, "seen_at": now}  # fmt: skip
    AlertRecord.objects.create(key="a", level="danger", **alert)
    AlertRecord.objects.create(key="b", level="danger", cleared_at=now, **alert)
    found = scrape()
    assert found[("nasui_jobs", (("status", "failed"),))] == 2
    assert found[("nasui_jobs", (("status", "running"),))] == 1
    assert found[("nasui_jobs", (("status", "pending"),))] == 0
    assert found[("nasui_alerts_open", (("level", "danger"),))] == 1
    assert found[("nasui_alerts_open", (("level", "warning"),))] == 0


def test_replication_age_counts_from_the_last_run_that_did_not_fail(stored_sample):
    task = ReplicationTask.objects.create(name="offsite", direction="local", source="tank/a",
                                          target="back/a")  # fmt: skip
    ReplicationTask.objects.create(name="never", direction="local", source="tank/b",
                                   target="back/b")  # fmt: skip
    hour_ago = timezone.now() - timedelta(hours=1)
    ReplicationRun.objects.create(task=task, result="sent", finished_at=hour_ago)
    ReplicationRun.objects.create(task=task, result="failed", finished_at=timezone.now())
    found = scrape()
    age = found[("nasui_replication_last_success_age_seconds", (("task", "offsite"),))]
    assert 3590 < age < 3700
    assert ("nasui_replication_last_success_age_seconds", (("task", "never"),)) not in found


def test_no_replication_tasks_no_replication_family(stored_sample):
    text = render(selectors.snapshot()).decode()
    assert "nasui_replication" not in text


def test_an_empty_panel_still_renders_valid_text():
    text = render(Snapshot()).decode()
    names = {f.name for f in text_string_to_metric_families(text)}
    assert "nasui_pool_size_bytes" in names  # declared, with no series
