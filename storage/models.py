"""What the panel keeps about storage beyond ZFS itself: periodic snapshot tasks."""

from __future__ import annotations

from datetime import time

from django.db import models

from storage.schedule import ScheduleError, in_words
from storage.zfs import naming


class ScheduleInWords:
    """A task with cron-like minutes, hours and days_of_week, said as a sentence on its pages."""

    minutes: str
    hours: str
    days_of_week: str

    @property
    def schedule_in_words(self) -> str:
        """ "At 02:30 on Sunday"; the fields themselves if they cannot be read."""
        try:
            return in_words(self.minutes, self.hours, self.days_of_week)
        except ScheduleError:
            return f"minutes {self.minutes}, hours {self.hours}, days {self.days_of_week}"


class SnapshotTask(ScheduleInWords, models.Model):
    """Snapshots of a dataset (or zvol) taken on a schedule and pruned after a lifetime."""

    class LifetimeUnit(models.TextChoices):
        HOUR = "hour", "hours"
        DAY = "day", "days"
        WEEK = "week", "weeks"
        MONTH = "month", "months"
        YEAR = "year", "years"

    dataset = models.CharField(max_length=255)
    recursive = models.BooleanField(default=False)
    naming_schema = models.CharField(max_length=200, default=naming.DEFAULT_SCHEMA)
    # Cron-like fields: '*', '*/15', '0,30', '9-17', 'mon-fri'.
    minutes = models.CharField(max_length=100, default="0")
    hours = models.CharField(max_length=100, default="0")
    days_of_week = models.CharField(max_length=100, default="*")
    begin = models.TimeField(default=time(0, 0))
    end = models.TimeField(default=time(23, 59))
    lifetime_value = models.PositiveIntegerField(default=2)
    lifetime_unit = models.CharField(
        max_length=5, choices=LifetimeUnit.choices, default=LifetimeUnit.WEEK
    )
    enabled = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # The scheduled slot the last run was for (a run claims it first: one run per slot).
    last_slot = models.DateTimeField(null=True, blank=True)
    last_run_at = models.DateTimeField(null=True, blank=True)
    last_snapshot = models.CharField(max_length=255, blank=True)
    last_error = models.TextField(blank=True)
    last_pruned = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["dataset", "id"]

    def __str__(self) -> str:
        return f"{self.dataset} ({self.naming_schema})"

    @property
    def lifetime_text(self) -> str:
        """'2 weeks'."""
        unit = self.get_lifetime_unit_display()
        return f"{self.lifetime_value} {unit[:-1] if self.lifetime_value == 1 else unit}"


class ScrubTask(ScheduleInWords, models.Model):
    """When a pool is checked for a scrub, and how old its last scrub may get (TrueNAS's rule)."""

    pool = models.CharField(max_length=255, unique=True)
    # A check at each slot starts a scrub only when the last one is older than this.
    threshold_days = models.PositiveIntegerField(default=35)
    minutes = models.CharField(max_length=100, default="0")
    hours = models.CharField(max_length=100, default="0")
    days_of_week = models.CharField(max_length=100, default="*")
    enabled = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_slot = models.DateTimeField(null=True, blank=True)
    last_checked_at = models.DateTimeField(null=True, blank=True)
    last_outcome = models.CharField(max_length=255, blank=True)
    last_started_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["pool"]

    def __str__(self) -> str:
        return f"scrub {self.pool} every {self.threshold_days} days"


class SmartTestTask(ScheduleInWords, models.Model):
    """A scheduled SMART self-test (short or long) of some disks, or of every disk."""

    KINDS = [("short", "Short"), ("long", "Long")]

    kind = models.CharField(max_length=5, choices=KINDS, default="short")
    # Disk names (sda...); empty means every disk that answers SMART, at each run.
    disks = models.JSONField(default=list, blank=True)
    minutes = models.CharField(max_length=100, default="0")
    hours = models.CharField(max_length=100, default="2")
    days_of_week = models.CharField(max_length=100, default="sun")
    enabled = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_slot = models.DateTimeField(null=True, blank=True)
    last_run_at = models.DateTimeField(null=True, blank=True)
    last_outcome = models.CharField(max_length=255, blank=True)

    class Meta:
        ordering = ["kind", "pk"]

    def __str__(self) -> str:
        return f"{self.kind} SMART test of {', '.join(self.disks) or 'every disk'}"
