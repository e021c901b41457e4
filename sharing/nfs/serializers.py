"""Serializers of the NFS API: exports and the server's settings."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from sharing.models import NfsSettings, NfsShare
from sharing.nfs.engine.desired import MAP_MODE_HELP
from sharing.nfs.selectors import export_warnings
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
    warnings = serializers.SerializerMethodField(
        help_text="What is allowed but risky, in words: an export to 0.0.0.0/0 or ::/0 lets "
        "anyone on any network mount it. Empty when nothing is."
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
            "warnings",
        ]
        extra_kwargs: dict[str, Any] = {
            "map_mode": {"help_text": MAP_MODE_HELP},
            "map_user": {"help_text": "The anonymous user (anonuid) root, or everyone, becomes."},
            "map_group": {
                "help_text": "The anonymous group (anongid); null: the user's own group."
            },
        }

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_warnings(self, share: NfsShare) -> list[str]:
        return export_warnings(share)


class NfsSettingsSerializer(serializers.ModelSerializer[NfsSettings]):
    """NFSv4 is always on (port 2049); v3 next to it if asked."""

    class Meta:
        model = NfsSettings
        fields = ["v3"]
        extra_kwargs: dict[str, Any] = {"v3": {"required": True}}
