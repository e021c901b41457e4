"""The system app's tables: the schedule of config backups onto a dataset, the clock's settings."""

from __future__ import annotations

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models

from nasui.models import SettingsRow


class BackupSchedule(SettingsRow):
    """Config archives written onto a dataset on a schedule, the newest `keep` of them kept.

    The passphrase is not kept: only what it gives that may be (engine/archive.py's recipient:
    the salt and the public key). Every scheduled archive opens with that passphrase alone.
    """

    enabled = models.BooleanField(default=False)
    dataset = models.CharField(max_length=255, blank=True)
    keep = models.PositiveIntegerField(
        default=7, validators=[MinValueValidator(1), MaxValueValidator(1000)]
    )
    minutes = models.CharField(max_length=100, default="0")
    hours = models.CharField(max_length=100, default="3")
    days_of_week = models.CharField(max_length=100, default="*")
    salt = models.CharField(max_length=64, blank=True)  # base64
    public_key = models.CharField(max_length=64, blank=True)  # base64, X25519
    created_at = models.DateTimeField(auto_now_add=True)
    last_slot = models.DateTimeField(null=True, blank=True)
    last_run_at = models.DateTimeField(null=True, blank=True)
    last_file = models.CharField(max_length=1024, blank=True)
    last_error = models.TextField(blank=True)

    class Meta:
        ordering = ["pk"]


class ClockSettings(SettingsRow):
    """The box's time zone and the NTP servers it follows (none: Debian's pool)."""

    time_zone = models.CharField(max_length=64, default="UTC")
    ntp_servers = models.CharField(max_length=1024, blank=True)  # space-separated

    def servers(self) -> list[str]:
        """The NTP servers as a list."""
        return self.ntp_servers.split()


class UpsSettings(SettingsRow):
    """The UPS the box runs on (Network UPS Tools), when it shuts down, and whether it serves
    the UPS's state to other machines. Passwords are write-only: never shown back."""

    class Mode(models.TextChoices):
        OFF = "off", "No UPS"
        USB = "usb", "USB UPS on this box (usbhid-ups)"
        NETWORK = "network", "UPS served by another machine's NUT server"
        DUMMY = "dummy", "Simulated UPS from a .dev file (dummy-ups, for tests)"

    class Policy(models.TextChoices):
        BATTERY_SECONDS = "battery_seconds", "After some time on battery"
        LOW_BATTERY = "low_battery", "When the battery is low"

    mode = models.CharField(max_length=16, choices=Mode.choices, default=Mode.OFF)
    name = models.CharField(max_length=32, default="ups")  # the UPS's name in NUT
    dummy_file = models.CharField(max_length=1024, blank=True)
    remote_host = models.CharField(max_length=253, blank=True)
    remote_port = models.PositiveIntegerField(
        default=3493, validators=[MinValueValidator(1), MaxValueValidator(65535)]
    )
    remote_user = models.CharField(max_length=32, blank=True)
    remote_password = models.CharField(max_length=64, blank=True)
    shutdown_policy = models.CharField(
        max_length=16, choices=Policy.choices, default=Policy.BATTERY_SECONDS
    )
    battery_seconds = models.PositiveIntegerField(
        default=300, validators=[MinValueValidator(5), MaxValueValidator(86400)]
    )
    server_enabled = models.BooleanField(default=False)
    server_address = models.CharField(max_length=64, default="0.0.0.0")  # noqa: S104
    monitor_user = models.CharField(max_length=32, default="monitor")
    monitor_password = models.CharField(max_length=64, blank=True)
    # The panel's own upsmon account on its upsd (made once, never shown).
    panel_password = models.CharField(max_length=64, blank=True)

    class Meta:
        ordering = ["pk"]
