"""Writes to the iSCSI settings, portals and initiator groups."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db.models import ProtectedError

from nasui.validation import fail, validate_address
from sharing.apply import serialized
from sharing.iscsi import runtime
from sharing.iscsi import validation as v
from sharing.iscsi.services.common import ISCSI, in_use, saved_and_applied, updated
from sharing.models import (
    AuthGroup,
    AuthMethod,
    InitiatorGroup,
    IscsiSettings,
    Portal,
    PortalAddress,
    TargetGroup,
)

_KEEP: Any = object()  # an omitted discovery setting keeps its stored value


@serialized(*ISCSI)
def settings_update(
    *,
    basename: str,
    port: int,
    discovery_auth_method: str = _KEEP,
    discovery_auth_group: AuthGroup | None = _KEEP,
) -> IscsiSettings:
    """Change the IQN base name, the listen port and who may discover the targets."""
    row = IscsiSettings.load()
    basename = v.validate_basename(basename)
    if not 1 <= port <= 65535:
        raise fail("port", "A port from 1 to 65535.")
    if discovery_auth_method is _KEEP:
        discovery_auth_method = row.discovery_auth_method
    if discovery_auth_group is _KEEP:
        discovery_auth_group = row.discovery_auth_group
    v.check_auth_choice(discovery_auth_method, discovery_auth_group, "discovery_")
    if discovery_auth_method == AuthMethod.NONE:
        discovery_auth_group = None
    return updated(
        row,
        basename=basename,
        port=port,
        discovery_auth_method=discovery_auth_method,
        discovery_auth_group=discovery_auth_group,
    )


def _addresses(addresses: Sequence[str], portal: Portal | None) -> list[str]:
    """Validated, de-duplicated listen addresses not used by another portal."""
    cleaned = list(dict.fromkeys(validate_address(a) for a in addresses if a.strip()))
    if not cleaned:
        raise fail("addresses", "Give at least one address (0.0.0.0 listens on all IPv4).")
    taken = PortalAddress.objects.filter(address__in=cleaned)
    if portal is not None:
        taken = taken.exclude(portal=portal)
    clash = taken.first()
    if clash is not None:
        raise fail("addresses", f"{clash.address} already belongs to portal {clash.portal_id}.")
    return cleaned


@serialized(*ISCSI)
def portal_create(*, addresses: Sequence[str], comment: str = "") -> Portal:
    """A new portal listening on `addresses`."""
    cleaned = _addresses(addresses, None)
    problem = runtime.portal_problem(list(Portal.objects.values_list("pk", flat=True)))
    if problem:
        raise fail("addresses", problem)

    def change() -> Portal:
        portal = Portal.objects.create(comment=comment.strip())
        PortalAddress.objects.bulk_create(PortalAddress(portal=portal, address=a) for a in cleaned)
        return portal

    return saved_and_applied(change)


@serialized(*ISCSI)
def portal_update(*, portal: Portal, addresses: Sequence[str], comment: str = "") -> Portal:
    """Change a portal's addresses and comment."""
    cleaned = _addresses(addresses, portal)

    def change() -> Portal:
        portal.comment = comment.strip()
        portal.save()
        portal.addresses.exclude(address__in=cleaned).delete()
        known = set(portal.addresses.values_list("address", flat=True))
        PortalAddress.objects.bulk_create(
            PortalAddress(portal=portal, address=a) for a in cleaned if a not in known
        )
        # The caller's copy may hold the addresses it read first (prefetched): answer with
        # what is saved now.
        portal.refresh_from_db()
        return portal

    return saved_and_applied(change)


def portal_delete(*, portal: Portal) -> None:
    """Delete a portal no target uses."""
    try:
        saved_and_applied(portal.delete)
    except ProtectedError as exc:
        raise in_use("portal") from exc


def _initiator_lists(
    initiators: Sequence[str], networks: Sequence[str]
) -> tuple[list[str], list[str]]:
    """Validated IQNs and networks, each once, in the order given."""
    names = [v.validate_iscsi_name(i, "initiators") for i in initiators if i.strip()]
    nets = [v.validate_network(n) for n in networks if n.strip()]
    # Said here, where the group is made, not later when a target refuses to use it.
    problem = runtime.initiator_group_problem(names, nets)
    if problem:
        raise fail("networks", problem)
    return list(dict.fromkeys(names)), list(dict.fromkeys(nets))


@serialized(*ISCSI)
def initiator_group_create(
    *, initiators: Sequence[str] = (), networks: Sequence[str] = (), comment: str = ""
) -> InitiatorGroup:
    """A new initiator group; no IQN and no network means every initiator may connect."""
    names, nets = _initiator_lists(initiators, networks)
    return saved_and_applied(
        lambda: InitiatorGroup.objects.create(
            initiators=names, networks=nets, comment=comment.strip()
        )
    )


@serialized(*ISCSI)
def initiator_group_update(
    *, group: InitiatorGroup, initiators: Sequence[str], networks: Sequence[str], comment: str = ""
) -> InitiatorGroup:
    """Change who an initiator group lets in."""
    names, nets = _initiator_lists(initiators, networks)

    return updated(group, initiators=names, networks=nets, comment=comment.strip())


def initiator_group_delete(*, group: InitiatorGroup) -> None:
    """Delete an initiator group no target uses."""
    if TargetGroup.objects.filter(initiator_group=group).exists():
        raise in_use("initiator group")
    saved_and_applied(group.delete)
