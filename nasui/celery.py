"""The Celery application: Redis broker, tasks found in every app, beat schedule built in code."""

from __future__ import annotations

import os
from typing import Any

from celery import Celery, Task

from nasui import beat_thread

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "nasui.settings")

app = Celery("nasui")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
beat_thread.install(app)


def task_named(name: str) -> Task[..., Any]:
    """The task called `name` ("storage.pool_create"): how services and signals start work.

    A web process imports no task module itself (services never import tasks), so the apps'
    tasks modules are imported on the first look-up; NotRegistered for a name none defines.
    """
    if name not in app.tasks:
        app.loader.import_default_modules()
    return app.tasks[name]


def send(task_name: str, /, *args: Any, **kwargs: Any) -> None:
    """Queue the task called `task_name` for a worker, or raise kombu's OperationalError within a
    second when Redis (the queue) is down or hung: a web request never waits on it.

    The web's own connection carries the short timeouts; the worker's keeps the defaults (its
    blocking reads of the queue wait longer than any timeout a request could bear).
    """
    from django.conf import settings

    limit = settings.REDIS_TIMEOUT_SECONDS
    options = {"socket_timeout": limit, "socket_connect_timeout": limit, "max_retries": 0}
    with app.connection_for_write(transport_options=options) as connection:
        task = task_named(task_name)
        # connection=: celery-types does not list it, Celery takes it (Task.apply_async options)
        task.apply_async(args=args, kwargs=kwargs, retry=False, connection=connection)  # type: ignore[call-arg]


def beat_entry(task: str, seconds: float) -> dict[str, object]:
    """A periodic entry that expires before the next run is due: a slow worker never piles up."""
    return {"task": task, "schedule": seconds, "options": {"expires": max(seconds * 0.9, 1.0)}}


def build_beat_schedule(
    *,
    heartbeat_seconds: float,
    sandbox_rescan_seconds: float | None,
    sample_seconds: float = 2.0,
    monitoring_maintain_seconds: float = 60.0,
    snapshot_check_seconds: float = 30.0,
    alert_check_seconds: float = 60.0,
    smart_refresh_seconds: float = 300.0,
) -> dict[str, dict[str, object]]:
    """The periodic work of the panel; each period comes from a NASUI_* setting."""
    schedule = {
        "worker-heartbeat": beat_entry("nasui.worker_heartbeat", heartbeat_seconds),
        # a job whose worker died is failed within a few heartbeats, not left running
        "reap-orphaned-jobs": beat_entry("nasui.reap_orphaned_jobs", heartbeat_seconds * 3),
        "monitoring-sample": beat_entry("monitoring.sample", sample_seconds),
        # rollups and pruning keep the sample tables at a bounded size
        "monitoring-maintain": beat_entry("monitoring.maintain", monitoring_maintain_seconds),
        # tasks are read from the database at every check: edits apply without a restart
        "periodic-snapshots": beat_entry("storage.periodic_snapshots", snapshot_check_seconds),
        # the scrub tasks' slots are minutes too; a check is a few cheap zpool calls
        "scrub-check": beat_entry("storage.scrub_check", snapshot_check_seconds),
        # smartctl is slow-ish and wakes nothing up: disks are read every few minutes, not 2 s
        "smart-refresh": beat_entry("storage.smart_refresh", smart_refresh_seconds),
        "smart-test-check": beat_entry("storage.smart_test_check", snapshot_check_seconds),
        # replication tasks follow their schedule or their snapshot task's runs (polled)
        "replication-due": beat_entry("replication.due", snapshot_check_seconds),
        "backup-due": beat_entry("system.backup_due", snapshot_check_seconds),
        # a network change nobody confirmed is undone at most this long after its deadline
        "network-revert-due": beat_entry("system.network_revert_due", 5.0),
        # alerts are raised and cleared, and their mails sent, at most this late
        "alerts-evaluate": beat_entry("monitoring.alerts_evaluate", alert_check_seconds),
        # the other channels (phones, chats, webhooks) in a task of their own, twice as often:
        # a slow service must not hold an alert check back, nor wait a whole check for it
        "channels-deliver": beat_entry("monitoring.channels_deliver", alert_check_seconds / 2),
        # the dataset figures /metrics reports (zfs list, only while it is on; scrapes read them)
        "exporter-datasets": beat_entry("monitoring.exporter_datasets", 60.0),
        # the audit log keeps its set number of days
        "audit-prune": beat_entry("access.audit_prune", 3600.0),
    }
    if sandbox_rescan_seconds:
        schedule["sandbox-rescan"] = beat_entry("storage.sandbox_rescan", sandbox_rescan_seconds)
    return schedule


@app.on_after_finalize.connect
def _install_beat_schedule(sender: Celery, **_: object) -> None:
    """Read the periods from Django settings once they are loaded."""
    from django.conf import settings

    sandbox = settings.NASUI_ZFS_ENGINE == "sandbox"
    sender.conf.beat_schedule = build_beat_schedule(
        heartbeat_seconds=settings.NASUI_HEARTBEAT_SECONDS,
        sandbox_rescan_seconds=settings.NASUI_SANDBOX_RESCAN_SECONDS if sandbox else None,
        sample_seconds=settings.NASUI_SAMPLE_SECONDS,
        monitoring_maintain_seconds=settings.NASUI_MAINTAIN_SECONDS,
        snapshot_check_seconds=settings.NASUI_SNAPSHOT_CHECK_SECONDS,
        alert_check_seconds=settings.NASUI_ALERT_CHECK_SECONDS,
        smart_refresh_seconds=settings.NASUI_SMART_REFRESH_SECONDS,
    )
