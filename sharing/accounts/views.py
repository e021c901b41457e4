"""File-sharing pages: SMB service and shares, local users and groups."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.db.models import Model
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from nasui import pages
from sharing.accounts import forms as f
from sharing.accounts import selectors as account_selectors
from sharing.accounts import services as accounts
from sharing.files import services as perms
from sharing.files import wizard_tmp as files_wizard
from sharing.models import LocalGroup, LocalUser, NfsSettings, NfsShare, SmbSettings, SmbShare
from sharing.nfs import selectors as nf_selectors
from sharing.nfs import services as nfs
from sharing.pages import delete_page, form_page
from sharing.runtime import ApplyError, runtime
from sharing.smb import selectors as smb_selectors
from sharing.smb import services as smb
from storage.datasets import selectors as dataset_selectors
from storage.datasets import selectors as storage
from storage.ownership import selectors as ownership_selectors
from storage.validation import COMPRESSION_FORM_CHOICES, format_size, parse_size

BACK = "sharing:files"


def files_index(request: HttpRequest) -> HttpResponse:
    """The SMB service, its shares, and the local users and groups they admit."""
    context = {
        "service": runtime("smb").status(),
        "smb": SmbSettings.load(),
        "shares": smb_selectors.smb_share_list(),
        "users": account_selectors.local_user_list(),
        "groups": account_selectors.local_group_list(),
        "exports": nf_selectors.nfs_share_list(),
        "nfs": runtime("nfs").status(),
    }
    return render(request, "sharing/files.html", context)


@require_POST
def smb_service_control(request: HttpRequest, action: str) -> HttpResponse:
    """Start, stop or restart the SMB service."""
    try:
        runtime("smb").control(action)
    except ApplyError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, f"SMB service: {action} done.")
    return redirect(BACK)


def _groups(pks: list[str]) -> list[LocalGroup]:
    return list(LocalGroup.objects.filter(pk__in=[int(pk) for pk in pks]))


def group_form(request: HttpRequest, pk: int | None = None) -> HttpResponse:
    """Create or edit a local group."""
    group = get_object_or_404(LocalGroup, pk=pk) if pk else None
    initial = {"name": group.name, "comment": group.comment} if group else {}
    form = f.LocalGroupForm(request.POST or None, initial=initial, editing=group is not None)

    def save(data: dict[str, Any]) -> object:
        if group is None:
            return accounts.group_create(**data)
        return accounts.group_update(group=group, **data)

    title = f"Edit group {group}" if group else "Add group"
    return form_page(request, form, save=save, title=title, done="Group saved.", back=BACK)


def _user_initial(user: LocalUser) -> dict[str, Any]:
    return {
        "full_name": user.full_name,
        "email": user.email,
        "group": str(user.group_id),
        "groups": [str(g.pk) for g in user.groups.all()],
        "home_dataset": user.home_dataset,
        "disabled": user.disabled,
    }


def user_form(request: HttpRequest, pk: int | None = None) -> HttpResponse:
    """Create or edit a local user (the password is never shown back)."""
    user = get_object_or_404(LocalUser, pk=pk) if pk else None
    form = f.LocalUserForm(
        request.POST or None,
        initial=_user_initial(user) if user else {},
        filesystems=storage.filesystem_names(),
        user=user,
    )

    def save(data: dict[str, Any]) -> object:
        data.pop("password_again")
        group = LocalGroup.objects.filter(pk=int(data.pop("group") or 0)).first()
        groups = _groups(data.pop("groups"))
        if user is None:
            return accounts.user_create(group=group, groups=groups, **data)
        return accounts.user_update(user=user, group=group or user.group, groups=groups, **data)

    title = f"Edit user {user}" if user else "Add user"
    intro = "A user of the file shares (SMB), not a login to this panel."
    return form_page(
        request, form, save=save, title=title, done="User saved.", intro=intro, back=BACK
    )


def _mountpoints() -> list[tuple[str, str]]:
    """(dataset, mountpoint) of every mounted file system, for the share form."""
    return [
        (d.name, d.mountpoint)
        for d in storage.dataset_list(volumes=False)
        if d.mountpoint and d.mountpoint.startswith("/")
    ]


def _share_initial(share: SmbShare) -> dict[str, Any]:
    limit = share.time_machine_limit
    fields = ("name", "comment", "read_only", "browseable", "guest_ok", "shadow_copy")
    return {
        **{name: getattr(share, name) for name in fields},
        **{name: getattr(share, name) for name in ("fruit", "time_machine", "audit", "enabled")},
        "path": dataset_selectors.dataset_path(share.dataset),
        "users": [str(u.pk) for u in share.users.all()],
        "groups": [str(g.pk) for g in share.groups.all()],
        "time_machine_limit": format_size(limit) if limit else "",
    }


def share_form(request: HttpRequest, pk: int | None = None) -> HttpResponse:
    """Create or edit an SMB share of a dataset."""
    share = get_object_or_404(SmbShare, pk=pk) if pk else None
    form = f.SmbShareForm(
        request.POST or None,
        initial=_share_initial(share) if share else {},
        mountpoints=_mountpoints(),
    )

    def save(data: dict[str, Any]) -> object:
        limit = data.pop("time_machine_limit").strip()
        data["time_machine_limit"] = parse_size(limit, "time_machine_limit") if limit else None
        users = list(LocalUser.objects.filter(pk__in=[int(pk) for pk in data.pop("users")]))
        groups = _groups(data.pop("groups"))
        if share is None:
            return smb.smb_share_create(users=users, groups=groups, **data)
        return smb.smb_share_update(share=share, users=users, groups=groups, **data)

    title = f"Edit SMB share {share}" if share else "Add SMB share"
    return form_page(request, form, save=save, title=title, done="SMB share saved.", back=BACK)


def _wizard_arguments(data: dict[str, Any]) -> dict[str, Any]:
    """The wizard form's data as the wizard service takes it."""
    data["protocols"] = [name for name in files_wizard.PROTOCOLS if data.pop(name)]
    data["users"] = list(LocalUser.objects.filter(pk__in=[int(pk) for pk in data["users"]]))
    data["networks"] = data["networks"].splitlines()
    data["hosts"] = data["hosts"].splitlines()
    data["map_user"] = LocalUser.objects.filter(pk=int(data["map_user"] or 0)).first()
    data["map_group"] = LocalGroup.objects.filter(pk=int(data["map_group"] or 0)).first()
    return data


