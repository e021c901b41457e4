"""The sharing wizard: a new or existing zvol, its extent, target and LUN at once, or nothing."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction

from nasui.validation import fail
from sharing.iscsi import runtime
from sharing.iscsi import validation as v
from sharing.iscsi.services import saved_and_applied
from sharing.models import (
    AuthGroup,
    Extent,
    InitiatorGroup,
    Portal,
    PortalAddress,
    Target,
    TargetExtent,
    TargetGroup,
)
from storage.datasets import selectors as storage_selectors
from storage.datasets import services as storage

WILDCARD = "0.0.0.0"  # noqa: S104 - the appliance listens on every address


@dataclass(frozen=True)
class WizardResult:
    """What the wizard made."""

    zvol: str
    target: Target
    extent: Extent
    lun_id: int


def _default_portal() -> Portal:
    """The portal on the panel's default share address (NASUI_SHARE_ADDRESS), made on first use:
    every IPv4 address on the appliance, this machine only beside a desktop (`make run`)."""
    address = settings.NASUI_SHARE_ADDRESS
    found = PortalAddress.objects.filter(address=address).select_related("portal").first()
    if found is not None:
        return found.portal
    comment = f"Address {address}"
    if address == WILDCARD:
        comment = "All IPv4 addresses"
    elif ipaddress.ip_address(address).is_loopback:
        comment = f"This machine only ({address})"
    portal = Portal.objects.create(comment=comment)
    PortalAddress.objects.create(portal=portal, address=address)
    return portal


def _auth_group(user: str, secret: str, target: str) -> AuthGroup:
    """CHAP credentials under the next free tag, marked as made for `target`."""
    tag = (AuthGroup.objects.order_by("-tag").values_list("tag", flat=True).first() or 0) + 1
    return AuthGroup.objects.create(tag=tag, user=user, secret=secret, made_for=target)


OPEN_LABEL = "Let any initiator connect (no IQN, no CHAP)"


def _check_someone_is_named(initiator: str, chap_user: str, open_to_all: bool) -> None:
    """A target open to everyone on the network is a choice the user makes, never a default."""
    if initiator or chap_user or open_to_all:
        return
    raise fail(
        "open_to_all",
        "Nobody is named: give the PC's initiator IQN or CHAP credentials, or tick "
        f"“{OPEN_LABEL}” to let every computer on the network use this disk.",
    )


def _check(name: str, initiator: str, chap_user: str, chap_secret: str, open_to_all: bool) -> None:
    """Everything that can be checked before any change is made."""
    _check_someone_is_named(initiator, chap_user, open_to_all)
    v.validate_target_name(name)
    if Target.objects.filter(name=name).exists():
        raise fail("name", "A target with this name exists.")
    if Extent.objects.filter(name=name).exists():
        raise fail("name", "An extent with this name exists.")
    if initiator:
        v.validate_iscsi_name(initiator, "initiator")
    if chap_user or chap_secret:
        try:
            v.check_credentials(chap_user, chap_secret, "", "")
        except ValidationError as exc:
            fields = {"user": "chap_user", "secret": "chap_secret"}
            raise ValidationError(
                {fields.get(k, k): msgs for k, msgs in exc.message_dict.items()}
            ) from exc


def share_new_zvol(
    *,
    name: str,
    parent: str,
    size: str,
    volblocksize: int = 16384,
    sparse: bool = False,
    force: bool = False,
    compression: str = "inherit",
    initiator: str = "",
    chap_user: str = "",
    chap_secret: str = "",
    open_to_all: bool = False,
) -> WizardResult:
    """Create a zvol and share it as LUN of a new target; undo the zvol if sharing fails.

    With no initiator and no CHAP the target admits anyone: `open_to_all` must say so.
    """
    name, initiator, chap_user = name.strip(), initiator.strip(), chap_user.strip()
    _check(name, initiator, chap_user, chap_secret, open_to_all)
    zvol = storage.zvol_create(
        parent=parent,
        name=name,
        size=size,
        volblocksize=volblocksize,
        sparse=sparse,
        force=force,
        compression=compression,
    )
    try:
        return saved_and_applied(
            lambda: _share(zvol.name, name, volblocksize, initiator, chap_user, chap_secret)
        )
    except Exception:
        # Nothing half-made: the zvol goes if its sharing could not be set up.
        storage.zvol_destroy(name=zvol.name, confirm=zvol.name)
        raise


def share_existing_zvol(
    *,
    zvol: str,
    name: str = "",
    initiator: str = "",
    chap_user: str = "",
    chap_secret: str = "",
    open_to_all: bool = False,
) -> WizardResult:
    """Share a zvol that already exists (and no extent serves) as the LUN of a new target."""
    zvols = {d.name: d for d in storage_selectors.dataset_list(volumes=True)}
    if zvol not in zvols:
        raise fail("existing", f"There is no zvol named “{zvol}”.")
    if Extent.objects.filter(zvol=zvol).exists():
        raise fail("existing", f"{zvol} is already shared by an extent.")
    name = name.strip() or zvol.rsplit("/", 1)[-1]
    initiator, chap_user = initiator.strip(), chap_user.strip()
    _check(name, initiator, chap_user, chap_secret, open_to_all)
    block = zvols[zvol].volblocksize or 512
    return saved_and_applied(lambda: _share(zvol, name, block, initiator, chap_user, chap_secret))


def share(*, existing: str = "", **fields: Any) -> WizardResult:
    """The wizard's one entry: share the `existing` zvol, or make a new one and share it."""
    if existing:
        keep = ("name", "initiator", "chap_user", "chap_secret", "open_to_all")
        wanted = {key: value for key, value in fields.items() if key in keep}
        return share_existing_zvol(zvol=existing, **wanted)
    if not fields.get("parent"):
        raise fail("parent", "Pick the pool or dataset for the new zvol, or an existing zvol.")
    if not fields.get("size"):
        raise fail("size", "Give the new zvol a size, e.g. 100G, or pick an existing zvol.")
    return share_new_zvol(**fields)


def _share(
    zvol: str, name: str, volblocksize: int, initiator: str, chap_user: str, chap_secret: str
) -> WizardResult:
    with transaction.atomic():
        group = InitiatorGroup.objects.create(
            initiators=[v.validate_iscsi_name(initiator, "initiator")] if initiator else [],
            comment=f"for {name}",
            made_for=name,
        )
        chap = _auth_group(chap_user, chap_secret, name) if chap_user else None
        target = Target.objects.create(name=name)
        TargetGroup.objects.create(
            target=target,
            portal=_default_portal(),
            initiator_group=group,
            auth_method=TargetGroup.AuthMethod.CHAP if chap else TargetGroup.AuthMethod.NONE,
            auth_group=chap,
        )
        extent = Extent.objects.create(
            name=name, zvol=zvol, blocksize=4096 if volblocksize >= 4096 else 512
        )
        lun = TargetExtent.objects.create(target=target, extent=extent, lun_id=runtime.first_lun())
    return WizardResult(zvol=zvol, target=target, extent=extent, lun_id=lun.lun_id)
