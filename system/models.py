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