def share_wizard(request: HttpRequest) -> HttpResponse:
    """Share a dataset over SMB, NFS or both in one step: dataset, who may use it, shares."""
    filesystems = storage.filesystem_names()
    form = f.ShareWizardForm(
        request.POST or None,
        parents=filesystems,
        filesystems=filesystems,
        compressions=COMPRESSION_FORM_CHOICES,
    )
    intro = (
        "Makes a dataset (or takes one you have), a user if you need one, and an SMB share or "
        "NFS export of it (or both), at once. The dataset's folder is given to the users you pick."
    )
    return pages.form_page(
        request,
        form,
        save=lambda data: files_wizard.share_dataset(**_wizard_arguments(data)),
        template="sharing/share_wizard.html",
        context={"title": "Share a dataset", "intro": intro, "back": BACK},
        done=files_wizard.summary,
        then=BACK,
    )


def permissions_page(request: HttpRequest, dataset: str) -> HttpResponse:
    """Owner, group and mode of a dataset's folder (optionally of everything inside)."""
    known = dataset in storage.filesystem_names()
    current = ownership_selectors.dataset_permissions(dataset) if known else None
    if current is None:
        raise Http404(f"No mounted file system named {dataset}.")
    uid, gid, mode = current
    owner = LocalUser.objects.filter(uid=uid).first()
    group = LocalGroup.objects.filter(gid=gid).first()
    initial = {
        "owner": str(owner.pk) if owner else "",
        "group": str(group.pk) if group else "",
        "mode": f"{mode:o}",
    }
    form = f.PermissionsForm(request.POST or None, initial=initial)

    def save(data: dict[str, Any]) -> object:
        return perms.dataset_owner_set(
            dataset=dataset,
            owner=LocalUser.objects.filter(pk=int(data["owner"] or 0)).first(),
            group=LocalGroup.objects.filter(pk=int(data["group"] or 0)).first(),
            mode=data["mode"],
            recursive=data["recursive"],
            user=request.user,
        )

    return form_page(
        request,
        form,
        save=save,
        title=f"Permissions of {dataset}",
        done=lambda job: (
            "Permissions saved" + (": the rest follows in a job (see Jobs)." if job else ".")
        ),
        intro=f"Now: uid {uid}, gid {gid}, mode {mode:o}.",
        back=BACK,
    )


