"""Writes to targets and their portal groups."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from nasui.validation import fail
from sharing.apply import serialized
from sharing.iscsi import validation as v
from sharing.iscsi.selectors import used_by_discovery
from sharing.iscsi.services.common import ISCSI, saved_and_applied
from sharing.models import AuthGroup, InitiatorGroup, Target, TargetGroup


def _clean_groups(groups: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Check each (portal, initiator group, auth method, auth group) entry."""
    if not groups:
        raise fail("groups.portal", "A target needs at least one portal.")
    cleaned = []
    for entry in groups:
        method = entry.get("auth_method") or TargetGroup.AuthMethod.NONE
        v.check_auth_choice(method, entry.get("auth_group"), "groups.")
        if entry.get("portal") is None:
            raise fail("groups.portal", "Pick a portal.")
        cleaned.append({**entry, "auth_method": method})
    return cleaned


def _save_groups(target: Target, groups: list[dict[str, Any]]) -> None:
    """Replace the target's portal groups with the checked entries."""
    target.groups.all().delete()
    TargetGroup.objects.bulk_create(
        TargetGroup(
            target=target,
            portal=g["portal"],
            initiator_group=g.get("initiator_group"),
            auth_method=g["auth_method"],
            auth_group=g.get("auth_group") if g["auth_method"] != "none" else None,
        )
        for g in groups
    )


@serialized(*ISCSI)
def target_create(*, name: str, alias: str = "", groups: Sequence[dict[str, Any]]) -> Target:
    """A new target reachable through the given portals."""
    name = v.validate_target_name(name)
    if Target.objects.filter(name=name).exists():
        raise fail("name", "A target with this name exists.")
    cleaned = _clean_groups(groups)

    def change() -> Target:
        target = Target.objects.create(name=name, alias=alias.strip())
        _save_groups(target, cleaned)
        return target

    return saved_and_applied(change)


@serialized(*ISCSI)
def target_update(
    *, target: Target, name: str, alias: str = "", groups: Sequence[dict[str, Any]]
) -> Target:
    """Rename a target or change who reaches it, how."""
    name = v.validate_target_name(name)
    if Target.objects.filter(name=name).exclude(pk=target.pk).exists():
        raise fail("name", "A target with this name exists.")
    cleaned = _clean_groups(groups)

    def change() -> Target:
        target.name, target.alias = name, alias.strip()
        target.save()
        _save_groups(target, cleaned)
        return target

    return saved_and_applied(change)


def target_delete(*, target: Target) -> None:
    """Delete a target; its LUN mappings go with it (the extents stay), and so do the
    initiator and auth groups the wizard made for it, unless another target uses them."""
    groups = list(target.groups.select_related("initiator_group", "auth_group"))

    def change() -> None:
        target.delete()
        for group in groups:
            for made in (group.initiator_group, group.auth_group):
                if made is not None and made.made_for == target.name and not _used(made):
                    made.delete()

    saved_and_applied(change)


def _used(group: InitiatorGroup | AuthGroup) -> bool:
    """Whether any target still refers to this initiator or auth group."""
    if isinstance(group, InitiatorGroup):
        return TargetGroup.objects.filter(initiator_group=group).exists()
    return TargetGroup.objects.filter(auth_group=group).exists() or used_by_discovery(group)
