"""Turn the iSCSI rows into the engine-neutral desired state (sharing/iscsi/desired.py)."""

from __future__ import annotations

from collections.abc import Callable

from sharing.iscsi.engine.desired import ChapSpec, DesiredState, LunSpec, PortalSpec, TargetSpec
from sharing.iscsi.engine.errors import InvalidSpec
from sharing.iscsi.selectors import portal_list, target_list
from sharing.iscsi.validation import target_iqn
from sharing.models import AuthGroup, AuthMethod, IscsiSettings, Target, TargetGroup

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


def _target_spec(target: Target, basename: str, port: int, path_of: PathOf) -> TargetSpec:
    groups = list(target.groups.all())
    rule = _access(target, groups)
    portals = tuple(
        PortalSpec(ip=a.address, port=port) for g in groups for a in g.portal.addresses.all()
    )
    initiators = rule.initiator_group
    luns = tuple(
        LunSpec(
            lun=m.lun_id,
            path=path_of(m.extent.kind, m.extent.source),
            block_size=m.extent.blocksize,
            readonly=m.extent.readonly,
            serial=m.extent.serial,
        )
        for m in target.luns.all()
        if m.extent.enabled
    )
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


def build_desired_state(path_of: PathOf) -> DesiredState:
    """Everything the running target should be, from the database.

    `path_of(kind, source)` gives the device or file an extent's data lives in.
    """
    settings = IscsiSettings.load()
    portals = tuple(
        dict.fromkeys(
            PortalSpec(ip=a.address, port=settings.port)
            for p in portal_list()
            for a in p.addresses.all()
        )
    )
    targets = tuple(
        _target_spec(t, settings.basename, settings.port, path_of)
        for t in target_list()
        if t.groups.all()
    )
    discovery = _chap(settings.discovery_auth_method, settings.discovery_auth_group)
    return DesiredState(targets=targets, portals=portals, discovery_chap=discovery)
