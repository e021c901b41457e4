"""Updates through the API: the file to apply; the releases and slots to read."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from system.updates.services import DEFAULT_HEALTH_SECONDS, HEALTH_SECONDS


class UpdateStartSerializer(serializers.Serializer[Any]):
    """A signed update file on a dataset."""

    path = serializers.CharField(
        max_length=4096,
        help_text="The file's full path on a dataset (/mnt/tank/share/nasui-update.tar).",
    )
    health_seconds = serializers.IntegerField(
        min_value=HEALTH_SECONDS[0], max_value=HEALTH_SECONDS[1], default=DEFAULT_HEALTH_SECONDS,
        help_text="Seconds after its start for the new release to answer, or the box goes back.",
    )  # fmt: skip


class OutcomeSerializer(serializers.Serializer[Any]):
    """How the last update or roll-back ended."""

    release = serializers.CharField()
    kept = serializers.BooleanField()
    reason = serializers.CharField()
    at = serializers.DateTimeField()


class TrialSerializer(serializers.Serializer[Any]):
    """A release being tried."""

    slot = serializers.CharField()
    release = serializers.CharField()
    previous = serializers.CharField()
    health_seconds = serializers.IntegerField()


class UpdateStatusSerializer(serializers.Serializer[Any]):
    """The release running, its slot, the other slot's release, a trial, the last outcome."""

    applies = serializers.BooleanField(
        help_text="Whether this panel updates its machine (the appliance)."
    )
    release = serializers.CharField()
    running = serializers.CharField(allow_null=True, help_text="The slot this boot runs (A or B).")
    good = serializers.CharField(allow_null=True, help_text="The slot the box boots by default.")
    other_release = serializers.CharField(help_text="What the other slot holds (empty: unknown).")
    can_roll_back = serializers.BooleanField()
    trial = TrialSerializer(allow_null=True)
    last = OutcomeSerializer(allow_null=True)
