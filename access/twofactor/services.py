"""Writes of two-factor sign-in: set it up (a secret, then a first code confirms it and the
recovery codes are shown once), check a code at sign-in (each good once), turn it off, and
who must use it."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from access.twofactor import selectors
from access.twofactor.engine import totp
from access.twofactor.models import RecoveryCode, TotpDevice

WRONG_CODE = "That code is not right: type the 6 digits your authenticator app shows now."
USED_CODE = "That code was used already: wait for the next one."


def setup_start(*, user: User) -> TotpDevice:
    """A new secret for the user's authenticator, not yet in force (a first code confirms it).
    Starting again replaces a secret not yet confirmed; a confirmed one stays until turned off."""
    device = selectors.device_of(user)
    if device is not None and device.confirmed_at is not None:
        raise ValidationError({"code": "Two-factor sign-in is on: turn it off first."})
    device, _ = TotpDevice.objects.update_or_create(
        user=user, defaults={"secret": totp.new_secret(), "confirmed_at": None, "last_step": 0}
    )
    return device


@transaction.atomic
def setup_confirm(*, user: User, code: str) -> list[str]:
    """The first code from the app puts the secret in force; the recovery codes, shown once."""
    device = selectors.device_of(user)
    if device is None or device.confirmed_at is not None:
        raise ValidationError({"code": "Start the set-up first: scan a new QR code."})
    step = totp.matching_step(device.secret, code)
    if step is None:
        raise ValidationError({"code": WRONG_CODE})
    device.confirmed_at, device.last_step = timezone.now(), step
    device.save(update_fields=["confirmed_at", "last_step"])
    return recovery_codes_new(user=user)


def recovery_codes_new(*, user: User) -> list[str]:
    """Replace the user's recovery codes with ten new ones (returned once, kept hashed)."""
    codes = totp.new_recovery_codes()
    RecoveryCode.objects.filter(user=user).delete()
    RecoveryCode.objects.bulk_create(
        RecoveryCode(user=user, code_hash=totp.recovery_hash(code)) for code in codes
    )
    return codes


@transaction.atomic
def code_check(*, user: User, code: str) -> None:
    """A sign-in's code: the app's (each step good once, none older than the last) or an
    unused recovery code (used up by this). A ValidationError on field `code` otherwise."""
    device = TotpDevice.objects.select_for_update().filter(user=user).first()
    if device is None or device.confirmed_at is None:
        return
    step = totp.matching_step(device.secret, code)
    if step is not None:
        if step <= device.last_step:
            raise ValidationError({"code": USED_CODE})
        device.last_step = step
        device.save(update_fields=["last_step"])
        return
    spare = RecoveryCode.objects.filter(
        user=user, code_hash=totp.recovery_hash(code), used_at__isnull=True
    ).first()
    if spare is None:
        raise ValidationError({"code": WRONG_CODE})
    spare.used_at = timezone.now()
    spare.save(update_fields=["used_at"])


@transaction.atomic
def turn_off(*, user: User, by: User, code: str = "") -> None:
    """Turn a user's two-factor sign-in off: oneself with a current code; an administrator
    for someone who lost their phone and their recovery codes."""
    if by.pk == user.pk:
        code_check(user=user, code=code)
        if selectors.required(user):
            raise ValidationError({"code": "Two-factor sign-in is required for you: it stays on."})
    TotpDevice.objects.filter(user=user).delete()
    RecoveryCode.objects.filter(user=user).delete()


def required_set(*, user: User, required: bool) -> None:
    """Whether this user must sign in with a code (whatever the policy for everyone)."""
    row = selectors.policy()
    if required:
        row.required_users.add(user)
    else:
        row.required_users.remove(user)


def policy_update(*, required_for_everyone: bool, required_users: list[User]) -> None:
    """Who must sign in with a code."""
    row = selectors.policy()
    row.required_for_everyone = required_for_everyone
    row.save(update_fields=["required_for_everyone"])
    row.required_users.set(required_users)
