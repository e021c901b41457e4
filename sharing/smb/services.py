"""Writes to the SMB settings and shares: checked, saved, applied to smbd, or neither."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.core.exceptions import ValidationError

from nasui.validation import fail, validate_address
from sharing.apply import FILE_SERVICES, files_saved_and_applied, serialized
from sharing.models import LocalGroup, LocalUser, SmbSettings, SmbShare
from sharing.smb.engine.desired import SmbError, SmbGlobals, SmbShareSpec
from storage import paths

# Each on/off setting of a share with its default (as in the model).
_FLAGS = {
    "read_only": False,
    "browseable": True,
    "guest_ok": False,
    "shadow_copy": True,
    "fruit": False,
    "time_machine": False,
    "audit": False,
}


def smb_settings_update(
    *, netbios_name: str, workgroup: str, description: str = "nasui", bind: Sequence[str] = ()
) -> SmbSettings:
    """Change the server's names and the addresses it listens on."""
    bound = list(dict.fromkeys(validate_address(a, "bind") for a in bind if a.strip()))
    try:
        SmbGlobals(netbios_name, workgroup, description.strip(), tuple(bound))
    except SmbError as exc:
        raise _refused(exc, "netbios_name") from exc
    row = SmbSettings.load()

    def change() -> SmbSettings:
        row.netbios_name, row.workgroup = netbios_name, workgroup
        row.description, row.bind = description.strip(), bound
        row.save()
        return row

    return files_saved_and_applied(change)


def _refused(exc: SmbError, field: str) -> ValidationError:
    """The engine's refusal as a sentence under the field it names (else under `field`)."""
    said = str(exc)
    return fail(exc.field or field, f"{said[:1].upper()}{said[1:]}.")


def _dataset(path: str) -> str:
    """The file system whose mountpoint `path` is, or a refusal naming the path field."""
    dataset, problem = paths.shared_dataset(path.strip())
    if dataset is None:
        raise fail("path", problem or "Not a dataset's mountpoint.")
    blocked = paths.blocked_by(path.strip())
    if blocked is not None:
        raise fail(
            "path",
            f"Users cannot reach this folder: {blocked}, above it, lets nobody else pass "
            f"through, and SMB serves each user as themselves. Allow passing through it "
            f"(chmod o+x {blocked}) or keep the pools elsewhere.",
        )
    return dataset


def _checked(data: dict[str, Any], share: SmbShare | None) -> dict[str, Any]:
    """The share's plain fields, checked by the engine's own rules; errors name the field."""
    name = data["name"].strip()
    clash = SmbShare.objects.filter(name__iexact=name)
    if share is not None:
        clash = clash.exclude(pk=share.pk)
    if clash.exists():
        raise fail("name", f"There is already a share named {name} (Windows ignores case).")
    limit = data.get("time_machine_limit")
    fields = {flag: bool(data.get(flag, default)) for flag, default in _FLAGS.items()}
    if limit is not None and not fields["time_machine"]:
        raise fail("time_machine_limit", "Turn Time Machine on to give it a size limit.")
    dataset = _dataset(data["path"])
    try:
        SmbShareSpec(name=name, path=data["path"].strip(), comment=data.get("comment", ""))
    except SmbError as exc:
        raise _refused(exc, "name") from exc
    return {
        "name": name,
        "dataset": dataset,
        "comment": data.get("comment", "").strip(),
        "time_machine_limit": limit,
        "enabled": bool(data.get("enabled", True)),
        **fields,
    }


def _saved(
    share: SmbShare, fields: dict[str, Any], users: Iterable[LocalUser], groups: Any
) -> SmbShare:
    """The share with these fields and members, saved."""
    for name, value in fields.items():
        setattr(share, name, value)
    share.save()
    share.users.set(users)
    share.groups.set(groups)
    return share


@serialized(*FILE_SERVICES)
def smb_share_create(
    *, users: Iterable[LocalUser] = (), groups: Iterable[LocalGroup] = (), **data: Any
) -> SmbShare:
    """A new SMB share of a dataset."""
    fields = _checked(data, None)
    return files_saved_and_applied(lambda: _saved(SmbShare(), fields, users, groups))


@serialized(*FILE_SERVICES)
def smb_share_update(
    *,
    share: SmbShare,
    users: Iterable[LocalUser] = (),
    groups: Iterable[LocalGroup] = (),
    **data: Any,
) -> SmbShare:
    """Change an SMB share."""
    fields = _checked(data, share)
    return files_saved_and_applied(lambda: _saved(share, fields, users, groups))


def smb_share_delete(*, share: SmbShare) -> None:
    """Stop sharing a dataset over SMB (its files stay)."""
    files_saved_and_applied(share.delete)
