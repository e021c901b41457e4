"""Serializers of the periodic snapshot task API: a task with its schedule in words and next run."""

from __future__ import annotations

import re
from datetime import datetime, time
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from storage.models import SnapshotTask
from storage.snapshot_tasks import selectors
from storage.snapshot_tasks.services import FIELDS

TIME_OF_DAY = r"^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$"
TIME_OF_DAY_HELP = "local time of day, HH:MM"


@extend_schema_field(
    {"type": "string", "pattern": TIME_OF_DAY, "description": TIME_OF_DAY_HELP, "example": "23:59"}
)
class TimeOfDayField(serializers.Field):  # type: ignore[type-arg]
    """A wall-clock time as "HH:MM" (":SS" accepted and kept), the machine's own time zone.

    Not DRF's TimeField: OpenAPI's `format: time` is RFC 3339's full-time, which needs an
    offset ("00:00:00Z"), and a daily window has none: it follows the local clock.
    """

    default_error_messages = {"invalid": "Give a time of day as HH:MM, e.g. 08:30."}

    def to_internal_value(self, data: Any) -> time:
        """ "08:30" or "08:30:00" -> time(8, 30)."""
        if not isinstance(data, str) or not re.fullmatch(TIME_OF_DAY, data.strip()):
            self.fail("invalid")
        hour, minute, second = (int(part) for part in f"{data.strip()}:0".split(":")[:3])
        return time(hour, minute, second)

    def to_representation(self, value: time) -> str:
        """time(8, 30) -> "08:30" (with seconds only when there are some)."""
        return f"{value:%H:%M:%S}" if value.second else f"{value:%H:%M}"


class SnapshotTaskSerializer(serializers.ModelSerializer[SnapshotTask]):
    """A periodic snapshot task: its fields, its last run and its next one."""

    begin = TimeOfDayField(required=False, help_text=f"{TIME_OF_DAY_HELP}: runs start from it.")
    end = TimeOfDayField(required=False, help_text=f"{TIME_OF_DAY_HELP}: no run after it.")
    schedule_text = serializers.SerializerMethodField()
    next_run = serializers.SerializerMethodField()
    lifetime_text = serializers.CharField(read_only=True)

    class Meta:
        model = SnapshotTask
        fields = (
            "id", *FIELDS, "schedule_text", "lifetime_text", "next_run", "created_at",
            "last_run_at", "last_snapshot", "last_error", "last_pruned",
        )  # fmt: skip
        read_only_fields = (
            "created_at", "last_run_at", "last_snapshot", "last_error", "last_pruned",
        )  # fmt: skip
        extra_kwargs = {
            "minutes": {"help_text": "0-59: '0', '0,30', '*/15' or '*'."},
            "hours": {"help_text": "0-23: '0', '9-17', '*/6' or '*'."},
            "days_of_week": {"help_text": "mon-sun or 0-6: 'mon-fri', 'sun', '*'."},
            "naming_schema": {"help_text": "strftime codes; must contain %Y %m %d %H %M."},
        }

    def get_schedule_text(self, task: SnapshotTask) -> str:
        """The schedule in words."""
        return selectors.schedule_text(task)

    @extend_schema_field(serializers.DateTimeField(allow_null=True))
    def get_next_run(self, task: SnapshotTask) -> datetime | None:
        """The next scheduled run; null when disabled."""
        return selectors.next_run(task)
