"""Monitoring's tables: metric samples and their rollups; alerts, the SMTP settings, sent mails.

Samples: one row per sampling cycle, and min/avg/max rollups per time bucket.

One row per batch with a JSON object of metrics (not one row per metric): at a 2 s period that
is 1,800 rows an hour instead of ~60,000, one INSERT per cycle, and a series read is a JSON
extract over an indexed time range (see bench/monitoring_cost.py for the figures).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from nasui.models import SettingsRow


class Sample(models.Model):
    """One sampling cycle: every metric's value at time t (Unix seconds), kept for an hour."""

    t = models.FloatField(db_index=True)
    values = models.JSONField(default=dict)
    # pool health by name and the collectors that were not available, for alerts and /current/
    info = models.JSONField(default=dict)

    class Meta:
        ordering = ["t"]

    def __str__(self) -> str:
        return f"sample at {self.t:.0f}"


class Rollup(models.Model):
    """Min, average and maximum of every metric over one bucket (1 minute, 15 minutes, 3 hours)."""

    MINUTE = 60
    QUARTER = 900
    # the year graph's level: 2,920 rows a year where quarter-hours are 35,040
    HOURS = 3 * 3600
    RESOLUTIONS = [(MINUTE, "1 minute"), (QUARTER, "15 minutes"), (HOURS, "3 hours")]

    resolution = models.PositiveSmallIntegerField(choices=RESOLUTIONS)
    t = models.IntegerField()  # bucket start, Unix seconds
    values = models.JSONField(default=dict)  # {metric: [min, avg, max, samples]}

    class Meta:
        ordering = ["resolution", "t"]
        constraints = [
            models.UniqueConstraint(fields=["resolution", "t"], name="monitoring_rollup_unique")
        ]

    def __str__(self) -> str:
        return f"{self.get_resolution_display()} rollup at {self.t}"


# -- alerts -------------------------------------------------------------------------------------


class Level(models.TextChoices):
    """How bad: danger needs action now, warning soon."""

    DANGER = "danger", "Danger"
    WARNING = "warning", "Warning"


class MailState(models.TextChoices):
    """Where the mail of one event (raised or cleared) stands."""

    NONE = "", "Not due"
    PENDING = "pending", "Waiting to be sent"
    SENT = "sent", "Sent"
    OFF = "off", "Not sent: e-mail was off"


class AlertRecord(models.Model):
    """One alert from its raising to its clearing; a condition that returns is a new row."""

    key = models.CharField(max_length=300)  # "pool_health:tank": one open row per key
    source = models.CharField(max_length=50)  # the registry source that reported it
    level = models.CharField(max_length=10, choices=Level.choices)
    kind = models.CharField(max_length=50)
    subject = models.CharField(max_length=255)
    title = models.CharField(max_length=300)
    text = models.TextField()
    raised_at = models.DateTimeField()
    seen_at = models.DateTimeField()  # the last evaluation that still found the condition
    cleared_at = models.DateTimeField(null=True, blank=True)
    dismissed_at = models.DateTimeField(null=True, blank=True)
    dismissed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    raise_mail = models.CharField(max_length=10, choices=MailState.choices, blank=True)
    clear_mail = models.CharField(max_length=10, choices=MailState.choices, blank=True)

    class Meta:
        ordering = ["-raised_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["key"], condition=Q(cleared_at__isnull=True), name="alert_open_key_unique"
            )
        ]

    def __str__(self) -> str:
        return f"{self.level}: {self.title}"

    @property
    def is_open(self) -> bool:
        """The condition still holds."""
        return self.cleared_at is None


class Security(models.TextChoices):
    """How the SMTP connection is protected."""

    NONE = "none", "None (plain text)"
    STARTTLS = "starttls", "STARTTLS (usually port 587)"
    TLS = "tls", "TLS from the start (usually port 465)"


