"""Reads of the iSCSI configuration shared by pages, the API and other apps."""

from __future__ import annotations


def extents_using(zfs_name: str, *, prefix: bool = False) -> list[str]:
    """Names of iSCSI extents backed by this zvol (or by any zvol under it, with prefix).

    The iSCSI models do not exist yet, so no extent can use a zvol; this is the one place
    storage asks, and it will query the Extent table once sharing lands.
    """
    return []
