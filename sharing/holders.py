"""Sharing's side of storage's usage registry: which shares hold a zvol, and zvols that grew."""

from __future__ import annotations

import logging

from storage.registry import Holder, register_holder_checker, register_resize_listener

log = logging.getLogger(__name__)


def iscsi_extent_holders(zfs_name: str, include_children: bool) -> list[Holder]:
    """The iSCSI extents backed by this zvol (or, with include_children, by any zvol below)."""
    from sharing.iscsi.selectors import extents_using  # models load only once apps are ready

    return [
        Holder("iSCSI extent", name) for name in extents_using(zfs_name, prefix=include_children)
    ]


def refresh_grown_luns(zvol: str) -> None:
    """Make every LUN over this zvol announce its new capacity to initiators, within seconds."""
    from sharing.iscsi import runtime

    try:
        runtime.refresh_luns_of(zvol)
    except runtime.IscsiApplyError:
        # The zvol did grow; the LUN catches up at the next apply or restart. Say so in the log.
        log.exception("could not refresh the LUNs over %s after it grew", zvol)


def smb_share_holders(zfs_name: str, include_children: bool) -> list[Holder]:
    """The SMB shares of this dataset (or, with include_children, of any dataset below)."""
    from sharing.iscsi.selectors import smb_shares_of  # models load only once apps are ready

    return [Holder("SMB share", name) for name in smb_shares_of(zfs_name, prefix=include_children)]


def nfs_share_holders(zfs_name: str, include_children: bool) -> list[Holder]:
    """The NFS exports of this dataset (or, with include_children, of any dataset below)."""
    from sharing.iscsi.selectors import nfs_shares_of  # models load only once apps are ready

    return [Holder("NFS export", name) for name in nfs_shares_of(zfs_name, prefix=include_children)]


def register() -> None:
    """Tell storage about every kind of share that can hold a dataset or zvol."""
    register_holder_checker("sharing.iscsi", iscsi_extent_holders)
    register_holder_checker("sharing.smb", smb_share_holders)
    register_holder_checker("sharing.nfs", nfs_share_holders)
    register_resize_listener("sharing.iscsi", refresh_grown_luns)