def _export_initial(share: NfsShare) -> dict[str, Any]:
    return {
        "path": dataset_selectors.dataset_path(share.dataset),
        "networks": "\n".join(share.networks),
        "hosts": "\n".join(share.hosts),
        "read_only": share.read_only,
        "map_mode": share.map_mode,
        "map_user": str(share.map_user_id or ""),
        "map_group": str(share.map_group_id or ""),
        "comment": share.comment,
        "enabled": share.enabled,
    }


def nfs_share_form(request: HttpRequest, pk: int | None = None) -> HttpResponse:
    """Create or edit an NFS export of a dataset."""
    share = get_object_or_404(NfsShare, pk=pk) if pk else None
    form = f.NfsShareForm(
        request.POST or None,
        initial=_export_initial(share) if share else {},
        mountpoints=_mountpoints(),
    )

    def save(data: dict[str, Any]) -> object:
        data["networks"] = data["networks"].splitlines()
        data["hosts"] = data["hosts"].splitlines()
        data["map_user"] = LocalUser.objects.filter(pk=int(data["map_user"] or 0)).first()
        data["map_group"] = LocalGroup.objects.filter(pk=int(data["map_group"] or 0)).first()
        if share is None:
            return nfs.nfs_share_create(**data)
        return nfs.nfs_share_update(share=share, **data)

    title = f"Edit NFS export of {share}" if share else "Add NFS export"
    return form_page(request, form, save=save, title=title, done="NFS export saved.", back=BACK)


def nfs_settings_page(request: HttpRequest) -> HttpResponse:
    """The NFS versions offered."""
    form = f.NfsSettingsForm(request.POST or None, initial={"v3": NfsSettings.load().v3})
    return form_page(
        request,
        form,
        save=lambda data: nfs.nfs_settings_update(**data),
        title="NFS settings",
        done="NFS settings saved.",
        back=BACK,
    )


def smb_settings_page(request: HttpRequest) -> HttpResponse:
    """The SMB server's names and listen addresses."""
    row = SmbSettings.load()
    initial = {
        "netbios_name": row.netbios_name,
        "workgroup": row.workgroup,
        "description": row.description,
        "bind": "\n".join(row.bind),
    }
    form = f.SmbSettingsForm(request.POST or None, initial=initial)

    def save(data: dict[str, Any]) -> object:
        data["bind"] = [line.strip() for line in data["bind"].splitlines() if line.strip()]
        return smb.smb_settings_update(**data)

    return form_page(
        request, form, save=save, title="SMB settings", done="SMB settings saved.", back=BACK
    )


# kind -> (model, service, its argument, what it is called, what the user should know)
DELETERS: dict[str, tuple[type[Model], Callable[..., None], str, str, str]] = {
    "user": (LocalUser, accounts.user_delete, "user", "User", "Its files keep its UID."),
    "group": (LocalGroup, accounts.group_delete, "group", "Group", ""),
    "smb-share": (
        SmbShare,
        smb.smb_share_delete,
        "share",
        "SMB share",
        "The dataset and its files stay.",
    ),
}


def files_delete(request: HttpRequest, kind: str, pk: int) -> HttpResponse:
    """Confirm, then delete a user, group or share through its service."""
    if kind not in DELETERS:
        raise Http404(f"Nothing called {kind} can be deleted here.")
    model, service, argument, label, warning = DELETERS[kind]
    obj = get_object_or_404(model, pk=pk)
    return delete_page(
        request,
        what=f"{label} “{obj}”",
        delete=lambda: service(**{argument: obj}),
        warning=warning,
        back=BACK,
    )
