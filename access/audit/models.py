"""The audit log: one row per change asked of the panel (pages or API) and per sign-in."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from nasui.models import SettingsRow


class AuditEntry(models.Model):
    """Who asked for what, from where, and what came of it. Never a request's body: the
    action is the view's name and the object comes from the URL, so no secret gets in."""

    class Result(models.TextChoices):
        DONE = "done", "Done"
        REFUSED = "refused", "Refused"
        FAILED = "failed", "Failed"

    at = models.DateTimeField(auto_now_add=True, db_index=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    username = models.CharField(max_length=150, blank=True, db_index=True)
    address = models.GenericIPAddressField(null=True, blank=True)
    via = models.CharField(max_length=8)  # page | api | sign-in
    method = models.CharField(max_length=8)
    action = models.CharField(max_length=120, db_index=True)
    target = models.CharField(max_length=300, blank=True)
    path = models.CharField(max_length=500)
    result = models.CharField(max_length=8, choices=Result.choices, db_index=True)
    status = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.username or '-'} {self.action} {self.result}"


class AuditSettings(SettingsRow):
    """How long the audit log is kept."""

    keep_days = models.PositiveIntegerField(default=365)

    def __str__(self) -> str:
        return f"audit log kept {self.keep_days} days"
