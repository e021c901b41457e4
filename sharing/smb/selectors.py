"""Turn the accounts, SMB and NFS rows into the engines' desired states."""

from __future__ import annotations

import logging

from sharing.accounts.engine.desired import Accounts, GroupSpec, UserSpec
from sharing.iscsi.selectors import dataset_path
from sharing.models import LocalGroup, LocalUser, NfsSettings, NfsShare, SmbSettings, SmbShare
from sharing.nfs.engine.desired import NfsExportSpec, NfsState
from sharing.smb.engine.desired import SmbGlobals, SmbShareSpec, SmbState

log = logging.getLogger(__name__)


def build_accounts() -> Accounts:
    """Every local user and group, with extra members listed on their groups."""
    users = LocalUser.objects.select_related("group").prefetch_related("groups")
    members: dict[str, list[str]] = {}
    for user in users:
        for group in user.groups.all():
            members.setdefault(group.name, []).append(user.username)
    return Accounts(
        users=tuple(
            UserSpec(
                name=u.username,
                uid=u.uid,
                group=u.group.name,
                full_name=u.full_name,
                disabled=u.disabled,
                nt_hash=u.nt_hash or None,
            )
            for u in users
        ),
        groups=tuple(
            GroupSpec(name=g.name, gid=g.gid, members=tuple(sorted(members.get(g.name, ()))))
            for g in LocalGroup.objects.all()
        ),
    )


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
