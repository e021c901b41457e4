"""Reads of the iSCSI configuration shared by pages, the API and other apps."""

from __future__ import annotations

from django.db.models import Prefetch, Q, QuerySet

from sharing.iscsi.engine import desired
from sharing.models import (
    AuthGroup,
    Extent,
    InitiatorGroup,
    IscsiSettings,
    LocalGroup,
    LocalUser,
    NfsShare,
    Portal,
    SmbShare,
    Target,
    TargetExtent,
    TargetGroup,
)
from storage.datasets import selectors as storage
from storage.zfs.errors import ZfsError


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
    from storage.datasets import selectors as storage

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


def smb_shares_of(zfs_name: str, *, prefix: bool = False) -> list[str]:
    """Names of SMB shares of this dataset (or of any dataset under it, with prefix)."""
    match = Q(dataset=zfs_name)
    if prefix:
        match |= Q(dataset__startswith=f"{zfs_name}/")
    return list(SmbShare.objects.filter(match).values_list("name", flat=True))


def smb_share_list() -> QuerySet[SmbShare]:
    """Every SMB share with who it admits, for pages and the API."""
    return SmbShare.objects.prefetch_related("users", "groups")


def local_user_list() -> QuerySet[LocalUser]:
    """Every local user with its groups."""
    return LocalUser.objects.select_related("group").prefetch_related("groups")


def local_group_list() -> QuerySet[LocalGroup]:
    """Every local group."""
    return LocalGroup.objects.all()


def dataset_path(dataset: str) -> str:
    """Where a shared dataset is mounted ("" when it is gone or not mounted)."""
    try:
        mountpoint = storage.dataset_get(dataset).mountpoint
    except ZfsError:
        return ""
    return mountpoint if mountpoint and mountpoint.startswith("/") else ""


def nfs_shares_of(zfs_name: str, *, prefix: bool = False) -> list[str]:
    """Datasets exported over NFS: this one (or any under it, with prefix)."""
    match = Q(dataset=zfs_name)
    if prefix:
        match |= Q(dataset__startswith=f"{zfs_name}/")
    return list(NfsShare.objects.filter(match).values_list("dataset", flat=True))


def nfs_share_list() -> QuerySet[NfsShare]:
    """Every NFS export with the user and group it maps to."""
    return NfsShare.objects.select_related("map_user", "map_group")
