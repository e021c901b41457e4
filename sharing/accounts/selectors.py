"""Reads of the local accounts: users and groups, and the accounts engines' desired state."""

from __future__ import annotations

from django.db.models import QuerySet

from sharing.accounts.engine.desired import Accounts, GroupSpec, UserSpec
from sharing.models import (
    LocalGroup,
    LocalUser,
)
from storage import registry


def local_user_list() -> QuerySet[LocalUser]:
    """Every local user with its groups."""
    return LocalUser.objects.select_related("group").prefetch_related("groups")


def local_group_list() -> QuerySet[LocalGroup]:
    """Every local group."""
    return LocalGroup.objects.all()


def build_accounts() -> Accounts:
    """Every local user and group, with extra members listed on their groups."""
    users = LocalUser.objects.select_related("group").prefetch_related("groups")
    members: dict[str, list[str]] = {}
    for user in users:
        for group in user.groups.all():
            members.setdefault(group.name, []).append(user.username)
    return Accounts(
        users=tuple(
            UserSpec(
                name=u.username,
                uid=u.uid,
                group=u.group.name,
                full_name=u.full_name,
                disabled=u.disabled,
                nt_hash=u.nt_hash or None,
            )
            for u in users
        ),
        groups=tuple(
            GroupSpec(name=g.name, gid=g.gid, members=tuple(sorted(members.get(g.name, ()))))
            for g in LocalGroup.objects.all()
        ),
    )


def local_accounts() -> registry.Accounts:
    """The panel's local users and groups by name (disabled users still own their files)."""
    return registry.Accounts(
        users=dict(LocalUser.objects.values_list("username", "uid")),
        groups=dict(LocalGroup.objects.values_list("name", "gid")),
    )
