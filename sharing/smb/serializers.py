"""Serializers of the SMB API: shares and the server's settings."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from sharing.models import SmbSettings, SmbShare
from storage.datasets.serializers import MountpointField


class SmbSettingsSerializer(serializers.ModelSerializer[SmbSettings]):
    """The SMB server's names and the addresses it listens on (empty: all)."""

    bind = serializers.ListField(  # type: ignore[assignment]
        child=serializers.CharField(), required=False, help_text="Addresses; empty: all."
    )

    class Meta:
        model = SmbSettings
        fields = ["netbios_name", "workgroup", "description", "bind"]
        extra_kwargs: dict[str, Any] = {
            "netbios_name": {"required": True},
            "workgroup": {"required": True},
        }


class SmbShareSerializer(serializers.ModelSerializer[SmbShare]):
    """An SMB share of a dataset's mountpoint and who may use it (no users, no groups: all)."""

    path = MountpointField(help_text="The mountpoint of a dataset, e.g. /tank/media.")
    dataset = serializers.CharField(read_only=True)

    class Meta:
        model = SmbShare
        fields = [
            "id",
            "name",
            "path",
            "dataset",
            "comment",
            "read_only",
            "browseable",
            "guest_ok",
            "users",
            "groups",
            "shadow_copy",
            "fruit",
            "time_machine",
            "time_machine_limit",
            "audit",
            "enabled",
        ]
        extra_kwargs: dict[str, Any] = {"name": {"validators": []}}
