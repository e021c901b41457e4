"""The UPS through the API: the settings to set (passwords write-only), the status to read."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from system.models import UpsSettings


class UpsStatusSerializer(serializers.Serializer[Any]):
    """What NUT says about the UPS now."""

    status = serializers.CharField(help_text="NUT's flags: OL (on line), OB (on battery), LB...")
    status_text = serializers.CharField(help_text="The flags in words.")
    charge = serializers.FloatField(allow_null=True, help_text="Battery charge, %.")
    runtime = serializers.IntegerField(allow_null=True, help_text="Runtime left on battery, s.")
    load = serializers.FloatField(allow_null=True, help_text="Load, %.")
    input_voltage = serializers.FloatField(allow_null=True, help_text="Input voltage, V.")
    model = serializers.CharField()


class UpsSerializer(serializers.Serializer[Any]):
    """The settings, and the UPS's state."""

    mode = serializers.ChoiceField(choices=UpsSettings.Mode.choices, required=False)
    name = serializers.CharField(max_length=32, required=False, help_text="The UPS's name in NUT.")
    dummy_file = serializers.CharField(
        max_length=1024, required=False, allow_blank=True,
        help_text="mode dummy (tests): the dummy-ups .dev file.",
    )  # fmt: skip
    remote_host = serializers.CharField(max_length=253, required=False, allow_blank=True)
    remote_port = serializers.IntegerField(min_value=1, max_value=65535, required=False)
    remote_user = serializers.CharField(max_length=32, required=False, allow_blank=True)
    remote_password = serializers.CharField(
        max_length=64, required=False, allow_blank=True, write_only=True,
        help_text="Write-only; empty or left out: kept.",
    )  # fmt: skip
    shutdown_policy = serializers.ChoiceField(choices=UpsSettings.Policy.choices, required=False)
    battery_seconds = serializers.IntegerField(min_value=5, max_value=86400, required=False)
    server_enabled = serializers.BooleanField(required=False)
    server_address = serializers.CharField(max_length=64, required=False)
    monitor_user = serializers.CharField(max_length=32, required=False)
    monitor_password = serializers.CharField(
        max_length=64, required=False, allow_blank=True, write_only=True,
        help_text="Write-only; empty or left out: kept.",
    )  # fmt: skip
    remote_password_set = serializers.BooleanField(read_only=True)
    monitor_password_set = serializers.BooleanField(read_only=True)
    ups = UpsStatusSerializer(read_only=True, allow_null=True, help_text="null: off or unreadable.")
    error = serializers.CharField(read_only=True, help_text="Why the UPS could not be read.")
    last_shutdown = serializers.JSONField(
        read_only=True, allow_null=True, help_text="The last UPS shutdown's steps and failures."
    )
