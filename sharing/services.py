"""Writes to the iSCSI configuration: validate, save, apply to the running target, or undo."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import ProtectedError

from sharing import runtime
from sharing import validation as v
from sharing.models import (
    AuthGroup,
    Extent,
    InitiatorGroup,
    IscsiSettings,
    Portal,
    PortalAddress,
    Target,
    TargetExtent,
    TargetGroup,
)
from sharing.selectors import lowest_free_lun

T = TypeVar("T")


def saved_and_applied(change: Callable[[], T]) -> T:
    """Run `change` and apply the result to the target; if the target refuses, undo both."""
    try:
        with transaction.atomic():
            result = change()
            runtime.apply_configuration()
    except runtime.IscsiApplyError as exc:
        # The database rolled back; bring the running target back to that state too.
        runtime.restore_configuration()
        raise ValidationError({NON_FIELD_ERRORS: [str(exc)]}) from exc
    return result


def _in_use(what: str) -> ValidationError:
    return ValidationError(
        {NON_FIELD_ERRORS: [f"This {what} is in use by a target: change it first."]}
    )


# -- global settings --------------------------------------------------------------------------
def settings_update(*, basename: str, port: int) -> IscsiSettings:
    """Change the base name of target IQNs and the listen port."""
    basename = v.validate_basename(basename)
    if not 1 <= port <= 65535:
        raise v.fail("port", "A port from 1 to 65535.")

    def change() -> IscsiSettings:
        row = IscsiSettings.load()
        row.basename, row.port = basename, port
        row.save()
        return row

    return saved_and_applied(change)


# -- portals -----------------------------------------------------------------------------------
def _addresses(addresses: Sequence[str], portal: Portal | None) -> list[str]:
    """Validated, de-duplicated listen addresses not used by another portal."""
    cleaned = list(dict.fromkeys(v.validate_address(a) for a in addresses if a.strip()))
    if not cleaned:
        raise v.fail("addresses", "Give at least one address (0.0.0.0 listens on all IPv4).")
    taken = PortalAddress.objects.filter(address__in=cleaned)
    if portal is not None:
        taken = taken.exclude(portal=portal)
    clash = taken.first()
    if clash is not None:
        raise v.fail("addresses", f"{clash.address} already belongs to portal {clash.portal_id}.")
    return cleaned


def portal_create(*, addresses: Sequence[str], comment: str = "") -> Portal:
    """A new portal listening on `addresses`."""
    cleaned = _addresses(addresses, None)

    def change() -> Portal:
        portal = Portal.objects.create(comment=comment.strip())
        PortalAddress.objects.bulk_create(PortalAddress(portal=portal, address=a) for a in cleaned)
        return portal

    return saved_and_applied(change)


def portal_update(*, portal: Portal, addresses: Sequence[str], comment: str = "") -> Portal:
    """Change a portal's addresses and comment."""
    cleaned = _addresses(addresses, portal)

    def change() -> Portal:
        portal.comment = comment.strip()
        portal.save()
        portal.addresses.exclude(address__in=cleaned).delete()
        known = set(portal.addresses.values_list("address", flat=True))
        PortalAddress.objects.bulk_create(
            PortalAddress(portal=portal, address=a) for a in cleaned if a not in known
        )
        return portal

    return saved_and_applied(change)


def portal_delete(*, portal: Portal) -> None:
    """Delete a portal no target uses."""
    try:
        saved_and_applied(portal.delete)
    except ProtectedError as exc:
        raise _in_use("portal") from exc


# -- initiator groups --------------------------------------------------------------------------
def _initiator_lists(
    initiators: Sequence[str], networks: Sequence[str]
) -> tuple[list[str], list[str]]:
    names = [v.validate_iscsi_name(i, "initiators") for i in initiators if i.strip()]
    nets = [v.validate_network(n) for n in networks if n.strip()]
    return list(dict.fromkeys(names)), list(dict.fromkeys(nets))


def initiator_group_create(
    *, initiators: Sequence[str] = (), networks: Sequence[str] = (), comment: str = ""
) -> InitiatorGroup:
    """A new initiator group; no IQN and no network means every initiator may connect."""
    names, nets = _initiator_lists(initiators, networks)
    return saved_and_applied(
        lambda: InitiatorGroup.objects.create(
            initiators=names, networks=nets, comment=comment.strip()
        )
    )


