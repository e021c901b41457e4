"""Writes of panel users: add one with a role, change a role or a password, switch one off,
remove one. The panel keeps at least one active administrator whatever is asked."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.db import transaction

from access.sessions import services as sessions
from access.users.engine import roles
from access.users.models import PanelRole
from access.users.selectors import administrators_left, role_of

LAST_ADMINISTRATOR = "The panel needs at least one active administrator: make another one first."


def _check_username(username: str) -> str:
    username = username.strip()
    if not username:
        raise ValidationError({"username": "Give the user a name to sign in with."})
    try:
        UnicodeUsernameValidator()(username)
    except ValidationError as exc:
        raise ValidationError({"username": exc.messages}) from exc
    if len(username) > 150:
        raise ValidationError({"username": "At most 150 characters."})
    if User.objects.filter(username__iexact=username).exists():
        raise ValidationError({"username": f"There is already a user named {username}."})
    return username


def _check_role(role: str) -> str:
    if role not in roles.LABELS:
        choices = ", ".join(roles.LABELS)
        raise ValidationError({"role": f"Choose one of {choices}."})
    return role


def _check_password(password: str, user: User | None = None) -> None:
    if not password:
        raise ValidationError({"password": "Choose a password for the user."})
    try:
        validate_password(password, user)
    except ValidationError as exc:
        raise ValidationError({"password": exc.messages}) from exc


@transaction.atomic
def user_create(*, username: str, password: str, role: str) -> User:
    """A new panel user with this role and password."""
    username = _check_username(username)
    _check_role(role)
    _check_password(password, User(username=username))
    user = User.objects.create_user(username=username, password=password)
    PanelRole.objects.create(user=user, role=role)
    return user


@transaction.atomic
def user_update(
    *, user: User, role: str, is_active: bool, by: User, username: str | None = None
) -> User:
    """Change a user's role or switch them on or off (never the last administrator's, nor
    one's own: another administrator does that); the name, if given, must be theirs."""
    if username is not None and username != user.username:
        raise ValidationError({"username": "A user's name cannot change: add a new user instead."})
    _check_role(role)
    if user.pk == by.pk and (role != role_of(user) or not is_active):
        field = "role" if role != role_of(user) else "is_active"
        raise ValidationError({field: "Not your own: another administrator changes that."})
    was_admin = role_of(user) == roles.ADMIN
    if was_admin and (role != roles.ADMIN or not is_active) and not administrators_left(user):
        raise ValidationError({"role" if is_active else "is_active": LAST_ADMINISTRATOR})
    PanelRole.objects.update_or_create(user=user, defaults={"role": role})
    user.is_active = is_active
    user.save(update_fields=["is_active"])
    return user


def user_password_set(*, user: User, password: str) -> User:
    """Give a user a new password (an administrator's reset)."""
    _check_password(password, user)
    user.set_password(password)
    user.save(update_fields=["password"])
    sessions.sessions_end(user=user)  # a reset password signs them out everywhere
    return user


@transaction.atomic
def user_delete(*, user: User, by: User) -> None:
    """Remove a panel user (not oneself, not the last administrator)."""
    if user.pk == by.pk:
        raise ValidationError({"user": "You cannot remove yourself: ask another administrator."})
    if role_of(user) == roles.ADMIN and not administrators_left(user):
        raise ValidationError({"user": LAST_ADMINISTRATOR})
    user.delete()
