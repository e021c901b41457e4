"""Reads of panel users: each one's role, and the list an administrator manages."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Q, QuerySet

from access.users.engine import roles
from access.users.models import PanelRole
from sharing.models import NfsShare, SmbShare


def role_of(user: Any) -> str | None:
    """The role a signed-in user acts with (None: not a user of the panel)."""
    if not (user and user.is_authenticated and user.is_active):
        return None
    try:
        return str(user.panel_role.role)
    except PanelRole.DoesNotExist:
        return roles.ADMIN if user.is_staff else None


def is_shared(dataset: str) -> bool:
    """Whether an SMB or NFS share serves this dataset."""
    return SmbShare.objects.filter(dataset=dataset).exists() or (
        NfsShare.objects.filter(dataset=dataset).exists()
    )


def shared_dataset(url_kwargs: Mapping[str, Any], body: Any) -> bool:
    """Whether a request is about a shared dataset: the one its URL names (a snapshot's
    `name`, dataset@snap) or, failing that, the `dataset` of its body."""
    name = str(url_kwargs.get("name") or "").partition("@")[0]
    if not name and hasattr(body, "get"):
        name = str(body.get("dataset") or "")
    return bool(name) and is_shared(name)


def panel_users() -> QuerySet[User]:
    """Every user of the panel (staff, or with a role), by name, their roles loaded."""
    return (
        User.objects.filter(Q(is_staff=True) | Q(panel_role__isnull=False))
        .select_related("panel_role")
        .order_by("username")
    )


def administrators_left(excluding: User) -> int:
    """How many active administrators there would be without `excluding`."""
    others = panel_users().filter(is_active=True).exclude(pk=excluding.pk)
    return sum(1 for user in others if role_of(user) == roles.ADMIN)
