"""Serializers of the restore API: what a restore is asked for."""

from __future__ import annotations

from rest_framework import serializers

from replication.restores.services import SNAPSHOT_RULE


class RestoreSerializer(serializers.Serializer[dict[str, str]]):
    """Where the copy comes back and up to which snapshot (both optional)."""

    into = serializers.CharField(
        max_length=255, required=False, allow_blank=True,
        help_text="A dataset that does not exist yet; default: the source's name with “-restored”.",
    )  # fmt: skip
    snapshot = serializers.CharField(
        max_length=200, required=False, allow_blank=True,
        help_text=f"Up to which copy: {SNAPSHOT_RULE}; default: the newest.",
    )  # fmt: skip
