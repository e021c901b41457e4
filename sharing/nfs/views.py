"""NFS pages: exports, and the server's settings."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404

from sharing.models import LocalGroup, LocalUser, NfsSettings, NfsShare
from sharing.nfs import forms, selectors, services
from sharing.pages import FILES, form_page
from storage.datasets import selectors as dataset_selectors
from storage.datasets import selectors as storage


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
    form = forms.NfsShareForm(
        request.POST or None,
        initial=_export_initial(share) if share else {},
        mountpoints=storage.mounted_filesystems(),
    )

    def save(data: dict[str, Any]) -> object:
        data["networks"] = data["networks"].splitlines()
        data["hosts"] = data["hosts"].splitlines()
        data["map_user"] = LocalUser.objects.filter(pk=int(data["map_user"] or 0)).first()
        data["map_group"] = LocalGroup.objects.filter(pk=int(data["map_group"] or 0)).first()
        if share is None:
            saved = services.nfs_share_create(**data)
        else:
            saved = services.nfs_share_update(share=share, **data)
        for warning in selectors.export_warnings(saved):
            messages.warning(request, warning)
        return saved

    title = f"Edit NFS export of {share}" if share else "Add NFS export"
    return form_page(request, form, save=save, title=title, done="NFS export saved.", back=FILES)


def nfs_settings_page(request: HttpRequest) -> HttpResponse:
    """The NFS versions offered."""
    form = forms.NfsSettingsForm(request.POST or None, initial={"v3": NfsSettings.load().v3})
    return form_page(
        request,
        form,
        save=lambda data: services.nfs_settings_update(**data),
        title="NFS settings",
        done="NFS settings saved.",
        back=FILES,
    )