def initiator_group_update(
    *, group: InitiatorGroup, initiators: Sequence[str], networks: Sequence[str], comment: str = ""
) -> InitiatorGroup:
    """Change who an initiator group lets in."""
    names, nets = _initiator_lists(initiators, networks)

    def change() -> InitiatorGroup:
        group.initiators, group.networks, group.comment = names, nets, comment.strip()
        group.save()
        return group

    return saved_and_applied(change)


def initiator_group_delete(*, group: InitiatorGroup) -> None:
    """Delete an initiator group no target uses."""
    if TargetGroup.objects.filter(initiator_group=group).exists():
        raise _in_use("initiator group")
    saved_and_applied(group.delete)


# -- auth groups -------------------------------------------------------------------------------
def check_credentials(user: str, secret: str, peer_user: str, peer_secret: str) -> None:
    v.validate_chap_user(user, "user")
    v.validate_secret(secret, "secret")
    if peer_user or peer_secret:
        if not peer_user:
            raise v.fail("peer_user", "Mutual CHAP needs a peer user as well as a peer secret.")
        v.validate_chap_user(peer_user, "peer_user")
        v.validate_secret(peer_secret, "peer_secret")
        if peer_secret == secret:
            raise v.fail("peer_secret", "The peer secret must differ from the secret.")


def auth_group_create(
    *, tag: int, user: str, secret: str, peer_user: str = "", peer_secret: str = ""
) -> AuthGroup:
    """New CHAP credentials under a tag."""
    if tag < 1:
        raise v.fail("tag", "A tag is a whole number from 1.")
    if AuthGroup.objects.filter(tag=tag).exists():
        raise v.fail("tag", f"Tag {tag} is taken.")
    check_credentials(user, secret, peer_user, peer_secret)
    return saved_and_applied(
        lambda: AuthGroup.objects.create(
            tag=tag, user=user, secret=secret, peer_user=peer_user, peer_secret=peer_secret
        )
    )


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
    check_credentials(user, secret, peer_user, peer_secret)

    def change() -> AuthGroup:
        group.user, group.secret = user, secret
        group.peer_user, group.peer_secret = peer_user, peer_secret
        group.save()
        _check_mutual_targets(group)
        return group

    return saved_and_applied(change)


def _check_mutual_targets(group: AuthGroup) -> None:
    """Targets set to mutual CHAP need peer credentials in their auth group."""
    if (
        not group.mutual
        and TargetGroup.objects.filter(
            auth_group=group, auth_method=TargetGroup.AuthMethod.MUTUAL
        ).exists()
    ):
        raise v.fail("peer_user", "A target uses this group for mutual CHAP: keep a peer user.")


def auth_group_delete(*, group: AuthGroup) -> None:
    """Delete CHAP credentials no target uses."""
    if TargetGroup.objects.filter(auth_group=group).exists():
        raise _in_use("auth group")
    saved_and_applied(group.delete)


