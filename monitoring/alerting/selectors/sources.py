"""The built-in alert sources: pools (health, fullness, scrub errors), figures (swap, the dedup
trap), disks (SMART failing, too hot), failed snapshot and scrub tasks, replication tasks that
failed, were refused or fell behind, and an unreachable worker. Each is registered by name."""

from __future__ import annotations

import time

from django.conf import settings
from django.utils import timezone

from monitoring.alerting.selectors.registry import register
from monitoring.metrics import selectors
from monitoring.metrics.engine.alerts import Alert, pool_alerts
from monitoring.metrics.engine.pools import disk_states
from nasui.health import check_health
from replication.models import ReplicationTask
from replication.replications import selectors as replications
from storage.encryption import selectors as encryption
from storage.engine import get_engine
from storage.models import ScrubTask, SnapshotTask
from storage.smart.selectors import disks_with_smart
from storage.snapshot_tasks.selectors import WAITS_FOR_KEY
from storage.zfs.base import ScrubStatus

# Pool kinds come from the engine (live); the sample's copy would only lag behind it.
ENGINE_KINDS = {"pool_health", "pool_full"}
# A sample older than this means the sampler stopped: its figures prove nothing either way.
STALE_SAMPLE_SECONDS = 600.0
# Drive makers rate most disks for 0-60 °C; past 50 °C their failure rates climb.
HOT_CELSIUS, TOO_HOT_CELSIUS = 50, 60


class SourceUnavailable(RuntimeError):
    """The source cannot tell right now; its open alerts are kept."""


def scrub_error_alert(pool: str, scan: ScrubStatus) -> list[Alert]:
    """A finished scrub that found errors."""
    if scan.function != "scrub" or scan.state != "finished" or scan.errors <= 0:
        return []
    return [
        Alert(
            "danger",
            "scrub_errors",
            pool,
            f"Scrub of {pool} found {scan.errors} error{'s' if scan.errors != 1 else ''}",
            f"The last scrub of {pool} read data that did not match its checksum and could not "
            "repair all of it. Open the pool page for the damaged files and the disk at fault; "
            "restore those files from a backup. The alert clears after a clean scrub.",
        )
    ]


@register("pools")
def pool_source() -> list[Alert]:
    """Health (worded from its disks' states) and fullness of every pool, and errors found by
    its last scrub (live from ZFS)."""
    engine = get_engine()
    pools = engine.list_pools()
    values = {f"pool.{p.name}.capacity": float(p.capacity) for p in pools}
    statuses = {p.name: engine.pool_status(p.name) for p in pools}
    disks = {name: disk_states(status) for name, status in statuses.items()}
    found = pool_alerts(values, {p.name: p.health for p in pools}, disks)
    for name, status in statuses.items():
        found += scrub_error_alert(name, status.scan)
    return found


@register("figures")
def figure_source() -> list[Alert]:
    """Swap in use and the dedup trap, from the newest sample as the dashboard computes them."""
    newest = selectors.latest_sample()
    if newest is None or time.time() - newest.t > STALE_SAMPLE_SECONDS:
        raise SourceUnavailable("no recent monitoring sample")
    return [
        Alert(**found)
        for found in selectors.alert_list(settings.NASUI_DDT_ALERT_SHARE)
        if found["kind"] not in ENGINE_KINDS
    ]


def snapshot_task_alert(task: SnapshotTask) -> Alert:
    """The last run of a snapshot task failed."""
    return Alert(
        "danger",
        "snapshot_task",
        str(task),
        f"Periodic snapshots of {task.dataset} failed",
        f"The last run could not take or prune snapshots: {task.last_error} "
        "Until it succeeds, no new restore points are made. The alert clears at the next "
        "successful run.",
    )


def scrub_task_alert(task: ScrubTask) -> Alert:
    """The last scheduled scrub check could not start a scrub."""
    return Alert(
        "warning",
        "scrub_task",
        task.pool,
        f"Scheduled scrub of {task.pool} could not start",
        f"{task.last_outcome} Without scrubs, silent damage is found late. The alert clears "
        "at the next check that starts or skips a scrub normally.",
    )


@register("tasks")
def task_source() -> list[Alert]:
    """Enabled snapshot tasks whose last run failed, scrub tasks whose check could not start."""
    failed = SnapshotTask.objects.filter(enabled=True).exclude(last_error="")
    failed = failed.exclude(last_error__startswith=WAITS_FOR_KEY)  # the "locked" alert says it
    found = [snapshot_task_alert(t) for t in failed]
    scrubs = ScrubTask.objects.filter(enabled=True, last_outcome__startswith="Could not start")
    return found + [scrub_task_alert(t) for t in scrubs]


