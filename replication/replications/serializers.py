"""Serializers of the replication task API: a task with its state, its runs, the consent."""

from __future__ import annotations

from datetime import datetime

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from replication.models import ReplicationRun, ReplicationTask
from replication.replications import selectors
from replication.replications.services import FIELDS
from replication.replications.validation import NAME_RULE
from storage.snapshot_tasks.serializers import TIME_OF_DAY_HELP, TimeOfDayField

STATE = (
    "last_run_at", "last_error", "refusal", "refusal_choice", "consent", "newest_snapshot",
    "newest_at",
)  # fmt: skip


class ReplicationTaskSerializer(serializers.ModelSerializer[ReplicationTask]):
    """A task: what it copies where, when, how; and the state its runs left."""

    # Declared, not derived from the model: the services say why a name is refused.
    name = serializers.CharField(max_length=64, help_text=f"{NAME_RULE}.")
    exclude = serializers.ListField(
        child=serializers.CharField(max_length=255),
        required=False,
        max_length=1000,
        help_text="Children of the source left out (recursive tasks only).",
    )
    begin = TimeOfDayField(required=False, help_text=f"{TIME_OF_DAY_HELP}: runs start from it.")
    end = TimeOfDayField(required=False, help_text=f"{TIME_OF_DAY_HELP}: no run after it.")
    # Declared: a blank state ("" when there is none) is part of their schema.
    refusal_choice = serializers.ChoiceField(
        choices=ReplicationTask.Choice.choices,
        allow_blank=True,
        read_only=True,
        help_text='What the last refusal asks you to agree to (consent); "": no refusal.',
    )
    consent = serializers.ChoiceField(
        choices=ReplicationTask.Choice.choices,
        allow_blank=True,
        read_only=True,
        help_text='What you agreed to, used once by the next run; "": nothing.',
    )
    trigger_text = serializers.SerializerMethodField()
    next_runs = serializers.SerializerMethodField()

    class Meta:
        model = ReplicationTask
        fields = ("id", *FIELDS, "trigger_text", "next_runs", "created_at", *STATE)
        read_only_fields = ("created_at", *STATE)
        extra_kwargs = {
            "connection": {"help_text": "The SSH connection's id (push and pull; null: local)."},
            "snapshot_task": {
                "help_text": "The id of the periodic snapshot task whose snapshots are sent "
                "(or give naming_schema)."
            },
            "naming_schema": {"help_text": "strftime codes of the snapshots sent, if no task."},
            "minutes": {"help_text": "0-59: '0', '0,30', '*/15' or '*' (trigger schedule)."},
            "hours": {"help_text": "0-23: '0', '9-17', '*/6' or '*' (trigger schedule)."},
            "days_of_week": {"help_text": "mon-sun or 0-6: 'mon-fri', 'sun', '*'."},
            "keep_value": {"help_text": "How long the target keeps them; null keeps every one."},
            "stall_seconds": {"help_text": "Stop a transfer that moves nothing for this long."},
            "max_age_hours": {"help_text": "Alert when the newest copy is older (null: never)."},
        }

    def get_trigger_text(self, task: ReplicationTask) -> str:
        """When the task runs, in words."""
        return selectors.trigger_text(task)

    @extend_schema_field(serializers.ListField(child=serializers.DateTimeField()))
    def get_next_runs(self, task: ReplicationTask) -> list[datetime]:
        """The next slots of a scheduled task (empty for the other triggers)."""
        return selectors.next_runs(task) if task.enabled else []


class ConsentSerializer(serializers.Serializer[None]):
    """The answer to the last refusal: the choice it named, for the next run only."""

    choice = serializers.ChoiceField(
        choices=ReplicationTask.Choice.choices,
        help_text="What the last refusal named (refusal_choice): it destroys data on the target.",
    )


class ReplicationRunSerializer(serializers.ModelSerializer[ReplicationRun]):
    """One run: when, what it moved, how it ended."""

    arrived = serializers.ListField(
        child=serializers.CharField(), read_only=True, help_text="Snapshots that arrived."
    )
    pruned = serializers.ListField(
        child=serializers.CharField(),
        read_only=True,
        help_text="Snapshots the target's retention destroyed.",
    )

    class Meta:
        model = ReplicationRun
        fields = (
            "id", "job", "kind", "started_at", "finished_at", "result", "sent_bytes", "resumed",
            "arrived", "pruned", "message",
        )  # fmt: skip
        read_only_fields = fields
