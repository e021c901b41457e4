"""Serializers of the periodic snapshot task API: a task with its schedule in words and next run."""

from __future__ import annotations

from datetime import datetime

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from storage.models import SnapshotTask
from storage.snapshot_tasks import selectors
from storage.snapshot_tasks.services import FIELDS


class SnapshotTaskSerializer(serializers.ModelSerializer[SnapshotTask]):
    """A periodic snapshot task: its fields, its last run and its next one."""

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
