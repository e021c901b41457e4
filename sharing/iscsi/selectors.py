"""Reads of the iSCSI configuration shared by pages, the API and other apps."""

from __future__ import annotations

import os
from collections.abc import Callable

from django.db.models import Prefetch, Q, QuerySet

from sharing.iscsi.engine import desired
from sharing.iscsi.engine.desired import ChapSpec, DesiredState, LunSpec, PortalSpec, TargetSpec
from sharing.iscsi.engine.errors import InvalidSpec
from sharing.iscsi.validation import target_iqn
from sharing.models import (
    AuthGroup,
    AuthMethod,
    Extent,
    InitiatorGroup,
    IscsiSettings,
    Portal,
    Target,
    TargetExtent,
    TargetGroup,
)
from storage.datasets import selectors as storage
from storage.registry import Holder


def extents_using(zfs_name: str, *, prefix: bool = False) -> list[str]:
    """Names of iSCSI extents backed by this zvol (or by any zvol under it, with prefix)."""
    match = Q(zvol=zfs_name)
    if prefix:
        match |= Q(zvol__startswith=f"{zfs_name}/")
    return list(Extent.objects.filter(match, kind=Extent.Kind.ZVOL).values_list("name", flat=True))


def portal_list() -> QuerySet[Portal]:
    """Portals with their addresses."""
    return Portal.objects.prefetch_related("addresses")


def initiator_group_list() -> QuerySet[InitiatorGroup]:
    """Initiator groups."""
    return InitiatorGroup.objects.all()


def auth_group_list() -> QuerySet[AuthGroup]:
    """CHAP auth groups (secrets are never shown; callers must not render them)."""
    return AuthGroup.objects.all()


def target_list() -> QuerySet[Target]:
    """Targets with their groups and LUNs, for listings and for building the desired state."""
    groups = TargetGroup.objects.select_related("portal", "initiator_group", "auth_group")
    luns = TargetExtent.objects.select_related("extent")
    return Target.objects.prefetch_related(
        Prefetch("groups", queryset=groups.prefetch_related("portal__addresses")),
        Prefetch("luns", queryset=luns),
    )


def extent_list() -> QuerySet[Extent]:
    """Extents with the target each is mapped to."""
    return Extent.objects.select_related("mapping__target")


def unshared_zvols() -> list[str]:
    """Zvols no extent serves yet: the ones the wizard can share."""

    served = set(Extent.objects.exclude(zvol="").values_list("zvol", flat=True))
    return [d.name for d in storage.dataset_list(volumes=True) if d.name not in served]


def unmapped_extents() -> QuerySet[Extent]:
    """Extents not yet a LUN of any target: the only ones a new LUN can serve."""
    return Extent.objects.filter(mapping__isnull=True)


def association_list() -> QuerySet[TargetExtent]:
    """Every extent-to-target mapping."""
    return TargetExtent.objects.select_related("target", "extent")


def lowest_free_lun(target: Target, first: int = 0) -> int:
    """The smallest LUN id not yet used on the target, from `first` on."""
    return desired.lowest_free_lun(target.luns.values_list("lun_id", flat=True), first)


def used_by_discovery(group: AuthGroup, method: str | None = None) -> bool:
    """Whether discovery authentication uses this group (with `method`, if given)."""
    settings = IscsiSettings.load()
    if settings.discovery_auth_group_id != group.pk:
        return False
    return method is None or settings.discovery_auth_method == method


PathOf = Callable[[str, str], str]


def _chap(method: str, auth: AuthGroup | None) -> ChapSpec | None:
    """The CHAP credentials an auth method asks of an auth group (None: no CHAP)."""
    if method == AuthMethod.NONE or auth is None:
        return None
    mutual = method == AuthMethod.MUTUAL
    return ChapSpec(
        user=auth.user,
        secret=auth.secret,
        peer_user=auth.peer_user if mutual else None,
        peer_secret=auth.peer_secret if mutual else None,
    )


def _access(target: Target, groups: list[TargetGroup]) -> TargetGroup:
    """The one access rule of a target: its groups must agree on initiators and auth."""
    first = groups[0]
    for other in groups[1:]:
        same = (other.initiator_group_id, other.auth_method, other.auth_group_id) == (
            first.initiator_group_id,
            first.auth_method,
            first.auth_group_id,
        )
        if not same:
            raise InvalidSpec(
                f"target {target.name}: nasui applies one access rule per target; use the same "
                "initiator group and authentication on each of its portals"
            )
    return first


def _lun_specs(target: Target, path_of: PathOf, missing: list[str]) -> tuple[LunSpec, ...]:
    """The target's enabled LUNs whose data is there; the others are named in `missing`.

    A backing store that vanished (a file deleted, a zvol destroyed behind the panel's back)
    leaves its LUN out rather than the whole target: the rest is served, and every LUN can
    still be removed.
    """
    specs = []
    for mapping in target.luns.all():
        extent = mapping.extent
        if not extent.enabled:
            continue
        path = path_of(extent.kind, extent.source)
        if not path:
            missing.append(f"{extent.name} ({extent.source} is locked)")
            continue
        if not os.path.exists(path):
            missing.append(f"{extent.name} ({path})")
            continue
        specs.append(
            LunSpec(
                lun=mapping.lun_id,
                path=path,
                block_size=extent.blocksize,
                readonly=extent.readonly,
                serial=extent.serial,
            )
        )
    return tuple(specs)


def _target_spec(
    target: Target, basename: str, port: int, path_of: PathOf, missing: list[str]
) -> TargetSpec:
    groups = list(target.groups.all())
    rule = _access(target, groups)
    portals = tuple(
        PortalSpec(ip=a.address, port=port) for g in groups for a in g.portal.addresses.all()
    )
    initiators = rule.initiator_group
    luns = _lun_specs(target, path_of, missing)
    chap = _chap(rule.auth_method, rule.auth_group)
    return TargetSpec(
        iqn=target_iqn(basename, target.name),
        alias=target.alias,
        portals=tuple(dict.fromkeys(portals)),
        initiators=tuple(initiators.initiators) if initiators else (),
        networks=tuple(initiators.networks) if initiators else (),
        auth=rule.auth_method if chap else "none",  # type: ignore[arg-type]
        chap=chap,
        luns=luns,
    )


def build_desired_state(path_of: PathOf, missing: list[str] | None = None) -> DesiredState:
    """Everything the running target should be, from the database.

    `path_of(kind, source)` gives the device or file an extent's data lives in; the extents
    whose data is not there are left out and named in `missing`.
    """
    missing = [] if missing is None else missing
    settings = IscsiSettings.load()
    portals = tuple(
        dict.fromkeys(
            PortalSpec(ip=a.address, port=settings.port)
            for p in portal_list()
            for a in p.addresses.all()
        )
    )
    targets = tuple(
        _target_spec(t, settings.basename, settings.port, path_of, missing)
        for t in target_list()
        if t.groups.all()
    )
    discovery = _chap(settings.discovery_auth_method, settings.discovery_auth_group)
    return DesiredState(targets=targets, portals=portals, discovery_chap=discovery)


def extent_holders(zfs_name: str, include_children: bool) -> list[Holder]:
    """The iSCSI extents backed by this zvol (or, with include_children, by any zvol below)."""
    return [
        Holder("iSCSI extent", name) for name in extents_using(zfs_name, prefix=include_children)
    ]
