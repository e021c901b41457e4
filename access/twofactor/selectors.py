"""Reads of two-factor sign-in: who has it on, who must, how many recovery codes are left."""

from __future__ import annotations

from typing import Any

from access.twofactor.models import RecoveryCode, TotpDevice, TwoFactorPolicy


def device_of(user: Any) -> TotpDevice | None:
    """The user's authenticator, confirmed or being set up (None: none)."""
    pk = getattr(user, "pk", None)
    return TotpDevice.objects.filter(user_id=pk).first() if pk is not None else None


def enrolled(user: Any) -> bool:
    """Whether the user signs in with a code (their authenticator is confirmed)."""
    if not getattr(user, "pk", None):
        return False
    return TotpDevice.objects.filter(user_id=user.pk, confirmed_at__isnull=False).exists()


def enrolled_users() -> set[int]:
    """The ids of the users who sign in with a code."""
    confirmed = TotpDevice.objects.filter(confirmed_at__isnull=False)
    return set(confirmed.values_list("user_id", flat=True))


def policy() -> TwoFactorPolicy:
    """Who must sign in with a code."""
    return TwoFactorPolicy.load()


def required(user: Any) -> bool:
    """Whether the user must have a code to sign in (for everyone, or for them)."""
    row = policy()
    return row.required_for_everyone or row.required_users.filter(pk=user.pk).exists()


def required_alone(user: Any) -> bool:
    """Whether this user is required to sign in with a code by name (not by the policy)."""
    return policy().required_users.filter(pk=user.pk).exists()


def setup_due(user: Any) -> bool:
    """A signed-in user who must sign in with a code but has none yet: they set it up first."""
    return bool(getattr(user, "is_authenticated", False)) and required(user) and not enrolled(user)


def recovery_codes_left(user: Any) -> int:
    """The user's unused recovery codes."""
    return RecoveryCode.objects.filter(user_id=user.pk, used_at__isnull=True).count()
