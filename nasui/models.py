"""Core models: background jobs, personal API tokens, and the base of one-row settings tables."""

from __future__ import annotations

from typing import Self

from django.conf import settings
from django.core.validators import MaxValueValidator
from django.db import models


class SettingsRow(models.Model):
    """A table holding one row of settings (pk 1), made with its defaults on first use."""

    class Meta:
        abstract = True

    @classmethod
    def load(cls) -> Self:
        """The single settings row, created with defaults on first use."""
        row, _ = cls._default_manager.get_or_create(pk=1)
        return row


class Job(models.Model):
    """One piece of long work run by a Celery worker, with progress the UI polls."""

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        RUNNING = "running", "Running"
        SUCCEEDED = "succeeded", "Succeeded"
        FAILED = "failed", "Failed"
        CANCELLED = "cancelled", "Cancelled"

    FINISHED = (Status.SUCCEEDED, Status.FAILED, Status.CANCELLED)

    kind = models.CharField(max_length=64, help_text="What the job does, e.g. pool.create.")
    title = models.CharField(max_length=200, help_text="A human sentence naming the work.")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    progress = models.PositiveSmallIntegerField(default=0, validators=[MaxValueValidator(100)])
    message = models.CharField(max_length=500, blank=True)
    arguments = models.JSONField(default=dict, blank=True)
    result = models.JSONField(null=True, blank=True)
    error = models.TextField(blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    # host:pid of the process running the job, so a job whose worker died can be failed.
    worker = models.CharField(max_length=300, blank=True)
    # A job that checks for a cancel between steps (and cleans up after itself) says so when
    # it starts; the others (a pool being created) run to the end once started.
    cancellable = models.BooleanField(default=False)
    cancel_requested = models.BooleanField(default=False)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["status"])]

    def __str__(self) -> str:
        return f"{self.title} ({self.get_status_display()})"

    @property
    def is_finished(self) -> bool:
        """True once the job has succeeded or failed."""
        return self.status in self.FINISHED

    @property
    def can_cancel(self) -> bool:
        """True while a cancellable job may still be asked to stop."""
        return self.cancellable and not self.is_finished and not self.cancel_requested


class ApiToken(models.Model):
    """A personal REST API token; only a hash of the secret is stored."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(max_length=100, help_text="What the token is for.")
    prefix = models.CharField(max_length=16, help_text="The first characters, to recognise it.")
    key_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    last_used_from = models.GenericIPAddressField(null=True, blank=True)
    read_only = models.BooleanField(
        default=False, help_text="Reads only, whatever its owner's role may change."
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "name"],
                condition=models.Q(revoked_at__isnull=True),
                name="unique_active_token_name_per_user",
            )
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @property
    def is_active(self) -> bool:
        """True until the token is revoked."""
        return self.revoked_at is None


class PasswordChangeDue(models.Model):
    """A user whose password the machine chose (the console shows it): they must choose their own
    before they use the panel or the API. The row goes when they do."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="password_change_due",
    )
    since = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.user} must choose a password"
