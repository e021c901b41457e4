"""Reads of SMB: the shares, the datasets they hold, and smbd's desired state."""

from __future__ import annotations

import logging

from django.conf import settings
from django.db.models import Q, QuerySet

from nasui.lib.hosts import is_address
from sharing.accounts.selectors import build_accounts
from sharing.models import SmbSettings, SmbShare
from sharing.smb.engine.desired import SmbGlobals, SmbShareSpec, SmbState
from storage.datasets.selectors import dataset_path
from storage.registry import Holder

log = logging.getLogger(__name__)
DEFAULT_SMB_PORT = 445  # where Windows and macOS look without being told a port


def _share_spec(share: SmbShare) -> SmbShareSpec | None:
    path = dataset_path(share.dataset)
    if not path:
        log.warning("SMB share %s is not served: %s is not mounted", share.name, share.dataset)
        return None
    return SmbShareSpec(
        name=share.name,
        path=path,
        comment=share.comment,
        read_only=share.read_only,
        browseable=share.browseable,
        guest_ok=share.guest_ok,
        users=tuple(u.username for u in share.users.all()),
        groups=tuple(g.name for g in share.groups.all()),
        shadow_copy=share.shadow_copy,
        fruit=share.fruit,
        time_machine=share.time_machine,
        time_machine_limit=share.time_machine_limit,
        audit=share.audit,
    )


def build_smb_state(port: int = 445) -> SmbState:
    """Everything smbd should be, from the database; `port` is where it listens."""
    row = SmbSettings.load()
    shares = SmbShare.objects.filter(enabled=True).prefetch_related("users", "groups")
    specs = [spec for spec in map(_share_spec, shares) if spec is not None]
    return SmbState(
        globals=SmbGlobals(
            netbios_name=row.netbios_name,
            workgroup=row.workgroup,
            description=row.description,
            bind=tuple(row.bind),
            port=port,
        ),
        shares=tuple(specs),
        accounts=build_accounts(),
    )


def smb_shares_of(zfs_name: str, *, prefix: bool = False) -> list[str]:
    """Names of SMB shares of this dataset (or of any dataset under it, with prefix)."""
    match = Q(dataset=zfs_name)
    if prefix:
        match |= Q(dataset__startswith=f"{zfs_name}/")
    return list(SmbShare.objects.filter(match).values_list("name", flat=True))


def smb_share_list() -> QuerySet[SmbShare]:
    """Every SMB share with who it admits, for pages and the API."""
    return SmbShare.objects.prefetch_related("users", "groups")


def share_holders(zfs_name: str, include_children: bool) -> list[Holder]:
    """The SMB shares of this dataset (or, with include_children, of any dataset below)."""
    return [Holder("SMB share", name) for name in smb_shares_of(zfs_name, prefix=include_children)]


def connect_address(share: str) -> str:
    """Where a client finds `share`: \\\\NAME\\share on the appliance's port 445, or the
    smb:// address with its port where the panel's smbd listens elsewhere (`make run`)."""
    row = SmbSettings.load()
    if settings.NASUI_SMB_PORT == DEFAULT_SMB_PORT:
        return f"\\\\{row.netbios_name}\\{share} (Windows) or smb://{row.netbios_name}/{share}"
    addresses = [a for a in row.bind if is_address(a)]
    return f"smb://{addresses[0] if addresses else '127.0.0.1'}:{settings.NASUI_SMB_PORT}/{share}"