# -- targets -----------------------------------------------------------------------------------
def _clean_groups(groups: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Check each (portal, initiator group, auth method, auth group) entry."""
    if not groups:
        raise v.fail("groups", "A target needs at least one portal.")
    cleaned = []
    for entry in groups:
        method = entry.get("auth_method") or TargetGroup.AuthMethod.NONE
        auth = entry.get("auth_group")
        if method not in TargetGroup.AuthMethod.values:
            raise v.fail(
                "groups",
                f"Authentication must be one of: {', '.join(TargetGroup.AuthMethod.values)}.",
            )
        if method != TargetGroup.AuthMethod.NONE and auth is None:
            raise v.fail("groups", "CHAP needs an auth group with the user and secret.")
        if method == TargetGroup.AuthMethod.MUTUAL and not (auth and auth.mutual):
            raise v.fail("groups", "The auth group has no peer user for mutual CHAP.")
        if entry.get("portal") is None:
            raise v.fail("groups", "Pick a portal.")
        cleaned.append({**entry, "auth_method": method})
    return cleaned


def _save_groups(target: Target, groups: list[dict[str, Any]]) -> None:
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


def target_create(*, name: str, alias: str = "", groups: Sequence[dict[str, Any]]) -> Target:
    """A new target reachable through the given portals."""
    name = v.validate_target_name(name)
    if Target.objects.filter(name=name).exists():
        raise v.fail("name", "A target with this name exists.")
    cleaned = _clean_groups(groups)

    def change() -> Target:
        target = Target.objects.create(name=name, alias=alias.strip())
        _save_groups(target, cleaned)
        return target

    return saved_and_applied(change)


def target_update(
    *, target: Target, name: str, alias: str = "", groups: Sequence[dict[str, Any]]
) -> Target:
    """Rename a target or change who reaches it, how."""
    name = v.validate_target_name(name)
    if Target.objects.filter(name=name).exclude(pk=target.pk).exists():
        raise v.fail("name", "A target with this name exists.")
    cleaned = _clean_groups(groups)

    def change() -> Target:
        target.name, target.alias = name, alias.strip()
        target.save()
        _save_groups(target, cleaned)
        return target

    return saved_and_applied(change)


def target_delete(*, target: Target) -> None:
    """Delete a target; its LUN mappings go with it (the extents stay)."""
    saved_and_applied(target.delete)


# -- extents -----------------------------------------------------------------------------------
def _check_source(kind: str, zvol: str, path: str, extent: Extent | None) -> tuple[str, str]:
    """The extent's zvol must exist, or its file must lie inside a pool; one extent each."""
    from storage import selectors as storage

    if kind == Extent.Kind.ZVOL:
        zvols = {d.name for d in storage.dataset_list(volumes=True)}
        if zvol not in zvols:
            raise v.fail("zvol", f"There is no zvol named “{zvol}”.")
        clash = Extent.objects.filter(zvol=zvol)
        source, path = zvol, ""
    elif kind == Extent.Kind.FILE:
        mountpoints = [d.mountpoint for d in storage.dataset_list(volumes=False) if d.mountpoint]
        if not any(path.startswith(f"{m.rstrip('/')}/") for m in mountpoints):
            raise v.fail("path", "The file must be inside a pool's dataset.")
        clash = Extent.objects.filter(path=path)
        source, zvol = path, ""
    else:
        raise v.fail("kind", "Pick zvol or file.")
    if extent is not None:
        clash = clash.exclude(pk=extent.pk)
    if clash.exists():
        raise v.fail(kind, f"{source} is already the extent “{clash.first()}”.")
    return zvol, path


def extent_create(
    *,
    name: str,
    kind: str = Extent.Kind.ZVOL,
    zvol: str = "",
    path: str = "",
    blocksize: int = 512,
    readonly: bool = False,
    enabled: bool = True,
    comment: str = "",
) -> Extent:
    """A new extent over a zvol or a file."""
    name = name.strip()
    if not name:
        raise v.fail("name", "Give the extent a name.")
    if Extent.objects.filter(name=name).exists():
        raise v.fail("name", "An extent with this name exists.")
    if blocksize not in (512, 1024, 2048, 4096):
        raise v.fail("blocksize", "Logical block size must be 512, 1024, 2048 or 4096.")
    zvol, path = _check_source(kind, zvol.strip(), path.strip(), None)
    return saved_and_applied(
        lambda: Extent.objects.create(
            name=name,
            kind=kind,
            zvol=zvol,
            path=path,
            blocksize=blocksize,
            readonly=readonly,
            enabled=enabled,
            comment=comment.strip(),
        )
    )


def extent_update(*, extent: Extent, readonly: bool, enabled: bool, comment: str = "") -> Extent:
    """Change an extent's read-only and enabled flags and comment."""

    def change() -> Extent:
        extent.readonly, extent.enabled, extent.comment = readonly, enabled, comment.strip()
        extent.save()
        return extent

    return saved_and_applied(change)


def extent_delete(*, extent: Extent) -> None:
    """Delete an extent (its LUN disappears from the target); the zvol itself stays."""
    saved_and_applied(extent.delete)


# -- associations ------------------------------------------------------------------------------
def association_create(
    *, target: Target, extent: Extent, lun_id: int | None = None
) -> TargetExtent:
    """Map an extent to a target as a LUN (the lowest free id when none is given)."""
    if TargetExtent.objects.filter(extent=extent).exists():
        raise v.fail("extent", f"Extent “{extent}” is already mapped to a target.")
    first = runtime.first_lun()
    if lun_id is None:
        lun_id = lowest_free_lun(target, first)
    elif lun_id < first:
        raise v.fail("lun_id", f"The {runtime.engine_name()} target starts LUN ids at {first}.")
    if target.luns.filter(lun_id=lun_id).exists():
        raise v.fail("lun_id", f"LUN {lun_id} is taken on this target.")
    try:
        return saved_and_applied(
            lambda: TargetExtent.objects.create(target=target, extent=extent, lun_id=lun_id)
        )
    except IntegrityError as exc:
        raise v.fail("lun_id", f"LUN {lun_id} is taken on this target.") from exc


def association_delete(*, association: TargetExtent) -> None:
    """Remove a LUN from its target."""
    saved_and_applied(association.delete)
