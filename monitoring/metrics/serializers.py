"""Serializers of the monitoring API: query parameters in, figures out."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from monitoring.metrics.selectors import DEFAULT_RANGE, RANGES


class SeriesQuerySerializer(serializers.Serializer[Any]):
    """Which metrics, over which range, optionally only the points after `since`."""

    metric = serializers.ListField(
        child=serializers.RegexField(r"^[A-Za-z0-9_.:-]{1,300}$"),
        min_length=1,
        max_length=20,
        help_text="Metric names (repeat the parameter, or separate with commas).",
    )
    range = serializers.ChoiceField(choices=list(RANGES), default=DEFAULT_RANGE)
    since = serializers.FloatField(
        required=False, help_text="Unix time: only points after it (for live appends)."
    )


class SeriesSerializer(serializers.Serializer[Any]):
    """One metric's points: [Unix time, value]; rollup ranges give each bucket's average."""

    metric = serializers.CharField()
    # (a declared field named "label" shadows Field.label only in the type stubs)
    label = serializers.CharField(help_text="The metric in words, for a legend.")  # type: ignore[assignment]
    unit = serializers.CharField()
    points = serializers.ListField(
        child=serializers.ListField(child=serializers.FloatField(allow_null=True))
    )


class SeriesResponseSerializer(serializers.Serializer[Any]):
    """The answer of /series/: the range, its resolution (0 = raw samples) and the series."""

    range = serializers.CharField()
    resolution = serializers.IntegerField(help_text="Seconds per point; 0 for raw samples.")
    seconds = serializers.IntegerField(help_text="How far back the range goes.")
    series = SeriesSerializer(many=True)


class CurrentSerializer(serializers.Serializer[Any]):
    """The newest sample: every metric's value and unit, pool health, unavailable sources."""

    t = serializers.FloatField(allow_null=True, help_text="Unix time of the sample.")
    age_seconds = serializers.FloatField(allow_null=True)
    values = serializers.DictField(child=serializers.FloatField())
    units = serializers.DictField(child=serializers.CharField())
    health = serializers.DictField(child=serializers.CharField())
    unavailable = serializers.DictField(
        child=serializers.CharField(), help_text="Collectors with no source here, and why."
    )


class AlertSerializer(serializers.Serializer[Any]):
    """A problem to act on, with a plain explanation."""

    level = serializers.ChoiceField(choices=["danger", "warning"])
    kind = serializers.ChoiceField(choices=["pool_health", "pool_full", "swap", "ddt"])
    subject = serializers.CharField()
    title = serializers.CharField()
    text = serializers.CharField()