def replication_alert(task: ReplicationTask) -> Alert:
    """The last run of a replication task failed, or was refused until the user answers."""
    if task.refusal:
        return Alert(
            "warning", "replication", task.name, f"Replication {task.name} waits for you",
            f"{task.refusal} Until you choose on the task's page, the copy on the target falls "
            "behind. The alert clears at the next run that goes through.",
        )  # fmt: skip
    return Alert(
        "danger", "replication", task.name, f"Replication {task.name} failed",
        f"The last run could not copy {task.source} to {task.target}: {task.last_error} "
        "The next run resumes where it stopped. The alert clears at the next successful run.",
    )  # fmt: skip


def replication_late_alert(task: ReplicationTask) -> Alert:
    """The newest snapshot on the target is older than the task allows."""
    newest = task.newest_snapshot or "none yet"
    return Alert(
        "warning", "replication_late", task.name, f"Replication {task.name} is behind",
        f"The newest copy on the target ({newest}) is older than {task.max_age_hours} hours, "
        "the age this task allows. Check that the task runs and its source gets new snapshots.",
    )  # fmt: skip


@register("replication")
def replication_source() -> list[Alert]:
    """Enabled replication tasks whose last run failed or was refused, or that fell behind."""
    tasks = replications.task_queryset().filter(enabled=True)
    found = [replication_alert(t) for t in tasks if t.last_error or t.refusal]
    return found + [replication_late_alert(t) for t in replications.overdue(timezone.now())]


def locked_alert(root: str, opens: list[str]) -> Alert:
    """An encryption root that only its passphrase opens is locked (after a boot, or a lock)."""
    names = ", ".join(opens[:5]) + (f" and {len(opens) - 5} more" if len(opens) > 5 else "")
    return Alert(
        "warning", "locked", root, f"{root} waits for its passphrase",
        f"{names} stay locked: not mounted, not shared, not served, their snapshot and "
        "replication tasks waiting, until someone types the passphrase on its dataset's page "
        "(or POST /api/storage/encryption/unlock/). The alert clears when it is unlocked.",
    )  # fmt: skip


def unexported_alert(roots: list[str]) -> Alert:
    """Keys kept only on this appliance's stick: losing it loses the data they open."""
    names = ", ".join(roots)
    return Alert(
        "warning", "keys_not_exported", names, f"Download the encryption keys of {names}",
        f"The keys of {names} are kept only on this appliance's stick: if it dies, the data "
        "they open is lost with it. Download the keys (Storage, an encrypted dataset's page, "
        "Export keys) and keep the file and its passphrase apart from the box. The alert "
        "clears once a key file holds them.",
    )  # fmt: skip


@register("encryption")
def encryption_source() -> list[Alert]:
    """Encryption roots opened by a typed passphrase that are locked, and kept keys never
    exported (live from ZFS)."""
    datasets = get_engine().list_all_datasets()
    found = []
    for root in encryption.waiting_for_passphrase(datasets):
        opens = [d.name for d in datasets if d.encryption_root == root.name]
        found.append(locked_alert(root.name, opens))
    unexported = encryption.unexported(datasets)
    if unexported:
        found.append(unexported_alert([root.name for root in unexported]))
    return found


@register("worker")
def worker_source() -> list[Alert]:
    """No worker answered within three heartbeat periods: jobs and periodic tasks stand still."""
    health = check_health()
    if health.worker:
        return []
    ago = health.worker_seconds_ago
    since = f"for {ago:.0f} s" if ago is not None else "since the panel started"
    if not health.redis:
        since = "because Redis, which carries its work, does not answer"
    return [
        Alert(
            "danger",
            "worker",
            "worker",
            "The background worker is unreachable",
            f"No worker has answered {since}. Jobs, periodic snapshots, scrubs, monitoring and "
            "alert e-mails wait until it is back. Check the nasui-worker service and Redis.",
        )
    ]


@register("disks")
def disk_source() -> list[Alert]:
    """A disk whose SMART self-assessment fails, or that runs hot (from the cached reports)."""
    found = []
    for row in disks_with_smart():
        report = row.smart
        if report is None or not report.supported:
            continue
        name = row.disk.name
        if report.health == "failed":
            found.append(
                Alert(
                    "danger",
                    "smart_failing",
                    name,
                    f"Disk {name} reports it is failing (SMART)",
                    f"The disk's own health check failed ({report.model} {report.serial}). It may "
                    "stop working at any time: replace it from its pool's page now, while the "
                    "pool still has its other copies.",
                )
            )
        if report.temperature is not None and report.temperature >= HOT_CELSIUS:
            level = "danger" if report.temperature >= TOO_HOT_CELSIUS else "warning"
            found.append(
                Alert(
                    level,
                    "disk_hot",
                    name,
                    f"Disk {name} is at {report.temperature} °C",
                    f"Disks wear out faster above {HOT_CELSIUS} °C. Check the fans and the air "
                    "flow around the case, and that nothing blocks its vents.",
                )
            )
    return found
