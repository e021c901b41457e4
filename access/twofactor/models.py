"""Two-factor sign-in: each user's TOTP secret and recovery codes, and who must use it."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from nasui.models import SettingsRow


class TotpDevice(models.Model):
    """A user's authenticator: its secret, whether its first code confirmed it, and the last
    time step a code was used for (a code is good once)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="totp"
    )
    secret = models.CharField(max_length=64)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    last_step = models.BigIntegerField(default=0)

    def __str__(self) -> str:
        state = "on" if self.confirmed_at else "being set up"
        return f"two-factor sign-in of {self.user} ({state})"


class RecoveryCode(models.Model):
    """One single-use recovery code of a user, kept as its hash."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="recovery_codes"
    )
    code_hash = models.CharField(max_length=64)
    used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "code_hash"], name="unique_recovery_code")
        ]

    def __str__(self) -> str:
        return f"recovery code of {self.user}"


class TwoFactorPolicy(SettingsRow):
    """Whether every panel user must sign in with a code (each user may be required alone)."""

    required_for_everyone = models.BooleanField(default=False)
    required_users = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True)

    def __str__(self) -> str:
        return "two-factor sign-in policy"
