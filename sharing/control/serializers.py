"""Bodies of the services API: a service's state, start at boot, and an action."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from nasui.lib.switch import ACTIONS


class SessionSerializer(serializers.Serializer[Any]):
    """An initiator connected to the iSCSI target."""

    initiator = serializers.CharField()
    address = serializers.CharField()
    target = serializers.CharField()


class ServiceSerializer(serializers.Serializer[Any]):
    """A service: engine, port, whether it runs, whether it starts at boot, what it offers."""

    name = serializers.CharField(help_text="iscsi, smb or nfs.")
    label = serializers.CharField()  # type: ignore[assignment]
    engine = serializers.CharField(help_text="What serves it: tgt or LIO, whose smbd, kernel NFS.")
    port = serializers.IntegerField(allow_null=True)
    served = serializers.BooleanField(help_text="False where this machine does not serve it.")
    running = serializers.BooleanField()
    enable = serializers.BooleanField(help_text="Start at boot.")
    actions = serializers.ListField(
        child=serializers.CharField(), help_text="What makes sense now: start, stop, restart."
    )
    message = serializers.CharField(allow_blank=True)
    sessions = SessionSerializer(many=True, help_text="iSCSI only: connected initiators.")


class ServiceEnableSerializer(serializers.Serializer[Any]):
    """Turn start at boot on or off."""

    enable = serializers.BooleanField(help_text="Start the service at boot.")


class ServiceActionSerializer(serializers.Serializer[Any]):
    """Start, stop or restart now."""

    action = serializers.ChoiceField(choices=ACTIONS)
