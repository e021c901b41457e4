"""A panel user's role (the users themselves are Django's: their names and password hashes)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from access.users.engine import roles


class PanelRole(models.Model):
    """What a panel user may change. An administrator made before roles existed (Django's
    staff, as the first boot's `admin`) has no row and counts as an administrator."""

    class Role(models.TextChoices):
        ADMIN = roles.ADMIN, roles.LABELS[roles.ADMIN]
        SHARING = roles.SHARING, roles.LABELS[roles.SHARING]
        READ_ONLY = roles.READ_ONLY, roles.LABELS[roles.READ_ONLY]

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="panel_role",
    )
    role = models.CharField(max_length=16, choices=Role.choices, default=Role.READ_ONLY)

    def __str__(self) -> str:
        return f"{self.user} ({self.get_role_display()})"
