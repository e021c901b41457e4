"""Writes to the CHAP credentials (auth groups); secrets are stored, never shown back."""

from __future__ import annotations

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError

from nasui.validation import fail
from sharing.apply import serialized
from sharing.iscsi import validation as v
from sharing.iscsi.selectors import used_by_discovery
from sharing.iscsi.services.common import ISCSI, in_use, saved_and_applied
from sharing.models import AuthGroup, AuthMethod, TargetGroup


@serialized(*ISCSI)
def auth_group_create(
    *, tag: int, user: str, secret: str, peer_user: str = "", peer_secret: str = ""
) -> AuthGroup:
    """New CHAP credentials under a tag."""
    if tag < 1:
        raise fail("tag", "A tag is a whole number from 1.")
    if AuthGroup.objects.filter(tag=tag).exists():
        raise fail("tag", f"Tag {tag} is taken.")
    v.check_credentials(user, secret, peer_user, peer_secret)
    return saved_and_applied(
        lambda: AuthGroup.objects.create(
            tag=tag, user=user, secret=secret, peer_user=peer_user, peer_secret=peer_secret
        )
    )


@serialized(*ISCSI)
def auth_group_update(
    *,
    group: AuthGroup,
    user: str,
    secret: str = "",
    peer_user: str = "",
    peer_secret: str = "",
) -> AuthGroup:
    """Change CHAP credentials; an empty secret keeps the stored one (secrets are write-only)."""
    secret = secret or group.secret
    peer_secret = peer_secret or (group.peer_secret if peer_user else "")
    v.check_credentials(user, secret, peer_user, peer_secret)

    def change() -> AuthGroup:
        group.user, group.secret = user, secret
        group.peer_user, group.peer_secret = peer_user, peer_secret
        group.save()
        _check_mutual_targets(group)
        return group

    return saved_and_applied(change)


def _check_mutual_targets(group: AuthGroup) -> None:
    """Targets and discovery set to mutual CHAP need peer credentials in their auth group."""
    if group.mutual:
        return
    mutual = AuthMethod.MUTUAL
    if TargetGroup.objects.filter(auth_group=group, auth_method=mutual).exists():
        raise fail("peer_user", "A target uses this group for mutual CHAP: keep a peer user.")
    if used_by_discovery(group, method=mutual):
        raise fail("peer_user", "Discovery uses this group for mutual CHAP: keep a peer user.")


def auth_group_delete(*, group: AuthGroup) -> None:
    """Delete CHAP credentials no target and no discovery authentication uses."""
    if TargetGroup.objects.filter(auth_group=group).exists():
        raise in_use("auth group")
    if used_by_discovery(group):
        raise ValidationError(
            {
                NON_FIELD_ERRORS: [
                    "Discovery authentication uses this auth group: "
                    "change it in the iSCSI settings first."
                ]
            }
        )
    saved_and_applied(group.delete)
