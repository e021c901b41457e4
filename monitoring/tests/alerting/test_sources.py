"""The built-in sources on the sandbox engine: pools, scrub errors, figures, tasks, worker."""

from __future__ import annotations

import time
from dataclasses import replace

import pytest

from monitoring.alerting.selectors import registry, sources
from monitoring.alerting.tasks import alerts_evaluate
from monitoring.metrics.engine import alerts
from monitoring.models import AlertRecord, Sample
from nasui.health import record_worker_heartbeat
from storage.engine import get_engine
from storage.models import ScrubTask, SnapshotTask
from storage.zfs.base import ScrubStatus

pytestmark = pytest.mark.django_db


def test_a_pool_over_90_percent_is_danger_over_80_a_warning() -> None:
    def level(capacity: float) -> list[str]:
        found = alerts.pool_alerts({"pool.tank.capacity": capacity}, {"tank": "ONLINE"})
        return [a.level for a in found]

    assert (level(80.0), level(81.0), level(90.0), level(91.0)) == (
        [], ["warning"], ["warning"], ["danger"],
    )  # fmt: skip


def test_the_built_in_sources_are_registered() -> None:
    expected = {"pools", "figures", "disks", "tasks", "replication", "encryption", "worker"}
    assert expected <= set(registry.SOURCES)


def test_a_healthy_near_empty_pool_raises_nothing(tank) -> None:
    assert sources.pool_source() == []


def test_a_degraded_and_full_pool_is_reported_from_the_engine(tank, monkeypatch) -> None:
    engine = get_engine()
    (pool,) = engine.list_pools()
    sick = replace(pool, health="DEGRADED", capacity=93)
    monkeypatch.setattr(engine, "list_pools", lambda: [sick])
    found = sources.pool_source()
    assert [(a.kind, a.level, a.title) for a in found] == [
        ("pool_health", "danger", "Pool tank is DEGRADED"),
        ("pool_full", "danger", "Pool tank is 93% full"),
    ]


def test_a_finished_scrub_with_errors_is_reported(tank, monkeypatch) -> None:
    engine = get_engine()
    status = engine.pool_status("tank")
    scan = ScrubStatus(state="finished", function="scrub", percent_done=100.0, errors=3)
    monkeypatch.setattr(engine, "pool_status", lambda name: replace(status, scan=scan))
    (found,) = sources.pool_source()
    assert (found.kind, found.level, found.title) == (
        "scrub_errors", "danger", "Scrub of tank found 3 errors",
    )  # fmt: skip


def test_a_running_scrub_or_a_resilver_is_not_a_scrub_error() -> None:
    running = ScrubStatus(state="scanning", function="scrub", errors=2)
    resilver = ScrubStatus(state="finished", function="resilver", errors=2)
    assert sources.scrub_error_alert("tank", running) == []
    assert sources.scrub_error_alert("tank", resilver) == []


def test_swap_and_dedup_figures_come_from_the_newest_sample() -> None:
    Sample.objects.create(t=time.time(), values={"swap.used": 2**30}, info={"health": {}})
    (found,) = sources.figure_source()
    assert found.kind == "swap"


def test_a_stale_sample_makes_the_figures_source_unavailable() -> None:
    Sample.objects.create(t=time.time() - 3600, values={"swap.used": 2**30})
    with pytest.raises(sources.SourceUnavailable):
        sources.figure_source()


def test_failed_snapshot_and_scrub_tasks_are_reported_while_enabled() -> None:
    SnapshotTask.objects.create(dataset="tank/home", last_error="Dataset does not exist.")
    SnapshotTask.objects.create(dataset="tank/ok")
    ScrubTask.objects.create(pool="tank", last_outcome="Could not start a scrub: pool busy")
    ScrubTask.objects.create(pool="data", last_outcome="Scrub started.")
    found = list(sources.task_source())
    assert [(a.kind, a.subject, a.level) for a in found] == [
        ("snapshot_task", "tank/home (auto-%Y-%m-%d_%H-%M)", "danger"),
        ("scrub_task", "tank", "warning"),
    ]
    assert "Dataset does not exist." in found[0].text
    SnapshotTask.objects.update(enabled=False)
    assert [a.kind for a in sources.task_source()] == ["scrub_task"]


def test_a_silent_worker_is_reported_and_a_heartbeat_clears_it() -> None:
    (found,) = sources.worker_source()
    assert (found.kind, found.level) == ("worker", "danger")
    record_worker_heartbeat()
    assert sources.worker_source() == []


def test_the_beat_task_raises_alerts_and_survives_a_source_without_figures(tank) -> None:
    SnapshotTask.objects.create(dataset="tank", last_error="No space left.")
    alerts_evaluate()  # no sample yet: the figures source cannot answer, the rest can
    assert list(AlertRecord.objects.values_list("kind", flat=True)) == ["snapshot_task"]


def test_redis_down_is_named_in_the_worker_alert(monkeypatch) -> None:
    def down(key: str) -> None:
        raise ConnectionError("redis is gone")

    monkeypatch.setattr("nasui.health.cache.get", down)
    (found,) = sources.worker_source()
    assert "Redis" in found.text


def smart_override(disk: str, **figures: object) -> None:
    """Make a sandbox disk answer SMART with these figures."""
    from storage.smart import selectors as smart_selectors
    from storage.zfs.sandbox.smart import SandboxSmart

    source = smart_selectors.smart_source()
    assert isinstance(source, SandboxSmart)
    source.set_override(disk, **figures)
    smart_selectors.forget(disk)


