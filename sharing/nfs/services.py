"""Writes to the NFS settings and exports: checked, saved, applied to the kernel server, or not."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from nasui.validation import fail
from sharing.accounts.engine.desired import invisible_character
from sharing.apply import FILE_SERVICES, files_saved_and_applied, serialized
from sharing.models import LocalGroup, LocalUser, NfsSettings, NfsShare
from sharing.nfs.engine.desired import NfsError, normalize_host, normalize_network
from storage import paths


def nfs_settings_update(*, v3: bool) -> NfsSettings:
    """Offer NFSv3 next to NFSv4, or NFSv4 only."""
    row = NfsSettings.load()

    def change() -> NfsSettings:
        row.v3 = v3
        row.save()
        return row

    return files_saved_and_applied(change)


def _clients(networks: Sequence[str], hosts: Sequence[str]) -> tuple[list[str], list[str]]:
    """Normalised networks and hosts; at least one of them (no export open by accident)."""
    try:
        nets = sorted({normalize_network(n) for n in networks if n.strip()})
    except NfsError as exc:
        raise fail("networks", f"{exc}.") from exc
    try:
        names = sorted({normalize_host(h) for h in hosts if h.strip()})
    except NfsError as exc:
        raise fail("hosts", f"{exc}.") from exc
    if not nets and not names:
        raise fail("networks", "Name the networks or hosts that may mount it.")
    return nets, names


def _mapping(
    map_mode: str, map_user: LocalUser | None, map_group: LocalGroup | None
) -> dict[str, Any]:
    """Who root (or everyone) becomes on the server; the user's own group unless one is named."""
    if map_mode not in NfsShare.MapMode.values:
        raise fail("map_mode", f"Use one of: {', '.join(NfsShare.MapMode.values)}.")
    if map_mode == NfsShare.MapMode.NONE:
        return {"map_mode": map_mode, "map_user": None, "map_group": None}
    if map_user is None:
        raise fail("map_user", "Pick the user that root (or everyone) becomes.")
    return {"map_mode": map_mode, "map_user": map_user, "map_group": map_group or map_user.group}


def _checked(data: dict[str, Any], share: NfsShare | None) -> dict[str, Any]:
    """The export's fields, checked; errors name the field."""
    dataset, problem = paths.shared_dataset(str(data.get("path", "")).strip())
    if dataset is None:
        raise fail("path", problem or "Not a dataset's mountpoint.")
    clash = NfsShare.objects.filter(dataset=dataset)
    if share is not None:
        clash = clash.exclude(pk=share.pk)
    if clash.exists():
        raise fail("path", f"{dataset} is exported already: add these clients to that export.")
    networks, hosts = _clients(data.get("networks", ()), data.get("hosts", ()))
    comment = str(data.get("comment", "")).strip()
    hidden = invisible_character(comment)
    if hidden:
        raise fail("comment", f"The comment may not contain the invisible character {hidden}.")
    if not comment.isprintable():
        raise fail("comment", "Use one printable line.")
    return {
        "dataset": dataset,
        "networks": networks,
        "hosts": hosts,
        "comment": comment,
        "read_only": bool(data.get("read_only", False)),
        "enabled": bool(data.get("enabled", True)),
        **_mapping(str(data.get("map_mode", "none")), data.get("map_user"), data.get("map_group")),
    }


def _saved(share: NfsShare, fields: dict[str, Any]) -> NfsShare:
    """The export with these fields, saved."""
    for name, value in fields.items():
        setattr(share, name, value)
    share.save()
    return share


@serialized(*FILE_SERVICES)
def nfs_share_create(**data: Any) -> NfsShare:
    """A new NFS export of a dataset."""
    fields = _checked(data, None)
    return files_saved_and_applied(lambda: _saved(NfsShare(), fields))


@serialized(*FILE_SERVICES)
def nfs_share_update(*, share: NfsShare, **data: Any) -> NfsShare:
    """Change an NFS export."""
    fields = _checked(data, share)
    return files_saved_and_applied(lambda: _saved(share, fields))


def nfs_share_delete(*, share: NfsShare) -> None:
    """Stop exporting a dataset over NFS (its files stay)."""
    files_saved_and_applied(share.delete)
