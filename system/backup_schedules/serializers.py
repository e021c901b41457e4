"""The backup schedule through the API."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from rest_framework import serializers

from system.backup_schedules import selectors
from system.models import BackupSchedule


class BackupScheduleSerializer(serializers.ModelSerializer[BackupSchedule]):
    """When and where config archives are written, how many are kept, how the last run went."""

    passphrase = serializers.CharField(
        max_length=1024, trim_whitespace=False, write_only=True, required=False, default="",
        help_text="Seals every scheduled archive; kept nowhere (only a public key is). Needed "
        "to switch the schedule on the first time, or to change it.",
    )  # fmt: skip
    sealed = serializers.SerializerMethodField(help_text="Whether a passphrase has been set.")
    next_runs = serializers.SerializerMethodField()

    class Meta:
        model = BackupSchedule
        fields = (
            "enabled", "dataset", "keep", "minutes", "hours", "days_of_week", "passphrase",
            "sealed", "next_runs", "last_run_at", "last_file", "last_error",
        )  # fmt: skip
        read_only_fields = ("last_run_at", "last_file", "last_error")
        extra_kwargs: dict[str, Any] = {
            "dataset": {"help_text": "The file system the archives are written into."},
            "keep": {"help_text": "How many of the schedule's archives stay there (1-1000)."},
        }

    def get_sealed(self, row: BackupSchedule) -> bool:
        return bool(row.public_key)

    def get_next_runs(self, row: BackupSchedule) -> list[datetime]:
        return selectors.upcoming(row)
