"""Serializers of a pool's scrub schedule: the task out (with its next check), changes in."""

from __future__ import annotations

from rest_framework import serializers

from storage.models import ScrubTask
from storage.scrub import services
from storage.scrub.services import MAX_THRESHOLD_DAYS


class ScrubTaskSerializer(serializers.ModelSerializer[ScrubTask]):
    """When the pool is checked, how old its last scrub may get, and what the last check did."""

    next_check = serializers.SerializerMethodField()

    class Meta:
        model = ScrubTask
        fields = [
            "pool", "threshold_days", "minutes", "hours", "days_of_week", "enabled",
            "last_checked_at", "last_outcome", "last_started_at", "next_check",
        ]  # fmt: skip
        read_only_fields = ["pool", "last_checked_at", "last_outcome", "last_started_at"]

    def get_next_check(self, task: ScrubTask) -> str | None:
        """The next check's time (ISO 8601), None while off."""
        found = services.next_check(task) if task.enabled else None
        return found.isoformat() if found else None


class ScrubTaskUpdateSerializer(serializers.Serializer[dict[str, object]]):
    """The fields a PUT or PATCH may change; omitted ones are kept."""

    threshold_days = serializers.IntegerField(
        required=False, min_value=1, max_value=MAX_THRESHOLD_DAYS
    )
    minutes = serializers.CharField(required=False, max_length=100)
    hours = serializers.CharField(required=False, max_length=100)
    days_of_week = serializers.CharField(required=False, max_length=100)
    enabled = serializers.BooleanField(required=False)
