"""The clock through the API: the zone and servers to set, the time and sync state to read."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers


class ClockSerializer(serializers.Serializer[Any]):
    """The settings, and what the clock says now."""

    time_zone = serializers.CharField(
        max_length=64, required=False, help_text="A zone of the tz database, e.g. Europe/Paris."
    )
    ntp_servers = serializers.ListField(
        child=serializers.CharField(max_length=253), max_length=64, required=False,
        help_text="Host names or addresses (at most 8); empty: Debian's public pool.",
    )  # fmt: skip
    # Text, not a DateTimeField: that would turn it into the panel's own zone (UTC).
    now = serializers.CharField(
        read_only=True, help_text="The time now in the zone, ISO 8601 with its UTC offset."
    )
    applied = serializers.BooleanField(
        read_only=True, help_text="Whether this panel sets the box's clock (the appliance)."
    )
    synchronized = serializers.BooleanField(
        read_only=True, allow_null=True, help_text="systemd's NTPSynchronized (null: not known)."
    )
    server = serializers.CharField(
        read_only=True, allow_null=True, help_text="The NTP server timesyncd follows now."
    )
    offset_ms = serializers.FloatField(
        read_only=True, allow_null=True,
        help_text="The offset from the NTP server at its last answer, in ms (null: none yet).",
    )  # fmt: skip
    system_time_zone = serializers.CharField(
        read_only=True, allow_null=True, help_text="The zone systemd reports (null: not known)."
    )
