"""The network through the API: the settings to set; the interfaces and a waiting change to read."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers


class InterfaceSerializer(serializers.Serializer[Any]):
    """One interface the panel sets."""

    name = serializers.CharField(max_length=15, help_text="The kernel's name (enp0s3).")
    dhcp = serializers.BooleanField(default=True, help_text="DHCP (true) or static addresses.")
    addresses = serializers.ListField(
        child=serializers.CharField(max_length=50), max_length=16, default=list,
        help_text="Static addresses with their prefix length (192.168.1.20/24, 2001:db8::20/64).",
    )  # fmt: skip
    gateway4 = serializers.CharField(max_length=45, default="", allow_blank=True)
    gateway6 = serializers.CharField(max_length=45, default="", allow_blank=True)
    mtu = serializers.IntegerField(allow_null=True, default=None, help_text="Null: the default.")


class PresentSerializer(serializers.Serializer[Any]):
    """An interface of the machine as the kernel shows it."""

    name = serializers.CharField()
    addresses = serializers.ListField(child=serializers.CharField())
    mac = serializers.CharField()
    up = serializers.BooleanField()
    mtu = serializers.IntegerField()


class PendingSerializer(serializers.Serializer[Any]):
    """A change in force on probation."""

    deadline = serializers.DateTimeField(help_text="Undone then unless confirmed.")
    applied = serializers.BooleanField(help_text="Whether the worker has put it in force yet.")


class UndoneSerializer(serializers.Serializer[Any]):
    """The last change undone, and why."""

    reason = serializers.CharField()
    at = serializers.DateTimeField()


class NetworkSerializer(serializers.Serializer[Any]):
    """The settings; what is present; a change waiting for its confirmation."""

    hostname = serializers.CharField(max_length=63)
    interfaces = InterfaceSerializer(
        many=True, default=list, help_text="Interfaces not listed keep the image's DHCP."
    )
    dns = serializers.ListField(
        child=serializers.CharField(max_length=45), max_length=8, default=list
    )
    present = PresentSerializer(many=True, read_only=True)
    pending = PendingSerializer(read_only=True, allow_null=True)
    last_undone = UndoneSerializer(read_only=True, allow_null=True)
    applied = serializers.BooleanField(
        read_only=True, help_text="Whether this panel sets the box's network (the appliance)."
    )
    token = serializers.CharField(
        read_only=True, allow_null=True,
        help_text="In the answer to a change on probation: POST it to confirm/ through the "
        "new address.",
    )  # fmt: skip


class ConfirmSerializer(serializers.Serializer[Any]):
    """The token of the change to keep."""

    token = serializers.CharField(max_length=64)
