"""Sharing's tables: iSCSI, local accounts, SMB and NFS (one module each)."""

from sharing.models.accounts import LocalGroup, LocalUser
from sharing.models.iscsi import (
    BLOCK_SIZES,
    DEFAULT_BASENAME,
    AuthGroup,
    AuthMethod,
    Extent,
    InitiatorGroup,
    IscsiSettings,
    Portal,
    PortalAddress,
    Target,
    TargetExtent,
    TargetGroup,
    new_serial,
)
from sharing.models.nfs import NfsSettings, NfsShare
from sharing.models.smb import SmbSettings, SmbShare

__all__ = [
    "BLOCK_SIZES",
    "DEFAULT_BASENAME",
    "AuthGroup",
    "AuthMethod",
    "Extent",
    "InitiatorGroup",
    "IscsiSettings",
    "LocalGroup",
    "LocalUser",
    "NfsSettings",
    "NfsShare",
    "Portal",
    "PortalAddress",
    "SmbSettings",
    "SmbShare",
    "Target",
    "TargetExtent",
    "TargetGroup",
    "new_serial",
]
