"""Reads of NFS: the exports, the datasets they hold, and the kernel server's desired state."""

from __future__ import annotations

import logging

from django.db.models import Q, QuerySet

from sharing.models import NfsSettings, NfsShare
from sharing.nfs.engine.desired import NfsExportSpec, NfsState, world_networks
from storage.datasets.selectors import dataset_path
from storage.registry import Holder

log = logging.getLogger(__name__)


def nfs_shares_of(zfs_name: str, *, prefix: bool = False) -> list[str]:
    """Datasets exported over NFS: this one (or any under it, with prefix)."""
    match = Q(dataset=zfs_name)
    if prefix:
        match |= Q(dataset__startswith=f"{zfs_name}/")
    return list(NfsShare.objects.filter(match).values_list("dataset", flat=True))


def nfs_share_list() -> QuerySet[NfsShare]:
    """Every NFS export with the user and group it maps to."""
    return NfsShare.objects.select_related("map_user", "map_group")


def export_warnings(share: NfsShare) -> list[str]:
    """What the user should know of an export that is allowed but risky: open to the world."""
    return [
        f"Anyone on any network can mount {share.dataset}: {network} takes in every address "
        "there is. Name your own network (e.g. 192.168.1.0/24) or hosts unless that is meant."
        for network in world_networks(share.networks)
    ]


def _export_spec(share: NfsShare) -> NfsExportSpec | None:
    path = dataset_path(share.dataset)
    if not path:
        log.warning("NFS export of %s is not served: it is not mounted", share.dataset)
        return None
    mapped = share.map_mode != NfsShare.MapMode.NONE
    return NfsExportSpec(
        path=path,
        networks=tuple(share.networks),
        hosts=tuple(share.hosts),
        read_only=share.read_only,
        map_mode=share.map_mode,  # type: ignore[arg-type]
        anon_uid=share.map_user.uid if mapped and share.map_user else None,
        anon_gid=share.map_group.gid if mapped and share.map_group else None,
    )


def build_nfs_state() -> NfsState:
    """Every enabled export, and whether NFSv3 is offered."""
    shares = NfsShare.objects.filter(enabled=True).select_related("map_user", "map_group")
    specs = [spec for spec in map(_export_spec, shares) if spec is not None]
    return NfsState(exports=tuple(specs), v3=NfsSettings.load().v3)


def export_holders(zfs_name: str, include_children: bool) -> list[Holder]:
    """The NFS exports of this dataset (or, with include_children, of any dataset below)."""
    return [Holder("NFS export", name) for name in nfs_shares_of(zfs_name, prefix=include_children)]
