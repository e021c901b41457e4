"""Serializers of the SMART API: reports and self-tests out; a test to start, scheduled tests in."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from storage.models import SmartTestTask
from storage.smart import services
from storage.zfs.smart import TEST_KINDS


class SelfTestSerializer(serializers.Serializer[Any]):
    """One self-test log entry, newest first."""

    type = serializers.CharField()
    kind = serializers.CharField(help_text="short, long or other")
    status = serializers.CharField()
    passed = serializers.BooleanField(allow_null=True)
    lifetime_hours = serializers.IntegerField(allow_null=True)


class SmartSerializer(serializers.Serializer[Any]):
    """A disk's SMART figures as smartctl reported them (supported=false: no SMART)."""

    disk = serializers.CharField()
    device = serializers.CharField()
    supported = serializers.BooleanField()
    message = serializers.CharField(help_text="Why there is no SMART data, if so.")
    model = serializers.CharField()
    serial = serializers.CharField()
    protocol = serializers.CharField()
    health = serializers.ChoiceField(choices=["passed", "failed", "unknown"])
    temperature = serializers.IntegerField(allow_null=True, help_text="°C")
    power_on_hours = serializers.IntegerField(allow_null=True)
    reallocated_sectors = serializers.IntegerField(allow_null=True)
    pending_sectors = serializers.IntegerField(allow_null=True)
    test_running = serializers.BooleanField()
    last_test = SelfTestSerializer(allow_null=True)
    tests = SelfTestSerializer(many=True)


class TestStartSerializer(serializers.Serializer[Any]):
    """Which self-test to start."""

    kind = serializers.ChoiceField(choices=TEST_KINDS)


class SmartTaskSerializer(serializers.ModelSerializer[SmartTestTask]):
    """A scheduled self-test; `disks` empty means every disk that answers SMART."""

    disks = serializers.ListField(child=serializers.CharField(max_length=100), required=False)
    next_run = serializers.SerializerMethodField()

    class Meta:
        model = SmartTestTask
        fields = [
            "id", "kind", "disks", "minutes", "hours", "days_of_week", "enabled",
            "last_run_at", "last_outcome", "next_run",
        ]  # fmt: skip
        read_only_fields = ["last_run_at", "last_outcome"]

    def get_next_run(self, task: SmartTestTask) -> str | None:
        """The next run (ISO 8601), None while off."""
        found = services.next_run(task)
        return found.isoformat() if found else None
