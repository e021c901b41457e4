"""Replication's rows: SSH connections to other boxes, replication tasks and their runs."""

from __future__ import annotations

from datetime import time

from django.db import models

from nasui.models import Job
from storage.models import ScheduleInWords, SnapshotTask


class SshConnection(models.Model):
    """Another box this one reaches over SSH: where, as whom, with which key, trusting which host
    keys. The address never changes: a key authorized and a host key pinned belong to it."""

    name = models.CharField(max_length=64, unique=True)
    host = models.CharField(max_length=253, help_text="IP address or host name.")
    port = models.PositiveIntegerField(default=22)
    user = models.CharField(max_length=32, default="root")
    # This box's key for that connection (OpenSSH PEM): no page or API ever shows it.
    private_key = models.TextField()
    public_key = models.TextField(help_text="The line to add to the other side's authorized_keys.")
    # The other side's host keys pinned at creation (or by an explicit re-pin): [{kind, blob}].
    host_keys = models.JSONField(default=list)
    created = models.DateTimeField(auto_now_add=True)
    # The last check that reached the other side and ran a command there.
    checked_at = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True)

    class Meta:
        ordering = ["name"]
        verbose_name = "SSH connection"

    def __str__(self) -> str:
        return f"{self.name} ({self.user}@{self.host}:{self.port})"


class ReplicationTask(ScheduleInWords, models.Model):
    """Copies of a dataset or zvol's snapshots on another pool or box, kept incrementally."""

    class Direction(models.TextChoices):
        LOCAL = "local", "To another pool on this box"
        PUSH = "push", "Push to another box"
        PULL = "pull", "Pull from another box"

    class Trigger(models.TextChoices):
        AFTER_TASK = "after_task", "After its periodic snapshot task runs"
        SCHEDULE = "schedule", "On its own schedule"
        MANUAL = "manual", "Only when run by hand"

    class Unit(models.TextChoices):
        HOUR = "hour", "hours"
        DAY = "day", "days"
        WEEK = "week", "weeks"
        MONTH = "month", "months"
        YEAR = "year", "years"

    class Choice(models.TextChoices):
        REPLACE = "replace", "Replace the target with a full send"
        ROLLBACK = "rollback", "Roll the target back to the common snapshot"

    name = models.CharField(max_length=64, unique=True)
    direction = models.CharField(max_length=8, choices=Direction.choices, default=Direction.PUSH)
    connection = models.ForeignKey(
        SshConnection, null=True, blank=True, on_delete=models.PROTECT, related_name="tasks"
    )
    source = models.CharField(max_length=255, help_text="Dataset or zvol that is copied.")
    target = models.CharField(max_length=255, help_text="Dataset that receives the copies.")
    recursive = models.BooleanField(default=False)
    exclude = models.JSONField(default=list, blank=True)  # children left out when recursive
    # What is sent: the snapshots of a periodic task (its naming schema), or of a schema.
    snapshot_task = models.ForeignKey(
        SnapshotTask, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    naming_schema = models.CharField(max_length=200, blank=True)
    trigger = models.CharField(max_length=12, choices=Trigger.choices, default=Trigger.AFTER_TASK)
    minutes = models.CharField(max_length=100, default="0")
    hours = models.CharField(max_length=100, default="*")
    days_of_week = models.CharField(max_length=100, default="*")
    begin = models.TimeField(default=time(0, 0))
    end = models.TimeField(default=time(23, 59))
    # Retention on the target, its own: no value keeps every snapshot that arrives.
    keep_value = models.PositiveIntegerField(null=True, blank=True)
    keep_unit = models.CharField(max_length=5, choices=Unit.choices, default=Unit.MONTH)
    bandwidth_kib = models.PositiveIntegerField(default=0, help_text="KiB/s; 0: no limit.")
    wire_compression = models.BooleanField(default=False)
    stall_seconds = models.PositiveIntegerField(default=120)
    # Alert when the newest replicated snapshot is older than this many hours (null: never).
    max_age_hours = models.PositiveIntegerField(null=True, blank=True)
    enabled = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_slot = models.DateTimeField(null=True, blank=True)
    # The user's consent to what the last refusal named, used once by the next run.
    consent = models.CharField(max_length=8, choices=Choice.choices, blank=True)
    refusal = models.TextField(blank=True)  # the last run's refusal, in words
    refusal_choice = models.CharField(max_length=8, choices=Choice.choices, blank=True)
    last_run_at = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True)
    newest_snapshot = models.CharField(max_length=255, blank=True)
    newest_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class ReplicationRun(models.Model):
    """One run of a task (a replication, a restore or a test restore): when, what it moved,
    how it ended."""

    class Result(models.TextChoices):
        RUNNING = "running", "Running"
        SENT = "sent", "Sent"
        NOTHING = "nothing", "Nothing new"
        REFUSED = "refused", "Refused"
        FAILED = "failed", "Failed"

    class Kind(models.TextChoices):
        REPLICATE = "replicate", "Replication"
        RESTORE = "restore", "Restore"
        TEST = "test", "Test restore"

    task = models.ForeignKey(ReplicationTask, on_delete=models.CASCADE, related_name="runs")
    job = models.ForeignKey(Job, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.REPLICATE)
    result = models.CharField(max_length=8, choices=Result.choices, default=Result.RUNNING)
    sent_bytes = models.BigIntegerField(default=0)
    resumed = models.BooleanField(default=False)
    arrived = models.JSONField(default=list, blank=True)
    pruned = models.JSONField(default=list, blank=True)
    message = models.TextField(blank=True)

    class Meta:
        ordering = ["-started_at", "-id"]
        indexes = [models.Index(fields=["task", "-started_at"])]

    def __str__(self) -> str:
        return f"{self.task} at {self.started_at:%Y-%m-%d %H:%M} ({self.result})"