def test_a_failing_or_hot_disk_raises_and_a_cool_one_does_not(sandbox) -> None:
    assert sources.disk_source() == []  # the sandbox's disks answer as qemu's: 31 °C, passed
    smart_override("sda", health="failed")
    smart_override("sdb", temperature=52)
    smart_override("sdc", temperature=63)
    smart_override("sdd", supported=False)
    found = {(a.kind, a.subject): a.level for a in sources.disk_source()}
    assert found == {
        ("smart_failing", "sda"): "danger",
        ("disk_hot", "sdb"): "warning",
        ("disk_hot", "sdc"): "danger",
    }


def test_a_failing_disk_is_raised_through_the_evaluation_and_clears(sandbox) -> None:
    smart_override("sda", health="failed")
    alerts_evaluate()
    record = AlertRecord.objects.get(key="smart_failing:sda", cleared_at=None)
    assert record.level == "danger"
    smart_override("sda", health="passed")
    alerts_evaluate()
    record.refresh_from_db()
    assert record.cleared_at is not None


def test_a_disk_taken_offline_is_a_warning_that_says_so_not_a_failure(tank) -> None:
    get_engine().offline_disk("tank", "sda")
    (found,) = sources.pool_source()
    assert (found.kind, found.level) == ("pool_health", "warning")
    assert found.title == "Pool tank is DEGRADED: sda taken offline"
    assert "Disk sda of tank was taken offline on purpose" in found.text
    assert "has failed" not in found.text.replace("it has not failed", "")
    get_engine().online_disk("tank", "sda")
    assert sources.pool_source() == []


@pytest.mark.parametrize(
    ("state", "words"),
    [
        ("FAULTED", "Disk sdb of tank has failed: ZFS took it out of use after too many errors."),
        ("REMOVED", "Disk sdb of tank was removed: unplugged, or lost by its controller."),
        ("UNAVAIL", "Disk sdb of tank is unavailable: it cannot be opened"),
    ],
)
def test_a_failed_removed_or_unavailable_disk_keeps_its_own_words_and_is_danger(
    state: str, words: str
) -> None:
    (found,) = alerts.pool_alerts({}, {"tank": "DEGRADED"}, {"tank": {"sdb": state}})
    assert (found.level, found.title) == ("danger", "Pool tank is DEGRADED")
    assert words in found.text
    assert "taken offline" not in found.text


def test_an_offline_disk_beside_a_failed_one_is_danger_naming_both() -> None:
    disks = {"tank": {"sda": "OFFLINE", "sdb": "FAULTED"}}
    (found,) = alerts.pool_alerts({}, {"tank": "DEGRADED"}, disks)
    assert found.level == "danger"
    assert "Disk sda of tank was taken offline on purpose" in found.text
    assert "Disk sdb of tank has failed" in found.text


def test_the_dashboard_words_an_offline_disk_from_the_sample_too(tank) -> None:
    from monitoring.metrics import selectors
    from monitoring.metrics.services import local_sources, sample_record

    get_engine().offline_disk("tank", "sda")
    sample_record(sources=local_sources())
    (found,) = [a for a in selectors.alert_list(0.25) if a["kind"] == "pool_health"]
    assert found["level"] == "warning"
    assert "taken offline" in found["title"]


def test_a_locked_passphrase_root_waits_and_its_tasks_do_not_fail(tank, settings, tmp_path):
    from storage.datasets import services as datasets
    from storage.encryption import services as encryption

    settings.DATA_DIR = tmp_path / "data"
    phrase = "correct horse battery"
    datasets.dataset_create(parent="tank", name="vault", encryption="passphrase",
                            passphrase=phrase, passphrase_confirm=phrase)  # fmt: skip
    datasets.dataset_create(parent="tank/vault", name="docs")
    datasets.dataset_create(parent="tank", name="auto", encryption="key")

    def locked() -> list[alerts.Alert]:
        return [a for a in sources.encryption_source() if a.kind == "locked"]

    assert locked() == []
    encryption.lock(name="tank/vault")
    encryption.lock(name="tank/auto")  # unlocks at boot by itself: nobody to wait for
    [alert] = locked()
    assert (alert.kind, alert.subject, alert.level) == ("locked", "tank/vault", "warning")
    assert "tank/vault, tank/vault/docs stay locked" in alert.text
    SnapshotTask.objects.create(dataset="tank/vault", last_error="Waits for the key: tank/vault")
    assert list(sources.task_source()) == []
    encryption.unlock(name="tank/vault", passphrase=phrase)
    assert locked() == []


def test_a_kept_key_never_exported_is_a_warning_until_a_key_file_holds_it(tank, settings, tmp_path):
    from storage.datasets import services as datasets
    from storage.encryption import services as encryption

    settings.DATA_DIR = tmp_path / "data"
    datasets.dataset_create(parent="tank", name="auto", encryption="key")
    [alert] = sources.encryption_source()
    assert (alert.kind, alert.subject, alert.level) == ("keys_not_exported", "tank/auto", "warning")
    assert "kept only on this appliance's stick" in alert.text
    phrase = "correct horse battery"
    encryption.keys_export(passphrase=phrase, passphrase_confirm=phrase)
    assert sources.encryption_source() == []