class MailSettings(SettingsRow):
    """The one set of SMTP settings (row 1); the password is stored but never shown."""

    enabled = models.BooleanField(default=False)
    host = models.CharField(max_length=255, blank=True)
    port = models.PositiveIntegerField(default=587)
    security = models.CharField(max_length=10, choices=Security.choices, default=Security.STARTTLS)
    username = models.CharField(max_length=255, blank=True)
    # Plain text: SMTP login needs the password itself, so it cannot be hashed.
    password = models.CharField(max_length=255, blank=True)
    from_address = models.EmailField(blank=True)
    to_addresses = models.JSONField(default=list, blank=True)
    # A CA certificate (PEM) trusted besides the system ones, for a server with its own CA.
    ca_file = models.CharField(max_length=500, blank=True)
    # The panel's own address (https://nas.example.com), for the link in every alert mail.
    panel_url = models.URLField(max_length=300, blank=True)
    last_sent_at = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True)
    last_error_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["id"]
        verbose_name_plural = "mail settings"

    def __str__(self) -> str:
        return f"SMTP {self.host or '(not set)'}:{self.port}"

    @property
    def ready(self) -> bool:
        """On, with somewhere to send from and to."""
        return self.enabled and bool(self.host and self.from_address and self.to_addresses)


class SentMail(models.Model):
    """A mail that went out; alert mails in the last hour count against the hourly limit."""

    class Kind(models.TextChoices):
        """What the mail carried."""

        ALERT = "alert", "One alert event"
        DIGEST = "digest", "A digest of several events"
        TEST = "test", "Test mail"

    sent_at = models.DateTimeField(db_index=True)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    subject = models.CharField(max_length=300)
    recipients = models.TextField()

    class Meta:
        ordering = ["-sent_at", "-id"]

    def __str__(self) -> str:
        return f"{self.sent_at:%Y-%m-%d %H:%M} {self.subject}"


# -- notification channels ----------------------------------------------------------------------


class Channel(models.Model):
    """Somewhere besides e-mail that alert events go: a phone app, a chat, a webhook.

    `options` holds what may be shown (a server's address, a chat id, a body template);
    `secrets` what may only be written (tokens, webhook URLs carrying a key, header values).
    """

    class Kind(models.TextChoices):
        WEBHOOK = "webhook", "Generic webhook"
        NTFY = "ntfy", "ntfy"
        GOTIFY = "gotify", "Gotify"
        SLACK = "slack", "Slack or Mattermost"
        TELEGRAM = "telegram", "Telegram"
        DISCORD = "discord", "Discord"

    name = models.CharField(max_length=100, unique=True)
    kind = models.CharField(max_length=20, choices=Kind.choices)
    enabled = models.BooleanField(default=True)
    levels = models.JSONField(default=list)  # the alert levels it gets: ["danger", "warning"]
    options = models.JSONField(default=dict, blank=True)
    secrets = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # events from this time on are sent (set when made or turned back on): an alert raised
    # while the channel was off is not announced late
    enabled_at = models.DateTimeField()
    last_sent_at = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True)
    last_error_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.name}"


class Notice(models.Model):
    """One alert event (raised or cleared) on its way to one channel; several may go in a digest."""

    class State(models.TextChoices):
        PENDING = "pending", "Waiting to be sent"
        SENT = "sent", "Sent"
        FAILED = "failed", "Not delivered"

    channel = models.ForeignKey(Channel, on_delete=models.CASCADE, related_name="notices")
    alert = models.ForeignKey(AlertRecord, on_delete=models.CASCADE, related_name="notices")
    cleared = models.BooleanField(default=False)
    # the alert's level when queued: a rise from warning to danger is announced again
    level = models.CharField(max_length=10, choices=Level.choices)
    state = models.CharField(max_length=10, choices=State.choices, default=State.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    next_try_at = models.DateTimeField()
    created_at = models.DateTimeField()
    sent_at = models.DateTimeField(null=True, blank=True)
    # True when it went out inside a digest (over the hourly limit), not a message of its own
    in_digest = models.BooleanField(default=False)
    last_error = models.TextField(blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["state", "next_try_at"])]

    def __str__(self) -> str:
        return f"{self.channel.name}: {'cleared' if self.cleared else 'raised'} {self.alert_id}"


class ExporterSettings(SettingsRow):
    """The /metrics endpoint: off until turned on; scraped with a token of its own (hashed)."""

    enabled = models.BooleanField(default=False)
    token_hash = models.CharField(max_length=64, blank=True)
    token_prefix = models.CharField(max_length=16, blank=True)
    token_created_at = models.DateTimeField(null=True, blank=True)
    last_scraped_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["id"]
        verbose_name_plural = "exporter settings"

    def __str__(self) -> str:
        return f"/metrics {'on' if self.enabled else 'off'}"
