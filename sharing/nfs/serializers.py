"""Serializers of the NFS API: exports and the server's settings."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from sharing.models import NfsSettings, NfsShare
from storage.datasets.serializers import MountpointField


class NfsShareSerializer(serializers.ModelSerializer[NfsShare]):
    """An NFS export of a dataset's mountpoint to some networks and hosts."""

    path = MountpointField(help_text="The mountpoint of a dataset, e.g. /tank/media.")
    dataset = serializers.CharField(read_only=True)
    networks = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="CIDR, e.g. 192.168.1.0/24."
    )
    hosts = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="Host names or addresses."
    )

    class Meta:
        model = NfsShare
        fields = [
            "id",
            "path",
            "dataset",
            "comment",
            "networks",
            "hosts",
            "read_only",
            "map_mode",
            "map_user",
            "map_group",
            "enabled",
        ]


class NfsSettingsSerializer(serializers.ModelSerializer[NfsSettings]):
    """NFSv4 is always on (port 2049); v3 next to it if asked."""

    class Meta:
        model = NfsSettings
        fields = ["v3"]
        extra_kwargs: dict[str, Any] = {"v3": {"required": True}}
