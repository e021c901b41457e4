"""Monitoring samples: one row per sampling cycle, and min/avg/max rollups per time bucket.

One row per batch with a JSON object of metrics (not one row per metric): at a 2 s period that
is 1,800 rows an hour instead of ~60,000, one INSERT per cycle, and a series read is a JSON
extract over an indexed time range (see bench/monitoring_cost.py for the figures).
"""

from __future__ import annotations

from django.db import models


class Sample(models.Model):
    """One sampling cycle: every metric's value at time t (Unix seconds), kept for an hour."""

    t = models.FloatField(db_index=True)
    values = models.JSONField(default=dict)
    # pool health by name and the collectors that were not available, for alerts and /current/
    info = models.JSONField(default=dict)

    class Meta:
        ordering = ["t"]

    def __str__(self) -> str:
        return f"sample at {self.t:.0f}"


class Rollup(models.Model):
    """Min, average and maximum of every metric over one bucket (1 minute, 15 minutes, 3 hours)."""

    MINUTE = 60
    QUARTER = 900
    # the year graph's level: 2,920 rows a year where quarter-hours are 35,040
    HOURS = 3 * 3600
    RESOLUTIONS = [(MINUTE, "1 minute"), (QUARTER, "15 minutes"), (HOURS, "3 hours")]

    resolution = models.PositiveSmallIntegerField(choices=RESOLUTIONS)
    t = models.IntegerField()  # bucket start, Unix seconds
    values = models.JSONField(default=dict)  # {metric: [min, avg, max, samples]}

    class Meta:
        ordering = ["resolution", "t"]
        constraints = [
            models.UniqueConstraint(fields=["resolution", "t"], name="monitoring_rollup_unique")
        ]

    def __str__(self) -> str:
        return f"{self.get_resolution_display()} rollup at {self.t}"


# The alerting models live in their own module; importing them here registers them with the app.
from monitoring.alerting.models import AlertRecord, MailSettings, SentMail  # noqa: E402

__all__ = ["AlertRecord", "MailSettings", "Rollup", "Sample", "SentMail"]
