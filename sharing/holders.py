"""Sharing's answer to storage's usage registry: which shares serve a dataset or zvol."""

from __future__ import annotations

from storage.usage import Holder, register_holder_checker


def iscsi_extent_holders(zfs_name: str, include_children: bool) -> list[Holder]:
    """The iSCSI extents backed by this zvol (or, with include_children, by any zvol below)."""
    from sharing.selectors import extents_using  # models load only once apps are ready

    return [
        Holder("iSCSI extent", name) for name in extents_using(zfs_name, prefix=include_children)
    ]


def register() -> None:
    """Tell storage about every kind of share that can hold a dataset or zvol."""
    register_holder_checker("sharing.iscsi", iscsi_extent_holders)
