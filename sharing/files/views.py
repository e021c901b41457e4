"""File-sharing pages above the protocols: the overview, the wizard, a folder's owner, deletes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.db.models import Model
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from nasui import pages
from sharing.accounts import selectors as account_selectors
from sharing.accounts import services as account_services
from sharing.files import forms, services
from sharing.models import LocalGroup, LocalUser, SmbSettings, SmbShare
from sharing.nfs import selectors as nfs_selectors
from sharing.pages import FILES, delete_page, form_page
from sharing.runtime import runtime
from sharing.smb import selectors as smb_selectors
from sharing.smb import services as smb_services
from storage.datasets import selectors as storage
from storage.ownership import selectors as ownership_selectors
from storage.validation import COMPRESSION_FORM_CHOICES


def files_index(request: HttpRequest) -> HttpResponse:
    """The SMB service, its shares, and the local users and groups they admit."""
    context = {
        "service": runtime("smb").status(),
        "smb": SmbSettings.load(),
        "shares": smb_selectors.smb_share_list(),
        "users": account_selectors.local_user_list(),
        "groups": account_selectors.local_group_list(),
        "exports": nfs_selectors.nfs_share_list(),
        "nfs": runtime("nfs").status(),
    }
    return render(request, "sharing/files.html", context)


def _wizard_arguments(data: dict[str, Any]) -> dict[str, Any]:
    """The wizard form's data as the wizard service takes it."""
    data["protocols"] = [name for name in services.PROTOCOLS if data.pop(name)]
    data["users"] = list(LocalUser.objects.filter(pk__in=[int(pk) for pk in data["users"]]))
    data["networks"] = data["networks"].splitlines()
    data["hosts"] = data["hosts"].splitlines()
    data["map_user"] = LocalUser.objects.filter(pk=int(data["map_user"] or 0)).first()
    data["map_group"] = LocalGroup.objects.filter(pk=int(data["map_group"] or 0)).first()
    return data


def share_wizard(request: HttpRequest) -> HttpResponse:
    """Share a dataset over SMB, NFS or both in one step: dataset, who may use it, shares."""
    filesystems = storage.filesystem_names()
    form = forms.ShareWizardForm(
        request.POST or None,
        parents=filesystems,
        filesystems=filesystems,
        compressions=COMPRESSION_FORM_CHOICES,
    )
    intro = (
        "Makes a dataset (or takes one you have), a user if you need one, and an SMB share or "
        "NFS export of it (or both), at once. The dataset's folder is given to the users you pick."
    )

    def save(data: dict[str, Any]) -> services.WizardShare:
        made = services.share_dataset(**_wizard_arguments(data))
        warnings = nfs_selectors.export_warnings(made.export) if made.export else []
        for warning in warnings:
            messages.warning(request, warning)
        return made

    return pages.form_page(
        request,
        form,
        save=save,
        template="sharing/share_wizard.html",
        context={"title": "Share a dataset", "intro": intro, "back": FILES},
        done=services.summary,
        then=FILES,
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
    form = forms.PermissionsForm(request.POST or None, initial=initial)

    def save(data: dict[str, Any]) -> object:
        return services.dataset_owner_set(
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
        back=FILES,
    )


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
        back=FILES,
    )


# kind -> (model, service, its argument, what it is called, what the user should know)
DELETERS: dict[str, tuple[type[Model], Callable[..., None], str, str, str]] = {
    "user": (LocalUser, account_services.user_delete, "user", "User", "Its files keep its UID."),
    "group": (LocalGroup, account_services.group_delete, "group", "Group", ""),
    "smb-share": (
        SmbShare,
        smb_services.smb_share_delete,
        "share",
        "SMB share",
        "The dataset and its files stay.",
    ),
}
