"""Where each user is signed in: one row per browser session, beside Django's own session."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class SignedIn(models.Model):
    """A browser signed in as a user: from where, with what, since when, last seen when."""

    session_key = models.CharField(max_length=40, unique=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="signed_in"
    )
    address = models.GenericIPAddressField(null=True, blank=True)
    browser = models.CharField(max_length=200, blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    last_seen_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-last_seen_at", "-id"]

    def __str__(self) -> str:
        return f"{self.user} from {self.address or '?'}"
