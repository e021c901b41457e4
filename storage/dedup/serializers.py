"""Serializers of the dedup estimate: the query in, the estimate out."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from storage import validation as v


class DedupEstimateQuerySerializer(serializers.Serializer[Any]):
    """What to estimate: an amount of data, its block size, and the pool for its own figures."""

    pool = serializers.CharField(required=False, allow_blank=True)
    size = serializers.CharField(required=False, default="1T")
    block_size = serializers.IntegerField(
        required=False, default=v.DEFAULT_RECORDSIZE, min_value=512
    )


class DedupEstimateSerializer(serializers.Serializer[Any]):
    """DDT entries and RAM the data would need, against RAM and the ARC limit."""

    data_bytes = serializers.IntegerField()
    block_size = serializers.IntegerField()
    entries = serializers.IntegerField()
    core_bytes_per_entry = serializers.IntegerField()
    per_entry_source = serializers.CharField()
    ram_bytes = serializers.IntegerField()
    ram_total = serializers.IntegerField()
    arc_max = serializers.IntegerField()
    arc_max_source = serializers.CharField()
    share_of_arc = serializers.FloatField()
    share_of_ram = serializers.FloatField()
    verdict = serializers.CharField()
    explanation = serializers.CharField()
